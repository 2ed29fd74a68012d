// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 001: PGTC (Algorithm 1) and PPDC (Algorithm 2), their reference-point channel and the
// error-feedback memory. The compressors here are small test doubles written in this file, so the
// tests do not depend on core/compress.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/errorfeedback.h"
#include "dplab/algo/referencechannel.h"
#include "dplab/privacy/paper001accountant.h"
#include "dplab/problem/paper001problems.h"
#include "testproblems.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dplab {
namespace {

using test::RandomQuadratic;

// --- Test compressors ---------------------------------------------------------------------

/** Greedy top-k (C1), ties to the lowest index; k·(32 + ⌈log2 d⌉) bits. */
class TestTopK final : public Compressor
{
public:
    explicit TestTopK(int k) : mK(k) {}
    std::string id() const override { return "top-k"; }
    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x, Eigen::Ref<Eigen::VectorXd> out,
                           Rng &) const override
    {
        std::vector<int> idx(static_cast<std::size_t>(x.size()));
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return std::abs(x[a]) > std::abs(x[b]); });
        out.setZero();
        for (int s = 0; s < mK && s < x.size(); ++s)
            out[idx[static_cast<std::size_t>(s)]] = x[idx[static_cast<std::size_t>(s)]];
        return static_cast<std::uint64_t>(mK) * (kValueBits + static_cast<std::uint64_t>(std::ceil(std::log2(x.size()))));
    }
    double phi(int d) const override { return static_cast<double>(mK) / d; }
    double r(int) const override { return 1.0; }
    bool isRandom() const override { return false; }
    Json toJson() const override { return Json{{"type", id()}, {"k", mK}}; }

private:
    int mK;
};

/** Norm-sign (C3): ‖x‖_∞/2 · sign(x); 32 + d bits; (φ, r) = (1/d², d/2). */
class TestNormSign final : public Compressor
{
public:
    std::string id() const override { return "norm-sign"; }
    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x, Eigen::Ref<Eigen::VectorXd> out,
                           Rng &) const override
    {
        const double m = x.cwiseAbs().maxCoeff() / 2.0;
        for (Eigen::Index i = 0; i < x.size(); ++i)
            out[i] = x[i] > 0 ? m : (x[i] < 0 ? -m : 0.0);
        return kValueBits + static_cast<std::uint64_t>(x.size());
    }
    double phi(int d) const override { return 1.0 / (static_cast<double>(d) * d); }
    double r(int d) const override { return d / 2.0; }
    bool isRandom() const override { return false; }
    Json toJson() const override { return Json{{"type", id()}}; }
};

/** Biased rand-k: keeps k coordinates chosen uniformly (without replacement); uses the Rng. */
class TestRandK final : public Compressor
{
public:
    explicit TestRandK(int k) : mK(k) {}
    std::string id() const override { return "rand-k"; }
    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x, Eigen::Ref<Eigen::VectorXd> out,
                           Rng &rng) const override
    {
        std::vector<int> idx(static_cast<std::size_t>(x.size()));
        std::iota(idx.begin(), idx.end(), 0);
        for (int s = 0; s < mK; ++s) {
            const auto j = s + static_cast<int>(rng.below(static_cast<std::uint64_t>(x.size() - s)));
            std::swap(idx[static_cast<std::size_t>(s)], idx[static_cast<std::size_t>(j)]);
        }
        out.setZero();
        for (int s = 0; s < mK; ++s)
            out[idx[static_cast<std::size_t>(s)]] = x[idx[static_cast<std::size_t>(s)]];
        return static_cast<std::uint64_t>(mK) * (kValueBits + static_cast<std::uint64_t>(std::ceil(std::log2(x.size()))));
    }
    double phi(int d) const override { return static_cast<double>(mK) / d; }
    double r(int) const override { return 1.0; }
    bool isRandom() const override { return true; }
    Json toJson() const override { return Json{{"type", id()}, {"k", mK}}; }

private:
    int mK;
};

std::vector<std::shared_ptr<const Compressor>> allCompressors()
{
    return {makeCompressor(Json(), "compressor").value(), std::make_shared<TestTopK>(2), std::make_shared<TestNormSign>(),
            std::make_shared<TestRandK>(2)};
}

/** f_i = 0 for every agent (cheap at any dimension). */
class FlatProblem final : public Problem
{
public:
    FlatProblem(int n, int d) : mN(n), mD(d) {}
    std::string id() const override { return "test-flat"; }
    int agentCount() const override { return mN; }
    int dimension() const override { return mD; }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &, Eigen::Ref<Eigen::VectorXd> out, long long) const override
    {
        out.setZero();
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &, Eigen::Ref<Eigen::MatrixXd> out,
                   long long) const override
    {
        out.setZero();
    }
    Json describe() const override { return Json{{"type", id()}}; }

private:
    int mN, mD;
};

// --- Set-up ---------------------------------------------------------------------------------

/** 6 agents: ring 0-1-2-3-4-5-0 plus chords (0,3), (1,4); Metropolis weights (self-loops). */
Eigen::MatrixXd sixAgentWeights()
{
    std::vector<std::pair<int, int>> edges;
    for (int i = 0; i < 6; ++i)
        edges.push_back({i, (i + 1) % 6});
    edges.push_back({0, 3});
    edges.push_back({1, 4});
    return test::metropolis(test::adjacencyOf(6, edges, false));
}

struct Setup {
    RunContext ctx;
    std::shared_ptr<RandomQuadratic> problem;
};

