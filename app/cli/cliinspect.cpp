// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliinspect.h"

#include "clicommon.h"

#include "dplab/algo/algorithm.h"
#include "dplab/common/files.h"
#include "dplab/common/jsonmatrix.h"
#include "dplab/common/limits.h"
#include "dplab/common/numberformat.h"
#include "dplab/compress/compressor.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/problem.h"
#include "dplab/teaching/theory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace dplab::cli {

namespace {

/** Prints the theorem-condition warnings of every run (they come from a reset algorithm, so the
 *  experiment must be built) and the steady-state bounds its papers state for it (the Theory
 *  tab's flat dashed lines). */
Status printWarnings(const std::string &file, const Experiment &experiment, const std::string &prefix)
{
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &spec = experiment.runs[r];
        const RunContext ctx = makeRunContext(experiment, static_cast<int>(r), 0);
        auto algorithm = spec.algorithm->create();
        if (Status s = algorithm->reset(ctx); !s) {
            Error err = s.error();
            err.where = file + ": " + prefix + joinPath(indexPath("runs", r), err.where);
            return err;
        }
        for (const auto &w : algorithm->warnings())
            std::cerr << "warning: " << prefix << "runs[" << r << "] (" << spec.label << "): " << w << "\n";
        for (const TheoryCurve &curve : theoryRates(spec, experiment.problem.get())) {
            if (!curve.level)
                continue;
            std::cout << "  theory: " << prefix << "runs[" << r << "] (" << spec.label << "): ";
            if (curve.why.empty())
                std::cout << curve.label << " on " << curve.metric;
            else
                std::cout << "no " << curve.label << ": " << curve.why;
            std::cout << " (" << curve.citation << ")\n";
        }
    }
    return {};
}

void printDescriptors(const std::string &what, const std::vector<Json> &items, bool json)
{
    if (json) {
        std::cout << Json(items).dump(2) << "\n";
        return;
    }
    for (const auto &item : items) {
        std::cout << item.at("id").get<std::string>() << "  —  " << item.at("name").get<std::string>() << "\n";
        if (item.contains("graph"))
            std::cout << "    graph: " << item.at("graph").get<std::string>() << "\n";
        if (!item.at("reference").get<std::string>().empty())
            std::cout << "    reference: " << item.at("reference").get<std::string>() << "\n";
        auto printParams = [](const Json &params, const char *title) {
            for (const auto &p : params)
                std::cout << "    " << title << p.at("key").get<std::string>()
                          << (p.value("optional", false) ? std::string(" (optional: absent or null = not set)")
                                                         : " (default " + p.at("default").dump() + ")")
                          << ": " << p.at("help").get<std::string>() << "\n";
        };
        printParams(item.at("params"), "");
        if (item.contains("privacy_params"))
            printParams(item.at("privacy_params"), "privacy.");
        if (item.contains("theory"))
            for (const auto &rate : item.at("theory"))
                std::cout << "    stated rate: " << rate.at("label").get<std::string>() << " for "
                          << rate.at("metric").get<std::string>() << " ("
                          << rate.at("citation").get<std::string>() << ")\n";
        if (item.contains("attack") && !item.at("attack").is_null())
            std::cout << "    eavesdropper: reconstructs an agent's gradients from its "
                      << item.at("attack").at("decision_channel").get<std::string>()
                      << (item.at("attack").contains("tracker_channel")
                              ? " and " + item.at("attack").at("tracker_channel").get<std::string>()
                              : std::string())
                      << " messages\n";
    }
    (void)what;
}

/** What an eavesdropper on one agent reconstructs (null: no attack modelled). */
Json attackSurfaceToJson(const AttackSurface &attack)
{
    switch (attack.kind) {
    case AttackSurface::Kind::None:
        return nullptr;
    case AttackSurface::Kind::DecisionStep:
        return Json{{"kind", "decision-step"}, {"decision_channel", attack.decisionChannel},
                    {"step_param", attack.stepParam}};
    case AttackSurface::Kind::TrackerDifference:
    case AttackSurface::Kind::StepInsideTracker:
        return Json{{"kind", attack.kind == AttackSurface::Kind::TrackerDifference ? "tracker-difference"
                                                                                     : "step-inside-tracker"},
                    {"decision_channel", attack.decisionChannel},
                    {"tracker_channel", attack.trackerChannel},
                    {"step_param", attack.stepParam}};
    }
    return nullptr;
}

/** A stated rate: the metric it overlays, its form and where the paper states it. */
Json theoryRateToJson(const TheoryRate &rate)
{
    Json j{{"metric", rate.metric}, {"label", rate.label}, {"citation", rate.citation}};
    if (rate.kind == TheoryRate::Kind::Power) {
        j["kind"] = "power";
        j["exponent"] = rate.exponent;
        if (!rate.scheduleParam.empty()) {
            j["schedule_param"] = rate.scheduleParam;
            j["schedule_factor"] = rate.scheduleFactor;
        }
    } else if (rate.kind == TheoryRate::Kind::Linear) {
        j["kind"] = "linear";
        j["rate_power"] = rate.ratePower;
    } else {
        j["kind"] = "level"; // evaluated per experiment: `validate` prints it
    }
    if (!rate.whenParam.empty())
        j["when"] = Json{{rate.whenParam, rate.whenValue}};
    return j;
}

