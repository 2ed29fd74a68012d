// SPDX-License-Identifier: GPL-3.0-or-later
#include "wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QScrollBar>
#include <QWheelEvent>

namespace dplab {

namespace {

// The combo box or spin box an event target belongs to (their line edits receive events too).
QWidget *guardedField(QObject *object)
{
    auto *widget = qobject_cast<QWidget *>(object);
    for (int depth = 0; widget && depth < 2; ++depth, widget = widget->parentWidget())
        if (qobject_cast<QComboBox *>(widget) || qobject_cast<QAbstractSpinBox *>(widget))
            return widget;
    return nullptr;
}

} // namespace

WheelGuard::WheelGuard(QAbstractScrollArea *area)
    : QObject(area)
    , mArea(area)
{
    // An application-wide filter sees fields created after this (forms are rebuilt per
    // algorithm); it only looks further at wheel events.
    qApp->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::Wheel || !mArea)
        return false;
    QWidget *field = guardedField(watched);
    if (!field || field->hasFocus() || !mArea->isAncestorOf(field))
        return false;
    if (field->focusPolicy() == Qt::WheelFocus)
        field->setFocusPolicy(Qt::StrongFocus);
    // Scroll the form instead.
    QApplication::sendEvent(mArea->verticalScrollBar(), event);
    return true;
}

} // namespace dplab
