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
#include <limits>
#include <optional>
#include <utility>

#include <QAction>
#include <QEventLoop>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QThread>
#include <QTimer>
#include <QWidget>

namespace dplab {

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
    // A file with "presentation": {"live": true} (the teaching presets) switches live mode on;
    // a file without it leaves the mode as it is. Opening is not an edit: it starts nothing, also
    // when live mode was on already.
    connect(mDocument, &ExperimentDocument::loaded, this, [this] {
        const Json live = mDocument->value("/presentation/live");
        if (live.is_boolean() && live.get<bool>())
            mLiveAction->setChecked(true);
        mSkipLoadChange = true; // the load's own change signal, which follows
        mLiveTimer->stop();
    });
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

namespace {

/** The bytes of the estimate's items named `what`. */
double bytesOf(const ResourceEstimate &estimate, const std::string &what)
{
    double bytes = 0;
    for (const ResourceItem &item : estimate.items)
        if (item.what == what)
            bytes += item.bytes;
    return bytes;
}

/** Sets the process-wide memory limit for a run's raised limit (0: leaves it) and puts the
 *  previous one back when it goes. */
class ScopedMemoryLimit
{
public:
    explicit ScopedMemoryLimit(std::uint64_t limit)
        : mSet(limit != 0)
    {
        if (!mSet)
            return;
        mPrevious = ResourceLimits::defaultMemoryLimit(); // the same value, set or computed
        ResourceLimits::setDefaultMemoryLimit(limit);
    }
    ~ScopedMemoryLimit()
    {
        if (mSet)
            ResourceLimits::setDefaultMemoryLimit(mPrevious);
    }
    ScopedMemoryLimit(const ScopedMemoryLimit &) = delete;
    ScopedMemoryLimit &operator=(const ScopedMemoryLimit &) = delete;

private:
    std::uint64_t mPrevious = 0;
    bool mSet;
};

} // namespace

Result<Experiment> RunActions::resolveWithoutLimit(const ExperimentDocument &document)
{
    ResolveOptions options;
    options.limits.maxMemoryBytes = std::numeric_limits<std::uint64_t>::max();
    return resolveExperiment(document.toJson(), toStdString(document.baseDir()), options);
}

RunActions::MemoryPlan RunActions::planMemory(const Experiment &e, double limit, double physical)
{
    MemoryPlan plan;
    plan.needed = e.resources.totalBytes();
    plan.limit = limit;
    plan.physical = physical;
    plan.recording = estimatedRecordingBytes(e);
    plan.overLimit = !(plan.needed <= limit);
    plan.largeRecording = plan.recording > kRecordingWarnBytes;
    if (!plan.asks())
        return plan;
    // The smallest recording interval that brings the window's recording under its warning size
    // and the whole run under the limit (recording in at most half the room left), keeping at
    // least 100 recorded points.
    const double recorded = bytesOf(e.resources, "recorded metrics") + bytesOf(e.resources, "traces");
    const double fixed = plan.needed - recorded;
    double scale = plan.recording / (kRecordingWarnBytes / 2);
    bool fits = true;
    if (plan.overLimit) {
        const double room = limit - fixed;
        fits = room > 0;
        if (fits)
            scale = std::max(scale, recorded / (room / 2));
    }
    const long long current = std::max<long long>(1, e.recordEvery);
    const double wanted = std::min(double(current) * std::ceil(std::max(1.0, scale)),
                                   double(std::max<long long>(1, e.iterations / 100)));
    const long long every = std::max<long long>(1, static_cast<long long>(wanted));
    // Recorded bytes shrink with the interval: check that the coarser one fits.
    if (fits && every > current && (!plan.overLimit || fixed + recorded * double(current) / double(every) <= limit))
        plan.recordEvery = every;
    // The CLI's --max-memory for this run: the estimate with a quarter to spare, in whole
    // 256 MiB steps, up to the machine's memory.
    if (plan.overLimit && plan.needed <= physical) {
        const double step = 256.0 * 1024 * 1024;
        plan.raiseTo = std::min(physical, std::ceil(plan.needed * 1.25 / step) * step);
    }
    return plan;
}

bool RunActions::start(bool paused, std::uint64_t memoryLimit)
{
    mLastRunError.clear();
    mLiveTimer->stop(); // a run started by hand is the one live mode was waiting to start
    auto fail = [this](const QString &why) {
        mLastRunError = why;
        emit message(tr("Cannot run: %1").arg(mLastRunError), 15000);
        if (!mLiveStart)
            showNonBlockingWarning(mWindow, tr("Cannot run"), mLastRunError);
        return false;
    };
    // Resolved once (every sweep point: the costliest part of starting a short run), against
    // the limit in force: the default, or the run's raised limit. Only when that fails is the
    // document resolved again without a limit (nothing is loaded or allocated), for the estimate
    // the choice below needs; the run itself needs the experiment that passed the limit.
    const std::uint64_t runLimit = memoryLimit ? memoryLimit : ResourceLimits{}.memoryLimit();
    ScopedMemoryLimit scoped(memoryLimit); // the data loaders check the process-wide limit
    const Json document = mDocument->toJson();
    ResolveOptions options;
    options.limits.maxMemoryBytes = runLimit;
    Result<Experiment> limited = resolveExperiment(document, toStdString(mDocument->baseDir()), options);
    std::optional<Result<Experiment>> unlimited;
    if (!limited) {
        unlimited = resolveWithoutLimit(*mDocument);
        if (!*unlimited)
            return fail(toQString(unlimited->error().toString()));
    }
    const Experiment &resolved = limited ? *limited : **unlimited;
    const double physical = double(ResourceLimits::physicalMemory());
    const double limit = memoryLimit ? double(memoryLimit) : double(ResourceLimits{}.memoryLimit());
    const MemoryPlan plan = planMemory(resolved, limit, physical);
    if (mLiveStart && plan.asks()) { // live mode never asks: a large run waits for Run
        emit message(tr("Live: a large run — press Run"), 10000);
        return false;
    }
    if (memoryLimit == 0 && plan.asks()) {
        const QString limitText = toQString(formatBytes(limit));
        const QString what = plan.overLimit
            ? tr("This run needs an estimated %1 of memory, more than %2 (largest: %3, %4).")
                  .arg(toQString(formatBytes(plan.needed)),
                       plan.needed > physical
                           ? tr("this machine's memory of %1").arg(toQString(formatBytes(physical)))
                           : tr("the limit of %1 (min(8 GiB, ¾ of this machine's %2))")
                                 .arg(limitText, toQString(formatBytes(physical))),
                       toQString(resolved.resources.largest().what),
                       toQString(formatBytes(resolved.resources.largest().bytes)))
            : tr("This run records about %1 (%2 iterations recorded every %3, for every run, repetition "
                 "and agent).")
                  .arg(toQString(formatBytes(plan.recording)))
                  .arg(resolved.iterations)
                  .arg(resolved.recordEvery);
        if (plan.overLimit && !plan.recordEvery && !plan.raiseTo)
            return fail(what + tr(" Reduce the graph, the data or the repetitions."));
        QStringList offers;
        if (plan.recordEvery)
            offers << tr("record every %1 iterations instead").arg(plan.recordEvery);
        if (plan.raiseTo)
            offers << tr("raise the limit to %1 for this run (dplab-cli: --max-memory %2M)")
                          .arg(toQString(formatBytes(plan.raiseTo)))
                          .arg(qulonglong(std::llround(plan.raiseTo / (1024.0 * 1024))));
        if (!plan.overLimit)
            offers << tr("run it anyway");
        QString proposal = QStringLiteral(" ") + tr("You can %1.").arg(offers.join(tr(", or ")));
        QMessageBox box(QMessageBox::Warning, plan.overLimit ? tr("Over the memory limit") : tr("Large run"),
                        what + proposal, QMessageBox::Cancel, mWindow);
        if (plan.recordEvery) {
            box.addButton(QMessageBox::Apply)->setText(tr("Record every %1").arg(plan.recordEvery));
            box.setDefaultButton(QMessageBox::Apply);
        }
        if (plan.raiseTo)
            box.addButton(QMessageBox::Yes)->setText(tr("Raise the limit to %1").arg(toQString(formatBytes(plan.raiseTo))));
        if (!plan.overLimit)
            box.addButton(QMessageBox::Ignore)->setText(tr("Run anyway"));
        if (!plan.recordEvery)
            box.setDefaultButton(QMessageBox::Cancel);
        const int answer = box.exec();
        if (answer == QMessageBox::Apply) {
            mDocument->setValue("/record_every", Json(plan.recordEvery), tr("Record less often"));
            return start(paused);
        }
        if (answer == QMessageBox::Yes)
            return start(paused, static_cast<std::uint64_t>(plan.raiseTo));
        if (answer != QMessageBox::Ignore) {
            mLastRunError = tr("Cancelled: the run would need %1")
                                .arg(toQString(formatBytes(std::max(plan.needed, plan.recording))));
            return false;
        }
    }
    // Built (data loaded) against the limit in force: the default, the run's raised limit, or —
    // for a large recording under the limit that the user accepted — the default as well.
    if (!limited)
        return fail(toQString(limited.error().toString()));
    if (auto built = buildExperiment(*limited); !built)
        return fail(toQString(built.error().toString()));
    auto shared = std::make_shared<const Experiment>(std::move(*limited));
    mResults->reset(*shared);
    QVector<QColor> colors;
    for (int r = 0; r < static_cast<int>(shared->runs.size()); ++r)
        colors.push_back(mDocument->runColor(r));
    mViews->prepareRun(*shared, colors);
    mStartedDocument = document;
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
    // Core's estimate of the recorded metrics (every sweep point: estimateResources), which the
    // window keeps twice: in the result and in the live plots.
    return 2.0 * bytesOf(e.resources, "recorded metrics");
}

bool RunActions::hasFinishedRun() const
{
    return !mController->isActive() && mController->lastResult() && mController->experiment()
           && !mController->lastResult()->points.empty();
}

void RunActions::onDocumentEdited()
{
    if (std::exchange(mSkipLoadChange, false))
        return;
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
            mHistory->addResult(mStartedDocument, mController->experiment(), result,
                                mController->lastResultKeys().get());
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
    // Once the run is over, a run still waiting never started (Stop came first): the legend
    // says the same (PlotPanel::showOutcome).
    const bool over = !mController->isActive();
    for (int r = 0; r < mResults->runCount(); ++r)
    {
        const QString text = mResults->runStatusText(0, r);
        statuses << (over && !text.isEmpty() && mResults->runState(0, r) == LiveResults::RunState::Waiting
                         ? tr("not started")
                         : text);
    }
    emit runStatusesChanged(statuses);
}

} // namespace dplab
