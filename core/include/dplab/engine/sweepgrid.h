// SPDX-License-Identifier: GPL-3.0-or-later
//
// Sweeps over one parameter or a grid of several (docs/architecture.md §4). In the experiment
// file a sweep is {"parameter": PATH, "values": [v1, v2, ...]}; a grid names a list of paths and
// each value is a list with one entry per path:
//
//   "sweep": {"parameter": ["runs[*].params.stepsize", "runs[*].privacy.epsilon"],
//             "values": [[0.01, 1], [0.01, 10], [0.1, 1], [0.1, 10]]}
//
// Every value is one sweep point (a whole experiment), so the runner, the output files and the
// run identity need nothing new: a grid point's `value` is the list (written as JSON text in
// the `value` columns). SweepSpec::parameter of a grid holds its paths joined by " × " (what
// the CSV files, the report and the window show); these functions take it apart again.
//
// Threading: pure functions.
#pragma once

#include "dplab/engine/experiment.h"

#include <string>
#include <vector>

namespace dplab {

/** What joins a grid's paths in SweepSpec::parameter. */
inline constexpr const char *kSweepGridSeparator = " × ";

/** The paths a sweep sets: one, or a grid's (in order). */
std::vector<std::string> sweepPaths(const SweepSpec &sweep);
/** Whether the sweep is a grid of two or more paths. */
bool isGridSweep(const SweepSpec &sweep);
/** Sets the sweep's path(s) in `document` to `value` (a grid: entry k at path k). Errors name
 *  the path, or "sweep.values" when a grid value is not a list of the right length. */
Status applySweepValue(Json &document, const SweepSpec &sweep, const Json &value);
/** "parameter" as the file writes it: the path, or a grid's list of paths. */
Json sweepParameterJson(const SweepSpec &sweep);
/** The inverse of sweepParameterJson: a path, or a list of two or more paths (joined). Errors
 *  name "sweep.parameter". */
Result<std::string> sweepParameterFromJson(const Json &parameter);

} // namespace dplab
