// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Runner (docs/architecture.md §2): executes every (sweep point, run, repetition) of an experiment,
// computing the metrics every `record_every` iterations, reporting batches and status changes
// to an observer, polling a cancellation flag every iteration, supporting pause and single
// steps, and detecting divergence. Jobs run on a thread pool; every job's numbers depend only
// on the experiment and its (point, run, repetition), so results are identical at any thread
// count.
//
// Threading: run() blocks the calling thread. The observer is called from worker threads, one
// call at a time (the runner serializes calls). RunControl may be used from any thread.
#pragma once

#include "dplab/engine/experiment.h"
#include "dplab/engine/messages.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace dplab {

/** Cancel / pause / single-step, polled by the runner every iteration (no queued calls). */
class RunControl
{
public:
    void cancel();
    bool isCancelled() const { return mCancelled.load(std::memory_order_relaxed); }
    void pause();
    void resume();
    /** While paused, lets every active repetition advance exactly one iteration. */
    void step();
    bool isPaused() const { return mPaused.load(std::memory_order_relaxed); }

    /** Called by the runner before each iteration: returns at once unless paused; when paused it
     *  blocks until resumed, stepped (consuming the step for this caller) or cancelled. */
    void waitIfPaused(long long &stepTicketSeen);

private:
    std::atomic<bool> mCancelled{false};
    std::atomic<bool> mPaused{false};
    std::mutex mMutex;
    std::condition_variable mWake;
    long long mStepTicket = 0;
};

enum class RunStatus { Ok, Diverged, Cancelled };
const char *runStatusName(RunStatus status);

/** A batch of recorded metric values of one repetition. */
struct MetricsBatch {
    int point = 0; ///< sweep point index (0 without a sweep)
    int run = 0;
    int repetition = 0;
    std::vector<std::string> names;
    std::vector<long long> iterations;
    std::vector<std::vector<double>> values; ///< values[k][m]: iteration k, metric m
    /** Per-agent cumulative ε at each recorded iteration, epsilonAgents[k][i] (empty without an
     *  accountant; the `epsilon` metric is its maximum). */
    std::vector<std::vector<double>> epsilonAgents;
    /** The accountant's alternative bounds (RunResult::alternativeBounds), max over agents, at
     *  each recorded iteration: epsilonAlternatives[k][a]. */
    std::vector<std::vector<double>> epsilonAlternatives;
    std::vector<std::string> alternativeNames; ///< names of those bounds
    /** Messages recorded since the last batch (only with RunnerOptions::messages). */
    std::vector<MessageRecord> messages;
};

struct StatusEvent {
    enum class Kind { Started, Warning, Diverged, Cancelled, Finished, Progress };
    Kind kind = Kind::Started;
    int point = 0;
    int run = 0;
    int repetition = 0;
    long long iteration = 0;
    std::string message;
    long long done = 0;  ///< Progress: iterations done over all jobs
    long long total = 0; ///< Progress: iterations planned over all jobs
};

class RunObserver
{
public:
    virtual ~RunObserver() = default;
    virtual void onBatch(const MetricsBatch &) {}
    virtual void onStatus(const StatusEvent &) {}
};

struct RepetitionResult {
    RunStatus status = RunStatus::Ok;
    long long divergedAt = -1;
    std::vector<long long> iterations;
    std::vector<std::vector<double>> values; ///< [recorded k][metric m]
    Eigen::VectorXd epsilonPerAgent;         ///< final per-agent ε (empty without accountant)
    /** Per-agent ε at each recorded iteration, [k][agent] (empty without accountant). */
    std::vector<std::vector<double>> epsilonAgents;
    /** Max over agents of each alternative bound at each recorded iteration, [k][bound]. */
    std::vector<std::vector<double>> epsilonAlternatives;
    std::vector<Eigen::MatrixXd> trace;      ///< decisions at recorded iterations (with trace)
    std::vector<MessageRecord> messages;     ///< recorded messages (RunnerOptions::messages)
    /** The eavesdropper's final reconstruction and its truth (data point or gradient; empty
     *  without an eavesdropper). */
    Eigen::VectorXd attackEstimate, attackTruth;
    double wallSeconds = 0.0;
    /** Outside the runner's shard: not run, nothing recorded; writers leave it out. */
    bool skipped = false;
};

struct RunResult {
    std::string label;
    std::string algorithm;
    std::vector<std::string> metricNames;
    std::string accountant; ///< accountant name, "" when none
    std::vector<std::string> alternativeBounds; ///< names of the accountant's alternatives()
    std::vector<std::string> warnings;
    std::string attack; ///< what the eavesdropper reconstructs ("" without one)
    std::vector<RepetitionResult> repetitions;
    /** Worst status over repetitions (Diverged > Cancelled > Ok). */
    RunStatus status() const;
};

/** One job of an experiment: a repetition of a run at a sweep point. The job list is ordered by
 *  point, then run, then repetition; a job's random streams depend only on its key. */
struct JobKey {
    int point = 0;
    int run = 0;
    int repetition = 0;
    bool operator==(const JobKey &) const = default;
};

/** A part of the job list: shard `index` of `count` (1-based) takes the jobs whose position k
 *  in the list has k mod count = index − 1. Shards differ in size by at most one job and each
 *  mixes points, runs and repetitions, so cheap and dear jobs spread evenly. */
struct Shard {
    int index = 1;
    int count = 1;
    bool contains(std::size_t position) const
    {
        return count <= 1 || static_cast<int>(position % static_cast<std::size_t>(count)) == index - 1;
    }
    bool whole() const { return count <= 1; }
};

/** Parses "i/N" (1 ≤ i ≤ N). Errors name `option`. */
Result<Shard> parseShard(const std::string &text, const std::string &option);

struct PointResult {
    Json value; ///< sweep value (null without a sweep)
    std::optional<Reference> reference;
    double referenceSeconds = 0.0; ///< wall time of the reference solve (before any run starts)
    std::vector<RunResult> runs;
};

struct ExperimentResult {
    std::vector<PointResult> points;
    bool cancelled = false;
    /** The whole job list, in order (point, run, repetition), whatever the shard. */
    std::vector<JobKey> jobs;
    /** The part of `jobs` this result holds (the others' repetitions are marked skipped). */
    Shard shard;
    bool diverged() const;
};

struct RunnerOptions {
    int threads = 0;            ///< 0 = hardware concurrency
    bool trace = false;         ///< keep decisions at recorded iterations
    int batchSize = 64;         ///< recorded points per observer batch
    Shard shard;                ///< the part of the job list to run (default: all of it)
    MessageRecording messages;  ///< messages to record (teaching views); none by default
    /** Called first on every thread that runs jobs (the calling thread too when it runs them
     *  itself), e.g. to lower the thread's scheduling priority so a GUI stays fluid. Results
     *  do not depend on it. */
    std::function<void()> onWorkerStart;
};

class Runner
{
public:
    explicit Runner(RunnerOptions options = {}) : mOptions(options) {}
    /** Runs the whole experiment. Errors: invalid sweep points, reference solver failures,
     *  algorithm reset failures (each naming the path). */
    Result<ExperimentResult> run(const Experiment &experiment, RunObserver *observer = nullptr,
                                 RunControl *control = nullptr);

private:
    RunnerOptions mOptions;
};

} // namespace dplab
