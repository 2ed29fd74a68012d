// SPDX-License-Identifier: GPL-3.0-or-later
//
// Paper 000 (Chen & Wang, LDP gradient tracking for online learning over directed graphs):
// ldp-gt (Algorithm 1), its Theorem 3 accountant, the online stream problem, and the noisy
// Push-Pull baseline's noise accumulation (eq. 6).
#include "dplab/algo/algorithm.h"
#include "dplab/algo/builtin.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/graph/graph.h"
#include "dplab/privacy/paper000accountant.h"
#include "dplab/problem/stream.h"
#include "../common/reproduceline.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

namespace dplab {
namespace {

/** f_i(x) = ½ Σ_k a_ik x_k² − b_iᵀx (diagonal quadratics), static. */
class DiagonalQuadratic : public Problem
{
public:
    DiagonalQuadratic(Eigen::MatrixXd a, Eigen::MatrixXd b) : mA(std::move(a)), mB(std::move(b)) {}
    std::string id() const override { return "test-quadratic"; }
    int agentCount() const override { return static_cast<int>(mA.rows()); }
    int dimension() const override { return static_cast<int>(mA.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long) const override
    {
        out = (0.5 * mA.cwiseProduct(X.cwiseProduct(X)) - mB.cwiseProduct(X)).rowwise().sum();
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long) const override
    {
        out = mA.cwiseProduct(X) - mB;
    }
    Eigen::VectorXd optimum() const
    {
        return mB.colwise().sum().cwiseQuotient(mA.colwise().sum()).transpose();
    }
    Json describe() const override { return Json{{"type", id()}, {"gradient_l1_bound", 4.0}, {"lipschitz", 2.0}}; }

private:
    Eigen::MatrixXd mA, mB;
};

/** A strongly connected, unbalanced 5-node digraph (edge j -> i: j sends to i). */
Graph testDigraph()
{
    Graph g(5, true);
    for (auto [from, to] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 2}, {3, 1}})
        g.addEdge(from, to);
    return g;
}

/** R(i, j) = 1/(1 + d_in(i)) over i's in-neighbours and itself: row-stochastic. */
Eigen::MatrixXd uniformRow(const Graph &g)
{
    const int n = g.nodeCount();
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        const auto in = g.inNeighbours(i);
        const double w = 1.0 / (1.0 + static_cast<double>(in.size()));
        R(i, i) = w;
        for (int j : in)
            R(i, j) = w;
    }
    return R;
}

/** Left Perron vector of a row-stochastic R, normalised to Σu = m (the paper's u). */
Eigen::VectorXd perron(const Eigen::MatrixXd &R)
{
    Eigen::EigenSolver<Eigen::MatrixXd> es(R.transpose());
    Eigen::Index best = 0;
    (es.eigenvalues().array() - std::complex<double>(1.0, 0.0)).abs().minCoeff(&best);
    Eigen::VectorXd u = es.eigenvectors().col(best).real();
    return u * (static_cast<double>(R.rows()) / u.sum());
}

double secondEigenvalueModulus(const Eigen::MatrixXd &R)
{
    Eigen::EigenSolver<Eigen::MatrixXd> es(R);
    Eigen::VectorXd mod = es.eigenvalues().array().abs();
    std::sort(mod.data(), mod.data() + mod.size(), std::greater<double>());
    return mod[1];
}

struct Fixture {
    Graph graph = testDigraph();
    Eigen::MatrixXd R = uniformRow(graph);
    Eigen::MatrixXd C = R.transpose(); // paper 000's experiments: C = Rᵀ (column-stochastic)
    std::shared_ptr<const Compressor> identity = makeCompressor(Json(), "compressor").value();
};

/** A reset context for `algorithm` with resolved params/privacy. */
RunContext context(const Fixture &f, const std::string &algorithm, std::shared_ptr<const Problem> problem,
                   const Json &params, const Json &privacy, const Eigen::MatrixXd &x0,
                   std::uint64_t seed = 5, long long horizon = 0)
{
    const AlgorithmDescriptor *d = findAlgorithm(algorithm);
    EXPECT_NE(d, nullptr) << algorithm;
    const int n = f.graph.nodeCount();
    RunContext ctx;
    ctx.graph = f.graph;
    ctx.R = f.R;
    ctx.C = f.C;
    ctx.problem = std::move(problem);
    auto p = resolveParams(d->params, params, "params", n);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().toString());
    ctx.params = *p;
    auto q = resolveParams(d->privacyParams, privacy, "privacy", n);
    EXPECT_TRUE(q.ok()) << (q.ok() ? "" : q.error().toString());
    ctx.privacy = *q;
    ctx.compressor = f.identity;
    ctx.noise = NoiseSource{seed, 0, 0};
    ctx.x0 = x0;
    ctx.horizon = horizon;
    return ctx;
}

std::unique_ptr<Algorithm> make(const std::string &id)
{
    return findAlgorithm(id)->create();
}

/** Synthetic binary classification pool: N samples in dimension d, labels 0/1. */
void syntheticPool(int N, int d, std::uint64_t seed, Eigen::MatrixXd &A, Eigen::VectorXd &b)
{
    Rng rng(seed);
    A.resize(N, d);
    b.resize(N);
    Eigen::VectorXd w(d);
    for (int k = 0; k < d; ++k)
        w[k] = rng.gaussian();
    for (int s = 0; s < N; ++s) {
        for (int k = 0; k < d; ++k)
            A(s, k) = rng.gaussian();
        b[s] = (A.row(s).dot(w) + 0.5 * rng.gaussian()) > 0 ? 1.0 : 0.0;
    }
}

std::shared_ptr<const OnlineStreamProblem> onlineLogistic(int agents, long long length, double clip,
                                                          double ridge = 0.01, int spi = 1,
                                                          StreamGradient mode = StreamGradient::Cumulative)
{
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(40, 3, 17, A, b);
    StreamOptions o;
    o.loss = SampleLoss::Logistic;
    o.ridge = ridge;
    o.clipL1 = clip;
    o.samplesPerIteration = spi;
    o.gradient = mode;
    auto p = OnlineStreamProblem::create(A, b, OnlineStreamProblem::iidSequences(40, agents, length, 3), o);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().toString());
    return *p;
}

// ================================ ldp-gt ========================================================

TEST(LdpGt, IsRegisteredWithPushPullNoiseKeys)
{
    const AlgorithmDescriptor *d = findAlgorithm("ldp-gt");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->graphKind, GraphKind::Directed);
    EXPECT_EQ(d->weights, WeightNeeds::RowColumn);
    const AlgorithmDescriptor *pp = findAlgorithm("push-pull");
    ASSERT_NE(pp, nullptr);
    // Every push-pull privacy key is an ldp-gt key: one privacy object can drive both.
    for (const auto &spec : pp->privacyParams) {
        bool found = false;
        for (const auto &mine : d->privacyParams)
            found = found || mine.key == spec.key;
        EXPECT_TRUE(found) << spec.key;
    }
    auto resolved = resolveParams(d->params, Json::object(), "params", 5);
    ASSERT_TRUE(resolved.ok());
    const Schedule step = paramSchedule(*resolved, "stepsize");
    EXPECT_EQ(step.kind(), Schedule::Kind::Polynomial);
    EXPECT_DOUBLE_EQ(step.p(), 0.61);
}

