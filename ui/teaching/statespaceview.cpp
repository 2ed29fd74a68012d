// SPDX-License-Identifier: GPL-3.0-or-later
#include "statespaceview.h"

#include "playbackview.h"
#include "presentationscale.h"

#include <algorithm>

namespace dplab {

StateSpaceView::StateSpaceView(QWidget *parent) : QCustomPlot(parent)
{
    setMinimumSize(160, 120);
    PresentationScale::follow(this); // fonts, ticks and lines at the presentation size
    xAxis->setLabel(QStringLiteral("x₁"));
    yAxis->setLabel(QStringLiteral("x₂"));
    mNote = new QCPItemText(this);
    mNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    mNote->position->setCoords(0.5, 0.5);
    mNote->setText(tr("The state-space view needs 2-D decisions."));
}

void StateSpaceView::setSession(const TeachingSession *session)
{
    mSession = session;
    rebuild();
}

void StateSpaceView::setRun(int run)
{
    mRun = run;
    rebuild();
}

bool StateSpaceView::applies() const
{
    return mSession && mSession->hasResult() && mSession->dimension() == 2 && mRun < mSession->runCount();
}

void StateSpaceView::rebuild()
{
    clearGraphs();
    clearPlottables();
    mTrails.clear();
    mAgents = nullptr;
    mOptimum = nullptr;
    mNote->setVisible(!applies());
    // Before a recording the dimension is unknown: say what to do, not that it cannot work.
    mNote->setText(mSession && mSession->hasResult() ? tr("The state-space view needs 2-D decisions.")
                                                     : tr("Record to see the agents move in the plane (2-D problems)."));
    if (!applies()) {
        replot();
        return;
    }
    const int n = mSession->agentCount();
    for (int i = 0; i < n; ++i) {
        auto *trail = new QCPCurve(xAxis, yAxis);
        QColor c = PlaybackView::ramp(n > 1 ? static_cast<double>(i) / (n - 1) : 0.5);
        c.setAlpha(150);
        trail->setPen(QPen(c, 1.5));
        mTrails << trail;
    }
    mAgents = addGraph();
    mAgents->setLineStyle(QCPGraph::lsNone);
    mAgents->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), QBrush(QColor(0xff, 0xbb, 0x55)), 10));
    if (mSession->reference()) {
        mOptimum = addGraph();
        mOptimum->setLineStyle(QCPGraph::lsNone);
        mOptimum->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(0xd6, 0x27, 0x28), 2), QBrush(Qt::NoBrush), 16));
        mOptimum->setData({mSession->reference()->x[0]}, {mSession->reference()->x[1]});
        mOptimum->setName(QStringLiteral("x*"));
    }
    // Axis range: the whole recording.
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    const int count = static_cast<int>(mSession->iterations(mRun).size());
    for (int k = 0; k < count; ++k) {
        const Eigen::MatrixXd &x = mSession->decisions(mRun, k);
        x0 = std::min(x0, x.col(0).minCoeff());
        x1 = std::max(x1, x.col(0).maxCoeff());
        y0 = std::min(y0, x.col(1).minCoeff());
        y1 = std::max(y1, x.col(1).maxCoeff());
    }
    const double px = std::max(1e-6, 0.08 * (x1 - x0)), py = std::max(1e-6, 0.08 * (y1 - y0));
    xAxis->setRange(x0 - px, x1 + px);
    yAxis->setRange(y0 - py, y1 + py);
    setIndex(mIndex);
}

void StateSpaceView::setIndex(int index)
{
    mIndex = index;
    if (!applies() || !mAgents) {
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const int count = static_cast<int>(mSession->iterations(mRun).size());
    const int at = std::clamp(index, 0, count - 1);
    const int from = std::max(0, at - kTrail);
    const Eigen::MatrixXd &x = mSession->decisions(mRun, at);
    QVector<double> px, py;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        px << x(i, 0);
        py << x(i, 1);
    }
    mAgents->setData(px, py);
    for (int i = 0; i < mTrails.size(); ++i) {
        QVector<double> tx, ty;
        for (int k = from; k <= at; ++k) {
            const Eigen::MatrixXd &xk = mSession->decisions(mRun, k);
            tx << xk(i, 0);
            ty << xk(i, 1);
        }
        mTrails[i]->setData(tx, ty);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

int StateSpaceView::trailLength(int agent) const
{
    return agent >= 0 && agent < mTrails.size() ? mTrails[agent]->dataCount() : 0;
}

} // namespace dplab
