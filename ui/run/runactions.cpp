// SPDX-License-Identifier: GPL-3.0-or-later
#include "runactions.h"

#include "experimentdocument.h"
#include "liveresults.h"
#include "nonblockingwarning.h"
#include "resultsview.h"
#include "runhistory.h"
#include "rerunplan.h"
#include "runcontroller.h"
#include "textconvert.h"

#include "dplab/common/limits.h"
#include "dplab/engine/runner.h"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QEventLoop>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QThread>
#include <QTimer>
#include <QWidget>

namespace dplab {

namespace {

QString formatRecordingSize(double bytes)
{
    if (bytes >= 1024.0 * 1024 * 1024)
        return QStringLiteral("%1 GB").arg(bytes / (1024.0 * 1024 * 1024), 0, 'f', 1);
    return QStringLiteral("%1 MB").arg(bytes / (1024.0 * 1024), 0, 'f', 0);
}

} // namespace

RunActions::RunActions(ExperimentDocument *document, RunController *controller, LiveResults *results,
                       ResultsView *views, QWidget *window)
    : QObject(window)
    , mDocument(document)
    , mController(controller)
    , mResults(results)
    , mViews(views)
    , mWindow(window)
{
    QStyle *s = window->style();
    mRunAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    mRunAction->setShortcut(QKeySequence(Qt::Key_F5));
    mRunAction->setToolTip(tr("Run the experiment, or continue a paused run (F5)"));
    connect(mRunAction, &QAction::triggered, this, &RunActions::startRun);
    mPauseAction = new QAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    mPauseAction->setShortcut(QKeySequence(Qt::Key_F6));
    mPauseAction->setToolTip(tr("Pause every running repetition (F6)"));
    connect(mPauseAction, &QAction::triggered, this, &RunActions::pauseRun);
    mStepAction = new QAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("S&tep"), this);
    mStepAction->setShortcut(QKeySequence(Qt::Key_F10));
    mStepAction->setToolTip(tr("Advance every repetition by one iteration (F10)"));
    connect(mStepAction, &QAction::triggered, this, &RunActions::stepRun);
    mStopAction = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("St&op"), this);
    mStopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    mStopAction->setToolTip(tr("Stop the run (Shift+F5)"));
    connect(mStopAction, &QAction::triggered, this, &RunActions::stopRun);
    mResetAction = new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("R&eset"), this);
    mResetAction->setToolTip(tr("Stop and clear the plots"));
    connect(mResetAction, &QAction::triggered, this, &RunActions::resetRun);
    mLiveAction = new QAction(tr("&Live Mode"), this);
    mLiveAction->setCheckable(true);
    mLiveAction->setToolTip(tr("Re-run the changed runs after every edit (short runs only)"));
    mLiveTimer = new QTimer(this);
    mLiveTimer->setSingleShot(true);
    mLiveTimer->setInterval(kLiveDebounceMs);
    connect(mLiveTimer, &QTimer::timeout, this, &RunActions::startLive);
    connect(mDocument, &ExperimentDocument::changed, this, &RunActions::onDocumentEdited);
    connect(mLiveAction, &QAction::toggled, this, [this](bool on) {
        if (!on)
            mLiveTimer->stop();
    });

    connect(mController, &RunController::batchesArrived, mResults, &LiveResults::addBatches);
    connect(mController, &RunController::eventsArrived, mResults, &LiveResults::addEvents);
    connect(mController, &RunController::stateChanged, this, &RunActions::updateActions);
    connect(mController, &RunController::finished, this, &RunActions::onFinished);
    connect(mController, &RunController::failed, this, &RunActions::onFailed);
    connect(mResults, &LiveResults::runStateChanged, this, &RunActions::updateRunStatuses);
    updateActions();
}

