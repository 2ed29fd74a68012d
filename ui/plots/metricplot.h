// SPDX-License-Identifier: GPL-3.0-or-later
//
// MetricPlot: one live QCustomPlot of one metric for every run of an experiment: the mean over
// repetitions as a line in the run's colour and, with several repetitions, a mean ± std band.
// It follows LiveResults incrementally (addData with alreadySorted, queued replots — the
// QCustomPlot real-time pattern), uses a log axis with QCPAxisTickerLog where the metric
// prefers one, shows the exact (iteration, value) under the mouse, zooms and pans with the
// mouse, and a double-click resets the view. The x axis is the iteration or the bits sent.
//
// Threading: GUI thread.
#pragma once

#include <qcustomplot.h>

#include <QColor>
#include <QElapsedTimer>
#include <QHash>
#include <QTimer>
#include <QVector>

#include <functional>
#include <memory>

namespace dplab {

class LiveResults;
class RunHistory;

class MetricPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit MetricPlot(LiveResults *results, QWidget *parent = nullptr);
    ~MetricPlot() override;

    void setMetric(const QString &metric);
    QString metric() const { return mMetric; }
    /** "" for the iteration, or a metric name (e.g. "bits") whose mean gives the x values. */
    void setXMetric(const QString &xMetric);
    QString xMetric() const { return mXMetric; }
    void setPoint(int point);
    void setRunColors(const QVector<QColor> &colors);
    /** Text appended to each run's legend entry (e.g. the accountant, the status). */
    void setRunSuffixes(const QStringList &suffixes);
    void setLogY(bool logY);
    bool logY() const { return mLogY; }
    /** Also draw each agent's cumulative ε (mean over repetitions) as a thin line in the run's
     *  colour under the run's max-over-agents line; only the `epsilon` metric has them. */
    void setPerAgent(bool perAgent);
    bool perAgent() const { return mPerAgent; }
    /** Per-agent lines drawn for a run (tests). */
    int agentGraphCount(int run) const;
    /** Dashed alternative-bound lines drawn for a run (tests). */
    int alternativeGraphCount(int run) const;

    /** A second, smaller line under the title (e.g. which accountant produced ε); "" hides it. */
    void setSubtitle(const QString &subtitle);
    QString subtitle() const { return mSubtitleText; }
    /** Text shown in the middle when the runs have data but none records this metric. */
    /** What the plot says in place of curves ("No data yet: press Run", why there is no ε…);
     *  empty while it draws data. */
    QString placeholderText() const;
    void setAbsentText(const QString &text);
    /** While a run streams, each of its lines holds at most this many points: every
     *  stride-th recorded row, the stride doubling as rows arrive, so appending and redrawing
     *  cost the same at any run length. When no run of the plot is running any more, every
     *  row is drawn again, one run per pass of the event loop (the window answers between). */
    static constexpr int kLivePoints = 2000;
    /** While rows stream in, the plot redraws at most this often (milliseconds). */
    static constexpr int kLiveReplotMs = 100;
    /** While rows stream in, the redraws of every plot together take at most this share of the
     *  GUI thread's time: a streaming plot waits max(kLiveReplotMs, C / kLiveDrawShare) between
     *  redraws, C the sum over the streaming plots of their recent redraw times. Redraws that
     *  grow costly (many points, bands, a slow display) then come less often instead of taking
     *  a core from the run (the window runs as fast as the CLI, docs/benchmarks.md). */
    static constexpr double kLiveDrawShare = 0.02;
    /** The pause between two redraws of a streaming plot when the streaming plots' redraws
     *  take `costMs` milliseconds together (QCustomPlot's running average per plot, summed). */
    static int liveReplotInterval(double costMs);
    /** After that pause a live redraw also waits for the run: the process' CPU time outside the
     *  GUI thread (the run's threads) must have grown by kLiveReplotRunCpuMs since the plot's
     *  last redraw, so that a run gets as many live redraws per second of its own CPU at any load
     *  of the machine (paced by wall time alone, a run slowed down 3× by other jobs redrew 3×
     *  as often: docs/benchmarks.md, fifth pass). On an idle machine one run thread gives
     *  kLiveReplotRunCpuMs in under kLiveReplotMs, so the plot still redraws every kLiveReplotMs.
     *  The rows are drawn anyway once kLiveReplotMaxMs passed since the last redraw, and as soon
     *  as the run's threads are idle (under kLiveReplotIdleCpuMs since the last check: paused,
     *  stepping, ended). */
    static constexpr double kLiveReplotRunCpuMs = 80;
    static constexpr int kLiveReplotMaxMs = 1000;
    static constexpr double kLiveReplotIdleCpuMs = 0.1;
    /** Whether a live redraw whose pause (liveReplotInterval) has passed is due, `wallMs` of wall
     *  time and `runCpuMs` of the run's CPU after the plot's last redraw, the run's threads having
     *  used `runCpuSinceCheckMs` since the previous check (infinity when that was less than
     *  kLiveReplotMs ago: too short a look to call the run idle). */
    static bool liveReplotDue(qint64 wallMs, double runCpuMs, double runCpuSinceCheckMs);
    /** The process' CPU time outside the calling thread, in ms (the GUI thread: the run's). */
    static double runCpuMs();
    /** Draws the older results of each run in `history` (not hidden) as faint dashed "ghost"
     *  lines behind the current curves, each labelled at its end by what differed
     *  (RunHistory::difference); null: no ghosts. */
    void setHistory(const RunHistory *history);
    /** Ghost lines drawn (tests). */
    int ghostCount() const { return mGhosts.size(); }
    /** The label of ghost line i (tests). */
    QString ghostLabel(int i) const;
    /** Points drawn for a run's mean line (tests). */
    int pointCount(int run) const;
    /** The mean line of a run (tests, export). */
    QCPGraph *meanGraph(int run) const;

public slots:
    /** Rebuilds every graph from LiveResults. */
    void rebuild();
    /** Fits the axes to the data and follows new data again. */
    void resetView();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct RunGraphs {
        QCPGraph *mean = nullptr;
        QCPGraph *upper = nullptr;
        QCPGraph *lower = nullptr;
        QVector<QCPGraph *> agents;
        QVector<QCPGraph *> alternatives;
        int alternativeRows = 0;
        int rows = 0;
        int agentRows = 0;
        int stride = 1; ///< rows drawn: every stride-th (see kLivePoints)
    };

