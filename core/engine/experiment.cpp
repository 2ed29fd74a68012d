// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/experiment.h"
#include "dplab/engine/sweepgrid.h"

#include "dplab/common/files.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/runlabel.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/paper003problems.h"

#include <cmath>
#include <set>
#include <thread>

namespace dplab {

namespace {

Status checkKeys(const Json &object, std::initializer_list<const char *> allowed, const std::string &path)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool known = false;
        for (const char *key : allowed)
            known = known || it.key() == key;
        if (!known) {
            std::string list;
            for (const char *key : allowed)
                list += (list.empty() ? "" : ", ") + std::string(key);
            return Error::invalid(joinPath(path, it.key()), "unknown key (expected one of: " + list + ")");
        }
    }
    return {};
}

Result<long long> readInteger(const Json &object, const char *key, const std::string &path,
                              long long def, long long min, long long max)
{
    if (!object.contains(key))
        return def;
    const Json &v = object.at(key);
    const std::string keyPath = joinPath(path, key);
    if (!v.is_number())
        return Error::invalid(keyPath, "must be a whole number");
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::floor(d) != d)
        return Error::invalid(keyPath, "must be a whole number");
    if (d < static_cast<double>(min) || d > static_cast<double>(max))
        return Error::invalid(keyPath, "must be in [" + std::to_string(min) + ", " + std::to_string(max)
                                           + "], got " + v.dump());
    return static_cast<long long>(d);
}

Result<std::string> readString(const Json &object, const char *key, const std::string &path,
                               const std::string &def)
{
    if (!object.contains(key))
        return def;
    if (!object.at(key).is_string())
        return Error::invalid(joinPath(path, key), "must be a string");
    return object.at(key).get<std::string>();
}

Result<bool> readBool(const Json &object, const char *key, const std::string &path, bool def)
{
    if (!object.contains(key))
        return def;
    if (!object.at(key).is_boolean())
        return Error::invalid(joinPath(path, key), "must be true or false");
    return object.at(key).get<bool>();
}

Result<Graph> parseGraph(const Json &g, Json &resolved)
{
    const std::string path = "graph";
    if (!g.is_object())
        return Error::invalid(path, "must be an object");
    if (auto s = checkKeys(g, {"directed", "nodes", "edges", "positions", "weights", "generator"}, path); !s)
        return s.error();
    Graph graph;
    resolved = Json::object();
    if (g.contains("generator")) {
        if (g.contains("edges"))
            return Error::invalid("graph.edges", "give either edges or a generator, not both");
        auto generated = generateGraph(g.at("generator"), "graph.generator");
        if (!generated)
            return generated.error();
        graph = std::move(generated.value());
        if (g.contains("directed") && (!g.at("directed").is_boolean() || g.at("directed").get<bool>() != graph.isDirected()))
            return Error::invalid("graph.directed", std::string("contradicts the generator, which makes a ")
                                                        + (graph.isDirected() ? "directed" : "undirected") + " graph");
        if (g.contains("nodes") && (!g.at("nodes").is_number_integer() || g.at("nodes").get<long long>() != graph.nodeCount()))
            return Error::invalid("graph.nodes", "contradicts the generator, which makes "
                                                     + std::to_string(graph.nodeCount()) + " nodes");
        resolved["generator"] = g.at("generator");
    } else {
        auto directed = readBool(g, "directed", path, false);
        if (!directed)
            return directed.error();
        if (!g.contains("nodes"))
            return Error::invalid("graph.nodes", "is required (or give a generator)");
        auto nodes = readInteger(g, "nodes", path, 0, 1, 100000);
        if (!nodes)
            return nodes.error();
        const Json edges = g.value("edges", Json::array());
        if (!edges.is_array())
            return Error::invalid("graph.edges", "must be an array of [from, to] pairs");
        // Duplicates through a set, then one O(E) construction (addEdge is O(E) per edge, so a
        // file with 10⁶ edges would take minutes).
        std::vector<Edge> edgeList;
        std::set<std::pair<long long, long long>> seen;
        edgeList.reserve(edges.size());
        for (std::size_t k = 0; k < edges.size(); ++k) {
            const std::string ep = indexPath("graph.edges", k);
            const Json &e = edges[k];
            if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer())
                return Error::invalid(ep, "must be a pair [from, to] of node indices");
            const long long from = e[0].get<long long>(), to = e[1].get<long long>();
            if (from < 0 || to < 0 || from >= *nodes || to >= *nodes)
                return Error::invalid(ep, "node index out of range [0, " + std::to_string(*nodes - 1) + "]");
            if (from == to)
                return Error::invalid(ep, "self-loop " + std::to_string(from) + " -> " + std::to_string(to));
            const std::pair<long long, long long> key =
                *directed || from < to ? std::make_pair(from, to) : std::make_pair(to, from);
            if (!seen.insert(key).second)
                return Error::invalid(ep, "duplicate edge " + std::to_string(from) + " -> " + std::to_string(to));
            edgeList.push_back(Edge{static_cast<int>(key.first), static_cast<int>(key.second)});
        }
        graph = Graph::fromEdges(static_cast<int>(*nodes), *directed, std::move(edgeList));
        resolved["directed"] = graph.isDirected();
        resolved["nodes"] = graph.nodeCount();
        Json list = Json::array();
        for (const Edge &e : graph.edges())
            list.push_back({e.from, e.to});
        resolved["edges"] = list;
    }
    if (g.contains("positions")) {
        const Json &p = g.at("positions");
        if (!p.is_array() || static_cast<int>(p.size()) != graph.nodeCount())
            return Error::invalid("graph.positions", "must list one [x, y] per node ("
                                                         + std::to_string(graph.nodeCount()) + ")");
        std::vector<NodePosition> positions;
        for (std::size_t k = 0; k < p.size(); ++k) {
            const Json &xy = p[k];
            if (!xy.is_array() || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number())
                return Error::invalid(indexPath("graph.positions", k), "must be [x, y]");
            positions.push_back({xy[0].get<double>(), xy[1].get<double>()});
        }
        graph.setPositions(std::move(positions));
        resolved["positions"] = p;
    }
    const Connectivity connectivity = analyseConnectivity(graph);
    if (!connectivity.connected)
        return Error::invalid(path, std::string(graph.isDirected() ? "not strongly connected: " : "not connected: ")
                                        + connectivity.message);
    if (g.contains("weights"))
        resolved["weights"] = g.at("weights");
    return graph;
}