Setup makeSetup(const std::string &id, Json params, Json privacy,
                std::shared_ptr<const Compressor> compressor = makeCompressor(Json(), "compressor").value(), int d = 4)
{
    const AlgorithmDescriptor *alg = findAlgorithm(id);
    EXPECT_NE(alg, nullptr) << id;
    const int n = 6;
    Setup s;
    s.problem = std::make_shared<RandomQuadratic>(n, d, 23, 1.0, 3.0);
    s.ctx.problem = s.problem;
    auto resolved = resolveParams(alg->params, params, "params", n);
    EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().toString());
    s.ctx.params = resolved.value();
    auto resolvedPrivacy = resolveParams(alg->privacyParams, privacy, "privacy", n);
    EXPECT_TRUE(resolvedPrivacy.ok()) << (resolvedPrivacy.ok() ? "" : resolvedPrivacy.error().toString());
    s.ctx.privacy = resolvedPrivacy.value();
    s.ctx.compressor = std::move(compressor);
    s.ctx.noise = {11, 0, 0};
    s.ctx.W = sixAgentWeights();
    s.ctx.x0.resize(n, d);
    Rng rng(4);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k)
            s.ctx.x0(i, k) = rng.uniform(0.0, 1.0);
    s.ctx.horizon = 100;
    return s;
}

std::unique_ptr<Algorithm> start(const Setup &s, const std::string &id, bool record = false)
{
    auto alg = findAlgorithm(id)->create();
    alg->setRecordMessages(record);
    const Status status = alg->reset(s.ctx);
    EXPECT_TRUE(status.ok()) << (status.ok() ? "" : status.error().toString());
    return alg;
}

const Json kNoNoise = Json{{"s_x", 0.0}, {"s_y", 0.0}};
const Json kNoNoisePpdc = Json{{"s_x", 0.0}, {"s_v", 0.0}};

double maxError(const Eigen::MatrixXd &x, const Eigen::VectorXd &xStar)
{
    return (x.rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
}

// --- Descriptors ----------------------------------------------------------------------------

TEST(Paper001Descriptors, DefaultsAreTableOne)
{
    const AlgorithmDescriptor *pgtc = findAlgorithm("pgtc");
    const AlgorithmDescriptor *ppdc = findAlgorithm("ppdc");
    ASSERT_NE(pgtc, nullptr);
    ASSERT_NE(ppdc, nullptr);
    const Json p = resolveParams(pgtc->params, Json(), "params").value();
    EXPECT_EQ(p["stepsize"], 0.1);
    EXPECT_EQ(p["gamma"], 0.2);
    EXPECT_EQ(p["alpha_x"], 0.5);
    EXPECT_EQ(p["alpha_y"], 0.5);
    EXPECT_EQ(p["error_feedback"], false);
    const Json q = resolveParams(ppdc->params, Json(), "params").value();
    EXPECT_EQ(q["stepsize"], 0.015);
    EXPECT_EQ(q["gamma"], 45.0);
    EXPECT_EQ(q["omega"], 5.0);
    EXPECT_EQ(q["alpha_x"], 0.2);
    const Json priv = resolveParams(pgtc->privacyParams, Json(), "privacy").value();
    EXPECT_EQ(priv["s_x"], 0.1);
    EXPECT_EQ(priv["q"], 0.2);
    // q must be in (0, 1]; error names the path.
    auto bad = resolveParams(pgtc->privacyParams, Json{{"q", 0.0}}, "runs[0].privacy");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "runs[0].privacy.q");
    EXPECT_FALSE(resolveParams(pgtc->params, Json{{"gamma", -1.0}}, "params").ok());
    for (const auto &spec : pgtc->params)
        EXPECT_FALSE(spec.help.empty()) << spec.key;
}

// --- Convergence ----------------------------------------------------------------------------

TEST(Pgtc, NoiseFreeIdentityConvergesLinearlyToTheOptimum)
{
    auto s = makeSetup("pgtc", Json{{"stepsize", 0.1}, {"gamma", 0.5}}, kNoNoise);
    auto alg = start(s, "pgtc");
    const Eigen::VectorXd xStar = s.problem->optimum();
    double at100 = 0;
    for (int k = 0; k < 1500; ++k) {
        alg->step();
        if (k == 99)
            at100 = maxError(alg->decisions(), xStar);
    }
    EXPECT_GT(at100, 1e-8); // still in the linear phase at k = 100
    EXPECT_LE(maxError(alg->decisions(), xStar), 1e-10);
    EXPECT_EQ(alg->accountant(), nullptr); // no noise, no ε
}

TEST(Pgtc, NoiseFreeCompressedConvergesToTheExactOptimum)
{
    // Reference points make the compression error vanish: the limit is x*, for each compressor
    // with α inside (0, 1/r), with and without error feedback.
    struct Case {
        std::shared_ptr<const Compressor> c;
        double alpha;
        double gamma;
        bool feedback;
    };
    const std::vector<Case> cases = {{std::make_shared<TestTopK>(2), 0.5, 0.2, false},
                                     {std::make_shared<TestTopK>(2), 0.5, 0.2, true},
                                     {std::make_shared<TestRandK>(2), 0.5, 0.2, false},
                                     {std::make_shared<TestNormSign>(), 0.2, 0.1, false}};
    for (const auto &c : cases) {
        auto s = makeSetup("pgtc",
                           Json{{"stepsize", 0.05},
                                {"gamma", c.gamma},
                                {"alpha_x", c.alpha},
                                {"alpha_y", c.alpha},
                                {"error_feedback", c.feedback}},
                           kNoNoise, c.c);
        auto alg = start(s, "pgtc");
        for (int k = 0; k < 6000; ++k)
            alg->step();
        EXPECT_LE(maxError(alg->decisions(), s.problem->optimum()), 1e-8)
            << c.c->id() << " feedback " << c.feedback;
    }
}

