// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepview.h"
#include "presentationscale.h"

#include "experimentdocument.h"
#include "exporter.h"
#include "finalvaluestable.h"
#include "fulltextcombobox.h"
#include "metricnames.h"
#include "parametertitle.h"
#include "plotstyle.h"
#include "textconvert.h"

#include "dplab/engine/sweepgrid.h"
#include "dplab/engine/writers.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace dplab {

SweepView::SweepView(QWidget *parent)
    : QWidget(parent)
    , mMetric(new FullTextComboBox(this))
    , mLogY(new QCheckBox(tr("log y"), this))
    , mRun(new FullTextComboBox(this))
    , mPlot(new QCustomPlot(this))
{
    installPlotExportMenu(mPlot, [this] { return QStringLiteral("sweep-") + metric(); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Final"), this));
    // The whole metric name where there is room (FullTextComboBox), a few letters where not.
    bar->addWidget(mMetric);
    bar->addWidget(mLogY);
    bar->addWidget(mRun);
    mRun->setToolTip(tr("The run whose final metric the heatmap shows"));
    mRun->hide();
    bar->addStretch(1);
    layout->addLayout(bar);
    layout->addWidget(mPlot, 1);
    mPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    PresentationScale::follow(mPlot);
    mPlot->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(8);
    mPlot->legend->setFont(legendFont);
    // The legend sits in its own row under the axes: inside them it hid the last point (on
    // screen and in the exported PNG, which draws this same layout).
    // (showLegend: a hidden legend is taken out of the layout, where it squeezed the axes.)
    if (mPlot->axisRect()->insetLayout()->take(mPlot->legend)) {
        mPlot->axisRect()->insetLayout()->simplify();
        mPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        mPlot->legend->setWrap(4);
        mPlot->legend->setMargins(QMargins(4, 2, 4, 2));
    }
    connect(mMetric, &QComboBox::activated, this, [this] {
        mLogY->setChecked(metricPrefersLogAxis(metric()));
        rebuild();
    });
    connect(mLogY, &QCheckBox::toggled, this, &SweepView::rebuild);
    connect(mRun, &QComboBox::activated, this, &SweepView::rebuild);
    rebuild();
}

void SweepView::setHeatmapRun(int run)
{
    if (run >= 0 && run < mRun->count()) {
        mRun->setCurrentIndex(run);
        rebuild();
    }
}

void SweepView::showColorScale(bool show)
{
    QCPLayoutGrid *layout = mPlot->plotLayout();
    if (show && !mColorScale) {
        mColorScale = new QCPColorScale(mPlot);
        mColorScale->setType(QCPAxis::atRight);
    }
    if (!mColorScale)
        return;
    const bool placed = layout->hasElement(0, 1) && layout->element(0, 1) == mColorScale;
    if (show && !placed) {
        layout->addElement(0, 1, mColorScale);
        layout->setColumnStretchFactor(1, 0.001);
    } else if (!show && placed) {
        layout->take(mColorScale);
        layout->simplify();
    }
    mColorScale->setVisible(show);
}

namespace {

/** A grid sweep's axes: the distinct values of each parameter, in the order they first appear,
 *  numbers ascending (the editor writes them so; a hand-written file may not). */
std::array<QVector<Json>, 2> gridAxes(const SweepSpec &sweep)
{
    std::array<QVector<Json>, 2> axes;
    for (const Json &v : sweep.values)
        for (int a = 0; a < 2; ++a)
            if (v.is_array() && v.size() == 2 && !axes[a].contains(v[a]))
                axes[a].push_back(v[a]);
    for (auto &axis : axes)
        if (std::all_of(axis.begin(), axis.end(), [](const Json &v) { return v.is_number(); }))
            std::sort(axis.begin(), axis.end(), [](const Json &a, const Json &b) { return a.get<double>() < b.get<double>(); });
    return axes;
}

/** Ticks 0, 1, … labelled with the parameter's values. */
QSharedPointer<QCPAxisTickerText> valueTicker(const QVector<Json> &values)
{
    QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
    for (int k = 0; k < values.size(); ++k)
        t->addTick(k, values[k].is_number() ? QString::number(values[k].get<double>(), 'g', 4)
                                            : toQString(values[k].is_string() ? values[k].get<std::string>() : values[k].dump()));
    return t;
}

/** Viridis (perceptually uniform, readable in grey and by colour-blind readers): dark = low. */
QCPColorGradient viridis()
{
    QCPColorGradient viridis;
    viridis.clearColorStops();
    viridis.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    viridis.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    viridis.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    viridis.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    viridis.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    return viridis;
}

/** The colour scale's axis: logarithmic (powers of ten) or linear. */
void setColourScaleType(QCPColorScale *scale, bool logarithmic)
{
    scale->setDataScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logarithmic) {
        QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
        scale->axis()->setTicker(logTicker);
        scale->axis()->setNumberFormat(QStringLiteral("eb"));
        scale->axis()->setNumberPrecision(0);
    } else {
        scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        scale->axis()->setNumberFormat(QStringLiteral("gb"));
        scale->axis()->setNumberPrecision(3);
    }
}

} // namespace

void SweepView::rebuildHeatmap()
{
    const SweepSpec &sweep = *mExperiment->sweep;
    const std::vector<std::string> paths = sweepPaths(sweep);
    const QString name = metric();
    const std::array<QVector<Json>, 2> axes = gridAxes(sweep);
    const int nx = int(axes[0].size()), ny = int(axes[1].size());
    const int run = std::max(0, mRun->currentIndex());
    mCells = QVector<QVector<double>>(nx, QVector<double>(ny, std::numeric_limits<double>::quiet_NaN()));
    for (std::size_t p = 0; p < mResult->points.size() && p < sweep.values.size(); ++p) {
        const Json &v = sweep.values[p];
        if (!v.is_array() || v.size() != 2 || run >= int(mResult->points[p].runs.size()))
            continue;
        const int i = int(axes[0].indexOf(v[0])), j = int(axes[1].indexOf(v[1]));
        const RunResult &rr = mResult->points[p].runs[run];
        const auto it = std::find(rr.metricNames.begin(), rr.metricNames.end(), toStdString(name));
        if (i < 0 || j < 0 || it == rr.metricNames.end())
            continue;
        const FinalStats st = finalStats(rr, int(it - rr.metricNames.begin()));
        if (st.count > 0 && std::isfinite(st.mean) && std::abs(st.mean) < kLargestPlotted)
            mCells[i][j] = st.mean;
    }
    const bool logColour = mLogY->isChecked();
    double lo = INFINITY, hi = -INFINITY;
    int bestI = -1, bestJ = -1;
    // Accuracies are best high, every other metric low (as tune ranks them).
    const bool maximise = name == QLatin1String("train_accuracy") || name == QLatin1String("test_accuracy");
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) {
            const double c = mCells[i][j];
            if (!std::isfinite(c) || (logColour && c <= 0))
                continue;
            lo = std::min(lo, c);
            hi = std::max(hi, c);
            if (bestI < 0 || (maximise ? c > mCells[bestI][bestJ] : c < mCells[bestI][bestJ])) {
                bestI = i;
                bestJ = j;
            }
        }
    setLogAxis(mPlot->xAxis, false);
    setLogAxis(mPlot->yAxis, false);
    mPlot->xAxis->setTicker(valueTicker(axes[0]));
    mPlot->yAxis->setTicker(valueTicker(axes[1]));
    mPlot->xAxis->setLabel(sweepParameterTitle(toQString(paths[0])));
    mPlot->yAxis->setLabel(sweepParameterTitle(toQString(paths[1])));
    auto *map = new QCPColorMap(mPlot->xAxis, mPlot->yAxis);
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(0, std::max(0, nx - 1)), QCPRange(0, std::max(0, ny - 1)));
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) {
            const double c = mCells[i][j];
            const bool shown = std::isfinite(c) && !(logColour && c <= 0);
            map->data()->setCell(i, j, shown ? c : std::numeric_limits<double>::quiet_NaN());
            if (!shown)
                map->data()->setAlpha(i, j, 0);
        }
    showColorScale(true);
    map->setColorScale(mColorScale);
    map->setInterpolate(false);
    map->setGradient(viridis());
    setColourScaleType(mColorScale, logColour);
    mColorScale->axis()->setLabel(tr("final %1 — %2").arg(metricTitle(name).toLower(), mRun->currentText()));
    if (std::isfinite(lo))
        mColorScale->setDataRange(QCPRange(lo, hi > lo ? hi : lo * (logColour ? 10 : 1) + (logColour ? 0 : 1)));
    // The value of every cell (small grids), and the best one ringed.
    if (nx * ny <= 144)
        for (int i = 0; i < nx; ++i)
            for (int j = 0; j < ny; ++j) {
                if (!std::isfinite(mCells[i][j]))
                    continue;
                auto *text = new QCPItemText(mPlot);
                text->position->setCoords(i, j);
                text->setText(QString::number(mCells[i][j], 'g', 3));
                const double c = mCells[i][j];
                const double position = !(hi > lo) ? 0.0
                                        : logColour ? std::log(c / lo) / std::log(hi / lo)
                                                    : (c - lo) / (hi - lo);
                text->setColor(position > 0.6 ? Qt::black : Qt::white); // dark text on the light end
                QFont f = font();
                f.setPointSizeF(8);
                text->setFont(f);
            }
    mBestCell = QPoint(bestI, bestJ);
    if (bestI >= 0) {
        auto *ring = new QCPItemEllipse(mPlot);
        ring->topLeft->setCoords(bestI - 0.42, bestJ + 0.42);
        ring->bottomRight->setCoords(bestI + 0.42, bestJ - 0.42);
        ring->setPen(QPen(QColor(0xd0, 0x20, 0x20), 2.5));
    }
    mPlot->xAxis->setRange(-0.5, nx - 0.5);
    mPlot->yAxis->setRange(-0.5, ny - 0.5);
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

