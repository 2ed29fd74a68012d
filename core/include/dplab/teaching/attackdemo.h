// SPDX-License-Identifier: GPL-3.0-or-later
//
// The eavesdropper demo for any experiment: each attackable run twice, with its noise and with
// its noise set to 0, same seed, so attack_error can be compared noise on vs noise off.
//
// Threading: pure function.
#pragma once

#include "dplab/engine/experiment.h"

#include <string>
#include <vector>

namespace dplab {

/** The attack demo for any experiment: the resolved document with "eavesdropper": {"agent":
 *  agent} and, for every run whose algorithm has an attack surface, the run itself ("… (noise
 *  on)") followed by a copy with every noise scale and the target ε set to 0 ("… (noise off)"),
 *  same seed. Runs without an attack surface are left out (their names go to `skipped`). Errors:
 *  no run can be attacked, or the experiment has a sweep. */
Result<Json> attackComparisonDocument(const Experiment &experiment, int agent, std::vector<std::string> *skipped = nullptr);

} // namespace dplab
