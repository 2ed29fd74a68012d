// SPDX-License-Identifier: GPL-3.0-or-later
#include "wrappingbar.h"

#include <QHBoxLayout>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace dplab {

WrappingBar::WrappingBar(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2);
    for (auto &row : mRows) {
        row = new QHBoxLayout;
        rows->addLayout(row);
    }
    for (auto &group : mGroups) {
        group = new QWidget(this);
        auto *layout = new QHBoxLayout(group);
        layout->setContentsMargins(0, 0, 0, 0);
        mRows[0]->addWidget(group, 1);
    }
}

QHBoxLayout *WrappingBar::group(int i) const
{
    return static_cast<QHBoxLayout *>(mGroups[i]->layout());
}

bool WrappingBar::isWrapped() const
{
    return mRows[1]->indexOf(mGroups[1]) >= 0;
}

void WrappingBar::arrange()
{
    const int first = mGroups[0]->minimumSizeHint().width();
    const int second = mGroups[1]->minimumSizeHint().width();
    const bool wrap = width() < first + second + mRows[0]->spacing();
    if (wrap != isWrapped()) {
        (wrap ? mRows[0] : mRows[1])->removeWidget(mGroups[1]);
        (wrap ? mRows[1] : mRows[0])->addWidget(mGroups[1], 1);
    }
    setMinimumWidth(std::max(first, second));
}

void WrappingBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange();
}

} // namespace dplab
