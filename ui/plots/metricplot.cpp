// SPDX-License-Identifier: GPL-3.0-or-later
#include "metricplot.h"

#include "experimentdocument.h"
#include "liveresults.h"
#include "metricnames.h"
#include "numbertext.h"
#include "plotstyle.h"
#include "runhistory.h"
#include "textconvert.h"

#include "dplab/engine/metrics.h"

#include <QHelpEvent>
#include <QList>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <limits>

namespace dplab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/** Extends `cache` over the points from cache.count on, with QCPDataContainer::valueRange's rule. */
template <class Cache, class It>
void extendRange(Cache &cache, It from, It to)
{
    for (It it = from; it != to; ++it) {
        const double v = it->value;
        const QCP::SignDomain domain = cache.domain;
        if (std::isnan(v) || (domain == QCP::sdPositive && !(v > 0)) || (domain == QCP::sdNegative && !(v < 0)))
            continue;
        cache.range = cache.found ? QCPRange(std::min(cache.range.lower, v), std::max(cache.range.upper, v)) : QCPRange(v, v);
        cache.found = true;
    }
}

/** Σ over the plots that stream of their recent redraw time, in ms (GUI thread only). */
double gLiveCostMs = 0.0;

} // namespace

/** What one full-resolution reload of a run takes (shared copies of LiveResults' series, made
 *  on the GUI thread) and gives (every row's points of the run's graphs, in graphsOf order, and
 *  their value ranges), built on the reload thread by the functions the live appends use. */
struct MetricPlot::Reload {
    quint64 generation = 0;
    int point = 0;
    int run = 0;
    int rows = 0;
    bool logY = false;
    bool band = false;
    QCP::SignDomain domain = QCP::sdBoth;
    QVector<double> keys, mean, sd;
    QVector<QVector<double>> agents, alternatives;
    QVector<QVector<QCPGraphData>> points;
    QVector<RangeCache> ranges;

    void build()
    {
        points.resize((band ? 3 : 1) + agents.size() + alternatives.size());
        if (keys.size() >= rows) {
            if (!mean.isEmpty())
                meanPoints(keys, mean, sd, 0, rows, 1, logY, points[0], band ? &points[1] : nullptr,
                           band ? &points[2] : nullptr);
            int next = band ? 3 : 1;
            for (const QVector<double> &series : std::as_const(agents) + alternatives)
                stridedPoints(keys, series, 0, rows, 1, logY, points[next++]);
        }
        for (const QVector<QCPGraphData> &graph : std::as_const(points)) {
            RangeCache cache{0, false, QCPRange(), domain};
            extendRange(cache, graph.constBegin(), graph.constEnd());
            cache.count = static_cast<int>(graph.size());
            ranges.push_back(cache);
        }
    }
};

/** The plots' full-resolution reloads when runs stop, one at a time: a timer starts a step,
 *  whose points are built on the queue's own thread (every row of a run at 10⁵ rows took tens
 *  of milliseconds of the GUI thread); the GUI thread then swaps them into the run's graphs at
 *  once (the plot never shows a half-reloaded run) and queues one redraw, and the next step
 *  starts from the next pass of the event loop, so input, timers and that redraw are handled
 *  between two. The first step waits kSettleMs, so that what the end of a run redraws anyway
 *  (legends, statuses, the results views) is drawn from the light live lines, not from every
 *  row of every plot at once. One queue for every plot, driven from the GUI thread. */
class FullResolutionQueue : public QObject
{
public:
    static FullResolutionQueue &instance()
    {
        static auto *queue = new FullResolutionQueue; // lives as long as the application
        return *queue;
    }
    void add(MetricPlot *plot, int point, int run)
    {
        mSteps.push_back({QPointer<MetricPlot>(plot), point, run});
        if (!mBusy && !mTimer.isActive())
            mTimer.start(kSettleMs);
    }

private:
    static constexpr int kSettleMs = 100;
    FullResolutionQueue()
    {
        mPool.setMaxThreadCount(1);
        mTimer.setSingleShot(true);
        connect(&mTimer, &QTimer::timeout, this, [this] { step(); });
    }
    void step()
    {
        while (!mSteps.isEmpty()) {
            const Step step = mSteps.takeFirst();
            if (!step.plot)
                continue; // a plot deleted meanwhile has nothing to reload
            std::shared_ptr<MetricPlot::Reload> reload = step.plot->startReload(step.point, step.run);
            if (!reload)
                continue;
            mBusy = true;
            mBusyPlot = step.plot;
            mPool.start([this, reload] {
                reload->build();
                QMetaObject::invokeMethod(this, [this, reload] { finish(*reload); }, Qt::QueuedConnection);
            });
            return;
        }
    }
    void finish(const MetricPlot::Reload &reload)
    {
        if (mBusyPlot) // (null: the plot was deleted during the build)
            mBusyPlot->swapIn(reload);
        mBusy = false;
        mBusyPlot = nullptr;
        if (!mSteps.isEmpty())
            mTimer.start(0);
    }
    struct Step {
        QPointer<MetricPlot> plot;
        int point = 0;
        int run = 0;
    };
    QList<Step> mSteps;
    QTimer mTimer;
    QThreadPool mPool;
    bool mBusy = false; ///< a reload is being built (one at a time)
    QPointer<MetricPlot> mBusyPlot; ///< the plot it is for
};

