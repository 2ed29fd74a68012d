// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/report.h"

#include "dplab/compress/compressor.h"
#include "dplab/engine/writers.h"
#include "dplab/graph/analysis.h"
#include "dplab/problem/problem.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace dplab {

const char *dplabVersion()
{
    return DPLAB_VERSION;
}

std::string htmlEscape(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string formatShortest(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buffer[40];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
        if (std::strtod(buffer, nullptr) == v)
            break;
    }
    return buffer;
}

namespace {

std::string numberText(const Json &v)
{
    if (v.is_number_integer() || v.is_number_unsigned())
        return v.dump();
    return formatShortest(v.get<double>());
}

// "a" of a schedule, printed as a factor.
std::string scheduleText(const Json &s)
{
    const std::string type = s.value("type", std::string());
    auto num = [&](const char *key, double fallback) {
        return s.contains(key) && s.at(key).is_number() ? numberText(s.at(key)) : formatShortest(fallback);
    };
    if (type == "constant" && s.contains("a"))
        return num("a", 0);
    if (type == "polynomial")
        return num("a", 1) + "/(t+" + num("t0", 1) + ")^" + num("p", 1);
    if (type == "geometric")
        return num("a", 1) + "·" + num("q", 1) + "^t";
    return s.dump();
}

} // namespace

std::string formatParamValue(const Json &value)
{
    if (value.is_null())
        return "—";
    if (value.is_boolean())
        return value.get<bool>() ? "true" : "false";
    if (value.is_number())
        return numberText(value);
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_array()) {
        std::string out = "[";
        for (std::size_t k = 0; k < value.size(); ++k)
            out += (k ? ", " : "") + formatParamValue(value[k]);
        return out + "]";
    }
    if (value.contains("type") && value.at("type").is_string()) {
        const std::string type = value.at("type").get<std::string>();
        if (type == "constant" || type == "polynomial" || type == "geometric")
            return scheduleText(value);
    }
    return value.dump();
}

Result<PrivacyFacts> privacyFacts(const Experiment &experiment, int run, const RunResult &result)
{
    assert(run >= 0 && run < static_cast<int>(experiment.runs.size()) && "run index out of range");
    PrivacyFacts facts;
    facts.iterations = experiment.iterations;
    const RunSpec &spec = experiment.runs[run];
    const RunContext ctx = makeRunContext(experiment, run, 0);
    auto algorithm = spec.algorithm->create();
    if (Status s = algorithm->reset(ctx); !s) {
        Error err = s.error();
        err.where = joinPath(indexPath("runs", run), err.where);
        return err;
    }
    facts.violated = algorithm->warnings();
    if (const PrivacyAccountant *accountant = algorithm->accountant()) {
        facts.accountant = accountant->name();
        facts.assumptions = accountant->assumptions();
    }
    if (!result.accountant.empty())
        facts.accountant = result.accountant;
    int count = 0;
    for (const auto &rep : result.repetitions) {
        if (rep.epsilonPerAgent.size() == 0)
            continue;
        facts.epsilonPerAgent = count == 0 ? rep.epsilonPerAgent : Eigen::VectorXd(facts.epsilonPerAgent + rep.epsilonPerAgent);
        ++count;
        if (!rep.iterations.empty())
            facts.iterations = rep.iterations.back();
    }
    if (count > 0)
        facts.epsilonPerAgent /= count;
    facts.repetitions = count;
    return facts;
}