Json defaultWeights(const Graph &graph, WeightNeeds needs)
{
    if (needs == WeightNeeds::Doubly)
        return Json{{"scheme", "metropolis"}};
    if (!graph.isDirected())
        return Json{{"scheme", "metropolis"}};
    return Json{{"row", {{"scheme", "uniform"}}}, {"column", {{"scheme", "uniform"}}}};
}

// Builds the weight matrices a run needs; `spec` is the run's or the graph's weights object.
Status buildRunWeights(const Graph &graph, const Json &spec, const std::string &path, RunSpec &run)
{
    if (!spec.is_object())
        return Error::invalid(path, "must be an object such as {\"scheme\": \"metropolis\"}");
    const bool split = spec.contains("row") || spec.contains("column");
    if (split) {
        if (auto s = checkKeys(spec, {"row", "column"}, path); !s)
            return s;
        if (run.algorithm->weights == WeightNeeds::Doubly)
            return Error::invalid(path, run.algorithm->id + " mixes with one doubly stochastic W: give "
                                                            "{\"scheme\": ...}, not row/column matrices");
        const Json row = spec.value("row", Json{{"scheme", "uniform"}});
        const Json column = spec.value("column", Json{{"scheme", "uniform"}});
        auto r = buildWeights(graph, row, WeightRole::Row, joinPath(path, "row"));
        if (!r)
            return r.error();
        auto c = buildWeights(graph, column, WeightRole::Column, joinPath(path, "column"));
        if (!c)
            return c.error();
        run.R = std::move(r.value());
        run.C = std::move(c.value());
        run.weights = Json{{"row", row}, {"column", column}};
        return {};
    }
    if (run.algorithm->weights == WeightNeeds::Doubly) {
        auto w = buildWeights(graph, spec, WeightRole::Doubly, path);
        if (!w)
            return w.error();
        run.W = std::move(w.value());
    } else {
        auto r = buildWeights(graph, spec, WeightRole::Row, path);
        if (!r)
            return r.error();
        auto c = buildWeights(graph, spec, WeightRole::Column, path);
        if (!c)
            return c.error();
        run.R = std::move(r.value());
        run.C = std::move(c.value());
    }
    run.weights = spec;
    return {};
}

/** Each agent's own target, row i = argmin f_i, where the problem defines it from its data
 *  (rendezvous: a_i); nullopt otherwise. An init {"type": "targets"} starts there. */
std::optional<Eigen::MatrixXd> agentTargets(const Problem &problem)
{
    if (const auto *rendezvous = dynamic_cast<const RendezvousProblem *>(&problem))
        return rendezvous->points();
    return std::nullopt;
}

