// SPDX-License-Identifier: GPL-3.0-or-later
//
// Result writers of the CLI contract (DESIGN §5): metrics.csv, summary.json, experiment.json,
// sweep.csv, trace.csv. Each file is written atomically. Numbers are printed with 17
// significant digits, so identical results give byte-identical files.
//
// Threading: pure functions of their arguments.
#pragma once

#include "dplab/engine/runner.h"

#include <string>

namespace dplab {

/** Union of the metric names of all runs, in canonical order (the metrics.csv columns). */
std::vector<std::string> metricColumns(const ExperimentResult &result);

std::string metricsCsv(const Experiment &experiment, const ExperimentResult &result);
Json summaryJson(const Experiment &experiment, const ExperimentResult &result);
std::string sweepCsv(const Experiment &experiment, const ExperimentResult &result);
std::string traceCsv(const Experiment &experiment, const ExperimentResult &result);

/** Writes every file of `run --out DIR` (creating DIR). */
Status writeRunOutputs(const std::string &dir, const Experiment &experiment, const ExperimentResult &result,
                       bool trace);

/** Formats a double with %.17g ("" for NaN, which marks an absent value). */
std::string formatValue(double v);

} // namespace dplab
