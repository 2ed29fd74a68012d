// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/objectives.h"

#include "dplab/problem/kernels.h"

#include "dplab/common/agentteam.h"
#include "dplab/common/checkedsolve.h"
#include "dplab/common/decomposition.h"
#include "problem/problementry.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <cassert>
#include <cmath>

namespace dplab {

namespace {

/** Smallest and largest eigenvalue of a symmetric matrix; `name` names S in the NumericalError
 *  thrown when the eigen-decomposition fails. */
std::pair<double, double> eigenRange(const Eigen::MatrixXd &S, const std::string &name)
{
    if (S.size() == 0)
        return {0.0, 0.0};
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(S, Eigen::EigenvaluesOnly);
    requireEigenvalues(solver, name);
    return {solver.eigenvalues().minCoeff(), solver.eigenvalues().maxCoeff()};
}

/** Smallest and largest eigenvalue of scale·BᵀB (B is m×d) from the Gram matrix of the smaller
 *  side: BᵀB and BBᵀ share their nonzero eigenvalues, so for m < d the m×m matrix BBᵀ gives the
 *  largest one and the smallest is 0 (BᵀB is rank-deficient). Cost O(min(m,d)²·max(m,d) +
 *  min(m,d)³) instead of O(m·d² + d³). */
template <class Block>
std::pair<double, double> gramRange(const Block &B, double scale, const std::string &name)
{
    const Eigen::Index m = B.rows(), d = B.cols();
    if (m == 0 || d == 0)
        return {0.0, 0.0};
    const Eigen::Index k = std::min(m, d);
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(k, k);
    if (m < d)
        G.selfadjointView<Eigen::Lower>().rankUpdate(B, scale);
    else
        G.selfadjointView<Eigen::Lower>().rankUpdate(B.transpose(), scale);
    G = G.selfadjointView<Eigen::Lower>();
    auto range = eigenRange(G, name);
    if (m < d)
        range.first = 0.0;
    return range;
}

/** buffer.head(size), growing the buffer when needed (no allocation once it is large enough). */
Eigen::VectorXd::SegmentReturnType scratch(Eigen::VectorXd &buffer, Eigen::Index size)
{
    if (buffer.size() < size)
        buffer.resize(size);
    return buffer.head(size);
}

/** True when the symmetric matrix S is positive definite, relative to its scale. */
bool positiveDefinite(double minEigenvalue, double maxEigenvalue)
{
    return maxEigenvalue > 0.0 && minEigenvalue > 1e-12 * maxEigenvalue;
}

/** S⁻¹ rhs by a Cholesky factorization when the symmetric S (eigenvalues in [lo, hi]) is
 *  positive definite; none otherwise. `name` names S in an internal error. */
std::optional<Eigen::VectorXd> solvePositiveDefinite(const Eigen::MatrixXd &S, double lo, double hi,
                                                     const Eigen::VectorXd &rhs, const char *name)
{
    if (!positiveDefinite(lo, hi))
        return std::nullopt;
    return choleskySolve(S, rhs, name);
}

Json samplesPerAgent(const AgentSamples &data)
{
    Json counts = Json::array();
    for (int i = 0; i < data.agents(); ++i)
        counts.push_back(data.count(i));
    return counts;
}

/** Merges `facts` over `base` (facts win). */
Json merged(Json base, const Json &facts)
{
    if (facts.is_object())
        for (auto it = facts.begin(); it != facts.end(); ++it)
            base[it.key()] = it.value();
    return base;
}

/** problemFacts and, for the problems made of agents' samples, λ and the samples. */
Json sampleFacts(const Problem &problem, double lambda, const AgentSamples &data)
{
    return merged(problemFacts(problem), Json{{"lambda", lambda},
                                           {"samples", data.X.rows()},
                                           {"samples_per_agent", samplesPerAgent(data)}});
}

} // namespace

// --- Quadratic -------------------------------------------------------------------------------

QuadraticProblem::QuadraticProblem(std::vector<Eigen::MatrixXd> A, std::vector<Eigen::VectorXd> b,
                                   Json facts)
    : mA(std::move(A)), mFacts(std::move(facts))
{
    assert(!mA.empty() && mA.size() == b.size() && "QuadraticProblem: one A_i and b_i per agent");
    const auto n = static_cast<Eigen::Index>(mA.size());
    const Eigen::Index d = mA[0].rows();
    mB.resize(n, d);
    mMeanA.setZero(d, d);
    mLocalMu = std::numeric_limits<double>::infinity();
    mLocalL = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto &Ai = mA[static_cast<std::size_t>(i)];
        assert(Ai.rows() == d && Ai.cols() == d && b[static_cast<std::size_t>(i)].size() == d
               && "QuadraticProblem: A_i must be d×d and b_i of length d");
        assert(Ai.isApprox(Ai.transpose()) && "QuadraticProblem: A_i must be symmetric");
        mB.row(i) = b[static_cast<std::size_t>(i)].transpose();
        mMeanA += Ai;
        const auto [lo, hi] = eigenRange(Ai, "quadratic A_" + std::to_string(i));
        mLocalMu = std::min(mLocalMu, lo);
        mLocalL = std::max(mLocalL, hi);
    }
    mMeanA /= static_cast<double>(n);
    mMeanB = mB.colwise().mean().transpose();
    std::tie(mGlobalMu, mGlobalL) = eigenRange(mMeanA, "quadratic mean A");
}

void QuadraticProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                              Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.size() == agentCount());
    thread_local Eigen::RowVectorXd Ax;
    for (int i = 0; i < agentCount(); ++i) {
        Ax.noalias() = X.row(i) * mA[static_cast<std::size_t>(i)]; // xᵀA_i = (A_i x)ᵀ
        out(i) = 0.5 * Ax.dot(X.row(i)) - mB.row(i).dot(X.row(i));
    }
}

void QuadraticProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                 Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.rows() == X.rows()
           && out.cols() == X.cols());
    for (int i = 0; i < agentCount(); ++i) {
        out.row(i).noalias() = X.row(i) * mA[static_cast<std::size_t>(i)];
        out.row(i) -= mB.row(i);
    }
}

double QuadraticProblem::globalValue(const Eigen::VectorXd &x) const
{
    return 0.5 * x.dot(mMeanA * x) - mMeanB.dot(x);
}

Eigen::VectorXd QuadraticProblem::globalGradient(const Eigen::VectorXd &x) const
{
    return mMeanA * x - mMeanB;
}

std::optional<Eigen::MatrixXd> QuadraticProblem::globalHessian(const Eigen::VectorXd &) const
{
    return mMeanA;
}

std::optional<Eigen::VectorXd> QuadraticProblem::closedFormOptimum() const
{
    // Past positiveDefinite, κ(A) < 10¹²: see LeastSquaresProblem::closedFormOptimum.
    return solvePositiveDefinite(mMeanA, mGlobalMu, mGlobalL, mMeanB, "quadratic mean A");
}

Json QuadraticProblem::describe() const
{
    return merged(merged(problemFacts(*this), Json{{"smoothness", mLocalL},
                                                {"strong_convexity", mLocalMu},
                                                {"global_smoothness", mGlobalL},
                                                {"global_strong_convexity", mGlobalMu}}),
                  mFacts);
}

