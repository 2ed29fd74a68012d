// SPDX-License-Identifier: GPL-3.0-or-later
//
// Shared axis styling for DPLab's plots: a log axis gets power-of-ten ticks (QCPAxisTickerLog,
// "10⁻³" labels) when its range spans two decades or more, and plain ticks with short labels
// when it spans less (a log ticker on a narrow range repeats or crowds its labels). The choice
// follows the range as the user zooms; the number of ticks follows the axis' length.
//
// Threading: GUI thread.
#pragma once

#include <QColor>
#include <QSharedPointer>

class QCPAxis;
class QCPAxisTicker;
class QCPAxisTickerLog;

namespace dplab {

/** The largest magnitude a plot draws. QCustomPlot's ranges stop at 1e250 (QCPRange::maxRange);
 *  below 1e240 a value fits with room for the axis padding. The ε of paper 001's presets reaches
 *  1e225 after 300 iterations: the curve cut at 1e200 stopped two thirds of the way. Larger
 *  values (up to 1.8e308 and ∞) are left out. */
inline constexpr double kLargestPlotted = 1e240;

/** Tickers whose labels keep the exponent mark 'e' under every locale, so that the number
 *  formats "eb" and "gb" draw 10⁻¹ (a German locale writes "1E-01", which QCustomPlot shows as
 *  it is). Every plot of the window takes its tickers from here. Given the axis they will tick,
 *  they fit their labels to its length: fewer ticks on a short axis, never two labels closer
 *  than a label's height (vertical) or width (horizontal) plus half a line. */
QSharedPointer<QCPAxisTicker> makeTicker(QCPAxis *axis = nullptr);
QSharedPointer<QCPAxisTickerLog> makeLogTicker(QCPAxis *axis = nullptr);

/** Makes `axis` logarithmic or linear and keeps its ticker suited to its range. */
void setLogAxis(QCPAxis *axis, bool logarithmic);

/** The colour of the `index`-th series of a teaching plot: six colours, repeating. */
QColor plotSeriesColor(int index);

} // namespace dplab
