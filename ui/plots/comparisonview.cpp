// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisonview.h"

#include "experimentdocument.h"
#include "exporter.h"
#include "finalvaluestable.h"
#include "fulltextcombobox.h"
#include "liveresults.h"
#include "metricplot.h"
#include "metricnames.h"
#include "parametertitle.h"
#include "plotstyle.h"
#include "presentationscale.h"

#include "dplab/engine/metrics.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace dplab {

ComparisonView::ComparisonView(LiveResults *results, QWidget *parent)
    : QWidget(parent)
    , mResults(results)
    , mMetric(new FullTextComboBox(this))
    , mPoint(new FullTextComboBox(this))
    , mPlot(new QCustomPlot(this))
    , mTable(new FinalValuesTable(this))
    , mTimer(new QTimer(this))
{
    installPlotExportMenu(mPlot, [this] { return QStringLiteral("comparison-") + metric(); });
    PresentationScale::follow(mPlot);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Metric"), this));
    // The whole choice where there is room, a few letters where not (FullTextComboBox): the
    // window's minimum width stays projector-sized.
    bar->addWidget(mMetric);
    bar->addSpacing(12);
    bar->addWidget(mPoint);
    mPoint->setVisible(false);
    bar->addStretch(1);
    auto *copy = new QPushButton(tr("Copy table"), this);
    copy->setToolTip(tr("Copy the final values as tab-separated text"));
    bar->addWidget(copy);
    layout->addLayout(bar);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mPlot);
    splitter->addWidget(mTable);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({300, 110});
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);
    mPlot->setMinimumHeight(160);
    mTable->setMinimumHeight(60);

    mTimer->setSingleShot(true);
    mTimer->setInterval(200);
    connect(mTimer, &QTimer::timeout, this, &ComparisonView::rebuild);
    connect(copy, &QPushButton::clicked, mTable, &FinalValuesTable::copyToClipboard);
    connect(mMetric, &QComboBox::activated, this, &ComparisonView::rebuild);
    connect(mPoint, &QComboBox::activated, this, &ComparisonView::rebuild);
    connect(results, &LiveResults::resetDone, this, [this] {
        const QSignalBlocker blocker(mPoint);
        mPoint->clear();
        // "q = 0.18", not "runs[*].privacy.q = 0.1…" cut by the box: the key and the value,
        // the whole path in the tooltip; the box as wide as its longest item (up to 28
        // characters: the window's minimum width stays projector-sized).
        const QString path = mResults->sweepParameter();
        QString key = path.section(QLatin1Char('.'), -1);
        key.remove(QRegularExpression(QStringLiteral("\\[[^\\]]*\\]")));
        int longest = 8;
        for (const QString &l : mResults->pointLabels()) {
            const QString text = QStringLiteral("%1 = %2").arg(key.isEmpty() ? path : key, l);
            mPoint->addItem(text);
            mPoint->setItemData(mPoint->count() - 1, QStringLiteral("%1 = %2").arg(path, l), Qt::ToolTipRole);
            longest = std::max(longest, int(text.size()));
        }
        mPoint->setMinimumContentsLength(std::min(longest, 28));
        mPoint->setToolTip(tr("Sweep point: %1 (%2)").arg(sweepParameterTitle(path), path));
        mPoint->setVisible(mPoint->count() > 1);
        updateMetricChoices();
        if (isVisible())
            rebuild();
        else
            scheduleRebuild(); // hidden: once shown (a new run starts behind the live plots)
    });
    connect(results, &LiveResults::seriesReset, this, &ComparisonView::scheduleRebuild);
    connect(results, &LiveResults::runStateChanged, this, &ComparisonView::scheduleRebuild);
    connect(results, &LiveResults::rowsAppended, this, [this] {
        if (mMetric->count() < mResults->allMetricNames(std::max(0, mPoint->currentIndex())).size())
            updateMetricChoices();
        scheduleRebuild();
    });
    updateMetricChoices();
    rebuild();
}

void ComparisonView::setRunColors(const QVector<QColor> &colors)
{
    mColors = colors;
    scheduleRebuild();
}

void ComparisonView::setResult(std::shared_ptr<const ExperimentResult> result, const QString &sweepParameter)
{
    mPendingResult = std::move(result);
    mPendingParameter = sweepParameter;
    if (isVisible())
        catchUp();
}

void ComparisonView::clearResult()
{
    mPendingResult.reset();
    if (mTable->rowCount() > 0 || mTable->columnCount() > 0)
        mTable->clearResult();
}

void ComparisonView::catchUp()
{
    if (mStale)
        rebuild();
    if (const auto result = std::exchange(mPendingResult, nullptr); result)
        mTable->setResult(*result, mPendingParameter);
}

QCustomPlot *ComparisonView::multiples() const
{
    const_cast<ComparisonView *>(this)->catchUp();
    return mPlot;
}

FinalValuesTable *ComparisonView::table() const
{
    const_cast<ComparisonView *>(this)->catchUp();
    return mTable;
}

