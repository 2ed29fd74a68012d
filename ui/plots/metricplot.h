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
#include <QTimer>
#include <QVector>

namespace dplab {

class LiveResults;
class RunHistory;

class MetricPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit MetricPlot(LiveResults *results, QWidget *parent = nullptr);

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
    void setAbsentText(const QString &text);
    /** While a run streams, each of its lines holds at most this many points: every
     *  stride-th recorded row, the stride doubling as rows arrive, so appending and redrawing
     *  cost the same at any run length. When the run stops, every row is drawn. */
    static constexpr int kLivePoints = 2000;
    /** While rows stream in, the plot redraws at most this often (milliseconds). */
    static constexpr int kLiveReplotMs = 100;
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

    void onRowsAppended(int point, int run, int from);
    void appendRows(int run);
    void appendMeanRows(int run);
    bool streaming(int run) const;
    static QVector<QCPGraph *> graphsOf(const RunGraphs &g);
    static void thin(RunGraphs &g);
    void appendAgentRows(int run);
    void appendAlternativeRows(int run);
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
    QTimer mLiveReplot;        ///< the next redraw while rows stream in
    QElapsedTimer mSinceReplot;
};

} // namespace dplab
