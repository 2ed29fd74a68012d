// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/report.h"

#include "dplab/common/numberformat.h"

#include "dplab/compress/compressor.h"
#include "dplab/engine/metricnames.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/writers.h"
#include "dplab/graph/analysis.h"
#include "dplab/problem/problem.h"

#include <algorithm>
#include <cassert>
#include <cctype>
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

using Row = std::vector<std::string>;

std::string esc(const std::string &t)
{
    return htmlEscape(t);
}

std::vector<Row> paramRows(const std::vector<ParamSpec> &specs, const Json &values, const std::string &prefix)
{
    std::vector<Row> out;
    for (const ParamSpec &p : specs) {
        if (!values.is_object() || !values.contains(p.key))
            continue;
        out.push_back({prefix + p.key, p.label + (p.unit.empty() ? "" : " (" + p.unit + ")"),
                       formatParamValue(values.at(p.key))});
    }
    // Keys the descriptor does not list (should not happen after resolution, but never hide a value).
    if (values.is_object())
        for (auto it = values.begin(); it != values.end(); ++it) {
            bool known = false;
            for (const ParamSpec &p : specs)
                known = known || p.key == it.key();
            if (!known)
                out.push_back({prefix + it.key(), "", formatParamValue(it.value())});
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

Row weightFactsRow(const std::string &runs, const std::string &what, const Eigen::MatrixXd &w)
{
    const WeightFacts f = analyseWeights(w);
    std::string props;
    props += f.rowStochastic ? "row-stochastic" : "not row-stochastic";
    props += f.columnStochastic ? ", column-stochastic" : ", not column-stochastic";
    props += f.symmetric ? ", symmetric" : "";
    if (f.symmetric)
        props += f.psd ? ", PSD" : ", not PSD";
    const double scale = std::max(1.0, f.spectralRadius); // round-off of σ₂ = 1e-16 is 0
    return {runs, what, props, formatRounded(f.sigma2, 4, scale), formatRounded(f.spectralGap, 4, scale),
            formatRounded(f.consensusRate, 4, scale)};
}

std::string imageHtml(const ReportImage &image)
{
    // The caption above its picture (as in the PDF layout).
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

ReportBlock textBlock(ReportBlock::Kind kind, std::vector<ReportText> text,
                      ReportBlock::Style style = ReportBlock::Style::Normal)
{
    ReportBlock b;
    b.kind = kind;
    b.style = style;
    b.text = std::move(text);
    return b;
}

ReportBlock textBlock(ReportBlock::Kind kind, const std::string &text)
{
    return textBlock(kind, std::vector<ReportText>{{text}});
}

ReportBlock tableBlock(Row header, std::vector<Row> rows)
{
    ReportBlock b;
    b.kind = ReportBlock::Kind::Table;
    b.header = std::move(header);
    b.rows = std::move(rows);
    return b;
}

std::string textHtml(const std::vector<ReportText> &runs)
{
    std::string out;
    for (const ReportText &run : runs) {
        std::string t;
        for (char c : esc(run.text))
            t += c == '\n' ? std::string("<br>\n") : std::string(1, c);
        if (run.bold)
            t = "<b>" + t + "</b>";
        if (run.italic)
            t = "<i>" + t + "</i>";
        out += t;
    }
    return out;
}

/** Title and the experiment in one line (DPLab version, date, seed, sizes, sweep). */
void headerSection(std::vector<ReportBlock> &blocks, const Experiment &experiment, const ReportInfo &info)
{
    using Kind = ReportBlock::Kind;
    const std::string version = info.version.empty() ? std::string(dplabVersion()) : info.version;
    const std::string title = experiment.name.empty() ? std::string("DPLab experiment") : experiment.name;
    blocks.push_back(textBlock(Kind::Title, title));
    std::string header = "DPLab run report · DPLab " + version + (info.date.empty() ? "" : " · " + info.date) + "\n";
    header += "Experiment \"" + experiment.name + "\", seed " + std::to_string(experiment.seed) + ", "
              + std::to_string(experiment.iterations) + " iterations, " + std::to_string(experiment.repetitions)
              + " repetition(s), " + std::to_string(experiment.runs.size()) + " run(s)";
    if (experiment.sweep)
        header += ", sweep of " + experiment.sweep->parameter + " over " + std::to_string(experiment.sweep->values.size())
                  + " values";
    blocks.push_back(textBlock(Kind::Paragraph, header + "."));
}

/** The experiment's own description (after the results: page 1 stays short). */
void descriptionSection(std::vector<ReportBlock> &blocks, const Experiment &experiment)
{
    if (experiment.description.empty())
        return;
    blocks.push_back(textBlock(ReportBlock::Kind::Heading, "About this experiment"));
    blocks.push_back(textBlock(ReportBlock::Kind::Paragraph, experiment.description));
}

/** The graph: its picture, facts, and the weight matrices the runs use. */
void graphSection(std::vector<ReportBlock> &blocks, const Experiment &experiment)
{
    using Kind = ReportBlock::Kind;
    const Graph &g = experiment.graph;
    const Connectivity conn = analyseConnectivity(g);
    blocks.push_back(textBlock(Kind::Heading, "Graph"));
    ReportBlock graphPicture;
    graphPicture.kind = Kind::Pictures;
    graphPicture.group = "graph";
    blocks.push_back(graphPicture);
    std::vector<Row> facts = {{"agents n", std::to_string(g.nodeCount())},
                              {"edges", std::to_string(g.edgeCount())},
                              {"directed", yesNo(g.isDirected())},
                              {"connectivity", conn.connected ? (g.isDirected() ? "strongly connected" : "connected") : conn.message}};
    if (experiment.graphJson.contains("generator"))
        facts.push_back({"generator", summarize(experiment.graphJson.at("generator"))});
    blocks.push_back(tableBlock({}, facts));
    // Weights: one row per distinct weight specification used by the runs.
    blocks.push_back(textBlock(
        Kind::Paragraph,
        "Weight matrices (σ₂ = second largest singular value, spectral gap = 1 − σ₂, ρ = ρ(W − 11ᵀ/n)):"));
    std::vector<Row> weights;
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
            weights.push_back(weightFactsRow(who, "W: " + schemeText(run.weights), run.W));
        if (run.R.size() > 0)
            weights.push_back(weightFactsRow(who, "R (row): " + schemeText(run.weights.value("row", Json())), run.R));
        if (run.C.size() > 0)
            weights.push_back(weightFactsRow(who, "C (column): " + schemeText(run.weights.value("column", Json())), run.C));
    }
    blocks.push_back(tableBlock({"runs", "matrix · scheme", "properties", "σ₂", "spectral gap", "ρ"}, weights));
}

/** The problem's settings and what it says of itself, and the reference optimum. */
void problemSection(std::vector<ReportBlock> &blocks, const Experiment &experiment, const ExperimentResult &result)
{
    using Kind = ReportBlock::Kind;
    blocks.push_back(textBlock(Kind::Heading, "Problem and data"));
    std::vector<Row> problem;
    const Json described = experiment.problem ? experiment.problem->describe() : Json::object();
    std::set<std::string> shown;
    for (const Json *source : {&experiment.problemJson, &described}) {
        if (!source->is_object())
            continue;
        for (auto it = source->begin(); it != source->end(); ++it) {
            if (shown.count(it.key()))
                continue;
            shown.insert(it.key());
            problem.push_back({it.key(), summarize(it.value())});
        }
    }
    blocks.push_back(tableBlock({}, problem));
    if (!result.points.empty() && result.points.front().reference) {
        const Reference &ref = *result.points.front().reference;
        blocks.push_back(textBlock(Kind::Paragraph, "Reference optimum by " + ref.method + ": F* = "
                                                        + formatSignificant(ref.value, 8) + ", ‖∇F(x*)‖ = "
                                                        + formatSignificant(ref.gradientNorm, 3) + "."));
    }
}

/** Run r: its algorithm and every parameter (its privacy statement is in the summary). */
void runSection(std::vector<ReportBlock> &blocks, const Experiment &experiment, std::size_t r)
{
    using Kind = ReportBlock::Kind;
    const RunSpec &run = experiment.runs[r];
    const AlgorithmDescriptor &d = *run.algorithm;
    blocks.push_back(textBlock(Kind::Heading, "Run " + std::to_string(r + 1) + ": " + run.label));
    blocks.push_back(textBlock(Kind::Paragraph, {{"Algorithm "},
                                                 {d.name, true},
                                                 {" (" + d.id + ")" + (d.reference.empty() ? "" : ", " + d.reference) + "."}}));
    std::vector<Row> params = paramRows(d.params, run.params, "params.");
    for (Row &row : paramRows(d.privacyParams, run.privacy, "privacy."))
        params.push_back(std::move(row));
    params.push_back({"compressor", "", formatParamValue(run.compressor)});
    params.push_back({"init", "", summarize(run.init)});
    blocks.push_back(tableBlock({"key", "parameter", "value"}, params));
}

/** "distance to optimum" (as in "final distance to optimum"): the metric's name in words
 *  (metricDisplayName, the window's too), lower case. */
std::string metricWords(const std::string &metric)
{
    std::string words = metricDisplayName(metric);
    if (!words.empty() && words != metric)
        words[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(words[0])));
    return words;
}

/** "mean ± std" of the last recorded value of `metric` ("" when the run does not record it). */
std::string finalValueText(const RunResult &run, const std::string &metric)
{
    auto it = std::find(run.metricNames.begin(), run.metricNames.end(), metric);
    if (it == run.metricNames.end())
        return std::string();
    const MetricStats s = finalMetricStats(run, static_cast<int>(it - run.metricNames.begin()));
    if (s.count == 0)
        return std::string();
    return formatSignificant(s.mean, 4)
           + (s.count > 1 ? " ± " + formatSignificant(spreadAboveRoundOff(s.mean, s.std), 2) : "");
}

/** Page 1: what was run (one row per run: algorithm, status), the headline result (the final
 *  value of the first accuracy metric the runs record, and the largest cumulative ε), and every
 *  run's privacy statement (at the last sweep point: the one most sweeps vary privacy over). */
void summarySection(std::vector<ReportBlock> &blocks, const Experiment &experiment, const ExperimentResult &result)
{
    using Kind = ReportBlock::Kind;
    using Style = ReportBlock::Style;
    const PointResult *lastPoint = result.points.empty() ? nullptr : &result.points.back();
    const bool sweep = experiment.sweep && result.points.size() > 1;
    std::string headline;
    if (lastPoint)
        for (const char *m : {metric::DistanceToOptimum, metric::OptimalityGap, metric::GradientNorm, metric::Regret,
                              metric::AverageLoss, metric::TestAccuracy, metric::TrainAccuracy, metric::Residual,
                              metric::ConsensusError}) {
            for (const RunResult &run : lastPoint->runs)
                if (std::find(run.metricNames.begin(), run.metricNames.end(), m) != run.metricNames.end())
                    headline = m;
            if (!headline.empty())
                break;
        }
    blocks.push_back(textBlock(Kind::Heading, "Summary"));
    std::string intro = "What was run and where it ended";
    if (sweep)
        intro += " at the last sweep value " + experiment.sweep->parameter + " = " + formatParamValue(lastPoint->value);
    intro += " (last recorded value, mean ± standard deviation over repetitions; ε the largest over agents).";
    blocks.push_back(textBlock(Kind::Paragraph, intro));
    Row head = {"run", "algorithm", "status"};
    if (!headline.empty())
        head.push_back("final " + metricWords(headline));
    head.push_back("cumulative ε");
    std::vector<Row> rows;
    std::vector<std::string> statements;
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &spec = experiment.runs[r];
        const RunResult *rr = lastPoint && r < lastPoint->runs.size() ? &lastPoint->runs[r] : nullptr;
        Row row = {spec.label, spec.algorithm->name, rr ? statusText(*rr) : std::string("no result")};
        if (!headline.empty())
            row.push_back(rr ? finalValueText(*rr, headline) : std::string());
        std::string epsilon = "—";
        if (rr) {
            auto facts = privacyFacts(experiment, static_cast<int>(r), *rr);
            if (facts) {
                statements.push_back(privacyStatement(spec.label, *facts));
                if (!facts->accountant.empty() && facts->epsilonPerAgent.size() > 0)
                    epsilon = formatSignificant(facts->epsilonPerAgent.maxCoeff(), 4);
                else
                    epsilon = "no guarantee";
            } else {
                statements.push_back("Run \"" + spec.label + "\": the privacy facts could not be collected ("
                                     + facts.error().toString() + ").");
            }
        } else {
            statements.push_back("Run \"" + spec.label + "\" produced no result, so there is no privacy statement.");
        }
        row.push_back(epsilon);
        rows.push_back(std::move(row));
    }
    blocks.push_back(tableBlock(std::move(head), std::move(rows)));
    blocks.push_back(textBlock(Kind::Subheading, "Privacy guarantee"));
    for (const std::string &statement : statements)
        blocks.push_back(textBlock(Kind::Paragraph, {{statement}}, Style::Privacy));
}