TEST(LdpGt, NoAccumulationInvariantEq8HoldsEveryIterationWithNoise)
{
    Fixture f;
    const int n = 5;
    auto problem = onlineLogistic(n, 400, 0.0);
    const Json privacy = {{"noise_theta", 0.5}, {"noise_y", 0.5},
                          {"noise_theta_decay", {0.51, 0.52, 0.53, 0.54, 0.55}},
                          {"noise_y_decay", {0.51, 0.52, 0.53, 0.54, 0.55}}};
    const Json params = {{"tracker_init", 1.0}};
    Eigen::MatrixXd x0 = Eigen::MatrixXd::Ones(n, problem->dimension());
    auto algo = make("ldp-gt");
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, params, privacy, x0)).ok());
    algo->setRecordMessages(true);
    const Schedule step = Schedule::polynomial(1.0, 1.0, 0.61);
    for (int t = 0; t < 300; ++t) {
        const Eigen::MatrixXd s0 = *algo->state("s");
        algo->step();
        const Eigen::MatrixXd &s1 = *algo->state("s");
        const Eigen::MatrixXd &g = *algo->state("gradient");
        Eigen::RowVectorXd noiseTerm = Eigen::RowVectorXd::Zero(problem->dimension());
        double scale = 0.0;
        int seen = 0;
        for (const auto &m : algo->lastMessages()) {
            if (m.channel != "s")
                continue;
            ++seen;
            const double outWeight = 1.0 - f.C(m.sender, m.sender); // Σ_{i≠j} C_ij
            noiseTerm += outWeight * m.noise.transpose();
            scale += outWeight * m.noise.lpNorm<1>();
            EXPECT_LE((m.sent - m.clean - m.noise).cwiseAbs().maxCoeff(),
                      1e-15 * (m.clean.cwiseAbs().maxCoeff() + m.noise.cwiseAbs().maxCoeff()));
        }
        ASSERT_EQ(seen, n);
        const Eigen::RowVectorXd lhs = (s1 - s0).colwise().sum();
        const Eigen::RowVectorXd rhs = step.at(t) * g.colwise().sum() + noiseTerm;
        scale += step.at(t) * g.cwiseAbs().sum() + s1.cwiseAbs().sum() + s0.cwiseAbs().sum();
        ASSERT_LE((lhs - rhs).cwiseAbs().maxCoeff(), 1e-12 * scale) << "t = " << t;
    }
}

TEST(LdpGt, EstimatorRowsAreRPowersAndConvergeToPerronVector)
{
    Fixture f;
    const int n = 5;
    auto problem = std::make_shared<DiagonalQuadratic>(Eigen::MatrixXd::Ones(n, 2), Eigen::MatrixXd::Zero(n, 2));
    auto algo = make("ldp-gt");
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, Json::object(), Json::object(),
                                    Eigen::MatrixXd::Zero(n, 2)))
                    .ok());
    const Eigen::VectorXd u = perron(f.R);
    EXPECT_NEAR(u.sum(), n, 1e-12);
    EXPECT_TRUE((u.array() > 0).all());
    const double rate = secondEigenvalueModulus(f.R);
    ASSERT_LT(rate, 1.0);
    Eigen::MatrixXd power = Eigen::MatrixXd::Identity(n, n);
    EigenvectorEstimator offline(f.R, false);
    double firstError = 0.0;
    for (int t = 0; t <= 120; ++t) {
        const Eigen::MatrixXd &z = *algo->state("z");
        ASSERT_LE((z - power).cwiseAbs().maxCoeff(), 1e-14) << "t = " << t;
        ASSERT_LE((offline.z() - power).cwiseAbs().maxCoeff(), 1e-14) << "t = " << t;
        const double error = (n * z.diagonal() - u).cwiseAbs().maxCoeff();
        if (t == 5)
            firstError = error;
        if (t > 5) // geometric: within a margin of the second eigenvalue's modulus
            ASSERT_LE(error, std::max(firstError * std::pow(rate + 0.02, t - 5), 1e-13)) << "t = " << t;
        algo->step();
        offline.advance();
        power = f.R * power;
    }
    EXPECT_LE((n * algo->state("z")->diagonal() - u).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(LdpGt, NoiseFreeConvergesToOptimumOnStaticStronglyConvexProblem)
{
    Fixture f;
    const int n = 5;
    Eigen::MatrixXd a(n, 3), b(n, 3);
    a << 1.0, 0.5, 2.0, //
        1.5, 1.0, 0.5,  //
        0.5, 2.0, 1.0,  //
        2.0, 1.5, 1.5,  //
        1.0, 1.0, 0.5;
    b << 1, -2, 0.5, //
        3, 0, -1,    //
        -1, 1, 2,    //
        0, 2, 1,     //
        2, -1, 0;
    auto problem = std::make_shared<DiagonalQuadratic>(a, b);
    const Eigen::VectorXd xstar = problem->optimum();
    auto algo = make("ldp-gt");
    Eigen::MatrixXd x0(n, 3);
    for (int i = 0; i < n; ++i)
        x0.row(i) << i, -i, 2.0 * i;
    const Json params = {{"stepsize", {{"type", "polynomial"}, {"a", 0.5}, {"t0", 1}, {"p", 0.61}}},
                         {"tracker_init", 0.5}};
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, params, Json::object(), x0)).ok());
    EXPECT_EQ(algo->accountant(), nullptr); // no noise, no ε
    // With a decaying step the fixed point itself moves by O(λ_t − λ_{t+1}) = O(t^{−1.61}) (s must
    // keep solving (C − I)s = −λ_t g(θ*)), so the last digits come slowly.
    const int T = 150000;
    for (int t = 0; t < T; ++t)
        algo->step();
    for (int i = 0; i < n; ++i)
        EXPECT_LE((algo->decisions().row(i).transpose() - xstar).norm(), 1e-8) << "agent " << i;
    // Bits: s and θ (3 values each) and z (5 values) per agent per iteration, 32 bits a value.
    EXPECT_EQ(algo->bitsSent(), static_cast<std::uint64_t>(T) * n * (3 + 3 + 5) * 32);
}

TEST(LdpGt, DrawsTheSameNoiseAsPushPullForTheSameSeed)
{
    Fixture f;
    const int n = 5;
    auto problem = std::make_shared<DiagonalQuadratic>(Eigen::MatrixXd::Ones(n, 2), Eigen::MatrixXd::Zero(n, 2));
    const Json privacy = {{"noise_theta", 0.3}, {"noise_y", 0.7}, {"noise_theta_decay", 0.55}, {"noise_y_decay", 0.55}};
    const Json params = {{"stepsize", {{"type", "polynomial"}, {"a", 0.1}, {"t0", 1}, {"p", 0.61}}}};
    auto ldp = make("ldp-gt");
    auto pp = make("push-pull");
    const Eigen::MatrixXd x0 = Eigen::MatrixXd::Zero(n, 2);
    ASSERT_TRUE(ldp->reset(context(f, "ldp-gt", problem, params, privacy, x0)).ok());
    ASSERT_TRUE(pp->reset(context(f, "push-pull", problem, params, privacy, x0)).ok());
    ldp->setRecordMessages(true);
    pp->setRecordMessages(true);
    for (int t = 0; t < 3; ++t) {
        ldp->step();
        pp->step();
        for (const auto &a : ldp->lastMessages()) {
            const std::string other = a.channel == "s" ? "y" : a.channel;
            for (const auto &b : pp->lastMessages())
                if (b.channel == other && b.sender == a.sender)
                    EXPECT_TRUE(a.noise == b.noise) << a.channel << " agent " << a.sender;
        }
    }
}

