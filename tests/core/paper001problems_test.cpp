// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 001's test problems (37) and (38): gradients against finite differences, the stated
// facts (gradient bound, smoothness, x* = 0), the synthetic data and the factory entries.
#include "dplab/problem/paper001problems.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace dplab {
namespace {

/** Central differences of every agent's f_i at X, compared with gradients() coordinate-wise
 *  (step h; error O(h²·f''') + O(eps/h)). */
void expectGradientsMatchFiniteDifferences(const Problem &p, const Eigen::MatrixXd &X, double tolerance)
{
    const int n = p.agentCount(), d = p.dimension();
    Eigen::MatrixXd g(n, d);
    p.gradients(X, g);
    const double h = 1e-5;
    Eigen::VectorXd plus(n), minus(n);
    for (int s = 0; s < d; ++s) {
        Eigen::MatrixXd xp = X, xm = X;
        xp.col(s).array() += h;
        xm.col(s).array() -= h;
        p.values(xp, plus);
        p.values(xm, minus);
        for (int i = 0; i < n; ++i) {
            const double fd = (plus[i] - minus[i]) / (2 * h);
            EXPECT_NEAR(g(i, s), fd, tolerance * std::max(1.0, std::abs(fd))) << "agent " << i << " coord " << s;
        }
    }
}

Eigen::MatrixXd randomPoints(int n, int d, double scale, std::uint64_t seed)
{
    Rng rng(seed);
    Eigen::MatrixXd x(n, d);
    for (int i = 0; i < n; ++i)
        for (int s = 0; s < d; ++s)
            x(i, s) = scale * rng.gaussian();
    return x;
}

std::shared_ptr<const Problem> build(const Json &spec, int agents = 6, std::uint64_t seed = 5)
{
    auto p = makeProblem(spec, agents, "problem", ".", seed);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().toString());
    return p.ok() ? p.value() : nullptr;
}

// --- (37) --------------------------------------------------------------------------------------

TEST(NonconvexLogistic, GradientsMatchFiniteDifferences)
{
    auto p = build(Json{{"type", "nonconvex-logistic"}, {"samples", 50}, {"lambda", 0.05}, {"alpha", 2.0}});
    ASSERT_TRUE(p);
    for (double scale : {0.1, 1.0, 3.0})
        expectGradientsMatchFiniteDifferences(*p, randomPoints(6, 10, scale, 7), 1e-7);
}

TEST(NonconvexLogistic, ValueByHandForOneSample)
{
    // One agent, one sample v = (1, 2), u = −1, x = (0.5, −1): margin u x·v = −(0.5 − 2) = 1.5,
    // loss log(1 + e^{−1.5}); regulariser λ Σ αx²/(1 + αx²) with λ = 0.1, α = 1: 0.1 (0.2 + 0.5).
    Eigen::MatrixXd v(1, 2);
    v << 1.0, 2.0;
    Eigen::VectorXd u(1);
    u << -1.0;
    NonconvexLogisticProblem p({v}, {u}, 0.1, 1.0);
    Eigen::MatrixXd x(1, 2);
    x << 0.5, -1.0;
    Eigen::VectorXd f(1);
    p.values(x, f);
    EXPECT_NEAR(f[0], std::log1p(std::exp(-1.5)) + 0.1 * (0.25 / 1.25 + 1.0 / 2.0), 1e-15);
    // ∇ = −u v σ(−1.5) + 2λα x/(1 + αx²)².
    Eigen::MatrixXd g(1, 2);
    p.gradients(x, g);
    const double sig = 1.0 / (1.0 + std::exp(1.5));
    EXPECT_NEAR(g(0, 0), 1.0 * sig + 0.2 * 0.5 / (1.25 * 1.25), 1e-15);
    EXPECT_NEAR(g(0, 1), 2.0 * sig + 0.2 * -1.0 / 4.0, 1e-15);
}

