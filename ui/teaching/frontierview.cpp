// SPDX-License-Identifier: GPL-3.0-or-later
#include "frontierview.h"

#include "errorwords.h"
#include "plotstyle.h"
#include "metricnames.h"
#include "presentationscale.h"
#include "textconvert.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaObject>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

namespace {

QDoubleSpinBox *epsilonBox(QWidget *parent, double value)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setDecimals(4);
    box->setRange(1e-4, 1e9);
    box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    box->setValue(value);
    return box;
}

} // namespace

FrontierView::FrontierView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    // Two rows, so that the tab fits a docked panel at projector size.
    auto *range = new QHBoxLayout;
    range->addWidget(new QLabel(tr("Target ε from"), this));
    mFrom = epsilonBox(this, 0.1);
    range->addWidget(mFrom);
    range->addWidget(new QLabel(tr("to"), this));
    mTo = epsilonBox(this, 100);
    range->addWidget(mTo);
    range->addWidget(new QLabel(tr("values"), this));
    mCount = new QSpinBox(this);
    mCount->setRange(1, 50);
    mCount->setValue(7);
    range->addWidget(mCount);
    range->addStretch();
    layout->addLayout(range);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("repetitions"), this));
    mRepetitions = new QSpinBox(this);
    mRepetitions->setRange(0, 10000);
    mRepetitions->setSpecialValueText(tr("as in file"));
    mRepetitions->setValue(0);
    row->addWidget(mRepetitions);
    mSweep = new QPushButton(tr("ε sweep"), this);
    mSweep->setToolTip(tr("Run every run at each target ε (log-spaced) and plot the final metric against ε."));
    row->addWidget(mSweep);
    row->addWidget(new QLabel(tr("plot"), this));
    mMetric = new QComboBox(this);
    mMetric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mMetric->setMinimumContentsLength(12);
    row->addWidget(mMetric, 1);
    layout->addLayout(row);
    mStatus = new QLabel(this);
    mStatus->setWordWrap(true);
    layout->addWidget(mStatus);
    mPlot = new QCustomPlot(this);
    PresentationScale::follow(mPlot); // fonts, ticks and lines at the presentation size
    mPlot->setMinimumHeight(140); // the tab fits beside the network at 1280×720, 200 %
    mPlot->xAxis->setLabel(tr("target ε (log scale)"));
    mPlot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    mPlot->xAxis->setTicker(makeLogTicker(mPlot->xAxis));
    mPlot->legend->setVisible(true);
    layout->addWidget(mPlot, 1);
    connect(mSweep, &QPushButton::clicked, this, [this] {
        if (mRunning) {
            stop();
            return;
        }
        if (mSource) {
            QString error;
            auto experiment = mSource(&error);
            if (!experiment) {
                mStatus->setText(tr("Cannot sweep: %1").arg(errorInWords(error)));
                return;
            }
            setExperiment(std::move(experiment));
        }
        start();
    });
    connect(mMetric, &QComboBox::currentIndexChanged, this, &FrontierView::replotFrontier);
    reset();
}

void FrontierView::reset()
{
    stop();
    if (mThread.joinable())
        mThread.join();
    ++mGeneration;
    mExperiment.reset();
    mResult.reset();
    if (mRunning) {
        mRunning = false;
        emit runningChanged(false);
    }
    mSweep->setText(tr("ε sweep"));
    mMetric->blockSignals(true);
    mMetric->clear();
    mMetric->blockSignals(false);
    mPlot->clearPlottables();
    mPlot->clearItems();
    mPlot->yAxis->setScaleType(QCPAxis::stLinear);
    mPlot->yAxis->setTicker(makeTicker(mPlot->yAxis));
    mPlot->yAxis->setLabel(QString());
    mPlot->xAxis->setRange(0.1, 100);
    mPlot->yAxis->setRange(0, 1);
    mPlot->replot();
    mStatus->setText(tr("Press “ε sweep” to trace accuracy against privacy."));
}