/** Where the plots go (the pictures are drawn by the caller). */
void plotsSection(std::vector<ReportBlock> &blocks)
{
    using Kind = ReportBlock::Kind;
    ReportBlock plots;
    plots.kind = Kind::Pictures;
    plots.group = "plots";
    plots.heading = "Plots";
    plots.note = "Mean over repetitions, with a band of ± one standard deviation when there are several.";
    blocks.push_back(plots);
}

/** Final values: mean ± standard deviation of the last recorded value, one column per run (one
 *  row per point and run for a sweep). */
void finalValuesSection(std::vector<ReportBlock> &blocks, const Experiment &experiment, const ExperimentResult &result)
{
    using Kind = ReportBlock::Kind;
    const auto columns = metricColumns(result);
    const auto cellText = finalValueText;
    blocks.push_back(textBlock(Kind::Heading, "Final values"));
    blocks.push_back(textBlock(Kind::Paragraph, "Last recorded value, mean ± standard deviation over repetitions."));
    if (!experiment.sweep && !result.points.empty()) {
        // One column per run, one row per metric: narrow enough for a page.
        const PointResult &p = result.points.front();
        Row head = {"metric"};
        Row status = {"status"};
        for (const auto &run : p.runs) {
            head.push_back(run.label);
            status.push_back(statusText(run));
        }
        std::vector<Row> rows = {status};
        for (const auto &c : columns) {
            Row row = {metricDisplayName(c)};
            for (const auto &run : p.runs)
                row.push_back(cellText(run, c));
            rows.push_back(std::move(row));
        }
        blocks.push_back(tableBlock(std::move(head), std::move(rows)));
    } else {
        Row head = {experiment.sweep ? experiment.sweep->parameter : std::string("value"), "run", "status"};
        for (const auto &c : columns)
            head.push_back(metricDisplayName(c));
        std::vector<Row> rows;
        for (const auto &p : result.points)
            for (const auto &run : p.runs) {
                Row row = {formatParamValue(p.value), run.label, statusText(run)};
                for (const auto &c : columns)
                    row.push_back(cellText(run, c));
                rows.push_back(std::move(row));
            }
        blocks.push_back(tableBlock(std::move(head), std::move(rows)));
    }
}