Json weightFactsJson(const Eigen::MatrixXd &w)
{
    const WeightFacts f = analyseWeights(w);
    return Json{{"row_stochastic", f.rowStochastic}, {"column_stochastic", f.columnStochastic},
                {"symmetric", f.symmetric},          {"psd", f.psd},
                {"spectral_radius", f.spectralRadius}, {"sigma2", f.sigma2},
                {"spectral_gap", f.spectralGap},     {"consensus_rate", f.consensusRate}};
}

} // namespace

int commandValidate(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--deep"}, {"--max-memory", "--threads"});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("validate takes one experiment file");
    const std::string &file = args->positional[0];
    const bool deep = args->has("--deep");
    // Resolving checks every run and every sweep point, the data files' headers and the resource
    // estimate; --deep also loads the data (every point) and resets every algorithm.
    auto experiment = loadWithOverrides(file, *args, false);
    if (!experiment)
        return reportError(experiment.error());
    // Problems that read no data file and are small are built anyway: their theorem-condition
    // warnings cost nothing.
    const bool cheap = experiment->problemSpec.data.empty() && experiment->problemSpec.bytes <= 64.0 * (1 << 20);
    const bool build = deep || cheap;
    if (build)
        if (auto s = buildExperiment(*experiment); !s) {
            Error err = s.error();
            err.where = file + ": " + err.where;
            return reportError(err);
        }
    std::cout << file << ": ok (" << experiment->runs.size() << " run(s), " << experiment->graph.nodeCount()
              << " agents, dimension ";
    if (experiment->dimension() >= 0)
        std::cout << experiment->dimension();
    else
        std::cout << "set by the data";
    if (experiment->sweep)
        std::cout << ", " << experiment->sweep->values.size() << " sweep points";
    std::cout << ", estimated memory " << formatBytes(experiment->resources.totalBytes()) << ")\n";
    if (!build)
        std::cout << "  data not loaded: `validate --deep` loads it and checks every run's theorem conditions\n";
    if (build)
        if (auto s = printWarnings(file, *experiment, ""); !s)
            return reportError(s.error());
    if (deep && experiment->sweep) {
        for (std::size_t i = 0; i < experiment->sweep->values.size(); ++i) {
            auto point = experimentAtSweepValue(*experiment, experiment->sweep->values[i]);
            if (!point) {
                Error err = point.error();
                err.where = file + ": " + err.where;
                return reportError(err);
            }
            if (auto s = printWarnings(file, *point, indexPath("sweep.values", i) + ": "); !s)
                return reportError(s.error());
        }
    }
    return Success;
}

int commandList(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--json"}, {});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("list takes one of: algorithms, compressors, problems, generators, weights");
    const std::string what = args->positional[0];
    std::vector<Json> items;
    if (what == "algorithms") {
        for (const auto &d : algorithmRegistry()) {
            Json j = descriptorToJson(d);
            j["graph"] = graphKindName(d.graphKind);
            j["weights"] = d.weights == WeightNeeds::Doubly ? "doubly-stochastic W" : "row-stochastic R + column-stochastic C";
            Json privacy = Json::array();
            for (const auto &p : d.privacyParams)
                privacy.push_back(paramSpecToJson(p));
            j["privacy_params"] = privacy;
            j["accepts_compressor"] = d.acceptsCompressor;
            j["needs_online_problem"] = d.needsOnline;
            j["attack"] = attackSurfaceToJson(d.attack);
            Json theory = Json::array();
            for (const auto &rate : d.theory)
                theory.push_back(theoryRateToJson(rate));
            j["theory"] = theory;
            items.push_back(j);
        }
    } else if (what == "compressors" || what == "problems" || what == "generators" || what == "weights") {
        const auto &list = what == "compressors" ? compressorDescriptors()
                           : what == "problems"  ? problemDescriptors()
                           : what == "generators" ? generatorDescriptors()
                                                  : weightSchemeDescriptors();
        for (const auto &d : list)
            items.push_back(descriptorToJson(d));
    } else {
        return usageError("unknown list \"" + what + "\"");
    }
    printDescriptors(what, items, args->has("--json"));
    return Success;
}