int MetricPlot::liveReplotInterval(double costMs)
{
    // At most a minute: a plot that stopped answering still shows the run's progress.
    return static_cast<int>(std::clamp(std::ceil(costMs / kLiveDrawShare), static_cast<double>(kLiveReplotMs), 60000.0));
}

bool MetricPlot::liveReplotDue(qint64 wallMs, double runCpuMs, double runCpuSinceCheckMs)
{
    return runCpuMs >= kLiveReplotRunCpuMs || wallMs >= kLiveReplotMaxMs || runCpuSinceCheckMs < kLiveReplotIdleCpuMs;
}

double MetricPlot::runCpuMs()
{
#if defined(CLOCK_PROCESS_CPUTIME_ID) && defined(CLOCK_THREAD_CPUTIME_ID)
    timespec process{}, thread{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process) == 0 && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &thread) == 0)
        return 1e3 * double(process.tv_sec - thread.tv_sec) + 1e-6 * double(process.tv_nsec - thread.tv_nsec);
#endif
    return 0.0; // no CPU clocks: the run's threads look idle and live redraws follow the wall time alone
}

MetricPlot::~MetricPlot()
{
    gLiveCostMs = std::max(0.0, gLiveCostMs - mLiveCostMs);
}

MetricPlot::MetricPlot(LiveResults *results, QWidget *parent)
    : QCustomPlot(parent)
    , mResults(results)
    , mTitle(new QCPTextElement(this, QString(), QFont(font().family(), 10, QFont::Bold)))
    , mPlaceholder(new QCPItemText(this))
{
    // Small enough that two rows of plots fit under the graph at 1280×720.
    setMinimumSize(200, 110);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, mTitle);
    plotLayout()->setRowSpacing(0);
    mTitle->setMargins(QMargins(0, 4, 0, 0));
    xAxis->setLabel(tr("iteration"));
    xAxis->setTicker(makeTicker(xAxis)); // as many ticks as the axis' length has room for
    // The legend gets its own row between the title and the axes, so it never hides a curve.
    legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(8);
    legend->setFont(legendFont);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setRowSpacing(0);
    legend->setColumnSpacing(10);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    legend->setMargins(QMargins(2, 0, 2, 0));
    legend->setIconSize(18, 8);
    auto *legendRow = new QCPLayoutGrid;
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, legendRow);
    axisRect()->insetLayout()->take(legend);
    // Spacers left and right centre the legend and keep the row's maximum width unbounded
    // (a grid column is only as wide as its narrowest maximum: an empty legend would
    // squeeze the axes).
    legendRow->addElement(0, 0, new QCPLayoutElement(this));
    legendRow->addElement(0, 1, legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(this));
    legendRow->setColumnStretchFactors({1.0, 0.001, 1.0});
    legendRow->setColumnSpacing(0);
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(1, 0.001);
    mPlaceholder->setPositionAlignment(Qt::AlignCenter);
    mPlaceholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    mPlaceholder->position->setCoords(0.5, 0.5);
    mPlaceholder->setColor(QColor(0x80, 0x80, 0x80));
    mPlaceholder->setClipToAxisRect(true);
    // Ghost lines (and their labels) under the runs' lines, each run's agents under its ghosts.
    addLayer(QStringLiteral("ghosts"), layer(QStringLiteral("main")), QCustomPlot::limBelow);
    connect(results, &LiveResults::resetDone, this, &MetricPlot::rebuild);
    connect(results, &LiveResults::rowsAppended, this, &MetricPlot::onRowsAppended);
    mLiveReplot.setSingleShot(true);
    connect(&mLiveReplot, &QTimer::timeout, this, [this] {
        const double cpu = runCpuMs();
        const double sinceCheck = mSinceCheck.isValid() && mSinceCheck.elapsed() >= kLiveReplotMs
                                      ? cpu - mRunCpuAtCheck
                                      : std::numeric_limits<double>::infinity();
        const bool due = liveReplotDue(mSinceReplot.isValid() ? mSinceReplot.elapsed() : kLiveReplotMaxMs,
                                       cpu - mRunCpuAtReplot, sinceCheck);
        mRunCpuAtCheck = cpu;
        mSinceCheck.restart();
        if (due)
            replot(rpQueuedReplot);
        else
            mLiveReplot.start(kLiveReplotMs); // check again (rows that arrive meanwhile wait for it)
    });
    // Any redraw (a new run, the end of a run, a legend change) draws every row appended so far:
    // a live redraw still pending is then redundant and the next one waits its interval from
    // here. (On a short run the pending live redraws fired after the end's own redraw, one or
    // two more redraws of every plot for nothing: docs/benchmarks.md, fourth pass.)
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        mLiveReplot.stop();
        mSinceReplot.restart();
        mRunCpuAtReplot = runCpuMs();
    });
    connect(results, &LiveResults::runStateChanged, this, [this](int point, int) {
        // Runs that stopped streaming get their full resolution back once no run of the plot
        // is running any more (a finished run at full resolution would make every live redraw
        // of the others scan all its rows), one run per step of the shared queue.
        if (point != mPoint)
            return;
        for (int r = 0; r < mRuns.size(); ++r)
            if (mResults->runState(mPoint, r) == LiveResults::RunState::Running)
                return;
        for (int r = 0; r < mRuns.size(); ++r) {
            if (mRuns[r].stride == 1)
                continue;
            FullResolutionQueue::instance().add(this, point, r);
        }
    });
    connect(results, &LiveResults::seriesReset, this, [this](int point, int run) {
        if (point == mPoint && run >= 0 && run < mRuns.size())
            resetRun(run);
    });
    configureAxis();
}

