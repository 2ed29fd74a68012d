// SPDX-License-Identifier: GPL-3.0-or-later
//
// Shared axis styling for DPLab's plots: a log axis gets power-of-ten ticks (QCPAxisTickerLog,
// "10⁻³" labels) when its range spans two decades or more, and plain ticks with short labels
// when it spans less (a log ticker on a narrow range repeats or crowds its labels). The choice
// follows the range as the user zooms.
//
// Threading: GUI thread.
#pragma once

class QCPAxis;

namespace dplab {

/** Makes `axis` logarithmic or linear and keeps its ticker suited to its range. */
void setLogAxis(QCPAxis *axis, bool logarithmic);

} // namespace dplab