TEST(LdpGt, WarnsWhenNoiseDecaysFasterThanTheStep)
{
    Fixture f;
    const int n = 5;
    auto problem = std::make_shared<DiagonalQuadratic>(Eigen::MatrixXd::Ones(n, 2), Eigen::MatrixXd::Zero(n, 2));
    const Eigen::MatrixXd x0 = Eigen::MatrixXd::Zero(n, 2);
    auto hasCondition = [](const std::vector<std::string> &warnings) {
        for (const auto &w : warnings)
            if (w.find("max_i ς^i < v < 1") != std::string::npos)
                return true;
        return false;
    };
    auto algo = make("ldp-gt");
    // Paper's setting: ς^i = 0.5 + 0.01 i ≤ 0.55 < v = 0.61: no warning at all.
    Json good = {{"noise_theta", 1.0}, {"noise_y", 1.0},
                 {"noise_theta_decay", {0.51, 0.52, 0.53, 0.54, 0.55}}, {"noise_y_decay", 0.55}};
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, Json::object(), good, x0)).ok());
    EXPECT_TRUE(algo->warnings().empty()) << algo->warnings().front();
    // One learner's ς = 0.7 > v: the theorem's condition fails.
    Json bad = good;
    bad["noise_y_decay"] = {0.55, 0.55, 0.7, 0.55, 0.55};
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, Json::object(), bad, x0)).ok());
    EXPECT_TRUE(hasCondition(algo->warnings()));
    // v = 1 fails v < 1 (and the step-size exponent range).
    const Json params = {{"stepsize", {{"type", "polynomial"}, {"a", 1}, {"t0", 1}, {"p", 1.0}}}};
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, params, good, x0)).ok());
    EXPECT_TRUE(hasCondition(algo->warnings()));
    // A constant step is not the theorem's schedule.
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, Json{{"stepsize", 0.1}}, good, x0)).ok());
    EXPECT_FALSE(algo->warnings().empty());
    // No c_l anywhere: a warning, no accountant.
    struct NoFacts : DiagonalQuadratic {
        using DiagonalQuadratic::DiagonalQuadratic;
        Json describe() const override { return Json{{"type", "test"}}; }
    };
    auto bare = std::make_shared<NoFacts>(Eigen::MatrixXd::Ones(n, 2), Eigen::MatrixXd::Zero(n, 2));
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", bare, Json::object(), good, x0)).ok());
    EXPECT_EQ(algo->accountant(), nullptr);
    EXPECT_FALSE(algo->warnings().empty());
}

TEST(LdpGt, AccountantFollowsTheRunAndExposesBothBounds)
{
    Fixture f;
    const int n = 5;
    auto problem = onlineLogistic(n, 100, 2.0);
    ASSERT_TRUE(problem->gradientL1Bound().has_value());
    const Json privacy = {{"noise_theta", 1.0}, {"noise_y", 1.0}, {"noise_theta_decay", 0.55}, {"noise_y_decay", 0.55}};
    auto algo = make("ldp-gt");
    const Eigen::MatrixXd x0 = Eigen::MatrixXd::Zero(n, problem->dimension());
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, Json::object(), privacy, x0)).ok());
    ASSERT_NE(algo->accountant(), nullptr);
    Paper000PrivacySetup setup;
    setup.gradientBound = 2.0;
    setup.lipschitz = problem->lipschitz();
    setup.dimension = problem->dimension();
    setup.setWeights(f.R, f.C);
    setup.stepsize = Schedule::polynomial(1.0, 1.0, 0.61);
    setup.nuS = setup.nuTheta = Eigen::VectorXd::Ones(n);
    setup.decayS = setup.decayTheta = Eigen::VectorXd::Constant(n, 0.55);
    for (int t = 0; t < 50; ++t)
        algo->step();
    const Paper000Accountant offline = paper000Account(setup, f.R, 50);
    EXPECT_TRUE(algo->accountant()->epsilon().isApprox(offline.epsilonIterated(), 1e-12));
    EXPECT_TRUE(algo->state("epsilon_finite_t")->col(0).isApprox(offline.epsilonFiniteT(), 1e-12));
    EXPECT_TRUE(algo->state("epsilon_iterated")->col(0).isApprox(offline.epsilonIterated(), 1e-12));
}

TEST(LdpGt, TargetEpsilonCalibratesTheNoise)
{
    Fixture f;
    const int n = 5;
    auto problem = onlineLogistic(n, 100, 2.0);
    const Json privacy = {{"noise_theta", 1.0}, {"noise_y", 2.0}, {"noise_theta_decay", 0.55},
                          {"noise_y_decay", 0.55}, {"epsilon", 40.0}, {"accountant", "finite-t"}};
    auto algo = make("ldp-gt");
    const Eigen::MatrixXd x0 = Eigen::MatrixXd::Zero(n, problem->dimension());
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", problem, Json::object(), privacy, x0, 5, 60)).ok());
    for (int t = 0; t < 60; ++t)
        algo->step();
    for (int i = 0; i < n; ++i)
        EXPECT_NEAR(algo->accountant()->epsilon()[i], 40.0, 1e-9);
    const Eigen::MatrixXd &nu = *algo->state("noise_scale");
    EXPECT_NEAR(nu(0, 1) / nu(0, 0), 2.0, 1e-12); // the ratio of the two channels is kept
}

// ================================ Theorem 3 accountant ==========================================

/** The 3-agent hand case: 0 -> 1, 1 -> 2, 2 -> 0, 0 -> 2, uniform row weights, C = Rᵀ. */
Paper000PrivacySetup handSetup(Eigen::MatrixXd &R)
{
    R.resize(3, 3);
    R << 1.0 / 2, 0, 1.0 / 2, //
        1.0 / 2, 1.0 / 2, 0,  //
        1.0 / 3, 1.0 / 3, 1.0 / 3;
    Paper000PrivacySetup s;
    s.gradientBound = 1.0;       // c_l
    s.lipschitz = 1.0;           // L, with n = 1: √n L = 1
    s.dimension = 1;
    s.setWeights(R, R.transpose());
    s.stepsize = Schedule::polynomial(1.0, 1.0, 1.0); // λ_t = 1/(t+1)
    s.nuS = Eigen::VectorXd::Ones(3);                 // ν_{T,ζ} = 1·(T+1)^(−1)
    s.decayS = Eigen::VectorXd::Ones(3);
    s.nuTheta = Eigen::VectorXd::Constant(3, 2.0);    // ν_{T,ϑ} = 2
    s.decayTheta = Eigen::VectorXd::Zero(3);
    return s;
}