void MetricPlot::setMetric(const QString &metric)
{
    if (mMetric == metric)
        return;
    mMetric = metric;
    mTitle->setText(mPerAgent && metric == QLatin1String("epsilon") ? tr("Cumulative ε (max, and each agent)")
                                                                      : metricTitle(metric));
    mLogY = metricPrefersLogAxis(metric);
    configureAxis();
    rebuild();
}

void MetricPlot::setXMetric(const QString &xMetric)
{
    if (mXMetric == xMetric)
        return;
    mXMetric = xMetric;
    xAxis->setLabel(xMetric.isEmpty() ? tr("iteration") : metricTitle(xMetric).toLower());
    rebuild();
}

void MetricPlot::setPoint(int point)
{
    if (mPoint == point)
        return;
    mPoint = point;
    rebuild();
}

void MetricPlot::setRunColors(const QVector<QColor> &colors)
{
    mColors = colors;
    rebuild();
}

void MetricPlot::setRunSuffixes(const QStringList &suffixes)
{
    mSuffixes = suffixes;
    updateLegend();
    replot(rpQueuedReplot);
}

void MetricPlot::setLogY(bool logY)
{
    if (mLogY == logY)
        return;
    mLogY = logY;
    configureAxis();
    rebuild();
}

void MetricPlot::setPerAgent(bool perAgent)
{
    if (mPerAgent == perAgent)
        return;
    mPerAgent = perAgent;
    mTitle->setText(mPerAgent && mMetric == QLatin1String("epsilon") ? tr("Cumulative ε (max, and each agent)")
                                                                       : metricTitle(mMetric));
    rebuild();
}

int MetricPlot::alternativeGraphCount(int run) const
{
    return run >= 0 && run < mRuns.size() ? static_cast<int>(mRuns[run].alternatives.size()) : 0;
}

int MetricPlot::agentGraphCount(int run) const
{
    return run >= 0 && run < mRuns.size() ? static_cast<int>(mRuns[run].agents.size()) : 0;
}

void MetricPlot::setSubtitle(const QString &subtitle)
{
    mSubtitleText = subtitle;
    if (subtitle.isEmpty()) {
        if (mSubtitle) {
            plotLayout()->remove(mSubtitle); // deletes it
            plotLayout()->simplify();
            mSubtitle = nullptr;
        }
    } else {
        if (!mSubtitle) {
            plotLayout()->insertRow(1);
            QFont f = font();
            f.setPointSizeF(7.5);
            f.setItalic(true);
            mSubtitle = new QCPTextElement(this, QString(), f);
            mSubtitle->setTextColor(QColor(0x55, 0x55, 0x55));
            mSubtitle->setMargins(QMargins(4, 0, 4, 0));
            plotLayout()->addElement(1, 0, mSubtitle);
            plotLayout()->setRowStretchFactor(1, 0.001);
        }
        const QFontMetrics metrics(mSubtitle->font());
        QStringList lines = subtitle.split(QLatin1Char('\n'));
        for (QString &line : lines)
            line = metrics.elidedText(line, Qt::ElideRight, std::max(100, width() - 20));
        mSubtitle->setText(lines.join(QLatin1Char('\n')));
    }
    replot(rpQueuedReplot);
}

void MetricPlot::setAbsentText(const QString &text)
{
    mAbsentText = text;
    updateLegend();
    replot(rpQueuedReplot);
}

int MetricPlot::pointCount(int run) const
{
    return run >= 0 && run < mRuns.size() && mRuns[run].mean ? mRuns[run].mean->dataCount() : 0;
}

QCPGraph *MetricPlot::meanGraph(int run) const
{
    return run >= 0 && run < mRuns.size() ? mRuns[run].mean : nullptr;
}

void MetricPlot::configureAxis()
{
    setLogAxis(yAxis, mLogY);
    yAxis->setLabel(metricFormula(mMetric));
}

void MetricPlot::setHistory(const RunHistory *history)
{
    if (mHistory)
        disconnect(mHistory, nullptr, this, nullptr);
    mHistory = history;
    if (mHistory)
        connect(mHistory, &RunHistory::changed, this, [this] {
            // A run that ends enters the history: only the ghosts change. The runs' lines stay
            // (rebuilding them drew every plot's every row at once, the end-of-run stall) and get
            // their full resolution from the queue.
            addGhosts();
            replot(rpQueuedReplot);
        });
    rebuild();
}

QString MetricPlot::ghostLabel(int i) const
{
    return i >= 0 && i < mGhostLabels.size() ? mGhostLabels[i]->text() : QString();
}

