// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/paper001problems.h"
#include "problem/problementry.h"

#include "dplab/common/formatnumber.h"
#include "problem/vectormath.h"
#include "dplab/common/decomposition.h"

#include <Eigen/Eigenvalues>

#include <cassert>
#include <cmath>

namespace dplab {

namespace {

constexpr long long kMaxSeed = 9007199254740992LL; // 2^53: exact in a JSON double

/** log(1 + e^z) without overflow. */
double softplus(double z)
{
    return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z)));
}

std::uint64_t chooseSeed(long long own, std::uint64_t experiment)
{
    return own >= 0 ? static_cast<std::uint64_t>(own) : experiment;
}

// --- (37) -------------------------------------------------------------------------------------

std::vector<ParamSpec> logisticSpecs()
{
    return {
        intParam("dimension", "Dimension", 10, 1, 100000, "Dimension d of x and of the features (paper: 10)."),
        intParam("samples", "Samples per agent", 200, 1, 10000000,
                 "m: synthetic samples per agent (paper: 200)."),
        realParam("lambda", "Regulariser λ", 0.001, 0.0, 1e6,
                  "λ of the nonconvex regulariser Σ_s λα x_s²/(1 + α x_s²) (paper: 0.001)."),
        realParam("alpha", "Regulariser α", 1.0, 0.0, 1e6,
                  "α of the regulariser (paper: 1; not the reference steps α_x, α_y).",
                  {.minExclusive = true}),
        intParam("seed", "Seed", -1, -1, kMaxSeed, "Seed of the synthetic data (-1 = the experiment seed)."),
    };
}

Result<Json> resolveLogistic(const Json &spec, const ProblemContext &context)
{
    return resolveProblemKeys(logisticSpecs(), spec, context.path, "nonconvex-logistic");
}

Result<std::shared_ptr<const Problem>> buildLogistic(const Json &resolved, const ProblemContext &context)
{
    const std::uint64_t seed = chooseSeed(paramInt(resolved, "seed"), context.seed);
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    std::vector<Eigen::MatrixXd> features;
    std::vector<Eigen::VectorXd> labels;
    paper001LogisticData(context.agents, static_cast<int>(paramInt(resolved, "samples")),
                         static_cast<int>(paramInt(resolved, "dimension")), rng, features, labels);
    return std::shared_ptr<const Problem>(std::make_shared<NonconvexLogisticProblem>(
        std::move(features), std::move(labels), paramReal(resolved, "lambda"), paramReal(resolved, "alpha"),
        Json{{"seed", seed}, {"data", "synthetic: v ~ N(0, I), u uniform ±1 (paper 001, Section V)"}}));
}

// --- (38) -------------------------------------------------------------------------------------

std::vector<ParamSpec> plSpecs()
{
    return {
        intParam("dimension", "Dimension", 10, 1, 100000, "Dimension d of x (paper: 10)."),
        intParam("seed", "Seed", -1, -1, kMaxSeed,
                 "Seed of the random m_i when \"m\" is not given (-1 = the experiment seed)."),
    };
}

/** Reads an explicit "m": one finite number per agent, summing to 0. */
Result<Eigen::VectorXd> readCoefficients(const Json &m, int agents, const std::string &path)
{
    if (!m.is_array() || static_cast<int>(m.size()) != agents)
        return Error::invalid(path, "must list one number m_i per agent (" + std::to_string(agents) + ")");
    Eigen::VectorXd v(agents);
    double scale = 0.0;
    for (int i = 0; i < agents; ++i) {
        const Json &item = m[static_cast<std::size_t>(i)];
        if (!item.is_number() || !std::isfinite(item.get<double>()))
            return Error::invalid(indexPath(path, static_cast<std::size_t>(i)), "must be a finite number");
        v[i] = item.get<double>();
        scale = std::max(scale, std::abs(v[i]));
    }
    if (std::abs(v.sum()) > 1e-9 * std::max(1.0, scale))
        return Error::invalid(path, "must sum to 0 (the sum is " + formatNumber(v.sum())
                                        + "), else x* = 0 is not the minimiser of F");
    return v;
}

Result<Json> resolvePl(const Json &spec, const ProblemContext &context)
{
    auto resolved = resolveProblemKeys(plSpecs(), spec, context.path, "nonconvex-pl", {"m"});
    if (!resolved)
        return resolved.error();
    Json out = *resolved;
    if (spec.contains("m")) {
        auto m = readCoefficients(spec["m"], context.agents, joinPath(context.path, "m"));
        if (!m)
            return m.error();
        out["m"] = spec["m"];
    }
    return out;
}