int ComparisonView::panelCount() const
{
    const_cast<ComparisonView *>(this)->catchUp();
    return mPanels;
}

QString ComparisonView::metric() const
{
    return mMetric->currentData().toString();
}

void ComparisonView::setMetric(const QString &metric)
{
    const int index = mMetric->findData(metric);
    if (index >= 0) {
        mMetric->setCurrentIndex(index);
        rebuild();
    }
}

void ComparisonView::scheduleRebuild()
{
    // Hidden behind the live plots while a run streams, it rebuilt every panel five times a
    // second for no one (docs/benchmarks.md, "The window against the CLI").
    if (!isVisible()) {
        mStale = true;
        mTimer->stop();
        return;
    }
    if (!mTimer->isActive())
        mTimer->start();
}

void ComparisonView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    catchUp();
}

void ComparisonView::updateMetricChoices()
{
    const QString current = metric();
    QStringList names = mResults->allMetricNames(std::max(0, mPoint->currentIndex()));
    if (names.isEmpty())
        names = {QLatin1String(metric::ConsensusError), QLatin1String(metric::DistanceToOptimum)};
    const QSignalBlocker blocker(mMetric);
    mMetric->clear();
    for (const QString &n : names)
        mMetric->addItem(metricTitle(n), n);
    const int index = mMetric->findData(current);
    mMetric->setCurrentIndex(index >= 0 ? index : 0);
}

namespace {

/** Small multiples: at most two rows in the dock's usual height, as many columns as needed. */
struct PanelGrid {
    int runs = 0;
    int cols = 1;
    int rows = 1;

    explicit PanelGrid(int count)
        : runs(count)
    {
        const int rowsWanted = runs <= 3 ? 1 : (runs <= 8 ? 2 : int(std::ceil(std::sqrt(double(runs)))));
        cols = int(std::ceil(double(runs) / rowsWanted));
        rows = int(std::ceil(double(runs) / cols));
    }
    // Shared axes: tick labels only on the left column and the bottom row.
    bool bottom(int r) const { return r / cols == rows - 1 || r + cols >= runs; }
    bool left(int r) const { return r % cols == 0; }
};

/** Run r's cell of the grid: its title above an axis rect with the shared-axis tick labels. */
QCPAxisRect *addPanel(QCustomPlot *plot, const PanelGrid &grid, int r, const QString &title, const QFont &titleFont,
                      const QFont &tickFont, bool logY)
{
    auto *cell = new QCPLayoutGrid;
    plot->plotLayout()->addElement(r / grid.cols, r % grid.cols, cell);
    auto *label = new QCPTextElement(plot, title, titleFont);
    label->setMargins(QMargins(0, 2, 0, 0));
    cell->addElement(0, 0, label);
    auto *rect = new QCPAxisRect(plot);
    cell->addElement(1, 0, rect);
    cell->setRowStretchFactor(0, 0.01);
    cell->setRowSpacing(0);
    QCPAxis *x = rect->axis(QCPAxis::atBottom);
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    x->setTickLabelFont(tickFont);
    x->setTicker(makeTicker(x)); // labels never run into each other on a small panel
    y->setTickLabelFont(tickFont);
    const bool bottom = grid.bottom(r);
    x->setTickLabels(bottom);
    y->setTickLabels(grid.left(r));
    if (bottom) {
        x->setLabel(ComparisonView::tr("iteration"));
        x->setLabelFont(tickFont);
    }
    rect->setAutoMargins(QCP::msLeft | QCP::msBottom);
    rect->setMargins(QMargins(0, 0, 6, 0));
    setLogAxis(y, logY);
    return rect;
}

/** One run's mean curve and its mean ± std band, NaN where a value cannot be drawn. */
struct PanelSeries {
    QVector<double> keys, mean, upper, lower;
};

PanelSeries panelSeries(const LiveResults &results, int point, int r, const QString &name, bool logY)
{
    const QVector<double> mean = results.mean(point, r, name);
    const QVector<double> sd = results.std(point, r, name);
    const QVector<double> &its = results.iterations(point, r);
    const int n = std::min(mean.size(), its.size());
    // While the run streams, every stride-th row (as the live plots): a rebuild costs the
    // same at any run length. A stopped run is drawn from every row.
    const int stride = results.isStreaming(point, r) ? std::max(1, n / MetricPlot::kLivePoints) : 1;
    PanelSeries s;
    for (int i = 0; i < n; i += stride) {
        const bool show = std::isfinite(mean[i]) && std::abs(mean[i]) < kLargestPlotted && (!logY || mean[i] > 0);
        s.keys << its[i];
        s.mean << (show ? mean[i] : std::nan(""));
        s.upper << (show ? mean[i] + sd[i] : std::nan(""));
        double l = mean[i] - sd[i];
        if (logY && l <= 0)
            l = mean[i] * 1e-3;
        s.lower << (show ? l : std::nan(""));
    }
    return s;
}

/** The series in `rect`: the band (with repetitions) under the mean line; returns the line. */
QCPGraph *drawSeries(QCustomPlot *plot, QCPAxisRect *rect, const PanelSeries &s, const QColor &colour, bool band)
{
    QCPAxis *x = rect->axis(QCPAxis::atBottom);
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    if (band) {
        QCPGraph *upper = plot->addGraph(x, y);
        upper->setPen(Qt::NoPen);
        upper->setData(s.keys, s.upper, true);
        QCPGraph *lower = plot->addGraph(x, y);
        QColor fill = colour;
        fill.setAlpha(45);
        lower->setPen(Qt::NoPen);
        lower->setBrush(fill);
        lower->setChannelFillGraph(upper);
        lower->setData(s.keys, s.lower, true);
    }
    QCPGraph *graph = plot->addGraph(x, y);
    graph->setPen(QPen(colour, 1.6));
    graph->setData(s.keys, s.mean, true);
    return graph;
}

/** The union of the ranges seen so far (`found` false: none yet). */
void widen(QCPRange &range, bool &found, const QCPRange &more)
{
    range = found ? QCPRange(std::min(range.lower, more.lower), std::max(range.upper, more.upper)) : more;
    found = true;
}

/** The shared value range with 5 % room (a factor on a log axis). */
QCPRange paddedValues(const QCPRange &values, bool logY)
{
    if (logY) {
        const double pad = std::max(1.1, std::pow(values.upper / values.lower, 0.05));
        return QCPRange(values.lower / pad, values.upper * pad);
    }
    const double pad = values.size() > 0 ? values.size() * 0.05 : std::max(std::abs(values.upper) * 0.05, 1e-12);
    return QCPRange(values.lower - pad, values.upper + pad);
}

/** Zooming or dragging `rect`'s axes moves the same axes of every other panel (`syncing` guards
 *  against the echo). */
void linkAxes(QCustomPlot *plot, QCPAxisRect *rect, const QVector<QCPAxisRect *> &rects, bool *syncing)
{
    for (QCPAxisRect *other : rects) {
        if (other == rect)
            continue;
        for (QCPAxis::AxisType type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            QCPAxis *from = rect->axis(type);
            QCPAxis *to = other->axis(type);
            QObject::connect(from, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), to,
                             [plot, to, syncing](const QCPRange &r) {
                                 if (*syncing)
                                     return;
                                 *syncing = true;
                                 to->setRange(r);
                                 *syncing = false;
                                 plot->replot(QCustomPlot::rpQueuedReplot);
                             });
        }
    }
}

} // namespace

