// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisonview.h"

#include "experimentdocument.h"
#include "exporter.h"
#include "finalvaluestable.h"
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

namespace dplab {

ComparisonView::ComparisonView(LiveResults *results, QWidget *parent)
    : QWidget(parent)
    , mResults(results)
    , mMetric(new QComboBox(this))
    , mPoint(new QComboBox(this))
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
    for (QComboBox *box : {mMetric, mPoint}) {
        // Never wider than a few characters: the window's minimum width stays projector-sized.
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == mPoint ? 14 : 12);
    }
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
        rebuild();
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

void ComparisonView::setResult(const ExperimentResult &result, const QString &sweepParameter)
{
    mTable->setResult(result, sweepParameter);
}

void ComparisonView::clearResult()
{
    mTable->clearResult();
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
    if (mStale)
        rebuild();
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
    // Small multiples: at most two rows in the dock's usual height, as many columns as needed.
    const int rowsWanted = runs <= 3 ? 1 : (runs <= 8 ? 2 : int(std::ceil(std::sqrt(double(runs)))));
    const int cols = int(std::ceil(double(runs) / rowsWanted));
    const int rowCount = int(std::ceil(double(runs) / cols));
    QFont tickFont = font();
    tickFont.setPointSizeF(7);
    QVector<QCPAxisRect *> rects;
    bool foundKeys = false, foundValues = false;
    QCPRange keys, values;
    for (int r = 0; r < runs; ++r) {
        auto *cell = new QCPLayoutGrid;
        mPlot->plotLayout()->addElement(r / cols, r % cols, cell);
        QString title = mResults->runLabel(r);
        const QString status = mResults->runStatusText(point, r);
        if (!status.isEmpty() && status != tr("ok"))
            title += QStringLiteral(" (") + status + QStringLiteral(")");
        auto *label = new QCPTextElement(mPlot, title, QFont(font().family(), 8, QFont::Bold));
        label->setMargins(QMargins(0, 2, 0, 0));
        cell->addElement(0, 0, label);
        auto *rect = new QCPAxisRect(mPlot);
        cell->addElement(1, 0, rect);
        cell->setRowStretchFactor(0, 0.01);
        cell->setRowSpacing(0);
        rects.push_back(rect);
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        x->setTickLabelFont(tickFont);
        x->ticker()->setTickCount(3);
        y->setTickLabelFont(tickFont);
        // Shared axes: tick labels only on the left column and the bottom row.
        const bool bottom = r / cols == rowCount - 1 || r + cols >= runs;
        const bool left = r % cols == 0;
        x->setTickLabels(bottom);
        y->setTickLabels(left);
        if (bottom) {
            x->setLabel(tr("iteration"));
            x->setLabelFont(tickFont);
        }
        rect->setAutoMargins(QCP::msLeft | QCP::msBottom);
        rect->setMargins(QMargins(0, 0, 6, 0));
        setLogAxis(y, logY);
        const QColor colour = r < mColors.size() ? mColors[r] : ExperimentDocument::defaultRunColor(r);
        const QVector<double> mean = mResults->mean(point, r, name);
        const QVector<double> sd = mResults->std(point, r, name);
        const QVector<double> &its = mResults->iterations(point, r);
        const int n = std::min(mean.size(), its.size());
        // While the run streams, every stride-th row (as the live plots): a rebuild costs the
        // same at any run length. A stopped run is drawn from every row.
        const int stride = mResults->isStreaming(point, r) ? std::max(1, n / MetricPlot::kLivePoints) : 1;
        QVector<double> k, v, hi, lo;
        for (int i = 0; i < n; i += stride) {
            const bool show = std::isfinite(mean[i]) && std::abs(mean[i]) < kLargestPlotted && (!logY || mean[i] > 0);
            k << its[i];
            v << (show ? mean[i] : std::nan(""));
            hi << (show ? mean[i] + sd[i] : std::nan(""));
            double l = mean[i] - sd[i];
            if (logY && l <= 0)
                l = mean[i] * 1e-3;
            lo << (show ? l : std::nan(""));
        }
        if (mResults->repetitions() > 1) {
            QCPGraph *upper = mPlot->addGraph(x, y);
            upper->setPen(Qt::NoPen);
            upper->setData(k, hi, true);
            QCPGraph *lower = mPlot->addGraph(x, y);
            QColor fill = colour;
            fill.setAlpha(45);
            lower->setPen(Qt::NoPen);
            lower->setBrush(fill);
            lower->setChannelFillGraph(upper);
            lower->setData(k, lo, true);
        }
        QCPGraph *graph = mPlot->addGraph(x, y);
        graph->setPen(QPen(colour, 1.6));
        graph->setData(k, v, true);
        bool ok = false;
        const QCPRange kr = graph->getKeyRange(ok);
        if (ok) {
            keys = foundKeys ? QCPRange(std::min(keys.lower, kr.lower), std::max(keys.upper, kr.upper)) : kr;
            foundKeys = true;
        }
        const QCPRange vr = graph->getValueRange(ok, logY ? QCP::sdPositive : QCP::sdBoth);
        if (ok) {
            values = foundValues ? QCPRange(std::min(values.lower, vr.lower), std::max(values.upper, vr.upper)) : vr;
            foundValues = true;
        }
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    // Shared axes: the same ranges everywhere, and zooming one panel zooms all.
    if (foundValues) {
        if (logY) {
            const double pad = std::max(1.1, std::pow(values.upper / values.lower, 0.05));
            values = QCPRange(values.lower / pad, values.upper * pad);
        }
        else {
            const double pad = values.size() > 0 ? values.size() * 0.05 : std::max(std::abs(values.upper) * 0.05, 1e-12);
            values = QCPRange(values.lower - pad, values.upper + pad);
        }
    }
    for (QCPAxisRect *rect : rects) {
        if (foundKeys)
            rect->axis(QCPAxis::atBottom)->setRange(keys.size() > 0 ? keys : QCPRange(keys.lower - 0.5, keys.upper + 0.5));
        if (foundValues)
            rect->axis(QCPAxis::atLeft)->setRange(values);
        for (QCPAxisRect *other : rects) {
            if (other == rect)
                continue;
            for (QCPAxis::AxisType type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
                QCPAxis *from = rect->axis(type);
                QCPAxis *to = other->axis(type);
                connect(from, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), to, [this, to](const QCPRange &r) {
                    if (mSyncing)
                        return;
                    mSyncing = true;
                    to->setRange(r);
                    mSyncing = false;
                    mPlot->replot(QCustomPlot::rpQueuedReplot);
                });
            }
        }
    }
    mPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace dplab
