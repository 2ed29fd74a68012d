// SPDX-License-Identifier: GPL-3.0-or-later
// Spectral analysis of weight matrices and Perron vectors.
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"

#include "../common/generatedgraph.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace dplab {
namespace {

using test::generate;

Eigen::MatrixXd build(const Graph &g, const std::string &scheme, WeightRole role)
{
    auto w = buildWeights(g, {{"scheme", scheme}}, role, "graph.weights");
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().toString());
    return w.ok() ? *w : Eigen::MatrixXd();
}

TEST(Analysis, MetropolisOnTheFourRingByHand)
{
    // Every node has degree 2, so w_ij = 1/(1+2) = 1/3 on edges and w_ii = 1 − 2/3 = 1/3.
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    Eigen::MatrixXd w = build(g, "metropolis", WeightRole::Doubly);
    Eigen::MatrixXd expected(4, 4);
    expected << 1, 1, 0, 1,
                1, 1, 1, 0,
                0, 1, 1, 1,
                1, 0, 1, 1;
    expected /= 3.0;
    EXPECT_LT((w - expected).cwiseAbs().maxCoeff(), 1e-15);

    // W is circulant with first row (1/3, 1/3, 0, 1/3): λ_k = 1/3 + (2/3)cos(2πk/4), k = 0..3,
    // i.e. 1, 1/3, −1/3, 1/3. W is symmetric, so its singular values are the |λ_k|:
    // σ = (1, 1/3, 1/3, 1/3), σ₂ = 1/3, gap 2/3; W − J removes λ₀ = 1, so ρ(W − J) = 1/3.
    std::vector<double> lambda, sigma;
    for (int k = 0; k < 4; ++k) {
        lambda.push_back(1.0 / 3.0 + 2.0 / 3.0 * std::cos(2.0 * std::numbers::pi * k / 4.0));
        sigma.push_back(std::abs(lambda.back()));
    }
    std::sort(lambda.begin(), lambda.end());
    std::sort(sigma.rbegin(), sigma.rend());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(w);
    for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(solver.eigenvalues()[k], lambda[k], 1e-14);
    const Eigen::VectorXd s = singularValues(w);
    for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(s[k], sigma[k], 1e-14);
    EXPECT_NEAR(secondSingularValue(w), sigma[1], 1e-14);
    EXPECT_NEAR(secondSingularValue(w), 1.0 / 3.0, 1e-14);
    EXPECT_NEAR(spectralGap(w), 2.0 / 3.0, 1e-14);
    EXPECT_NEAR(consensusRate(w), 1.0 / 3.0, 1e-14);
    EXPECT_NEAR(spectralRadius(w), 1.0, 1e-14);
}

TEST(Analysis, SpectralRadiusOfANonSymmetricMatrix)
{
    // 0.5 × a rotation by 90°: eigenvalues ±0.5i, so ρ = 0.5 although the diagonal is zero.
    Eigen::MatrixXd m(2, 2);
    m << 0.0, -0.5, 0.5, 0.0;
    EXPECT_NEAR(spectralRadius(m), 0.5, 1e-15);
    // Upper-triangular: the eigenvalues are the diagonal.
    Eigen::MatrixXd t(3, 3);
    t << 0.2, 5.0, 1.0, 0.0, -0.7, 2.0, 0.0, 0.0, 0.1;
    EXPECT_NEAR(spectralRadius(t), 0.7, 1e-14);
}

