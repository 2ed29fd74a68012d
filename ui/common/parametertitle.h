// SPDX-License-Identifier: GPL-3.0-or-later
//
// The name a person reads for a swept parameter: its descriptor label and key
// ("ρ(W_o) · rho_wo") instead of the JSON path of the sweep ("graph.generator.rho_wo").
//
// Threading: pure functions (read the descriptor registries).
#pragma once

#include <QString>

namespace dplab {

/** The label of the parameter at sweep path `path` (runs[*].params.stepsize, graph.generator.nodes,
 *  problem.data.max_samples, …) followed by its key; the path itself when no descriptor has it. */
QString sweepParameterTitle(const QString &path);

} // namespace dplab
