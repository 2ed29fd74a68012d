// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "clifrontier.h"

#ifdef DPLAB_CLI_REPORT
#include "clireport.h"
#endif

#include "dplab/algo/algorithm.h"
#include "dplab/common/files.h"
#include "dplab/compress/compressor.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/problem.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace dplab::cli {

namespace {

const char *const kUsage =
    "usage:\n"
    "  dplab-cli run EXPERIMENT.json --out DIR [--seed S] [--iterations N] [--repetitions R] [--trace] [--threads K] [--quiet]\n"
    "  dplab-cli validate EXPERIMENT.json\n"
    "  dplab-cli report EXPERIMENT.json --out DIR [--seed S] [--iterations N] [--repetitions R] [--threads K] [--quiet]\n"
    "  dplab-cli list algorithms|compressors|problems|generators|weights [--json]\n"
    "  dplab-cli graph --generator TYPE --nodes N [--weights SCHEME] [--set KEY=VALUE]... [--json]\n"
    "exit codes: 0 success, 2 invalid input, 3 a run diverged, 1 anything else\n";

int usageError(const std::string &message)
{
    std::cerr << "dplab-cli: " << message << "\n" << kUsage;
    return InvalidInput;
}

int reportError(const Error &error)
{
    std::cerr << "dplab-cli: " << error.toString() << "\n";
    switch (error.code) {
    case ErrorCode::InvalidArgument:
    case ErrorCode::NotFound:
    case ErrorCode::ParseError:
    case ErrorCode::Unsupported:
        return InvalidInput;
    default:
        return Failure;
    }
}

/** Command-line arguments: positionals and --options (with or without values). */
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>> options;
    bool has(const std::string &key) const { return options.count(key) > 0; }
    std::string value(const std::string &key) const
    {
        auto it = options.find(key);
        return it == options.end() || it->second.empty() ? std::string() : it->second.back();
    }
};

Result<Args> parseArgs(int argc, char **argv, int first, const std::vector<std::string> &flags,
                       const std::vector<std::string> &valued)
{
    Args args;
    for (int i = first; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--", 0) == 0) {
            if (std::find(flags.begin(), flags.end(), a) != flags.end()) {
                args.options[a];
            } else if (std::find(valued.begin(), valued.end(), a) != valued.end()) {
                if (i + 1 >= argc)
                    return Error::invalid(a, "needs a value");
                args.options[a].push_back(argv[++i]);
            } else {
                return Error::invalid(a, "unknown option");
            }
        } else {
            args.positional.push_back(a);
        }
    }
    return args;
}

Result<long long> parseInteger(const std::string &text, const std::string &option, long long min)
{
    try {
        std::size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used != text.size() || v < min)
            throw std::invalid_argument(text);
        return v;
    } catch (...) {
        return Error::invalid(option, "must be a whole number ≥ " + std::to_string(min) + ", got \"" + text + "\"");
    }
}

/** Loads an experiment, applying --seed / --iterations / --repetitions overrides. */
Result<Experiment> loadWithOverrides(const std::string &path, const Args &args)
{
    auto doc = readJsonFile(path);
    if (!doc)
        return doc.error();
    if (doc->is_object()) {
        if (args.has("--seed")) {
            auto seed = parseInteger(args.value("--seed"), "--seed", 0);
            if (!seed)
                return seed.error();
            (*doc)["seed"] = static_cast<std::uint64_t>(*seed);
        }
        if (args.has("--iterations")) {
            auto iterations = parseInteger(args.value("--iterations"), "--iterations", 1);
            if (!iterations)
                return iterations.error();
            (*doc)["iterations"] = *iterations;
        }
        if (args.has("--repetitions")) {
            auto repetitions = parseInteger(args.value("--repetitions"), "--repetitions", 1);
            if (!repetitions)
                return repetitions.error();
            (*doc)["repetitions"] = *repetitions;
        }
    }
    auto e = parseExperiment(*doc, parentDir(path));
    if (!e) {
        Error err = e.error();
        if (err.code != ErrorCode::ParseError)
            err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
        return err;
    }
    return e;
}

