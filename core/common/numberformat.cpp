// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/numberformat.h"

#include <cmath>
#include <cstdio>

namespace dplab {

double withoutRoundOff(double v, double scale)
{
    if (std::isnan(v) || std::isinf(v) || !std::isfinite(scale))
        return v;
    return std::fabs(v) <= kRoundOffRelative * std::fabs(scale) ? 0.0 : v;
}

std::string formatRounded(double v, int digits, double scale)
{
    if (std::isnan(v))
        return "";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, withoutRoundOff(v, scale));
    return buffer;
}

} // namespace dplab
