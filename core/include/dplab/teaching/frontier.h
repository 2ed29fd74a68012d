// SPDX-License-Identifier: GPL-3.0-or-later
//
// The privacy–utility frontier: every run of an experiment whose algorithm calibrates its noise
// from a target ε (a privacy parameter "epsilon": LDP-GT, paper 003's algorithms, paper 002's
// learners, ...) is run once per target ε, with the experiment's repetitions, and the final value
// of every metric is summarised as mean and standard deviation over the repetitions. Runs whose
// algorithm has no calibration are skipped with a message. Each point is exactly the run the
// experiment file would give with runs[r].privacy.epsilon = ε (same seed, same noise streams).
//
// Threading: runFrontier blocks the caller; the observer is called as in Runner::run.
#pragma once

#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"

#include <string>
#include <vector>

namespace dplab {

/** `count` values from lo to hi, evenly spaced in log scale (count ≥ 1; count 1 gives lo). */
std::vector<double> logSpaced(double lo, double hi, int count);
/** Parses "0.1,1,10" (a list) or "0.1:100:7" (7 log-spaced values from 0.1 to 100); every value
 *  must be finite and > 0. Errors name `what`. */
Result<std::vector<double>> parseEpsilonList(const std::string &text, const std::string &what);

struct FrontierRow {
    int run = 0;           ///< index in the experiment's runs
    std::string label;
    double epsilon = 0.0;  ///< the target ε
    RunStatus status = RunStatus::Ok;
    std::vector<MetricStats> stats; ///< per FrontierResult::metrics (count 0 when absent)
};

struct FrontierResult {
    std::vector<std::string> metrics; ///< union of the runs' metrics, canonical order
    std::vector<double> epsilons;
    std::vector<FrontierRow> rows;    ///< by run, then ε
    std::vector<std::string> skipped; ///< one message per skipped run
    bool cancelled = false;
    bool diverged() const;
};

/** The experiment document of one frontier point: the resolved experiment with
 *  runs[r].privacy.epsilon = epsilon for every calibrated run r (and without the runs that
 *  cannot be calibrated, unless common random numbers are off, where dropping one would change
 *  the others' noise streams). `kept` receives the original index of each run in it. */
Result<Json> frontierDocument(const Experiment &experiment, double epsilon, std::vector<int> *kept,
                              std::vector<std::string> *skipped);

/** Runs the frontier. Errors: an experiment with its own sweep, no run that calibrates ε, bad
 *  ε values, or the runner's errors. */
Result<FrontierResult> runFrontier(const Experiment &experiment, const std::vector<double> &epsilons,
                                   RunnerOptions options = {}, RunObserver *observer = nullptr,
                                   RunControl *control = nullptr);

/** frontier.csv: `run,target_epsilon,<metric>_mean,<metric>_std,…`. */
std::string frontierCsv(const FrontierResult &result);

} // namespace dplab
