// SPDX-License-Identifier: GPL-3.0-or-later
#include "runlistwidget.h"

#include "experimentdocument.h"
#include "textconvert.h"

#include "dplab/algo/algorithm.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMessageBox>
#include <QPainter>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace dplab {

namespace {

QIcon colourIcon(const QColor &colour)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(colour.darker(130));
    painter.setBrush(colour);
    painter.drawRoundedRect(QRectF(1, 1, 12, 12), 3, 3);
    return QIcon(pixmap);
}

} // namespace

RunListWidget::RunListWidget(ExperimentDocument *document, QWidget *parent)
    : QGroupBox(tr("Runs"), parent)
    , mDocument(document)
{
    auto *layout = new QVBoxLayout(this);
    mRuns = new QTreeWidget(this);
    mRuns->setColumnCount(2);
    mRuns->setHeaderLabels({tr("Run"), tr("Status")});
    mRuns->setRootIsDecorated(false);
    mRuns->setEditTriggers(QAbstractItemView::EditKeyPressed);
    mRuns->header()->setStretchLastSection(false);
    mRuns->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    mRuns->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    mRuns->setMaximumHeight(140);
    mRuns->setToolTip(tr("Double-click a run to rename it"));
    layout->addWidget(mRuns);
    auto *buttons = new QHBoxLayout;
    buttons->setSpacing(2);
    mAddRun = new QToolButton(this);
    mAddRun->setText(tr("Add"));
    mAddRun->setToolTip(tr("Add a run with the first algorithm that fits the graph"));
    mDuplicateRun = new QToolButton(this);
    mDuplicateRun->setText(tr("Duplicate"));
    mDuplicateRun->setToolTip(tr("Copy the selected run (same seed: a fair comparison)"));
    mRemoveRun = new QToolButton(this);
    mRemoveRun->setText(tr("Remove"));
    mColourRun = new QToolButton(this);
    mColourRun->setText(tr("Colour…"));
    for (QToolButton *b : {mAddRun, mDuplicateRun, mRemoveRun, mColourRun}) {
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    layout->addLayout(buttons);

    connect(mRuns, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (mRefreshing || !item)
            return;
        setCurrentRun(mRuns->indexOfTopLevelItem(item));
    });
    connect(mRuns, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item, int) {
        mRuns->editItem(item, 0);
    });
    connect(mRuns, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        if (!mRefreshing && column == 0)
            onRunRenamed(mRuns->indexOfTopLevelItem(item), item->text(0));
    });
    connect(mAddRun, &QToolButton::clicked, this, [this] {
        const int run = mDocument->addRun();
        if (run >= 0)
            setCurrentRun(run);
    });
    connect(mDuplicateRun, &QToolButton::clicked, this, [this] {
        const int run = mDocument->duplicateRun(mCurrentRun);
        if (run >= 0)
            setCurrentRun(run);
    });
    connect(mRemoveRun, &QToolButton::clicked, this, [this] {
        if (mCurrentRun < 0)
            return;
        const int run = mCurrentRun;
        mDocument->removeRun(run);
        setCurrentRun(std::min(run, mDocument->runCount() - 1));
    });
    connect(mColourRun, &QToolButton::clicked, this, &RunListWidget::chooseColour);
    mCurrentRun = mDocument->runCount() > 0 ? 0 : -1;
}

void RunListWidget::resetForNewDocument()
{
    mCurrentRun = mDocument->runCount() > 0 ? 0 : -1;
    mStatuses.clear();
}

void RunListWidget::setCurrentRun(int run)
{
    if (run >= mDocument->runCount())
        run = mDocument->runCount() - 1;
    if (run == mCurrentRun && (run < 0 || mRuns->currentItem() == mRuns->topLevelItem(run)))
        return;
    mCurrentRun = run;
    refresh();
    emit currentRunChanged(run);
}

void RunListWidget::setRunStatuses(const QStringList &statuses)
{
    mStatuses = statuses;
    mRefreshing = true;
    for (int i = 0; i < mRuns->topLevelItemCount(); ++i)
        mRuns->topLevelItem(i)->setText(1, mStatuses.value(i));
    mRefreshing = false;
}

void RunListWidget::refresh()
{
    mRefreshing = true;
    const int count = mDocument->runCount();
    if (mCurrentRun >= count)
        mCurrentRun = count - 1;
    if (mCurrentRun < 0 && count > 0)
        mCurrentRun = 0;
    while (mRuns->topLevelItemCount() > count)
        delete mRuns->takeTopLevelItem(mRuns->topLevelItemCount() - 1);
    while (mRuns->topLevelItemCount() < count) {
        auto *item = new QTreeWidgetItem(mRuns);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    for (int i = 0; i < count; ++i) {
        QTreeWidgetItem *item = mRuns->topLevelItem(i);
        const Json run = mDocument->run(i);
        const QString label = toQString(run.value("label", std::string()));
        if (item->text(0) != label)
            item->setText(0, label);
        item->setIcon(0, colourIcon(mDocument->runColor(i)));
        item->setText(1, mStatuses.value(i));
        const AlgorithmDescriptor *a = findAlgorithm(run.value("algorithm", std::string()));
        item->setToolTip(0, a ? toQString(a->name) : QString());
    }
    if (mCurrentRun >= 0 && mCurrentRun < count)
        mRuns->setCurrentItem(mRuns->topLevelItem(mCurrentRun));
    mDuplicateRun->setEnabled(mCurrentRun >= 0);
    mRemoveRun->setEnabled(mCurrentRun >= 0 && count > 1);
    mColourRun->setEnabled(mCurrentRun >= 0);
    mRefreshing = false;
}

void RunListWidget::onRunRenamed(int row, const QString &text)
{
    QString error;
    if (!mDocument->renameRun(row, text, &error)) {
        refresh(); // back to the old label
        if (toQString(mDocument->run(row).value("label", std::string())) != text.trimmed())
            QMessageBox::warning(this, tr("Rename run"), error);
    }
}

void RunListWidget::chooseColour()
{
    if (mCurrentRun < 0)
        return;
    const QColor colour = QColorDialog::getColor(mDocument->runColor(mCurrentRun), this, tr("Run colour"));
    if (colour.isValid())
        mDocument->setValue("/runs/" + std::to_string(mCurrentRun) + "/color", toStdString(colour.name()),
                            tr("Change run colour"));
}

} // namespace dplab
