// SPDX-License-Identifier: GPL-3.0-or-later
#include "resultsview.h"

#include "comparisonview.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "sweepview.h"
#include "textconvert.h"

#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"

namespace dplab {

ResultsView::ResultsView(LiveResults *results, QWidget *parent)
    : QTabWidget(parent)
    , mPlots(new PlotPanel(results, this))
    , mComparison(new ComparisonView(results, this))
    , mSweep(new SweepView(this))
{
    setDocumentMode(true);
    addTab(mPlots, tr("Live plots"));
    addTab(mComparison, tr("Comparison"));
    addTab(mSweep, tr("Sweep"));
    setTabToolTip(0, tr("Every run overlaid, updating while the run streams"));
    setTabToolTip(1, tr("One panel per run with shared axes, and the final values"));
    setTabToolTip(2, tr("Final metric against the swept parameter"));
}

void ResultsView::showView(const QString &view)
{
    if (view == QLatin1String("comparison"))
        setCurrentWidget(mComparison);
    else if (view == QLatin1String("sweep"))
        setCurrentWidget(mSweep);
    else
        setCurrentWidget(mPlots);
}

void ResultsView::prepareRun(const Experiment &, const QVector<QColor> &colors)
{
    mPlots->setRunColors(colors);
    mComparison->setRunColors(colors);
    mComparison->clearResult();
    mSweep->setRunColors(colors);
    mSweep->clearResult();
    for (int p = 0; p < PlotPanel::PlotCount; ++p)
        mPlots->setRunSuffixes(p, {});
    mPlots->plot(PlotPanel::Epsilon)->setSubtitle(QString());
}

void ResultsView::showResult(const std::shared_ptr<const Experiment> &experiment,
                             const std::shared_ptr<const ExperimentResult> &result)
{
    if (!result || result->points.empty())
        return;
    mPlots->showOutcome(*result);
    mComparison->setResult(result, experiment && experiment->sweep ? toQString(experiment->sweep->parameter)
                                                                    : QString());
    mSweep->setResult(experiment, result);
}

void ResultsView::clearResults()
{
    mComparison->clearResult();
    mSweep->clearResult();
    for (int p = 0; p < PlotPanel::PlotCount; ++p)
        mPlots->setRunSuffixes(p, {});
    mPlots->plot(PlotPanel::Epsilon)->setSubtitle(QString());
    mPlots->resetViews();
}

} // namespace dplab
