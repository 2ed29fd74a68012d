// SPDX-License-Identifier: GPL-3.0-or-later
//
// Numbers for people: round-off is shown as 0, relative to the scale of the quantity.
//
// A Perron vector entry of −6.95e-17 next to entries of 0.2, a σ₂ of 1.1e-16 for a complete
// graph (whose singular values are at most 1), or an optimality gap of −5.55e-18 where F* ≈ 1 are
// not values but the rounding of double arithmetic (about 2.2e-16 relative, times the few hundred
// operations that produced them). Below kRoundOffRelative × scale a displayed number is 0. Files
// (CSV, JSON) keep every digit; only text meant to be read goes through these functions.
//
// Threading: pure functions.
#pragma once

#include <string>

namespace dplab {

/** Numbers below this fraction of their quantity's scale are round-off. */
inline constexpr double kRoundOffRelative = 1e-12;

/** `v`, or exactly 0 when |v| ≤ kRoundOffRelative · |scale| (scale 0: `v` unchanged; NaN stays). */
double withoutRoundOff(double v, double scale);

/** `v` with `digits` significant digits ("%.*g": "0.05", "1e-06"; "" for NaN), round-off
 *  relative to `scale` shown as "0". */
std::string formatRounded(double v, int digits, double scale = 0.0);

/** Repetitions that agree up to round-off: a spread at most this fraction of the mean's size. */
inline constexpr double kSpreadRoundOffRelative = 1e-9;

/** `std`, or 0 when it is below round-off relative to `mean` (|std| ≤ 1e-9·|mean|: a double
 *  carries about 16 significant digits, sums over thousands of iterations lose a few); NaN and
 *  infinite values unchanged. The report and the window print "mean ± spread" with this rule. */
double spreadAboveRoundOff(double mean, double std);

} // namespace dplab
