// SPDX-License-Identifier: GPL-3.0-or-later
#include "fulltextcombobox.h"

#include <QAbstractItemModel>
#include <QStyle>
#include <QStyleOptionComboBox>

#include <algorithm>

namespace dplab {

FullTextComboBox::FullTextComboBox(QWidget *parent) : QComboBox(parent)
{
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(6);
    // Other choices, another width: the layout asks again. (The model's signals, not the
    // box's: choices are often refilled under a QSignalBlocker.)
    auto changed = [this] { updateGeometry(); };
    connect(model(), &QAbstractItemModel::rowsInserted, this, changed);
    connect(model(), &QAbstractItemModel::rowsRemoved, this, changed);
    connect(model(), &QAbstractItemModel::modelReset, this, changed);
    connect(model(), &QAbstractItemModel::dataChanged, this, changed);
    connect(this, &QComboBox::currentIndexChanged, this, [this] {
        if (mFitCurrent)
            updateGeometry();
    });
}

void FullTextComboBox::setFitCurrentText(bool current)
{
    mFitCurrent = current;
    updateGeometry();
}

QSize FullTextComboBox::sizeHint() const
{
    // The widest choice, so that the bar does not move when another one is picked (or the
    // current one: setFitCurrentText).
    const QSize hint = QComboBox::sizeHint(); // minimumContentsLength characters
    int width = hint.width();
    if (mFitCurrent)
        width = std::max(width, fullTextWidth(this));
    else
        for (int i = 0; i < count(); ++i)
            width = std::max(width, textWidth(this, itemText(i), !itemIcon(i).isNull()));
    return QSize(width, hint.height());
}

int FullTextComboBox::fullTextWidth(const QComboBox *box)
{
    return textWidth(box, box->currentText(), !box->itemIcon(box->currentIndex()).isNull());
}

int FullTextComboBox::textWidth(const QComboBox *box, const QString &text, bool icon)
{
    QStyleOptionComboBox option;
    option.initFrom(box);
    option.editable = box->isEditable();
    option.currentText = text;
    option.iconSize = box->iconSize();
    QSize content(box->fontMetrics().horizontalAdvance(text), box->fontMetrics().height());
    if (icon)
        content.rwidth() += box->iconSize().width() + 4;
    return box->style()->sizeFromContents(QStyle::CT_ComboBox, &option, content, box).width();
}

} // namespace dplab
