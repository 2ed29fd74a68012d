// SPDX-License-Identifier: GPL-3.0-or-later
//
// The one number formatter for messages and help text: `significant` significant digits, no
// trailing zeros ("0.05", "1e-06", "12.5"), the same text `std::ostream << v` gives at that
// precision. Error messages, parameter ranges and labels in core use it; ui and app may call it
// too. For displayed results that must show round-off as 0, see numberformat.h.
//
// Threading: pure function.
#pragma once

#include <string>

namespace dplab {

/** `v` as "%.*g" with `significant` significant digits (6 by default, as `std::ostream`):
 *  "0.05", "1e-06", "inf", "nan". */
std::string formatNumber(double v, int significant = 6);

} // namespace dplab