    /** A graph's value range in `domain`, from a cache that scans only the points appended
     *  since the last call (QCPGraph::getValueRange scans every point, every time: with a
     *  finished run at full resolution that was most of the GUI thread's time at a run's end). */
    QCPRange valueRangeOf(const QCPGraph *graph, QCP::SignDomain domain, bool &found);
    /** Forgets the cached ranges of the run's graphs (their points were replaced, not appended). */
    void forgetRanges(const RunGraphs &g);
    void onRowsAppended(int point, int run, int from);
    void appendRows(int run);
    void appendMeanRows(int run);
    bool streaming(int run) const;
    static QVector<QCPGraph *> graphsOf(const RunGraphs &g);
    void thin(RunGraphs &g);
    void appendAgentRows(int run);
    void appendAlternativeRows(int run);
    /** Appends rows [from, rows) of `series` (every stride-th) to `graph` at `keys`; values a
     *  plot cannot show (not finite, too large, ≤ 0 on a log axis) become gaps. */
    void appendStrided(QCPGraph *graph, const QVector<double> &keys, const QVector<double> &series, int from, int rows,
                       int stride) const;
    /** The points of rows [from, rows) (every stride-th) of a run's mean line and, with `upper`
     *  and `lower`, of its mean ± std band; any thread (the full-resolution reload builds them on
     *  a worker: the same function, so the same points as the live appends). */
    static void meanPoints(const QVector<double> &keysAll, const QVector<double> &mean, const QVector<double> &sd,
                           int from, int rows, int stride, bool logY, QVector<QCPGraphData> &values,
                           QVector<QCPGraphData> *upper, QVector<QCPGraphData> *lower);
    /** The points of rows [from, rows) (every stride-th) of one series; any thread. */
    static void stridedPoints(const QVector<double> &keysAll, const QVector<double> &series, int from, int rows,
                              int stride, bool logY, QVector<QCPGraphData> &points);
    friend class FullResolutionQueue;
    struct Reload;
    /** The reload queue's step for (point, run): the run's series as shared copies, whose
     *  points Reload::build makes on the reload thread; null when there is nothing to reload
     *  (or the run was drawn at once, which it is when graphs are still missing). */
    std::shared_ptr<Reload> startReload(int point, int run);
    /** Puts a reload's points into the run's graphs at once and queues one redraw; drops it
     *  when the plot changed since it started (new run, other experiment, metric, point). */
    void swapIn(const Reload &reload);
    /** Empties the run's graphs for a fresh start at full resolution. */
    void clearRun(RunGraphs &g);
    /** A repetition joined the run: only its lines are drawn again. */
    void resetRun(int run);
    void updateLegend();
    void addGhosts();
    void autoRange();
    void configureAxis();

    LiveResults *mResults;
    const RunHistory *mHistory = nullptr;
    QVector<QCPGraph *> mGhosts;
    QVector<QCPItemText *> mGhostLabels;
    QString mMetric;
    QString mXMetric;
    int mPoint = 0;
    bool mLogY = false;
    bool mPerAgent = false;
    bool mFollow = true;
    QVector<QColor> mColors;

    QStringList mSuffixes;
    QVector<RunGraphs> mRuns;
    QCPTextElement *mTitle;
    QCPItemText *mPlaceholder;
    QString mAbsentText;
    QString mSubtitleText;
    QString mLegendTip;        ///< full run names (legend entries may be elided)
    bool mReadoutShown = false; ///< the hover read-out of a point is showing
    QCPTextElement *mSubtitle = nullptr;
    struct RangeCache {
        int count = 0;      ///< points scanned
        bool found = false; ///< any point in the domain among them
        QCPRange range;
        QCP::SignDomain domain = QCP::sdBoth;
    };
    QHash<const QCPGraph *, RangeCache> mValueRanges;
    QTimer mLiveReplot;        ///< the next redraw (or check whether it is due) while rows stream in
    QElapsedTimer mSinceReplot;
    double mRunCpuAtReplot = 0; ///< runCpuMs() at the last redraw
    double mRunCpuAtCheck = 0;  ///< runCpuMs() when the pending live redraw was armed or last checked
    QElapsedTimer mSinceCheck;  ///< since then
    double mLiveCostMs = 0;    ///< this plot's recent redraw time, as counted in the shared sum
    quint64 mGeneration = 0;   ///< changes whenever graphs are replaced (a reload started before is stale)
};

} // namespace dplab