QString FrontierView::statusText() const
{
    return mStatus->text();
}

FrontierView::~FrontierView()
{
    stop();
    if (mThread.joinable())
        mThread.join();
}

void FrontierView::setExperiment(std::shared_ptr<const Experiment> experiment)
{
    mExperiment = std::move(experiment);
    if (!mExperiment)
        return;
    // Start the range around the target ε the file uses, if any.
    double current = 0;
    for (const RunSpec &run : mExperiment->runs)
        if (calibratesEpsilon(*run.algorithm) && run.privacy.contains("epsilon") && run.privacy["epsilon"].is_number())
            current = std::max(current, run.privacy["epsilon"].get<double>());
    if (current > 0 && !mRunning && !mResult)
        setRange(current / 100, current * 10, 7, 0);
}

void FrontierView::setRange(double from, double to, int count, int repetitions)
{
    mFrom->setValue(from);
    mTo->setValue(to);
    mCount->setValue(count);
    mRepetitions->setValue(repetitions);
}

QString FrontierView::metric() const
{
    return mMetric->currentData().toString();
}

void FrontierView::setMetric(const QString &metric)
{
    const int i = mMetric->findData(metric);
    if (i >= 0)
        mMetric->setCurrentIndex(i);
}

FrontierView::Request FrontierView::request() const
{
    Request r;
    r.experiment = mExperiment;
    r.epsilons = logSpaced(mFrom->value(), std::max(mFrom->value(), mTo->value()), mCount->value());
    r.repetitions = mRepetitions->value();
    return r;
}

Result<FrontierResult> FrontierView::compute(const Request &request, RunControl *control)
{
    if (!request.experiment)
        return Error::invalid("", "no experiment");
    std::shared_ptr<const Experiment> experiment = request.experiment;
    if (request.repetitions > 0) {
        Json doc = experiment->resolved;
        doc["repetitions"] = request.repetitions;
        auto e = parseExperiment(doc, experiment->baseDir);
        if (!e)
            return e.error();
        experiment = std::make_shared<const Experiment>(std::move(e.value()));
    }
    return runFrontier(*experiment, request.epsilons, RunnerOptions{}, nullptr, control);
}

void FrontierView::start()
{
    if (mRunning || !mExperiment)
        return;
    if (mThread.joinable())
        mThread.join();
    mRunning = true;
    mSweep->setText(tr("Stop"));
    mStatus->setText(tr("Sweeping %1 target ε values…").arg(mCount->value()));
    emit runningChanged(true);
    mControl = std::make_shared<RunControl>();
    auto control = mControl;
    // The widgets are read here, on the GUI thread; the worker gets plain values.
    const Request r = request();
    auto promise = std::make_shared<Result<FrontierResult>>(Error::internal("", "not run"));
    const int generation = mGeneration;
    mThread = std::thread([this, r, control, promise, generation] {
        *promise = compute(r, control.get());
        QMetaObject::invokeMethod(
            this,
            [this, promise, generation] {
                if (generation == mGeneration) // else reset() joined this sweep and moved on
                    accept(std::move(*promise));
            },
            Qt::QueuedConnection);
    });
}

bool FrontierView::runNow(QString *error)
{
    mRunning = true;
    RunControl control;
    auto result = compute(request(), &control);
    const bool ok = result.ok();
    if (!ok && error)
        *error = toQString(result.error().toString());
    accept(std::move(result));
    return ok;
}

void FrontierView::stop()
{
    if (mControl)
        mControl->cancel();
}

