// SPDX-License-Identifier: GPL-3.0-or-later
#include "historywidget.h"

#include "nonblockingwarning.h"
#include "runhistory.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace dplab {

HistoryWidget::HistoryWidget(RunHistory *history, ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , mHistory(history)
    , mDocument(document)
    , mList(new QTreeWidget(this))
    , mPin(new QPushButton(tr("Pin"), this))
    , mHide(new QPushButton(tr("Hide"), this))
    , mRestore(new QPushButton(tr("Restore"), this))
    , mSave(new QPushButton(tr("Save…"), this))
{
    mList->setHeaderLabels({tr("Run"), tr("What differed"), tr("Pinned"), tr("Shown")});
    mList->setRootIsDecorated(false);
    mList->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    mPin->setToolTip(tr("Keep this result while the window is open (unpinned ones: the last 10 per run)"));
    mHide->setToolTip(tr("Hide or show this result's ghost line in the plots"));
    mRestore->setToolTip(tr("Set the experiment back to this result's configuration (one undo step)"));
    mSave->setToolTip(tr("Save the run this result came from as a results folder (File ▸ Open Results reads it)"));
    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {mPin, mHide, mRestore, mSave})
        buttons->addWidget(b);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mList);
    layout->addLayout(buttons);
    connect(mHistory, &RunHistory::changed, this, &HistoryWidget::refill);
    connect(mList, &QTreeWidget::itemSelectionChanged, this, &HistoryWidget::updateButtons);
    connect(mPin, &QPushButton::clicked, this, &HistoryWidget::togglePinned);
    connect(mHide, &QPushButton::clicked, this, &HistoryWidget::toggleHidden);
    connect(mRestore, &QPushButton::clicked, this, [this] {
        if (!restoreSelected())
            return;
    });
    connect(mSave, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Save result as a results folder"));
        if (dir.isEmpty())
            return;
        QString error;
        if (!saveSelected(dir, &error))
            showNonBlockingWarning(this, tr("Cannot save the result"), error);
    });
    refill();
}

int HistoryWidget::selectedId() const
{
    const QTreeWidgetItem *item = mList->currentItem();
    return item && item->isSelected() ? item->data(0, Qt::UserRole).toInt() : 0;
}

void HistoryWidget::togglePinned()
{
    if (const HistoryEntry *e = mHistory->entry(selectedId()))
        mHistory->setPinned(e->id, !e->pinned);
}

void HistoryWidget::toggleHidden()
{
    if (const HistoryEntry *e = mHistory->entry(selectedId()))
        mHistory->setHidden(e->id, !e->hidden);
}

bool HistoryWidget::restoreSelected()
{
    QString error;
    if (mHistory->restore(selectedId(), mDocument, &error))
        return true;
    showNonBlockingWarning(this, tr("Cannot restore"), error);
    return false;
}

bool HistoryWidget::saveSelected(const QString &dir, QString *error)
{
    return mHistory->save(selectedId(), dir, error);
}

void HistoryWidget::refill()
{
    const int selected = selectedId();
    mList->clear();
    const auto &entries = mHistory->entries();
    for (auto it = entries.crbegin(); it != entries.crend(); ++it) {
        const bool current = mHistory->current(it->point, it->run) == &*it;
        auto *item = new QTreeWidgetItem(mList);
        item->setText(0, it->label);
        item->setText(1, current ? tr("(current)") : it->difference);
        item->setToolTip(1, item->text(1));
        item->setText(2, it->pinned ? tr("yes") : QString());
        item->setText(3, it->hidden ? tr("hidden") : tr("shown"));
        item->setData(0, Qt::UserRole, it->id);
        if (it->id == selected) {
            mList->setCurrentItem(item);
            item->setSelected(true);
        }
    }
    updateButtons();
}

void HistoryWidget::updateButtons()
{
    const HistoryEntry *e = mHistory->entry(selectedId());
    for (QPushButton *b : {mPin, mHide, mRestore, mSave})
        b->setEnabled(e != nullptr);
    mPin->setText(e && e->pinned ? tr("Unpin") : tr("Pin"));
    mHide->setText(e && e->hidden ? tr("Show") : tr("Hide"));
}

} // namespace dplab