void SweepView::setRunColors(const QVector<QColor> &colors)
{
    mColors = colors;
    rebuild();
}

bool SweepView::hasSweep() const
{
    return mExperiment && mExperiment->sweep.has_value();
}

void SweepView::setResult(std::shared_ptr<const Experiment> experiment, std::shared_ptr<const ExperimentResult> result)
{
    mExperiment = std::move(experiment);
    mResult = std::move(result);
    const QString current = metric();
    const QSignalBlocker blocker(mMetric);
    mMetric->clear();
    if (mResult)
        for (const std::string &c : metricColumns(*mResult))
            mMetric->addItem(metricTitle(toQString(c)), toQString(c));
    int index = mMetric->findData(current);
    if (index < 0) {
        // Prefer an accuracy-type metric: that is what the papers' sweep figures show.
        for (const QString &m : accuracyMetrics())
            if ((index = mMetric->findData(m)) >= 0)
                break;
    }
    mMetric->setCurrentIndex(std::max(0, index));
    {
        const int run = mRun->currentIndex();
        const QSignalBlocker runBlocker(mRun);
        mRun->clear();
        if (mExperiment)
            for (const RunSpec &r : mExperiment->runs)
                mRun->addItem(toQString(r.label));
        mRun->setCurrentIndex(run >= 0 && run < mRun->count() ? run : 0);
    }
    {
        const QSignalBlocker logBlocker(mLogY);
        mLogY->setChecked(metricPrefersLogAxis(metric()));
    }
    rebuild();
}