TEST(Ppdc, NoiseFreeIdentityConvergesLinearlyToTheOptimum)
{
    auto s = makeSetup("ppdc", Json{{"stepsize", 0.05}, {"gamma", 4.0}, {"omega", 2.0}}, kNoNoisePpdc);
    auto alg = start(s, "ppdc");
    const Eigen::VectorXd xStar = s.problem->optimum();
    double at100 = 0;
    for (int k = 0; k < 4000; ++k) {
        alg->step();
        if (k == 99)
            at100 = maxError(alg->decisions(), xStar);
    }
    EXPECT_GT(at100, 1e-8);
    EXPECT_LE(maxError(alg->decisions(), xStar), 1e-10);
}

TEST(Ppdc, NoiseFreeCompressedConvergesToTheExactOptimum)
{
    for (bool feedback : {false, true}) {
        auto s = makeSetup(
            "ppdc", Json{{"stepsize", 0.05}, {"gamma", 4.0}, {"omega", 2.0}, {"alpha_x", 0.5}, {"error_feedback", feedback}},
            kNoNoisePpdc, std::make_shared<TestTopK>(2));
        auto alg = start(s, "ppdc");
        for (int k = 0; k < 8000; ++k)
            alg->step();
        EXPECT_LE(maxError(alg->decisions(), s.problem->optimum()), 1e-8) << "feedback " << feedback;
    }
}

// --- Invariants -----------------------------------------------------------------------------

TEST(Pgtc, TrackerSumCarriesTheAccumulatedYNoiseExactly)
{
    // Eq. (26)/(51): Σ_i y_{i,k} = Σ_i ∇f_i(x_{i,k}) + Σ_i Σ_{t<k} ξ_{y_i,t}, for every compressor.
    // Also Σ_i x_{i,k+1} = Σ_i (x_{i,k} + ξ_{x_i,k}) − η Σ_i y_{i,k} (the x-noise enters once).
    for (const auto &c : allCompressors()) {
        for (bool feedback : {false, true}) {
            const double eta = 0.05;
            auto s = makeSetup("pgtc", Json{{"stepsize", eta}, {"error_feedback", feedback}},
                               Json{{"s_x", 0.5}, {"s_y", 0.5}, {"q", 0.9}}, c);
            auto alg = start(s, "pgtc");
            const int d = s.problem->dimension();
            Eigen::RowVectorXd accumulated = Eigen::RowVectorXd::Zero(d);
            Eigen::MatrixXd grad(6, d);
            for (int k = 0; k < 150; ++k) {
                const Eigen::RowVectorXd sumX = alg->decisions().colwise().sum();
                const Eigen::RowVectorXd sumY = alg->state("y")->colwise().sum();
                alg->step();
                accumulated += alg->state("noise_y")->colwise().sum();
                const Eigen::RowVectorXd expectedX =
                    sumX + alg->state("noise_x")->colwise().sum() - eta * sumY;
                s.problem->gradients(alg->decisions(), grad, k + 1);
                const Eigen::RowVectorXd expectedY = grad.colwise().sum() + accumulated;
                const Eigen::RowVectorXd gotY = alg->state("y")->colwise().sum();
                const double scaleY = std::max(1.0, grad.cwiseAbs().colwise().sum().maxCoeff());
                ASSERT_LE((gotY - expectedY).cwiseAbs().maxCoeff(), 1e-12 * scaleY)
                    << c->id() << " feedback " << feedback << " k " << k;
                const double scaleX = std::max(1.0, alg->decisions().cwiseAbs().colwise().sum().maxCoeff());
                ASSERT_LE((alg->decisions().colwise().sum() - expectedX).cwiseAbs().maxCoeff(), 1e-12 * scaleX)
                    << c->id() << " k " << k;
            }
            EXPECT_GT(accumulated.norm(), 0.1); // the noise did accumulate
        }
    }
}

TEST(Ppdc, DualSumCarriesTheAccumulatedVNoiseExactly)
{
    // (79): Σ_i v_{i,k} = Σ_i Σ_{t<k} ξ_{v_i,t}; (80) with upper limit k − 1:
    // x̄_{k+1} = x̄_k + ξ̄_{x,k} − η ḡ_k − η ω v̄_k, ḡ_k the average gradient at x_k.
    for (const auto &c : allCompressors()) {
        const double eta = 0.02, omega = 3.0;
        auto s = makeSetup("ppdc", Json{{"stepsize", eta}, {"gamma", 4.0}, {"omega", omega}, {"alpha_x", 0.2}},
                           Json{{"s_x", 0.5}, {"s_v", 0.5}, {"q", 0.9}}, c);
        auto alg = start(s, "ppdc");
        const int d = s.problem->dimension();
        Eigen::RowVectorXd accumulated = Eigen::RowVectorXd::Zero(d);
        Eigen::MatrixXd grad(6, d);
        for (int k = 0; k < 150; ++k) {
            const Eigen::RowVectorXd meanX = alg->decisions().colwise().mean();
            const Eigen::RowVectorXd meanV = alg->state("v")->colwise().mean();
            s.problem->gradients(alg->decisions(), grad, k);
            alg->step();
            accumulated += alg->state("noise_v")->colwise().sum();
            const Eigen::RowVectorXd gotV = alg->state("v")->colwise().sum();
            ASSERT_LE((gotV - accumulated).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, accumulated.norm()))
                << c->id() << " k " << k;
            const Eigen::RowVectorXd expectedX = meanX + alg->state("noise_x")->colwise().mean()
                                                 - eta * grad.colwise().mean() - eta * omega * meanV;
            ASSERT_LE((alg->decisions().colwise().mean() - expectedX).cwiseAbs().maxCoeff(),
                      1e-12 * std::max(1.0, meanX.norm()))
                << c->id() << " k " << k;
        }
        EXPECT_GT(accumulated.norm(), 0.1);
    }
}

// --- Message structure, reference points, noise kept in the state --------------------------

