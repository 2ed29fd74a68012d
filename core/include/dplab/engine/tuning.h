// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tuning: for each run of an experiment, the value of one numeric parameter in [lo, hi] that
// minimises the mean over R repetitions of the final value of one metric (maximises it for the
// accuracies), optionally with every candidate calibrated to a target ε first. The search
// (docs/tuning.md): a grid on a log (or linear) scale, then golden-section search in the bracket
// around the best grid point, within a budget of runner jobs (one job = one repetition of one
// candidate). Every candidate of a run uses the same seeds (common random numbers): repetition k
// of every candidate has the noise streams of repetition k of the run in the experiment. Each
// round's candidates (over every run being tuned) are one job list of the runner
// (dplab/engine/pointrunner.h), so threads change nothing but the wall time. Candidates are keyed
// by their run identity (dplab/engine/runidentity.h): a value that resolves to a configuration
// already evaluated (e.g. an integer parameter rounded to the same value) is not run again.
//
// `compare` adds, for every pair of tuned runs, a paired comparison of their final values at
// their best values over the common repetitions (dplab/engine/statistics.h).
//
// Threading: tune() blocks the caller; the observer is called as in Runner::run, the progress
// callback on the calling thread between rounds. Cancel through RunControl::cancel from any
// thread: the round in flight stops, tune returns what was evaluated with cancelled = true.
#pragma once

#include "dplab/engine/statistics.h"
#include "dplab/engine/runner.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dplab {

struct TuneOptions {
    /** The parameter: relative to each run ("params.stepsize", "privacy.noise_x",
     *  "params.stepsize.a", any path starting with params., privacy., compressor., init. or
     *  weights.; same as "runs[*]." + it; runs without it are not tuned), a comma-separated list
     *  of relative paths ("params.alpha,params.stepsize.a": each run takes the first it has),
     *  one run's ("runs[1].params.stepsize": only that run
     *  is tuned) or the experiment's ("graph.generator.rho_w", "problem.lambda": every run is
     *  tuned alone, each with the value set for the whole experiment). REQUIRES: names an
     *  existing number of the resolved experiment. */
    std::string parameter;
    double lo = 0.0, hi = 0.0; ///< the range; REQUIRES lo < hi, finite, lo > 0 with logScale
    bool logScale = false;     ///< search log(value) instead of value
    std::string metric;        ///< a metric name (dplab/engine/metrics.h)
    /** Target ε: every candidate runs with privacy.epsilon = epsilon; runs whose algorithm cannot
     *  calibrate are reported not comparable and not tuned. */
    std::optional<double> epsilon;
    /** Jobs over the whole tuning (split evenly over the runs tuned); 0 = 20 candidates per run.
     *  REQUIRES: at least 3 candidates per run. */
    long long budget = 0;
    bool compare = false;       ///< pairwise comparison of the tuned runs
};

/** One evaluated candidate. */
struct TuneCandidate {
    int run = 0;               ///< index in the experiment's runs
    double value = 0.0;        ///< the parameter value (rounded for integer parameters)
    SampleSummary stats;       ///< of the final metric values over the repetitions
    std::vector<double> finals; ///< final metric value per repetition (NaN when absent)
    RunStatus status = RunStatus::Ok;
    std::string identity;      ///< run identity of the candidate (all repetitions)
};

struct TunedRun {
    int run = 0;
    std::string label;
    std::string algorithm;
    bool tuned = false;        ///< false: not comparable (see reason) or not selected
    std::string reason;        ///< why not tuned ("" when tuned)
    std::vector<TuneCandidate> candidates; ///< in evaluation order
    int best = -1;             ///< index into candidates of the best (-1: none finite)
    /** Final bracket of the search around the best value, in parameter units. */
    double bracketLow = 0.0, bracketHigh = 0.0;
    const TuneCandidate *bestCandidate() const { return best >= 0 ? &candidates[best] : nullptr; }
};

struct PairComparison {
    int a = 0, b = 0;          ///< indices into TuneResult::runs
    double meanDifference = 0.0; ///< mean of (final a − final b) over the common repetitions
    BootstrapInterval bootstrap; ///< 95 % paired bootstrap interval of that mean
    SignedRankTest wilcoxon;   ///< two-sided signed-rank test of the differences
    bool significant = false;  ///< wilcoxon.p < 0.05
    int repetitions = 0;       ///< pairs with both values finite
};

struct TuneResult {
    std::string parameter;     ///< as given
    std::string metric;
    std::optional<double> epsilon; ///< the target ε every candidate was calibrated to (if any)
    bool maximise = false;     ///< the metric is an accuracy (larger is better)
    bool integer = false;      ///< the parameter is an integer
    int repetitions = 0;
    long long budget = 0;      ///< jobs allowed
    long long jobs = 0;        ///< jobs run
    std::vector<TunedRun> runs; ///< one per run of the experiment, in order
    std::vector<PairComparison> comparisons; ///< with compare: every pair of tuned runs
    Json tuned;                ///< the experiment with every tuned run at its best value
    std::vector<std::string> notes; ///< e.g. why tuned.json keeps a shared parameter's value
    bool cancelled = false;
};

/** Progress between rounds: the round just finished, jobs run so far of the budget, and the
 *  candidates that round evaluated (for a live tuning curve). */
struct TuneProgress {
    int round = 0;
    long long jobs = 0;
    long long budget = 0;
    std::vector<TuneCandidate> candidates;
};

/** Checks the options against the experiment (path, range, metric, budget, compare) without
 *  running anything. Errors name the option ("--param", "--range", "--metric", "--budget",
 *  "--compare", "--epsilon") or the experiment's path. */
Status checkTuneOptions(const Experiment &experiment, const TuneOptions &options);

/** Tunes (see the header comment). `experiment` must be built and have no sweep. */
Result<TuneResult> tune(const Experiment &experiment, const TuneOptions &options, RunnerOptions runner = {},
                        RunObserver *observer = nullptr, RunControl *control = nullptr,
                        const std::function<void(const TuneProgress &)> &progress = {});

/** tuning.csv: `run,value,<metric>_mean,<metric>_std,repetitions`, one row per candidate, runs in
 *  order, candidates by value. */
std::string tuningCsv(const TuneResult &result);
/** best.json: per run label, value, mean, std, repetitions, ci_low, ci_high (or comparable:
 *  false and the reason), the search bracket and identity; plus the comparisons. */
Json bestJson(const TuneResult &result);
/** comparison.csv: `run_a,run_b,mean_difference,bootstrap_low,bootstrap_high,wilcoxon_p,n,significant,better`. */
std::string comparisonCsv(const TuneResult &result);
/** The comparison as a text table for a terminal: per run best value and mean ± CI, then pairs. */
std::string comparisonTable(const TuneResult &result);

} // namespace dplab
