// SPDX-License-Identifier: GPL-3.0-or-later
//
// Mean ± standard deviation as people read them: the spread of repetitions that agree to
// round-off ("1e+04 ± 9.1e-12": the same value up to the last bits of a double) is shown as 0.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/numberformat.h"

#include <QString>

#include <cmath>

namespace dplab {

/** "mean ± std" with `digits` significant digits for the mean and three for the spread
 *  ("1e+04 ± 0", "0.0123 ± 0.00456"). */
inline QString formatMeanStd(double mean, double std, int digits = 6)
{
    return QString::number(mean, 'g', digits) + QStringLiteral(" ± ")
           + QString::number(spreadAboveRoundOff(mean, std), 'g', 3);
}

} // namespace dplab
