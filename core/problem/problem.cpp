// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/problem.h"
#include "problem/problementry.h"
#include "dplab/common/registry.h"
#include "dplab/problem/problemspec.h"

#include "dplab/problem/multiclass.h"
#include "dplab/problem/objectives.h"
#include "dplab/problem/paper003problems.h"
#include "dplab/problem/paper001problems.h"
#include "dplab/problem/stream.h"

#include "dplab/common/limits.h"

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <set>

namespace dplab {

// --- Problem defaults ------------------------------------------------------------------------

double Problem::globalValue(const Eigen::VectorXd &x) const
{
    const int n = agentCount();
    const Eigen::MatrixXd X = x.transpose().replicate(n, 1);
    Eigen::VectorXd out(n);
    values(X, out);
    return out.mean();
}

Eigen::VectorXd Problem::globalGradient(const Eigen::VectorXd &x) const
{
    const int n = agentCount();
    const Eigen::MatrixXd X = x.transpose().replicate(n, 1);
    Eigen::MatrixXd out(n, x.size());
    gradients(X, out);
    return out.colwise().mean().transpose();
}

std::optional<Eigen::MatrixXd> Problem::globalHessian(const Eigen::VectorXd &) const
{
    return std::nullopt;
}

std::optional<Eigen::VectorXd> Problem::closedFormOptimum() const
{
    return std::nullopt;
}

std::optional<double> Problem::accuracy(const Eigen::VectorXd &, bool) const
{
    return std::nullopt;
}

void Problem::evaluateGlobal(const Eigen::VectorXd &x, const GlobalRequest &request, GlobalEvaluation &out) const
{
    if (request.value)
        out.value = globalValue(x);
    if (request.gradient)
        out.gradient = globalGradient(x);
    if (request.trainAccuracy)
        out.trainAccuracy = accuracy(x, false);
    if (request.testAccuracy)
        out.testAccuracy = accuracy(x, true);
}

void Problem::crossValues(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                          long long t) const
{
    const int n = agentCount();
    thread_local Eigen::MatrixXd replicated;
    thread_local Eigen::VectorXd values;
    replicated.resize(n, X.cols());
    values.resize(n);
    for (Eigen::Index r = 0; r < X.rows(); ++r) {
        replicated.rowwise() = X.row(r);
        this->values(replicated, values, t);
        out[r] = values.sum();
    }
}

// $DPLAB_RESOURCES if set, else <prefix>/share/dplab next to an installed program (cmake
// --install: <prefix>/bin/dplab → DPLAB_RESOURCES_FROM_BIN), else the source tree's resources/.
std::string resourceDir()
{
    if (const char *env = std::getenv("DPLAB_RESOURCES"); env && *env)
        return env;
    // An installed program: <prefix>/bin/dplab → <prefix>/share/dplab (cmake --install).
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const std::filesystem::path installed = (exe.parent_path() / DPLAB_RESOURCES_FROM_BIN).lexically_normal();
        if (std::filesystem::is_directory(installed / "presets", error)
            && std::filesystem::is_directory(installed / "data", error))
            return installed.string();
    }
    return DPLAB_SOURCE_RESOURCES;
}

// --- Registry --------------------------------------------------------------------------------

const std::vector<ProblemEntry> &problemRegistry()
{
    // Adding a problem type = one line here.
    static const std::vector<ProblemEntry> registry = {
        quadraticProblemEntry(),
        leastSquaresProblemEntry(),
        ridgeProblemEntry(),
        logisticProblemEntry(),
        rendezvousProblemEntry(),
        paper003RidgeProblemEntry(),
        nonconvexLogisticProblemEntry(),
        nonconvexPlProblemEntry(),
        onlineLogisticProblemEntry(),
        onlineMulticlassProblemEntry(),
        onlineSoftmaxProblemEntry(),
    };
    return registry;
}

ProblemEntry problemEntry(std::string id, std::string name, std::string reference,
                          std::string explanation, std::vector<ParamSpec> params,
                          decltype(ProblemEntry::resolve) resolve,
                          decltype(ProblemEntry::build) build)
{
    ProblemEntry entry;
    entry.descriptor = {std::move(id), std::move(name), std::move(reference),
                        std::move(explanation), std::move(params)};
    entry.resolve = std::move(resolve);
    entry.build = std::move(build);
    return entry;
}