void ComparisonView::rebuild()
{
    mTimer->stop();
    mStale = false;
    mPlot->clearPlottables();
    mPlot->plotLayout()->clear();
    const int runs = mResults->runCount();
    mPanels = runs;
    const int point = std::max(0, mPoint->currentIndex());
    const QString name = metric();
    const bool logY = metricPrefersLogAxis(name);
    if (runs == 0) {
        auto *text = new QCPTextElement(mPlot, tr("Run the experiment to compare its runs side by side"));
        mPlot->plotLayout()->addElement(0, 0, text);
        mPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const PanelGrid grid(runs);
    QFont tickFont = font();
    tickFont.setPointSizeF(7);
    const QFont titleFont(font().family(), 8, QFont::Bold);
    QVector<QCPAxisRect *> rects;
    bool foundKeys = false, foundValues = false;
    QCPRange keys, values;
    for (int r = 0; r < runs; ++r) {
        QString title = mResults->runLabel(r);
        const QString status = mResults->runStatusText(point, r);
        if (!status.isEmpty() && status != tr("ok"))
            title += QStringLiteral(" (") + status + QStringLiteral(")");
        QCPAxisRect *rect = addPanel(mPlot, grid, r, title, titleFont, tickFont, logY);
        rects.push_back(rect);
        const QColor colour = r < mColors.size() ? mColors[r] : ExperimentDocument::defaultRunColor(r);
        const PanelSeries series = panelSeries(*mResults, point, r, name, logY);
        QCPGraph *graph = drawSeries(mPlot, rect, series, colour, mResults->repetitions() > 1);
        bool ok = false;
        const QCPRange kr = graph->getKeyRange(ok);
        if (ok)
            widen(keys, foundKeys, kr);
        const QCPRange vr = graph->getValueRange(ok, logY ? QCP::sdPositive : QCP::sdBoth);
        if (ok)
            widen(values, foundValues, vr);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    // Shared axes: the same ranges everywhere, and zooming one panel zooms all.
    if (foundValues)
        values = paddedValues(values, logY);
    for (QCPAxisRect *rect : rects) {
        if (foundKeys)
            rect->axis(QCPAxis::atBottom)->setRange(keys.size() > 0 ? keys : QCPRange(keys.lower - 0.5, keys.upper + 0.5));
        if (foundValues)
            rect->axis(QCPAxis::atLeft)->setRange(values);
        linkAxes(mPlot, rect, rects, &mSyncing);
    }
    mPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace dplab