void MetricPlot::addGhosts()
{
    for (QCPItemText *label : std::as_const(mGhostLabels))
        removeItem(label);
    mGhostLabels.clear();
    for (QCPGraph *ghost : std::as_const(mGhosts))
        removeGraph(ghost);
    mGhosts.clear();
    if (!mHistory || mMetric.isEmpty())
        return;
    for (int r = 0; r < mResults->runCount(); ++r) {
        const QColor colour = r < mColors.size() ? mColors[r] : ExperimentDocument::defaultRunColor(r);
        for (const HistoryEntry *entry : mHistory->ghosts(mPoint, r)) {
            QVector<double> x;
            const QVector<double> y = RunHistory::mean(*entry, mMetric, &x);
            if (!mXMetric.isEmpty())
                x = RunHistory::mean(*entry, mXMetric, nullptr);
            if (y.isEmpty() || x.size() != y.size())
                continue;
            QColor faint = colour;
            faint.setAlpha(70);
            QPen pen(faint, 1.2, Qt::DashLine);
            QCPGraph *ghost = addGraph();
            ghost->setLayer(QStringLiteral("ghosts"));
            ghost->setPen(pen);
            ghost->removeFromLegend();
            ghost->setData(x, y, true);
            ghost->setAdaptiveSampling(true);
            ghost->setSelectable(QCP::stNone);
            mGhosts.push_back(ghost);
            auto *label = new QCPItemText(this);
            label->setText(entry->difference + (entry->pinned ? QStringLiteral(" 📌") : QString()));
            QColor text = colour.darker(120);
            text.setAlpha(200); // the label must stay readable where the line is faint
            label->setColor(text);
            label->setFont(QFont(font().family(), std::max(7, font().pointSize() - 2)));
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            label->position->setCoords(x.last(), y.last());
            label->setClipToAxisRect(true);
            label->setLayer(QStringLiteral("ghosts"));
            mGhostLabels.push_back(label);
        }
    }
}

void MetricPlot::rebuild()
{
    clearGraphs();
    mGhosts.clear(); // deleted with the other graphs
    ++mGeneration;
    mRuns.clear();
    mValueRanges.clear();
    addGhosts();
    const int runs = mResults->runCount();
    for (int r = 0; r < runs; ++r) {
        RunGraphs g;
        const QColor colour = r < mColors.size() ? mColors[r] : ExperimentDocument::defaultRunColor(r);
        if (mResults->repetitions() > 1 && !mPerAgent) {
            QColor fill = colour;
            fill.setAlpha(45);
            g.upper = addGraph();
            g.upper->setPen(Qt::NoPen);
            g.upper->removeFromLegend();
            g.lower = addGraph();
            g.lower->setPen(Qt::NoPen);
            g.lower->setBrush(fill);
            g.lower->setChannelFillGraph(g.upper);
            g.lower->removeFromLegend();
        }
        g.mean = addGraph();
        g.mean->setPen(QPen(colour, 1.8));
        g.mean->setAdaptiveSampling(true);
        mRuns.push_back(g);
        appendRows(r);
    }
    updateLegend();
    if (mFollow)
        autoRange();
    replot(rpQueuedReplot);
}

void MetricPlot::updateLegend()
{
    int visible = 0;
    int legendText = 0;
    QStringList fullNames;
    for (int r = 0; r < mRuns.size(); ++r) {
        if (!mRuns[r].mean)
            continue;
        QString name = mResults->runLabel(r);
        if (r < mSuffixes.size() && !mSuffixes[r].isEmpty())
            name += QStringLiteral(" — ") + mSuffixes[r];
        // The full name: the plot's legend shortens it to fit (fitLegend, before every
        // replot), an export prints it whole.
        fullNames << name;
        mRuns[r].mean->setName(name);
        legendText += name.size() + 4;
        const bool has = mRuns[r].mean->dataCount() > 0 || mResults->metricNames(mPoint, r).contains(mMetric)
                         || mResults->metricNames(mPoint, r).isEmpty();
        if (has) {
            mRuns[r].mean->addToLegend();
            ++visible;
        } else {
            mRuns[r].mean->removeFromLegend();
        }
    }
    legend->setVisible(visible > 0);
    // Shown over the legend only (event()), never over a curve, where the read-out is.
    mLegendTip = fullNames.join(QLatin1Char('\n'))
                 + (mSubtitleText.isEmpty() ? QString() : QStringLiteral("\n") + mSubtitleText);
    // Long entries (accountant names) one per line, short ones side by side.
    const int columns = legendText > 0 ? std::clamp(int(width() / 7) / std::max(1, legendText / std::max(1, int(mRuns.size()))), 1, 4) : 3;
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
    bool any = false;
    for (const RunGraphs &g : std::as_const(mRuns))
        any = any || (g.mean && g.mean->dataCount() > 0);
    mPlaceholder->setVisible(!any);
    // Without data no axes of a previous experiment stay behind the placeholder ("No ε" over
    // the old ε ticks): plain unlabelled axes until data arrive.
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTickLabels(any);
        axis->grid()->setVisible(any);
    }
    yAxis->setLabel(any ? metricFormula(mMetric) : QString());
    if (!any) {
        xAxis->setRange(0, 1);
        yAxis->setRange(mLogY ? QCPRange(1, 10) : QCPRange(0, 1));
    }
    if (!any) {
        QString absent = mAbsentText.isEmpty() ? tr("Not recorded by these runs") : mAbsentText;
        // No ε: say in words which run lacks what (an accountant without its gradient bound is
        // not "no accountant"), one line each, so that the lecturer can say why.
        if (mMetric == QLatin1String(metric::Epsilon)) {
            QStringList reasons;
            for (int r = 0; r < mRuns.size(); ++r)
                for (const QString &w : mResults->warnings(mPoint, r))
                    if (w.contains(QStringLiteral("no ε is"))
                        && (w.contains(QStringLiteral("gradient bound")) || w.contains(QStringLiteral("gradient_bound"))))
                        reasons << tr("%1: its accountant\nneeds a bound c_l on the gradients:\nadd a gradient bound c_l in Privacy")
                                       .arg(mResults->runLabel(r));
            if (!reasons.isEmpty())
                absent = tr("No ε certified") + QLatin1Char('\n') + reasons.join(QLatin1Char('\n'))
                         + QLatin1Char('\n') + tr("(the other runs: no noise,\nor no accountant)");
        }
        mPlaceholder->setText(mResults->allMetricNames(mPoint).isEmpty() ? tr("No data yet: press Run") : absent);
    }
}