TEST(Analysis, ConsensusRateOfAWSymmetricOnlyWithinRoundOffAgreesWithTheGeneralSolver)
{
    // ρ_w has one implementation for the inspector, the report and paper 003's theory. A W whose
    // W − 11ᵀ/n is symmetric within a relative 1e-12 but not exactly takes the symmetric solver;
    // the general solver agrees with it to round-off, so only the last bits could differ.
    Eigen::MatrixXd w = build(generate({{"type", "watts-strogatz"}, {"nodes", 12}, {"k", 4}, {"beta", 0.3}}),
                              "metropolis", WeightRole::Doubly);
    const double exact = consensusRate(w);
    w(0, 1) = std::nextafter(w(0, 1), 1.0); // one ulp: no longer exactly symmetric
    ASSERT_NE(w, Eigen::MatrixXd(w.transpose()));
    const Eigen::MatrixXd m = w - Eigen::MatrixXd::Constant(12, 12, 1.0 / 12);
    const double symmetric = consensusRate(w);
    const double general = spectralRadius(m, "m", 0.0);
    EXPECT_EQ(symmetric, spectralRadius(m, "m", 1e-12));
    EXPECT_NEAR(symmetric, general, 1e-14);
    EXPECT_NEAR(symmetric, exact, 1e-14);
    // Clearly asymmetric: the general solver, whatever the tolerance.
    w(0, 1) += 1e-6;
    const Eigen::MatrixXd a = w - Eigen::MatrixXd::Constant(12, 12, 1.0 / 12);
    EXPECT_EQ(consensusRate(w), spectralRadius(a, "a", 0.0));
}

TEST(Analysis, SingularValuesDescend)
{
    Eigen::MatrixXd m(3, 3);
    m << 2, 0, 0, 0, -5, 0, 0, 0, 3;
    const Eigen::VectorXd s = singularValues(m);
    EXPECT_NEAR(s[0], 5.0, 1e-14);
    EXPECT_NEAR(s[1], 3.0, 1e-14);
    EXPECT_NEAR(s[2], 2.0, 1e-14);
    EXPECT_NEAR(secondSingularValue(m), 3.0, 1e-14);
}

