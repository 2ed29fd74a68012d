// SPDX-License-Identifier: GPL-3.0-or-later
//
// ResultsView: the result tabs of the window — live plots (PlotPanel), the comparison of runs
// (ComparisonView) and the sweep (SweepView) — prepared when a run starts, filled when it
// finishes and cleared together, so no tab keeps showing a previous experiment.
//
// Threading: GUI thread.
#pragma once

#include <QColor>
#include <QTabWidget>
#include <QVector>

#include <memory>

namespace dplab {

class ComparisonView;
class LiveResults;
class PlotPanel;
class SweepView;
struct Experiment;
struct ExperimentResult;

class ResultsView : public QTabWidget
{
    Q_OBJECT

public:
    explicit ResultsView(LiveResults *results, QWidget *parent = nullptr);

    PlotPanel *plotPanel() const { return mPlots; }
    ComparisonView *comparisonView() const { return mComparison; }
    SweepView *sweepView() const { return mSweep; }

    /** Shows one of the tabs: "live", "comparison" or "sweep". */
    void showView(const QString &view);
    /** A run of `experiment` starts: colours set, previous outcome cleared. */
    void prepareRun(const Experiment &experiment, const QVector<QColor> &colors);
    /** The run finished: outcome on the live plots, comparison and sweep filled. */
    void showResult(const std::shared_ptr<const Experiment> &experiment,
                    const std::shared_ptr<const ExperimentResult> &result);
    /** No run: every tab empty. */
    void clearResults();

private:
    PlotPanel *mPlots;
    ComparisonView *mComparison;
    SweepView *mSweep;
};

} // namespace dplab
