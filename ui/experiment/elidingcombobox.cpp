// SPDX-License-Identifier: GPL-3.0-or-later
#include "elidingcombobox.h"

#include <QHelpEvent>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

#include <algorithm>

namespace dplab {

ElidingComboBox::ElidingComboBox(QWidget *parent) : QComboBox(parent) {}

QString ElidingComboBox::shortened(const QString &text, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    QString shorter = text;
    const qsizetype open = text.lastIndexOf(QStringLiteral(" ("));
    if (open > 0 && text.endsWith(QLatin1Char(')')))
        shorter = text.left(open);
    if (metrics.horizontalAdvance(shorter) <= width)
        return shorter;
    return metrics.elidedText(shorter, Qt::ElideRight, width);
}

int ElidingComboBox::textWidth() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    int width = field.width() - 2; // the label's own margin (CE_ComboBoxLabel)
    if (!option.currentIcon.isNull())
        width -= option.iconSize.width() + 4;
    return std::max(0, width);
}

QString ElidingComboBox::displayedText() const
{
    if (isEditable())
        return currentText();
    return shortened(currentText(), fontMetrics(), textWidth());
}

bool ElidingComboBox::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && !isEditable() && displayedText() != currentText()) {
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), currentText(), this);
        return true;
    }
    return QComboBox::event(event);
}

void ElidingComboBox::paintEvent(QPaintEvent *event)
{
    if (isEditable() || currentIndex() < 0) { // typed text, or the placeholder
        QComboBox::paintEvent(event);
        return;
    }
    // QComboBox::paintEvent with the label's text shortened to fit.
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = displayedText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace dplab
