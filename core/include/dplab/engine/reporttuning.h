// SPDX-License-Identifier: GPL-3.0-or-later
//
// The run report's "Compare tuned" section (docs/tuning.md): when a tuning with --compare (the
// CLI's `tune … --compare`, the window's Tune dialog with "Compare tuned runs") belongs to the
// experiment, the report shows per run the best value and the final metric's mean ± 95 %
// interval, and per pair the paired comparison over the common seeds. It is built from the
// tuning's best.json, so the window (which has the tuning in memory) and `dplab-cli report
// --tuning DIR` / `report --from DIR` (which read DIR/best.json) write the same section.
//
// Threading: pure functions.
#pragma once

#include "dplab/engine/report.h"

#include <vector>

namespace dplab {

/** The section's blocks (a heading, a sentence naming the parameter, metric and target ε, the
 *  runs table and the pairs table); empty when `best` (best.json's contents) has no
 *  "comparisons". Errors name the key of best.json that is malformed. */
Result<std::vector<ReportBlock>> compareTunedBlocks(const Json &best);

/** Inserts the section into a report's blocks after the "Final values" table (before "Warnings" and "How to reproduce"), or at the
 *  end when there is none. */
void insertCompareTuned(std::vector<ReportBlock> &report, std::vector<ReportBlock> section);

} // namespace dplab