TEST(Paper000Accountant, MatchesHandComputedValuesForThreeSteps)
{
    Eigen::MatrixXd R;
    const Paper000PrivacySetup setup = handSetup(R);
    EXPECT_DOUBLE_EQ(setup.cC, 0.5); // min(1 − 1/2, 1 − 1/2, 1 − 1/3)
    EXPECT_DOUBLE_EQ(setup.cR, 0.5);
    // κ_t = 1/(3 [R^t]_ii): t = 0: 1/3; t = 1: 1/(3 R_ii) = (2/3, 2/3, 1);
    // t = 2: [R²]_00 = 1/4 + 1/6 = 5/12, [R²]_11 = 1/4, [R²]_22 = 1/6 + 1/9 = 5/18 → (4/5, 4/3, 6/5).
    EigenvectorEstimator z(R, false);
    Eigen::Vector3d k0(1.0 / 3, 1.0 / 3, 1.0 / 3), k1(2.0 / 3, 2.0 / 3, 1.0), k2(4.0 / 5, 4.0 / 3, 6.0 / 5);
    EXPECT_TRUE(z.kappa().isApprox(k0, 1e-15));
    z.advance();
    EXPECT_TRUE(z.kappa().isApprox(k1, 1e-15));
    z.advance();
    EXPECT_TRUE(z.kappa().isApprox(k2, 1e-15));

    // 1/ν_{T,ζ} = T + 1 and 1/ν_{T,ϑ} = 1/2.
    // Option A (Theorem 3-1): ϱ_{1,s} = 2 c_l λ_0 = 2, ϱ_{1,θ} = κ_0 · 2 = 2/3;
    //   ϱ_{2,s} = 2/2 + 2·(1/2) = 2, ϱ_{2,θ} = (2/3)/2 + κ_1 (2 + 2) = 1/3 + 4κ_1 = (3, 3, 13/3);
    //   ϱ_{3,s} = 2/2 + 2/3 = 5/3, ϱ_{3,θ} = ϱ_{2,θ}/2 + κ_2 (5/3 + 2) = (133/30, 115/18, 197/30).
    const Eigen::Vector3d epsA1 = Eigen::Vector3d::Constant(2.0 * 2 + (2.0 / 3) / 2); // 13/3
    const Eigen::Vector3d epsA2 = epsA1 + Eigen::Vector3d::Constant(2.0 * 3) + Eigen::Vector3d(3, 3, 13.0 / 3) / 2;
    const Eigen::Vector3d epsA3 =
        epsA2 + Eigen::Vector3d::Constant(5.0 / 3 * 4) + Eigen::Vector3d(133.0 / 30, 115.0 / 18, 197.0 / 30) / 2;
    EXPECT_TRUE(epsA2.isApprox(Eigen::Vector3d(71.0 / 6, 71.0 / 6, 75.0 / 6), 1e-15));
    // Option C: Δ_1 as ϱ_1. Δ_{2,s} = min(2, 1 + √nL·(1/2)(1/2)·(2/3) + 2(1/2)/2) = min(2, 5/3) = 5/3
    //   (Lipschitz branch), Δ_{2,θ} = 1/3 + κ_1 (5/3 + 2) = (25/9, 25/9, 4);
    //   Δ_{3,s} = min(5/6 + 2/3, 5/6 + (2/3)(1/3)Δ_{2,θ} + 2(1/3)/3) = 3/2 (crude branch: the
    //   Lipschitz one is 271/162 for agents 0, 1 and 35/18 for agent 2);
    //   Δ_{3,θ} = Δ_{2,θ}/2 + κ_2 (3/2 + 5/3).
    const Eigen::Vector3d d2(25.0 / 9, 25.0 / 9, 4.0);
    const Eigen::Vector3d d3 = d2 / 2 + k2 * (3.0 / 2 + 5.0 / 3);
    const Eigen::Vector3d epsC1 = epsA1;
    const Eigen::Vector3d epsC2 = epsC1 + Eigen::Vector3d::Constant(5.0 / 3 * 3) + d2 / 2;
    const Eigen::Vector3d epsC3 = epsC2 + Eigen::Vector3d::Constant(3.0 / 2 * 4) + d3 / 2;

    Paper000Accountant acc(setup, Paper000Bound::Iterated);
    EigenvectorEstimator zz(R, false);
    const Eigen::Vector3d wantA[3] = {epsA1, epsA2, epsA3};
    const Eigen::Vector3d wantC[3] = {epsC1, epsC2, epsC3};
    for (int T = 1; T <= 3; ++T) {
        acc.advance(zz.kappa());
        zz.advance();
        // The paper's ε_i(T) (Lemma 10, sum over t = 1..T) is the literal reading; DPLab's
        // convention reports ε after T iterations = the messages of iterations 0..T−1 = ε_i(T − 1).
        EXPECT_TRUE(acc.literalOf(Paper000Bound::FiniteT).isApprox(wantA[T - 1], 1e-14)) << "T = " << T;
        EXPECT_TRUE(acc.literalOf(Paper000Bound::Iterated).isApprox(wantC[T - 1], 1e-14)) << "T = " << T;
        const Eigen::Vector3d convA = T >= 2 ? wantA[T - 2] : Eigen::Vector3d::Zero();
        const Eigen::Vector3d convC = T >= 2 ? wantC[T - 2] : Eigen::Vector3d::Zero();
        EXPECT_LT((acc.epsilonFiniteT() - convA).norm(), 1e-13 * (1 + convA.norm())) << "T = " << T;
        EXPECT_LT((acc.epsilonIterated() - convC).norm(), 1e-13 * (1 + convC.norm())) << "T = " << T;
    }
    EXPECT_TRUE(acc.sensitivityS(Paper000Bound::Iterated).isApprox(Eigen::Vector3d::Constant(1.5), 1e-15));
    EXPECT_TRUE(acc.epsilon() == acc.epsilonIterated());
    EXPECT_EQ(acc.steps(), 3);
}

/** The paper's Fig. 2 privacy setting on the 5-node test digraph, breast-cancer-like constants. */
Paper000PrivacySetup presetLike(const Fixture &f)
{
    Paper000PrivacySetup s;
    s.gradientBound = 10.0;
    s.lipschitz = 8.0;
    s.dimension = 30;
    s.setWeights(f.R, f.C);
    s.stepsize = Schedule::polynomial(1.0, 1.0, 0.61);
    s.nuS = s.nuTheta = Eigen::VectorXd::Ones(5);
    s.decayS = s.decayTheta = Eigen::VectorXd::LinSpaced(5, 0.51, 0.60);
    return s;
}

TEST(Paper000Accountant, IteratedBoundSaturatesFiniteTBoundGrows)
{
    Fixture f;
    const Paper000PrivacySetup setup = presetLike(f);
    const long long T = 500000;
    Paper000Accountant acc(setup, Paper000Bound::Iterated);
    EigenvectorEstimator z(f.R);
    Eigen::VectorXd atT, previousA = Eigen::VectorXd::Zero(5), previousC = Eigen::VectorXd::Zero(5);
    Eigen::VectorXd atTA;
    for (long long t = 0; t < 2 * T; ++t) {
        acc.advance(z.kappa());
        z.advance();
        // Monotone: every term is ≥ 0.
        if (t % 997 == 0) {
            ASSERT_TRUE((acc.epsilonFiniteT().array() >= previousA.array()).all());
            ASSERT_TRUE((acc.epsilonIterated().array() >= previousC.array()).all());
            ASSERT_TRUE((acc.epsilonIterated().array() <= acc.epsilonFiniteT().array() * (1 + 1e-12)).all());
            previousA = acc.epsilonFiniteT();
            previousC = acc.epsilonIterated();
        }
        if (t + 1 == T) {
            atT = acc.epsilonIterated();
            atTA = acc.epsilonFiniteT();
        }
    }
    for (int i = 0; i < 5; ++i) {
        EXPECT_LE(acc.epsilonIterated()[i] - atT[i], 0.01 * atT[i]) << "learner " << i;
        // Option A grows like T^{1+ς−v}: doubling T multiplies it by ≈ 2^{0.9..0.99}.
        EXPECT_GE(acc.epsilonFiniteT()[i] / atTA[i], 1.8) << "learner " << i;
    }
    // The learner whose noise decays fastest (largest ς) pays the most.
    EXPECT_GT(acc.epsilonIterated()[4], acc.epsilonIterated()[0]);
}

// Claim 10 (Remark 11, negative controls): with a constant step size (v = 0), or with noise that
// decays at least as fast as the step (ς ≥ v), the iterated bound no longer saturates: what a
// doubling of the horizon adds to ε GROWS with the horizon (a divergent sum), while with the
// preset-like schedule (ς < v) it shrinks (the sum converges; previous test).
TEST(Paper000Accountant, ConstantStepOrFastNoiseDecayMakesEpsilonGrowRemark11)
{
    Fixture f;
    const long long T = 100000;
    Paper000PrivacySetup constantStep = presetLike(f);
    constantStep.stepsize = Schedule::constant(0.05);
    Paper000PrivacySetup fastNoise = presetLike(f);
    fastNoise.decayS = Eigen::VectorXd::Constant(5, 1.2); // ς = 1.2 ≥ v = 0.61: terms ∝ t^{−(1+v−ς)}
    fastNoise.decayTheta = fastNoise.decayS;
    const Paper000PrivacySetup saturating = presetLike(f);
    auto increments = [&](const Paper000PrivacySetup &setup) {
        const Eigen::VectorXd a = paper000Account(setup, f.R, T).epsilonIterated();
        const Eigen::VectorXd b = paper000Account(setup, f.R, 2 * T).epsilonIterated();
        const Eigen::VectorXd c = paper000Account(setup, f.R, 4 * T).epsilonIterated();
        return std::make_pair(Eigen::VectorXd(b - a), Eigen::VectorXd(c - b));
    };
    for (const Paper000PrivacySetup *setup : {&constantStep, &fastNoise}) {
        const auto [first, second] = increments(*setup);
        for (int i = 0; i < 5; ++i)
            EXPECT_GT(second[i], first[i]) << "learner " << i;
    }
    const auto [first, second] = increments(saturating);
    for (int i = 0; i < 5; ++i)
        EXPECT_LT(second[i], first[i]) << "learner " << i;
}