QString MetricPlot::placeholderText() const
{
    return mPlaceholder->visible() ? mPlaceholder->text() : QString();
}

void MetricPlot::onRowsAppended(int point, int run, int)
{
    if (point != mPoint || run < 0 || run >= mRuns.size())
        return;
    const bool wasEmpty = mRuns[run].mean->dataCount() == 0;
    appendRows(run);
    if (wasEmpty || mPlaceholder->visible())
        updateLegend();
    if (mFollow)
        autoRange();
    // Rows arrive up to 20 times a second; redrawing every plot that often kept the GUI thread
    // busy for most of a fast run. A streaming plot redraws at most every kLiveReplotMs, and
    // less often when the plots' redraws together would take more than kLiveDrawShare of the
    // time (on two cores, every millisecond the GUI thread draws is taken from the run); then
    // the timer checks that the run has advanced enough to be drawn again (liveReplotDue).
    if (!mLiveReplot.isActive()) {
        const double cost = replotTime(true); // QCustomPlot's running average of this plot's redraws
        gLiveCostMs = std::max(0.0, gLiveCostMs + cost - mLiveCostMs);
        mLiveCostMs = cost;
        const qint64 interval = liveReplotInterval(gLiveCostMs);
        const qint64 since = mSinceReplot.isValid() ? mSinceReplot.elapsed() : interval;
        mRunCpuAtCheck = runCpuMs();
        mSinceCheck.restart();
        mLiveReplot.start(static_cast<int>(std::max<qint64>(0, interval - since)));
    }
}

bool MetricPlot::streaming(int run) const
{
    return mResults->isStreaming(mPoint, run);
}

QVector<QCPGraph *> MetricPlot::graphsOf(const RunGraphs &g)
{
    QVector<QCPGraph *> graphs{g.mean};
    if (g.upper)
        graphs << g.upper << g.lower;
    return graphs + g.agents + g.alternatives;
}

void MetricPlot::thin(RunGraphs &g)
{
    // Point j of every graph of the run is row j·stride: keeping the even points doubles it.
    forgetRanges(g);
    g.stride *= 2;
    for (QCPGraph *graph : graphsOf(g)) {
        const auto data = graph->data();
        QVector<QCPGraphData> kept;
        kept.reserve(data->size() / 2 + 1);
        for (int j = 0; j < data->size(); j += 2)
            kept.push_back(*(data->constBegin() + j));
        data->set(kept, true);
    }
}

void MetricPlot::appendRows(int run)
{
    RunGraphs &g = mRuns[run];
    if (g.stride > 1 && !streaming(run))
        clearRun(g); // the run has stopped: redraw it from every recorded row
    appendMeanRows(run);
    appendAgentRows(run);
    appendAlternativeRows(run);
    if (streaming(run))
        while (g.mean->dataCount() > kLivePoints)
            thin(g);
}

void MetricPlot::clearRun(RunGraphs &g)
{
    forgetRanges(g);
    for (QCPGraph *graph : graphsOf(g))
        graph->data()->clear();
    g.rows = g.agentRows = g.alternativeRows = 0;
    g.stride = 1;
}

void MetricPlot::resetRun(int run)
{
    // Every row of the run was aggregated again: its lines only (rebuilding the plot drew the
    // other runs, finished ones at full resolution, again with it).
    ++mGeneration;
    clearRun(mRuns[run]);
    appendRows(run);
    updateLegend();
    if (mFollow)
        autoRange();
    replot(rpQueuedReplot);
}

