// SPDX-License-Identifier: GPL-3.0-or-later
//
// StateSpaceView: for two-dimensional decisions, every agent as a point in the plane at the
// played-back iteration, with a trail of its last positions and x* marked — the agents visibly
// move toward x* (or stall around it).
//
// Threading: GUI thread.
#pragma once

#include "teachingsession.h"

#include <qcustomplot.h>

namespace dplab {

class StateSpaceView : public QCustomPlot
{
    Q_OBJECT

public:
    static constexpr int kTrail = 40; ///< recorded iterations a trail shows

    explicit StateSpaceView(QWidget *parent = nullptr);

    void setSession(const TeachingSession *session);
    void setRun(int run);
    void setIndex(int index);
    /** Whether the recording has 2-D decisions (otherwise the view shows a note). */
    bool applies() const;
    /** Points in agent i's trail (tests). */
    int trailLength(int agent) const;

private:
    void rebuild();

    const TeachingSession *mSession = nullptr;
    int mRun = 0;
    int mIndex = 0;
    QVector<QCPCurve *> mTrails;
    QCPGraph *mAgents = nullptr;
    QCPGraph *mOptimum = nullptr;
    QCPItemText *mNote = nullptr;
};

} // namespace dplab