TEST(Pgtc, IdentityWithAlphaOneSendsExactlyTheDifferenceToTheReference)
{
    auto s = makeSetup("pgtc", Json{{"alpha_x", 1.0}, {"alpha_y", 1.0}}, Json{{"s_x", 0.3}, {"s_y", 0.2}});
    auto alg = start(s, "pgtc", true);
    for (int k = 0; k < 5; ++k) {
        const Eigen::MatrixXd x = alg->decisions();
        const Eigen::MatrixXd y = *alg->state("y");
        const Eigen::MatrixXd xc = *alg->state("x_ref");
        const Eigen::MatrixXd yc = *alg->state("y_ref");
        alg->step();
        const Eigen::MatrixXd xa = x + *alg->state("noise_x");
        const Eigen::MatrixXd ya = y + *alg->state("noise_y");
        ASSERT_EQ(alg->lastMessages().size(), 12u);
        for (const Message &m : alg->lastMessages()) {
            const Eigen::VectorXd expected = m.channel == "x" ? Eigen::VectorXd((xa - xc).row(m.sender).transpose())
                                                              : Eigen::VectorXd((ya - yc).row(m.sender).transpose());
            EXPECT_EQ((m.sent - expected).cwiseAbs().maxCoeff(), 0.0) << m.channel << " " << m.sender;
            EXPECT_EQ(m.bits, fullVectorBits(4));
        }
        // α = 1: the reference point is the reconstructed (= noisy) state.
        EXPECT_LE((*alg->state("x_ref") - xa).cwiseAbs().maxCoeff(), 1e-14);
        EXPECT_LE((*alg->state("y_ref") - ya).cwiseAbs().maxCoeff(), 1e-14);
    }
}

TEST(Pgtc, ReferencePointsFollowEquations14To17)
{
    const double alphaX = 0.5, alphaY = 0.3;
    auto compressor = std::make_shared<TestTopK>(2);
    auto s = makeSetup("pgtc", Json{{"alpha_x", alphaX}, {"alpha_y", alphaY}}, Json{{"s_x", 0.3}, {"s_y", 0.2}},
                       compressor);
    auto alg = start(s, "pgtc", true);
    Rng unused(0);
    for (int k = 0; k < 20; ++k) {
        const Eigen::MatrixXd x = alg->decisions();
        const Eigen::MatrixXd xc = *alg->state("x_ref");
        const Eigen::MatrixXd yc = *alg->state("y_ref");
        alg->step();
        const Eigen::MatrixXd xa = x + *alg->state("noise_x");
        Eigen::MatrixXd mx(6, 4), my(6, 4);
        for (const Message &m : alg->lastMessages()) {
            (m.channel == "x" ? mx : my).row(m.sender) = m.sent.transpose();
            EXPECT_EQ(m.bits, 2u * (32u + 2u)); // top-2 of d = 4
        }
        // The x message is C(x^a − x^c) (top-k is deterministic, recompute it).
        for (int i = 0; i < 6; ++i) {
            Eigen::VectorXd expected(4);
            compressor->compress((xa - xc).row(i).transpose(), expected, unused);
            EXPECT_EQ((mx.row(i).transpose() - expected).cwiseAbs().maxCoeff(), 0.0);
        }
        const Eigen::MatrixXd xHat = xc + mx, yHat = yc + my;
        EXPECT_LE((*alg->state("x_hat") - xHat).cwiseAbs().maxCoeff(), 1e-15);
        EXPECT_LE((*alg->state("x_ref") - ((1 - alphaX) * xc + alphaX * xHat)).cwiseAbs().maxCoeff(), 1e-14);
        EXPECT_LE((*alg->state("y_ref") - ((1 - alphaY) * yc + alphaY * yHat)).cwiseAbs().maxCoeff(), 1e-14);
    }
    EXPECT_EQ(alg->bitsSent(), 20u * 2u * 6u * 2u * 34u);
}

TEST(Pgtc, NoiseIsKeptInTheStateOneStepByHand)
{
    // (12)–(13) recomputed from the recorded noises and messages:
    // x⁺ = x + ξ_x + γ Σ_j w_ij (x̂_j − x̂_i) − η y,  y⁺ = y + ξ_y + γ Σ_j w_ij (ŷ_j − ŷ_i) + ∇f(x⁺) − ∇f(x).
    const double eta = 0.1, gamma = 0.2;
    auto s = makeSetup("pgtc", Json{{"stepsize", eta}, {"gamma", gamma}}, Json{{"s_x", 1.0}, {"s_y", 0.7}, {"q", 0.5}},
                       std::make_shared<TestNormSign>());
    auto alg = start(s, "pgtc", true);
    for (int k = 0; k < 3; ++k) {
        const Eigen::MatrixXd x = alg->decisions();
        const Eigen::MatrixXd y = *alg->state("y");
        const Eigen::MatrixXd xc = *alg->state("x_ref");
        const Eigen::MatrixXd yc = *alg->state("y_ref");
        alg->step();
        Eigen::MatrixXd xi(6, 4), zeta(6, 4), mx(6, 4), my(6, 4);
        for (const Message &m : alg->lastMessages()) {
            if (m.channel == "x") {
                xi.row(m.sender) = m.noise.transpose();
                mx.row(m.sender) = m.sent.transpose();
            } else {
                zeta.row(m.sender) = m.noise.transpose();
                my.row(m.sender) = m.sent.transpose();
            }
        }
        EXPECT_GT(xi.norm(), 0.0);
        const Eigen::MatrixXd xHat = xc + mx, yHat = yc + my;
        const Eigen::MatrixXd &w = s.ctx.W;
        Eigen::MatrixXd xNext(6, 4), yNext(6, 4), g0(6, 4), g1(6, 4);
        for (int i = 0; i < 6; ++i) {
            Eigen::RowVectorXd cx = Eigen::RowVectorXd::Zero(4), cy = Eigen::RowVectorXd::Zero(4);
            for (int j = 0; j < 6; ++j) {
                cx += w(i, j) * (xHat.row(j) - xHat.row(i));
                cy += w(i, j) * (yHat.row(j) - yHat.row(i));
            }
            xNext.row(i) = x.row(i) + xi.row(i) + gamma * cx - eta * y.row(i);
            yNext.row(i) = y.row(i) + zeta.row(i) + gamma * cy;
        }
        s.problem->gradients(x, g0, k);
        s.problem->gradients(xNext, g1, k + 1);
        yNext += g1 - g0;
        EXPECT_LE((alg->decisions() - xNext).cwiseAbs().maxCoeff(), 1e-13) << "k " << k;
        EXPECT_LE((*alg->state("y") - yNext).cwiseAbs().maxCoeff(), 1e-13) << "k " << k;
    }
}

