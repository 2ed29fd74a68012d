// SPDX-License-Identifier: GPL-3.0-or-later
#include "attackpanel.h"

#include "messageinspector.h"
#include "plotstyle.h"
#include "presentationscale.h"
#include "teachingplot.h"
#include "textconvert.h"

#include "dplab/engine/metrics.h"
#include "dplab/teaching/attackdemo.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

QString AttackPanel::helpText()
{
    return tr(R"(### How the eavesdropper works

The observer wiretaps every link of one agent i — it sees what i sends and receives — and knows the public protocol (weights, step sizes). It never sees i's data.

**1. Gradients from messages.** Each algorithm's update, solved for the gradient:

* DGD: ĝᵢ(k) = (Σⱼ Wᵢⱼ mⱼ(k) − mᵢ(k+1)) / αₖ
* DIGing, Push-Pull: ĝᵢ(0) = m^y_i(0), ĝᵢ(k+1) = ĝᵢ(k) + m^y_i(k+1) − Σⱼ Mᵢⱼ m^y_j(k)
* LDP-GT (paper 000): ĝᵢ(t) = (m^s_i(t+1) − Σⱼ Cᵢⱼ m^s_j(t)) / λₜ

where m are the values on the wire (clean + DP noise, then compressed).

**2. The data point from a gradient** (one sample; the ridge term λx is public, r = ĝ − λx):

* logistic: r = −σ(−bᵀx)·b with b = y·a, so b = β·u with u = −r/‖r‖ and β > 0 solving β·σ(−β·uᵀx) = ‖r‖;
* least squares: r = (aᵀx − y)·a; two gradients give u = r₁ − r₂ = (aᵀδ)·a, δ = x₁ − x₂, so a = ±u/√(δᵀu) and y = aᵀx₁ − r₁ᵀa/‖a‖².

(a, y) and (−a, −y) give the same loss, so the sign is all the attack cannot learn.

**attack_error** is the relative error of the reconstructed data point (or of the gradient when the model cannot be inverted). Without noise it is at round-off level (≈ 1e−15): the messages leak the data exactly. With DP noise the reconstruction is swamped.)");
}

void AttackPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The plot first (a projector at 200 %: it kept 58 px of height): the explanation beside it
    // only when the page is wide, the table of final values under it only when it is tall, the
    // summary at most two lines. Measured in text lines, so the
    // choice follows the presentation size.
    const QFontMetrics fm = fontMetrics();
    mHelp->setVisible(width() >= 90 * fm.averageCharWidth());
    mTable->setVisible(height() >= 26 * fm.lineSpacing());
    mSummary->setMaximumHeight(2 * fm.lineSpacing() + 2);
}

AttackPanel::AttackPanel(QWidget *parent) : QWidget(parent), mDemo(new TeachingSession(this))
{
    auto *layout = new QVBoxLayout(this);
    mSummary = new QLabel(this);
    mSummary->setWordWrap(true);
    layout->addWidget(mSummary);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Eavesdrop on agent"), this));
    mAgent = new QSpinBox(this);
    row->addWidget(mAgent);
    mCompare = new QPushButton(tr("Compare noise on / off"), this);
    mCompare->setToolTip(tr("Runs every attackable run of this experiment twice — as it is and with its noise set to "
                            "0 — with the same seed, and plots what the eavesdropper reconstructs."));
    row->addWidget(mCompare);
    row->addStretch();
    layout->addLayout(row);
    auto *split = new QSplitter(Qt::Horizontal, this);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    mPlot = new QCustomPlot(left);
    PresentationScale::follow(mPlot); // fonts, ticks and lines at the presentation size
    mPlot->setMinimumHeight(140); // the tab fits beside the network at 1280×720, 200 %
    mPlot->xAxis->setLabel(tr("iteration"));
    mPlot->yAxis->setLabel(tr("reconstruction error (relative)"));
    mPlot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    mPlot->yAxis->setTicker(makeLogTicker(mPlot->yAxis));
    mPlot->legend->setVisible(true);
    leftLayout->addWidget(mPlot, 1);
    mTable = new QTableWidget(0, 3, left);
    mTable->setHorizontalHeaderLabels({tr("Run"), tr("Truth"), tr("Reconstructed (final)")});
    mTable->horizontalHeader()->setStretchLastSection(true);
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTable->verticalHeader()->hide();
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->setMaximumHeight(150);
    leftLayout->addWidget(mTable);
    mHelp = new QTextBrowser(split);
    mHelp->setWordWrapMode(QTextOption::WordWrap); // between words only, never inside one
    mHelp->setMarkdown(helpText());
    split->addWidget(left);
    split->addWidget(mHelp);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    mSummary->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    connect(mCompare, &QPushButton::clicked, this, [this] { runComparison(mAgent->value()); });
    connect(mDemo, &TeachingSession::ready, this, [this] {
        mShowDemo = true;
        refresh();
    });
    connect(mDemo, &TeachingSession::failed, this, [this](const QString &message) {
        mSummary->setText(tr("The comparison could not run: %1").arg(message));
    });
    connect(mDemo, &TeachingSession::busyChanged, this, [this](bool busy) {
        mCompare->setEnabled(!busy);
        emit busyChanged(busy);
    });
    refresh();
}