void SweepView::clearResult()
{
    mExperiment.reset();
    mResult.reset();
    mMetric->clear();
    rebuild();
}

QString SweepView::metric() const
{
    return mMetric->currentData().toString();
}

void SweepView::setMetric(const QString &metric)
{
    const int index = mMetric->findData(metric);
    if (index >= 0) {
        mMetric->setCurrentIndex(index);
        mLogY->setChecked(metricPrefersLogAxis(metric));
        rebuild();
    }
}

QVector<QVector<double>> SweepView::series(int run) const
{
    return run >= 0 && run < mSeries.size() ? mSeries[run] : QVector<QVector<double>>();
}

void SweepView::showLegend(bool show)
{
    QCPLayoutGrid *layout = mPlot->plotLayout();
    const bool placed = layout->hasElement(1, 0) && layout->element(1, 0) == mPlot->legend;
    if (show && !placed) {
        layout->addElement(1, 0, mPlot->legend);
        layout->setRowStretchFactor(1, 0.001);
    } else if (!show && placed) {
        layout->take(mPlot->legend);
        layout->simplify();
    }
    mPlot->legend->setVisible(show);
}

void SweepView::rebuild()
{
    mPlot->clearPlottables();
    mPlot->clearItems();
    mSeries.clear();
    mCells.clear();
    mBestCell = QPoint(-1, -1);
    mHeatmapShown = hasSweep() && mResult && isGridSweep(*mExperiment->sweep)
                    && sweepPaths(*mExperiment->sweep).size() == 2;
    mRun->setVisible(mHeatmapShown);
    if (mHeatmapShown) {
        showLegend(false);
        rebuildHeatmap();
        return;
    }
    showColorScale(false);
    const bool logY = mLogY->isChecked();
    setLogAxis(mPlot->yAxis, logY);
    if (!hasSweep() || !mResult) {
        auto *text = new QCPItemText(mPlot);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setColor(QColor(0x80, 0x80, 0x80));
        text->setText(mResult ? tr("This experiment has no sweep.\nRun ▸ Sweep… sweeps a parameter (or a grid of two)\n"
                                   "to plot a final metric against it.")
                              : tr("Run an experiment with a sweep to plot a final metric against the swept parameter"));
        showLegend(false);
        mPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const SweepSpec &sweep = *mExperiment->sweep;
    const QString name = metric();
    // x values: numbers as they are, anything else by position.
    bool numeric = true;
    for (const Json &v : sweep.values)
        numeric = numeric && v.is_number();
    QVector<double> xs;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t p = 0; p < sweep.values.size(); ++p) {
        const double x = numeric ? sweep.values[p].get<double>() : double(p);
        xs << x;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    const bool logX = numeric && lo > 0 && hi / lo >= 100;
    setLogAxis(mPlot->xAxis, logX);
    if (!numeric) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (std::size_t p = 0; p < sweep.values.size(); ++p)
            ticker->addTick(double(p), toQString(sweep.values[p].is_string() ? sweep.values[p].get<std::string>()
                                                                           : sweep.values[p].dump()));
        mPlot->xAxis->setTicker(ticker);
    }
    mPlot->xAxis->setLabel(sweepParameterTitle(toQString(sweep.parameter)));
    mPlot->yAxis->setLabel(tr("final %1").arg(metricTitle(name).toLower()));
    const int runs = mResult->points.empty() ? 0 : int(mResult->points.front().runs.size());
    mSeries.resize(runs);
    for (int r = 0; r < runs; ++r) {
        QVector<double> keys, values, errors;
        for (std::size_t p = 0; p < mResult->points.size(); ++p) {
            const RunResult &run = mResult->points[p].runs[r];
            const auto it = std::find(run.metricNames.begin(), run.metricNames.end(), toStdString(name));
            if (it == run.metricNames.end())
                continue;
            const FinalStats s = finalStats(run, int(it - run.metricNames.begin()));
            if (s.count == 0 || !std::isfinite(s.mean) || std::abs(s.mean) >= kLargestPlotted || (logY && s.mean <= 0))
                continue;
            keys << xs[int(p)];
            values << s.mean;
            errors << s.std;
            mSeries[r].push_back({xs[int(p)], s.mean, s.std});
        }
        const QColor colour = r < mColors.size() ? mColors[r] : ExperimentDocument::defaultRunColor(r);
        QCPGraph *graph = mPlot->addGraph();
        graph->setName(toQString(mResult->points.front().runs[r].label));
        graph->setPen(QPen(colour, 1.6));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 6));
        graph->setData(keys, values, true);
        auto *bars = new QCPErrorBars(mPlot->xAxis, mPlot->yAxis);
        bars->removeFromLegend();
        bars->setDataPlottable(graph);
        bars->setData(errors);
        bars->setPen(QPen(colour, 1.0));
    }
    showLegend(runs > 0);
    mPlot->rescaleAxes();
    const QCPRange x = mPlot->xAxis->range();
    if (logX)
        mPlot->xAxis->setRange(x.lower / 1.5, x.upper * 1.5);
    else
        mPlot->xAxis->setRange(x.lower - std::max(x.size() * 0.05, 0.5 * (numeric ? 0.0 : 1.0) + 1e-9),
                               x.upper + std::max(x.size() * 0.05, 0.5 * (numeric ? 0.0 : 1.0) + 1e-9));
    const QCPRange y = mPlot->yAxis->range();
    if (logY) {
        const double pad = std::max(1.1, std::pow(y.upper / y.lower, 0.05));
        mPlot->yAxis->setRange(y.lower / pad, y.upper * pad);
    } else {
        mPlot->yAxis->setRange(y.lower - y.size() * 0.08, y.upper + y.size() * 0.08);
    }
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace dplab