TEST(NonconvexLogistic, StatedGradientBoundAndSmoothnessHold)
{
    auto built = build(Json{{"type", "nonconvex-logistic"}});
    ASSERT_TRUE(built);
    const auto &p = dynamic_cast<const NonconvexLogisticProblem &>(*built);
    const Json facts = p.describe();
    EXPECT_EQ(facts["samples_per_agent"], 200);
    EXPECT_DOUBLE_EQ(facts["gradient_bound"].get<double>(), p.gradientBound());
    // For v ~ N(0, I_10), m = 200: σ_max(V)/√m ≈ 1 + √(d/m) ≈ 1.2; L_f ≈ (1 + √(d/m))²/4 ≈ 0.4.
    EXPECT_GT(p.gradientBound(), 1.0);
    EXPECT_LT(p.gradientBound(), 1.6);
    EXPECT_GT(p.smoothness(), 0.3);
    EXPECT_LT(p.smoothness(), 0.6);
    Eigen::MatrixXd g(6, 10), g2(6, 10);
    for (double scale : {0.01, 0.5, 2.0, 30.0, 1e4}) {
        const Eigen::MatrixXd x = randomPoints(6, 10, scale, 11);
        p.gradients(x, g);
        EXPECT_LE(g.rowwise().norm().maxCoeff(), p.gradientBound()) << "scale " << scale;
        const Eigen::MatrixXd y = x + randomPoints(6, 10, 0.1, 12);
        p.gradients(y, g2);
        const Eigen::VectorXd ratio = (g - g2).rowwise().norm().cwiseQuotient((x - y).rowwise().norm());
        EXPECT_LE(ratio.maxCoeff(), p.smoothness()) << "scale " << scale;
    }
}

TEST(NonconvexLogistic, SyntheticDataIsGaussianWithBalancedIndependentLabels)
{
    Rng rng = Rng::stream(5, 0, 0, -1, RngPurpose::Data);
    std::vector<Eigen::MatrixXd> v;
    std::vector<Eigen::VectorXd> u;
    paper001LogisticData(6, 2000, 10, rng, v, u);
    ASSERT_EQ(v.size(), 6u);
    double sum = 0, sumSq = 0, labels = 0, count = 0;
    for (int i = 0; i < 6; ++i) {
        sum += v[i].sum();
        sumSq += v[i].squaredNorm();
        labels += u[i].sum();
        count += static_cast<double>(v[i].size());
        EXPECT_TRUE((u[i].array().abs() == 1.0).all());
    }
    const double samples = 6.0 * 2000.0;
    // Mean 0 and variance 1 within 5 standard errors; labels ±1 with mean 0 within 5/√N.
    EXPECT_NEAR(sum / count, 0.0, 5.0 / std::sqrt(count));
    EXPECT_NEAR(sumSq / count, 1.0, 5.0 * std::sqrt(2.0 / count));
    EXPECT_NEAR(labels / samples, 0.0, 5.0 / std::sqrt(samples));
}

TEST(NonconvexLogistic, SameSeedSameDataOwnSeedOverridesExperimentSeed)
{
    auto a = build(Json{{"type", "nonconvex-logistic"}, {"samples", 20}}, 6, 1);
    auto b = build(Json{{"type", "nonconvex-logistic"}, {"samples", 20}}, 6, 1);
    auto c = build(Json{{"type", "nonconvex-logistic"}, {"samples", 20}}, 6, 2);
    auto d = build(Json{{"type", "nonconvex-logistic"}, {"samples", 20}, {"seed", 1}}, 6, 2);
    const Eigen::MatrixXd x = randomPoints(6, 10, 1.0, 3);
    Eigen::VectorXd fa(6), fb(6), fc(6), fd(6);
    a->values(x, fa);
    b->values(x, fb);
    c->values(x, fc);
    d->values(x, fd);
    EXPECT_EQ(fa, fb);
    EXPECT_NE(fa, fc);
    EXPECT_EQ(fa, fd);
}

// --- (38) --------------------------------------------------------------------------------------

TEST(NonconvexPl, GradientsMatchFiniteDifferences)
{
    auto p = build(Json{{"type", "nonconvex-pl"}});
    ASSERT_TRUE(p);
    for (double scale : {0.1, 1.0, 5.0})
        expectGradientsMatchFiniteDifferences(*p, randomPoints(6, 10, scale, 9), 1e-7);
}

