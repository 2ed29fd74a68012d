// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/numberformat.h"
#include "dplab/common/formatnumber.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dplab {

double withoutRoundOff(double v, double scale)
{
    if (std::isnan(v) || std::isinf(v) || !std::isfinite(scale))
        return v;
    return std::fabs(v) <= kRoundOffRelative * std::fabs(scale) ? 0.0 : v;
}

double spreadAboveRoundOff(double mean, double std)
{
    return std::isfinite(std) && std::isfinite(mean) && std::fabs(std) <= kSpreadRoundOffRelative * std::fabs(mean) ? 0.0
                                                                                                                 : std;
}

std::string formatNumber(double v, int significant)
{
    const int length = std::snprintf(nullptr, 0, "%.*g", significant, v);
    std::string text(static_cast<std::size_t>(std::max(length, 0)), '\0');
    std::snprintf(text.data(), text.size() + 1, "%.*g", significant, v);
    return text;
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