std::string privacyStatement(const std::string &label, const PrivacyFacts &facts)
{
    std::ostringstream s;
    if (facts.accountant.empty() || facts.epsilonPerAgent.size() == 0) {
        s << "Run \"" << label << "\" has no privacy accountant: it adds no calibrated noise, so it gives no "
             "differential-privacy guarantee; its messages reveal the agents' data.";
        return s.str();
    }
    Eigen::Index worst = 0, best = 0;
    const Eigen::VectorXd &eps = facts.epsilonPerAgent;
    for (Eigen::Index i = 1; i < eps.size(); ++i) {
        if (!(eps[i] <= eps[worst]))
            worst = i;
        if (eps[i] < eps[best])
            best = i;
    }
    s << "Run \"" << label << "\" is accounted by " << facts.accountant << ". ";
    if (!std::isfinite(eps[worst])) {
        s << "After " << facts.iterations << " iterations the cumulative ε of agent " << worst
          << " is unbounded: this run gives no differential-privacy guarantee for it.";
    } else {
        s << "After " << facts.iterations << " iterations (ε counts every message sent in iterations 0.."
          << facts.iterations - 1 << ", DPLab's convention for every accountant) every agent's local data is "
             "protected with cumulative ε ≤ "
          << formatSignificant(eps[worst], 4) << " (the largest, agent " << worst << "; the smallest is "
          << formatSignificant(eps[best], 4) << ", agent " << best << ")";
        if (facts.repetitions > 1)
            s << ", the mean over " << facts.repetitions << " repetitions";
        s << ". ε-differential privacy means that changing one agent's data changes the probability of anything an "
             "eavesdropper sees by at most a factor e^ε.";
    }
    if (!facts.assumptions.empty()) {
        s << " The guarantee rests on: ";
        for (std::size_t k = 0; k < facts.assumptions.size(); ++k)
            s << (k ? "; " : "") << facts.assumptions[k];
        s << ".";
    }
    if (facts.violated.empty()) {
        s << " The theorem's conditions that DPLab checks hold for these parameters.";
    } else {
        s << " The theorem's conditions do NOT all hold, so the guarantee above is not backed by the theorem: ";
        for (std::size_t k = 0; k < facts.violated.size(); ++k)
            s << (k ? "; " : "") << facts.violated[k];
        s << ".";
    }
    return s.str();
}

namespace {

std::string esc(const std::string &t)
{
    return htmlEscape(t);
}

std::string paramRows(const std::vector<ParamSpec> &specs, const Json &values, const std::string &prefix)
{
    std::string out;
    for (const ParamSpec &p : specs) {
        if (!values.is_object() || !values.contains(p.key))
            continue;
        out += "<tr><td>" + esc(prefix + p.key) + "</td><td>" + esc(p.label) + (p.unit.empty() ? "" : " (" + esc(p.unit) + ")")
               + "</td><td>" + esc(formatParamValue(values.at(p.key))) + "</td></tr>\n";
    }
    // Keys the descriptor does not list (should not happen after resolution, but never hide a value).
    if (values.is_object())
        for (auto it = values.begin(); it != values.end(); ++it) {
            bool known = false;
            for (const ParamSpec &p : specs)
                known = known || p.key == it.key();
            if (!known)
                out += "<tr><td>" + esc(prefix + it.key()) + "</td><td></td><td>" + esc(formatParamValue(it.value()))
                       + "</td></tr>\n";
        }
    return out;
}

// Compact one-line summary of a JSON value for the problem table: big arrays become shapes.
std::string summarize(const Json &v)
{
    if (v.is_array()) {
        if (!v.empty() && v.front().is_array())
            return "[" + std::to_string(v.size()) + "×" + std::to_string(v.front().size()) + " matrix]";
        if (v.size() > 12)
            return "[list of " + std::to_string(v.size()) + " values]";
        return formatParamValue(v);
    }
    if (v.is_object()) {
        std::string out = "{";
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += (first ? "" : ", ") + it.key() + ": " + summarize(it.value());
            first = false;
        }
        return out + "}";
    }
    return formatParamValue(v);
}

std::string yesNo(bool b)
{
    return b ? "yes" : "no";
}

// "metropolis", "uniform", "matrix (explicit)", … with the scheme's own parameters.
std::string schemeText(const Json &spec)
{
    if (!spec.is_object())
        return formatParamValue(spec);
    std::string text = spec.value("scheme", std::string("?"));
    if (text == "matrix")
        return "explicit matrix";
    std::string extra;
    for (auto it = spec.begin(); it != spec.end(); ++it)
        if (it.key() != "scheme")
            extra += (extra.empty() ? "" : ", ") + it.key() + " = " + formatParamValue(it.value());
    return extra.empty() ? text : text + " (" + extra + ")";
}

