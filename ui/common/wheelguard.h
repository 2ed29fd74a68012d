// SPDX-License-Identifier: GPL-3.0-or-later
//
// WheelGuard: the mouse wheel over a closed combo box or a spin box that does not have the
// keyboard focus scrolls what holds it instead of changing the value (scrolling the experiment
// panel once switched a run's algorithm, turned Iterations 3000 into 2997 and made the file
// dirty). Click or tab into a field, then the wheel edits it. install() guards every such field
// of the application, including those created later; the fields get Qt::StrongFocus, so the
// wheel does not give them the focus either.
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
    /** Guards every field of the application (once; later calls do nothing). Unfocused wheel
     *  events over a field scroll its nearest scroll area, or are dropped when it has none. */
    static void install();
    /** Guards the fields under `area`'s widget; unfocused wheel events scroll `area`. */
    explicit WheelGuard(QAbstractScrollArea *area);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit WheelGuard(QObject *parent);
    bool mEverywhere = false;
    QPointer<QAbstractScrollArea> mArea;
};

} // namespace dplab