QuadraticProblem randomQuadratic(int agents, int dimension, const RandomQuadraticOptions &options,
                                 Rng &rng, const Json &facts)
{
    assert(agents >= 1 && dimension >= 1 && options.minEigenvalue <= options.maxEigenvalue);
    const Eigen::Index d = dimension;
    Eigen::VectorXd centre(d);
    rng.fillGaussian(centre, 1.0);
    std::vector<Eigen::MatrixXd> A;
    std::vector<Eigen::VectorXd> b;
    for (int i = 0; i < agents; ++i) {
        Eigen::MatrixXd G(d, d);
        for (Eigen::Index c = 0; c < d; ++c)
            for (Eigen::Index r = 0; r < d; ++r)
                G(r, c) = rng.gaussian();
        // No failure mode to check: Householder reflections give an orthogonal Q for any finite
        // G (a rank-deficient G, of probability 0, only loses Haar uniformity).
        Eigen::HouseholderQR<Eigen::MatrixXd> qr(G);
        Eigen::MatrixXd Q = qr.householderQ();
        // Fix the column signs by R's diagonal so that Q is Haar distributed.
        for (Eigen::Index c = 0; c < d; ++c)
            if (qr.matrixQR()(c, c) < 0.0)
                Q.col(c) *= -1.0;
        Eigen::VectorXd lambda(d);
        for (Eigen::Index k = 0; k < d; ++k)
            lambda(k) = rng.uniform(options.minEigenvalue, options.maxEigenvalue);
        if (d >= 2) {
            lambda(0) = options.minEigenvalue;
            lambda(d - 1) = options.maxEigenvalue;
        }
        Eigen::MatrixXd Ai = Q * lambda.asDiagonal() * Q.transpose();
        Ai = 0.5 * (Ai + Ai.transpose()).eval();
        Eigen::VectorXd g(d);
        rng.fillGaussian(g, 1.0);
        b.push_back(Ai * (centre + options.heterogeneity * g));
        A.push_back(std::move(Ai));
    }
    Json all = merged(Json{{"generator", "random"},
                           {"min_eigenvalue", options.minEigenvalue},
                           {"max_eigenvalue", options.maxEigenvalue},
                           {"heterogeneity", options.heterogeneity}},
                      facts);
    return QuadraticProblem(std::move(A), std::move(b), std::move(all));
}

// --- Stacked samples -----------------------------------------------------------------------

AgentSamples AgentSamples::stack(const std::vector<Dataset> &agents)
{
    assert(!agents.empty() && "AgentSamples::stack: need at least one agent");
    AgentSamples out;
    out.offsets.push_back(0);
    for (const auto &a : agents)
        out.offsets.push_back(out.offsets.back() + a.samples());
    const Eigen::Index features = agents[0].features();
    out.X.resize(out.offsets.back(), features);
    out.y.resize(out.offsets.back());
    for (std::size_t i = 0; i < agents.size(); ++i) {
        assert(agents[i].features() == features && "AgentSamples::stack: feature counts differ");
        out.X.middleRows(out.offsets[i], agents[i].samples()) = agents[i].X;
        out.y.segment(out.offsets[i], agents[i].samples()) = agents[i].y;
    }
    return out;
}

// --- Least squares / ridge -----------------------------------------------------------------

LeastSquaresProblem::LeastSquaresProblem(const std::vector<Dataset> &agents, double lambda,
                                         Json facts)
    : mData(AgentSamples::stack(agents)), mLambda(lambda), mFacts(std::move(facts))
{
    assert(lambda >= 0.0 && "LeastSquaresProblem: lambda must be ≥ 0");
    const Eigen::Index d = mData.X.cols();
    const int n = mData.agents();
    mHessian.setZero(d, d);
    mRhs.setZero(d);
    mLocalMu = std::numeric_limits<double>::infinity();
    mLocalL = -std::numeric_limits<double>::infinity();
    // The Hessian (1/n) Σ_i X_iᵀX_i/m_i + λI as one rank update of the rows scaled by
    // 1/√(n m_i); the local constants from each agent's Gram matrix of the smaller side.
    AgentSamples::Matrix scaled(mData.X.rows(), d);
    for (int i = 0; i < n; ++i) {
        assert(mData.count(i) > 0 && "LeastSquaresProblem: every agent needs a sample");
        const auto m = static_cast<double>(mData.count(i));
        const auto [lo, hi] = gramRange(mData.features(i), 1.0 / m,
                                        "Gram matrix of agent " + std::to_string(i) + "'s features");
        mLocalMu = std::min(mLocalMu, lo + lambda);
        mLocalL = std::max(mLocalL, hi + lambda);
        scaled.middleRows(mData.offsets[i], mData.count(i)) = mData.features(i) / std::sqrt(n * m);
        mRhs.noalias() += mData.features(i).transpose() * mData.labels(i) / m;
    }
    mHessian.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose(), 1.0);
    mHessian = mHessian.selfadjointView<Eigen::Lower>();
    mHessian.diagonal().array() += lambda;
    mRhs /= n;
}

void LeastSquaresProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                 Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.size() == agentCount());
    thread_local Eigen::VectorXd xBuffer, residualBuffer;
    auto xi = scratch(xBuffer, dimension());
    for (int i = 0; i < agentCount(); ++i) {
        const auto m = static_cast<double>(mData.count(i));
        auto residual = scratch(residualBuffer, mData.count(i));
        xi = X.row(i).transpose();
        residual.noalias() = mData.features(i) * xi;
        residual -= mData.labels(i);
        out(i) = residual.squaredNorm() / (2.0 * m) + 0.5 * mLambda * X.row(i).squaredNorm();
    }
}

void LeastSquaresProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                    Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.rows() == X.rows()
           && out.cols() == X.cols());
    thread_local Eigen::VectorXd xBuffer, gBuffer, residualBuffer;
    auto xi = scratch(xBuffer, dimension());
    auto g = scratch(gBuffer, dimension());
    for (int i = 0; i < agentCount(); ++i) {
        const auto m = static_cast<double>(mData.count(i));
        auto residual = scratch(residualBuffer, mData.count(i));
        // Two matrix-vector products over agent i's contiguous rows.
        xi = X.row(i).transpose();
        residual.noalias() = mData.features(i) * xi;
        residual -= mData.labels(i);
        g.noalias() = mData.features(i).transpose() * residual;
        out.row(i) = g.transpose() / m + mLambda * X.row(i);
    }
}

double LeastSquaresProblem::globalPass(const Eigen::VectorXd &x, Eigen::VectorXd *grad) const
{
    thread_local Eigen::VectorXd residualBuffer;
    auto residual = scratch(residualBuffer, mData.X.rows());
    residual.noalias() = mData.X * x;
    residual -= mData.y;
    const int n = agentCount();
    double value = 0.0;
    for (int i = 0; i < n; ++i) {
        const auto m = static_cast<double>(mData.count(i));
        auto ri = residual.segment(mData.offsets[i], mData.count(i));
        value += ri.squaredNorm() / (2.0 * m);
        ri /= n * m; // ∂F/∂z of agent i's samples
    }
    if (grad) {
        grad->noalias() = mData.X.transpose() * residual;
        *grad += mLambda * x;
    }
    return value / n + 0.5 * mLambda * x.squaredNorm();
}

double LeastSquaresProblem::globalValue(const Eigen::VectorXd &x) const
{
    return globalPass(x, nullptr);
}

Eigen::VectorXd LeastSquaresProblem::globalGradient(const Eigen::VectorXd &x) const
{
    Eigen::VectorXd g(x.size());
    globalPass(x, &g);
    return g;
}

void LeastSquaresProblem::evaluateGlobal(const Eigen::VectorXd &x, const GlobalRequest &request,
                                         GlobalEvaluation &out) const
{
    if (request.gradient)
        out.gradient.resize(x.size());
    const double value = globalPass(x, request.gradient ? &out.gradient : nullptr);
    if (request.value)
        out.value = value;
}

std::optional<Eigen::MatrixXd> LeastSquaresProblem::globalHessian(const Eigen::VectorXd &) const
{
    return mHessian;
}

std::optional<Eigen::VectorXd> LeastSquaresProblem::closedFormOptimum() const
{
    const auto [lo, hi] = eigenRange(mHessian, "least-squares Hessian");
    // Here H is finite (eigenRange refuses NaN and ∞) and κ(H) = hi/lo < 10¹². Cholesky runs to
    // completion when 20·d^{3/2}·κ·ε < 1 (Higham, Accuracy and Stability of Numerical
    // Algorithms, Thm. 10.7: certain for d ≤ 60) and in practice up to κ ≈ 1/ε ≈ 10¹⁶; no input
    // was found that reaches the check in choleskySolve, which decomposition_test feeds directly.
    return solvePositiveDefinite(mHessian, lo, hi, mRhs, "least-squares Hessian");
}