std::string weightFactsRow(const std::string &runs, const std::string &what, const Eigen::MatrixXd &w)
{
    const WeightFacts f = analyseWeights(w);
    std::string props;
    props += f.rowStochastic ? "row-stochastic" : "not row-stochastic";
    props += f.columnStochastic ? ", column-stochastic" : ", not column-stochastic";
    props += f.symmetric ? ", symmetric" : "";
    if (f.symmetric)
        props += f.psd ? ", PSD" : ", not PSD";
    return "<tr><td>" + esc(runs) + "</td><td>" + esc(what) + "</td><td>" + esc(props) + "</td><td>"
           + formatSignificant(f.sigma2, 4) + "</td><td>" + formatSignificant(f.spectralGap, 4) + "</td><td>"
           + formatSignificant(f.consensusRate, 4) + "</td></tr>\n";
}

std::string imageHtml(const ReportImage &image)
{
    // The caption above its picture: Qt's PDF layout leaves a band under each picture, and a
    // caption below it read as the next picture's.
    std::string out = "<p align=\"center\"><i>" + esc(image.caption) + "</i><br><img src=\"" + esc(image.src) + "\"";
    if (image.width > 0)
        out += " width=\"" + std::to_string(image.width) + "\"";
    if (image.height > 0)
        out += " height=\"" + std::to_string(image.height) + "\"";
    out += " alt=\"" + esc(image.caption) + "\"></p>\n";
    return out;
}

std::string statusText(const RunResult &run)
{
    const RunStatus status = run.status();
    if (status != RunStatus::Diverged)
        return runStatusName(status);
    long long at = -1;
    for (const auto &rep : run.repetitions)
        if (rep.divergedAt >= 0 && (at < 0 || rep.divergedAt < at))
            at = rep.divergedAt;
    return "diverged at " + std::to_string(at);
}

} // namespace

