// SPDX-License-Identifier: GPL-3.0-or-later
//
// fitLegend: keeps a plot's legend compact — never more than a quarter of the plot. A legend in
// its own row (above or below the axes) may take at most a quarter of the plot's height; a
// legend inside the axes at most a quarter of their area (and 60 % of their width or height). It gets as many columns as the width allows, then shortens the entries ("LDP-GT + DP
// no…"); the full names stay on the plottables' "dplabFullName" property for tooltips. When
// even the shortest entries do not fit, the legend is hidden (its plot's tooltip lists the
// runs). Called before every replot of a plot that follows the presentation size.
//
// Threading: GUI thread.
#pragma once

class QCustomPlot;
class QCPLegend;

namespace dplab {

/** The fraction of the plot a legend may cover at most. */
inline constexpr double kLegendShare = 0.25;

/** Lays `legend` of `plot` out within kLegendShare of the plot (see above). Returns false when
 *  it had to hide the legend. */
bool fitLegend(QCustomPlot *plot, QCPLegend *legend);

/** For print (exportPlot): every entry's full name, as many columns as a plot `width` logical
 *  pixels wide allows, the legend shown. The next replot on screen fits it again. */
void showFullLegend(QCustomPlot *plot, QCPLegend *legend, int width);

} // namespace dplab
