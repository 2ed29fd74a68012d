// SPDX-License-Identifier: GPL-3.0-or-later
//
// LiveResults: the recorded metrics of the current run as they stream in, and their mean and
// standard deviation over repetitions per (sweep point, run), which is what the plots draw.
// Aggregation is incremental: row k of a run is ready once every repetition that has started and
// is still running has recorded it; a repetition that ended early (diverged, cancelled) drops out
// of later rows. Repetitions that have not started yet (more repetitions than threads) do not
// hold the plots back: when one starts delivering, the run's rows are re-aggregated over the
// larger set and seriesReset() tells the views to redraw that run.
// NaN values (metrics a run does not have yet, e.g. the post-run residual) are skipped.
//
// Threading: GUI thread.
#pragma once

#include "runtypes.h"

#include <QObject>
#include <QStringList>
#include <QVector>

namespace dplab {

class LiveResults : public QObject
{
    Q_OBJECT

public:
    enum class RunState { Waiting, Running, Finished, Diverged, Cancelled };

    explicit LiveResults(QObject *parent = nullptr);

    /** Clears everything and prepares for `experiment` (run labels, repetitions, points). */
    void reset(const Experiment &experiment);
    void clear();

    void addBatches(const QVector<RunBatch> &batches);
    void addEvents(const QVector<RunEvent> &events);

    int pointCount() const { return static_cast<int>(mPoints.size()); }
    int runCount() const { return mRunLabels.size(); }
    int repetitions() const { return mRepetitions; }
    QString runLabel(int run) const { return mRunLabels.value(run); }
    /** Sweep values as text ("" without a sweep). */
    QStringList pointLabels() const { return mPointLabels; }
    QString sweepParameter() const { return mSweepParameter; }

    /** Metric names the run records (empty before its first batch). */
    QStringList metricNames(int point, int run) const;
    /** Union of the metric names over runs of a point, in first-seen order. */
    QStringList allMetricNames(int point) const;
    /** Number of aggregated rows. */
    int rowCount(int point, int run) const;
    const QVector<double> &iterations(int point, int run) const;
    /** Mean / sample std over repetitions of one metric (empty when the run lacks it). */
    QVector<double> mean(int point, int run, const QString &metric) const;
    QVector<double> std(int point, int run, const QString &metric) const;
    /** Number of agents with a per-agent ε series (0 without an accountant). */
    int epsilonAgentCount(int point, int run) const;
    /** Mean over repetitions of agent i's cumulative ε, one value per aggregated row. */
    QVector<double> epsilonAgentMean(int point, int run, int agent) const;
    /** Number of alternative ε bounds the run's accountant tracks (0 when none). */
    int epsilonAlternativeCount(int point, int run) const;
    /** Mean over repetitions of alternative bound a (max over agents), one value per row. */
    QVector<double> epsilonAlternativeMean(int point, int run, int alternative) const;
    /** Names of the alternative bounds (the accountant's alternatives()). */
    QStringList epsilonAlternativeNames(int point, int run) const;
    /** How many repetitions went into each row. */
    const QVector<int> &counts(int point, int run) const;

    RunState runState(int point, int run) const;
    /** Whether rows of the run may still arrive (waiting or running). */
    bool isStreaming(int point, int run) const
    {
        const RunState state = runState(point, run);
        return state == RunState::Waiting || state == RunState::Running;
    }
    /** "running", "ok", "diverged at 412", "cancelled at 80" … */
    QString runStatusText(int point, int run) const;
    /** Warnings the runner reported for the run. */
    QStringList warnings(int point, int run) const;
    /** The largest iteration recorded so far (any job). */
    qint64 latestIteration() const { return mLatestIteration; }
    /** The largest last value of `metric` over runs of the shown point (NaN when none). */
    double latestMax(const QString &metric) const;

signals:
    void resetDone();
    /** Rows [from, rowCount) of (point, run) are new. */
    void rowsAppended(int point, int run, int from);
    /** Every row of (point, run) was recomputed (a repetition joined): redraw it from row 0. */
    void seriesReset(int point, int run);
    void runStateChanged(int point, int run);

private:
    struct Repetition {
        QVector<qint64> iterations;
        QVector<double> values; ///< row-major over names
        QVector<double> epsilonAgents; ///< row-major over agents
        QVector<double> epsilonAlternatives; ///< row-major over alternatives
        bool started = false;
        bool ended = false;
        StatusEvent::Kind endKind = StatusEvent::Kind::Finished;
        qint64 endIteration = 0;
    };
    struct Series {
        QStringList names;
        QVector<Repetition> reps;
        QVector<double> iterations;
        QVector<QVector<double>> mean; ///< [metric][row]
        QVector<QVector<double>> std;
        QVector<int> counts;
        int agents = 0;
        QVector<QVector<double>> epsilonAgentMean; ///< [agent][row]
        int alternatives = 0;
        QStringList alternativeNames;
        QVector<QVector<double>> epsilonAlternativeMean; ///< [alternative][row]
        bool stale = false; ///< a repetition joined after rows were aggregated without it
        RunState state = RunState::Waiting;
        qint64 stateIteration = 0;
        QStringList warnings;
        int started = 0;
        int ended = 0;
    };

    Series *series(int point, int run);
    const Series *series(int point, int run) const;
    void aggregate(int point, int run);

    QVector<QVector<Series>> mPoints; ///< [point][run]
    QStringList mRunLabels;
    QStringList mPointLabels;
    QString mSweepParameter;
    int mRepetitions = 1;
    qint64 mLatestIteration = 0;
};

} // namespace dplab