int commandGraph(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--json"}, {"--generator", "--nodes", "--weights", "--set", "--seed"});
    if (!args)
        return usageError(args.error().toString());
    if (!args->positional.empty() || !args->has("--generator"))
        return usageError("graph needs --generator TYPE");
    Json spec{{"type", args->value("--generator")}};
    if (args->has("--nodes")) {
        auto nodes = parseInteger(args->value("--nodes"), "--nodes", 1);
        if (!nodes)
            return reportError(nodes.error());
        spec["nodes"] = *nodes;
    }
    if (args->has("--seed")) {
        auto seed = parseInteger(args->value("--seed"), "--seed", 0);
        if (!seed)
            return reportError(seed.error());
        spec["seed"] = *seed;
    }
    if (args->has("--set")) {
        for (const auto &kv : args->options.at("--set")) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos)
                return usageError("--set takes KEY=VALUE, got \"" + kv + "\"");
            auto value = parseJson(kv.substr(eq + 1), "--set " + kv.substr(0, eq));
            spec[kv.substr(0, eq)] = value ? value.value() : Json(kv.substr(eq + 1));
        }
    }
    auto graph = generateGraph(spec, "--generator");
    if (!graph)
        return reportError(graph.error());
    const Connectivity conn = analyseConnectivity(*graph);
    Json out{{"generator", spec},
             {"nodes", graph->nodeCount()},
             {"edges", graph->edgeCount()},
             {"directed", graph->isDirected()},
             {"connected", conn.connected}};
    if (!conn.connected)
        out["connectivity"] = conn.message;
    Json edges = Json::array();
    for (const Edge &e : graph->edges())
        edges.push_back({e.from, e.to});
    out["edge_list"] = edges;

    const std::string scheme = args->has("--weights") ? args->value("--weights")
                               : graph->isDirected() ? "uniform"
                                                     : "metropolis";
    if (graph->isDirected()) {
        auto r = buildWeights(*graph, Json{{"scheme", scheme}}, WeightRole::Row, "--weights");
        if (!r)
            return reportError(r.error());
        auto c = buildWeights(*graph, Json{{"scheme", scheme}}, WeightRole::Column, "--weights");
        if (!c)
            return reportError(c.error());
        out["row"] = Json{{"scheme", scheme}, {"matrix", matrixToJson(*r)}, {"facts", weightFactsJson(*r)},
                          {"left_perron_vector", vectorToJson(leftPerronVector(*r))}};
        out["column"] = Json{{"scheme", scheme}, {"matrix", matrixToJson(*c)}, {"facts", weightFactsJson(*c)},
                             {"right_perron_vector", vectorToJson(rightPerronVector(*c))}};
    } else {
        auto w = buildWeights(*graph, Json{{"scheme", scheme}}, WeightRole::Doubly, "--weights");
        if (!w)
            return reportError(w.error());
        out["weights"] = Json{{"scheme", scheme}, {"matrix", matrixToJson(*w)}, {"facts", weightFactsJson(*w)}};
    }
    if (args->has("--json")) {
        std::cout << out.dump(2) << "\n";
        return Success;
    }
    std::cout << "graph: " << spec.dump() << "\n"
              << "nodes " << graph->nodeCount() << ", edges " << graph->edgeCount() << ", "
              << (graph->isDirected() ? "directed" : "undirected") << ", "
              << (conn.connected ? (graph->isDirected() ? "strongly connected" : "connected") : conn.message) << "\n";
    auto printMatrix = [](const std::string &title, const Json &block) {
        std::cout << title << " (" << block.at("scheme").get<std::string>() << "):\n";
        for (const auto &row : block.at("matrix")) {
            std::cout << " ";
            for (const auto &v : row) {
                char buf[32];
                std::snprintf(buf, sizeof buf, " %8.4f", v.get<double>());
                std::cout << buf;
            }
            std::cout << "\n";
        }
        const Json &f = block.at("facts");
        const double scale = std::max(1.0, f.at("spectral_radius").get<double>());
        std::cout << "  row-stochastic " << (f.at("row_stochastic").get<bool>() ? "yes" : "no") << ", column-stochastic "
                  << (f.at("column_stochastic").get<bool>() ? "yes" : "no") << ", symmetric "
                  << (f.at("symmetric").get<bool>() ? "yes" : "no") << ", PSD " << (f.at("psd").get<bool>() ? "yes" : "no")
                  << "\n  spectral radius " << f.at("spectral_radius").get<double>() << ", sigma2 "
                  << formatRounded(f.at("sigma2").get<double>(), 6, scale) << ", spectral gap "
                  << formatRounded(f.at("spectral_gap").get<double>(), 6, scale) << ", rho(W - 11^T/n) "
                  << formatRounded(f.at("consensus_rate").get<double>(), 6, scale) << "\n";
    };
    // The text is for people: round-off shows as 0 (the --json output keeps every digit).
    auto vectorText = [](const Json &v) {
        double scale = 0.0;
        for (const Json &x : v)
            scale = std::max(scale, std::fabs(x.get<double>()));
        std::string text = "[";
        for (const Json &x : v)
            text += (text.size() > 1 ? "," : "") + formatRounded(x.get<double>(), 6, scale);
        return text + "]";
    };
    if (out.contains("weights")) {
        printMatrix("W", out.at("weights"));
    } else {
        printMatrix("R", out.at("row"));
        std::cout << "  left Perron vector " << vectorText(out.at("row").at("left_perron_vector")) << "\n";
        printMatrix("C", out.at("column"));
        std::cout << "  right Perron vector " << vectorText(out.at("column").at("right_perron_vector")) << "\n";
    }
    return Success;
}

} // namespace dplab::cli
