// SPDX-License-Identifier: GPL-3.0-or-later
// Accelerated gossip of paper 002 (eq. (5) with the index typo fixed, θ and L of eq. (7)) and the
// "gossip" teaching algorithm.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/gossip.h"
#include "paper002testutil.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dplab {
namespace {

using namespace test;

Eigen::MatrixXd randomState(int n, int d, std::uint64_t seed)
{
    Rng rng(seed);
    Eigen::MatrixXd h(n, d);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k)
            h(i, k) = rng.gaussian() * (1.0 + i);
    return h;
}

TEST(GossipTheta, PaperAndChebyshevValuesByHand)
{
    // σ₂ = 0: s = 1, θ = 1/2 (paper), θ* = 0.
    EXPECT_DOUBLE_EQ(gossipTheta(0.0, GossipTheta::Paper), 0.5);
    EXPECT_DOUBLE_EQ(gossipTheta(0.0, GossipTheta::Chebyshev), 0.0);
    // σ₂ = 0.6: s = √(1 − 0.36) = 0.8, θ = 1/1.8, θ* = 0.2/1.8.
    EXPECT_NEAR(gossipTheta(0.6, GossipTheta::Paper), 1.0 / 1.8, 1e-15);
    EXPECT_NEAR(gossipTheta(0.6, GossipTheta::Chebyshev), 0.2 / 1.8, 1e-15);
    EXPECT_EQ(gossipTheta(0.6, GossipTheta::Plain), 0.0);
}

TEST(GossipSteps, EquationSevenByHand)
{
    // The paper's letter example: complete graph, n = 9, T = 150000, ρ = 1: 4 ln(9·150000·√126) = 66.13 → 67.
    const double value = 4.0 * std::log(9.0 * 150000.0 * std::sqrt(126.0));
    EXPECT_NEAR(value, 66.13, 0.01);
    EXPECT_EQ(acceleratedGossipSteps(9, 150000, 1.0), 67);
    // Cycle with ρ = 0.078: 66.13/√0.078 = 236.8 → 237; poker complete: T = 10⁶ → 74.
    EXPECT_EQ(acceleratedGossipSteps(9, 150000, 0.078), 237);
    EXPECT_EQ(acceleratedGossipSteps(9, 1000000, 1.0), 74);
}

TEST(GossipSpectrum, LazyMetropolisOfCompleteAndRing)
{
    // Complete graph K_n: W_MH = J/n, lazy (I + J/n)/2 has eigenvalues 1 and 1/2: σ₂ = 1/2.
    const auto complete = gossipSpectrum(lazyMetropolis(completeAdjacency(9)));
    EXPECT_NEAR(complete.sigma2, 0.5, 1e-12);
    EXPECT_NEAR(complete.rho, 0.5, 1e-12);
    // Ring C_n: W_MH = I/3 + (shift + shift⁻¹)/3, eigenvalues (1 + 2cos(2πk/n))/3; lazy:
    // (1 + (1 + 2cos(2π/n))/3)/2 for the second largest.
    const int n = 9;
    const double expected = 0.5 * (1.0 + (1.0 + 2.0 * std::cos(2.0 * M_PI / n)) / 3.0);
    EXPECT_NEAR(gossipSpectrum(lazyMetropolis(ringAdjacency(n))).sigma2, expected, 1e-12);
}

TEST(AcceleratedGossip, PerAgentEquationFiveEqualsMatrixForm)
{
    // Eq. (5) written per agent with the index fixed (Σ_j P_ij d_j^k), against the class
    // (matrix form H^{k+1} = (1+θ)PH^k − θH^{k−1}) and against p_k(P) H^0.
    const Eigen::MatrixXd p = lazyMetropolis(wattsStrogatzAdjacency(9, 6, 0.5, 3));
    const double theta = gossipTheta(gossipSpectrum(p).sigma2, GossipTheta::Paper);
    const Eigen::MatrixXd h0 = randomState(9, 4, 1);
    AcceleratedGossip gossip(p, theta, 4);
    gossip.start(h0);
    std::vector<Eigen::VectorXd> current(9), previous(9);
    for (int i = 0; i < 9; ++i)
        current[i] = previous[i] = h0.row(i).transpose();
    for (int k = 0; k < 25; ++k) {
        std::vector<Eigen::VectorXd> next(9);
        for (int i = 0; i < 9; ++i) {
            Eigen::VectorXd mix = Eigen::VectorXd::Zero(4);
            for (int j = 0; j < 9; ++j)
                mix += p(i, j) * current[j];
            next[i] = (1.0 + theta) * mix - theta * previous[i];
        }
        previous = current;
        current = next;
        gossip.step();
        for (int i = 0; i < 9; ++i)
            EXPECT_LE((gossip.current().row(i).transpose() - current[i]).norm(), 1e-12) << "k = " << k;
    }
    const Eigen::MatrixXd viaPolynomial = gossipPolynomial(p, theta, 25) * h0;
    EXPECT_LE((viaPolynomial - gossip.current()).norm(), 1e-11);
}