Result<std::shared_ptr<const Problem>> buildPl(const Json &resolved, const ProblemContext &context)
{
    const int d = static_cast<int>(paramInt(resolved, "dimension"));
    if (resolved.contains("m")) {
        auto m = readCoefficients(resolved["m"], context.agents, joinPath(context.path, "m"));
        if (!m)
            return m.error();
        return std::shared_ptr<const Problem>(
            std::make_shared<NonconvexPlProblem>(std::move(*m), d, Json{{"m_source", "explicit"}}));
    }
    const std::uint64_t seed = chooseSeed(paramInt(resolved, "seed"), context.seed);
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    return std::shared_ptr<const Problem>(std::make_shared<NonconvexPlProblem>(
        paper001PlCoefficients(context.agents, rng), d,
        Json{{"seed", seed}, {"m_source", "m_1..m_{n-1} ~ U(-1, 1), m_n = -sum, all |m_i| >= 0.05"}}));
}

} // namespace

// --- NonconvexLogisticProblem ---------------------------------------------------------------------

NonconvexLogisticProblem::NonconvexLogisticProblem(std::vector<Eigen::MatrixXd> features,
                                                   std::vector<Eigen::VectorXd> labels, double lambda,
                                                   double alpha, Json facts)
    : mFeatures(std::move(features)), mLabels(std::move(labels)), mLambda(lambda), mAlpha(alpha),
      mFacts(std::move(facts))
{
    assert(!mFeatures.empty() && mFeatures.size() == mLabels.size() && "NonconvexLogisticProblem: agents");
    const double d = static_cast<double>(mFeatures.front().cols());
    double logisticBound = 0.0, curvature = 0.0;
    for (const auto &v : mFeatures) {
        assert(v.rows() >= 1 && v.cols() == mFeatures.front().cols() && "NonconvexLogisticProblem: shapes");
        const Eigen::MatrixXd gram = v.transpose() * v / static_cast<double>(v.rows());
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram, Eigen::EigenvaluesOnly);
        const double top =
            requireEigenvalues(eig, "Gram matrix VᵀV/m of an agent's features").eigenvalues().maxCoeff();
        // ‖(1/m) Vᵀ (u∘σ)‖ ≤ ‖V‖₂ ‖u∘σ‖/m ≤ ‖V‖₂ √m / m = √λ_max(VᵀV/m).
        logisticBound = std::max(logisticBound, std::sqrt(std::max(top, 0.0)));
        curvature = std::max(curvature, top / 4.0);
    }
    mGradientBound = logisticBound + std::sqrt(d) * 9.0 * mLambda * std::sqrt(mAlpha) / (8.0 * std::sqrt(3.0));
    mSmoothness = curvature + 2.0 * mLambda * mAlpha;
}

void NonconvexLogisticProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                                      long long) const
{
    for (int i = 0; i < agentCount(); ++i) {
        const Eigen::VectorXd x = X.row(i).transpose();
        const Eigen::VectorXd margin = (mFeatures[static_cast<std::size_t>(i)] * x).cwiseProduct(labels(i));
        double loss = 0.0;
        for (Eigen::Index j = 0; j < margin.size(); ++j)
            loss += softplus(-margin[j]);
        loss /= static_cast<double>(margin.size());
        const Eigen::ArrayXd ax2 = mAlpha * x.array().square();
        out[i] = loss + mLambda * (ax2 / (1.0 + ax2)).sum();
    }
}

void NonconvexLogisticProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                         Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    // Scratch is thread_local: no allocation per call once sized.
    thread_local Eigen::VectorXd x, weight, g;
    for (int i = 0; i < agentCount(); ++i) {
        const Eigen::MatrixXd &v = mFeatures[static_cast<std::size_t>(i)];
        x = X.row(i).transpose();
        weight.resize(v.rows());
        weight.noalias() = v * x;
        for (Eigen::Index j = 0; j < weight.size(); ++j) {
            const double margin = weight[j] * labels(i)[j];
            // d/dz log(1+e^{−u z}) = −u σ(−u z)
            weight[j] = -labels(i)[j] * vectormath::sigmoid(-margin);
        }
        g.resize(v.cols());
        g.noalias() = v.transpose() * weight;
        out.row(i) = (g / static_cast<double>(v.rows())).transpose()
                     + (2.0 * mLambda * mAlpha * x.array() / (1.0 + mAlpha * x.array().square()).square())
                           .matrix()
                           .transpose();
    }
}

Json NonconvexLogisticProblem::describe() const
{
    Json j = mFacts;
    j["type"] = id();
    j["agents"] = agentCount();
    j["dimension"] = dimension();
    j["samples_per_agent"] = mFeatures.front().rows();
    j["lambda"] = mLambda;
    j["alpha"] = mAlpha;
    j["gradient_bound"] = mGradientBound;
    j["smoothness"] = mSmoothness;
    j["convex"] = false;
    return j;
}

// --- NonconvexPlProblem ----------------------------------------------------------------------------

NonconvexPlProblem::NonconvexPlProblem(Eigen::VectorXd coefficients, int dimension, Json facts)
    : mM(std::move(coefficients)), mDimension(dimension), mFacts(std::move(facts))
{
    assert(mM.size() >= 1 && dimension >= 1 && "NonconvexPlProblem: agents and dimension");
}

void NonconvexPlProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                                long long) const
{
    for (int i = 0; i < agentCount(); ++i) {
        const Eigen::ArrayXd x = X.row(i).transpose().array();
        out[i] = (x.square() + 3.0 * x.sin().square() + mM[i] * x * x.cos()).sum();
    }
}

void NonconvexPlProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                                   long long) const
{
    for (int i = 0; i < agentCount(); ++i) {
        const auto x = X.row(i).array();
        out.row(i) = 2.0 * x + 6.0 * x.sin() * x.cos() + mM[i] * (x.cos() - x * x.sin());
    }
}

std::optional<Eigen::MatrixXd> NonconvexPlProblem::globalHessian(const Eigen::VectorXd &xv) const
{
    const Eigen::ArrayXd x = xv.array();
    const double mean = mM.mean();
    const Eigen::ArrayXd diag = 2.0 + 6.0 * (2.0 * x).cos() + mean * (-2.0 * x.sin() - x * x.cos());
    return Eigen::MatrixXd(diag.matrix().asDiagonal());
}

std::optional<Eigen::VectorXd> NonconvexPlProblem::closedFormOptimum() const
{
    return Eigen::VectorXd::Zero(mDimension);
}

Json NonconvexPlProblem::describe() const
{
    Json j = mFacts;
    j["type"] = id();
    j["agents"] = agentCount();
    j["dimension"] = mDimension;
    j["m"] = std::vector<double>(mM.data(), mM.data() + mM.size());
    j["global_smoothness"] = 8.0; // F'' = 2 + 6 cos 2x ∈ [−4, 8] per coordinate
    j["convex"] = false;
    j["gradient_bound"] = nullptr; // the local gradients are unbounded (Assumption 7 fails)
    return j;
}

// --- Data, entries -----------------------------------------------------------------------------------

void paper001LogisticData(int agents, int samples, int dimension, Rng &rng, std::vector<Eigen::MatrixXd> &features,
                          std::vector<Eigen::VectorXd> &labels)
{
    features.assign(static_cast<std::size_t>(agents), Eigen::MatrixXd(samples, dimension));
    labels.assign(static_cast<std::size_t>(agents), Eigen::VectorXd(samples));
    for (int i = 0; i < agents; ++i)
        for (int j = 0; j < samples; ++j) {
            for (int s = 0; s < dimension; ++s)
                features[static_cast<std::size_t>(i)](j, s) = rng.gaussian();
            labels[static_cast<std::size_t>(i)][j] = rng.below(2) == 0 ? -1.0 : 1.0;
        }
}

Eigen::VectorXd paper001PlCoefficients(int agents, Rng &rng)
{
    Eigen::VectorXd m = Eigen::VectorXd::Zero(agents);
    if (agents == 1)
        return m;
    for (;;) {
        double sum = 0.0;
        for (int i = 0; i + 1 < agents; ++i) {
            m[i] = rng.uniform(-1.0, 1.0);
            sum += m[i];
        }
        m[agents - 1] = -sum;
        if (m.cwiseAbs().minCoeff() >= 0.05)
            return m;
    }
}

ProblemEntry nonconvexLogisticProblemEntry()
{
    return problemEntry(
        "nonconvex-logistic", "Nonconvex logistic regression (paper 001, eq. 37)",
        "A. Xie et al., Differentially private and communication-efficient distributed "
        "nonconvex optimization algorithms, eq. (37); Antoniadis et al. 2011",
        "f_i(x) = (1/m) Σ_j log(1 + exp(−u_ij x·v_ij)) + Σ_s λα x_s²/(1 + α x_s²) on synthetic data: "
        "features v_ij ~ N(0, I), labels u_ij uniform ±1 independent of the features. Nonconvex, smooth, "
        "bounded gradients. The reference point is a stationary point found by L-BFGS.",
        logisticSpecs(), resolveLogistic, buildLogistic);
}

ProblemEntry nonconvexPlProblemEntry()
{
    return problemEntry(
        "nonconvex-pl", "Nonconvex P–L problem (paper 001, eq. 38)",
        "A. Xie et al., eq. (38); H. Karimi, J. Nutini, M. Schmidt, Linear convergence "
        "of gradient and proximal-gradient methods under the Polyak-Łojasiewicz "
        "condition, 2016",
        "f_i(x) = xᵀx + 3 sin(x)ᵀsin(x) + m_i xᵀcos(x) with Σ_i m_i = 0, so F(x) = xᵀx + 3 sin(x)ᵀsin(x): "
        "nonconvex but P–L, x* = 0, F* = 0. Give \"m\" (one number per agent, summing to 0) or let "
        "m_1..m_{n−1} ~ U(−1, 1), m_n = −Σ (redrawn until all |m_i| ≥ 0.05).",
        plSpecs(), resolvePl, buildPl);
}

} // namespace dplab
