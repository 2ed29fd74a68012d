// SPDX-License-Identifier: GPL-3.0-or-later
#include "wrappingbar.h"

#include <QHBoxLayout>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace dplab {

WrappingBar::WrappingBar(QWidget *parent, int groups) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2);
    for (int i = 0; i < std::max(2, groups); ++i) {
        auto *row = new QHBoxLayout;
        rows->addLayout(row);
        mRows << row;
        auto *group = new QWidget(this);
        auto *layout = new QHBoxLayout(group);
        layout->setContentsMargins(0, 0, 0, 0);
        mRows[0]->addWidget(group); // no stretch factor: each group gets what it needs, then a share
        mGroups << group;
    }
}

QHBoxLayout *WrappingBar::group(int i) const
{
    return static_cast<QHBoxLayout *>(mGroups[i]->layout());
}

bool WrappingBar::isWrapped() const
{
    return mRows[0]->indexOf(mGroups[1]) < 0;
}

void WrappingBar::setWrapBeforeShrinking(bool before)
{
    mWrapBeforeShrinking = before;
    arrange();
}

void WrappingBar::arrange()
{
    // Groups in order, as many a row as fit (at their preferred or minimum widths); an empty
    // group (all its controls hidden) takes no room.
    QVector<int> rowOf(mGroups.size(), 0);
    int row = 0, used = 0, widest = 0;
    for (int i = 0; i < mGroups.size(); ++i) {
        const int least = mGroups[i]->minimumSizeHint().width();
        const int need = mWrapBeforeShrinking ? mGroups[i]->sizeHint().width() : least;
        widest = std::max(widest, least);
        if (need > 0 && used > 0 && used + mRows[0]->spacing() + need > width()) {
            ++row;
            used = 0;
        }
        rowOf[i] = row;
        if (need > 0)
            used += (used > 0 ? mRows[0]->spacing() : 0) + need;
    }
    bool same = true;
    for (int i = 0; i < mGroups.size(); ++i)
        same = same && mRows[rowOf[i]]->indexOf(mGroups[i]) >= 0;
    if (!same) {
        for (int i = 0; i < mGroups.size(); ++i)
            for (QHBoxLayout *r : std::as_const(mRows))
                r->removeWidget(mGroups[i]);
        for (int i = 0; i < mGroups.size(); ++i)
            mRows[rowOf[i]]->addWidget(mGroups[i]);
    }
    setMinimumWidth(widest);
}

bool WrappingBar::event(QEvent *event)
{
    const bool handled = QWidget::event(event);
    // A control's preferred width changed (another choice in a combo box): wrap again if need be.
    if (event->type() == QEvent::LayoutRequest && mWrapBeforeShrinking)
        arrange();
    return handled;
}

void WrappingBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange();
}

} // namespace dplab
