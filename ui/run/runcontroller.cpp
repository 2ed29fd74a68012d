// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcontroller.h"

#include "runfeed.h"
#include "runworker.h"

#include <algorithm>

namespace dplab {

RunController::RunController(QObject *parent)
    : QObject(parent)
    , mWorker(nullptr)
    , mFeed(std::make_shared<RunFeed>())
{
    mWorker = new RunWorker(mFeed);
    mWorker->moveToThread(&mThread);
    connect(this, &RunController::runRequested, mWorker, &RunWorker::runPosted);
    connect(mWorker, &RunWorker::dataReady, this, &RunController::onDataReady);
    connect(mWorker, &RunWorker::ended, this, [this] {
        auto outcome = mWorker->takeOutcome();
        if (!outcome)
            return;
        if (outcome->result)
            onWorkerFinished(std::move(outcome->result), outcome->jobsRun, std::move(outcome->keys));
        else
            onWorkerFailed(outcome->error);
    });
    mDrainTimer.setSingleShot(true);
    connect(&mDrainTimer, &QTimer::timeout, this, &RunController::drain);
    mThread.setObjectName(QStringLiteral("DPLab run worker"));
    mThread.start();
    mSinceDrain.start();
}

RunController::~RunController()
{
    if (mControl)
        mControl->cancel();
    mThread.quit();
    mThread.wait();
    // Deleted here, after its thread has ended, rather than by deleteLater on that thread. The
    // end of a QThread synchronises through Qt's own locks, which ThreadSanitizer cannot see in
    // an uninstrumented Qt; taking the worker's lock first orders this thread after the
    // worker's last touch of itself (RunWorker::end), in a way it can see.
    (void)mWorker->takeOutcome();
    delete mWorker;
}

qint64 RunController::elapsedMilliseconds() const
{
    // Running time only: the clock stands still while paused.
    return mElapsed + (isActive() && mClock.isValid() ? mClock.elapsed() : 0);
}

qint64 RunController::iterationsDone() const
{
    return mFeed->done();
}

qint64 RunController::iterationsTotal() const
{
    return mFeed->total();
}

void RunController::forgetReusable()
{
    mReusableExperiment.reset();
    mReusableResult.reset();
}

void RunController::forgetLastRun()
{
    if (isActive())
        return;
    forgetReusable();
    mFeed->clear();
    mResult.reset();
    mResultKeys.reset();
    mExperiment.reset();
    mElapsed = 0;
    mLastDone = -1;
}

bool RunController::start(std::shared_ptr<const Experiment> experiment, bool paused)
{
    if (isActive() || !experiment)
        return false;
    mFeed->clear();
    mLastDone = -1;
    mResult.reset();
    mResultKeys.reset();
    mExperiment = std::move(experiment);
    mControl = std::make_shared<RunControl>();
    if (paused)
        mControl->pause();
    mElapsed = 0;
    if (paused)
        mClock.invalidate();
    else
        mClock.start();
    setState(paused ? State::Paused : State::Running);
    emit started(mExperiment);
    int threads = mThreads;
    if (paused && threads == 0) {
        // Stepping advances the jobs that are running: when starting paused, run every job at
        // once so one step moves every repetition of every run.
        const std::size_t points = mExperiment->sweep ? mExperiment->sweep->values.size() : 1;
        threads = static_cast<int>(std::min<std::size_t>(
            256, points * mExperiment->runs.size() * static_cast<std::size_t>(mExperiment->repetitions)));
    }
    RunWorker::Job job{mExperiment, mControl, threads, nullptr, nullptr};
    if (mReuse && !paused && mReusableResult) {
        job.plan = std::make_shared<const RerunPlan>(
            planRerun(*mExperiment, mReusableExperiment.get(), mReusableResult.get()));
        job.previous = mReusableResult;
    }
    mWorker->post(std::move(job));
    emit runRequested();
    return true;
}

void RunController::stopClock()
{
    if (mClock.isValid())
        mElapsed += mClock.elapsed();
    mClock.invalidate();
}

void RunController::pause()
{
    if (mState != State::Running)
        return;
    mControl->pause();
    stopClock();
    setState(State::Paused);
}

void RunController::resume()
{
    if (mState != State::Paused)
        return;
    mControl->resume();
    mClock.start();
    setState(State::Running);
}

void RunController::step()
{
    if (mState == State::Running)
        pause();
    if (mState != State::Paused)
        return;
    mControl->step();
}

void RunController::stop()
{
    if (!isActive() || mState == State::Stopping)
        return;
    mControl->cancel();
    setState(State::Stopping);
}

void RunController::onDataReady()
{
    const qint64 since = mSinceDrain.elapsed();
    if (since >= mInterval) {
        drain();
        return;
    }
    if (!mDrainTimer.isActive())
        mDrainTimer.start(static_cast<int>(mInterval - since));
}

void RunController::drain()
{
    mDrainTimer.stop();
    mSinceDrain.restart();
    QVector<RunBatch> batches;
    QVector<RunEvent> events;
    mFeed->take(batches, events);
    if (!batches.isEmpty())
        emit batchesArrived(batches);
    if (!events.isEmpty())
        emit eventsArrived(events);
    const qint64 done = mFeed->done();
    if (done != mLastDone) {
        mLastDone = done;
        emit progressChanged(done, mFeed->total());
    }
}

void RunController::onWorkerFinished(std::shared_ptr<const ExperimentResult> result, int jobsRun,
                                     std::shared_ptr<const RunKeys> keys)
{
    drain();
    stopClock();
    mResult = std::move(result);
    mResultKeys = std::move(keys);
    mLastJobs = jobsRun;
    mReusableExperiment = mExperiment;
    mReusableResult = mResult;
    mControl.reset();
    setState(State::Idle);
    emit finished(mResult);
}

void RunController::onWorkerFailed(const QString &message)
{
    drain();
    stopClock();
    mControl.reset();
    setState(State::Idle);
    emit failed(message);
}

void RunController::setState(State state)
{
    if (mState == state)
        return;
    mState = state;
    emit stateChanged(state);
}

} // namespace dplab
