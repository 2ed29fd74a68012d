// SPDX-License-Identifier: GPL-3.0-or-later
//
// Result writers of the CLI contract: metrics.csv, summary.json, experiment.json,
// final_values.csv, epsilon_per_agent.csv, sweep.csv, trace.csv and manifest.json, written as
// one set (OutputFolder). Text fields are quoted as RFC 4180 says (csvField). Numbers are
// printed with 17 significant digits, so identical results give byte-identical files and the
// results reader gets the same doubles back.
//
// Threading: pure functions of their arguments.
#pragma once

#include "dplab/engine/runner.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace dplab {

/** Union of the metric names of all runs, in canonical order (the metrics.csv columns). */
std::vector<std::string> metricColumns(const ExperimentResult &result);

std::string metricsCsv(const Experiment &experiment, const ExperimentResult &result);
Json summaryJson(const Experiment &experiment, const ExperimentResult &result);
std::string sweepCsv(const Experiment &experiment, const ExperimentResult &result);
std::string traceCsv(const Experiment &experiment, const ExperimentResult &result);
/** epsilon_per_agent.csv: `run,repetition[,value],agent,epsilon` — the final cumulative ε of every
 *  agent per repetition, for the runs that have an accountant. */
std::string epsilonPerAgentCsv(const Experiment &experiment, const ExperimentResult &result);
/** final_values.csv: `[value,]run,status,<metric>_mean,<metric>_std,…` — the final-values table
 *  (mean and sample std over repetitions of the last recorded value), one row per run (and
 *  sweep value). */
std::string finalValuesCsv(const Experiment &experiment, const ExperimentResult &result);

/** Mean and sample standard deviation of the last recorded value of metric column `m` of a run
 *  over its repetitions (NaN skipped; std 0 for one value; count 0 and NaN mean when none). */
struct MetricStats {
    double mean = std::nan("");
    double std = std::nan("");
    int count = 0;
};
MetricStats finalMetricStats(const RunResult &run, int m);

class OutputFolder;

/** Stages every file of `run --out DIR` in `folder`, then `extra` (name, content) files (e.g.
 *  messages.csv), then manifest.json recording the size, rows and SHA-256 of every one of them;
 *  the caller commits. A result of one shard gives the files restricted to the shard's jobs. */
Status stageRunOutputs(OutputFolder &folder, const Experiment &experiment, const ExperimentResult &result, bool trace,
                       const std::vector<std::pair<std::string, std::string>> &extra = {});

/** Writes every file of `run --out DIR` as one set (OutputFolder: lock, staging, commit). */
Status writeRunOutputs(const std::string &dir, const Experiment &experiment, const ExperimentResult &result,
                       bool trace);

/** Formats a double with %.17g ("" for NaN, which marks an absent value). */
std::string formatValue(double v);
/** Formats a double with `digits` significant digits (%.*g; "" for NaN). */
std::string formatSignificant(double v, int digits);

} // namespace dplab
