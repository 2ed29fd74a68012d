// SPDX-License-Identifier: GPL-3.0-or-later
//
// SweepView (issue 7 item 7): when the experiment sweeps a parameter, the final value of a
// metric against the swept value with mean ± std error bars, one line per run (the shape of
// papers 001 Figs. 4/7, 002 Figs. 3–5, 003 Figs. 3–4). Numeric sweep values go on a linear or
// (when they span two decades or more) logarithmic x axis; other values are categories.
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"

#include <QColor>
#include <QVector>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
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

private:
    void rebuild();
    /** Shows the legend in its row under the axes, or takes it out of the layout. */
    void showLegend(bool show);

    QComboBox *mMetric;
    QCheckBox *mLogY;
    QCustomPlot *mPlot;
    QVector<QColor> mColors;
    std::shared_ptr<const Experiment> mExperiment;
    std::shared_ptr<const ExperimentResult> mResult;
    QVector<QVector<QVector<double>>> mSeries; ///< [run][point] = {x, mean, std}
};

} // namespace dplab
