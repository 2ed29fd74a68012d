// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunActions: Run ▸ Run/Resume, Pause, Step, Stop, Reset as QActions over the RunController.
// Starting validates the document, hands an immutable copy of the experiment to the controller
// and prepares the result views; the controller's batches feed LiveResults; a finished run fills
// the result views. MainWindow only places the actions.
//
// Threading: GUI thread (the run itself is on the controller's worker thread).
#pragma once

#include "dplab/common/params.h"

#include <QObject>
#include <QStringList>

#include "dplab/common/result.h"

#include <cstdint>
#include <memory>

class QAction;
class QTimer;
class QWidget;

namespace dplab {

class ExperimentDocument;
class LiveResults;
class RunHistory;
class ResultsView;
class RunController;
struct Experiment;
struct ExperimentResult;

class RunActions : public QObject
{
    Q_OBJECT

public:
    /** `window` parents the warnings. */
    RunActions(ExperimentDocument *document, RunController *controller, LiveResults *results,
               ResultsView *views, QWidget *window);

    QAction *runAction() const { return mRunAction; }
    QAction *pauseAction() const { return mPauseAction; }
    QAction *stepAction() const { return mStepAction; }
    QAction *stopAction() const { return mStopAction; }
    QAction *resetAction() const { return mResetAction; }
    /** Run ▸ Live Mode (checkable, off by default): every edit of the document stops the run in
     *  flight at once and, after kLiveDebounceMs without further edits, starts the runs that
     *  changed; a run estimated to take more than kLiveMaxSeconds waits for Run instead. A file
     *  with "presentation": {"live": true} switches it on when opened (docs/architecture.md §4). */
    QAction *liveAction() const { return mLiveAction; }
    static constexpr int kLiveDebounceMs = 300;
    static constexpr double kLiveMaxSeconds = 3.0;
    /** Seconds a run of `experiment` would take, from the wall time per agent-iteration of the
     *  last finished run (reused runs cost nothing); negative when nothing was measured yet. */
    double estimatedSeconds(const Experiment &experiment) const;

    /** Validates the document and starts a run (paused: waits for Step). False with
     *  lastRunError() when the experiment does not validate. Over the memory limit (or with a
     *  large recording) it asks first: record less often, raise the limit for this run (what
     *  the CLI's --max-memory does), run anyway (a large recording under the limit), or cancel.
     *  `memoryLimit` (bytes, 0 = the default limit) is the limit this run was allowed. */
    bool start(bool paused, std::uint64_t memoryLimit = 0);
    /** What start() offers before a run that needs much memory. */
    struct MemoryPlan {
        double needed = 0;           ///< the run's estimate (core's, as the CLI checks it)
        double limit = 0;            ///< the limit in force (default: min(8 GiB, ¾ of the RAM))
        double physical = 0;         ///< the machine's memory: no limit goes past it
        double recording = 0;        ///< what the window records (estimatedRecordingBytes)
        bool overLimit = false;      ///< needed > limit
        bool largeRecording = false; ///< recording > kRecordingWarnBytes
        long long recordEvery = 0;   ///< a coarser interval that fits (0: none does)
        double raiseTo = 0;          ///< a limit for this run that fits (0: not offered)
        bool asks() const { return overLimit || largeRecording; }
    };
    static MemoryPlan planMemory(const Experiment &experiment, double limit, double physical);
    /** The document resolved (not built: nothing loaded) with no memory limit: its estimate. */
    static Result<Experiment> resolveWithoutLimit(const ExperimentDocument &document);
    /** The memory a run of `experiment` needs for what it records, in bytes: core's estimate of
     *  the recorded metrics (every recorded point of every run, repetition and sweep point, its
     *  metrics and each agent's ε), held once in the result and once in the live plots. */
    static double estimatedRecordingBytes(const Experiment &experiment);
    /** Above this estimate a run asks first (and proposes a recording interval that fits). */
    static constexpr double kRecordingWarnBytes = 512.0 * 1024 * 1024;
    /** Every finished result goes into `history` with the document it was run from. */
    void setHistory(RunHistory *history) { mHistory = history; }
    /** Whether a run has finished (and none is active). */
    bool hasFinishedRun() const;
    /** The last message shown for a failed start or run (tests). */
    QString lastRunError() const { return mLastRunError; }

public slots:
    /** Run (or resume when paused). */
    void startRun();
    void pauseRun();
    void stepRun();
    void stopRun();
    /** Stops (waiting for the worker) and clears every result. */
    void resetRun();

signals:
    /** One status text per run ("running", "diverged at 412", …) for the runs list. */
    void runStatusesChanged(const QStringList &statuses);
    /** A message for the status bar. */
    void message(const QString &text, int timeoutMs);

private:
    void updateActions();
    void updateRunStatuses();
    void onFinished(std::shared_ptr<const ExperimentResult> result);
    void onFailed(const QString &message);
    void onDocumentEdited();
    void startLive();

    ExperimentDocument *mDocument;
    RunController *mController;
    LiveResults *mResults;
    RunHistory *mHistory = nullptr;
    QAction *mLiveAction = nullptr;
    QTimer *mLiveTimer = nullptr;
    bool mLiveStart = false; ///< a live start is running: failures go to the status bar only
    bool mSkipLoadChange = false; ///< the change signal of a load (opening is not an edit)
    double mSecondsPerAgentIteration = -1.0; ///< measured on the last finished run
    Json mStartedDocument; ///< the document of the run in flight (for the history)
    ResultsView *mViews;
    QWidget *mWindow;
    QString mLastRunError;
    QAction *mRunAction, *mPauseAction, *mStepAction, *mStopAction, *mResetAction;
};

} // namespace dplab