TEST(Ppdc, NoiseIsKeptInTheStateOneStepByHand)
{
    // (31)–(32): x⁺ = x + ξ_x − η(γ Σ_j L_ij x̂_j + ω v + ∇f(x)),  v⁺ = v + ξ_v + η ω Σ_j L_ij x̂_j.
    const double eta = 0.015, gamma = 45, omega = 5;
    auto s = makeSetup("ppdc", Json{}, Json{{"s_x", 1.0}, {"s_v", 0.7}, {"q", 0.5}}, std::make_shared<TestTopK>(1));
    auto alg = start(s, "ppdc", true);
    // L = D − W with zero self-weights (the paper's W has w_ii = 0; ours has self-loops: same L).
    Eigen::MatrixXd w0 = s.ctx.W;
    w0.diagonal().setZero();
    const Eigen::MatrixXd lap = Eigen::MatrixXd(w0.rowwise().sum().asDiagonal()) - w0;
    for (int k = 0; k < 3; ++k) {
        const Eigen::MatrixXd x = alg->decisions();
        const Eigen::MatrixXd v = *alg->state("v");
        const Eigen::MatrixXd xc = *alg->state("x_ref");
        alg->step();
        ASSERT_EQ(alg->lastMessages().size(), 6u); // one message per agent
        Eigen::MatrixXd xi(6, 4), mx(6, 4);
        for (const Message &m : alg->lastMessages()) {
            xi.row(m.sender) = m.noise.transpose();
            mx.row(m.sender) = m.sent.transpose();
            EXPECT_NEAR(m.sent.cwiseAbs().maxCoeff(), (m.clean + m.noise).cwiseAbs().maxCoeff(), 1e-14); // top-1
        }
        const Eigen::MatrixXd xHat = xc + mx;
        Eigen::MatrixXd g(6, 4);
        s.problem->gradients(x, g, k);
        const Eigen::MatrixXd xNext = x + xi - eta * (gamma * lap * xHat + omega * v + g);
        const Eigen::MatrixXd vNext = v + *alg->state("noise_v") + eta * omega * lap * xHat;
        EXPECT_LE((alg->decisions() - xNext).cwiseAbs().maxCoeff(), 1e-12) << "k " << k;
        EXPECT_LE((*alg->state("v") - vNext).cwiseAbs().maxCoeff(), 1e-13) << "k " << k;
    }
    EXPECT_EQ(alg->bitsSent(), 3u * 6u * (32u + 2u));
}

TEST(Pgtc, IdentityAndGammaOneIsDiaDspWithTheSameNoise)
{
    // With C = identity, x̂ = x^a, and γ = 1, (12)–(13) become DiaDSP (10)–(11):
    //   x⁺ = Σ_j w_ij x^a_j − η y,   y⁺ = Σ_j w_ij y^a_j + ∇f(x⁺) − ∇f(x).
    // The reference run draws the same Laplace numbers from the same streams.
    const double eta = 0.1, sx = 0.4, sy = 0.3, q = 0.8;
    auto s = makeSetup("pgtc", Json{{"stepsize", eta}, {"gamma", 1.0}, {"alpha_x", 0.3}},
                       Json{{"s_x", sx}, {"s_y", sy}, {"q", q}});
    auto alg = start(s, "pgtc");
    const int n = 6, d = 4;
    // Block k of each agent's DecisionNoise / TrackerNoise stream (the counter-based sampler).
    std::vector<NoiseStream> rx, ry;
    for (int i = 0; i < n; ++i) {
        rx.push_back(s.ctx.noise.noiseStream(i, RngPurpose::DecisionNoise));
        ry.push_back(s.ctx.noise.noiseStream(i, RngPurpose::TrackerNoise));
    }
    Eigen::MatrixXd x = s.ctx.x0, g(n, d), gNext(n, d);
    s.problem->gradients(x, g, 0);
    Eigen::MatrixXd y = g;
    Eigen::VectorXd draw(d);
    for (int k = 0; k < 60; ++k) {
        Eigen::MatrixXd xa = x, ya = y;
        for (int i = 0; i < n; ++i) {
            rx[i].laplace(k, sx * std::pow(q, k), draw);
            xa.row(i) += draw.transpose();
        }
        for (int i = 0; i < n; ++i) {
            ry[i].laplace(k, sy * std::pow(q, k), draw);
            ya.row(i) += draw.transpose();
        }
        x = s.ctx.W * xa - eta * y;
        s.problem->gradients(x, gNext, k + 1);
        y = s.ctx.W * ya + gNext - g;
        g = gNext;
        alg->step();
        ASSERT_LE((alg->decisions() - x).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, x.cwiseAbs().maxCoeff()))
            << "k " << k;
        ASSERT_LE((*alg->state("y") - y).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, y.cwiseAbs().maxCoeff()))
            << "k " << k;
    }
}