void FrontierView::accept(Result<FrontierResult> result)
{
    if (mThread.joinable() && mThread.get_id() != std::this_thread::get_id())
        mThread.join();
    mRunning = false;
    mSweep->setText(tr("ε sweep"));
    emit runningChanged(false);
    if (!result) {
        mStatus->setText(tr("The ε sweep could not run: %1").arg(errorInWords(toQString(result.error().toString()))));
        emit finished();
        return;
    }
    mResult = std::move(result.value());
    QStringList skipped;
    for (const auto &s : mResult->skipped)
        skipped << toQString(s);
    mStatus->setText((mResult->cancelled ? tr("Stopped early. ") : QString())
                     + tr("%1 point(s). Error bars: ± one standard deviation over repetitions.").arg(mResult->rows.size())
                     + (skipped.isEmpty() ? QString() : QStringLiteral("\n") + skipped.join(QStringLiteral("\n"))));
    const QString keep = metric();
    mMetric->blockSignals(true);
    mMetric->clear();
    for (const auto &m : mResult->metrics)
        mMetric->addItem(metricTitle(toQString(m)), toQString(m)); // in words; the name is the data
    int index = mMetric->findData(keep);
    if (index < 0)
        index = mMetric->findData(QStringLiteral("distance_to_optimum"));
    if (index < 0)
        index = mMetric->findData(QStringLiteral("optimality_gap"));
    mMetric->setCurrentIndex(std::max(0, index));
    mMetric->blockSignals(false);
    replotFrontier();
    emit finished();
}

void FrontierView::replotFrontier()
{
    mPlot->clearPlottables();
    if (!mResult || mMetric->currentIndex() < 0) {
        mPlot->replot();
        return;
    }
    const auto it = std::find(mResult->metrics.begin(), mResult->metrics.end(), toStdString(metric()));
    if (it == mResult->metrics.end()) {
        mPlot->replot();
        return;
    }
    const std::size_t m = static_cast<std::size_t>(it - mResult->metrics.begin());
    std::vector<int> runs;
    for (const auto &row : mResult->rows)
        if (std::find(runs.begin(), runs.end(), row.run) == runs.end())
            runs.push_back(row.run);
    bool positive = true;
    double lo = 1e300, hi = -1e300;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        QVector<double> keys, values, errors;
        QString label;
        for (const auto &row : mResult->rows) {
            if (row.run != runs[k] || !std::isfinite(row.stats[m].mean))
                continue;
            label = toQString(row.label);
            keys << row.epsilon;
            values << row.stats[m].mean;
            errors << (std::isfinite(row.stats[m].std) ? row.stats[m].std : 0.0);
            positive = positive && row.stats[m].mean > 0;
            lo = std::min(lo, row.stats[m].mean - errors.back());
            hi = std::max(hi, row.stats[m].mean + errors.back());
        }
        QCPGraph *g = mPlot->addGraph();
        g->setName(label);
        g->setPen(QPen(plotSeriesColor(static_cast<int>(k)), 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        g->setData(keys, values, true);
        auto *bars = new QCPErrorBars(mPlot->xAxis, mPlot->yAxis);
        bars->removeFromLegend();
        bars->setDataPlottable(g);
        bars->setData(errors);
        bars->setPen(QPen(plotSeriesColor(static_cast<int>(k)), 1));
    }
    const bool logY = positive && lo > 0 && hi / lo > 50;
    mPlot->yAxis->setScaleType(logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logY)
        mPlot->yAxis->setTicker(makeLogTicker(mPlot->yAxis));
    else
        mPlot->yAxis->setTicker(makeTicker(mPlot->yAxis));
    mPlot->yAxis->setLabel(tr("final %1 (mean ± std)").arg(metricTitle(metric()).toLower()));
    mPlot->rescaleAxes();
    const double pad = logY ? 1.0 : 0.05 * std::max(1e-12, hi - lo);
    if (logY)
        mPlot->yAxis->setRange(std::max(lo, 1e-300) / 1.5, hi * 1.5);
    else
        mPlot->yAxis->setRange(lo - pad, hi + pad);
    mPlot->xAxis->setRange(mPlot->xAxis->range().lower / 1.5, mPlot->xAxis->range().upper * 1.5);
    mPlot->replot();
}

} // namespace dplab
