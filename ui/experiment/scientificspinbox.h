// SPDX-License-Identifier: GPL-3.0-or-later
//
// ScientificSpinBox: a QDoubleSpinBox for parameters that span decades (step sizes, noise
// scales, ε). Shows up to 8 significant digits ("0.05", "1e-06"), accepts scientific input,
// and steps multiplicatively on a log scale (10 clicks per decade) or by a tenth of the
// current order of magnitude on a linear scale.
//
// Threading: GUI thread.
#pragma once

#include <QDoubleSpinBox>

namespace dplab {

class ScientificSpinBox : public QDoubleSpinBox
{
    Q_OBJECT

public:
    explicit ScientificSpinBox(QWidget *parent = nullptr);

    void setLogScale(bool logScale) { mLogScale = logScale; }
    /** The arrows and the wheel step within [min, max] (typing may go past it: the form marks
     *  such a value instead of reverting it). Without it they step within the widget's range. */
    void setStepRange(double min, double max)
    {
        mStepMin = min;
        mStepMax = max;
    }
    bool logScale() const { return mLogScale; }

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;
    void stepBy(int steps) override;

private:
    bool mLogScale = false;
    double mStepMin = -1e300, mStepMax = 1e300;
};

} // namespace dplab
