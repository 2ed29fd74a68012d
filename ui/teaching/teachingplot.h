// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the teaching panels' plots share (attack panel, theory view, message inspector): a run's
// curve of one metric from its first repetition, drawn in the run's series colour, and the
// dashed orange cursor at the shown iteration.
//
// Threading: GUI thread.
#pragma once

#include "plotstyle.h"
#include "textconvert.h"

#include "dplab/engine/runner.h"

#include <qcustomplot.h>

#include <QVector>

#include <algorithm>
#include <optional>
#include <string>

namespace dplab {

/** One metric of a run's first repetition, as plotted. */
struct RunCurve {
    const RepetitionResult *repetition = nullptr; ///< the run's first repetition
    QVector<double> keys;                         ///< iterations
    QVector<double> values;                       ///< the values drawn
};

/** The curve of `metric` in the first repetition of `run`: shown(iteration, value) gives the
 *  value to draw at a recorded point, or nothing to leave the point out. Nothing when the run
 *  does not record the metric. */
template <class Shown>
std::optional<RunCurve> firstRepetitionCurve(const RunResult &run, const std::string &metric, Shown shown)
{
    const auto it = std::find(run.metricNames.begin(), run.metricNames.end(), metric);
    if (it == run.metricNames.end())
        return std::nullopt;
    const auto m = static_cast<std::size_t>(it - run.metricNames.begin());
    RunCurve curve;
    curve.repetition = &run.repetitions.front();
    const RepetitionResult &rep = *curve.repetition;
    for (std::size_t k = 0; k < rep.iterations.size(); ++k)
        if (const std::optional<double> v = shown(rep.iterations[k], rep.values[k][m])) {
            curve.keys << static_cast<double>(rep.iterations[k]);
            curve.values << *v;
        }
    return curve;
}

/** Draws `curve` of run number `index` (its label, its series colour, 2 px). */
inline QCPGraph *addRunGraph(QCustomPlot *plot, const RunResult &run, int index, const RunCurve &curve)
{
    QCPGraph *graph = plot->addGraph();
    graph->setName(toQString(run.label));
    graph->setPen(QPen(plotSeriesColor(index), 2));
    graph->setData(curve.keys, curve.values, true);
    return graph;
}

/** The dashed orange line a panel moves to the shown iteration. */
inline QCPItemStraightLine *addIterationCursor(QCustomPlot *plot)
{
    auto *cursor = new QCPItemStraightLine(plot);
    cursor->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 1, Qt::DashLine));
    return cursor;
}

} // namespace dplab
