// SPDX-License-Identifier: GPL-3.0-or-later
//
// Problems: per-agent local objectives f_i, evaluated for all agents at once.
// Agent state is an n×d matrix, row i = agent i's decision (docs/architecture.md §2). The global objective is
// F(x) = (1/n) Σ_i f_i(x). Online problems (papers 000/002) use the iteration t; static ones
// ignore it.
//
// Threading: a Problem is immutable after construction; its const methods are thread-safe, so
// one Problem may serve every repetition of a run in parallel.
#pragma once

#include "dplab/common/params.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>

namespace dplab {

/** The reference solution x*, F* = F(x*) of the centralized noise-free problem. */
struct Reference {
    Eigen::VectorXd x;
    double value = 0.0;
    double gradientNorm = 0.0; ///< ‖∇F(x*)‖ reached by the solver
    std::string method;        ///< "closed form", "newton", "l-bfgs"
};

/** What Problem::evaluateGlobal computes at one point (the metrics at x̄). */
struct GlobalRequest {
    bool value = false;
    bool gradient = false;
    bool trainAccuracy = false;
    bool testAccuracy = false;
};

struct GlobalEvaluation {
    double value = 0.0;
    Eigen::VectorXd gradient;
    std::optional<double> trainAccuracy;
    std::optional<double> testAccuracy;
};

class Problem
{
public:
    virtual ~Problem() = default;

    /** The registry id ("quadratic", "logistic", ...). */
    virtual std::string id() const = 0;
    virtual int agentCount() const = 0;
    virtual int dimension() const = 0;

    /** out(i) = f_i(X.row(i)) at iteration t. REQUIRES: X is agentCount() × dimension(). */
    virtual void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                        long long t = 0) const = 0;
    /** out.row(i) = ∇f_i(X.row(i)) at iteration t. */
    virtual void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                           Eigen::Ref<Eigen::MatrixXd> out, long long t = 0) const = 0;

    /** F(x) = (1/n) Σ f_i(x) (static problems; online ones use their full data). */
    virtual double globalValue(const Eigen::VectorXd &x) const;
    /** ∇F(x). */
    virtual Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const;
    /** ∇²F(x) where the problem provides it (used by the Newton solver). */
    virtual std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const;
    /** x* in closed form where one exists (quadratics, ridge). */
    virtual std::optional<Eigen::VectorXd> closedFormOptimum() const;

    virtual bool isOnline() const { return false; }
    /** Classification accuracy of x on the training (test = false) or held-out split;
     *  nullopt when the problem is not a classifier or has no such split. */
    virtual std::optional<double> accuracy(const Eigen::VectorXd &x, bool test) const;
    /** F(x), ∇F(x) and the accuracies at x, as requested, in one pass over the data where the
     *  problem can share the work (the logistic margins serve all three). Default: the separate
     *  calls. Values equal the separate calls up to round-off. */
    virtual void evaluateGlobal(const Eigen::VectorXd &x, const GlobalRequest &request,
                                GlobalEvaluation &out) const;
    /** out(r) = Σ_j f_{t,j}(X.row(r)), j over all agents, for any number of rows of X: each
     *  decision scored on every agent's loss of iteration t (the online average loss and
     *  regret). Default: values() on each row replicated over the agents, rows·n evaluations;
     *  online problems override it with one matrix product over the samples of iteration t. */
    virtual void crossValues(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                             long long t) const;

    /** Facts for summary.json and the report: type, data source, samples per agent, ... */
    virtual Json describe() const = 0;
};

const std::vector<Descriptor> &problemDescriptors();

/** Builds the problem of an experiment's `problem` object for `agents` agents.
 *  `baseDir` resolves relative data paths (the experiment file's folder); `seed` is the
 *  experiment seed (synthetic data and splits draw from RngPurpose::Data streams of it unless
 *  the problem object has its own "seed"). Errors name `path` or file:line. */
Result<std::shared_ptr<const Problem>> makeProblem(const Json &spec, int agents,
                                                   const std::string &path,
                                                   const std::string &baseDir,
                                                   std::uint64_t seed);

/** The centralized noise-free reference: closed form where available, else Newton (when a
 *  Hessian is provided), else L-BFGS; to ‖∇F‖ ≤ 1e-10 (relative to the scale of F). */
Result<Reference> solveReference(const Problem &problem);

/** Where bundled resources (resources/data, resources/presets) live: $DPLAB_RESOURCES if set,
 *  else the source tree's resources/ folder compiled in. */
std::string resourceDir();

} // namespace dplab
