// SPDX-License-Identifier: GPL-3.0-or-later
//
// The static objectives: quadratic, least squares / ridge, ℓ2-regularised logistic regression.
// Each evaluates all agents at once: values()/gradients() take the n×d matrix of decisions
// (row i = agent i) and loop over agents, each on its own block of data with Eigen matrix ops.
// F(x) = (1/n) Σ_i f_i(x) (every agent counts equally, whatever its sample count).
//
// Threading: immutable after construction; const methods are thread-safe (scratch buffers are
// thread_local).
#pragma once

#include "dplab/problem/dataset.h"
#include "dplab/problem/problem.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dplab {

/** f_i(x) = ½ xᵀA_i x − b_iᵀx with symmetric A_i. ∇f_i = A_i x − b_i, ∇²F = (1/n) Σ A_i.
 *  x* = (Σ A_i)⁻¹ Σ b_i when Σ A_i is positive definite. Cost of values/gradients: n·d². */
class QuadraticProblem final : public Problem
{
public:
    /** REQUIRES: A.size() == b.size() ≥ 1; every A_i is d×d symmetric and b_i has length d.
     *  `facts` are merged into describe() (e.g. the generator). */
    QuadraticProblem(std::vector<Eigen::MatrixXd> A, std::vector<Eigen::VectorXd> b,
                     Json facts = Json::object());

