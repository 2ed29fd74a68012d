// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/problem.h"

#include "dplab/problem/multiclass.h"
#include "dplab/problem/objectives.h"
#include "dplab/problem/paper003problems.h"
#include "dplab/problem/paper001problems.h"
#include "dplab/problem/stream.h"

#include <cstdlib>

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

std::string resourceDir()
{
    if (const char *env = std::getenv("DPLAB_RESOURCES"); env && *env)
        return env;
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

const std::vector<Descriptor> &problemDescriptors()
{
    static const std::vector<Descriptor> descriptors = [] {
        std::vector<Descriptor> out;
        for (const auto &entry : problemRegistry())
            out.push_back(entry.descriptor);
        return out;
    }();
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

} // namespace

Result<Json> resolveProblemSpec(const Json &spec, int agents, const std::string &path)
{
    if (agents < 1)
        return Error::invalid(path, "needs at least one agent");
    try {
        auto entry = findEntry(spec, path);
        if (!entry)
            return entry.error();
        ProblemContext context;
        context.agents = agents;
        context.path = path;
        return (*entry)->resolve(spec, context);
    } catch (const std::exception &e) {
        return Error::internal(path, e.what());
    }
}

Result<std::shared_ptr<const Problem>> makeProblem(const Json &spec, int agents,
                                                   const std::string &path,
                                                   const std::string &baseDir,
                                                   std::uint64_t seed)
{
    if (agents < 1)
        return Error::invalid(path, "needs at least one agent");
    try {
        auto entry = findEntry(spec, path);
        if (!entry)
            return entry.error();
        ProblemContext context;
        context.agents = agents;
        context.path = path;
        context.baseDir = baseDir;
        context.seed = seed;
        auto resolved = (*entry)->resolve(spec, context);
        if (!resolved)
            return resolved.error();
        return (*entry)->build(*resolved, context);
    } catch (const std::exception &e) {
        return Error::internal(path, e.what());
    }
}

} // namespace dplab