/** The runs' warnings and divergences, once each. */
void warningsSection(std::vector<ReportBlock> &blocks, const Experiment &experiment, const ExperimentResult &result)
{
    using Kind = ReportBlock::Kind;
    using Style = ReportBlock::Style;
    blocks.push_back(textBlock(Kind::Heading, "Warnings"));
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
        blocks.push_back(textBlock(Kind::Paragraph, "None."));
    } else {
        ReportBlock list;
        list.kind = Kind::List;
        list.style = Style::Warning;
        for (const auto &w : warnings)
            list.rows.push_back({w});
        blocks.push_back(std::move(list));
    }
}

/** How to reproduce: the resolved experiment file and the commands. */
void reproduceSection(std::vector<ReportBlock> &blocks, const Experiment &experiment, const ReportInfo &info)
{
    using Kind = ReportBlock::Kind;
    blocks.push_back(textBlock(Kind::Heading, "How to reproduce"));
    std::vector<ReportText> reproduce = {
        {"The resolved experiment (every default filled in, seed " + std::to_string(experiment.seed)
         + ") is written next to this report as "},
        {info.experimentFile, true}};
    std::string tail;
    if (!info.overrides.empty())
        tail += "; it already contains the command-line overrides (" + info.overrides + ")";
    tail += ". The same file and seed give bit-identical numbers at any thread count:";
    reproduce.push_back({tail});
    blocks.push_back(textBlock(Kind::Paragraph, reproduce));
    blocks.push_back(textBlock(Kind::Code, "dplab-cli run " + info.experimentFile + " --out results\ndplab-cli report "
                                               + info.experimentFile + " --out report"));
    blocks.push_back(textBlock(Kind::Paragraph, "or open it in the lab window (File ▸ Open) and press Run."));
}

} // namespace