std::shared_ptr<MetricPlot::Reload> MetricPlot::startReload(int point, int run)
{
    if (point != mPoint || run < 0 || run >= mRuns.size() || mRuns[run].stride == 1 || streaming(run))
        return nullptr;
    const RunGraphs &g = mRuns[run];
    const bool perAgent = mPerAgent && mMetric == QLatin1String("epsilon");
    const int agents = perAgent ? mResults->epsilonAgentCount(mPoint, run) : 0;
    const int alternatives = mMetric == QLatin1String("epsilon") ? mResults->epsilonAlternativeCount(mPoint, run) : 0;
    if (agents != g.agents.size() || alternatives != g.alternatives.size()) {
        // Lines the live rows have not created yet: draw the run here, as its rows come.
        appendRows(run);
        updateLegend();
        if (mFollow)
            autoRange();
        replot(rpQueuedReplot);
        return nullptr;
    }
    auto reload = std::make_shared<Reload>();
    reload->generation = mGeneration;
    reload->point = point;
    reload->run = run;
    reload->rows = mResults->rowCount(mPoint, run);
    reload->logY = mLogY;
    reload->band = g.upper != nullptr;
    reload->domain = mLogY ? QCP::sdPositive : QCP::sdBoth;
    if (!mMetric.isEmpty()) {
        reload->mean = mResults->mean(mPoint, run, mMetric);
        reload->sd = mResults->std(mPoint, run, mMetric);
    }
    reload->keys = mXMetric.isEmpty() ? mResults->iterations(mPoint, run) : mResults->mean(mPoint, run, mXMetric);
    for (int i = 0; i < agents; ++i)
        reload->agents.push_back(mResults->epsilonAgentMean(mPoint, run, i));
    for (int a = 0; a < alternatives; ++a)
        reload->alternatives.push_back(mResults->epsilonAlternativeMean(mPoint, run, a));
    return reload;
}

void MetricPlot::swapIn(const Reload &reload)
{
    const int run = reload.run;
    if (reload.generation != mGeneration || reload.point != mPoint || run >= mRuns.size() || streaming(run)
        || mRuns[run].stride == 1 || mResults->rowCount(mPoint, run) != reload.rows)
        return; // the plot changed meanwhile: its own updates draw what it shows now
    RunGraphs &g = mRuns[run];
    const QVector<QCPGraph *> graphs = graphsOf(g);
    if (graphs.size() != reload.points.size())
        return;
    forgetRanges(g);
    for (int i = 0; i < graphs.size(); ++i) {
        graphs[i]->data()->set(reload.points[i], true); // shares the vector: no copy
        mValueRanges.insert(graphs[i], reload.ranges[i]);
    }
    g.rows = g.agentRows = g.alternativeRows = reload.rows;
    g.stride = 1;
    if (mFollow)
        autoRange();
    replot(rpQueuedReplot);
}

void MetricPlot::appendMeanRows(int run)
{
    RunGraphs &g = mRuns[run];
    const int rows = mResults->rowCount(mPoint, run);
    if (rows <= g.rows || mMetric.isEmpty())
        return;
    const QVector<double> mean = mResults->mean(mPoint, run, mMetric);
    if (mean.isEmpty()) {
        g.rows = rows;
        return;
    }
    const QVector<double> sd = mResults->std(mPoint, run, mMetric);
    const QVector<double> keysAll = mXMetric.isEmpty() ? mResults->iterations(mPoint, run)
                                                       : mResults->mean(mPoint, run, mXMetric);
    if (keysAll.size() < rows)
        return;
    QVector<QCPGraphData> values, upper, lower;
    meanPoints(keysAll, mean, sd, g.rows, rows, g.stride, mLogY, values, g.upper ? &upper : nullptr,
               g.upper ? &lower : nullptr);
    g.mean->data()->add(values, true);
    if (g.upper) {
        g.upper->data()->add(upper, true);
        g.lower->data()->add(lower, true);
    }
    g.rows = rows;
}

void MetricPlot::meanPoints(const QVector<double> &keysAll, const QVector<double> &mean, const QVector<double> &sd,
                            int from, int rows, int stride, bool logY, QVector<QCPGraphData> &values,
                            QVector<QCPGraphData> *upper, QVector<QCPGraphData> *lower)
{
    values.reserve(values.size() + (rows - from) / stride + 1);
    for (int i = from; i < rows; ++i) {
        if (i % stride != 0)
            continue;
        const double m = mean[i];
        const double s = sd[i];
        // Beyond kLargestPlotted a value is "infinite" for a plot (QCustomPlot ranges stop at 1e250).
        const bool show = std::isfinite(m) && std::abs(m) < kLargestPlotted && (!logY || m > 0);
        values.push_back(QCPGraphData(keysAll[i], show ? m : kNaN));
        if (upper) {
            double lo = m - s;
            if (logY && lo <= 0)
                lo = m * 1e-3; // the band reaches zero: draw it to the bottom of the view
            upper->push_back(QCPGraphData(keysAll[i], show ? m + s : kNaN));
            lower->push_back(QCPGraphData(keysAll[i], show ? lo : kNaN));
        }
    }
}

