// SPDX-License-Identifier: GPL-3.0-or-later
#include "messageinspector.h"

#include "presentationscale.h"
#include "teachingplot.h"
#include "textconvert.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace dplab {

QString MessageInspector::vectorText(const Eigen::VectorXd &v)
{
    QStringList parts;
    const Eigen::Index shown = std::min<Eigen::Index>(v.size(), 8);
    for (Eigen::Index k = 0; k < shown; ++k)
        parts << numberText(v[k], 6);
    QString text = QStringLiteral("[") + parts.join(QStringLiteral(", "));
    if (v.size() > shown)
        text += tr(", … (%1 values)").arg(v.size());
    return text + QStringLiteral("]");
}

MessageInspector::MessageInspector(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    mTitle = new QLabel(tr("Pause the playback and click a link to inspect its message."), this);
    mTitle->setWordWrap(true);
    layout->addWidget(mTitle);
    mTable = new QTableWidget(0, 5, this);
    mTable->setHorizontalHeaderLabels({tr("Channel"), tr("Clean value"), tr("Noise added"), tr("Sent (noised, compressed)"), tr("Bits")});
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTable->horizontalHeader()->setStretchLastSection(true);
    mTable->verticalHeader()->hide();
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->setMinimumHeight(44);
    // As tall as its rows (fitTable): the rest of the page goes to the plot.
    mTable->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    layout->addWidget(mTable);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Plot channel"), this));
    mChannel = new QComboBox(this);
    row->addWidget(mChannel);
    row->addWidget(new QLabel(tr("coordinate"), this));
    mCoordinate = new QSpinBox(this);
    row->addWidget(mCoordinate);
    row->addStretch();
    layout->addLayout(row);
    mPlot = new QCustomPlot(this);
    PresentationScale::follow(mPlot); // fonts, ticks and lines at the presentation size
    mPlot->setMinimumHeight(120);
    mPlot->xAxis->setLabel(tr("iteration"));
    mPlot->legend->setVisible(true);
    layout->addWidget(mPlot, 1);
    connect(mChannel, &QComboBox::currentIndexChanged, this, &MessageInspector::refreshPlot);
    connect(mCoordinate, &QSpinBox::valueChanged, this, &MessageInspector::refreshPlot);
}

void MessageInspector::setSession(const TeachingSession *session)
{
    mSession = session;
    mFrom = mTo = -1;
    setRun(0);
}

void MessageInspector::setRun(int run)
{
    mRun = run;
    const QString current = mChannel->currentText();
    mChannel->blockSignals(true);
    mChannel->clear();
    if (mSession && mSession->hasResult())
        mChannel->addItems(mSession->channels(run));
    const int keep = mChannel->findText(current);
    mChannel->setCurrentIndex(keep >= 0 ? keep : 0);
    mChannel->blockSignals(false);
    mCoordinate->setRange(0, std::max(0, (mSession && mSession->hasResult() ? mSession->dimension() : 1) - 1));
    refreshTable();
    refreshPlot();
}

void MessageInspector::setEdge(int from, int to)
{
    mFrom = from;
    mTo = to;
    refreshTable();
    refreshPlot();
}

void MessageInspector::setIndex(int index)
{
    mIndex = index;
    refreshTable();
    if (mCursor && mSession && mSession->hasResult()) {
        const auto &its = mSession->iterations(mRun);
        const double k = index >= 0 && index < static_cast<int>(its.size()) ? static_cast<double>(its[index]) : 0.0;
        mCursor->point1->setCoords(k, 0);
        mCursor->point2->setCoords(k, 1);
        mPlot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MessageInspector::refreshTable()
{
    mTable->setRowCount(0);
    fitTable();
    mTitle->setToolTip(mFrom >= 0 ? tr("What agent %1 broadcast to its out-neighbours in that iteration.").arg(mFrom) : QString());
    if (!mSession || !mSession->hasResult() || mFrom < 0) {
        if (mFrom < 0)
            mTitle->setText(tr("Pause the playback and click a link to inspect its message."));
        return;
    }
    const auto &its = mSession->iterations(mRun);
    if (mIndex < 0 || mIndex >= static_cast<int>(its.size()))
        return;
    const long long k = its[mIndex];
    const MessageRecord *record = mSession->messages(mRun, k);
    mTitle->setText(record ? tr("Agent %1 → agent %2, iteration %3 (%4)")
                                 .arg(mFrom)
                                 .arg(mTo)
                                 .arg(k)
                                 .arg(mSession->runLabel(mRun))
                           : tr("Agent %1 → agent %2: no message after the last iteration.").arg(mFrom).arg(mTo));
    if (!record)
        return;
    for (const Message &m : record->messages) {
        if (m.sender != mFrom)
            continue;
        const int row = mTable->rowCount();
        mTable->insertRow(row);
        mTable->setItem(row, 0, new QTableWidgetItem(toQString(m.channel)));
        mTable->setItem(row, 1, new QTableWidgetItem(vectorText(m.clean)));
        mTable->setItem(row, 2, new QTableWidgetItem(vectorText(m.noise)));
        mTable->setItem(row, 3, new QTableWidgetItem(vectorText(m.sent)));
        mTable->setItem(row, 4, new QTableWidgetItem(QString::number(static_cast<qulonglong>(m.bits))));
    }
    fitTable();
}

void MessageInspector::fitTable()
{
    // Header, rows, frame and the horizontal scroll bar: no empty space under the last channel.
    mTable->resizeRowsToContents();
    int height = mTable->horizontalHeader()->sizeHint().height() + 2 * mTable->frameWidth();
    for (int r = 0; r < mTable->rowCount(); ++r)
        height += mTable->rowHeight(r);
    height += mTable->horizontalScrollBar()->sizeHint().height();
    mTable->setMaximumHeight(std::max(mTable->minimumHeight(), height));
}

void MessageInspector::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitTable(); // the presentation size changes the rows' height
}

void MessageInspector::refreshPlot()
{
    mPlot->clearGraphs();
    mPlot->clearItems();
    mCursor = nullptr;
    if (!mSession || !mSession->hasResult() || mFrom < 0 || mChannel->currentText().isEmpty()) {
        mPlot->replot();
        return;
    }
    const std::string channel = toStdString(mChannel->currentText());
    const int coordinate = mCoordinate->value();
    QVector<double> keys, clean, sent;
    for (long long k : mSession->iterations(mRun)) {
        const MessageRecord *record = mSession->messages(mRun, k);
        if (!record)
            continue;
        const Message *m = findMessage(*record, mFrom, channel);
        if (!m || coordinate >= m->clean.size())
            continue;
        keys << static_cast<double>(k);
        clean << m->clean[coordinate];
        sent << m->sent[coordinate];
    }
    QCPGraph *sentGraph = mPlot->addGraph();
    sentGraph->setName(tr("sent (noised, compressed)"));
    sentGraph->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1));
    sentGraph->setData(keys, sent, true);
    QCPGraph *cleanGraph = mPlot->addGraph();
    cleanGraph->setName(tr("clean"));
    cleanGraph->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
    cleanGraph->setData(keys, clean, true);
    mPlot->yAxis->setLabel(tr("%1[%2] of agent %3").arg(mChannel->currentText()).arg(coordinate).arg(mFrom));
    mPlot->rescaleAxes();
    mCursor = addIterationCursor(mPlot);
    setIndex(mIndex);
    mPlot->replot();
}

} // namespace dplab
