// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunController: the GUI-thread side of a run. It owns a QThread with a
// RunWorker on it, forwards a start request as a queued signal, and turns what the worker's
// feed collects into throttled signals on the GUI thread (one drain per ≥ 50 ms, plus a final
// one). Run / Pause / Step / Stop act on a RunControl the runner polls every iteration, so Stop
// is honoured within one iteration even while the worker's event loop is blocked.
// Destruction requests a stop, quits the thread and waits for it.
//
// Threading: GUI thread only.
#pragma once

#include "rerunplan.h"
#include "runtypes.h"

#include "dplab/engine/runner.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThread>
#include <QTimer>

#include <memory>

namespace dplab {

class RunFeed;
class RunWorker;

class RunController : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, Running, Paused, Stopping };
    Q_ENUM(State)

    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    State state() const { return mState; }
    /** Running, paused or stopping: a run is in flight. */
    bool isActive() const { return mState != State::Idle; }
    /** Runner threads (0 = all cores). */
    void setThreads(int threads) { mThreads = threads; }
    /** Minimum time between two drains of the feed (default 50 ms ≈ 20 Hz). */
    void setThrottleInterval(int milliseconds) { mInterval = milliseconds; }
    /** Running time of the current (or last) run: the time paused does not count. */
    qint64 elapsedMilliseconds() const;
    /** Iterations done / planned over all jobs of the current run. */
    qint64 iterationsDone() const;
    qint64 iterationsTotal() const;
    /** The experiment of the current (or last) run. */
    std::shared_ptr<const Experiment> experiment() const { return mExperiment; }
    /** Re-run only what changed (default on): start() reuses every run of the last finished
     *  result whose run identity is unchanged (rerunplan.h); off, or when starting paused,
     *  every run runs. */
    void setReuseUnchanged(bool reuse) { mReuse = reuse; }
    bool reuseUnchanged() const { return mReuse; }
    /** Jobs the runner received in the last finished run (reused runs are not jobs). */
    int lastJobCount() const { return mLastJobs; }
    /** The result of the last finished run (null before). */
    std::shared_ptr<const ExperimentResult> lastResult() const { return mResult; }
    /** The key of every (point, run) of the last finished run, computed by the run's worker from
     *  the points it built (null before, and after a failure). */
    std::shared_ptr<const RunKeys> lastResultKeys() const { return mResultKeys; }

public slots:
    /** Starts `experiment` (returns false when a run is active). With `paused` the runner
     *  waits before the first iteration (for Step), and every job gets its own thread (unless
     *  setThreads() fixed the count) so that a step moves every repetition of every run. */
    bool start(std::shared_ptr<const dplab::Experiment> experiment, bool paused = false);
    /** Forgets what start() could reuse (e.g. a data file changed under the same name). */
    void forgetReusable();
    void pause();
    void resume();
    /** While paused: every active repetition advances exactly one iteration. */
    void step();
    /** Requests cancellation; finished() follows with the partial result. */
    void stop();
    /** When idle: forgets the last run (result, experiment, progress, elapsed time), so nothing
     *  shows or exports a run of a document that is no longer open. */
    void forgetLastRun();

signals:
    /** Internal: wakes the worker thread for the job start() posted to it. */
    void runRequested();
    void started(std::shared_ptr<const dplab::Experiment> experiment);
    /** Recorded metric values since the last emission (GUI thread, ≤ ~20 Hz). */
    void batchesArrived(const QVector<dplab::RunBatch> &batches);
    /** Status changes since the last emission. */
    void eventsArrived(const QVector<dplab::RunEvent> &events);
    void progressChanged(qint64 done, qint64 total);
    void stateChanged(dplab::RunController::State state);
    /** The run ended (completed, cancelled or diverged); all batches were emitted before. */
    void finished(std::shared_ptr<const dplab::ExperimentResult> result);
    /** The run could not start or failed (invalid sweep point, reference solver, ...). */
    void failed(const QString &message);

private:
    void onDataReady();
    void drain();
    void onWorkerFinished(std::shared_ptr<const ExperimentResult> result, int jobsRun,
                          std::shared_ptr<const RunKeys> keys);
    void onWorkerFailed(const QString &message);
    void setState(State state);

    QThread mThread;
    RunWorker *mWorker;
    std::shared_ptr<RunFeed> mFeed;
    std::shared_ptr<RunControl> mControl;
    std::shared_ptr<const Experiment> mExperiment;
    std::shared_ptr<const ExperimentResult> mResult;
    std::shared_ptr<const RunKeys> mResultKeys;
    /** The last finished experiment and result, kept across start() for reuse. */
    std::shared_ptr<const Experiment> mReusableExperiment;
    std::shared_ptr<const ExperimentResult> mReusableResult;
    bool mReuse = true;
    int mLastJobs = 0;
    State mState = State::Idle;
    int mThreads = 0;
    int mInterval = 50;
    QTimer mDrainTimer;
    QElapsedTimer mSinceDrain;
    QElapsedTimer mClock; ///< runs while the run runs (invalid while paused or idle)
    qint64 mElapsed = 0;  ///< running time before mClock started
    /** Adds the clock's time to mElapsed and stops it. */
    void stopClock();
    qint64 mLastDone = -1;
};

} // namespace dplab