TEST(AcceleratedGossip, KeepsTheMeanExactly)
{
    const Eigen::MatrixXd p = lazyMetropolis(ringAdjacency(12));
    const Eigen::MatrixXd h0 = randomState(12, 3, 2);
    const Eigen::RowVectorXd mean = h0.colwise().mean();
    for (GossipTheta rule : {GossipTheta::Paper, GossipTheta::Chebyshev, GossipTheta::Plain}) {
        AcceleratedGossip gossip(p, gossipTheta(gossipSpectrum(p).sigma2, rule), 3);
        gossip.start(h0);
        for (int k = 0; k < 200; ++k) {
            gossip.step();
            EXPECT_LE((gossip.current().colwise().mean() - mean).cwiseAbs().maxCoeff(), 1e-12);
        }
    }
}

TEST(AcceleratedGossip, PaperThetaOnCompleteGraphHalvesEveryTwoSteps)
{
    // P = J/n: the deviation follows e_{k+1} = −θ e_{k−1}, e_0 = e_{−1} = 1, i.e. e = −θ, −θ, θ²,
    // θ², −θ³, …; after 10 steps e_10 = −θ⁵ = −3.125e−2 with θ = 1/2 (the paper rounds it to 3.1e−2), while
    // θ* = 0 averages exactly in one step.
    const int n = 6;
    const Eigen::MatrixXd p = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    EXPECT_NEAR(gossipContraction(p, 0.5, 10), std::pow(0.5, 5), 1e-12);
    EXPECT_NEAR(gossipContraction(p, 0.0, 1), 0.0, 1e-12);
    AcceleratedGossip gossip(p, 0.5, 2);
    const Eigen::MatrixXd h0 = randomState(n, 2, 4);
    const Eigen::MatrixXd centered = h0.rowwise() - h0.colwise().mean();
    gossip.start(h0);
    for (int k = 0; k < 10; ++k)
        gossip.step();
    const Eigen::MatrixXd deviation = gossip.current().rowwise() - h0.colwise().mean();
    EXPECT_LE((deviation + std::pow(0.5, 5) * centered).norm(), 1e-12);
}

struct Topology {
    const char *name;
    Eigen::MatrixXd adjacency;
};

TEST(AcceleratedGossip, LemmaD3BoundOnCompleteCycleWattsStrogatz)
{
    // With θ and L of eq. (7): max_i ‖d_i^L − d̄‖ ≤ 2 max_i ‖d_i‖/(nT) (Lemma D.3 / F.1), for the
    // topologies of the paper's Appendix B, n = 9, T = 150000 (letter).
    const int n = 9;
    const long long horizon = 150000;
    const std::vector<Topology> topologies = {{"complete", completeAdjacency(n)},
                                              {"cycle", ringAdjacency(n)},
                                              {"watts-strogatz", wattsStrogatzAdjacency(n, 6, 0.5, 7)}};
    for (const auto &topology : topologies) {
        const Eigen::MatrixXd p = lazyMetropolis(topology.adjacency);
        const GossipSpectrum spectrum = gossipSpectrum(p);
        const double theta = gossipTheta(spectrum.sigma2, GossipTheta::Paper);
        const long long steps = acceleratedGossipSteps(n, horizon, spectrum.rho);
        // Worst case over all inputs: ‖H^L − H̄‖_F ≤ c ‖H^0‖_F ≤ c √n max‖d_i‖.
        const double c = gossipContraction(p, theta, steps);
        EXPECT_LE(c * std::sqrt(static_cast<double>(n)), 2.0 / (n * static_cast<double>(horizon))) << topology.name;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const Eigen::MatrixXd h0 = randomState(n, 5, seed);
            AcceleratedGossip gossip(p, theta, 5);
            gossip.start(h0);
            for (long long k = 0; k < steps; ++k)
                gossip.step();
            const double bound = 2.0 * h0.rowwise().norm().maxCoeff() / (n * static_cast<double>(horizon));
            const Eigen::RowVectorXd mean = h0.colwise().mean();
            EXPECT_LE((gossip.current().rowwise() - mean).rowwise().norm().maxCoeff(), bound) << topology.name;
        }
    }
}

TEST(AcceleratedGossip, BeatsPlainGossipOnARing)
{
    const int n = 16;
    const Eigen::MatrixXd p = lazyMetropolis(ringAdjacency(n));
    const double sigma2 = gossipSpectrum(p).sigma2;
    const Eigen::MatrixXd h0 = randomState(n, 3, 5);
    AcceleratedGossip plain(p, 0.0, 3), accelerated(p, gossipTheta(sigma2, GossipTheta::Paper), 3),
        chebyshev(p, gossipTheta(sigma2, GossipTheta::Chebyshev), 3);
    plain.start(h0);
    accelerated.start(h0);
    chebyshev.start(h0);
    for (int k = 1; k <= 120; ++k) {
        plain.step();
        accelerated.step();
        chebyshev.step();
        if (k == 40 || k == 80 || k == 120) {
            EXPECT_LT(maxDeviation(accelerated.current()), maxDeviation(plain.current())) << "k = " << k;
            EXPECT_LT(maxDeviation(chebyshev.current()), maxDeviation(accelerated.current())) << "k = " << k;
        }
    }
    // And the worst-case factors agree: after 80 steps the paper's θ is at least 10× better.
    EXPECT_LT(10.0 * gossipContraction(p, gossipTheta(sigma2, GossipTheta::Paper), 80), gossipContraction(p, 0.0, 80));
}