TEST(Pgtc, IdentityAndGammaOneRunsInLockstepWithTheDiaDspAlgorithm)
{
    // The presets compare PGTC with the registry's `diadsp`; this ties the two implementations
    // together: same (10)–(11) iterates, same Laplace draws (both use the DecisionNoise and
    // TrackerNoise streams), same bits (two full-precision vectors per agent per iteration).
    const double eta = 0.1, sx = 0.4, sy = 0.3, q = 0.8;
    auto pgtc = makeSetup("pgtc", Json{{"stepsize", eta}, {"gamma", 1.0}, {"alpha_x", 1.0}, {"alpha_y", 1.0}},
                          Json{{"s_x", sx}, {"s_y", sy}, {"q", q}});
    auto dia = makeSetup("diadsp", Json{{"stepsize", eta}},
                         Json{{"noise_x", {{"type", "geometric"}, {"a", sx}, {"q", q}}},
                              {"noise_y", {{"type", "geometric"}, {"a", sy}, {"q", q}}}});
    auto a = start(pgtc, "pgtc");
    auto b = start(dia, "diadsp");
    for (int k = 0; k < 60; ++k) {
        a->step();
        b->step();
        const Eigen::MatrixXd xa = a->decisions(), xb = b->decisions();
        ASSERT_LE((xa - xb).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, xa.cwiseAbs().maxCoeff())) << "k " << k;
    }
    EXPECT_EQ(a->bitsSent(), b->bitsSent());
}

TEST(Pgtc, NoiseScaleDecaysAsSQToTheK)
{
    // E|ξ| = s q^k for Lap(s q^k): with d = 3000 coordinates per agent (18000 draws) the mean of |ξ|
    // is within 5 standard errors (σ(|ξ|) = b) of b.
    const double sx = 2.0, q = 0.5;
    const int d = 3000;
    auto s = makeSetup("pgtc", Json{{"stepsize", 1e-6}}, Json{{"s_x", sx}, {"s_y", sx}, {"q", q}});
    s.ctx.problem = std::make_shared<FlatProblem>(6, d);
    s.ctx.x0 = Eigen::MatrixXd::Zero(6, d);
    auto alg = start(s, "pgtc");
    for (int k = 0; k < 4; ++k) {
        alg->step();
        const double b = sx * std::pow(q, k);
        const double meanAbs = alg->state("noise_x")->cwiseAbs().mean();
        EXPECT_NEAR(meanAbs, b, 5.0 * b / std::sqrt(6.0 * d)) << "k " << k;
    }
}

TEST(Pgtc, SameSeedSameIteratesDifferentRepetitionDifferentNoise)
{
    auto s = makeSetup("pgtc", Json{}, Json{{"s_x", 0.5}, {"s_y", 0.5}}, std::make_shared<TestRandK>(2));
    auto a = start(s, "pgtc");
    auto b = start(s, "pgtc");
    s.ctx.noise.repetition = 1;
    auto c = start(s, "pgtc");
    for (int k = 0; k < 30; ++k) {
        a->step();
        b->step();
        c->step();
    }
    EXPECT_EQ((a->decisions() - b->decisions()).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_GT((a->decisions() - c->decisions()).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(Ppdc, BitsAreOneMessagePerAgentAndPgtcTwo)
{
    auto s = makeSetup("pgtc", Json{}, kNoNoise, std::make_shared<TestNormSign>());
    auto pgtc = start(s, "pgtc");
    auto t = makeSetup("ppdc", Json{}, kNoNoisePpdc, std::make_shared<TestNormSign>());
    auto ppdc = start(t, "ppdc");
    for (int k = 0; k < 7; ++k) {
        pgtc->step();
        ppdc->step();
    }
    EXPECT_EQ(pgtc->bitsSent(), 7u * 6u * 2u * (32u + 4u));
    EXPECT_EQ(ppdc->bitsSent(), 7u * 6u * 1u * (32u + 4u));
}

// --- Accountant and warnings ----------------------------------------------------------------

TEST(Pgtc, AccountantReportsTheoremThreeForTheIterationsRun)
{
    auto s = makeSetup("pgtc", Json{{"stepsize", 0.25}},
                       Json{{"s_x", 0.5}, {"s_y", 2.0}, {"q", 0.5}, {"gradient_bound", 2.0}});
    auto alg = start(s, "pgtc");
    ASSERT_NE(alg->accountant(), nullptr);
    EXPECT_EQ(alg->accountant()->epsilon().maxCoeff(), 0.0);
    for (int t = 0; t < 3; ++t)
        alg->step();
    // d = 4, M = 2, η = 0.25, s_x = 0.5, s_y = 2, q = 0.5: 24 · (1 + 2 + 4) after 3 iterations.
    EXPECT_DOUBLE_EQ(alg->accountant()->epsilon()[0], 168.0);
    EXPECT_EQ(alg->accountant()->epsilon().size(), 6);

    // A long horizon at q = 0.5: 2^K overflows a double near K = 1020; the run says so.
    auto longRun = makeSetup("pgtc", Json{}, Json{{"q", 0.5}, {"gradient_bound", 1.0}});
    longRun.ctx.horizon = 2000;
    auto alg2 = start(longRun, "pgtc");
    const auto w = alg2->warnings();
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string &m) { return m.find("exceeds the double range") != std::string::npos; }));

    auto p = makeSetup("ppdc", Json{{"stepsize", 0.25}, {"omega", 4.0}},
                       Json{{"s_x", 0.5}, {"s_v", 2.0}, {"q", 0.5}, {"gradient_bound", 2.0}});
    auto ppdc = start(p, "ppdc");
    for (int t = 0; t < 3; ++t)
        ppdc->step();
    EXPECT_DOUBLE_EQ(ppdc->accountant()->epsilon()[5], 70.0); // 10 · (1 + 2 + 4)
}

/** The test quadratic, stating facts M and L_f as a problem's describe() may. */
class QuadraticWithFacts final : public RandomQuadratic
{
public:
    QuadraticWithFacts() : RandomQuadratic(6, 4, 23, 1.0, 3.0) {}
    Json describe() const override { return Json{{"type", id()}, {"gradient_bound", 2.0}, {"smoothness", 1.0}}; }
};