Result<Json> parseInit(const Json &init, const std::string &path, int n, int d)
{
    if (init.is_null())
        return Json{{"type", "zeros"}};
    if (!init.is_object())
        return Error::invalid(path, "must be an object: {\"type\": \"zeros\"}, {\"type\": \"random\", "
                                    "\"scale\": 1}, {\"type\": \"targets\"} or {\"x\": [[...], ...]}");
    if (init.contains("x")) {
        if (auto s = checkKeys(init, {"x"}, path); !s)
            return s.error();
        const Json &x = init.at("x");
        if (!x.is_array() || static_cast<int>(x.size()) != n)
            return Error::invalid(joinPath(path, "x"), "must list one row per agent (" + std::to_string(n) + ")");
        for (std::size_t i = 0; i < x.size(); ++i) {
            const std::string rp = indexPath(joinPath(path, "x"), i);
            if (!x[i].is_array() || (d >= 0 && static_cast<int>(x[i].size()) != d))
                return Error::invalid(rp, d >= 0 ? "must have " + std::to_string(d) + " entries (the problem dimension)"
                                                 : std::string("must be a list of numbers"));
            for (std::size_t k = 0; k < x[i].size(); ++k)
                if (!x[i][k].is_number() || !std::isfinite(x[i][k].get<double>()))
                    return Error::invalid(indexPath(rp, k), "must be a finite number");
        }
        return init;
    }
    if (auto s = checkKeys(init, {"type", "scale"}, path); !s)
        return s.error();
    auto type = readString(init, "type", path, "zeros");
    if (!type)
        return type.error();
    if (*type == "zeros")
        return Json{{"type", "zeros"}};
    if (*type == "targets") {
        if (init.contains("scale"))
            return Error::invalid(joinPath(path, "scale"), "is only for {\"type\": \"random\"}");
        return Json{{"type", "targets"}};
    }
    if (*type != "random")
        return Error::invalid(joinPath(path, "type"), "must be zeros, random or targets, got \"" + *type + "\"");
    double scale = 1.0;
    if (init.contains("scale")) {
        const Json &s = init.at("scale");
        if (!s.is_number() || !std::isfinite(s.get<double>()) || s.get<double>() < 0)
            return Error::invalid(joinPath(path, "scale"), "must be a finite number ≥ 0");
        scale = s.get<double>();
    }
    return Json{{"type", "random"}, {"scale", scale}};
}

Result<RunSpec> parseRun(const Json &r, std::size_t index, const Experiment &e, const Json &graphWeights)
{
    const std::string path = indexPath("runs", index);
    if (!r.is_object())
        return Error::invalid(path, "must be an object");
    if (auto s = checkKeys(r, {"label", "algorithm", "params", "privacy", "compressor", "init", "weights", "color"}, path); !s)
        return s.error();
    RunSpec run;
    auto label = readString(r, "label", path, "run " + std::to_string(index + 1));
    if (!label)
        return label.error();
    run.label = *label;
    if (const std::string problem = runLabelProblem(run.label); !problem.empty())
        return Error::invalid(joinPath(path, "label"), problem);
    if (!r.contains("algorithm") || !r.at("algorithm").is_string())
        return Error::invalid(joinPath(path, "algorithm"), "is required (a registry id; see `dplab-cli list algorithms`)");
    const std::string id = r.at("algorithm").get<std::string>();
    run.algorithm = findAlgorithm(id);
    if (!run.algorithm) {
        std::string all;
        for (const auto &d : algorithmRegistry())
            all += (all.empty() ? "" : ", ") + d.id;
        return Error::invalid(joinPath(path, "algorithm"), "unknown algorithm \"" + id + "\" (known: " + all + ")");
    }
    const AlgorithmDescriptor &alg = *run.algorithm;
    if (alg.graphKind == GraphKind::Undirected && e.graph.isDirected())
        return Error::invalid(joinPath(path, "algorithm"), alg.id + " needs an undirected graph, but graph.directed is true");
    if (alg.graphKind == GraphKind::Directed && !e.graph.isDirected())
        return Error::invalid(joinPath(path, "algorithm"), alg.id + " is for directed graphs, but graph.directed is false "
                                                                    "(draw the edges both ways in a directed graph)");
    if (alg.needsOnline && !e.problemSpec.online)
        return Error::invalid(joinPath(path, "algorithm"), alg.id + " needs an online problem (a data stream)");
    const int n = e.graph.nodeCount();
    auto params = resolveParams(alg.params, r.value("params", Json()), joinPath(path, "params"), n);
    if (!params)
        return params.error();
    run.params = std::move(params.value());
    auto privacy = resolveParams(alg.privacyParams, r.value("privacy", Json()), joinPath(path, "privacy"), n);
    if (!privacy)
        return privacy.error();
    run.privacy = std::move(privacy.value());
    auto compressor = makeCompressor(r.value("compressor", Json()), joinPath(path, "compressor"));
    if (!compressor)
        return compressor.error();
    run.compressorImpl = compressor.value();
    run.compressor = run.compressorImpl->toJson();
    if (!alg.acceptsCompressor && !run.compressorImpl->isIdentity())
        return Error::invalid(joinPath(path, "compressor"), alg.id + " does not take a compressor");
    auto init = parseInit(r.value("init", Json()), joinPath(path, "init"), n, e.dimension());
    if (!init)
        return init.error();
    run.init = std::move(init.value());
    auto color = readString(r, "color", path, "");
    if (!color)
        return color.error();
    run.color = *color;
    const bool own = r.contains("weights");
    Json weights = own ? r.at("weights") : (graphWeights.is_null() ? defaultWeights(e.graph, alg.weights) : graphWeights);
    weights = inheritRing4Parameters(std::move(weights), e.graphJson);
    if (auto s = buildRunWeights(e.graph, weights, own ? joinPath(path, "weights") : "graph.weights", run); !s)
        return s.error();
    return run;
}