Json LeastSquaresProblem::describe() const
{
    return merged(merged(sampleFacts(*this, mLambda, mData),
                         Json{{"smoothness", mLocalL}, {"strong_convexity", mLocalMu}}),
                  mFacts);
}

// --- Logistic regression -------------------------------------------------------------------

namespace {

/** s_k = σ(−m_k) = 1/(1 + exp(m_k)) without overflow. */
template <class Margins>
Eigen::ArrayXd logisticOfMinus(const Margins &margins)
{
    const Eigen::ArrayXd e = (-margins.abs()).exp();
    return (margins >= 0.0).select(e / (1.0 + e), 1.0 / (1.0 + e));
}

} // namespace

LogisticProblem::LogisticProblem(const std::vector<Dataset> &agents, double lambda, Dataset test,
                                 Json facts)
    : mData(AgentSamples::stack(agents)), mTest(std::move(test)), mLambda(lambda),
      mFacts(std::move(facts))
{
    assert(lambda >= 0.0 && "LogisticProblem: lambda must be ≥ 0");
    assert((mData.y.array().abs() == 1.0).all() && "LogisticProblem: labels must be ±1");
    assert((mTest.samples() == 0 || mTest.features() == mData.X.cols())
           && "LogisticProblem: test set has a different feature count");
    mLocalL = 0.0;
    for (int i = 0; i < mData.agents(); ++i) {
        assert(mData.count(i) > 0 && "LogisticProblem: every agent needs a sample");
        mLocalL = std::max(mLocalL, gramRange(mData.features(i), 0.25 / static_cast<double>(mData.count(i)),
                                              "Gram matrix of agent " + std::to_string(i) + "'s features")
                                        .second);
    }
    mLocalL += lambda;
}

void LogisticProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                             Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.size() == agentCount());
    const Eigen::Index d = dimension();
    // Agent by agent, each from its own rows only: split over the job's threads when the pass is
    // large enough, with the same bits (dplab/common/agentteam.h).
    forAgents(agentCount(), static_cast<double>(mData.X.size()), d, [&](int begin, int end, double *scratch) {
        Eigen::Map<Eigen::VectorXd> xi(scratch, d);
        for (int i = begin; i < end; ++i) {
            xi = X.row(i).transpose();
            const Eigen::Index first = mData.offsets[i];
            const kernels::LogisticPass pass = kernels::logisticPass(
                mData.X.row(first).data(), mData.y.data() + first, mData.count(i), d, xi.data(), 0.0, nullptr,
                true, false);
            out(i) = pass.loss / static_cast<double>(mData.count(i)) + 0.5 * mLambda * X.row(i).squaredNorm();
        }
    });
}

void LogisticProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.rows() == X.rows()
           && out.cols() == X.cols());
    const Eigen::Index d = dimension();
    // Agent by agent, each writing its own row of `out` from its own rows of data: split over the
    // job's threads when the pass is large enough, with the same bits (dplab/common/agentteam.h).
    forAgents(agentCount(), static_cast<double>(mData.X.size()), 2 * d, [&](int begin, int end, double *scratch) {
        Eigen::Map<Eigen::VectorXd> xi(scratch, d), g(scratch + d, d);
        for (int i = begin; i < end; ++i) {
            // ∇ = −(1/m) Σ y_k σ(−y_k x·a_k) a_k + λx: one fused pass over agent i's contiguous rows
            // (margins, weights and the sum while each group of rows is in cache; problem/kernels.h).
            xi = X.row(i).transpose();
            g.setZero();
            const Eigen::Index first = mData.offsets[i];
            kernels::logisticPass(mData.X.row(first).data(), mData.y.data() + first, mData.count(i), d, xi.data(),
                                  1.0 / static_cast<double>(mData.count(i)), g.data(), false, false);
            out.row(i) = g.transpose() + mLambda * X.row(i);
        }
    });
}

