// SPDX-License-Identifier: GPL-3.0-or-later
//
// WheelGuard: in a scrolling form, the mouse wheel over a closed combo box or a spin box that
// does not have the keyboard focus scrolls the form instead of changing the value (scrolling the
// experiment panel once switched a run's algorithm). Click or tab into a field, then the wheel
// edits it. Covers every such field under `root`, including those created later.
//
// Threading: GUI thread.
#pragma once

#include <QObject>
#include <QPointer>

class QAbstractScrollArea;
class QWidget;

namespace dplab {

class WheelGuard : public QObject
{
    Q_OBJECT

public:
    /** Guards the fields under `area`'s widget; unfocused wheel events scroll `area`. */
    explicit WheelGuard(QAbstractScrollArea *area);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QPointer<QAbstractScrollArea> mArea;
};

} // namespace dplab