Json runToJson(const RunSpec &run, bool ownWeights)
{
    Json j{{"label", run.label},       {"algorithm", run.algorithm->id}, {"params", run.params},
           {"privacy", run.privacy},   {"compressor", run.compressor},   {"init", run.init}};
    if (ownWeights)
        j["weights"] = run.weights;
    if (!run.color.empty())
        j["color"] = run.color;
    return j;
}

} // namespace

Json inheritRing4Parameters(Json weights, const Json &graphJson)
{
    if (!weights.is_object() || weights.value("scheme", "") != "ring4-family" || weights.size() != 1)
        return weights;
    if (!graphJson.is_object() || !graphJson.contains("generator") || !graphJson["generator"].is_object()
        || graphJson["generator"].value("type", "") != "ring4-family")
        return weights;
    for (auto it = graphJson["generator"].begin(); it != graphJson["generator"].end(); ++it)
        if (it.key() != "type" && it.key() != "nodes")
            weights[it.key()] = it.value();
    return weights;
}

std::vector<std::string> sweepPaths(const SweepSpec &sweep)
{
    std::vector<std::string> paths;
    const std::string separator = kSweepGridSeparator;
    std::size_t from = 0;
    for (;;) {
        const std::size_t at = sweep.parameter.find(separator, from);
        paths.push_back(sweep.parameter.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos)
            return paths;
        from = at + separator.size();
    }
}

bool isGridSweep(const SweepSpec &sweep)
{
    return sweep.parameter.find(kSweepGridSeparator) != std::string::npos;
}

Status applySweepValue(Json &document, const SweepSpec &sweep, const Json &value)
{
    const std::vector<std::string> paths = sweepPaths(sweep);
    if (paths.size() == 1)
        return setJsonPath(document, paths.front(), value);
    if (!value.is_array() || value.size() != paths.size())
        return Error::invalid("sweep.values", "a grid's value must be a list of " + std::to_string(paths.size())
                                                  + " values, one per parameter, got " + value.dump());
    for (std::size_t k = 0; k < paths.size(); ++k)
        if (auto s = setJsonPath(document, paths[k], value[k]); !s)
            return s;
    return {};
}

Json sweepParameterJson(const SweepSpec &sweep)
{
    if (!isGridSweep(sweep))
        return sweep.parameter;
    return sweepPaths(sweep);
}

Result<std::string> sweepParameterFromJson(const Json &parameter)
{
    if (parameter.is_string())
        return parameter.get<std::string>();
    const std::string separator = kSweepGridSeparator;
    if (!parameter.is_array() || parameter.size() < 2)
        return Error::invalid("sweep.parameter", "must be a path such as \"runs[*].privacy.noise_y\", or a list of "
                                                 "two or more paths for a grid");
    std::string joined;
    for (std::size_t k = 0; k < parameter.size(); ++k) {
        if (!parameter[k].is_string() || parameter[k].get<std::string>().empty()
            || parameter[k].get<std::string>().find(separator) != std::string::npos)
            return Error::invalid(indexPath("sweep.parameter", k), "must be a path such as \"runs[*].params.stepsize\"");
        for (std::size_t j = 0; j < k; ++j)
            if (parameter[j] == parameter[k])
                return Error::invalid(indexPath("sweep.parameter", k), "names " + parameter[k].get<std::string>()
                                                                           + " twice");
        joined += (k ? separator : std::string()) + parameter[k].get<std::string>();
    }
    return joined;
}

