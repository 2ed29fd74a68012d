// SPDX-License-Identifier: GPL-3.0-or-later
//
// The runner's job list over points the caller built: Runner::run makes one point per sweep
// value; tuning (dplab/engine/tuning.h) makes one point per candidate value and runs only the run
// being tuned at each. Either way the jobs go to the same thread pool, and a job's numbers depend
// only on its point's experiment, its run index and its repetition (the noise key is the
// experiment's seed, the run index unless common random numbers, and the repetition — not the
// point), so the results are identical at any thread count.
//
// Threading: runPoints blocks the caller; the observer is called as in Runner::run.
#pragma once

#include "dplab/engine/runner.h"

#include <vector>

namespace dplab {

/** One point of a job list: a built experiment without a sweep, its value (written as the sweep
 *  value of the point's results; null for none) and the runs to run there (empty = every run).
 *  Runs left out get their repetitions marked skipped, like another shard's. */
struct PointJobs {
    const Experiment *point = nullptr;
    Json value;
    std::vector<int> runs;
};

/** Runs every selected (point, run, repetition) as one job list ordered by point, run,
 *  repetition, on `options.threads` threads (the shard applies to the selected jobs). Points that
 *  share a built problem (the same Problem object) share one reference solve. Errors as
 *  Runner::run. */
Result<ExperimentResult> runPoints(const std::vector<PointJobs> &points, const RunnerOptions &options,
                                   RunObserver *observer = nullptr, RunControl *control = nullptr);

} // namespace dplab