/** Prints warnings and, on a terminal, a progress bar to stderr. */
class ConsoleObserver : public RunObserver
{
public:
    ConsoleObserver(const Experiment &experiment, bool quiet)
        : mExperiment(experiment), mQuiet(quiet), mTty(::isatty(2) != 0)
    {
    }
    void onStatus(const StatusEvent &e) override
    {
        if (mQuiet)
            return;
        const std::string label = e.run < static_cast<int>(mExperiment.runs.size()) ? mExperiment.runs[e.run].label : "";
        switch (e.kind) {
        case StatusEvent::Kind::Warning:
            clearBar();
            std::cerr << "warning: runs[" << e.run << "] (" << label << "): " << e.message << "\n";
            break;
        case StatusEvent::Kind::Diverged:
            clearBar();
            std::cerr << "runs[" << e.run << "] (" << label << "), repetition " << e.repetition << ": diverged at iteration "
                      << e.iteration << " (" << e.message << ")\n";
            break;
        case StatusEvent::Kind::Progress:
            if (mTty && e.total > 0 && 100 * e.done / e.total != mLastPercent) {
                mLastPercent = 100 * e.done / e.total; // redraw only when the percentage changes
                const int width = 40;
                const int filled = static_cast<int>(width * e.done / e.total);
                std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
                          << (100 * e.done / e.total) << "%" << std::flush;
                mBarShown = true;
            }
            break;
        default:
            break;
        }
    }
    void clearBar()
    {
        if (mBarShown) {
            std::cerr << "\r" << std::string(48, ' ') << "\r";
            mBarShown = false;
        }
    }

private:
    const Experiment &mExperiment;
    bool mQuiet;
    bool mTty;
    bool mBarShown = false;
    long long mLastPercent = -1;
};

int commandRun(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--trace", "--quiet"},
                          {"--out", "--seed", "--iterations", "--repetitions", "--threads"});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("run takes one experiment file");
    if (!args->has("--out"))
        return usageError("run needs --out DIR");
    RunnerOptions options;
    options.trace = args->has("--trace");
    if (args->has("--threads")) {
        auto threads = parseInteger(args->value("--threads"), "--threads", 1);
        if (!threads)
            return reportError(threads.error());
        options.threads = static_cast<int>(*threads);
    }
    auto experiment = loadWithOverrides(args->positional[0], *args);
    if (!experiment)
        return reportError(experiment.error());
    const bool quiet = args->has("--quiet");
    ConsoleObserver observer(*experiment, quiet);
    const auto started = std::chrono::steady_clock::now();
    auto result = Runner(options).run(*experiment, &observer);
    observer.clearBar();
    if (!result)
        return reportError(result.error());
    if (auto s = writeRunOutputs(args->value("--out"), *experiment, *result, options.trace); !s)
        return reportError(s.error());
    if (!quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "wrote %s (%zu run(s) × %d repetition(s), %lld iterations) in %.2f s\n",
                     args->value("--out").c_str(), experiment->runs.size(), experiment->repetitions,
                     experiment->iterations, seconds);
    }
    return result->diverged() ? Diverged : Success;
}

/** The overrides given on the command line, as the report mentions them. */
std::string overridesText(const Args &args)
{
    std::string text;
    for (const char *key : {"--seed", "--iterations", "--repetitions"})
        if (args.has(key))
            text += (text.empty() ? "" : " ") + std::string(key) + " " + args.value(key);
    return text;
}

int commandReport(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--quiet"}, {"--out", "--seed", "--iterations", "--repetitions", "--threads"});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("report takes one experiment file");
    if (!args->has("--out"))
        return usageError("report needs --out DIR");
#ifndef DPLAB_CLI_REPORT
    std::cerr << "dplab-cli: report needs the UI library (this build has DPLAB_BUILD_UI=OFF)\n";
    return Failure;
#else
    RunnerOptions options;
    if (args->has("--threads")) {
        auto threads = parseInteger(args->value("--threads"), "--threads", 1);
        if (!threads)
            return reportError(threads.error());
        options.threads = static_cast<int>(*threads);
    }
    auto experiment = loadWithOverrides(args->positional[0], *args);
    if (!experiment)
        return reportError(experiment.error());
    const bool quiet = args->has("--quiet");
    ConsoleObserver observer(*experiment, quiet);
    const auto started = std::chrono::steady_clock::now();
    auto shared = std::make_shared<const Experiment>(std::move(*experiment));
    auto result = Runner(options).run(*shared, &observer);
    observer.clearBar();
    if (!result)
        return reportError(result.error());
    const std::string dir = args->value("--out");
    if (auto s = writeRunOutputs(dir, *shared, *result, false); !s)
        return reportError(s.error());
    auto sharedResult = std::make_shared<const ExperimentResult>(std::move(*result));
    std::string error;
    int pages = 0;
    if (!writeReport(argc, argv, dir, shared, sharedResult, overridesText(*args), &error, &pages)) {
        std::cerr << "dplab-cli: " << error << "\n";
        return Failure;
    }
    if (!quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "wrote %s/report.html and report.pdf (%d pages) in %.2f s\n", dir.c_str(), pages, seconds);
    }
    return sharedResult->diverged() ? Diverged : Success;