TEST(NonconvexPl, CoefficientsSumToZeroAndXStarIsZero)
{
    auto built = build(Json{{"type", "nonconvex-pl"}, {"dimension", 3}});
    ASSERT_TRUE(built);
    const auto &p = dynamic_cast<const NonconvexPlProblem &>(*built);
    const Eigen::VectorXd &m = p.coefficients();
    EXPECT_NEAR(m.sum(), 0.0, 1e-15);
    EXPECT_GE(m.cwiseAbs().minCoeff(), 0.05);
    EXPECT_LE(m.head(5).cwiseAbs().maxCoeff(), 1.0);
    // ∇f_i(0) = m_i (cos 0 − 0) = m_i 1: local gradients differ, the average vanishes.
    Eigen::MatrixXd g(6, 3);
    p.gradients(Eigen::MatrixXd::Zero(6, 3), g);
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(g.row(i), Eigen::RowVectorXd::Constant(3, m[i]));
    EXPECT_LE(p.globalGradient(Eigen::VectorXd::Zero(3)).norm(), 1e-15);
    EXPECT_EQ(p.globalValue(Eigen::VectorXd::Zero(3)), 0.0);
    // F(x) = xᵀx + 3 sin(x)ᵀsin(x) once the m-terms cancel.
    const Eigen::VectorXd x = randomPoints(1, 3, 1.0, 2).row(0).transpose();
    EXPECT_NEAR(p.globalValue(x), x.squaredNorm() + 3.0 * x.array().sin().square().sum(), 1e-13);
    auto ref = solveReference(p);
    ASSERT_TRUE(ref.ok());
    EXPECT_EQ(ref->x, Eigen::VectorXd::Zero(3));
    EXPECT_EQ(ref->method, "closed form");
}

TEST(NonconvexPl, HessianMatchesFiniteDifferencesOfTheGlobalGradient)
{
    auto p = build(Json{{"type", "nonconvex-pl"}, {"dimension", 4}});
    const Eigen::VectorXd x = randomPoints(1, 4, 1.5, 4).row(0).transpose();
    const Eigen::MatrixXd h = *p->globalHessian(x);
    for (int s = 0; s < 4; ++s) {
        Eigen::VectorXd e = Eigen::VectorXd::Zero(4);
        e[s] = 1e-6;
        const Eigen::VectorXd col = (p->globalGradient(x + e) - p->globalGradient(x - e)) / 2e-6;
        EXPECT_LE((h.col(s) - col).cwiseAbs().maxCoeff(), 1e-6);
    }
}

TEST(NonconvexPl, ExplicitCoefficientsAreValidated)
{
    auto ok = makeProblem(Json{{"type", "nonconvex-pl"}, {"m", {0.5, -0.25, -0.25}}}, 3, "problem", ".", 1);
    ASSERT_TRUE(ok.ok());
    auto bad = makeProblem(Json{{"type", "nonconvex-pl"}, {"m", {0.5, -0.25, 0.25}}}, 3, "problem", ".", 1);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "problem.m");
    auto wrongCount = makeProblem(Json{{"type", "nonconvex-pl"}, {"m", {0.5, -0.5}}}, 3, "problem", ".", 1);
    ASSERT_FALSE(wrongCount.ok());
    auto unknown = makeProblem(Json{{"type", "nonconvex-pl"}, {"lambda", 1}}, 3, "runs", ".", 1);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().where, "runs.lambda");
}

TEST(Paper001Problems, AreRegistered)
{
    std::vector<std::string> ids;
    for (const auto &d : problemDescriptors())
        ids.push_back(d.id);
    EXPECT_NE(std::find(ids.begin(), ids.end(), "nonconvex-logistic"), ids.end());
    EXPECT_NE(std::find(ids.begin(), ids.end(), "nonconvex-pl"), ids.end());
    auto resolved = resolveProblemSpec(Json{{"type", "nonconvex-logistic"}}, 6, "problem");
    ASSERT_TRUE(resolved.ok());
    EXPECT_EQ((*resolved)["samples"], 200);
    EXPECT_EQ((*resolved)["lambda"], 0.001);
    EXPECT_EQ((*resolved)["dimension"], 10);
}

} // namespace
} // namespace dplab