Json problemFacts(const Problem &problem)
{
    return Json{{"type", problem.id()}, {"agents", problem.agentCount()}, {"dimension", problem.dimension()}};
}

Result<Json> resolveProblemKeys(const std::vector<ParamSpec> &specs, const Json &spec,
                                const std::string &path, const std::string &type,
                                const std::vector<std::string> &nested)
{
    if (!spec.is_object())
        return Error::invalid(path, "must be an object");
    Json rest = spec;
    rest.erase("type");
    for (const auto &key : nested)
        rest.erase(key);
    auto resolved = resolveParams(specs, rest, path);
    if (!resolved)
        return resolved.error();
    (*resolved)["type"] = type;
    return resolved;
}

const std::vector<Descriptor> &problemDescriptors()
{
    static const std::vector<Descriptor> descriptors = descriptorsOf(problemRegistry());
    return descriptors;
}

namespace {

Result<const ProblemEntry *> findEntry(const Json &spec, const std::string &path)
{
    std::string ids;
    for (const auto &entry : problemRegistry())
        ids += (ids.empty() ? "" : ", ") + entry.descriptor.id;
    if (!spec.is_object())
        return Error::invalid(path, "must be an object with a \"type\" (one of: " + ids + ")");
    const std::string typePath = joinPath(path, "type");
    if (!spec.contains("type"))
        return Error::invalid(typePath, "is required (one of: " + ids + ")");
    if (!spec["type"].is_string())
        return Error::invalid(typePath, "must be a string (one of: " + ids + ")");
    const auto type = spec["type"].get<std::string>();
    for (const auto &entry : problemRegistry())
        if (entry.descriptor.id == type)
            return &entry;
    return Error::invalid(typePath, "unknown problem type \"" + type + "\" (expected one of: "
                                        + ids + ")");
}

ProblemContext contextFor(int agents, const std::string &path, const std::string &baseDir,
                          std::uint64_t seed)
{
    ProblemContext context;
    context.agents = agents;
    context.path = path;
    context.baseDir = baseDir;
    context.seed = seed;
    return context;
}

/** A problem object resolved by its type's entry (defaults filled, nothing loaded). */
struct ResolvedEntry {
    const ProblemEntry *entry = nullptr;
    ProblemContext context;
    Json resolved;
};

/** The checks and the resolution every public entry point starts with. May throw. */
Result<ResolvedEntry> resolveEntry(const Json &spec, int agents, const std::string &path,
                                   const std::string &baseDir, std::uint64_t seed)
{
    if (agents < 1)
        return Error::invalid(path, "needs at least one agent");
    auto entry = findEntry(spec, path);
    if (!entry)
        return entry.error();
    ResolvedEntry out{*entry, contextFor(agents, path, baseDir, seed), Json()};
    auto resolved = out.entry->resolve(spec, out.context);
    if (!resolved)
        return resolved.error();
    out.resolved = std::move(resolved.value());
    return out;
}

} // namespace

Result<Json> resolveProblemSpec(const Json &spec, int agents, const std::string &path)
{
    try {
        auto resolved = resolveEntry(spec, agents, path, {}, 0);
        if (!resolved)
            return resolved.error();
        return std::move(resolved->resolved);
    } catch (const std::exception &e) {
        return Error::internal(path, e.what());
    }
}

Result<std::shared_ptr<const Problem>> makeProblem(const Json &spec, int agents,
                                                   const std::string &path,
                                                   const std::string &baseDir,
                                                   std::uint64_t seed)
{
    try {
        auto resolved = resolveEntry(spec, agents, path, baseDir, seed);
        if (!resolved)
            return resolved.error();
        return resolved->entry->build(resolved->resolved, resolved->context);
    } catch (const std::exception &e) {
        return Error::internal(path, e.what());
    }
}

