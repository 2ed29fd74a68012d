// SPDX-License-Identifier: GPL-3.0-or-later
//
// Mean and sample standard deviation that cannot overflow: the values are scaled by a power of
// two near their largest magnitude (exact: it changes no digit) and accumulated with Welford's
// update, so a constant gives exactly its value and a standard deviation of exactly 0 at any
// magnitude (also 1e225, where the squared deviations of a naive sum overflow to inf), and
// values near the largest double give a finite spread. NaN marks an absent value and is
// skipped; an infinite value makes the mean ±inf (or NaN for both signs) and the std NaN.
//
// One implementation for the CSV/summary writers, the window's final-values table and the live
// mean ± std bands.
//
// Threading: pure functions.
#pragma once

#include <cstddef>
#include <limits>

namespace dplab {

struct MeanStd {
    double mean = std::numeric_limits<double>::quiet_NaN(); ///< NaN when count is 0
    double std = std::numeric_limits<double>::quiet_NaN();  ///< sample std; 0 for one value
    int count = 0;                                          ///< values that were not NaN
};

/** Mean and sample standard deviation of values[0..n) (NaN skipped), `stride` apart. */
MeanStd meanStd(const double *values, std::size_t n, std::size_t stride = 1);

} // namespace dplab