bool RunActions::start(bool paused)
{
    mLastRunError.clear();
    // Validated against the physical memory: between the default limit and that, the user decides.
    auto experiment = mDocument->validate(ResourceLimits::physicalMemory());
    if (!experiment) {
        mLastRunError = toQString(experiment.error().toString());
        emit message(tr("Cannot run: %1").arg(mLastRunError), 15000);
        if (!mLiveStart)
            showNonBlockingWarning(mWindow, tr("Cannot run"), mLastRunError);
        return false;
    }
    const ResourceEstimate &estimate = experiment->resources;
    const double needed = estimate.totalBytes();
    const double limit = static_cast<double>(ResourceLimits{}.memoryLimit());
    const bool overLimit = needed > limit;
    const double recording = estimatedRecordingBytes(experiment.value());
    if (mLiveStart && (overLimit || recording > kRecordingWarnBytes)) {
        emit message(tr("Live: a large run — press Run"), 10000);
        return false;
    }
    if (overLimit || recording > kRecordingWarnBytes) {
        // Propose the smallest recording interval that brings the recording under its warning
        // size and the whole run under the limit (at least 100 recorded points).
        double scale = recording / (kRecordingWarnBytes / 2);
        bool recordingHelps = true;
        if (overLimit) {
            double recorded = 0;
            for (const ResourceItem &item : estimate.items)
                if (item.what == "recorded metrics" || item.what == "traces")
                    recorded += item.bytes;
            const double room = limit - (needed - recorded);
            recordingHelps = room > 0;
            if (recordingHelps)
                scale = std::max(scale, recorded / (room / 2));
        }
        const long long every = std::max<long long>(
            1, std::min<long long>(experiment->recordEvery * static_cast<long long>(std::ceil(std::max(1.0, scale))),
                                   std::max<long long>(1, experiment->iterations / 100)));
        recordingHelps = recordingHelps && every > experiment->recordEvery;
        const QString what = overLimit
            ? tr("This run needs an estimated %1 of memory, more than the limit of %2 (largest: %3, %4).")
                  .arg(formatRecordingSize(needed), formatRecordingSize(limit),
                       toQString(estimate.largest().what), formatRecordingSize(estimate.largest().bytes))
            : tr("This run records about %1 (%2 iterations recorded every %3, for every run, repetition "
                 "and agent).")
                  .arg(formatRecordingSize(recording))
                  .arg(experiment->iterations)
                  .arg(experiment->recordEvery);
        const QString proposal = recordingHelps ? tr(" Record every %1 iterations instead?").arg(every)
                                                : tr(" Run it anyway?");
        QMessageBox box(QMessageBox::Warning, overLimit ? tr("Over the memory limit") : tr("Large run"), what + proposal,
                        (recordingHelps ? QMessageBox::Apply : QMessageBox::NoButton) | QMessageBox::Ignore
                            | QMessageBox::Cancel,
                        mWindow);
        if (recordingHelps) {
            box.button(QMessageBox::Apply)->setText(tr("Record every %1").arg(every));
            box.setDefaultButton(QMessageBox::Apply);
        } else {
            box.setDefaultButton(QMessageBox::Cancel);
        }
        box.button(QMessageBox::Ignore)->setText(tr("Run anyway"));
        const int answer = box.exec();
        if (answer == QMessageBox::Apply) {
            mDocument->setValue("/record_every", Json(every), tr("Record less often"));
            return start(paused);
        }
        if (answer != QMessageBox::Ignore) {
            mLastRunError = tr("Cancelled: the run would need %1").arg(formatRecordingSize(std::max(needed, recording)));
            return false;
        }
    }
    auto shared = std::make_shared<const Experiment>(std::move(experiment.value()));
    mResults->reset(*shared);
    QVector<QColor> colors;
    for (int r = 0; r < static_cast<int>(shared->runs.size()); ++r)
        colors.push_back(mDocument->runColor(r));
    mViews->prepareRun(*shared, colors);
    mStartedDocument = mDocument->toJson();
    if (!mController->start(shared, paused))
        return false;
    updateRunStatuses();
    return true;
}

void RunActions::startRun()
{
    if (mController->state() == RunController::State::Paused) {
        mController->resume();
        return;
    }
    if (mController->isActive())
        return;
    start(false);
}

void RunActions::pauseRun()
{
    mController->pause();
}

void RunActions::stepRun()
{
    if (!mController->isActive() && !start(true))
        return;
    mController->step();
}

void RunActions::stopRun()
{
    mController->stop();
}

void RunActions::resetRun()
{
    if (mController->isActive()) {
        mController->stop();
        // Wait for the worker to finish so the plots do not receive old batches afterwards.
        QEventLoop loop;
        connect(mController, &RunController::stateChanged, &loop, [&loop, this] {
            if (!mController->isActive())
                loop.quit();
        });
        if (mController->isActive())
            loop.exec(QEventLoop::ExcludeUserInputEvents);
    }
    mController->forgetLastRun();
    mResults->clear();
    mViews->clearResults();
    emit runStatusesChanged({});
}

