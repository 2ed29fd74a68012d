// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepview.h"
#include "presentationscale.h"

#include "experimentdocument.h"
#include "exporter.h"
#include "finalvaluestable.h"
#include "metricnames.h"
#include "parametertitle.h"
#include "plotstyle.h"
#include "textconvert.h"

#include "dplab/engine/writers.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

SweepView::SweepView(QWidget *parent)
    : QWidget(parent)
    , mMetric(new QComboBox(this))
    , mLogY(new QCheckBox(tr("log y"), this))
    , mPlot(new QCustomPlot(this))
{
    installPlotExportMenu(mPlot, [this] { return QStringLiteral("sweep-") + metric(); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Final"), this));
    mMetric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mMetric->setMinimumContentsLength(12);
    bar->addWidget(mMetric);
    bar->addWidget(mLogY);
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
    rebuild();
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
    const bool logY = mLogY->isChecked();
    setLogAxis(mPlot->yAxis, logY);
    if (!hasSweep() || !mResult) {
        auto *text = new QCPItemText(mPlot);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setColor(QColor(0x80, 0x80, 0x80));
        text->setText(mResult ? tr("This experiment has no sweep.\nAdd \"sweep\": {\"parameter\": \"runs[*].params.stepsize\", "
                                   "\"values\": [...]} to the file\nto plot a final metric against a parameter.")
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
