// SPDX-License-Identifier: GPL-3.0-or-later
//
// Re-run only what changed: after an edit, a (sweep point, run) whose run identity (the hash of
// its resolved specification with the seed, docs/architecture.md §2) equals that of a complete
// run of the previous result keeps that result; only the others become jobs (core's runPoints
// with the chosen runs per point). The kept runs are replayed through the observer (their
// recorded batches, then a Finished/Diverged event per repetition) so live views show them like
// fresh ones, and they are copied into the returned result.
//
// Threading: plain functions; runChanged blocks like Runner::run.
#pragma once

#include "dplab/engine/pointrunner.h"
#include "dplab/engine/runidentity.h"

#include <utility>
#include <vector>

namespace dplab {

struct RerunPlan {
    /** Per point of the new experiment: for each run, the (point, run) of the previous result it
     *  reuses, or (-1, -1) when it must run. */
    std::vector<std::vector<std::pair<int, int>>> reuse;
    /** Per point: the runs to run. */
    std::vector<std::vector<int>> runs;
    /** Number of (point, run) pairs that run. */
    int changedRuns() const;
    /** Every run of every point of `next` runs, nothing is reused. */
    static RerunPlan everything(const Experiment &next);
};

/** Per point, per run: the run's key at that point (runKey of the point's experiment). */
using RunKeys = std::vector<std::vector<RunKey>>;

/** Which runs of `next` must run given the previous experiment and its result (either null:
 *  every run). A previous run is reusable when no repetition was cancelled or skipped. */
RerunPlan planRerun(const Experiment &next, const Experiment *previous, const ExperimentResult *previousResult);

/** Runs the plan: the changed runs through runPoints, the reused ones replayed from
 *  `previousResult`. `next` must be built. `jobsRun` receives the number of jobs the runner received.
 *  `keys`, when given, receives the key of every (point, run) of `next`, taken from the sweep
 *  points built for the run: the same keys as runIdentityAt / sweepPointForKeys give, without
 *  resolving the points again (the run history's keys, docs/benchmarks.md). */
Result<ExperimentResult> runChanged(const Experiment &next, const RerunPlan &plan,
                                    const ExperimentResult *previousResult, const RunnerOptions &options,
                                    RunObserver *observer, RunControl *control, int *jobsRun = nullptr,
                                    RunKeys *keys = nullptr);

} // namespace dplab