double RunActions::estimatedRecordingBytes(const Experiment &e)
{
    const double points = e.sweep ? double(e.sweep->values.size()) : 1.0;
    const double recorded = std::floor(double(e.iterations) / double(std::max<long long>(1, e.recordEvery))) + 1.0;
    const double agents = double(e.graph.nodeCount());
    // ~12 metrics and every agent's ε per recorded point, 8 bytes each, kept twice (result and
    // live plots).
    const double perPoint = (12.0 + agents) * 8.0 * 2.0;
    return points * double(e.runs.size()) * double(e.repetitions) * recorded * perPoint;
}

bool RunActions::hasFinishedRun() const
{
    return !mController->isActive() && mController->lastResult() && mController->experiment()
           && !mController->lastResult()->points.empty();
}

void RunActions::onDocumentEdited()
{
    if (!mLiveAction->isChecked())
        return;
    // Stop at once (the runner polls every iteration), start after the edits settle.
    if (mController->isActive())
        mController->stop();
    mLiveTimer->start();
}

void RunActions::startLive()
{
    if (!mLiveAction->isChecked())
        return;
    if (mController->isActive()) {
        mLiveTimer->start(); // still stopping: try again shortly
        return;
    }
    auto experiment = mDocument->resolve();
    if (!experiment) {
        emit message(tr("Live: %1").arg(toQString(experiment.error().toString())), 8000);
        return;
    }
    const double seconds = estimatedSeconds(*experiment);
    if (seconds > kLiveMaxSeconds) {
        emit message(tr("Live: this run would take about %1 s — press Run").arg(seconds, 0, 'f', 0), 10000);
        return;
    }
    mLiveStart = true;
    start(false);
    mLiveStart = false;
}

double RunActions::estimatedSeconds(const Experiment &experiment) const
{
    if (mSecondsPerAgentIteration < 0)
        return -1.0;
    const std::shared_ptr<const Experiment> previous = mController->experiment();
    const std::shared_ptr<const ExperimentResult> result = mController->lastResult();
    const RerunPlan plan = planRerun(experiment, previous.get(), result.get());
    const double work = double(plan.changedRuns()) * double(experiment.repetitions) * double(experiment.iterations)
                        * double(std::max(1, experiment.graph.nodeCount()));
    const int threads = std::max(1, QThread::idealThreadCount());
    return mSecondsPerAgentIteration * work / threads;
}

void RunActions::onFinished(std::shared_ptr<const ExperimentResult> result)
{
    if (result && mController->experiment()) {
        // Wall time per agent-iteration over the jobs that ran (live mode's estimate).
        double seconds = 0.0, work = 0.0;
        const double agents = std::max(1, mController->experiment()->graph.nodeCount());
        for (const PointResult &point : result->points)
            for (const RunResult &run : point.runs)
                for (const RepetitionResult &rep : run.repetitions)
                    if (!rep.skipped && rep.wallSeconds > 0 && !rep.iterations.empty()) {
                        seconds += rep.wallSeconds;
                        work += double(rep.iterations.back()) * agents;
                    }
        if (work > 0)
            mSecondsPerAgentIteration = seconds / work;
    }
    if (result && !result->points.empty()) {
        mViews->showResult(mController->experiment(), result);
        if (mHistory)
            mHistory->addResult(mStartedDocument, mController->experiment(), result);
        if (result->diverged())
            emit message(tr("A run diverged: its curve stops at the divergence"), 10000);
    }
    updateRunStatuses();
}

void RunActions::onFailed(const QString &message)
{
    mLastRunError = message;
    emit this->message(tr("Run failed: %1").arg(message), 15000);
    showNonBlockingWarning(mWindow, tr("Run failed"), message);
}

void RunActions::updateActions()
{
    const RunController::State state = mController->state();
    mRunAction->setEnabled(state == RunController::State::Idle || state == RunController::State::Paused);
    mRunAction->setText(state == RunController::State::Paused ? tr("&Resume") : tr("&Run"));
    mPauseAction->setEnabled(state == RunController::State::Running);
    mStepAction->setEnabled(state != RunController::State::Stopping);
    mStopAction->setEnabled(state == RunController::State::Running || state == RunController::State::Paused);
}

void RunActions::updateRunStatuses()
{
    QStringList statuses;
    for (int r = 0; r < mResults->runCount(); ++r)
        statuses << mResults->runStatusText(0, r);
    emit runStatusesChanged(statuses);
}

} // namespace dplab
