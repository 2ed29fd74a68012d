// SPDX-License-Identifier: GPL-3.0-or-later
// The three engine-proving algorithms: dgd, gradient-tracking, push-pull.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/mixing.h"
#include "testproblems.h"

#include <gtest/gtest.h>

namespace dplab {
namespace {

using test::RandomQuadratic;

struct Setup {
    RunContext ctx;
    std::shared_ptr<RandomQuadratic> problem;
};

const AlgorithmDescriptor &descriptor(const std::string &id)
{
    const AlgorithmDescriptor *d = findAlgorithm(id);
    EXPECT_NE(d, nullptr) << id;
    return *d;
}

Setup makeSetup(const std::string &id, int n, int d, const Eigen::MatrixXd &adj, bool directed, Json params,
                Json privacy = Json::object())
{
    Setup s;
    s.problem = std::make_shared<RandomQuadratic>(n, d, 17);
    const AlgorithmDescriptor &alg = descriptor(id);
    s.ctx.problem = s.problem;
    s.ctx.params = resolveParams(alg.params, params, "params", n).value();
    s.ctx.privacy = resolveParams(alg.privacyParams, privacy, "privacy", n).value();
    s.ctx.compressor = makeCompressor(Json(), "compressor").value();
    s.ctx.noise = {5, 0, 0};
    s.ctx.x0 = Eigen::MatrixXd::Zero(n, d);
    Rng rng(99);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k)
            s.ctx.x0(i, k) = rng.gaussian();
    s.ctx.horizon = 1000;
    if (directed) {
        s.ctx.R = test::uniformRow(adj);
        s.ctx.C = test::uniformColumn(adj);
    } else {
        s.ctx.W = test::metropolis(adj);
    }
    return s;
}

std::vector<std::pair<int, int>> ringEdges(int n)
{
    std::vector<std::pair<int, int>> e;
    for (int i = 0; i < n; ++i)
        e.push_back({i, (i + 1) % n});
    return e;
}

TEST(GradientTracking, ConvergesLinearlyToOptimum)
{
    const int n = 6, d = 3;
    auto edges = ringEdges(n);
    edges.push_back({0, 3});
    auto s = makeSetup("gradient-tracking", n, d, test::adjacencyOf(n, edges, false), false, Json{{"stepsize", 0.05}});
    auto alg = descriptor("gradient-tracking").create();
    ASSERT_TRUE(alg->reset(s.ctx).ok());
    const Eigen::VectorXd xStar = s.problem->optimum();
    double errorAt50 = 0;
    for (int k = 0; k < 1500; ++k) {
        alg->step();
        if (k == 49)
            errorAt50 = (alg->decisions().rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
    }
    const double finalError = (alg->decisions().rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
    EXPECT_LE(finalError, 1e-10);
    EXPECT_GT(errorAt50, 1e-6); // it was still converging: the test watched the linear phase
}

TEST(GradientTracking, TrackingInvariantHoldsAtEveryIteration)
{
    const int n = 5, d = 4;
    auto s = makeSetup("gradient-tracking", n, d, test::adjacencyOf(n, ringEdges(n), false), false,
                       Json{{"stepsize", 0.03}});
    auto alg = descriptor("gradient-tracking").create();
    ASSERT_TRUE(alg->reset(s.ctx).ok());
    Eigen::MatrixXd grad(n, d);
    for (int k = 0; k <= 300; ++k) {
        const Eigen::MatrixXd *y = alg->state("y");
        ASSERT_NE(y, nullptr);
        s.problem->gradients(alg->decisions(), grad, k);
        const Eigen::VectorXd sumY = y->colwise().sum();
        const Eigen::VectorXd sumGrad = grad.colwise().sum();
        ASSERT_LE((sumY - sumGrad).norm(), 1e-12 * std::max(1.0, sumGrad.norm())) << "iteration " << k;
        alg->step();
    }
}

TEST(PushPull, NoiseFreeConvergesLinearlyOnStronglyConnectedDigraph)
{
    const int n = 6, d = 3;
    // Directed ring plus two chords: strongly connected, not balanced.
    auto edges = ringEdges(n);
    edges.push_back({0, 3});
    edges.push_back({4, 1});
    auto s = makeSetup("push-pull", n, d, test::adjacencyOf(n, edges, true), true, Json{{"stepsize", 0.02}});
    auto alg = descriptor("push-pull").create();
    ASSERT_TRUE(alg->reset(s.ctx).ok());
    const Eigen::VectorXd xStar = s.problem->optimum();
    for (int k = 0; k < 4000; ++k)
        alg->step();
    const double finalError = (alg->decisions().rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
    EXPECT_LE(finalError, 1e-10);
}

TEST(PushPull, NoisyTrackerAccumulatesPastNoiseExactly)
{
    // Paper 000 eq. (6): 1ᵀy(t) = 1ᵀ(∇f_t(θ(t)) + Σ_{k<t} ζ_C(k)) with ζ_C(k)_i = Σ_{j≠i} C_ij ζ_j(k).
    const int n = 4, d = 2;
    auto edges = ringEdges(n);
    edges.push_back({2, 0});
    auto s = makeSetup("push-pull", n, d, test::adjacencyOf(n, edges, true), true, Json{{"stepsize", 0.02}},
                       Json{{"noise_theta", 0.5}, {"noise_y", 0.3}, {"noise_y_decay", 0.6}});
    auto alg = descriptor("push-pull").create();
    alg->setRecordMessages(true);
    ASSERT_TRUE(alg->reset(s.ctx).ok());
    Eigen::MatrixXd offC = s.ctx.C;
    offC.diagonal().setZero();
    Eigen::VectorXd accumulated = Eigen::VectorXd::Zero(d);
    Eigen::MatrixXd grad(n, d), zeta(n, d);
    for (int t = 0; t < 200; ++t) {
        alg->step();
        for (const Message &m : alg->lastMessages())
            if (m.channel == "y")
                zeta.row(m.sender) = m.noise.transpose();
        accumulated += (offC * zeta).colwise().sum().transpose();
        s.problem->gradients(alg->decisions(), grad, t + 1);
        const Eigen::VectorXd expected = grad.colwise().sum().transpose() + accumulated;
        const Eigen::VectorXd sumY = alg->state("y")->colwise().sum().transpose();
        ASSERT_LE((sumY - expected).norm(), 1e-10 * std::max(1.0, expected.norm())) << "t = " << t;
    }
    EXPECT_GT(accumulated.norm(), 0.0);
}

TEST(PushPull, NoiseIsDrawnOncePerMessageAndOwnTermIsNoiseFree)
{
    const int n = 3, d = 2;
    auto s = makeSetup("push-pull", n, d, test::adjacencyOf(n, {{0, 1}, {1, 2}, {2, 0}, {0, 2}}, true), true,
                       Json{{"stepsize", 1e-9}},
                       Json{{"noise_theta", 1.0}});
    auto alg = descriptor("push-pull").create();
    alg->setRecordMessages(true);
    ASSERT_TRUE(alg->reset(s.ctx).ok());
    const Eigen::MatrixXd theta0 = alg->decisions();
    const Eigen::MatrixXd y0 = *alg->state("y");
    alg->step();
    Eigen::MatrixXd sent(n, d);
    for (const Message &m : alg->lastMessages())
        if (m.channel == "theta") {
            EXPECT_TRUE((m.sent - m.clean - m.noise).isZero(1e-15));
            sent.row(m.sender) = m.sent.transpose();
        }
    // θ_i(1) = R_ii θ_i(0) + Σ_{j≠i} R_ij sent_j − λ y_i(0): every receiver used the same sent_j.
    Eigen::MatrixXd offR = s.ctx.R;
    offR.diagonal().setZero();
    const Eigen::MatrixXd expected = s.ctx.R.diagonal().asDiagonal() * theta0 + offR * sent - 1e-9 * y0;
    EXPECT_LE((alg->decisions() - expected).norm(), 1e-12);
}

TEST(Dgd, ConstantStepReachesItsBiasedNeighbourhood)
{
    const int n = 6, d = 3;
    auto s = makeSetup("dgd", n, d, test::adjacencyOf(n, ringEdges(n), false), false, Json{{"stepsize", 0.02}});
    auto alg = descriptor("dgd").create();
    ASSERT_TRUE(alg->reset(s.ctx).ok());
    const Eigen::VectorXd xStar = s.problem->optimum();
    for (int k = 0; k < 3000; ++k)
        alg->step();
    const Eigen::MatrixXd x = alg->decisions();
    const double err = (x.rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
    // DGD with a constant step stalls: not exact, but within O(α) (halving α halves the bias).
    EXPECT_GT(err, 1e-4);
    auto s2 = makeSetup("dgd", n, d, test::adjacencyOf(n, ringEdges(n), false), false, Json{{"stepsize", 0.01}});
    auto alg2 = descriptor("dgd").create();
    ASSERT_TRUE(alg2->reset(s2.ctx).ok());
    for (int k = 0; k < 6000; ++k)
        alg2->step();
    const double err2 = (alg2->decisions().rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
    EXPECT_NEAR(err2 / err, 0.5, 0.1);
    // The fixed point satisfies the DGD equation x = W x − α ∇f(x) (it has converged).
    Eigen::MatrixXd grad(n, d);
    s.problem->gradients(x, grad, 0);
    EXPECT_LE((x - (s.ctx.W * x - 0.02 * grad)).norm(), 1e-10);
}

TEST(Mixer, MixUsesOwnStateForDiagonalAndSentForOthers)
{
    Eigen::MatrixXd w(3, 3);
    w << 0.5, 0.25, 0.25, 0.2, 0.6, 0.2, 0.1, 0.3, 0.6;
    Mixer mixer(w);
    Eigen::MatrixXd own = Eigen::MatrixXd::Random(3, 2), sent = Eigen::MatrixXd::Random(3, 2), out(3, 2);
    mixer.mix(own, sent, out);
    for (int i = 0; i < 3; ++i) {
        Eigen::RowVectorXd expected = w(i, i) * own.row(i);
        for (int j = 0; j < 3; ++j)
            if (j != i)
                expected += w(i, j) * sent.row(j);
        EXPECT_LE((out.row(i) - expected).norm(), 1e-15);
    }
    mixer.apply(own, out);
    EXPECT_LE((out - w * own).norm(), 1e-14);
}

TEST(Registry, EveryDescriptorIsComplete)
{
    for (const auto &d : algorithmRegistry()) {
        EXPECT_FALSE(d.id.empty());
        EXPECT_FALSE(d.name.empty()) << d.id;
        EXPECT_FALSE(d.explanation.empty()) << d.id;
        EXPECT_TRUE(d.create) << d.id;
        for (const auto &p : d.params)
            EXPECT_FALSE(p.help.empty()) << d.id << "." << p.key;
        EXPECT_TRUE(resolveParams(d.params, Json::object(), "params", 4).ok()) << d.id << ": defaults must be valid";
        EXPECT_TRUE(resolveParams(d.privacyParams, Json::object(), "privacy", 4).ok()) << d.id;
    }
}

} // namespace
} // namespace dplab
