// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunStatusWidget: the run read-out of the status bar — iteration, iterations per second,
// elapsed time, current cumulative ε, progress and the run state — refreshed four times a
// second while a run is active and on every state change. With no run going and none shown
// only the state ("idle") is there; results opened from a folder show their iteration and ε.
//
// Threading: GUI thread.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QTimer;

namespace dplab {

class LiveResults;
class RunController;

class RunStatusWidget : public QWidget
{
    Q_OBJECT

public:
    RunStatusWidget(RunController *controller, LiveResults *results, QWidget *parent = nullptr);

    /** The run state text ("idle", "running", "finished", …). */
    QString stateText() const;
    /** The ε read-out as shown ("" when hidden). */
    QString epsilonText() const;
    /** The iteration read-out as shown ("" when hidden). */
    QString iterationText() const;

public slots:
    void refresh();

private:
    RunController *mController;
    LiveResults *mResults;
    QTimer *mTimer;
    qint64 mSpeedDone = 0;
    qint64 mSpeedTime = 0;
    double mSpeed = 0.0;
    QLabel *mIteration;
    QLabel *mSpeedLabel;
    QLabel *mElapsed;
    QLabel *mEpsilon;
    QProgressBar *mProgress;
    QLabel *mState;
};

} // namespace dplab