TEST(Pgtc, GradientBoundAndSmoothnessComeFromTheProblemWhenNotSet)
{
    auto s = makeSetup("pgtc", Json{{"stepsize", 0.25}}, Json{{"s_x", 0.5}, {"s_y", 2.0}, {"q", 0.5}});
    s.ctx.problem = std::make_shared<QuadraticWithFacts>();
    auto alg = start(s, "pgtc");
    ASSERT_NE(alg->accountant(), nullptr);
    for (int t = 0; t < 3; ++t)
        alg->step();
    EXPECT_DOUBLE_EQ(alg->accountant()->epsilon()[0], 168.0); // M = 2 from the problem
    // Proposition 1 with L_f = 1 from the problem: q = 0.8, δ = 1.9 → 6.4 (paper001accountant_test).
    auto p = makeSetup("pgtc", Json{{"stepsize", 0.25}},
                       Json{{"s_x", 0.5}, {"s_y", 2.0}, {"q", 0.8}, {"bound", "proposition"}, {"delta", 1.9}});
    p.ctx.problem = std::make_shared<QuadraticWithFacts>();
    auto prop = start(p, "pgtc");
    ASSERT_NE(prop->accountant(), nullptr);
    prop->step();
    EXPECT_NEAR(prop->accountant()->epsilon()[3], 6.4, 1e-12);
    EXPECT_NE(prop->accountant()->name().find("Proposition 1"), std::string::npos);
}

TEST(Pgtc, WarningsNameTheViolatedConditions)
{
    // Norm-sign has r = d/2 = 2 for d = 4: α = 0.5 is not inside (0, 1/r) = (0, 0.5).
    auto s = makeSetup("pgtc", Json{{"gamma", 1.5}}, Json{{"s_x", 0.1}, {"s_y", 0.1}},
                       std::make_shared<TestNormSign>());
    auto alg = start(s, "pgtc");
    const auto warnings = alg->warnings();
    auto has = [&](const std::string &needle) {
        return std::any_of(warnings.begin(), warnings.end(),
                           [&](const std::string &w) { return w.find(needle) != std::string::npos; });
    };
    EXPECT_TRUE(has("α_x"));
    EXPECT_TRUE(has("γ > 1"));
    EXPECT_TRUE(has("gradient_bound")); // no M: no ε
    EXPECT_EQ(alg->accountant(), nullptr);

    auto p = makeSetup("ppdc", Json{}, Json{{"bound", "proposition"}, {"smoothness", 3.0}, {"q", 0.2}});
    auto ppdc = start(p, "ppdc");
    EXPECT_EQ(ppdc->accountant(), nullptr); // q = 0.2 below the Proposition-2 threshold
    const auto pw = ppdc->warnings();
    EXPECT_TRUE(std::any_of(pw.begin(), pw.end(), [](const std::string &w) { return w.find("Proposition 2") != std::string::npos; }));
}

// --- With DPLab's compressors and paper 001's P–L problem (38) -------------------------------

std::shared_ptr<const Compressor> compressor(const Json &spec)
{
    auto c = makeCompressor(spec, "compressor");
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().toString());
    return c.value();
}

/** (38) with 6 agents, d = 10, m_i from a fixed stream (Σ m_i = 0), x_i(0) uniform in [0, 1]^10. */
void usePlProblem(Setup &s)
{
    Rng rng(31);
    s.ctx.problem = std::make_shared<NonconvexPlProblem>(paper001PlCoefficients(6, rng), 10);
    s.ctx.x0.resize(6, 10);
    for (int i = 0; i < 6; ++i)
        for (int k = 0; k < 10; ++k)
            s.ctx.x0(i, k) = rng.uniform(0.0, 1.0);
}

struct TableRow {
    std::string algorithm;
    Json compressor;
    Json params;
};

/** Table I of paper 001 (C3's α lowered into (0, 1/r) = (0, 0.2) where Table I's 0.5 is outside). */
std::vector<TableRow> tableOne()
{
    const Json c1 = {{"type", "top-k"}, {"k", 2}}, c2 = {{"type", "dithered-quantizer"}, {"b", 2}},
               c3 = {{"type", "norm-sign"}};
    return {{"pgtc", c1, {{"stepsize", 0.1}, {"gamma", 0.2}, {"alpha_x", 0.5}, {"alpha_y", 0.5}}},
            {"pgtc", c2, {{"stepsize", 0.1}, {"gamma", 0.2}, {"alpha_x", 0.5}, {"alpha_y", 0.5}}},
            {"pgtc", c3, {{"stepsize", 0.15}, {"gamma", 0.1}, {"alpha_x", 0.15}, {"alpha_y", 0.15}}},
            {"ppdc", c1, {{"stepsize", 0.015}, {"gamma", 45}, {"omega", 5}, {"alpha_x", 0.2}}},
            {"ppdc", c2, {{"stepsize", 0.01}, {"gamma", 45}, {"omega", 5}, {"alpha_x", 0.2}}},
            {"ppdc", c3, {{"stepsize", 0.01}, {"gamma", 25}, {"omega", 5}, {"alpha_x", 0.15}}}};
}