double LogisticProblem::globalPass(const Eigen::VectorXd &x, Eigen::VectorXd *grad, Eigen::Index *correct) const
{
    // One fused pass over all n·m samples (problem/kernels.h): F(x), ∇F(x) and the training
    // accuracy together, agent by agent (each agent's loss is its own mean).
    const int n = agentCount();
    if (grad)
        grad->setZero(x.size());
    double value = 0.0;
    Eigen::Index right = 0;
    for (int i = 0; i < n; ++i) {
        const Eigen::Index first = mData.offsets[i];
        const auto m = static_cast<double>(mData.count(i));
        const kernels::LogisticPass pass = kernels::logisticPass(
            mData.X.row(first).data(), mData.y.data() + first, mData.count(i), dimension(), x.data(),
            1.0 / (n * m), grad ? grad->data() : nullptr, true, correct != nullptr);
        value += pass.loss / m;
        right += pass.correct;
    }
    if (correct)
        *correct = right;
    if (grad)
        *grad += mLambda * x;
    return value / n + 0.5 * mLambda * x.squaredNorm();
}

double LogisticProblem::globalValue(const Eigen::VectorXd &x) const
{
    return globalPass(x, nullptr, nullptr);
}

Eigen::VectorXd LogisticProblem::globalGradient(const Eigen::VectorXd &x) const
{
    Eigen::VectorXd g(x.size());
    globalPass(x, &g, nullptr);
    return g;
}

void LogisticProblem::evaluateGlobal(const Eigen::VectorXd &x, const GlobalRequest &request,
                                     GlobalEvaluation &out) const
{
    if (request.gradient)
        out.gradient.resize(x.size());
    Eigen::Index correct = 0;
    const double value = globalPass(x, request.gradient ? &out.gradient : nullptr,
                                    request.trainAccuracy ? &correct : nullptr);
    if (request.value)
        out.value = value;
    if (request.trainAccuracy)
        out.trainAccuracy = mData.X.rows() > 0 ? std::optional<double>(static_cast<double>(correct)
                                                                       / static_cast<double>(mData.X.rows()))
                                               : std::nullopt;
    if (request.testAccuracy)
        out.testAccuracy = accuracy(x, true);
}

std::optional<Eigen::MatrixXd> LogisticProblem::globalHessian(const Eigen::VectorXd &x) const
{
    const Eigen::Index d = dimension();
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(d, d);
    for (int i = 0; i < agentCount(); ++i) {
        const auto Xi = mData.features(i);
        const Eigen::ArrayXd s = logisticOfMinus(mData.labels(i).array() * (Xi * x).array());
        // σ(m)σ(−m) = s(1 − s); weight rows by its square root for a symmetric rank update.
        const Eigen::VectorXd root = (s * (1.0 - s)).sqrt().matrix();
        const Eigen::MatrixXd weighted = root.asDiagonal() * Xi;
        H.selfadjointView<Eigen::Lower>().rankUpdate(weighted.transpose(),
                                                     1.0 / static_cast<double>(mData.count(i)));
    }
    Eigen::MatrixXd full = H.selfadjointView<Eigen::Lower>();
    full /= agentCount();
    full.diagonal().array() += mLambda;
    return full;
}

std::optional<double> LogisticProblem::accuracy(const Eigen::VectorXd &x, bool test) const
{
    const Eigen::VectorXd &y = test ? mTest.y : mData.y;
    if (y.size() == 0)
        return std::nullopt;
    const Eigen::VectorXd z = test ? Eigen::VectorXd(mTest.X * x) : Eigen::VectorXd(mData.X * x);
    const Eigen::ArrayXd ones = Eigen::ArrayXd::Ones(z.size());
    const Eigen::ArrayXd predicted = (z.array() >= 0.0).select(ones, -ones);
    return (predicted == y.array()).cast<double>().mean();
}

Json LogisticProblem::describe() const
{
    const auto positives = (mData.y.array() > 0.0).count();
    return merged(merged(sampleFacts(*this, mLambda, mData),
                         Json{{"test_samples", mTest.samples()},
                              {"positive_samples", positives},
                              {"negative_samples", mData.X.rows() - positives},
                              {"smoothness", mLocalL},
                              {"strong_convexity", mLambda}}),
                  mFacts);
}

} // namespace dplab