void MetricPlot::appendAlternativeRows(int run)
{
    RunGraphs &g = mRuns[run];
    if (mMetric != QLatin1String("epsilon"))
        return;
    const int alternatives = mResults->epsilonAlternativeCount(mPoint, run);
    const int rows = mResults->rowCount(mPoint, run);
    if (alternatives == 0 || rows <= g.alternativeRows)
        return;
    const QVector<double> keysAll = mXMetric.isEmpty() ? mResults->iterations(mPoint, run)
                                                       : mResults->mean(mPoint, run, mXMetric);
    if (keysAll.size() < rows)
        return;
    if (g.alternatives.isEmpty()) {
        for (int a = 0; a < alternatives; ++a) {
            QCPGraph *graph = addGraph();
            QPen pen(g.mean->pen().color(), 1.4, a == 0 ? Qt::DashLine : Qt::DotLine);
            graph->setPen(pen);
            graph->setAdaptiveSampling(true);
            const QString bound = mResults->epsilonAlternativeNames(mPoint, run).value(a, tr("other bound"));
            graph->setName(tr("%1 — %2").arg(mResults->runLabel(run), bound));
            g.alternatives.push_back(graph);
        }
        updateLegend();
    }
    for (int a = 0; a < alternatives && a < g.alternatives.size(); ++a)
        appendStrided(g.alternatives[a], keysAll, mResults->epsilonAlternativeMean(mPoint, run, a), g.alternativeRows,
                      rows, g.stride);
    g.alternativeRows = rows;
}

void MetricPlot::appendStrided(QCPGraph *graph, const QVector<double> &keysAll, const QVector<double> &series, int from,
                               int rows, int stride) const
{
    QVector<QCPGraphData> points;
    stridedPoints(keysAll, series, from, rows, stride, mLogY, points);
    graph->data()->add(points, true);
}

void MetricPlot::stridedPoints(const QVector<double> &keysAll, const QVector<double> &series, int from, int rows,
                               int stride, bool logY, QVector<QCPGraphData> &points)
{
    for (int k = from; k < rows && k < series.size(); ++k) {
        if (k % stride != 0)
            continue;
        const double v = series[k];
        const bool show = std::isfinite(v) && std::abs(v) < kLargestPlotted && (!logY || v > 0);
        points.push_back(QCPGraphData(keysAll[k], show ? v : kNaN));
    }
}

void MetricPlot::appendAgentRows(int run)
{
    RunGraphs &g = mRuns[run];
    if (!mPerAgent || mMetric != QLatin1String("epsilon"))
        return;
    const int agents = mResults->epsilonAgentCount(mPoint, run);
    const int rows = mResults->rowCount(mPoint, run);
    if (agents == 0 || rows <= g.agentRows)
        return;
    const QVector<double> keysAll = mXMetric.isEmpty() ? mResults->iterations(mPoint, run)
                                                       : mResults->mean(mPoint, run, mXMetric);
    if (keysAll.size() < rows)
        return;
    if (g.agents.isEmpty()) {
        // Agents on a layer under "main", so each run's max line stays on top of them.
        if (!layer(QStringLiteral("agents")))
            addLayer(QStringLiteral("agents"), layer(QStringLiteral("ghosts")), QCustomPlot::limBelow);
        QColor colour = g.mean->pen().color();
        colour.setAlpha(110);
        for (int i = 0; i < agents; ++i) {
            QCPGraph *graph = addGraph();
            graph->setLayer(QStringLiteral("agents"));
            graph->setPen(QPen(colour, 0.9));
            graph->removeFromLegend();
            graph->setAdaptiveSampling(true);
            graph->setName(tr("%1, agent %2").arg(mResults->runLabel(run)).arg(i));
            g.agents.push_back(graph);
        }
    }
    for (int i = 0; i < agents && i < g.agents.size(); ++i)
        appendStrided(g.agents[i], keysAll, mResults->epsilonAgentMean(mPoint, run, i), g.agentRows, rows, g.stride);
    g.agentRows = rows;
}

void MetricPlot::autoRange()
{
    bool foundKeys = false, foundValues = false;
    QCPRange keys, values;
    const QCP::SignDomain domain = mLogY ? QCP::sdPositive : QCP::sdBoth;
    for (const RunGraphs &g : std::as_const(mRuns)) {
        QVector<QCPGraph *> graphs{g.mean, g.upper, g.lower};
        graphs += g.agents;
        graphs += g.alternatives;
        for (QCPGraph *graph : std::as_const(graphs)) {
            if (!graph || graph->dataCount() == 0)
                continue;
            if (mLogY && graph == g.lower)
                continue; // the clamped lower band must not stretch a log axis
            bool ok = false;
            const QCPRange k = graph->getKeyRange(ok, QCP::sdBoth);
            if (ok) {
                keys = foundKeys ? QCPRange(std::min(keys.lower, k.lower), std::max(keys.upper, k.upper)) : k;
                foundKeys = true;
            }
            const QCPRange v = valueRangeOf(graph, domain, ok);
            if (ok) {
                values = foundValues ? QCPRange(std::min(values.lower, v.lower), std::max(values.upper, v.upper)) : v;
                foundValues = true;
            }
        }
    }
    if (foundKeys) {
        if (keys.size() <= 0)
            keys = QCPRange(keys.lower - 0.5, keys.upper + 0.5);
        xAxis->setRange(keys);
    }
    if (foundValues) {
        if (mLogY) {
            // Padding stays inside QCustomPlot's range (1e250): else setRange ignores it.
            const double pad = std::min({std::max(1.1, std::pow(values.upper / values.lower, 0.05)), 1e248 / values.upper,
                                         values.lower * 1e248});
            yAxis->setRange(QCPRange(values.lower / std::max(pad, 1.0), values.upper * std::max(pad, 1.0)));
        } else {
            double pad = values.size() * 0.05;
            if (pad <= 0)
                pad = std::max(std::abs(values.upper) * 0.05, 1e-12);
            yAxis->setRange(QCPRange(values.lower - pad, values.upper + pad));
        }
    }
}