std::string ReportBlock::plainText() const
{
    std::string out;
    for (const ReportText &run : text)
        out += run.text;
    return out;
}

std::vector<ReportBlock> reportBlocks(const Experiment &experiment, const ExperimentResult &result, const ReportInfo &info)
{
    std::vector<ReportBlock> blocks;
    // Page 1 says what was run, how it ended and what it guarantees; the details follow.
    headerSection(blocks, experiment, info);
    summarySection(blocks, experiment, result);
    ReportBlock pageBreak;
    pageBreak.kind = ReportBlock::Kind::PageBreak;
    blocks.push_back(pageBreak);
    plotsSection(blocks);
    finalValuesSection(blocks, experiment, result);
    warningsSection(blocks, experiment, result);
    descriptionSection(blocks, experiment);
    graphSection(blocks, experiment);
    problemSection(blocks, experiment, result);
    for (std::size_t r = 0; r < experiment.runs.size(); ++r)
        runSection(blocks, experiment, r);
    reproduceSection(blocks, experiment, info);
    return blocks;
}

std::string reportHtml(const std::vector<ReportBlock> &blocks, const std::vector<ReportImage> &images,
                       const std::string &title)
{
    using Kind = ReportBlock::Kind;
    using Style = ReportBlock::Style;
    std::string h;
    h += "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>" + esc(title) + " — DPLab run report</title>\n";
    h += "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto;line-height:1.35}"
         "table{border-collapse:collapse;margin:0.4em 0}td,th{border:1px solid #999;padding:2px 6px;text-align:left;"
         "vertical-align:top}th{background:#eee}h2{border-bottom:1px solid #ccc;margin-top:1.2em}"
         ".privacy{background:#f3f7ff;border-left:4px solid #36c;padding:4px 8px}"
         ".warn{color:#a40}</style>\n</head><body>\n";
    for (const ReportBlock &b : blocks) {
        switch (b.kind) {
        case Kind::Title:
            h += "<h1>" + textHtml(b.text) + "</h1>\n";
            break;
        case Kind::Heading:
            h += "<h2>" + textHtml(b.text) + "</h2>\n";
            break;
        case Kind::Subheading:
            h += "<h3>" + textHtml(b.text) + "</h3>\n";
            break;
        case Kind::Paragraph:
            h += std::string(b.style == Style::Privacy ? "<p class=\"privacy\">" : "<p>") + textHtml(b.text) + "</p>\n";
            break;
        case Kind::PageBreak:
            break; // the HTML is one page
        case Kind::Code:
            h += "<pre>" + esc(b.plainText()) + "</pre>\n";
            break;
        case Kind::List:
            h += "<ul>\n";
            for (const auto &item : b.rows)
                h += std::string(b.style == Style::Warning ? "<li class=\"warn\">" : "<li>")
                     + esc(item.empty() ? std::string() : item.front()) + "</li>\n";
            h += "</ul>\n";
            break;
        case Kind::Table:
            h += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
            if (!b.header.empty()) {
                h += "<tr>";
                for (const auto &cell : b.header)
                    h += "<th>" + esc(cell) + "</th>";
                h += "</tr>\n";
            }
            for (const auto &row : b.rows) {
                h += "<tr>";
                for (const auto &cell : row)
                    h += "<td>" + esc(cell) + "</td>";
                h += "</tr>\n";
            }
            h += "</table>\n";
            break;
        case Kind::Pictures: {
            bool any = false;
            for (const auto &image : images) {
                if ((image.id == "graph") != (b.group == "graph"))
                    continue;
                if (!any && !b.heading.empty())
                    h += "<h2>" + esc(b.heading) + "</h2>\n" + (b.note.empty() ? "" : "<p>" + esc(b.note) + "</p>\n");
                any = true;
                h += imageHtml(image);
            }
            break;
        }
        }
    }
    h += "</body></html>\n";
    return h;
}

std::string reportHtml(const Experiment &experiment, const ExperimentResult &result,
                       const std::vector<ReportImage> &images, const ReportInfo &info)
{
    const std::string title = experiment.name.empty() ? std::string("DPLab experiment") : experiment.name;
    return reportHtml(reportBlocks(experiment, result, info), images, title);
}

} // namespace dplab
