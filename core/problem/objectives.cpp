// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/objectives.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <cassert>
#include <cmath>

namespace dplab {

namespace {

/** Smallest and largest eigenvalue of a symmetric matrix. */
std::pair<double, double> eigenRange(const Eigen::MatrixXd &S)
{
    if (S.size() == 0)
        return {0.0, 0.0};
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(S, Eigen::EigenvaluesOnly);
    return {solver.eigenvalues().minCoeff(), solver.eigenvalues().maxCoeff()};
}

/** True when the symmetric matrix S is positive definite, relative to its scale. */
bool positiveDefinite(double minEigenvalue, double maxEigenvalue)
{
    return maxEigenvalue > 0.0 && minEigenvalue > 1e-12 * maxEigenvalue;
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
        const auto [lo, hi] = eigenRange(Ai);
        mLocalMu = std::min(mLocalMu, lo);
        mLocalL = std::max(mLocalL, hi);
    }
    mMeanA /= static_cast<double>(n);
    mMeanB = mB.colwise().mean().transpose();
    std::tie(mGlobalMu, mGlobalL) = eigenRange(mMeanA);
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
    if (!positiveDefinite(mGlobalMu, mGlobalL))
        return std::nullopt;
    return Eigen::VectorXd(mMeanA.llt().solve(mMeanB));
}

Json QuadraticProblem::describe() const
{
    return merged(Json{{"type", id()},
                       {"agents", agentCount()},
                       {"dimension", dimension()},
                       {"smoothness", mLocalL},
                       {"strong_convexity", mLocalMu},
                       {"global_smoothness", mGlobalL},
                       {"global_strong_convexity", mGlobalMu}},
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
    for (int i = 0; i < n; ++i) {
        assert(mData.count(i) > 0 && "LeastSquaresProblem: every agent needs a sample");
        const auto m = static_cast<double>(mData.count(i));
        Eigen::MatrixXd G = Eigen::MatrixXd::Zero(d, d);
        G.selfadjointView<Eigen::Lower>().rankUpdate(mData.features(i).transpose(), 1.0 / m);
        G = G.selfadjointView<Eigen::Lower>();
        const auto [lo, hi] = eigenRange(G);
        mLocalMu = std::min(mLocalMu, lo + lambda);
        mLocalL = std::max(mLocalL, hi + lambda);
        mHessian += G;
        mRhs.noalias() += mData.features(i).transpose() * mData.labels(i) / m;
    }
    mHessian /= n;
    mHessian.diagonal().array() += lambda;
    mRhs /= n;
}

void LeastSquaresProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                 Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.size() == agentCount());
    thread_local Eigen::VectorXd residual;
    for (int i = 0; i < agentCount(); ++i) {
        const auto m = static_cast<double>(mData.count(i));
        residual.noalias() = mData.features(i) * X.row(i).transpose();
        residual -= mData.labels(i);
        out(i) = residual.squaredNorm() / (2.0 * m) + 0.5 * mLambda * X.row(i).squaredNorm();
    }
}

void LeastSquaresProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                    Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.rows() == X.rows()
           && out.cols() == X.cols());
    thread_local Eigen::VectorXd residual;
    for (int i = 0; i < agentCount(); ++i) {
        const auto m = static_cast<double>(mData.count(i));
        residual.noalias() = mData.features(i) * X.row(i).transpose();
        residual -= mData.labels(i);
        out.row(i).noalias() = residual.transpose() * mData.features(i);
        out.row(i) /= m;
        out.row(i) += mLambda * X.row(i);
    }
}

std::optional<Eigen::MatrixXd> LeastSquaresProblem::globalHessian(const Eigen::VectorXd &) const
{
    return mHessian;
}

std::optional<Eigen::VectorXd> LeastSquaresProblem::closedFormOptimum() const
{
    const auto [lo, hi] = eigenRange(mHessian);
    if (!positiveDefinite(lo, hi))
        return std::nullopt;
    return Eigen::VectorXd(mHessian.llt().solve(mRhs));
}

Json LeastSquaresProblem::describe() const
{
    return merged(Json{{"type", id()},
                       {"agents", agentCount()},
                       {"dimension", dimension()},
                       {"lambda", mLambda},
                       {"samples", mData.X.rows()},
                       {"samples_per_agent", samplesPerAgent(mData)},
                       {"smoothness", mLocalL},
                       {"strong_convexity", mLocalMu}},
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
    const Eigen::Index d = mData.X.cols();
    mLocalL = 0.0;
    for (int i = 0; i < mData.agents(); ++i) {
        assert(mData.count(i) > 0 && "LogisticProblem: every agent needs a sample");
        Eigen::MatrixXd G = Eigen::MatrixXd::Zero(d, d);
        G.selfadjointView<Eigen::Lower>().rankUpdate(mData.features(i).transpose(),
                                                     0.25 / static_cast<double>(mData.count(i)));
        G = G.selfadjointView<Eigen::Lower>();
        mLocalL = std::max(mLocalL, eigenRange(G).second);
    }
    mLocalL += lambda;
}

void LogisticProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                             Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.size() == agentCount());
    thread_local Eigen::VectorXd z;
    for (int i = 0; i < agentCount(); ++i) {
        z.noalias() = mData.features(i) * X.row(i).transpose();
        const Eigen::ArrayXd margins = mData.labels(i).array() * z.array();
        // log(1 + exp(−m)) = max(−m, 0) + log1p(exp(−|m|))
        const double loss =
            ((-margins).max(0.0) + (-margins.abs()).exp().log1p()).sum()
            / static_cast<double>(mData.count(i));
        out(i) = loss + 0.5 * mLambda * X.row(i).squaredNorm();
    }
}

void LogisticProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    assert(X.rows() == agentCount() && X.cols() == dimension() && out.rows() == X.rows()
           && out.cols() == X.cols());
    thread_local Eigen::VectorXd z;
    for (int i = 0; i < agentCount(); ++i) {
        z.noalias() = mData.features(i) * X.row(i).transpose();
        const auto labels = mData.labels(i).array();
        // ∇ = −(1/m) Σ y_k σ(−y_k x·a_k) a_k + λx
        z = -(labels * logisticOfMinus(labels * z.array())).matrix()
            / static_cast<double>(mData.count(i));
        out.row(i).noalias() = z.transpose() * mData.features(i);
        out.row(i) += mLambda * X.row(i);
    }
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
    const Eigen::MatrixXd &A = test ? mTest.X : mData.X;
    const Eigen::VectorXd &y = test ? mTest.y : mData.y;
    if (A.rows() == 0)
        return std::nullopt;
    const Eigen::ArrayXd ones = Eigen::ArrayXd::Ones(A.rows());
    const Eigen::ArrayXd predicted = ((A * x).array() >= 0.0).select(ones, -ones);
    return (predicted == y.array()).cast<double>().mean();
}

Json LogisticProblem::describe() const
{
    const auto positives = (mData.y.array() > 0.0).count();
    return merged(Json{{"type", id()},
                       {"agents", agentCount()},
                       {"dimension", dimension()},
                       {"lambda", mLambda},
                       {"samples", mData.X.rows()},
                       {"samples_per_agent", samplesPerAgent(mData)},
                       {"test_samples", mTest.samples()},
                       {"positive_samples", positives},
                       {"negative_samples", mData.X.rows() - positives},
                       {"smoothness", mLocalL},
                       {"strong_convexity", mLambda}},
                  mFacts);
}

} // namespace dplab