namespace {

std::size_t matricesPerRun(const RunSpec &run)
{
    return run.algorithm && run.algorithm->weights == WeightNeeds::Doubly ? 1 : 2;
}

/** Fails early, before the weights are built: dense n × n matrices for every run, and the
 *  problem's estimate. */
Status checkBeforeWeights(const Experiment &e, std::size_t runs, const ResolveOptions &options)
{
    ResourceEstimate early;
    const double n = e.graph.nodeCount();
    early.add("dense weight matrices", e.graphJson.contains("generator") ? "graph.generator.nodes" : "graph.nodes",
              8.0 * n * n * (2.0 * static_cast<double>(runs) + 3.0));
    early.add("problem data", e.problemSpec.bytesPath, e.problemSpec.bytes);
    return checkResources(early, options.limits);
}

/** The document's shape and header: an object of known keys, no sweep inside a sweep point, the
 *  format and version this DPLab reads. */
Status checkHeader(const Json &doc, bool isPoint)
{
    if (!doc.is_object())
        return Error::invalid("", "an experiment file must be a JSON object");
    if (auto s = checkKeys(doc, {"format", "version", "name", "description", "seed", "iterations", "repetitions",
                                 "record_every", "common_random_numbers", "metrics", "graph", "problem", "runs",
                                 "sweep", "eavesdropper", "presentation"},
                           "");
        !s)
        return s.error();
    if (isPoint && doc.contains("sweep"))
        return Error::invalid("sweep", "a sweep point cannot contain another sweep");
    auto format = readString(doc, "format", "", kExperimentFormat);
    if (!format)
        return format.error();
    if (*format != kExperimentFormat)
        return Error::invalid("format", std::string("must be \"") + kExperimentFormat + "\"");
    auto version = readInteger(doc, "version", "", kExperimentVersion, 1, 1000);
    if (!version)
        return version.error();
    if (*version != kExperimentVersion)
        return Error::unsupported("version", "this DPLab reads version " + std::to_string(kExperimentVersion)
                                                 + " files, not " + std::to_string(*version));
    return {};
}

/** The experiment's settings: name, description, seed, iterations, repetitions, recording
 *  cadence, common random numbers and opt-in metrics. */
Status parseSettings(const Json &doc, Experiment &e)
{
    auto name = readString(doc, "name", "", "Untitled experiment");
    if (!name)
        return name.error();
    e.name = *name;
    auto description = readString(doc, "description", "", "");
    if (!description)
        return description.error();
    e.description = *description;
    if (doc.contains("seed")) {
        const Json &s = doc.at("seed");
        if (!s.is_number_integer() || (s.is_number_integer() && !s.is_number_unsigned() && s.get<long long>() < 0))
            return Error::invalid("seed", "must be a whole number ≥ 0");
        e.seed = s.get<std::uint64_t>();
    }
    auto iterations = readInteger(doc, "iterations", "", 100, 1, 100000000);
    if (!iterations)
        return iterations.error();
    e.iterations = *iterations;
    auto repetitions = readInteger(doc, "repetitions", "", 1, 1, 100000);
    if (!repetitions)
        return repetitions.error();
    e.repetitions = static_cast<int>(*repetitions);
    // Absent record_every: the default cadence, at most kDefaultRecordedPoints recorded
    // iterations per run (uniform stride; record_every 1 asks for every iteration).
    const long long defaultRecordEvery =
        std::max(1LL, (e.iterations + kDefaultRecordedPoints - 1) / kDefaultRecordedPoints);
    auto recordEvery = readInteger(doc, "record_every", "", defaultRecordEvery, 1, 100000000);
    if (!recordEvery)
        return recordEvery.error();
    e.recordEvery = *recordEvery;
    auto crn = readBool(doc, "common_random_numbers", "", true);
    if (!crn)
        return crn.error();
    e.commonRandomNumbers = *crn;
    if (doc.contains("metrics")) {
        const Json &m = doc.at("metrics");
        if (!m.is_array())
            return Error::invalid("metrics", "must be a list of opt-in metric names");
        for (std::size_t k = 0; k < m.size(); ++k) {
            if (!m[k].is_string() || !isOptInMetric(m[k].get<std::string>()))
                return Error::invalid(indexPath("metrics", k), "unknown opt-in metric (known: residual)");
            e.extraMetrics.push_back(m[k].get<std::string>());
        }
    }
    return {};
}

/** The graph and the problem on it. */
Status parseGraphAndProblem(const Json &doc, const std::string &baseDir, Experiment &e)
{
    if (!doc.contains("graph"))
        return Error::invalid("graph", "is required");
    auto graph = parseGraph(doc.at("graph"), e.graphJson);
    if (!graph)
        return graph.error();
    e.graph = std::move(graph.value());

    if (!doc.contains("problem"))
        return Error::invalid("problem", "is required");
    e.problemJson = doc.at("problem");
    auto problem = resolveProblem(e.problemJson, e.graph.nodeCount(), "problem", baseDir);
    if (!problem)
        return problem.error();
    e.problemSpec = std::move(problem.value());
    return {};
}

/** The runs, after the early resource check; returns their resolved JSON. */
Result<Json> parseRuns(const Json &doc, Experiment &e, const ResolveOptions &options)
{
    if (!doc.contains("runs") || !doc.at("runs").is_array() || doc.at("runs").empty())
        return Error::invalid("runs", "must be a non-empty list of runs");
    if (auto s = checkBeforeWeights(e, doc.at("runs").size(), options); !s)
        return s.error();
    const Json graphWeights = doc.at("graph").value("weights", Json());
    std::set<std::string> labels;
    Json runs = Json::array();
    for (std::size_t k = 0; k < doc.at("runs").size(); ++k) {
        auto run = parseRun(doc.at("runs")[k], k, e, graphWeights);
        if (!run)
            return run.error();
        if (!labels.insert(run->label).second)
            return Error::invalid(joinPath(indexPath("runs", k), "label"), "duplicate label \"" + run->label + "\"");
        runs.push_back(runToJson(*run, doc.at("runs")[k].contains("weights")));
        e.runs.push_back(std::move(run.value()));
    }
    return runs;
}

/** The sweep, when there is one: its parameter must address something in the document now, so
 *  that a typo is reported at validation. */
Status parseSweep(const Json &doc, Experiment &e)
{
    if (!doc.contains("sweep"))
        return {};
    const Json &s = doc.at("sweep");
    if (!s.is_object())
        return Error::invalid("sweep", "must be an object {\"parameter\": ..., \"values\": [...]}");
    if (auto st = checkKeys(s, {"parameter", "values"}, "sweep"); !st)
        return st.error();
    if (!s.contains("parameter"))
        return Error::invalid("sweep.parameter", "is required (a path such as \"runs[*].privacy.noise_y\")");
    auto sweepParameter = sweepParameterFromJson(s.at("parameter"));
    if (!sweepParameter)
        return sweepParameter.error();
    if (!s.contains("values") || !s.at("values").is_array() || s.at("values").empty())
        return Error::invalid("sweep.values", "must be a non-empty list");
    if (s.at("values").size() > kMaxSweepValues)
        return Error::invalid("sweep.values", "has " + std::to_string(s.at("values").size())
                                                  + " values; at most " + std::to_string(kMaxSweepValues)
                                                  + " (each value is a whole experiment)");
    SweepSpec sweep{*sweepParameter, {}};
    for (const std::string &parameter : sweepPaths(sweep))
        if (parameter == "sweep" || parameter.rfind("sweep.", 0) == 0 || parameter.rfind("sweep[", 0) == 0)
            return Error::invalid("sweep.parameter", "cannot address the sweep itself");
    for (const auto &v : s.at("values"))
        sweep.values.push_back(v);
    // Check the path addresses something now, so a typo is reported at validation; a grid's
    // values must each have one entry per path.
    Json probe = doc;
    probe.erase("sweep");
    if (auto st = applySweepValue(probe, sweep, sweep.values.front()); !st)
        return st.error();
    const std::size_t paths = sweepPaths(sweep).size();
    for (std::size_t i = 0; paths > 1 && i < sweep.values.size(); ++i)
        if (!sweep.values[i].is_array() || sweep.values[i].size() != paths)
            return Error::invalid(indexPath("sweep.values", i), "a grid's value must be a list of " + std::to_string(paths)
                                                                    + " values, one per parameter");
    e.sweep = std::move(sweep);
    return {};
}

/** The resolved document of everything parsed so far (the teaching keys come after). */
Json resolvedDocument(const Json &doc, const Experiment &e, const Json &runs)
{
    Json resolved{{"format", kExperimentFormat},
                  {"version", kExperimentVersion},
                  {"name", e.name},
                  {"seed", e.seed},
                  {"iterations", e.iterations},
                  {"repetitions", e.repetitions},
                  {"common_random_numbers", e.commonRandomNumbers},
                  {"graph", e.graphJson},
                  {"problem", e.problemJson},
                  {"runs", runs}};
    // An absent record_every stays absent: the default cadence follows the iterations (of
    // a sweep point, an --iterations override, an edit in the window).
    if (doc.contains("record_every"))
        resolved["record_every"] = e.recordEvery;
    if (!e.description.empty())
        resolved["description"] = e.description;
    if (!e.extraMetrics.empty())
        resolved["metrics"] = e.extraMetrics;
    if (e.sweep)
        resolved["sweep"] = Json{{"parameter", sweepParameterJson(*e.sweep)}, {"values", e.sweep->values}};
    return resolved;
}

/** Teaching keys (core/teaching): each parsed by its own function, added to `resolved`. */
Status parseTeachingKeys(const Json &doc, Experiment &e, Json &resolved)
{
    if (doc.contains("eavesdropper")) {
        auto spy = parseEavesdropper(doc.at("eavesdropper"), "eavesdropper", e.graph.nodeCount());
        if (!spy)
            return spy.error();
        e.eavesdropper = *spy;
        resolved["eavesdropper"] = eavesdropperToJson(*spy);
    }
    if (doc.contains("presentation")) {
        auto presentation = parsePresentation(doc.at("presentation"), resolved);
        if (!presentation)
            return presentation.error();
        e.presentation = *presentation;
        resolved["presentation"] = presentationToJson(*presentation);
    }
    return {};
}

/** Resolves one experiment document: the base document (isPoint = false) or one sweep point's. */
Result<Experiment> resolvePoint(const Json &doc, const std::string &baseDir, const ResolveOptions &options,
                                bool isPoint)
{
    try {
        if (auto s = checkHeader(doc, isPoint); !s)
            return s.error();
        Experiment e;
        e.baseDir = baseDir;
        if (auto s = parseSettings(doc, e); !s)
            return s.error();
        if (auto s = parseGraphAndProblem(doc, baseDir, e); !s)
            return s.error();
        auto runs = parseRuns(doc, e, options);
        if (!runs)
            return runs.error();
        if (auto s = parseSweep(doc, e); !s)
            return s.error();
        Json resolved = resolvedDocument(doc, e, *runs);
        if (auto s = parseTeachingKeys(doc, e, resolved); !s)
            return s.error();
        e.resolved = std::move(resolved);
        e.resources = estimateResources(e, options);
        return e;
    } catch (const Json::exception &ex) {
        // Type errors deep inside a value that the checks above did not foresee.
        return Error::invalid("", std::string("malformed experiment: ") + ex.what());
    } catch (const std::bad_alloc &) {
        return Error::invalid("", "not enough memory to resolve the experiment (reduce its sizes)");
    }
}

/** The document of sweep point `value`: the resolved base document without its sweep, with
 *  sweep.parameter set to `value`. */
Result<Json> sweepPointDocument(const Experiment &experiment, const Json &value)
{
    Json doc = experiment.resolved;
    doc.erase("sweep");
    if (auto s = applySweepValue(doc, *experiment.sweep, value); !s)
        return s.error();
    return doc;
}

Error atSweepValue(Error err, std::size_t index, const Json &value)
{
    std::string shown = value.dump();
    if (shown.size() > 60)
        shown = shown.substr(0, 57) + "...";
    err.message = (err.where.empty() ? std::string() : err.where + ": ") + err.message + " (sweep value " + shown + ")";
    err.where = indexPath("sweep.values", index);
    return err;
}

/** Prefixes the file so a CLI user knows where the JSON path points. */
Error inFile(Error err, const std::string &path)
{
    if (err.where.find(path) != 0)
        err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
    return err;
}

} // namespace