TEST(Analysis, LeftPerronVectorByHand)
{
    // 0 -> 1, 1 -> 2, 2 -> 0, 0 -> 2. In-neighbours: N(0) = {2}, N(1) = {0}, N(2) = {0, 1}.
    const Graph g = Graph::fromEdges(3, true, {{0, 1}, {1, 2}, {2, 0}, {0, 2}});
    Eigen::MatrixXd r = build(g, "uniform-row", WeightRole::Row);
    Eigen::MatrixXd expectedR(3, 3);
    expectedR << 1.0 / 2, 0, 1.0 / 2,
                 1.0 / 2, 1.0 / 2, 0,
                 1.0 / 3, 1.0 / 3, 1.0 / 3;
    EXPECT_LT((r - expectedR).cwiseAbs().maxCoeff(), 1e-15);
    // uᵀR = uᵀ, column by column:
    //   u1 = u1/2 + u2/3        ⇒ u1 = 2u2/3
    //   u2 = u0/2 + u2/3        ⇒ u0 = 4u2/3
    //   u0 = u0/2 + u1/2 + u2/3 (holds: 2u2/3 = u2/3 + u2/3)
    // so u ∝ (4/3, 2/3, 1) ∝ (4, 2, 3), and Σu = 1 gives u = (4, 2, 3)/9.
    const Eigen::VectorXd u = leftPerronVector(r);
    EXPECT_LT((u - Eigen::Vector3d(4, 2, 3) / 9.0).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_LT((u.transpose() * r - u.transpose()).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(Analysis, PerronVectorsOnDirectedGraphs)
{
    std::vector<Graph> graphs = {generate({{"type", "directed-ring"}, {"nodes", 6}}),
                                 generate({{"type", "exponential"}, {"nodes", 7}})};
    for (int seed = 0; seed < 10; ++seed)
        graphs.push_back(generate({{"type", "random-strongly-connected"}, {"nodes", 12},
                                   {"p", 0.15}, {"seed", seed}}));
    for (const Graph &g : graphs) {
        SCOPED_TRACE(g.edgeCount());
        const Eigen::MatrixXd r = build(g, "uniform-row", WeightRole::Row);
        const Eigen::MatrixXd c = build(g, "uniform-column", WeightRole::Column);
        const Eigen::VectorXd u = leftPerronVector(r);
        const Eigen::VectorXd w = rightPerronVector(c);
        EXPECT_LT((r.transpose() * u - u).cwiseAbs().maxCoeff(), 1e-13);
        EXPECT_LT((c * w - w).cwiseAbs().maxCoeff(), 1e-13);
        EXPECT_GT(u.minCoeff(), 0.0);
        EXPECT_GT(w.minCoeff(), 0.0);
        EXPECT_NEAR(u.sum(), 1.0, 1e-14);
        EXPECT_NEAR(w.sum(), 1.0, 1e-14);
    }
}

TEST(Analysis, PerronVectorOfALongRingIsUniform)
{
    // A directed ring is regular, so R is doubly stochastic and u = 1/n; slow mixing
    // (σ₂ close to 1) must not spoil the accuracy.
    const int n = 200;
    Graph g = generate({{"type", "directed-ring"}, {"nodes", n}});
    const Eigen::VectorXd u = leftPerronVector(build(g, "uniform-row", WeightRole::Row));
    EXPECT_LT((u.array() - 1.0 / n).abs().maxCoeff(), 1e-14);
}

TEST(Analysis, WeightFacts)
{
    Graph ring = generate({{"type", "ring"}, {"nodes", 4}});
    WeightFacts mh = analyseWeights(build(ring, "metropolis", WeightRole::Doubly));
    EXPECT_TRUE(mh.rowStochastic && mh.columnStochastic && mh.symmetric);
    EXPECT_FALSE(mh.psd); // eigenvalue −1/3
    EXPECT_NEAR(mh.sigma2, 1.0 / 3.0, 1e-14);
    EXPECT_NEAR(mh.spectralGap, 2.0 / 3.0, 1e-14);
    EXPECT_NEAR(mh.consensusRate, 1.0 / 3.0, 1e-14);
    EXPECT_NEAR(mh.spectralRadius, 1.0, 1e-14);

    // Lazy: eigenvalues (1 + λ)/2 = 1, 2/3, 1/3, 2/3.
    WeightFacts lazy = analyseWeights(build(ring, "lazy-metropolis", WeightRole::Doubly));
    EXPECT_TRUE(lazy.psd);
    EXPECT_NEAR(lazy.consensusRate, 2.0 / 3.0, 1e-14);

    Graph star = generate({{"type", "star"}, {"nodes", 4}});
    WeightFacts row = analyseWeights(build(star, "uniform-row", WeightRole::Row));
    EXPECT_TRUE(row.rowStochastic);
    EXPECT_FALSE(row.columnStochastic);
    EXPECT_FALSE(row.symmetric);
    EXPECT_FALSE(row.psd);
}

TEST(Analysis, SingleNodeIsDegenerateButValid)
{
    Eigen::MatrixXd one = Eigen::MatrixXd::Ones(1, 1);
    EXPECT_DOUBLE_EQ(spectralRadius(one), 1.0);
    EXPECT_DOUBLE_EQ(secondSingularValue(one), 0.0);
    EXPECT_DOUBLE_EQ(spectralGap(one), 1.0);
    EXPECT_DOUBLE_EQ(consensusRate(one), 0.0);
    EXPECT_NEAR(leftPerronVector(one)[0], 1.0, 1e-15);
    EXPECT_NEAR(rightPerronVector(one)[0], 1.0, 1e-15);
    WeightFacts facts = analyseWeights(one);
    EXPECT_TRUE(facts.rowStochastic && facts.columnStochastic && facts.symmetric && facts.psd);
    EXPECT_DOUBLE_EQ(spectralRadius(Eigen::MatrixXd()), 0.0);
    EXPECT_EQ(singularValues(Eigen::MatrixXd()).size(), 0);
}

} // namespace
} // namespace dplab
