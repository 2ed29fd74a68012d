// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/stats.h"

#include <cmath>

namespace dplab {

MeanStd meanStd(const double *values, std::size_t n, std::size_t stride)
{
    MeanStd s;
    double largest = 0.0;
    bool positiveInf = false, negativeInf = false;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i * stride];
        if (std::isnan(v))
            continue;
        ++s.count;
        if (std::isinf(v))
            (v > 0 ? positiveInf : negativeInf) = true;
        else
            largest = std::fmax(largest, std::fabs(v));
    }
    if (s.count == 0)
        return s;
    if (positiveInf || negativeInf) {
        s.mean = positiveInf && negativeInf ? std::numeric_limits<double>::quiet_NaN()
                                            : (positiveInf ? 1.0 : -1.0) * std::numeric_limits<double>::infinity();
        return s; // std stays NaN: a spread of infinite values is not a number
    }
    // Scale to magnitudes below 1 by a power of two: exact, and every squared deviation below
    // is at most 4 (no overflow), the sum at most 4·count.
    const int exponent = largest > 0.0 ? std::ilogb(largest) + 1 : 0;
    double mean = 0.0, m2 = 0.0;
    int k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i * stride];
        if (std::isnan(v))
            continue;
        const double x = std::scalbn(v, -exponent);
        ++k;
        const double delta = x - mean;
        mean += delta / k;
        m2 += delta * (x - mean);
    }
    s.mean = std::scalbn(mean, exponent);
    s.std = s.count > 1 ? std::scalbn(std::sqrt(std::fmax(m2, 0.0) / (s.count - 1)), exponent) : 0.0;
    return s;
}

} // namespace dplab
