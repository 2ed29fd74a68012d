// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 003's theory against simulation (spec claims 10 and 12, both "optional" in the paper):
//  - θ = 2nθ1 + 2θ2 from (I − A)^{-1}B of eqs. (30)–(31) (Theorem 3, γ_k = β_k = 1) against the
//    empirical steady state E‖x_k − 1x*‖² of robust-dp-gt on the Fig. 3/4 ridge instance, at a
//    step α that satisfies ρ(A) < 1 — and where the preset's α = 0.01 leaves (31) without a finite
//    steady state;
//  - Corollary 1's step bound (with the appendix c42) against the bound of [45] (Corollary 2) on
//    the same instance (the paper's Remark 1 reports 1.2e-3 vs 1.1e-5 on its own instance).
// Results are recorded in docs/paper003-results.md §3: each measured number is printed on a line
// "reproduce: KEY VALUE…", which scripts/reproduce.py (claim p003-theory) reads.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/paper003theory.h"
#include "dplab/engine/experiment.h"
#include "../common/reproduceline.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace dplab {
namespace {

struct Instance {
    Experiment e;
    double mu = 0, L = 0, rhoW = 0, rhoWo = 0;
    int n = 0, r = 0;
    Eigen::VectorXd xstar;
};

Instance instance(double rhoWo, double rhoW, double alpha, long long iterations, int repetitions,
                  const Json &beta = 1.0, const Json &gamma = 1.0)
{
    std::ifstream in(std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets/paper003-fig3-rho-wo-sweep.json");
    Json doc = Json::parse(in);
    doc.erase("sweep");
    doc["graph"]["generator"]["rho_wo"] = rhoWo;
    doc["graph"]["generator"]["rho_w"] = rhoW;
    doc["iterations"] = iterations;
    doc["repetitions"] = repetitions;
    doc["runs"][0]["params"]["alpha"] = alpha;
    doc["runs"][0]["privacy"]["beta"] = beta;
    doc["runs"][0]["params"]["gamma"] = gamma;
    auto e = parseExperiment(doc, ".");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    Instance out{std::move(*e)};
    const Json facts = out.e.problem->describe();
    out.mu = facts.at("strong_convexity").get<double>();
    out.L = facts.at("smoothness").get<double>();
    out.n = out.e.problem->agentCount();
    out.r = out.e.problem->dimension();
    out.rhoW = rhoW;
    out.rhoWo = rhoWo;
    out.xstar = solveReference(*out.e.problem)->x;
    return out;
}

/** Theorem 3's constants of the instance with b_η = b_ξ = b (σ² = E‖η_{i,k}‖² = 2 r b²). */
Paper003Constants constants(const Instance &s, double b)
{
    Paper003Constants c;
    c.n = s.n;
    c.mu = s.mu;
    c.L = s.L;
    c.rhoW = s.rhoW;
    c.rhoWo = s.rhoWo;
    c.sigmaEta2 = c.sigmaXi2 = 2.0 * s.r * b * b;
    return c;
}

double theorem3StepBound(const Instance &s)
{
    const std::array<double, 3> bounds = paper003Theorem3StepBounds(constants(s, 0.0));
    return std::min({bounds[0], bounds[1], bounds[2]});
}

void reproduce(const std::string &key, const std::vector<double> &values)
{
    test::printReproduceLine(key, values);
}

/** Per repetition: the mean over the last `window` iterations of Σ_i ‖x_i − x*‖². */
std::vector<double> empiricalSteadyState(const Instance &s, long long window)
{
    std::vector<double> out;
    for (int rep = 0; rep < s.e.repetitions; ++rep) {
        double sum = 0;
        long long count = 0;
        RunContext ctx = makeRunContext(s.e, 0, rep);
        auto algo = s.e.runs[0].algorithm->create();
        EXPECT_TRUE(algo->reset(ctx));
        for (long long k = 0; k < s.e.iterations; ++k) {
            algo->step();
            if (k >= s.e.iterations - window) {
                sum += (algo->decisions().rowwise() - s.xstar.transpose()).squaredNorm();
                ++count;
            }
        }
        out.push_back(sum / static_cast<double>(count));
    }
    return out;
}

TEST(Paper003Theory, ThetaOfEquation31BoundsTheEmpiricalSteadyStateWhereItExists)
{
    const double b = std::sqrt(0.005); // σ² = 0.01 per coordinate (the presets' noise)
    // The preset's α = 0.01: (31) gives no finite steady state (ρ(A) ≥ 1).
    {
        const Instance s = instance(0.3, 0.9, 0.01, 1, 1);
        const Paper003SteadyState state = paper003SteadyState(constants(s, b), 0.01);
        std::cerr << "alpha = 0.01: rho(A) = " << state.rhoA << " (mu " << s.mu << ", L " << s.L << ")\n";
        reproduce("steady.preset_alpha.rho_a", {state.rhoA});
        EXPECT_GE(state.rhoA, 1.0);
        EXPECT_EQ(state.theta, std::numeric_limits<double>::infinity());
    }
    // A step small enough for ρ(A) < 1: θ is finite, grows with ρ_w, scales as ρ(W_o)², and lies
    // above the measured steady state (a mean over 10 repetitions).
    for (double rhoWo : {0.1, 0.3}) {
        // 0.9 × Theorem 3's step bound on this instance.
        const Instance probe = instance(rhoWo, 0.9, 0.01, 1, 1);
        const double alpha = 0.9 * theorem3StepBound(probe);
        const long long iterations = std::min<long long>(400000, static_cast<long long>(8.0 / (alpha * probe.mu)));
        const Instance s = instance(rhoWo, 0.9, alpha, iterations, 10);
        const Paper003SteadyState state = paper003SteadyState(constants(s, b), alpha);
        ASSERT_LT(state.rhoA, 1.0);
        const std::vector<double> perRepetition = empiricalSteadyState(s, iterations / 4);
        double measured = 0;
        for (double v : perRepetition)
            measured += v / static_cast<double>(perRepetition.size());
        const std::string key = "steady.rho_wo_" + std::to_string(static_cast<int>(std::lround(rhoWo * 10)));
        reproduce(key + ".theta", {state.theta});
        reproduce(key + ".alpha", {alpha});
        reproduce(key + ".iterations", {static_cast<double>(iterations)});
        reproduce(key + ".measured", perRepetition);
        std::cerr << "alpha = " << alpha << ", rho(W_o) = " << rhoWo << ": rho(A) = " << state.rhoA
                  << ", theta = " << state.theta << ", measured E||x - 1x*||^2 = " << measured << "\n";
        EXPECT_GT(state.theta, measured);
    }
}

TEST(Paper003Theory, ThetaMatchesTheSystemSolvedByHand)
{
    // n = 2 (d_I² = 1), μ = L = 1, ρ_w = 0 (1 − ρ_w² = 1), ρ(W_o) = 0.5, σ_η² = σ_ξ² = 1, α = 0.01:
    //   A = [0.99 0.01 0; 0 0.5 0.0002; 0.0064 64 0.5016], B = 0.25·[1.0001, 2, 56].
    // (I − A)z = B by elimination: z1 = z2 + 25.0025, z3 = 2500 z2 − 2500 and
    // 1181.9936 z2 = 1260.160016, so z2 = 1.06613099766…, θ = 2n z1 + 2 z2 = 106.406785986….
    Paper003Constants c;
    c.n = 2;
    c.mu = c.L = 1.0;
    c.rhoW = 0.0;
    c.rhoWo = 0.5;
    c.sigmaEta2 = c.sigmaXi2 = 1.0;
    const Paper003SteadyState state = paper003SteadyState(c, 0.01);
    Eigen::Matrix3d A;
    A << 0.99, 0.01, 0, 0, 0.5, 0.0002, 0.0064, 64, 0.5016;
    EXPECT_LT((state.A - A).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_LT((state.B - 0.25 * Eigen::Vector3d(1.0001, 2, 56)).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_LT(state.rhoA, 1.0);
    EXPECT_NEAR(state.theta, 106.40678598598166, 1e-10);
    // θ ∝ ρ(W_o)² (B ∝ ρ(W_o)², A does not depend on it: Theorem 4).
    c.rhoWo = 0.25;
    EXPECT_NEAR(paper003SteadyState(c, 0.01).theta, 106.40678598598166 / 4, 1e-10);
}

/** Mean over repetitions of Σ_i ‖x_i(k) − x*‖² (or ‖x̄_k − x*‖² with `mean`) at each k of `at`
 *  (ascending); each repetition's values are printed for scripts/reproduce.py under `key`. */
std::vector<double> meanSquaredErrorAt(const Instance &s, const std::vector<long long> &at, const std::string &key,
                                       bool mean = false)
{
    std::vector<double> sum(at.size(), 0.0);
    reproduce(key + ".k", std::vector<double>(at.begin(), at.end()));
    for (int rep = 0; rep < s.e.repetitions; ++rep) {
        RunContext ctx = makeRunContext(s.e, 0, rep);
        auto algo = s.e.runs[0].algorithm->create();
        EXPECT_TRUE(algo->reset(ctx));
        std::size_t next = 0;
        std::vector<double> repetition;
        for (long long k = 0; next < at.size(); ++k) {
            if (k == at[next]) {
                const Eigen::MatrixXd &x = algo->decisions();
                repetition.push_back(mean ? (x.colwise().mean().transpose() - s.xstar).squaredNorm()
                                          : (x.rowwise() - s.xstar.transpose()).squaredNorm());
                sum[next] += repetition.back();
                ++next;
            }
            algo->step();
        }
        reproduce(key + ".repetition", repetition);
    }
    for (double &v : sum)
        v /= s.e.repetitions;
    return sum;
}

/** Least-squares slope of log y against log(m + k). */
double logLogSlope(const std::vector<long long> &at, const std::vector<double> &y, double m)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < at.size(); ++k) {
        const double x = std::log(m + static_cast<double>(at[k])), v = std::log(y[k]);
        sx += x;
        sy += v;
        sxx += x * x;
        sxy += x * v;
    }
    const double count = static_cast<double>(at.size());
    return (count * sxy - sx * sy) / (count * sxx - sx * sx);
}

TEST(Paper003Theory, CaseOneErrorDecaysLikeTheNoiseFactorSquared)
{
    // Claim 11, Theorem 1 case 1: constant gradient step (p = 0) and noise factor
    // β_k = 1/(m + k)^q: log E‖x_k − 1x*‖² against log(m + k) has slope ≈ −2q. Measured on the
    // Fig. 3 ridge instance at the presets' α = 0.01 and noise, 40 repetitions, by least squares
    // over k = 1000 … 16000 (numbers in docs/paper003-results.md).
    const double m = 10.0;
    const std::vector<long long> at{1000, 2000, 4000, 8000, 16000};
    for (double q : {0.25, 0.5, 1.0}) {
        const Instance s = instance(0.3, 0.9, 0.01, at.back() + 1, 40,
                                    Json{{"type", "polynomial"}, {"a", 1.0}, {"t0", m}, {"p", q}});
        const std::vector<double> e = meanSquaredErrorAt(s, at, "case1.q_" + std::to_string(static_cast<int>(q * 100)));
        const double slope = logLogSlope(at, e, m);
        std::cerr << "q = " << q << ": E||x_k - 1x*||^2 at k = 1000 ... 16000:";
        for (double v : e)
            std::cerr << " " << v;
        std::cerr << "; slope " << slope << " (theory " << -2 * q << ")\n";
        EXPECT_NEAR(slope, -2.0 * q, 0.15 + 0.1 * q) << "q = " << q;
    }
}

TEST(Paper003Theory, CaseTwoMeanErrorDecaysAtLeastAtTheoremOnesRate)
{
    // Claim 11, Theorem 1 case 2: γ_k = γ/(m + k)^p with 0 < p ≤ 1, β_k = 1/(m + k)^q, q > p, and
    // αγ > min{2q − p, 2p}/μ: E‖x̄_k − x*‖² = O(1/(m + k)^{min{2q − p, 2p}}). α = 0.01, γ = 150
    // (αγ = 1.5 > 1/μ), m = 100 so that αγ_0 = 0.15 < 2/(μ + L) (Lemma 1). DISAGREES with the
    // spec's reading "slope ≈ −min{2q − p, 2p}": the measured slopes are about −(p + 2q) (−3.0
    // and −1.9 against −1 and −0.7), so the theorem's rate holds as a bound, not as an equality;
    // the test asserts the bound's direction.
    const double m = 100.0;
    const std::vector<long long> at{2000, 4000, 8000, 16000, 32000};
    for (auto [p, q] : {std::pair{0.5, 1.0}, std::pair{0.5, 0.6}}) {
        const Instance s = instance(0.3, 0.9, 0.01, at.back() + 1, 40,
                                    Json{{"type", "polynomial"}, {"a", 1.0}, {"t0", m}, {"p", q}},
                                    Json{{"type", "polynomial"}, {"a", 150.0}, {"t0", m}, {"p", p}});
        ASSERT_GT(0.01 * 150.0 * s.mu, std::min(2 * q - p, 2 * p));
        const std::vector<double> e = meanSquaredErrorAt(
            s, at, "case2.p_" + std::to_string(static_cast<int>(p * 100)) + ".q_" + std::to_string(static_cast<int>(q * 100)),
            true);
        const double slope = logLogSlope(at, e, m), theory = -std::min(2 * q - p, 2 * p);
        std::cerr << "p = " << p << ", q = " << q << ": E||xbar_k - x*||^2 at k = 2000 ... 32000:";
        for (double v : e)
            std::cerr << " " << v;
        std::cerr << "; slope " << slope << " (theory " << theory << ")\n";
        EXPECT_LT(slope, theory + 0.1) << "p = " << p << ", q = " << q;
    }
}

TEST(Paper003Theory, CorollaryOneStepBoundExceedsTheBoundOfReference45)
{
    const Instance s = instance(0.3, 0.9, 0.01, 1, 1);
    const double n = s.n, L = s.L, mu = s.mu, dI2 = n - 1.0, dI = std::sqrt(dI2), tw = 1.0 - s.rhoW * s.rhoW;
    const double rr = s.rhoW * s.rhoW;
    // Corollary 1 (Case 1, γ = 1), c42 of Corollary 1 / App. B; c41 as printed and with the 1/μ²
    // re-deriving it shows missing (docs/paper003-results.md, step bounds).
    const double c42 = 64 * (1 + rr) * (mu * mu + 2 * mu * L + 5 * L * L) * L * L * dI2 / (std::pow(tw, 4) * std::pow(mu + L, 2));
    auto corollary1 = [&](double c41) {
        return std::min({2 / (mu + L), tw / (4 * std::sqrt(2.0) * L * dI), std::sqrt(2 / (c42 + std::sqrt(c42 * c42 + 4 * c41)))});
    };
    const double c41 = 64 * (1 + rr) * (3 * mu + L) * std::pow(L, 6) * dI2 / (std::pow(tw, 4) * (mu + L));
    const double ours = corollary1(c41), oursRederived = corollary1(c41 / (mu * mu));
    // [45] Corollary 2, ‖W − I‖₂ from the actual W.
    RunContext ctx = makeRunContext(s.e, 0, 0);
    const double wMinusI = (ctx.W - Eigen::MatrixXd::Identity(s.n, s.n)).jacobiSvd().singularValues()[0];
    const double d1 = 48 * dI2 * dI2 * std::pow(L, 6) / (mu * tw * tw);
    const double d2 = 24 * dI2 * dI2 * L * L * (2 * L * L + mu * mu * n) * (wMinusI * wMinusI + 2) / (mu * tw * tw)
                      + 10 * std::pow(L, 4) * dI2 / mu;
    const double d3 = mu * n * tw * tw / 18;
    const double pu = std::min({1 / (mu + L), tw / (4 * std::sqrt(3.0) * L * dI), std::sqrt(2 * d3 / (d2 + std::sqrt(d2 * d2 + 4 * d1 * d3)))});
    reproduce("corollary1.step_bound", {ours});
    reproduce("corollary1.step_bound_rederived", {oursRederived});
    reproduce("corollary1.reference45", {pu});
    std::cerr << "Corollary 1: " << ours << " (c41 with 1/mu^2: " << oursRederived << "), [45]: " << pu
              << ", ratio " << ours / pu << "\n";
    EXPECT_GT(ours, pu);
    EXPECT_GT(oursRederived, pu);
}

} // namespace
} // namespace dplab