std::string reportHtml(const Experiment &experiment, const ExperimentResult &result,
                       const std::vector<ReportImage> &images, const ReportInfo &info)
{
    const std::string version = info.version.empty() ? std::string(dplabVersion()) : info.version;
    const std::string title = experiment.name.empty() ? std::string("DPLab experiment") : experiment.name;
    std::string h;
    h += "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>" + esc(title) + " — DPLab run report</title>\n";
    h += "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto;line-height:1.35}"
         "table{border-collapse:collapse;margin:0.4em 0}td,th{border:1px solid #999;padding:2px 6px;text-align:left;"
         "vertical-align:top}th{background:#eee}h2{border-bottom:1px solid #ccc;margin-top:1.2em}"
         ".privacy{background:#f3f7ff;border-left:4px solid #36c;padding:4px 8px}"
         ".warn{color:#a40}</style>\n</head><body>\n";
    h += "<h1>" + esc(title) + "</h1>\n";
    h += "<p>DPLab run report · DPLab " + esc(version) + (info.date.empty() ? "" : " · " + esc(info.date)) + "<br>\n";
    h += "Experiment \"" + esc(experiment.name) + "\", seed " + std::to_string(experiment.seed) + ", "
         + std::to_string(experiment.iterations) + " iterations, " + std::to_string(experiment.repetitions)
         + " repetition(s), " + std::to_string(experiment.runs.size()) + " run(s)";
    if (experiment.sweep)
        h += ", sweep of " + esc(experiment.sweep->parameter) + " over " + std::to_string(experiment.sweep->values.size())
             + " values";
    h += ".</p>\n";
    if (!experiment.description.empty())
        h += "<p>" + esc(experiment.description) + "</p>\n";

    // --- graph ---
    const Graph &g = experiment.graph;
    const Connectivity conn = analyseConnectivity(g);
    h += "<h2>Graph</h2>\n";
    for (const auto &image : images)
        if (image.id == "graph")
            h += imageHtml(image);
    h += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
    h += "<tr><td>agents n</td><td>" + std::to_string(g.nodeCount()) + "</td></tr>\n";
    h += "<tr><td>edges</td><td>" + std::to_string(g.edgeCount()) + "</td></tr>\n";
    h += "<tr><td>directed</td><td>" + yesNo(g.isDirected()) + "</td></tr>\n";
    h += "<tr><td>connectivity</td><td>"
         + esc(conn.connected ? (g.isDirected() ? "strongly connected" : "connected") : conn.message) + "</td></tr>\n";
    if (experiment.graphJson.contains("generator"))
        h += "<tr><td>generator</td><td>" + esc(summarize(experiment.graphJson.at("generator"))) + "</td></tr>\n";
    h += "</table>\n";
    // Weights: one row per distinct weight specification used by the runs.
    h += "<p>Weight matrices (σ₂ = second largest singular value, spectral gap = 1 − σ₂, ρ = ρ(W − 11ᵀ/n)):</p>\n";
    h += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr><th>runs</th><th>matrix · scheme</th>"
         "<th>properties</th><th>σ₂</th><th>spectral gap</th><th>ρ</th></tr>\n";
    std::vector<std::string> seen;
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &run = experiment.runs[r];
        const std::string key = run.weights.dump();
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            continue;
        seen.push_back(key);
        std::string who;
        for (std::size_t q = 0; q < experiment.runs.size(); ++q)
            if (experiment.runs[q].weights.dump() == key)
                who += (who.empty() ? "" : ", ") + experiment.runs[q].label;
        if (run.W.size() > 0)
            h += weightFactsRow(who, "W: " + schemeText(run.weights), run.W);
        if (run.R.size() > 0)
            h += weightFactsRow(who, "R (row): " + schemeText(run.weights.value("row", Json())), run.R);
        if (run.C.size() > 0)
            h += weightFactsRow(who, "C (column): " + schemeText(run.weights.value("column", Json())), run.C);
    }
    h += "</table>\n";

    // --- problem ---
    h += "<h2>Problem and data</h2>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
    const Json described = experiment.problem ? experiment.problem->describe() : Json::object();
    std::set<std::string> shown;
    for (const Json *source : {&experiment.problemJson, &described}) {
        if (!source->is_object())
            continue;
        for (auto it = source->begin(); it != source->end(); ++it) {
            if (shown.count(it.key()))
                continue;
            shown.insert(it.key());
            h += "<tr><td>" + esc(it.key()) + "</td><td>" + esc(summarize(it.value())) + "</td></tr>\n";
        }
    }
    h += "</table>\n";
    if (!result.points.empty() && result.points.front().reference) {
        const Reference &ref = *result.points.front().reference;
        h += "<p>Reference optimum by " + esc(ref.method) + ": F* = " + formatSignificant(ref.value, 8) + ", ‖∇F(x*)‖ = "
             + formatSignificant(ref.gradientNorm, 3) + ".</p>\n";
    }

    // --- runs ---
    const PointResult *lastPoint = result.points.empty() ? nullptr : &result.points.back();
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &run = experiment.runs[r];
        const AlgorithmDescriptor &d = *run.algorithm;
        h += "<h2>Run " + std::to_string(r + 1) + ": " + esc(run.label) + "</h2>\n";
        h += "<p>Algorithm <b>" + esc(d.name) + "</b> (" + esc(d.id) + ")"
             + (d.reference.empty() ? "" : ", " + esc(d.reference)) + ".</p>\n";
        h += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr><th>key</th><th>parameter</th><th>value</th></tr>\n";
        h += paramRows(d.params, run.params, "params.");
        h += paramRows(d.privacyParams, run.privacy, "privacy.");
        h += "<tr><td>compressor</td><td></td><td>" + esc(formatParamValue(run.compressor)) + "</td></tr>\n";
        h += "<tr><td>init</td><td></td><td>" + esc(summarize(run.init)) + "</td></tr>\n";
        h += "</table>\n";
        // Privacy statement of the run (last sweep point: the one most sweeps vary privacy over).
        const RunResult *rr = lastPoint && r < lastPoint->runs.size() ? &lastPoint->runs[r] : nullptr;
        std::string statement;
        if (rr) {
            auto facts = privacyFacts(experiment, static_cast<int>(r), *rr);
            statement = facts ? privacyStatement(run.label, *facts)
                              : "Run \"" + run.label + "\": the privacy facts could not be collected (" + facts.error().toString() + ").";
        } else {
            statement = "Run \"" + run.label + "\" produced no result, so there is no privacy statement.";
        }
        h += "<h3>Privacy guarantee</h3>\n";
        if (experiment.sweep && result.points.size() > 1)
            h += "<p><i>At the last sweep value " + esc(experiment.sweep->parameter) + " = "
                 + esc(formatParamValue(lastPoint->value)) + ".</i></p>\n";
        h += "<p class=\"privacy\">" + esc(statement) + "</p>\n";
    }

    // --- plots ---
    bool anyPlot = false;
    for (const auto &image : images)
        if (image.id != "graph") {
            if (!anyPlot)
                h += "<h2>Plots</h2>\n<p>Mean over repetitions, with a band of ± one standard deviation when there are several.</p>\n";
            anyPlot = true;
            h += imageHtml(image);
        }

    // --- final values ---
    const auto columns = metricColumns(result);
    auto cellText = [](const RunResult &run, const std::string &metric) {
        auto it = std::find(run.metricNames.begin(), run.metricNames.end(), metric);
        if (it == run.metricNames.end())
            return std::string();
        const MetricStats s = finalMetricStats(run, static_cast<int>(it - run.metricNames.begin()));
        if (s.count == 0)
            return std::string();
        return formatSignificant(s.mean, 4) + (s.count > 1 ? " ± " + formatSignificant(s.std, 2) : "");
    };
    h += "<h2>Final values</h2>\n<p>Last recorded value, mean ± standard deviation over repetitions.</p>\n";
    h += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
    if (!experiment.sweep && !result.points.empty()) {
        // One column per run, one row per metric: narrow enough for a page.
        const PointResult &p = result.points.front();
        h += "<tr><th>metric</th>";
        for (const auto &run : p.runs)
            h += "<th>" + esc(run.label) + "</th>";
        h += "</tr>\n<tr><td>status</td>";
        for (const auto &run : p.runs)
            h += "<td>" + esc(statusText(run)) + "</td>";
        h += "</tr>\n";
        for (const auto &c : columns) {
            h += "<tr><td>" + esc(c) + "</td>";
            for (const auto &run : p.runs)
                h += "<td>" + esc(cellText(run, c)) + "</td>";
            h += "</tr>\n";
        }
    } else {
        h += "<tr><th>" + esc(experiment.sweep ? experiment.sweep->parameter : std::string("value"))
             + "</th><th>run</th><th>status</th>";
        for (const auto &c : columns)
            h += "<th>" + esc(c) + "</th>";
        h += "</tr>\n";
        for (const auto &p : result.points)
            for (const auto &run : p.runs) {
                h += "<tr><td>" + esc(formatParamValue(p.value)) + "</td><td>" + esc(run.label) + "</td><td>"
                     + esc(statusText(run)) + "</td>";
                for (const auto &c : columns)
                    h += "<td>" + esc(cellText(run, c)) + "</td>";
                h += "</tr>\n";
            }
    }
    h += "</table>\n";

    // --- warnings ---
    h += "<h2>Warnings</h2>\n";
    std::vector<std::string> warnings;
    for (const auto &p : result.points)
        for (const auto &run : p.runs) {
            for (const auto &w : run.warnings) {
                const std::string line = run.label + ": " + w;
                if (std::find(warnings.begin(), warnings.end(), line) == warnings.end())
                    warnings.push_back(line);
            }
            if (run.status() == RunStatus::Diverged) {
                const std::string line = run.label + ": " + statusText(run)
                                         + (experiment.sweep ? " (at " + formatParamValue(p.value) + ")" : "");
                warnings.push_back(line);
            }
        }
    if (result.cancelled)
        warnings.push_back("The run was stopped before the end: the values are partial.");
    if (warnings.empty()) {
        h += "<p>None.</p>\n";
    } else {
        h += "<ul>\n";
        for (const auto &w : warnings)
            h += "<li class=\"warn\">" + esc(w) + "</li>\n";
        h += "</ul>\n";
    }

    // --- reproduce ---
    h += "<h2>How to reproduce</h2>\n";
    h += "<p>The resolved experiment (every default filled in, seed " + std::to_string(experiment.seed)
         + ") is written next to this report as <b>" + esc(info.experimentFile) + "</b>";
    if (!info.overrides.empty())
        h += "; it already contains the command-line overrides (" + esc(info.overrides) + ")";
    h += ". The same file and seed give bit-identical numbers at any thread count:</p>\n";
    h += "<pre>dplab-cli run " + esc(info.experimentFile) + " --out results\ndplab-cli report " + esc(info.experimentFile)
         + " --out report</pre>\n";
    h += "<p>or open it in the lab window (File ▸ Open) and press Run.</p>\n";
    h += "</body></html>\n";
    return h;
}

} // namespace dplab
