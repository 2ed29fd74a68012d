// SPDX-License-Identifier: GPL-3.0-or-later
#include "runstatuswidget.h"

#include "epsilontext.h"
#include "liveresults.h"
#include "runcontroller.h"
#include "textconvert.h"

#include "dplab/engine/metrics.h"
#include "dplab/engine/runner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

QString formatElapsed(qint64 ms)
{
    if (ms < 60000)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    return QStringLiteral("%1:%2").arg(ms / 60000).arg((ms / 1000) % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

RunStatusWidget::RunStatusWidget(RunController *controller, LiveResults *results, QWidget *parent)
    : QWidget(parent)
    , mController(controller)
    , mResults(results)
    , mTimer(new QTimer(this))
    , mIteration(new QLabel(this))
    , mSpeedLabel(new QLabel(this))
    , mElapsed(new QLabel(this))
    , mEpsilon(new QLabel(this))
    , mProgress(new QProgressBar(this))
    , mState(new QLabel(tr("idle"), this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    mProgress->setMaximumWidth(180);
    mProgress->setTextVisible(true);
    mProgress->setRange(0, 1000);
    mProgress->setValue(0);
    mIteration->setToolTip(tr("Largest iteration recorded so far"));
    mSpeedLabel->setToolTip(tr("Iterations per second over all runs and repetitions"));
    for (QLabel *l : {mIteration, mSpeedLabel, mElapsed, mEpsilon, mState})
        l->setMinimumWidth(90);
    layout->addWidget(mIteration);
    layout->addWidget(mSpeedLabel);
    layout->addWidget(mElapsed);
    layout->addWidget(mEpsilon);
    layout->addWidget(mProgress);
    layout->addWidget(mState);

    mTimer->setInterval(250);
    connect(mTimer, &QTimer::timeout, this, &RunStatusWidget::refresh);
    connect(mController, &RunController::stateChanged, this, [this] {
        if (mController->isActive() && !mTimer->isActive()) {
            mSpeedDone = 0;
            mSpeedTime = 0;
            mSpeed = 0;
            mTimer->start();
        } else if (!mController->isActive()) {
            mTimer->stop();
        }
        refresh();
    });
    // While a run is active the timer refreshes four times a second; progress arrives with every
    // drain of the feed (up to 20 a second), and relaying out the status bar each time was 2 % of
    // the window's CPU on a short run (docs/benchmarks.md, "The window against the CLI").
    connect(mController, &RunController::progressChanged, this, [this] {
        if (!mTimer->isActive())
            refresh();
    });
    connect(mResults, &LiveResults::resetDone, this, &RunStatusWidget::refresh);
    refresh();
}

QString RunStatusWidget::stateText() const
{
    return mState->text();
}

QString RunStatusWidget::epsilonText() const
{
    return mEpsilon->text();
}

QString RunStatusWidget::iterationText() const
{
    return mIteration->text();
}

void RunStatusWidget::refresh()
{
    const qint64 elapsed = mController->elapsedMilliseconds();
    const qint64 done = mController->iterationsDone();
    const qint64 total = mController->iterationsTotal();
    // Progress arrives in steps (every 100 iterations of a job): measure over a window that
    // contains at least one step, so slow iterations do not show as "0 it/s".
    if (mController->isActive() && elapsed - mSpeedTime >= 500
        && (done > mSpeedDone || elapsed - mSpeedTime >= 10000)) {
        mSpeed = elapsed > mSpeedTime ? (done - mSpeedDone) * 1000.0 / double(elapsed - mSpeedTime) : 0.0;
        mSpeedDone = done;
        mSpeedTime = elapsed;
    } else if (!mController->isActive()) {
        // elapsed is 0 once the last run is forgotten (reset, another experiment opened): no
        // rate then, not the previous run's.
        mSpeed = elapsed > 0 ? done * 1000.0 / double(elapsed) : 0.0;
    }
    // Only what there is: no run going and none shown (a new experiment, a teaching recording
    // being presented) reads "idle" alone, not "iteration 0 0 it/s 0.0 s ε —"; results opened
    // from a folder have iterations but no rate or time.
    const bool active = mController->isActive();
    const bool timed = active || elapsed > 0;
    const bool shown = timed || mResults->latestIteration() > 0;
    mIteration->setText(shown ? tr("iteration %1").arg(mResults->latestIteration()) : QString());
    mSpeedLabel->setText(timed ? tr("%1 it/s").arg(mSpeed >= 100 ? QString::number(qint64(mSpeed))
                                                                 : QString::number(mSpeed, 'g', 3))
                               : QString());
    mElapsed->setText(timed ? formatElapsed(elapsed) : QString());
    const double epsilon = mResults->latestMax(QLatin1String(metric::Epsilon));
    mEpsilon->setText(shown ? epsilonStatusText(epsilon) : QString());
    mEpsilon->setToolTip(shown ? epsilonExplanation(epsilon) : QString());
    const QString style = isVacuousEpsilon(epsilon) ? QStringLiteral("color: #9a6700; font-weight: bold;") : QString();
    if (mEpsilon->styleSheet() != style)
        mEpsilon->setStyleSheet(style);
    mProgress->setValue(total > 0 ? int(1000.0 * double(done) / double(total)) : 0);
    // Each child shown in a visible widget lays out every layout up to the window's at once (Qt
    // activates them before the child appears): five of them at a window's first run were a
    // tenth of the window's work on a short run (docs/benchmarks.md, fourth pass). Shown while
    // this widget is hidden, the children cost one layout, when it is shown again, in the same
    // pass of the event loop (nothing is drawn in between).
    const bool relayout = isVisible()
                          && (mIteration->isVisibleTo(this) != shown || mEpsilon->isVisibleTo(this) != shown
                              || mSpeedLabel->isVisibleTo(this) != timed || mElapsed->isVisibleTo(this) != timed
                              || mProgress->isVisibleTo(this) != timed);
    if (relayout)
        hide();
    for (QLabel *label : {mIteration, mEpsilon})
        label->setVisible(shown);
    // A read-out is never cut ("ε 100 (max) ⚠ vacuous" lost its end beside a long message).
    for (QLabel *label : {mIteration, mSpeedLabel, mElapsed, mEpsilon, mState})
        label->setMinimumWidth(std::max(90, label->sizeHint().width()));
    for (QWidget *widget : std::initializer_list<QWidget *>{mSpeedLabel, mElapsed, mProgress})
        widget->setVisible(timed);
    if (relayout)
        show();
    QString state;
    switch (mController->state()) {
    case RunController::State::Idle: {
        state = tr("idle");
        const auto result = mController->lastResult();
        if (result && mResults->runCount() > 0)
            state = result->cancelled ? tr("stopped") : result->diverged() ? tr("finished (diverged)") : tr("finished");
        break;
    }
    case RunController::State::Running:
        state = tr("running");
        break;
    case RunController::State::Paused:
        state = tr("paused");
        break;
    case RunController::State::Stopping:
        state = tr("stopping…");
        break;
    }
    mState->setText(state);
}

} // namespace dplab
