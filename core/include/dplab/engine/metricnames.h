// SPDX-License-Identifier: GPL-3.0-or-later
//
// The metrics' names in words (docs/architecture.md §3 names the keys): the one table the window
// (ui's metricTitle) and the run report read, so a table, a caption and a plot title say the same.
//
// Threading: pure functions.
#pragma once

#include <string>

namespace dplab {

/** "Distance to optimum" for distance_to_optimum, …; the key itself for a metric it does not know. */
std::string metricDisplayName(const std::string &name);

} // namespace dplab