TEST(Paper000Accountant, ScalingNoiseDividesEpsilonRemark13AndCalibrationHitsTarget)
{
    Fixture f;
    Paper000PrivacySetup setup = presetLike(f);
    const Paper000Accountant base = paper000Account(setup, f.R, 2000);
    Paper000PrivacySetup scaled = setup;
    scaled.nuS *= 4.0;
    scaled.nuTheta *= 4.0;
    const Paper000Accountant quarter = paper000Account(scaled, f.R, 2000);
    EXPECT_TRUE((quarter.epsilonIterated() * 4.0).isApprox(base.epsilonIterated(), 1e-12));
    EXPECT_TRUE((quarter.epsilonFiniteT() * 4.0).isApprox(base.epsilonFiniteT(), 1e-12));

    for (Paper000Bound bound : {Paper000Bound::FiniteT, Paper000Bound::Iterated}) {
        const Eigen::VectorXd c = paper000NoiseMultipliers(setup, f.R, 2000, 5.0, bound);
        Paper000PrivacySetup calibrated = setup;
        calibrated.nuS = calibrated.nuS.cwiseProduct(c);
        calibrated.nuTheta = calibrated.nuTheta.cwiseProduct(c);
        const Paper000Accountant hit = paper000Account(calibrated, f.R, 2000, bound);
        for (int i = 0; i < 5; ++i)
            EXPECT_NEAR(hit.epsilon()[i], 5.0, 1e-10) << paper000BoundId(bound) << " learner " << i;
    }
}

// ================================ Noisy Push-Pull (eq. 6) =======================================

TEST(PushPull, NoisyTrackerAccumulatesEveryPastNoiseEq6)
{
    Fixture f;
    const int n = 5;
    auto problem = onlineLogistic(n, 300, 0.0);
    const Json privacy = {{"noise_theta", 0.5}, {"noise_y", 0.5}, {"noise_theta_decay", 0.55}, {"noise_y_decay", 0.55}};
    const Json params = {{"stepsize", {{"type", "polynomial"}, {"a", 0.5}, {"t0", 1}, {"p", 0.61}}}};
    auto algo = make("push-pull");
    ASSERT_TRUE(algo->reset(context(f, "push-pull", problem, params, privacy,
                                    Eigen::MatrixXd::Zero(n, problem->dimension())))
                    .ok());
    algo->setRecordMessages(true);
    Eigen::RowVectorXd accumulated = Eigen::RowVectorXd::Zero(problem->dimension());
    double scale = 0.0;
    for (int t = 0; t < 200; ++t) {
        algo->step();
        for (const auto &m : algo->lastMessages()) {
            if (m.channel != "y")
                continue;
            const double outWeight = 1.0 - f.C(m.sender, m.sender);
            accumulated += outWeight * m.noise.transpose();
            scale += outWeight * m.noise.lpNorm<1>();
        }
        // 1ᵀy(t+1) = 1ᵀ∇f_{t+1}(θ(t+1)) + Σ_{k≤t} 1ᵀζ_C(k)
        const Eigen::MatrixXd &y = *algo->state("y");
        const Eigen::MatrixXd &g = *algo->state("gradient");
        const Eigen::RowVectorXd lhs = y.colwise().sum();
        const Eigen::RowVectorXd rhs = g.colwise().sum() + accumulated;
        ASSERT_LE((lhs - rhs).cwiseAbs().maxCoeff(), 1e-12 * (scale + y.cwiseAbs().sum() + g.cwiseAbs().sum()))
            << "t = " << t;
    }
    EXPECT_GT(accumulated.cwiseAbs().maxCoeff(), 0.0);
}

// ================================ Online streams ================================================

/** Brute force: the average of (clipped) per-sample gradients over positions [first, K). */
Eigen::VectorXd bruteGradient(const OnlineStreamProblem &p, const Eigen::MatrixXd &A, const Eigen::VectorXd &b,
                              int agent, const Eigen::VectorXd &theta, long long first, long long K, double clip)
{
    const auto &seq = p.sequence(agent);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(p.dimension()), g(p.dimension());
    for (long long k = first; k < K; ++k) {
        const int row = seq[static_cast<std::size_t>(k % static_cast<long long>(seq.size()))];
        p.sampleLoss(theta, A.row(row).transpose(), b[row], g);
        if (clip > 0 && g.lpNorm<1>() > clip)
            g *= clip / g.lpNorm<1>();
        sum += g;
    }
    return sum / static_cast<double>(K - first);
}

TEST(OnlineStream, CumulativeGradientIsTheAverageOverEverySampleReceived)
{
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(12, 3, 4, A, b); // a small pool: sequences repeat rows
    for (SampleLoss loss : {SampleLoss::Logistic, SampleLoss::LeastSquares}) {
        for (double clip : {0.0, 0.8}) {
            StreamOptions o;
            o.loss = loss;
            o.ridge = 0.05;
            o.samplesPerIteration = 2;
            o.clipL1 = clip;
            auto seqs = OnlineStreamProblem::iidSequences(12, 3, 25, 9); // 25 < horizon: wraps
            auto p = OnlineStreamProblem::create(A, b, seqs, o);
            ASSERT_TRUE(p.ok()) << p.error().toString();
            Eigen::MatrixXd X(3, 3);
            X << 0.3, -0.2, 0.5, 1.0, 0.0, -1.0, -0.4, 0.8, 0.1;
            Eigen::MatrixXd G(3, 3);
            for (long long t : {0LL, 1LL, 5LL, 11LL, 12LL, 30LL, 7LL}) {
                (*p)->gradients(X, G, t);
                for (int i = 0; i < 3; ++i) {
                    const Eigen::VectorXd want = bruteGradient(**p, A, b, i, X.row(i).transpose(), 0,
                                                               (t + 1) * 2, clip);
                    EXPECT_TRUE(G.row(i).transpose().isApprox(want, 1e-12))
                        << sampleLossName(loss) << " clip " << clip << " t " << t << " agent " << i;
                    if (clip > 0)
                        EXPECT_LE(G.row(i).lpNorm<1>(), clip * (1 + 1e-12));
                }
            }
        }
    }
}

TEST(OnlineStream, GradientsDoNotDependOnWhatWasAskedBefore)
{
    // The multiplicities are counted incrementally per thread; a fresh instance (its own cache)
    // asked only about t must give the same bits as one walked through every earlier t, and as
    // one asked in a jumbled order (recounts).
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(12, 3, 4, A, b);
    StreamOptions o;
    o.ridge = 0.05;
    o.clipL1 = 0.8;
    o.samplesPerIteration = 2;
    const auto seqs = OnlineStreamProblem::iidSequences(12, 3, 25, 9);
    auto walked = OnlineStreamProblem::create(A, b, seqs, o);
    auto jumbled = OnlineStreamProblem::create(A, b, seqs, o);
    ASSERT_TRUE(walked.ok() && jumbled.ok());
    Eigen::MatrixXd X(3, 3);
    X << 0.3, -0.2, 0.5, 1.0, 0.0, -1.0, -0.4, 0.8, 0.1;
    Eigen::MatrixXd G(3, 3), fresh(3, 3), other(3, 3);
    const std::vector<long long> order{40, 3, 3, 17, 0, 60, 59, 2};
    for (long long t = 0; t <= 60; ++t) {
        (*walked)->gradients(X, G, t);
        auto p = OnlineStreamProblem::create(A, b, seqs, o);
        ASSERT_TRUE(p.ok());
        (*p)->gradients(X, fresh, t);
        EXPECT_EQ(G, fresh) << "t " << t;
    }
    for (long long t : order) {
        (*jumbled)->gradients(X, G, t);
        (*walked)->gradients(X, other, t);
        auto p = OnlineStreamProblem::create(A, b, seqs, o);
        (*p)->gradients(X, fresh, t);
        EXPECT_EQ(G, fresh) << "t " << t;
        EXPECT_EQ(other, fresh) << "t " << t;
    }
}

