// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/writers.h"

#include "dplab/common/csv.h"
#include "dplab/common/files.h"
#include "dplab/common/stats.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/outputfolder.h"
#include "dplab/engine/results.h"
#include "dplab/engine/sweepgrid.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

namespace dplab {

std::string formatValue(double v)
{
    if (std::isnan(v))
        return "";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::vector<std::string> metricColumns(const ExperimentResult &result)
{
    std::set<std::string> present;
    for (const auto &p : result.points)
        for (const auto &r : p.runs)
            present.insert(r.metricNames.begin(), r.metricNames.end());
    std::vector<std::string> columns;
    for (const auto &name : allMetricNames())
        if (present.count(name))
            columns.push_back(name);
    return columns;
}

namespace {

// A sweep value as one CSV field: a string as itself, anything else as its JSON text (quoted
// when it holds commas, e.g. a generator object).
std::string jsonText(const Json &value)
{
    return csvField(value.is_string() ? value.get<std::string>() : value.dump());
}

// Index of each column in a run's own metric list (-1 = absent for this run).
std::vector<int> columnMap(const std::vector<std::string> &columns, const RunResult &run)
{
    std::vector<int> map;
    for (const auto &c : columns) {
        auto it = std::find(run.metricNames.begin(), run.metricNames.end(), c);
        map.push_back(it == run.metricNames.end() ? -1 : static_cast<int>(it - run.metricNames.begin()));
    }
    return map;
}

using Stats = MetricStats;

Stats stats(const std::vector<double> &values)
{
    const MeanStd m = meanStd(values.data(), values.size());
    Stats s;
    s.count = m.count;
    if (s.count == 0)
        return s;
    s.mean = m.mean;
    s.std = m.std;
    return s;
}

Json numberOrNull(double v)
{
    return std::isnan(v) || std::isinf(v) ? Json() : Json(v);
}

// Final value of metric column m for every repetition that recorded anything.
std::vector<double> finalValues(const RunResult &run, int m)
{
    std::vector<double> values;
    for (const auto &rep : run.repetitions)
        if (!rep.values.empty() && m >= 0)
            values.push_back(rep.values.back()[m]);
    return values;
}

Json runSummary(const RunResult &run)
{
    Json j{{"label", run.label}, {"algorithm", run.algorithm}, {"status", runStatusName(run.status())}};
    Json reps = Json::array();
    double wall = 0;
    for (std::size_t k = 0; k < run.repetitions.size(); ++k) {
        const auto &rep = run.repetitions[k];
        if (rep.skipped) // another shard's job
            continue;
        Json r{{"repetition", k}, {"status", runStatusName(rep.status)}, {"wall_time_seconds", rep.wallSeconds}};
        if (rep.divergedAt >= 0)
            r["diverged_at"] = rep.divergedAt;
        reps.push_back(r);
        wall += rep.wallSeconds;
    }
    Json finals = Json::object();
    for (std::size_t m = 0; m < run.metricNames.size(); ++m) {
        const auto values = finalValues(run, static_cast<int>(m));
        const Stats s = stats(values);
        Json list = Json::array();
        for (double v : values)
            list.push_back(numberOrNull(v));
        finals[run.metricNames[m]] = Json{{"mean", numberOrNull(s.mean)}, {"std", numberOrNull(s.std)}, {"values", list}};
    }
    j["final"] = finals;
    if (!run.accountant.empty()) {
        j["accountant"] = run.accountant;
        // Per-agent ε: mean over repetitions (identical across repetitions for data-independent bounds).
        Eigen::VectorXd mean;
        int count = 0;
        for (const auto &rep : run.repetitions)
            if (rep.epsilonPerAgent.size() > 0) {
                mean = count == 0 ? rep.epsilonPerAgent : Eigen::VectorXd(mean + rep.epsilonPerAgent);
                ++count;
            }
        Json eps = Json::array();
        if (count > 0)
            for (Eigen::Index i = 0; i < mean.size(); ++i)
                eps.push_back(numberOrNull(mean[i] / count));
        j["epsilon_per_agent"] = eps;
    }
    j["warnings"] = run.warnings;
    j["wall_time_seconds"] = wall;
    j["repetitions"] = reps;
    return j;
}

} // namespace

std::string formatSignificant(double v, int digits)
{
    if (std::isnan(v))
        return "";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

MetricStats finalMetricStats(const RunResult &run, int m)
{
    return stats(finalValues(run, m));
}

std::string epsilonPerAgentCsv(const Experiment &experiment, const ExperimentResult &result)
{
    const bool sweep = experiment.sweep.has_value();
    std::string out = sweep ? "run,repetition,value,agent,epsilon\n" : "run,repetition,agent,epsilon\n";
    for (const auto &p : result.points)
        for (const auto &run : p.runs)
            for (std::size_t rep = 0; rep < run.repetitions.size(); ++rep) {
                const Eigen::VectorXd &eps = run.repetitions[rep].epsilonPerAgent;
                for (Eigen::Index i = 0; i < eps.size(); ++i) {
                    out += csvField(run.label) + "," + std::to_string(rep);
                    if (sweep)
                        out += "," + jsonText(p.value);
                    out += "," + std::to_string(i) + "," + formatValue(eps[i]) + "\n";
                }
            }
    return out;
}

namespace {

/** A table of final values: `leading` columns, then the mean and std of every metric's final
 *  values; one row per run of every point, starting with rowStart(point, run). A metric a run
 *  does not record gets empty cells. */
template <class RowStart>
std::string finalValuesTable(std::string leading, const ExperimentResult &result, RowStart rowStart)
{
    const auto columns = metricColumns(result);
    std::string out = std::move(leading);
    for (const auto &c : columns)
        out += "," + c + "_mean," + c + "_std";
    out += "\n";
    for (const auto &p : result.points)
        for (const auto &run : p.runs) {
            out += rowStart(p, run);
            for (int m : columnMap(columns, run)) {
                const Stats s = m < 0 ? Stats{} : stats(finalValues(run, m));
                out += "," + formatValue(s.mean) + "," + formatValue(s.std);
            }
            out += "\n";
        }
    return out;
}

} // namespace

std::string finalValuesCsv(const Experiment &experiment, const ExperimentResult &result)
{
    const bool sweep = experiment.sweep.has_value();
    return finalValuesTable(sweep ? "value,run,status" : "run,status", result, [&](const auto &p, const RunResult &run) {
        return (sweep ? jsonText(p.value) + "," : std::string()) + csvField(run.label) + ","
               + runStatusName(run.status());
    });
}

std::string metricsCsv(const Experiment &experiment, const ExperimentResult &result)
{
    const auto columns = metricColumns(result);
    const bool sweep = experiment.sweep.has_value();
    std::string out = "run,repetition,iteration";
    if (sweep)
        out += ",value";
    for (const auto &c : columns)
        out += "," + c;
    out += "\n";
    for (const auto &p : result.points) {
        const std::string value = sweep ? jsonText(p.value) : "";
        for (const auto &run : p.runs) {
            const auto map = columnMap(columns, run);
            for (std::size_t rep = 0; rep < run.repetitions.size(); ++rep) {
                const auto &r = run.repetitions[rep];
                for (std::size_t k = 0; k < r.iterations.size(); ++k) {
                    out += csvField(run.label) + "," + std::to_string(rep) + "," + std::to_string(r.iterations[k]);
                    if (sweep)
                        out += "," + value;
                    for (int m : map)
                        out += "," + (m < 0 ? std::string() : formatValue(r.values[k][m]));
                    out += "\n";
                }
            }
        }
    }
    return out;
}

Json summaryJson(const Experiment &experiment, const ExperimentResult &result)
{
    Json j{{"dplab_version", DPLAB_VERSION},
           {"experiment", experiment.name},
           {"seed", experiment.seed},
           {"iterations", experiment.iterations},
           {"repetitions", experiment.repetitions},
           {"cancelled", result.cancelled}};
    auto pointJson = [&](const PointResult &p) {
        Json pj = Json::object();
        if (p.reference) {
            Json x = Json::array();
            for (Eigen::Index k = 0; k < p.reference->x.size(); ++k)
                x.push_back(p.reference->x[k]);
            pj["reference"] = Json{{"x", x},
                                   {"value", p.reference->value},
                                   {"gradient_norm", p.reference->gradientNorm},
                                   {"method", p.reference->method}};
        }
        pj["reference_solve_seconds"] = p.referenceSeconds;
        Json runs = Json::array();
        for (const auto &r : p.runs)
            runs.push_back(runSummary(r));
        pj["runs"] = runs;
        return pj;
    };
    if (experiment.sweep) {
        j["sweep"] = Json{{"parameter", sweepParameterJson(*experiment.sweep)}};
        Json points = Json::array();
        for (const auto &p : result.points) {
            Json pj = pointJson(p);
            pj["value"] = p.value;
            points.push_back(pj);
        }
        j["points"] = points;
    } else if (!result.points.empty()) {
        Json pj = pointJson(result.points.front());
        for (auto it = pj.begin(); it != pj.end(); ++it)
            j[it.key()] = it.value();
    }
    return j;
}

std::string sweepCsv(const Experiment &experiment, const ExperimentResult &result)
{
    return finalValuesTable("parameter,value,run", result, [&](const auto &p, const RunResult &run) {
        return csvField(experiment.sweep->parameter) + "," + jsonText(p.value) + "," + csvField(run.label);
    });
}

std::string traceCsv(const Experiment &experiment, const ExperimentResult &result)
{
    // The dimension from the problem; a results folder read back (merge) has only the traces.
    int d = experiment.problem ? experiment.problem->dimension() : 0;
    if (!experiment.problem)
        for (const auto &p : result.points)
            for (const auto &run : p.runs)
                for (const auto &rep : run.repetitions)
                    if (!rep.trace.empty())
                        d = static_cast<int>(rep.trace.front().cols());
    std::string out = "run,repetition,iteration,agent";
    if (experiment.sweep)
        out += ",value";
    for (int k = 0; k < d; ++k)
        out += ",x" + std::to_string(k);
    out += "\n";
    for (const auto &p : result.points)
        for (const auto &run : p.runs)
            for (std::size_t rep = 0; rep < run.repetitions.size(); ++rep) {
                const auto &r = run.repetitions[rep];
                for (std::size_t k = 0; k < r.trace.size(); ++k)
                    for (Eigen::Index i = 0; i < r.trace[k].rows(); ++i) {
                        out += csvField(run.label) + "," + std::to_string(rep) + "," + std::to_string(r.iterations[k]) + ","
                               + std::to_string(i);
                        if (experiment.sweep)
                            out += "," + jsonText(p.value);
                        for (Eigen::Index c = 0; c < r.trace[k].cols(); ++c)
                            out += "," + formatValue(r.trace[k](i, c));
                        out += "\n";
                    }
            }
    return out;
}

Status stageRunOutputs(OutputFolder &folder, const Experiment &experiment, const ExperimentResult &result, bool trace,
                       const std::vector<std::pair<std::string, std::string>> &extra)
{
    std::vector<std::pair<std::string, std::string>> files;
    files.emplace_back("metrics.csv", metricsCsv(experiment, result));
    files.emplace_back("summary.json", summaryJson(experiment, result).dump(2) + "\n");
    files.emplace_back("experiment.json", experiment.resolved.dump(2) + "\n");
    files.emplace_back("final_values.csv", finalValuesCsv(experiment, result));
    files.emplace_back("epsilon_per_agent.csv", epsilonPerAgentCsv(experiment, result));
    if (experiment.sweep)
        files.emplace_back("sweep.csv", sweepCsv(experiment, result));
    if (trace)
        files.emplace_back("trace.csv", traceCsv(experiment, result));
    for (const auto &file : extra)
        files.push_back(file);
    for (const auto &[name, content] : files)
        if (auto s = folder.write(name, content); !s)
            return s;
    // The manifest, last, records every file's size, rows and SHA-256 (integrity.h).
    ResultsManifest manifest = makeManifest(experiment, result, trace);
    recordFiles(manifest, files);
    return folder.write("manifest.json", manifestToJson(manifest).dump(2) + "\n");
}

Status writeRunOutputs(const std::string &dir, const Experiment &experiment, const ExperimentResult &result,
                       bool trace)
{
    auto folder = OutputFolder::open(dir);
    if (!folder)
        return folder.error();
    if (auto s = stageRunOutputs(**folder, experiment, result, trace); !s)
        return s;
    return (*folder)->commit();
}

} // namespace dplab