void AttackPanel::setSession(const TeachingSession *session)
{
    mSession = session;
    mShowDemo = false;
    refresh();
}

void AttackPanel::reset()
{
    mDemo->clear();
    mShowDemo = false;
    refresh();
}

const TeachingSession *AttackPanel::shownSession() const
{
    return mShowDemo ? mDemo : mSession;
}

void AttackPanel::runComparison(int agent)
{
    if (!mSession || !mSession->experiment())
        return;
    std::vector<std::string> skipped;
    auto doc = attackComparisonDocument(*mSession->experiment(), agent, &skipped);
    if (!doc) {
        mSummary->setText(tr("No attack to show: %1").arg(toQString(doc.error().toString())));
        return;
    }
    auto experiment = parseExperiment(*doc, mSession->experiment()->baseDir);
    if (!experiment) {
        mSummary->setText(tr("No attack to show: %1").arg(toQString(experiment.error().toString())));
        return;
    }
    mSummary->setText(tr("Recording the noise on / off comparison…"));
    mDemo->start(std::make_shared<const Experiment>(std::move(experiment.value())));
}

void AttackPanel::setIndex(int index)
{
    mIndex = index;
    const TeachingSession *s = shownSession();
    if (mCursor && s && s->hasResult() && s->runCount() > 0) {
        const auto &its = s->iterations(0);
        const double k = index >= 0 && index < static_cast<int>(its.size()) ? static_cast<double>(its[index]) : 0.0;
        mCursor->point1->setCoords(k, 1);
        mCursor->point2->setCoords(k, 2);
        mPlot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void AttackPanel::refresh()
{
    mPlot->clearGraphs();
    mPlot->clearItems();
    mCursor = nullptr;
    mTable->setRowCount(0);
    const TeachingSession *s = shownSession();
    mAgent->setRange(0, std::max(0, (mSession && mSession->hasResult() ? mSession->agentCount() : 1) - 1));
    if (!s || !s->hasResult()) {
        mSummary->setText(tr("Record the experiment, then compare what an eavesdropper learns with and without noise."));
        mPlot->replot();
        return;
    }
    const auto &runs = s->result()->points.front().runs;
    QString description;
    int shown = 0;
    double lo = 1e300, hi = -1e300;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const RunResult &run = runs[r];
        // Exact reconstructions sit at round-off; show them at 1e-16 on the log axis.
        const auto curve = firstRepetitionCurve(run, metric::AttackError, [](long long, double v) {
            return std::isfinite(v) ? std::optional<double>(std::max(v, 1e-16)) : std::nullopt;
        });
        if (!curve)
            continue;
        for (const double v : curve->values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        addRunGraph(mPlot, run, static_cast<int>(r), *curve);
        const RepetitionResult &rep = *curve->repetition;
        if (description.isEmpty())
            description = toQString(run.attack);
        const int row = mTable->rowCount();
        mTable->insertRow(row);
        mTable->setItem(row, 0, new QTableWidgetItem(toQString(run.label)));
        mTable->setItem(row, 1, new QTableWidgetItem(MessageInspector::vectorText(rep.attackTruth)));
        mTable->setItem(row, 2, new QTableWidgetItem(MessageInspector::vectorText(rep.attackEstimate)));
        ++shown;
    }
    if (shown == 0) {
        mSummary->setText(tr("This recording has no eavesdropper. Choose an agent and press “Compare noise on / off”."));
        mPlot->replot();
        return;
    }
    mSummary->setText(description.isEmpty() ? tr("Reconstruction error per run") : description.left(1).toUpper() + description.mid(1) + QLatin1Char('.'));
    mPlot->xAxis->rescale();
    mPlot->yAxis->setRange(std::max(1e-17, lo / 3), std::max(hi * 3, 10.0));
    mCursor = addIterationCursor(mPlot);
    setIndex(mIndex);
    mPlot->replot();
}

} // namespace dplab