TEST(OnlineStream, CrossValuesScoreEveryDecisionOnEveryLearnersLoss)
{
    // Σ_j f_t^j(x_r) for every row r, against a scalar brute force with std::log1p, including
    // margins of ±100 where a naive log(1 + e^z) overflows or loses every digit.
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(12, 3, 4, A, b);
    for (SampleLoss loss : {SampleLoss::Logistic, SampleLoss::LeastSquares}) {
        for (StreamGradient mode : {StreamGradient::Cumulative, StreamGradient::Window}) {
            StreamOptions o;
            o.loss = loss;
            o.ridge = 0.05;
            o.samplesPerIteration = 2;
            o.gradient = mode;
            o.window = 3;
            auto p = OnlineStreamProblem::create(A, b, OnlineStreamProblem::iidSequences(12, 3, 25, 9), o);
            ASSERT_TRUE(p.ok());
            Eigen::MatrixXd X(4, 3);
            X << 0.3, -0.2, 0.5, 1.0, 0.0, -1.0, 40.0, -35.0, 30.0, -45.0, 38.0, -33.0;
            Eigen::VectorXd out(4), own(3);
            for (long long t : {0LL, 5LL, 30LL, 3LL}) {
                (*p)->crossValues(X, out, t);
                (*p)->values(X.topRows(3), own, t);
                const long long K = (t + 1) * 2;
                const long long first = mode == StreamGradient::Window ? std::max(0LL, K - 3) : 0;
                for (Eigen::Index r = 0; r < X.rows(); ++r) {
                    const Eigen::VectorXd theta = X.row(r).transpose();
                    double total = 0.0;
                    for (int j = 0; j < 3; ++j) {
                        const auto &seq = (*p)->sequence(j);
                        double sum = 0.0;
                        for (long long k = first; k < K; ++k) {
                            const int row = seq[static_cast<std::size_t>(k % static_cast<long long>(seq.size()))];
                            const double z = A.row(row).dot(theta);
                            const double l = loss == SampleLoss::Logistic
                                                 ? std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))) - b[row] * z
                                                 : 0.5 * (z - b[row]) * (z - b[row]);
                            sum += l + 0.5 * o.ridge * theta.squaredNorm();
                        }
                        const double fj = sum / static_cast<double>(K - first);
                        total += fj;
                        if (j == r)
                            EXPECT_NEAR(own[j], fj, 1e-13 * std::max(1.0, std::abs(fj)))
                                << sampleLossName(loss) << " t " << t << " learner " << j;
                    }
                    EXPECT_NEAR(out[r], total, 1e-13 * std::max(1.0, std::abs(total)))
                        << sampleLossName(loss) << " t " << t << " row " << r;
                }
            }
        }
    }
}

TEST(OnlineStream, WindowGradientAveragesTheLatestSamples)
{
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(30, 2, 6, A, b);
    StreamOptions o;
    o.samplesPerIteration = 3;
    o.gradient = StreamGradient::Window;
    for (int window : {0, 5}) {
        o.window = window;
        auto p = OnlineStreamProblem::create(A, b, OnlineStreamProblem::iidSequences(30, 2, 100, 1), o);
        ASSERT_TRUE(p.ok());
        Eigen::MatrixXd X = Eigen::MatrixXd::Constant(2, 2, 0.3), G(2, 2);
        const long long W = window > 0 ? window : 3;
        for (long long t : {0LL, 1LL, 4LL}) {
            (*p)->gradients(X, G, t);
            const long long K = (t + 1) * 3;
            for (int i = 0; i < 2; ++i)
                EXPECT_TRUE(G.row(i).transpose().isApprox(
                    bruteGradient(**p, A, b, i, X.row(i).transpose(), std::max(0LL, K - W), K, 0.0), 1e-12));
        }
    }
}

TEST(OnlineStream, GradientsMatchFiniteDifferencesOfValues)
{
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(20, 3, 8, A, b);
    Eigen::VectorXd labels3 = b;
    for (Eigen::Index k = 0; k < labels3.size(); ++k)
        labels3[k] = static_cast<double>(k % 3);
    for (SampleLoss loss : {SampleLoss::Logistic, SampleLoss::LeastSquares, SampleLoss::Softmax}) {
        StreamOptions o;
        o.loss = loss;
        o.ridge = 0.1;
        auto p = OnlineStreamProblem::create(A, loss == SampleLoss::Softmax ? labels3 : b,
                                             OnlineStreamProblem::iidSequences(20, 2, 50, 2), o);
        ASSERT_TRUE(p.ok()) << p.error().toString();
        const int d = (*p)->dimension();
        EXPECT_EQ(d, loss == SampleLoss::Softmax ? 9 : 3);
        Eigen::MatrixXd X(2, d), G(2, d);
        Rng rng(12);
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k < d; ++k)
                X(i, k) = 0.5 * rng.gaussian();
        const long long t = 6;
        (*p)->gradients(X, G, t);
        Eigen::VectorXd vp(2), vm(2);
        for (int k = 0; k < d; ++k) {
            const double h = 1e-6;
            Eigen::MatrixXd Xp = X, Xm = X;
            Xp.col(k).array() += h;
            Xm.col(k).array() -= h;
            (*p)->values(Xp, vp, t);
            (*p)->values(Xm, vm, t);
            for (int i = 0; i < 2; ++i)
                EXPECT_NEAR(G(i, k), (vp[i] - vm[i]) / (2 * h), 1e-6) << sampleLossName(loss);
        }
        // Global gradient and Hessian against finite differences too.
        const Eigen::VectorXd x = X.row(0).transpose();
        const Eigen::VectorXd g = (*p)->globalGradient(x);
        for (int k = 0; k < d; ++k) {
            Eigen::VectorXd xp = x, xm = x;
            xp[k] += 1e-6;
            xm[k] -= 1e-6;
            EXPECT_NEAR(g[k], ((*p)->globalValue(xp) - (*p)->globalValue(xm)) / 2e-6, 1e-6);
            if (auto H = (*p)->globalHessian(x))
                EXPECT_TRUE(H->col(k).isApprox(((*p)->globalGradient(xp) - (*p)->globalGradient(xm)) / 2e-6, 1e-5));
        }
    }
}

TEST(OnlineStream, FactsAndErrors)
{
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(10, 2, 3, A, b);
    StreamOptions o;
    auto seqs = OnlineStreamProblem::iidSequences(10, 2, 5, 4);
    EXPECT_EQ(seqs, OnlineStreamProblem::iidSequences(10, 2, 5, 4)); // deterministic
    EXPECT_NE(seqs[0], seqs[1]);
    auto p = OnlineStreamProblem::create(A, b, seqs, o);
    ASSERT_TRUE(p.ok());
    // Unregularised logistic: c_l = max ‖a‖_1; L = max ‖a‖²/4.
    EXPECT_DOUBLE_EQ(*(*p)->gradientL1Bound(), A.rowwise().lpNorm<1>().maxCoeff());
    EXPECT_DOUBLE_EQ((*p)->describe().at("lipschitz").get<double>(), A.rowwise().squaredNorm().maxCoeff() / 4);
    EXPECT_TRUE((*p)->accuracy(Eigen::VectorXd::Zero(2), false).has_value());
    EXPECT_FALSE((*p)->accuracy(Eigen::VectorXd::Zero(2), true).has_value());
    o.ridge = 0.1;
    EXPECT_FALSE((*OnlineStreamProblem::create(A, b, seqs, o))->gradientL1Bound().has_value());
    o.clipL1 = 3.0;
    EXPECT_DOUBLE_EQ(*(*OnlineStreamProblem::create(A, b, seqs, o))->gradientL1Bound(), 3.0);

    Eigen::VectorXd bad = b;
    bad[3] = 2.0;
    auto e = OnlineStreamProblem::create(A, bad, seqs, StreamOptions{});
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "problem.labels");
    auto e2 = OnlineStreamProblem::create(A, b, {{0, 1}, {10}}, StreamOptions{});
    ASSERT_FALSE(e2.ok());
    EXPECT_EQ(e2.error().where, "problem.sequences[1]");
}