TEST(AcceleratedGossip, RestartDecouplesBlocks)
{
    // start() forgets everything: gossiping block B after block A gives p_L(P) H_B exactly, the
    // same as gossiping B alone (no carry-over as in the block-coupled recurrence).
    const Eigen::MatrixXd p = lazyMetropolis(ringAdjacency(7));
    const double theta = gossipTheta(gossipSpectrum(p).sigma2, GossipTheta::Paper);
    const Eigen::MatrixXd a = randomState(7, 2, 8), b = randomState(7, 2, 9);
    AcceleratedGossip gossip(p, theta, 2);
    gossip.start(a);
    for (int k = 0; k < 15; ++k)
        gossip.step();
    gossip.start(b);
    for (int k = 0; k < 15; ++k)
        gossip.step();
    EXPECT_EQ(gossip.steps(), 15);
    EXPECT_LE((gossip.current() - gossipPolynomial(p, theta, 15) * b).norm(), 1e-12);
}

TEST(AcceleratedGossip, NeighboursSeeOnlyWhatWasSent)
{
    // step(sent): the agent's own term stays exact, neighbours' terms use the sent rows.
    const Eigen::MatrixXd p = lazyMetropolis(ringAdjacency(5));
    const Eigen::MatrixXd h0 = randomState(5, 2, 10);
    Eigen::MatrixXd sent = h0;
    sent.row(2).array() += 1.0;
    AcceleratedGossip gossip(p, 0.3, 2);
    gossip.start(h0);
    gossip.step(sent);
    Eigen::MatrixXd mixed = p * sent;
    mixed.row(2) = p.row(2) * sent + p(2, 2) * (h0.row(2) - sent.row(2));
    const Eigen::MatrixXd expected = 1.3 * mixed - 0.3 * h0;
    EXPECT_LE((gossip.current() - expected).norm(), 1e-12);
}

// --- the "gossip" teaching algorithm ------------------------------------------------------------

Eigen::VectorXd consensusErrors(const std::string &acceleration, const Eigen::MatrixXd &w, const Eigen::MatrixXd &x0,
                                int steps, std::uint64_t *bits = nullptr)
{
    const AlgorithmDescriptor *alg = findAlgorithm("gossip");
    EXPECT_NE(alg, nullptr);
    auto problem = std::make_shared<RandomQuadratic>(static_cast<int>(x0.rows()), static_cast<int>(x0.cols()), 1);
    RunContext ctx = makeContext(*alg, problem, w, steps, Json{{"acceleration", acceleration}}, Json::object());
    ctx.x0 = x0;
    auto run = alg->create();
    EXPECT_TRUE(run->reset(ctx).ok());
    const Eigen::RowVectorXd mean = x0.colwise().mean();
    Eigen::VectorXd errors(steps + 1);
    auto error = [&] { return (run->decisions().rowwise() - mean).rowwise().squaredNorm().mean(); };
    errors[0] = error();
    for (int k = 1; k <= steps; ++k) {
        run->step();
        errors[k] = error();
        EXPECT_LE((run->decisions().colwise().mean() - mean).cwiseAbs().maxCoeff(), 1e-12);
    }
    if (bits)
        *bits = run->bitsSent();
    return errors;
}

TEST(GossipAlgorithm, TeachingViewPlainVersusAcceleratedOnRingAndComplete)
{
    const int n = 12;
    const Eigen::MatrixXd x0 = randomState(n, 2, 12);
    std::uint64_t bits = 0;
    const Eigen::VectorXd ringPlain = consensusErrors("none", lazyMetropolis(ringAdjacency(n)), x0, 60, &bits);
    const Eigen::VectorXd ringFast = consensusErrors("paper", lazyMetropolis(ringAdjacency(n)), x0, 60);
    EXPECT_LT(ringFast[60], 0.1 * ringPlain[60]);
    EXPECT_LT(ringPlain[60], ringPlain[0]);
    // One full-precision d-vector per agent per step.
    EXPECT_EQ(bits, static_cast<std::uint64_t>(60) * n * 2 * kValueBits);
    // Complete graph with P = J/n: plain gossip is exact after one step, the paper's θ = 1/2
    // overshoots (e_1 = −1/2) — the teaching point that θ must match the graph.
    const Eigen::MatrixXd average = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    const Eigen::VectorXd completePlain = consensusErrors("none", average, x0, 4);
    const Eigen::VectorXd completeFast = consensusErrors("paper", average, x0, 4);
    EXPECT_LE(completePlain[1], 1e-20);
    EXPECT_NEAR(completeFast[1], 0.25 * completeFast[0], 1e-12 * completeFast[0]);
}

} // namespace
} // namespace dplab