namespace {

/** The problem types that build an online problem (a data stream), known before building. */
bool isOnlineType(const std::string &id)
{
    static const std::set<std::string> ids = {onlineLogisticProblemEntry().descriptor.id,
                                              onlineMulticlassProblemEntry().descriptor.id,
                                              onlineSoftmaxProblemEntry().descriptor.id};
    return ids.count(id) > 0;
}

long long intOr(const Json &object, const char *key, long long def)
{
    if (object.is_object() && object.contains(key) && object.at(key).is_number())
        return object.at(key).get<long long>();
    return def;
}

/** The estimate of ProblemSpec::bytes and the dimension the resolved object decides. */
void estimateProblem(ProblemSpec &spec, int agents, const std::string &path)
{
    const Json &r = spec.resolved;
    const double n = agents;
    const long long dimension = intOr(r, "dimension", -1);
    const bool hasData = !spec.data.empty() || (r.contains("data") && r.at("data").is_object());
    spec.bytesPath = joinPath(path, "dimension");
    if (spec.id == "quadratic") {
        const double d = static_cast<double>(dimension);
        spec.dimension = static_cast<int>(dimension);
        spec.bytes = 8.0 * d * d * (n + 4.0); // A_i, their sum, its factorisation
        return;
    }
    if (!hasData) {
        // Synthetic problems of the papers: samples per agent × dimension, else a few vectors.
        const double d = static_cast<double>(std::max(1LL, dimension));
        const double samples = static_cast<double>(intOr(r, "samples", 0));
        spec.dimension = static_cast<int>(dimension);
        spec.bytes = 8.0 * n * d * (samples + 8.0) + 8.0 * d * d * 4.0;
        if (samples > 0)
            spec.bytesPath = joinPath(path, "samples");
        return;
    }
    // Data problems: the loaded matrix, the data cache's copy, its train/test and per-agent
    // copies, standardisation.
    double largest = 0;
    for (const auto &h : spec.data) {
        spec.bytes += 4.0 * h.header.matrixBytes() + 24.0 * static_cast<double>(h.header.samples);
        if (h.header.matrixBytes() > largest) {
            largest = h.header.matrixBytes();
            spec.bytesPath = h.path;
        }
    }
    const bool bias = r.value("bias", false);
    if ((spec.id == "logistic" || spec.id == "ridge" || spec.id == "least-squares" || spec.id == "online-logistic")
        && spec.data.size() == 1)
        spec.dimension = static_cast<int>(std::min<long long>(spec.data.front().header.features + (bias ? 1 : 0),
                                                              std::numeric_limits<int>::max()));
    // Streams drawn in advance (ints): learners × length, and multiclass's dealt copies.
    if (r.value("sampling", std::string()) != "partition" && r.contains("stream_iterations")) {
        const double length = static_cast<double>(intOr(r, "stream_iterations", 0))
                              * static_cast<double>(std::max(1LL, intOr(r, "samples_per_iteration", 1)));
        spec.bytes += 4.0 * n * length;
        if (4.0 * n * length > largest)
            spec.bytesPath = joinPath(path, "stream_iterations");
    }
    if (r.contains("epochs") && !spec.data.empty())
        spec.bytes += 4.0 * n * static_cast<double>(intOr(r, "epochs", 1))
                      * static_cast<double>(spec.data.front().header.samples);
    // Hessians and references: d × d (d = features × classes at most 10⁴ classes; use features).
    double features = 0;
    for (const auto &h : spec.data)
        features = std::max(features, static_cast<double>(h.header.features) + 1.0);
    spec.bytes += 8.0 * features * features * 3.0;
}

} // namespace

Result<ProblemSpec> resolveProblem(const Json &spec, int agents, const std::string &path,
                                   const std::string &baseDir)
{
    try {
        auto resolved = resolveEntry(spec, agents, path, baseDir, 0);
        if (!resolved)
            return resolved.error();
        ProblemSpec out;
        out.resolved = std::move(resolved->resolved);
        out.id = resolved->entry->descriptor.id;
        out.online = isOnlineType(out.id);
        auto data = scanProblemData(out.resolved, path, baseDir);
        if (!data)
            return data.error();
        out.data = std::move(data.value());
        estimateProblem(out, agents, path);
        return out;
    } catch (const std::exception &e) {
        return Error::internal(path, e.what());
    }
}

Result<std::shared_ptr<const Problem>> buildProblem(const ProblemSpec &spec, int agents,
                                                    const std::string &path,
                                                    const std::string &baseDir, std::uint64_t seed)
{
    try {
        auto entry = findEntry(spec.resolved, path);
        if (!entry)
            return entry.error();
        return (*entry)->build(spec.resolved, contextFor(agents, path, baseDir, seed));
    } catch (const std::bad_alloc &) {
        return Error::invalid(path, "not enough memory to build the problem (its estimate was "
                                        + formatBytes(spec.bytes) + ")");
    } catch (const std::exception &e) {
        return Error::internal(path, e.what());
    }
}

} // namespace dplab