#endif
}

int commandValidate(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {}, {});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("validate takes one experiment file");
    auto experiment = loadWithOverrides(args->positional[0], *args);
    if (!experiment)
        return reportError(experiment.error());
    std::cout << args->positional[0] << ": ok (" << experiment->runs.size() << " run(s), "
              << experiment->graph.nodeCount() << " agents, dimension " << experiment->problem->dimension() << ")\n";
    for (std::size_t r = 0; r < experiment->runs.size(); ++r) {
        // Theorem-condition warnings come from a reset algorithm.
        const RunSpec &spec = experiment->runs[r];
        RunContext ctx;
        ctx.graph = experiment->graph;
        ctx.W = spec.W;
        ctx.R = spec.R;
        ctx.C = spec.C;
        ctx.problem = experiment->problem;
        ctx.params = spec.params;
        ctx.privacy = spec.privacy;
        ctx.compressor = spec.compressorImpl;
        ctx.noise = {experiment->seed, 0, 0};
        ctx.x0 = initialDecisions(spec, experiment->graph.nodeCount(), experiment->problem->dimension(), ctx.noise);
        ctx.horizon = experiment->iterations;
        auto algorithm = spec.algorithm->create();
        if (Status s = algorithm->reset(ctx); !s) {
            Error err = s.error();
            err.where = args->positional[0] + ": " + joinPath(indexPath("runs", r), err.where);
            return reportError(err);
        }
        for (const auto &w : algorithm->warnings())
            std::cerr << "warning: runs[" << r << "] (" << spec.label << "): " << w << "\n";
    }
    return Success;
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
                std::cout << "    " << title << p.at("key").get<std::string>() << " (default " << p.at("default").dump()
                          << "): " << p.at("help").get<std::string>() << "\n";
        };
        printParams(item.at("params"), "");
        if (item.contains("privacy_params"))
            printParams(item.at("privacy_params"), "privacy.");
    }
    (void)what;
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

Json matrixToJson(const Eigen::MatrixXd &m)
{
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        Json row = Json::array();
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row.push_back(m(i, j));
        rows.push_back(row);
    }
    return rows;
}

Json vectorToJson(const Eigen::VectorXd &v)
{
    Json out = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i)
        out.push_back(v[i]);
    return out;
}

Json weightFactsJson(const Eigen::MatrixXd &w)
{
    const WeightFacts f = analyseWeights(w);
    return Json{{"row_stochastic", f.rowStochastic}, {"column_stochastic", f.columnStochastic},
                {"symmetric", f.symmetric},          {"psd", f.psd},
                {"spectral_radius", f.spectralRadius}, {"sigma2", f.sigma2},
                {"spectral_gap", f.spectralGap},     {"consensus_rate", f.consensusRate}};
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
        std::cout << "  row-stochastic " << (f.at("row_stochastic").get<bool>() ? "yes" : "no") << ", column-stochastic "
                  << (f.at("column_stochastic").get<bool>() ? "yes" : "no") << ", symmetric "
                  << (f.at("symmetric").get<bool>() ? "yes" : "no") << ", PSD " << (f.at("psd").get<bool>() ? "yes" : "no")
                  << "\n  spectral radius " << f.at("spectral_radius").get<double>() << ", sigma2 "
                  << f.at("sigma2").get<double>() << ", spectral gap " << f.at("spectral_gap").get<double>()
                  << ", rho(W - 11^T/n) " << f.at("consensus_rate").get<double>() << "\n";
    };
    if (out.contains("weights")) {
        printMatrix("W", out.at("weights"));
    } else {
        printMatrix("R", out.at("row"));
        std::cout << "  left Perron vector " << out.at("row").at("left_perron_vector").dump() << "\n";
        printMatrix("C", out.at("column"));
        std::cout << "  right Perron vector " << out.at("column").at("right_perron_vector").dump() << "\n";
    }
    return Success;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2)
        return usageError("no command");
    const std::string command = argv[1];
    try {
        if (command == "run")
            return commandRun(argc, argv);
        if (command == "validate")
            return commandValidate(argc, argv);
        if (command == "list")
            return commandList(argc, argv);
        if (command == "graph")
            return commandGraph(argc, argv);
        if (command == "report")
            return commandReport(argc, argv);
        if (command == "frontier")
            return commandFrontier(argc, argv);
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << kUsage << "and:\n" << kFrontierUsage;
            return Success;
        }
    } catch (const std::exception &e) {
        std::cerr << "dplab-cli: internal error: " << e.what() << "\n";
        return Failure;
    }
    return usageError("unknown command \"" + command + "\"");
}

} // namespace dplab::cli
