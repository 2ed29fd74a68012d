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

// The scroll area whose contents hold `field` (not the field's own line edit or list).
QAbstractScrollArea *scrollAreaOf(QWidget *field)
{
    for (QWidget *w = field->parentWidget(); w; w = w->parentWidget())
        if (auto *area = qobject_cast<QAbstractScrollArea *>(w))
            return area;
    return nullptr;
}

} // namespace

void WheelGuard::install()
{
    static QPointer<WheelGuard> guard;
    if (guard)
        return;
    guard = new WheelGuard(qApp);
    guard->mEverywhere = true;
}

WheelGuard::WheelGuard(QObject *parent)
    : QObject(parent)
{
    qApp->installEventFilter(this);
}

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
    if (event->type() != QEvent::Wheel || (!mArea && !mEverywhere))
        return false;
    QWidget *field = guardedField(watched);
    if (!field || field->hasFocus())
        return false;
    QAbstractScrollArea *area = mArea;
    if (mEverywhere)
        area = scrollAreaOf(field);
    else if (!mArea->isAncestorOf(field))
        return false;
    if (field->focusPolicy() == Qt::WheelFocus)
        field->setFocusPolicy(Qt::StrongFocus);
    // Scroll what holds the field instead (nothing, outside a scroll area).
    if (area && area->verticalScrollBar())
        QApplication::sendEvent(area->verticalScrollBar(), event);
    return true;
}

} // namespace dplab
