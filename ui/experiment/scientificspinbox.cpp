// SPDX-License-Identifier: GPL-3.0-or-later
#include "scientificspinbox.h"
#include "textconvert.h"

#include <QLocale>
#include <QRegularExpression>

#include <cfloat>
#include <cmath>

namespace dplab {

ScientificSpinBox::ScientificSpinBox(QWidget *parent)
    : QDoubleSpinBox(parent)
{
    // Keep full double precision: the displayed text does the rounding.
    setDecimals(DBL_MAX_10_EXP + DBL_DIG);
    setKeyboardTracking(false);
    setAccelerated(true);
}

QString ScientificSpinBox::textFromValue(double value) const
{
    return numberText(value, 8);
}

double ScientificSpinBox::valueFromText(const QString &text) const
{
    QString t = text.trimmed();
    t.remove(prefix());
    t.remove(suffix());
    bool ok = false;
    const double v = t.trimmed().toDouble(&ok);
    return ok ? v : value();
}

QValidator::State ScientificSpinBox::validate(QString &text, int &) const
{
    QString t = text.trimmed();
    if (!prefix().isEmpty())
        t.remove(prefix());
    if (!suffix().isEmpty())
        t.remove(suffix());
    t = t.trimmed();
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (ok && std::isfinite(v))
        return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    static const QRegularExpression partial(QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d*)?([eE][+-]?\\d*)?$"));
    return partial.match(t).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

void ScientificSpinBox::stepBy(int steps)
{
    const double v = value();
    double next = v;
    if (mLogScale && v > 0) {
        next = v * std::pow(10.0, steps / 10.0);
    } else {
        const double magnitude = v != 0 ? std::pow(10.0, std::floor(std::log10(std::abs(v)))) : 1.0;
        double step = magnitude / 10.0;
        if (v == 0)
            step = singleStep();
        next = v + steps * step;
        // Snap to the step grid to avoid 0.30000000000000004-style tails.
        next = std::round(next / step) * step;
    }
    // Stepping never leaves the allowed range (a value typed outside it steps back in).
    setValue(std::clamp(next, std::max(minimum(), mStepMin), std::min(maximum(), mStepMax)));
}

} // namespace dplab