TEST(OnlineStream, LeastSquaresClosedFormZeroesTheGlobalGradient)
{
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(25, 4, 5, A, b);
    StreamOptions o;
    o.loss = SampleLoss::LeastSquares;
    o.ridge = 0.01;
    for (StreamPopulation pop : {StreamPopulation::Pool, StreamPopulation::Sequence}) {
        o.population = pop;
        auto p = OnlineStreamProblem::create(A, b, OnlineStreamProblem::iidSequences(25, 3, 40, 6), o);
        ASSERT_TRUE(p.ok());
        auto x = (*p)->closedFormOptimum();
        ASSERT_TRUE(x.has_value());
        EXPECT_LE((*p)->globalGradient(*x).norm(), 1e-12);
    }
}

TEST(LdpGt, NoiseFreeTracksTheOnlineOptimum)
{
    // Online least squares from i.i.d. streams: θ_t* → θ* (Lemma 2) and ldp-gt follows.
    Fixture f;
    const int n = 5;
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(60, 3, 21, A, b);
    StreamOptions o;
    o.loss = SampleLoss::LeastSquares;
    o.ridge = 0.1;
    auto p = OnlineStreamProblem::create(A, b, OnlineStreamProblem::iidSequences(60, n, 4000, 8), o);
    ASSERT_TRUE(p.ok());
    const Eigen::VectorXd xstar = *(*p)->closedFormOptimum();
    auto algo = make("ldp-gt");
    const Json params = {{"stepsize", {{"type", "polynomial"}, {"a", 0.3}, {"t0", 1}, {"p", 0.61}}}};
    ASSERT_TRUE(algo->reset(context(f, "ldp-gt", *p, params, Json::object(), Eigen::MatrixXd::Zero(n, 3))).ok());
    auto distance = [&] {
        double s = 0;
        for (int i = 0; i < n; ++i)
            s += (algo->decisions().row(i).transpose() - xstar).norm();
        return s / n;
    };
    for (int t = 0; t < 200; ++t)
        algo->step();
    const double early = distance();
    for (int t = 200; t < 3000; ++t)
        algo->step();
    EXPECT_LT(distance(), 0.2 * early);
    EXPECT_LT(distance(), 0.05);
}

TEST(Paper000Fig2, ReducedLdpGtEndsBelowNoisyPushPullWhoseErrorDoesNotDecrease)
{
    // Fig. 2 at reduced size on synthetic data: 10 learners on an unbalanced strongly connected
    // digraph, C = Rᵀ, λ_t = (t+1)^(−0.61), ν^i_t = (t+1)^(−(0.5+0.01 i)), one new sample per
    // learner per iteration, ℓ2-logistic loss; both algorithms get the same noise.
    const int m = 10, N = 200, d = 8;
    const long long T = 1200;
    Fixture f;
    f.graph = Graph(m, true);
    for (int i = 0; i < m; ++i)
        f.graph.addEdge(i, (i + 1) % m);
    for (auto [from, to] : std::vector<std::pair<int, int>>{{0, 5}, {2, 7}, {4, 9}, {6, 1}, {8, 3}, {3, 0}})
        f.graph.addEdge(from, to);
    f.R = uniformRow(f.graph);
    f.C = f.R.transpose();
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    syntheticPool(N, d, 31, A, b);
    StreamOptions o;
    o.ridge = 0.01;
    auto p = OnlineStreamProblem::create(A, b, OnlineStreamProblem::iidSequences(N, m, T + 1, 2), o);
    ASSERT_TRUE(p.ok());
    // θ* of the population objective by Newton's method.
    Eigen::VectorXd xstar = Eigen::VectorXd::Zero(d);
    for (int it = 0; it < 50; ++it)
        xstar -= (*(*p)->globalHessian(xstar)).ldlt().solve((*p)->globalGradient(xstar));
    ASSERT_LE((*p)->globalGradient(xstar).norm(), 1e-12);
    Json decay = Json::array();
    for (int i = 1; i <= m; ++i)
        decay.push_back(0.5 + 0.01 * i);
    const Json privacy = {{"noise_theta", 1.0}, {"noise_y", 1.0}, {"noise_theta_decay", decay}, {"noise_y_decay", decay}};
    const Json params = {{"stepsize", {{"type", "polynomial"}, {"a", 1.0}, {"t0", 1}, {"p", 0.61}}}};
    auto distance = [&](const Algorithm &a) {
        double s = 0;
        for (int i = 0; i < m; ++i)
            s += (a.decisions().row(i).transpose() - xstar).norm();
        return s / m;
    };
    double ldpFinal = 0, ppHalf = 0, ppFinal = 0;
    const int repetitions = 3;
    for (int rep = 0; rep < repetitions; ++rep) {
        for (const std::string id : {"ldp-gt", "push-pull"}) {
            auto algo = make(id);
            ASSERT_TRUE(algo->reset(context(f, id, *p, params, privacy, Eigen::MatrixXd::Zero(m, d), 100 + rep)).ok());
            for (long long t = 0; t < T; ++t) {
                algo->step();
                if (t + 1 == T / 2 && id == "push-pull")
                    ppHalf += distance(*algo) / repetitions;
            }
            (id == "ldp-gt" ? ldpFinal : ppFinal) += distance(*algo) / repetitions;
        }
    }
    EXPECT_LT(ldpFinal, ppFinal);
    EXPECT_GE(ppFinal, ppHalf); // the accumulated noise keeps push-pull from converging
}

// ================================ online-logistic factory and the Fig. 2 preset =================

Json onlineSpec()
{
    return Json{{"type", "online-logistic"},
                {"data", {{"source", "bundled"}, {"name", "breast-cancer"}}},
                {"lambda", 0.1},
                {"test_fraction", 0},
                {"clip_l1", 100},
                {"stream_iterations", 50}};
}

TEST(OnlineLogisticFactory, ReadsTheLogisticDataObjectAndKeepsItsObjective)
{
    auto built = makeProblem(onlineSpec(), 10, "problem", "", 7);
    ASSERT_TRUE(built.ok()) << built.error().toString();
    const Problem &p = **built;
    EXPECT_EQ(p.id(), "online-logistic");
    EXPECT_TRUE(p.isOnline());
    EXPECT_EQ(p.agentCount(), 10);
    EXPECT_EQ(p.dimension(), 31); // 30 features + bias
    const Json facts = p.describe();
    EXPECT_EQ(facts.at("pool_size").get<int>(), 569);
    EXPECT_DOUBLE_EQ(facts.at("gradient_l1_bound").get<double>(), 100.0);
    // The population objective is the static logistic problem's (labels ±1 ↔ 1/0).
    Json staticSpec = onlineSpec();
    for (const char *key : {"clip_l1", "stream_iterations"})
        staticSpec.erase(key);
    staticSpec["type"] = "logistic";
    auto reference = makeProblem(staticSpec, 1, "problem", "", 7);
    ASSERT_TRUE(reference.ok()) << reference.error().toString();
    Rng rng(3);
    Eigen::VectorXd x(31);
    for (int k = 0; k < 31; ++k)
        x[k] = rng.gaussian();
    EXPECT_NEAR(p.globalValue(x), (*reference)->globalValue(x), 1e-12 * (*reference)->globalValue(x));
    EXPECT_TRUE(p.globalGradient(x).isApprox((*reference)->globalGradient(x), 1e-12));
    auto xstar = solveReference(p);
    ASSERT_TRUE(xstar.ok());
    EXPECT_LE(p.globalGradient(xstar->x).norm(), 1e-9);
    // Defaults are filled, unknown keys are named.
    auto resolved = resolveProblemSpec(onlineSpec(), 10, "problem");
    ASSERT_TRUE(resolved.ok());
    EXPECT_EQ(resolved->at("samples_per_iteration").get<int>(), 1);
    EXPECT_EQ(resolved->at("gradient").get<std::string>(), "cumulative");
    EXPECT_EQ(resolved->at("sampling").get<std::string>(), "iid");
    auto again = resolveProblemSpec(*resolved, 10, "problem"); // resolving is idempotent
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *resolved);
    Json bad = onlineSpec();
    bad["bogus"] = 1;
    auto error = makeProblem(bad, 10, "problem", "", 7);
    ASSERT_FALSE(error.ok());
    EXPECT_EQ(error.error().where, "problem.bogus");
    bad = onlineSpec();
    bad["gradient"] = "all";
    EXPECT_EQ(makeProblem(bad, 10, "problem", "", 7).error().where, "problem.gradient");
}