ResourceEstimate estimateResources(const Experiment &e, const ResolveOptions &options)
{
    ResourceEstimate out;
    const double n = e.graph.nodeCount();
    const double m = static_cast<double>(e.graph.edgeCount());
    const std::string nodesPath = e.graphJson.contains("generator") ? "graph.generator.nodes" : "graph.nodes";
    out.add("graph", nodesPath, 64.0 * m + 96.0 * n);
    for (std::size_t r = 0; r < e.runs.size(); ++r)
        out.add("dense weight matrices", nodesPath, 8.0 * n * n * static_cast<double>(matricesPerRun(e.runs[r])));
    out.add("problem data", e.problemSpec.bytesPath, e.problemSpec.bytes);

    // The dimension, or a stand-in when the data decide it (features + 1).
    double d = e.problemSpec.dimension;
    if (d < 1) {
        d = 1;
        for (const auto &h : e.problemSpec.data)
            d = std::max(d, static_cast<double>(h.header.features) + 1.0);
    }
    const double runs = static_cast<double>(e.runs.size());
    const double recorded = std::floor(static_cast<double>(e.iterations) / static_cast<double>(e.recordEvery)) + 2.0;
    const double jobs = runs * e.repetitions;
    // Per recorded point: iteration, ~16 metric values, per-agent ε, alternative bounds (+ vector
    // headers).
    const double perPoint = 8.0 + (24.0 + 8.0 * 16) + (24.0 + 8.0 * n) + (24.0 + 8.0 * 4);
    out.add("recorded metrics", e.recordEvery > 1 ? "record_every" : "iterations", jobs * recorded * perPoint);
    if (options.trace)
        out.add("traces", e.recordEvery > 1 ? "record_every" : "iterations", jobs * recorded * (8.0 * n * d + 64.0));
    int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::max(1, threads);
    const double concurrent = std::min<double>(threads, jobs);
    // Per running job: the algorithm's iterates, gradients, messages (~32 n × d) and its copies of
    // the weights.
    out.add("algorithm state (per thread)", nodesPath, concurrent * (8.0 * 32.0 * n * d + 8.0 * 2.0 * n * n));
    return out;
}