    std::string id() const override { return "quadratic"; }
    int agentCount() const override { return static_cast<int>(mA.size()); }
    int dimension() const override { return static_cast<int>(mB.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** (Σ A_i)⁻¹ Σ b_i, or nullopt when Σ A_i is not positive definite. */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    Json describe() const override;

    const Eigen::MatrixXd &A(int i) const { return mA[static_cast<std::size_t>(i)]; }
    Eigen::VectorXd b(int i) const { return mB.row(i).transpose(); }
    /** Smallest eigenvalue of (1/n) Σ A_i (the strong convexity of F; ≤ 0 means F is not
     *  strongly convex and has no unique minimiser). */
    double globalStrongConvexity() const { return mGlobalMu; }

private:
    std::vector<Eigen::MatrixXd> mA;
    Eigen::MatrixXd mB;    ///< n×d, row i = b_iᵀ
    Eigen::MatrixXd mMeanA; ///< (1/n) Σ A_i
    Eigen::VectorXd mMeanB; ///< (1/n) Σ b_i
    double mGlobalMu = 0.0;
    double mGlobalL = 0.0;
    double mLocalMu = 0.0; ///< min_i λ_min(A_i)
    double mLocalL = 0.0;  ///< max_i λ_max(A_i)
    Json mFacts;
};

/** How randomQuadratic draws its agents. */
struct RandomQuadraticOptions {
    /** Eigenvalue range of every A_i: the smallest eigenvalue is minEigenvalue, the largest
     *  maxEigenvalue (for d ≥ 2), the others uniform in between. Default: [1, 10]. */
    double minEigenvalue = 1.0;
    double maxEigenvalue = 10.0;
    /** Spread of the local minimisers: agent i's minimiser is c + heterogeneity·g_i with a common
     *  centre c and g_i, both i.i.d. N(0, I). 0 = all agents share the minimiser c. Default: 1. */
    double heterogeneity = 1.0;
};

/** A_i = Q_i diag(λ_i) Q_iᵀ with Q_i a random orthogonal matrix (QR of a Gaussian matrix),
 *  b_i = A_i (c + h g_i); the common centre c is the exact minimiser when h = 0. `facts` are
 *  added to describe(). REQUIRES: agents ≥ 1, dimension ≥ 1, min ≤ max. */
QuadraticProblem randomQuadratic(int agents, int dimension, const RandomQuadraticOptions &options,
                                 Rng &rng, const Json &facts = Json::object());

/** Per-agent samples stacked in one ROW-MAJOR matrix: agent i owns rows offsets[i] ..
 *  offsets[i+1] − 1, one contiguous block of memory, so its gradient streams it once. */
struct AgentSamples {
    using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Matrix X;
    Eigen::VectorXd y;
    std::vector<Eigen::Index> offsets; ///< n + 1 entries, offsets[0] = 0

    static AgentSamples stack(const std::vector<Dataset> &agents);
    int agents() const { return static_cast<int>(offsets.size()) - 1; }
    Eigen::Index count(int i) const { return offsets[i + 1] - offsets[i]; }
    auto features(int i) const { return X.middleRows(offsets[i], count(i)); }
    auto labels(int i) const { return y.segment(offsets[i], count(i)); }
};

/** f_i(x) = (1/(2 m_i)) ‖X_i x − y_i‖² + (λ/2)‖x‖²: least squares (λ = 0, id "least-squares") or
 *  ridge (λ > 0, id "ridge"). x* = (Σ G_i + nλI)⁻¹ Σ X_iᵀy_i/m_i with G_i = X_iᵀX_i/m_i.
 *  Cost of values/gradients: 2·M·d for M samples in all. */
class LeastSquaresProblem final : public Problem
{
public:
    /** REQUIRES: agents.size() ≥ 1, every agent has ≥ 1 sample, same feature count, λ ≥ 0. */
    LeastSquaresProblem(const std::vector<Dataset> &agents, double lambda,
                        Json facts = Json::object());

    std::string id() const override { return mLambda > 0.0 ? "ridge" : "least-squares"; }
    int agentCount() const override { return mData.agents(); }
    int dimension() const override { return static_cast<int>(mData.X.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    /** Value and gradient from one residual pass over all samples. */
    void evaluateGlobal(const Eigen::VectorXd &x, const GlobalRequest &request,
                        GlobalEvaluation &out) const override;
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** nullopt when the Hessian is singular (λ = 0 and rank-deficient data). */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    Json describe() const override;

    double lambda() const { return mLambda; }
    const AgentSamples &samples() const { return mData; }

private:
    AgentSamples mData;
    double mLambda = 0.0;
    Eigen::MatrixXd mHessian; ///< (1/n) Σ G_i + λI
    Eigen::VectorXd mRhs;     ///< (1/n) Σ X_iᵀy_i/m_i
    double mLocalMu = 0.0;
    double mLocalL = 0.0;
    Json mFacts;

    double globalPass(const Eigen::VectorXd &x, Eigen::VectorXd *grad) const;
};

/** ℓ2-regularised binary logistic regression, labels ±1:
 *  f_i(x) = (1/m_i) Σ_k log(1 + exp(−y_k x·a_k)) + (λ/2)‖x‖²,
 *  evaluated in overflow-free form (softplus, logistic function split by sign).
 *  A bias is a constant-1 feature appended by the caller (see appendBias); it is regularised
 *  like every other coordinate. Cost of values/gradients: 2·M·d for M samples in all. */
class LogisticProblem final : public Problem
{
public:
    /** REQUIRES: agents.size() ≥ 1, every agent has ≥ 1 sample, labels ±1, λ ≥ 0; `test` has the
     *  same feature count (or no samples: then accuracy(x, true) is nullopt). */
    LogisticProblem(const std::vector<Dataset> &agents, double lambda, Dataset test = {},
                    Json facts = Json::object());

    std::string id() const override { return "logistic"; }
    int agentCount() const override { return mData.agents(); }
    int dimension() const override { return static_cast<int>(mData.X.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    /** Value, gradient and training accuracy from one pass computing the margins X x. */
    void evaluateGlobal(const Eigen::VectorXd &x, const GlobalRequest &request,
                        GlobalEvaluation &out) const override;
    /** (1/n) Σ_i (1/m_i) X_iᵀ diag(σ(1 − σ)) X_i + λI. Cost M·d². */
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** Fraction of samples with sign(x·a) = y (x·a = 0 counts as +1), over all agents' training
     *  samples (test = false) or the held-out set. */
    std::optional<double> accuracy(const Eigen::VectorXd &x, bool test) const override;
    Json describe() const override;

    double lambda() const { return mLambda; }
    const AgentSamples &samples() const { return mData; }
    const Dataset &testSet() const { return mTest; }

private:
    AgentSamples mData;
    Dataset mTest;
    double mLambda = 0.0;
    double mLocalL = 0.0; ///< max_i λ_max(X_iᵀX_i)/(4 m_i) + λ
    Json mFacts;

    /** F, ∇F (when grad is non-null) and the count of correctly classified training samples
     *  (when correct is non-null) from the margins X x. */
    double globalPass(const Eigen::VectorXd &x, Eigen::VectorXd *grad, Eigen::Index *correct) const;
};

// --- Registry --------------------------------------------------------------------------------

/** What a problem factory gets besides its JSON object. */
struct ProblemContext {
    int agents = 1;
    std::string path = "problem"; ///< JSON path of the problem object (for errors)
    std::string baseDir;          ///< folder relative data paths resolve against
    std::uint64_t seed = 0;       ///< experiment seed (used unless the object has its own "seed")
};

/** A problem type: its descriptor, a resolver (validates the JSON object, fills defaults, loads
 *  nothing) and a builder (takes the resolved object). */
struct ProblemEntry {
    Descriptor descriptor;
    std::function<Result<Json>(const Json &spec, const ProblemContext &context)> resolve;
    std::function<Result<std::shared_ptr<const Problem>>(const Json &resolved,
                                                         const ProblemContext &context)>
        build;
};

/** Every problem type, in the order `list problems` shows them. */
const std::vector<ProblemEntry> &problemRegistry();

/** Validates a problem object and fills its defaults without loading data (for `validate` and
 *  the resolved experiment.json). Errors name the JSON path. */
Result<Json> resolveProblemSpec(const Json &spec, int agents, const std::string &path);

ProblemEntry quadraticProblemEntry();
ProblemEntry leastSquaresProblemEntry();
ProblemEntry ridgeProblemEntry();
ProblemEntry logisticProblemEntry();

} // namespace dplab
