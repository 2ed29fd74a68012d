// SPDX-License-Identifier: GPL-3.0-or-later
//
// Display names and plot defaults of the metrics of docs/architecture.md §3 (the names are the contract;
// these are only their labels).
//
// Threading: pure functions.
#pragma once

#include <QString>
#include <QStringList>

namespace dplab {

/** "Consensus error", "Distance to optimum", ... (the raw name for unknown metrics). */
QString metricTitle(const QString &metric);
/** The formula shown as the axis label, e.g. "(1/n) Σ‖xᵢ − x̄‖²". */
QString metricFormula(const QString &metric);
/** Whether the metric is best seen on a log axis. */
bool metricPrefersLogAxis(const QString &metric);
/** The accuracy-type metrics, in the order the accuracy plot offers them. */
QStringList accuracyMetrics();

} // namespace dplab