Result<Experiment> resolveExperiment(const Json &doc, const std::string &baseDir, const ResolveOptions &options)
{
    auto e = resolvePoint(doc, baseDir, options, false);
    if (!e)
        return e;
    if (!e->sweep) {
        if (auto s = checkResources(e->resources, options.limits); !s)
            return s.error();
        return e;
    }
    // Every sweep point is a whole experiment: resolve each (its value checked against the
    // parameter's spec by the point's own validation) and add up what they need.
    ResourceEstimate total;
    double perThread = 0;
    const auto &values = e->sweep->values;
    const std::size_t resolvedPoints = options.resolveSweepPoints ? values.size() : 1;
    for (std::size_t i = 0; i < resolvedPoints; ++i) {
        auto pointDoc = sweepPointDocument(*e, values[i]);
        if (!pointDoc)
            return atSweepValue(pointDoc.error(), i, values[i]);
        auto p = resolvePoint(*pointDoc, baseDir, options, true);
        if (!p)
            return atSweepValue(p.error(), i, values[i]);
        for (const auto &item : p->resources.items) {
            if (item.what == "algorithm state (per thread)")
                perThread = std::max(perThread, item.bytes);
            else
                total.add(item.what, item.path, item.bytes);
        }
        if (auto s = checkResources(total, options.limits); !s)
            return Error{s.error().code, "sweep.values", s.error().message + " over the first " + std::to_string(i + 1)
                                                              + " of " + std::to_string(values.size()) + " sweep points"};
    }
    if (!options.resolveSweepPoints && values.size() > 1)
        for (auto &item : total.items)
            item.bytes *= static_cast<double>(values.size());
    total.add("algorithm state (per thread)", e->graphJson.contains("generator") ? "graph.generator.nodes" : "graph.nodes",
              perThread);
    if (auto s = checkResources(total, options.limits); !s)
        return Error{s.error().code, "sweep.values", s.error().message};
    e->resources = std::move(total);
    return e;
}

