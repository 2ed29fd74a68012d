// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/teaching/frontier.h"

#include "dplab/common/csv.h"
#include "dplab/engine/metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dplab {

std::vector<double> logSpaced(double lo, double hi, int count)
{
    std::vector<double> out;
    if (count <= 0)
        return out;
    if (count == 1)
        return {lo};
    const double a = std::log(lo), b = std::log(hi);
    for (int k = 0; k < count; ++k)
        out.push_back(k == 0 ? lo : k == count - 1 ? hi : std::exp(a + (b - a) * k / (count - 1)));
    return out;
}

Result<std::vector<double>> parseEpsilonList(const std::string &text, const std::string &what)
{
    auto number = [&](const std::string &s) -> Result<double> {
        try {
            std::size_t used = 0;
            const double v = std::stod(s, &used);
            if (used != s.size() || !std::isfinite(v) || !(v > 0))
                throw std::invalid_argument(s);
            return v;
        } catch (...) {
            return Error::invalid(what, "\"" + s + "\" is not a number > 0");
        }
    };
    std::vector<double> out;
    if (text.find(':') != std::string::npos) {
        const std::vector<std::string> parts = splitText(text, ':');
        if (parts.size() != 3)
            return Error::invalid(what, "a range is FROM:TO:COUNT (e.g. 0.1:100:7), got \"" + text + "\"");
        auto lo = number(parts[0]);
        if (!lo)
            return lo.error();
        auto hi = number(parts[1]);
        if (!hi)
            return hi.error();
        long long count = 0;
        try {
            std::size_t used = 0;
            count = std::stoll(parts[2], &used);
            if (used != parts[2].size())
                count = 0;
        } catch (...) {
            count = 0;
        }
        if (count < 1 || count > 1000)
            return Error::invalid(what, "COUNT must be a whole number in [1, 1000], got \"" + parts[2] + "\"");
        if (!(*hi >= *lo))
            return Error::invalid(what, "TO must be ≥ FROM in \"" + text + "\"");
        return logSpaced(*lo, *hi, static_cast<int>(count));
    }
    for (const std::string &part : splitText(text, ',')) {
        auto v = number(part);
        if (!v)
            return v.error();
        out.push_back(*v);
    }
    if (out.empty())
        return Error::invalid(what, "needs at least one ε");
    return out;
}

bool FrontierResult::diverged() const
{
    return std::any_of(rows.begin(), rows.end(), [](const FrontierRow &r) { return r.status == RunStatus::Diverged; });
}

Result<Json> frontierDocument(const Experiment &experiment, double epsilon, std::vector<int> *kept,
                              std::vector<std::string> *skipped)
{
    if (experiment.sweep)
        return Error::unsupported("sweep", "the experiment already sweeps " + experiment.sweep->parameter
                                               + "; an ε frontier sweeps runs[*].privacy.epsilon itself — remove the sweep");
    Json doc = experiment.resolved;
    doc.erase("presentation"); // its paths may name runs that are dropped here
    Json runs = Json::array();
    std::vector<int> indices;
    std::vector<std::string> messages;
    bool any = false;
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &spec = experiment.runs[r];
        Json run = doc["runs"][r];
        if (calibratesEpsilon(*spec.algorithm)) {
            run["privacy"]["epsilon"] = epsilon;
            any = true;
        } else {
            messages.push_back("runs[" + std::to_string(r) + "] (" + spec.label + "): " + spec.algorithm->id
                               + " has no target-ε calibration (no privacy.epsilon); skipped");
            if (experiment.commonRandomNumbers)
                continue;
        }
        runs.push_back(run);
        indices.push_back(static_cast<int>(r));
    }
    if (!any)
        return Error::invalid("runs", "no run's algorithm calibrates its noise to a target ε (privacy.epsilon); "
                                      "nothing to sweep");
    doc["runs"] = runs;
    if (kept)
        *kept = indices;
    if (skipped)
        *skipped = messages;
    return doc;
}

Result<FrontierResult> runFrontier(const Experiment &experiment, const std::vector<double> &epsilons,
                                   RunnerOptions options, RunObserver *observer, RunControl *control)
{
    if (epsilons.empty())
        return Error::invalid("epsilons", "needs at least one ε");
    for (double e : epsilons)
        if (!std::isfinite(e) || !(e > 0))
            return Error::invalid("epsilons", "every ε must be finite and > 0");
    FrontierResult out;
    out.epsilons = epsilons;
    // Rows by original run index, each with its stats keyed by metric name until the union of
    // names is known.
    std::vector<std::vector<std::pair<FrontierRow, std::map<std::string, MetricStats>>>> byRun(experiment.runs.size());
    std::set<std::string> present;
    for (std::size_t k = 0; k < epsilons.size(); ++k) {
        std::vector<int> kept;
        std::vector<std::string> skipped;
        auto doc = frontierDocument(experiment, epsilons[k], &kept, &skipped);
        if (!doc)
            return doc.error();
        if (k == 0)
            out.skipped = skipped;
        auto point = parseExperiment(*doc, experiment.baseDir);
        if (!point) {
            Error err = point.error();
            err.message += " (target ε " + formatSignificant(epsilons[k], 6) + ")";
            return err;
        }
        auto result = Runner(options).run(*point, observer, control);
        if (!result)
            return result.error();
        for (std::size_t r = 0; r < kept.size(); ++r) {
            const int original = kept[r];
            if (!calibratesEpsilon(*experiment.runs[original].algorithm))
                continue;
            const RunResult &rr = result->points.front().runs[r];
            FrontierRow row;
            row.run = original;
            row.label = rr.label;
            row.epsilon = epsilons[k];
            row.status = rr.status();
            std::map<std::string, MetricStats> stats;
            for (std::size_t m = 0; m < rr.metricNames.size(); ++m) {
                present.insert(rr.metricNames[m]);
                stats[rr.metricNames[m]] = finalMetricStats(rr, static_cast<int>(m));
            }
            byRun[original].emplace_back(std::move(row), std::move(stats));
        }
        if (result->cancelled || (control && control->isCancelled())) {
            out.cancelled = true;
            break;
        }
    }
    for (const auto &name : allMetricNames())
        if (present.count(name))
            out.metrics.push_back(name);
    for (auto &rows : byRun)
        for (auto &[row, stats] : rows) {
            for (const auto &name : out.metrics) {
                auto it = stats.find(name);
                row.stats.push_back(it == stats.end() ? MetricStats{} : it->second);
            }
            out.rows.push_back(std::move(row));
        }
    return out;
}

std::string frontierCsv(const FrontierResult &result)
{
    std::string csv = "run,target_epsilon";
    for (const auto &m : result.metrics)
        csv += "," + m + "_mean," + m + "_std";
    csv += "\n";
    for (const auto &row : result.rows) {
        csv += row.label + "," + formatValue(row.epsilon);
        for (std::size_t m = 0; m < result.metrics.size(); ++m) {
            const MetricStats s = m < row.stats.size() ? row.stats[m] : MetricStats{};
            csv += "," + formatValue(s.mean) + "," + formatValue(s.std);
        }
        csv += "\n";
    }
    return csv;
}

} // namespace dplab