QCPRange MetricPlot::valueRangeOf(const QCPGraph *graph, QCP::SignDomain domain, bool &found)
{
    RangeCache &cache = mValueRanges[graph];
    const auto data = graph->data();
    if (cache.domain != domain || data->size() < cache.count)
        cache = RangeCache{0, false, QCPRange(), domain};
    // The points past `count` are the ones appended since (appends keep the key order; a graph
    // whose points are replaced is forgotten first).
    extendRange(cache, data->constBegin() + cache.count, data->constEnd());
    cache.count = data->size();
    found = cache.found;
    return cache.range;
}

void MetricPlot::forgetRanges(const RunGraphs &g)
{
    for (const QCPGraph *graph : graphsOf(g))
        mValueRanges.remove(graph);
}

void MetricPlot::resetView()
{
    mFollow = true;
    autoRange();
    replot(rpQueuedReplot);
}

void MetricPlot::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        mFollow = false;
    QCustomPlot::mousePressEvent(event);
}

void MetricPlot::wheelEvent(QWheelEvent *event)
{
    mFollow = false;
    QCustomPlot::wheelEvent(event);
}

void MetricPlot::resizeEvent(QResizeEvent *event)
{
    QCustomPlot::resizeEvent(event);
    updateLegend();
    if (mSubtitle)
        setSubtitle(mSubtitleText);
}

void MetricPlot::mouseDoubleClickEvent(QMouseEvent *event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
}

void MetricPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const QPointF pos = event->position();
    double best = 12.0; // pixels
    int bestRun = -1;
    int bestIndex = -1;
    for (int r = 0; r < mRuns.size(); ++r) {
        QCPGraph *graph = mRuns[r].mean;
        if (!graph || graph->dataCount() == 0)
            continue;
        QVariant details;
        const double distance = graph->selectTest(pos, false, &details);
        if (distance >= 0 && distance < best) {
            const QCPDataSelection selection = details.value<QCPDataSelection>();
            if (!selection.isEmpty()) {
                best = distance;
                bestRun = r;
                bestIndex = selection.dataRange().begin();
            }
        }
    }
    if (bestRun < 0) {
        if (mReadoutShown)
            QToolTip::hideText();
        mReadoutShown = false;
        return;
    }
    const QVector<double> &iterations = mResults->iterations(mPoint, bestRun);
    const QVector<double> mean = mResults->mean(mPoint, bestRun, mMetric);
    const QVector<double> sd = mResults->std(mPoint, bestRun, mMetric);
    if (bestIndex < 0 || bestIndex >= mean.size() || bestIndex >= iterations.size())
        return;
    QString text = QStringLiteral("<b>%1</b><br/>%2 %3<br/>%4 = %5")
                       .arg(mResults->runLabel(bestRun).toHtmlEscaped(), tr("iteration"),
                            QString::number(qint64(iterations[bestIndex])), metricTitle(mMetric),
                            QString::number(mean[bestIndex], 'g', 8));
    if (mResults->counts(mPoint, bestRun).value(bestIndex) > 1)
        text += QStringLiteral(" ± %1 <small>(%2 %3)</small>")
                    .arg(QString::number(spreadAboveRoundOff(mean[bestIndex], sd[bestIndex]), 'g', 4))
                    .arg(mResults->counts(mPoint, bestRun).value(bestIndex))
                    .arg(tr("repetitions"));
    if (!mXMetric.isEmpty()) {
        const QVector<double> x = mResults->mean(mPoint, bestRun, mXMetric);
        if (bestIndex < x.size())
            text += QStringLiteral("<br/>%1 = %2").arg(metricTitle(mXMetric), QString::number(x[bestIndex], 'g', 8));
    }
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
    mReadoutShown = true;
}

bool MetricPlot::event(QEvent *event)
{
    // Qt asks for a tooltip after the hover delay: over a curve the read-out stays; over the
    // legend the full run names (entries may be elided); elsewhere nothing.
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (!mReadoutShown) {
            if (legend && legend->visible() && legend->outerRect().contains(help->pos()) && !mLegendTip.isEmpty())
                QToolTip::showText(help->globalPos(), mLegendTip, this);
            else if (qobject_cast<QCPTextElement *>(layoutElementAt(help->pos())) && !toolTip().isEmpty())
                QToolTip::showText(help->globalPos(), toolTip(), this); // the title's explanation
            else
                QToolTip::hideText();
        }
        event->accept();
        return true;
    }
    if (event->type() == QEvent::Leave)
        mReadoutShown = false;
    return QCustomPlot::event(event);
}

} // namespace dplab
