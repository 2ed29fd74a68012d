// SPDX-License-Identifier: GPL-3.0-or-later
//
// SweepView (issue 7 item 7): when the experiment sweeps a parameter, the final value of a
// metric against the swept value with mean ± std error bars, one line per run (the shape of
// papers 001 Figs. 4/7, 002 Figs. 3–5, 003 Figs. 3–4). Numeric sweep values go on a linear or
// (when they span two decades or more) logarithmic x axis; other values are categories. A grid
// of two parameters (dplab/engine/sweepgrid.h) is a heatmap of one run's final metric (mean over
// the repetitions) over the two parameters' values, the best cell ringed.
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"

#include <QColor>
#include <QPoint>
#include <QVector>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QCPColorScale;
class QCustomPlot;

namespace dplab {

class SweepView : public QWidget
{
    Q_OBJECT

public:
    explicit SweepView(QWidget *parent = nullptr);

    void setRunColors(const QVector<QColor> &colors);
    /** Shows the final metrics of a finished run of `experiment`. */
    void setResult(std::shared_ptr<const Experiment> experiment, std::shared_ptr<const ExperimentResult> result);
    void clearResult();
    bool hasSweep() const;
    QString metric() const;
    void setMetric(const QString &metric);
    QCustomPlot *plot() const { return mPlot; }
    /** The plotted (value, mean, std) points of a run (tests). */
    QVector<QVector<double>> series(int run) const;
    /** Whether a grid of two parameters is shown as a heatmap. */
    bool isHeatmap() const { return mHeatmapShown; }
    /** The heatmap's run (index into the experiment's runs). */
    void setHeatmapRun(int run);
    /** The heatmap's cells: [i][j] = final metric at the first parameter's i-th and the second's
     *  j-th value (NaN where the grid has no point or no finite value); tests. */
    QVector<QVector<double>> heatmap() const { return mCells; }
    /** The ringed best cell (i, j): lowest value, highest for the accuracies; (-1, -1) when none. */
    QPoint heatmapBest() const { return mBestCell; }

private:
    void rebuild();
    /** The grid's heatmap (rebuild() for a grid of two parameters). */
    void rebuildHeatmap();
    /** Shows the colour scale right of the axes, or takes it out of the layout. */
    void showColorScale(bool show);
    /** Shows the legend in its row under the axes, or takes it out of the layout. */
    void showLegend(bool show);

    QComboBox *mMetric;
    QCheckBox *mLogY;
    QComboBox *mRun;
    QCustomPlot *mPlot;
    QCPColorScale *mColorScale = nullptr;
    bool mHeatmapShown = false;
    QVector<QVector<double>> mCells;
    QPoint mBestCell{-1, -1};
    QVector<QColor> mColors;
    std::shared_ptr<const Experiment> mExperiment;
    std::shared_ptr<const ExperimentResult> mResult;
    QVector<QVector<QVector<double>>> mSeries; ///< [run][point] = {x, mean, std}
};

} // namespace dplab