Status buildExperiment(Experiment &e, DataCache &cache)
{
    if (e.problem)
        return {};
    DataCache::Scope scope(cache);
    auto problem = buildProblem(e.problemSpec, e.graph.nodeCount(), "problem", e.baseDir, e.seed);
    if (!problem)
        return problem.error();
    const int d = (*problem)->dimension();
    if (e.problemSpec.dimension >= 0 && e.problemSpec.dimension != d)
        return Error::internal("problem", "the built problem has dimension " + std::to_string(d)
                                              + ", its specification " + std::to_string(e.problemSpec.dimension));
    // What only the data decide: the shape of explicit initial decisions, and whether the
    // problem has the per-agent targets an init {"type": "targets"} starts from.
    for (std::size_t r = 0; r < e.runs.size(); ++r) {
        const Json &init = e.runs[r].init;
        if (init.value("type", "") == "targets" && !agentTargets(**problem))
            return Error::invalid(joinPath(joinPath(indexPath("runs", r), "init"), "type"),
                                  "\"targets\" needs a problem with per-agent targets a_i (rendezvous); \""
                                      + (*problem)->id() + "\" has none");
        if (!init.contains("x"))
            continue;
        for (std::size_t i = 0; i < init.at("x").size(); ++i)
            if (static_cast<int>(init.at("x")[i].size()) != d)
                return Error::invalid(indexPath(joinPath(joinPath(indexPath("runs", r), "init"), "x"), i),
                                      "must have " + std::to_string(d) + " entries (the problem dimension)");
    }
    e.problem = std::move(problem.value());
    e.problemSpec.dimension = d;
    return {};
}

Result<Experiment> parseExperiment(const Json &doc, const std::string &baseDir)
{
    auto e = resolveExperiment(doc, baseDir);
    if (!e)
        return e;
    if (auto s = buildExperiment(*e); !s)
        return s.error();
    return e;
}

Result<Experiment> resolveExperimentFile(const std::string &path, const ResolveOptions &options)
{
    auto doc = readJsonFile(path);
    if (!doc)
        return doc.error();
    auto e = resolveExperiment(*doc, parentDir(path), options);
    if (!e)
        return inFile(e.error(), path);
    return e;
}

Result<Experiment> loadExperimentFile(const std::string &path)
{
    auto e = resolveExperimentFile(path);
    if (!e)
        return e;
    if (auto s = buildExperiment(*e); !s)
        return inFile(s.error(), path);
    return e;
}

Result<Experiment> experimentAtSweepValue(const Experiment &experiment, const Json &value)
{
    assert(experiment.sweep && "experimentAtSweepValue: the experiment has no sweep");
    std::size_t index = 0;
    while (index < experiment.sweep->values.size() && experiment.sweep->values[index] != value)
        ++index;
    auto doc = sweepPointDocument(experiment, value);
    if (!doc)
        return atSweepValue(doc.error(), index, value);
    ResolveOptions options;
    options.resolveSweepPoints = false;
    options.limits.maxMemoryBytes = UINT64_MAX; // the whole sweep was checked when it was resolved
    auto point = resolvePoint(*doc, experiment.baseDir, options, true);
    if (!point)
        return atSweepValue(point.error(), index, value);
    if (auto s = buildExperiment(*point); !s)
        return atSweepValue(s.error(), index, value);
    return point;
}

RunContext makeRunContext(const Experiment &e, int run, int repetition)
{
    assert(e.isBuilt() && "makeRunContext: build the experiment first (buildExperiment)");
    const RunSpec &spec = e.runs[static_cast<std::size_t>(run)];
    RunContext ctx;
    ctx.graph = e.graph;
    ctx.W = spec.W;
    ctx.R = spec.R;
    ctx.C = spec.C;
    ctx.problem = e.problem;
    ctx.params = spec.params;
    ctx.privacy = spec.privacy;
    ctx.compressor = spec.compressorImpl;
    ctx.noise = {e.seed, e.commonRandomNumbers ? 0u : static_cast<std::uint64_t>(run),
                 static_cast<std::uint64_t>(repetition)};
    ctx.x0 = initialDecisions(spec, e.graph.nodeCount(), e.problem->dimension(), ctx.noise);
    if (spec.init.value("type", "") == "targets")
        if (auto targets = agentTargets(*e.problem); targets && targets->rows() == ctx.x0.rows()
                                                     && targets->cols() == ctx.x0.cols())
            ctx.x0 = *targets; // buildExperiment checked that the problem has them

    ctx.horizon = e.iterations;
    return ctx;
}

Eigen::MatrixXd initialDecisions(const RunSpec &run, int n, int d, const NoiseSource &noise)
{
    // {"type": "targets"} is filled in by makeRunContext, which has the built problem.
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(n, d);
    if (run.init.contains("x")) {
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < d; ++k)
                x(i, k) = run.init["x"][i][k].get<double>();
    } else if (run.init.value("type", "zeros") == "random") {
        const double scale = run.init.value("scale", 1.0);
        for (int i = 0; i < n; ++i) {
            Rng rng = noise.stream(i, RngPurpose::Init);
            for (int k = 0; k < d; ++k)
                x(i, k) = scale * rng.gaussian();
        }
    }
    return x;
}

} // namespace dplab
