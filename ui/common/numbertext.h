// SPDX-License-Identifier: GPL-3.0-or-later
//
// Mean ± standard deviation as people read them: the spread of repetitions that agree to
// round-off ("1e+04 ± 9.1e-12": the same value up to the last bits of a double) is shown as 0.
//
// Threading: pure functions.
#pragma once

#include <QString>

#include <cmath>

namespace dplab {

/** `std`, or 0 when it is below round-off relative to `mean` (under 1e-9·|mean|: a double
 *  carries about 16 significant digits, sums over thousands of iterations lose a few). */
inline double spreadAboveRoundOff(double mean, double std)
{
    return std::isfinite(std) && std::isfinite(mean) && std::abs(std) <= 1e-9 * std::abs(mean) ? 0.0 : std;
}

/** "mean ± std" with `digits` significant digits for the mean and three for the spread
 *  ("1e+04 ± 0", "0.0123 ± 0.00456"). */
inline QString formatMeanStd(double mean, double std, int digits = 6)
{
    return QString::number(mean, 'g', digits) + QStringLiteral(" ± ")
           + QString::number(spreadAboveRoundOff(mean, std), 'g', 3);
}

} // namespace dplab
