// SPDX-License-Identifier: GPL-3.0-or-later
//
// ScheduleEditor: edits a schedule parameter (core common/schedule.h): constant a,
// polynomial a/(t+t0)^p or geometric a·q^t. The value is JSON as the experiment file has it:
// a number for a constant, else {"type": ..., "a": ..., ...}.
//
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace dplab {

class ScientificSpinBox;

class ScheduleEditor : public QWidget
{
    Q_OBJECT

public:
    explicit ScheduleEditor(QWidget *parent = nullptr);

    /** Range of the scale a (the ParamSpec's range). */
    void setScaleRange(double min, double max, bool logScale);
    /** Shows `value` (a number or a schedule object) without emitting valueEdited. */
    void setValue(const Json &value);
    Json value() const;

signals:
    void valueEdited(const dplab::Json &value);

private:
    void updateVisibility();
    void emitValue();

    QComboBox *mKind;
    ScientificSpinBox *mA;
    ScientificSpinBox *mT0;
    ScientificSpinBox *mP;
    ScientificSpinBox *mQ;
    QLabel *mT0Label;
    QLabel *mPLabel;
    QLabel *mQLabel;
    bool mUpdating = false;
};

} // namespace dplab