TEST(Paper001, NoiseFreeRunsConvergeLinearlyToZeroOnThePlProblem)
{
    for (const auto &row : tableOne()) {
        auto s = makeSetup(row.algorithm, row.params, row.algorithm == "pgtc" ? kNoNoise : kNoNoisePpdc,
                           compressor(row.compressor));
        usePlProblem(s);
        auto alg = start(s, row.algorithm);
        std::vector<double> error;
        for (int k = 1; k <= 4000; ++k) {
            alg->step();
            if (k % 1000 == 0)
                error.push_back(alg->decisions().cwiseAbs().maxCoeff());
        }
        // Linear: the error shrinks by a steady factor every 1000 iterations (observed: 1/300 for
        // PGTC-C1, 1/2.8 for PGTC-C3), towards x* = 0, not to a neighbourhood.
        const std::string what = row.algorithm + " " + row.compressor.dump();
        for (int j = 0; j + 1 < 4; ++j)
            EXPECT_LT(error[j + 1], 0.5 * error[j]) << what << " block " << j;
        const double early = error[1] / error[0], late = error[3] / error[2];
        EXPECT_LT(late, 3.0 * early) << what;
        EXPECT_GT(late, early / 3.0) << what;
        EXPECT_LT(error[3], 1e-2) << what;
    }
}

TEST(Paper001, InvariantsHoldForDplabCompressors)
{
    const std::vector<Json> specs = {{{"type", "top-k"}, {"k", 2}},
                                     {{"type", "rand-k"}, {"k", 3}},
                                     {{"type", "dithered-quantizer"}, {"b", 2}},
                                     {{"type", "qsgd"}, {"s", 3}},
                                     {{"type", "norm-sign"}},
                                     {{"type", "sign"}}};
    for (const auto &spec : specs) {
        for (const std::string id : {"pgtc", "ppdc"}) {
            const Json privacy = id == "pgtc" ? Json{{"s_x", 0.5}, {"s_y", 0.5}, {"q", 0.8}}
                                              : Json{{"s_x", 0.5}, {"s_v", 0.5}, {"q", 0.8}};
            const Json params = id == "pgtc" ? Json{{"stepsize", 0.05}, {"alpha_x", 0.1}, {"alpha_y", 0.1}}
                                             : Json{{"stepsize", 0.01}, {"alpha_x", 0.1}};
            auto s = makeSetup(id, params, privacy, compressor(spec));
            usePlProblem(s);
            auto alg = start(s, id);
            Eigen::RowVectorXd accumulated = Eigen::RowVectorXd::Zero(10);
            Eigen::MatrixXd grad(6, 10);
            for (int k = 0; k < 100; ++k) {
                alg->step();
                if (id == "pgtc") {
                    accumulated += alg->state("noise_y")->colwise().sum();
                    s.ctx.problem->gradients(alg->decisions(), grad, k + 1);
                    const Eigen::RowVectorXd expected = grad.colwise().sum() + accumulated;
                    const double scale = std::max(1.0, grad.cwiseAbs().colwise().sum().maxCoeff());
                    ASSERT_LE((alg->state("y")->colwise().sum() - expected).cwiseAbs().maxCoeff(), 1e-10 * scale)
                        << spec.dump() << " k " << k;
                } else {
                    accumulated += alg->state("noise_v")->colwise().sum();
                    ASSERT_LE((alg->state("v")->colwise().sum() - accumulated).cwiseAbs().maxCoeff(),
                              1e-10 * std::max(1.0, accumulated.norm()))
                        << spec.dump() << " k " << k;
                }
            }
            EXPECT_GT(alg->bitsSent(), 0u);
        }
    }
}

// --- Error feedback -------------------------------------------------------------------------

TEST(ErrorFeedback, MessagesPlusResidualTelescopeToTheInputs)
{
    // Σ_t m_t + e_T = Σ_t v_t exactly in exact arithmetic (e_{t+1} = v_t + e_t − m_t, e_0 = 0).
    TestTopK top(1);
    ErrorFeedback ef(2, 5);
    Rng rng(3), draws(8);
    Eigen::VectorXd sumV = Eigen::VectorXd::Zero(5), sumM = Eigen::VectorXd::Zero(5), v(5), m(5);
    for (int t = 0; t < 50; ++t) {
        for (int c = 0; c < 5; ++c)
            v[c] = draws.gaussian();
        const auto bits = ef.compress(top, 1, v, m, rng);
        EXPECT_EQ(bits, 32u + 3u);
        EXPECT_EQ((m.array() != 0).count(), 1);
        sumV += v;
        sumM += m;
    }
    EXPECT_LE((sumM + ef.memory().row(1).transpose() - sumV).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_EQ(ef.memory().row(0).cwiseAbs().maxCoeff(), 0.0); // agent 0 untouched
    ef.clear();
    EXPECT_EQ(ef.memory().cwiseAbs().maxCoeff(), 0.0);
}

TEST(ErrorFeedback, ChannelAddsTheResidualBeforeCompression)
{
    auto top = std::make_shared<TestTopK>(1);
    ReferenceChannel plain("x", 1, 3, top, 0.5, false);
    ReferenceChannel fed("x", 1, 3, top, 0.5, true);
    std::vector<Rng> rng{Rng(1)};
    Eigen::MatrixXd a(1, 3);
    a << 3.0, 2.0, 1.0;
    plain.send(a, rng);
    fed.send(a, rng);
    // Round 1: same message (3, 0, 0); the fed channel keeps e = (0, 2, 1).
    EXPECT_EQ(fed.messages(), plain.messages());
    EXPECT_EQ(fed.residuals()(0, 1), 2.0);
    EXPECT_EQ(fed.residuals()(0, 2), 1.0);
    // Round 2 with a = (3, 2, 1) again: c = (1.5, 0, 0), difference (1.5, 2, 1);
    // plain sends (0, 2, 0); fed compresses (1.5, 4, 2) → (0, 4, 0), e = (1.5, 0, 2).
    plain.send(a, rng);
    fed.send(a, rng);
    EXPECT_EQ(plain.messages()(0, 1), 2.0);
    EXPECT_EQ(fed.messages()(0, 1), 4.0);
    EXPECT_EQ(fed.residuals()(0, 0), 1.5);
    EXPECT_EQ(fed.residuals()(0, 2), 2.0);
}

} // namespace
} // namespace dplab