TEST(OnlineLogisticFactory, PartitionSamplingStreamsDisjointShares)
{
    Json spec = onlineSpec();
    spec["sampling"] = "partition";
    spec["test_fraction"] = 0.2;
    auto built = makeProblem(spec, 4, "problem", "", 7);
    ASSERT_TRUE(built.ok()) << built.error().toString();
    const auto *p = dynamic_cast<const OnlineStreamProblem *>(built->get());
    ASSERT_NE(p, nullptr);
    std::set<int> seen;
    std::size_t total = 0;
    for (int i = 0; i < 4; ++i) {
        total += p->sequence(i).size();
        seen.insert(p->sequence(i).begin(), p->sequence(i).end());
    }
    EXPECT_EQ(total, static_cast<std::size_t>(p->poolSize()));
    EXPECT_EQ(seen.size(), total);
    EXPECT_EQ(p->poolSize(), 569 - 114); // round(0.2 · 569) held out
    EXPECT_TRUE(p->accuracy(Eigen::VectorXd::Zero(31), true).has_value());
}

Json presetDocument(const std::string &name)
{
    std::ifstream in(std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets/" + name);
    EXPECT_TRUE(in.good()) << name;
    return Json::parse(in);
}

TEST(Paper000Fig2Preset, ReducedRunLdpGtEndsBelowNoisyPushPull)
{
    Json doc = presetDocument("paper000-fig2-logistic.json");
    const long long T = 400;
    doc["iterations"] = T;
    doc["repetitions"] = 3;
    doc["record_every"] = T / 2;
    doc["problem"]["stream_iterations"] = T;
    auto e = parseExperiment(doc, std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    ASSERT_EQ(e->runs.size(), 2u);
    EXPECT_EQ(e->runs[0].algorithm->id, "ldp-gt");
    EXPECT_EQ(e->runs[1].algorithm->id, "push-pull");
    EXPECT_TRUE(e->runs[0].C.isApprox(e->runs[0].R.transpose(), 1e-15)); // C = Rᵀ
    auto result = Runner({.threads = 2}).run(*e);
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const PointResult &point = result->points.at(0);
    auto meanAt = [&](int run, std::size_t k) {
        const RunResult &r = point.runs[static_cast<std::size_t>(run)];
        const auto column = static_cast<std::size_t>(
            std::find(r.metricNames.begin(), r.metricNames.end(), "distance_to_optimum") - r.metricNames.begin());
        EXPECT_LT(column, r.metricNames.size());
        double sum = 0;
        for (const auto &rep : r.repetitions)
            sum += rep.values.at(k).at(column);
        return sum / static_cast<double>(r.repetitions.size());
    };
    const RunResult &ldp = point.runs[0];
    ASSERT_EQ(ldp.repetitions[0].iterations, (std::vector<long long>{0, T / 2, T}));
    EXPECT_TRUE(ldp.warnings.empty()) << ldp.warnings.front();
    EXPECT_FALSE(ldp.accountant.empty());
    // The preset selects the iterated bound (option C); option A is kept alongside as the
    // accountant's alternative. A is never below C (C's sensitivities are the smaller of the two
    // recursions); with this preset's constants they part only after ~1e7 iterations.
    // Alternatives: option A, and option C as printed (ε_i(T) at T = iterations, one round ahead
    // of DPLab's convention).
    ASSERT_EQ(ldp.alternativeBounds.size(), 2u);
    EXPECT_NE(ldp.alternativeBounds[0], ldp.accountant);
    const RepetitionResult &first = ldp.repetitions[0];
    ASSERT_EQ(first.epsilonAlternatives.size(), first.iterations.size());
    ASSERT_EQ(first.epsilonAgents.size(), first.iterations.size());
    const double iterated = *std::max_element(first.epsilonAgents.back().begin(), first.epsilonAgents.back().end());
    EXPECT_GE(first.epsilonAlternatives.back().at(0), iterated);
    EXPECT_GT(first.epsilonAlternatives.back().at(1), iterated); // the printed index charges one more round
    EXPECT_TRUE(point.runs[1].alternativeBounds.empty());
    EXPECT_LT(meanAt(0, 2), meanAt(0, 1));  // LDP-GT keeps improving
    EXPECT_LT(meanAt(0, 2), meanAt(1, 2));  // and ends below noisy Push-Pull
    EXPECT_GE(meanAt(1, 2), meanAt(1, 1));  // whose error does not decrease over the second half
}

// Claim 9 with the Fig. 2 preset's own constants (docs/paper000-results.md §4): the accountant of
// the preset's LDP-GT run (its graph, c_l, L, d, λ_t and ν^i_t as the algorithm sets them up)
// iterated offline to T = 3.2e7 with the exact κ_i of the z recursion. Too slow for the suite
// (tens of seconds), hence disabled there; scripts/reproduce.py (claim p000-accountant) runs it
// with --gtest_also_run_disabled_tests and reads its "reproduce:" lines: per checkpoint T, the
// per-learner ε_i of option C (iterated) and of option A (finite T).
TEST(Paper000Fig2Preset, DISABLED_AccountantAtThePresetsOwnConstantsSaturatesAfterMillionsOfIterations)
{
    auto e = parseExperiment(presetDocument("paper000-fig2-logistic.json"),
                             std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    ASSERT_EQ(e->runs[0].algorithm->id, "ldp-gt");
    const RunContext ctx = makeRunContext(*e, 0, 0);
    auto algorithm = e->runs[0].algorithm->create();
    ASSERT_TRUE(algorithm->reset(ctx).ok());
    const auto *preset = dynamic_cast<const Paper000Accountant *>(algorithm->accountant());
    ASSERT_NE(preset, nullptr);
    Paper000Accountant acc(preset->setup(), Paper000Bound::Iterated);
    EigenvectorEstimator z(ctx.R);
    auto print = [](const std::string &key, const Eigen::VectorXd &v) { test::printReproduceLine(key, v); };
    const std::vector<long long> checkpoints{1000000, 2000000, 4000000, 8000000, 16000000, 32000000};
    Eigen::VectorXd previousC, previousA;
    long long t = 0;
    for (long long T : checkpoints) {
        for (; t < T; ++t) {
            acc.advance(z.kappa());
            z.advance();
        }
        print("accountant." + std::to_string(T) + ".iterated", acc.epsilonIterated());
        print("accountant." + std::to_string(T) + ".finite_t", acc.epsilonFiniteT());
        EXPECT_TRUE((acc.epsilonIterated().array() <= acc.epsilonFiniteT().array() * (1 + 1e-12)).all());
        if (T == checkpoints.back()) {
            // Option C has saturated (the last doubling adds < 1 %, the 1 % criterion of
            // IteratedBoundSaturatesFiniteTBoundGrows); option A still grows like T^{1+ς−v}.
            for (int i = 0; i < acc.setup().agents(); ++i) {
                EXPECT_LE(acc.epsilonIterated()[i] - previousC[i], 0.01 * previousC[i]) << "learner " << i;
                EXPECT_GE(acc.epsilonFiniteT()[i] / previousA[i], 1.8) << "learner " << i;
            }
        }
        previousC = acc.epsilonIterated();
        previousA = acc.epsilonFiniteT();
    }
}

} // namespace
} // namespace dplab
