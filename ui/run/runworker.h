// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunWorker: lives on RunController's QThread and runs the core Runner there.
// Its RunObserver copies each MetricsBatch / StatusEvent into the shared RunFeed and
// emits dataReady() when the feed goes from empty to pending; the controller drains it on the
// GUI thread at most ~20 times a second. Cancel / pause / step go through the RunControl
// atomics the runner polls every iteration — never through queued slots, because run() blocks
// this thread's event loop. No exception leaves run(): failures become an outcome with an error.
//
// Threading: post() stores a job from any thread (under a mutex, not as arguments of a queued
// call, so the hand-off is one a race detector can see); runPosted() takes it and run()s it on
// the worker thread, which stores the outcome the same way and emits ended(); dataReady() is
// emitted from the runner's threads (queued to the controller).
#pragma once

#include "dplab/engine/runner.h"
#include "rerunplan.h"

#include <QObject>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

namespace dplab {

class RunFeed;

class RunWorker : public QObject
{
    Q_OBJECT

public:
    explicit RunWorker(std::shared_ptr<RunFeed> feed);

    struct Job
    {
        std::shared_ptr<const Experiment> experiment;
        std::shared_ptr<RunControl> control;
        int threads = 0;
        /** Runs to reuse from `previous` instead of running (null: run everything). */
        std::shared_ptr<const RerunPlan> plan;
        std::shared_ptr<const ExperimentResult> previous;
    };
    /** Any thread: the job the next runPosted() runs. */
    void post(Job job);

    /** How the last run ended: a result, or the message of a failure. */
    struct Outcome
    {
        std::shared_ptr<const ExperimentResult> result;
        QString error;
        int jobsRun = 0; ///< jobs the runner received (reused runs are not jobs)
        /** The key of every (point, run), from the points the run built (null on failure). */
        std::shared_ptr<const RunKeys> keys;
    };
    /** Any thread, after ended(): the outcome of the last run, once. */
    std::optional<Outcome> takeOutcome();

    void run(std::shared_ptr<const dplab::Experiment> experiment, std::shared_ptr<dplab::RunControl> control,
             int threads, std::shared_ptr<const RerunPlan> plan = nullptr,
             std::shared_ptr<const ExperimentResult> previous = nullptr);

public slots:
    /** Worker thread: runs the posted job, if any. */
    void runPosted();

signals:
    void dataReady();
    /** The run ended; takeOutcome() says how. */
    void ended();

private:
    std::shared_ptr<RunFeed> mFeed;
    std::mutex mMutex;
    std::optional<Job> mJob;
    std::optional<Outcome> mOutcome;

    void end(Outcome outcome);
};

} // namespace dplab
