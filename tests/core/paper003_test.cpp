// SPDX-License-Identifier: GPL-3.0-or-later
//
// Paper 003 (Xuan & Wang): robust-dp-gt (Algorithm 1), its accountant (Theorem 2, Corollary 3)
// and the baselines dpop and diadsp with their observation-sensitivity accountants.
#include "dplab/algo/algorithm.h"
#include "dplab/privacy/diadspaccountant.h"
#include "dplab/privacy/dpopaccountant.h"
#include "dplab/privacy/paper003accountant.h"
#include "dplab/privacy/rng.h"
#include "dplab/problem/objectives.h"
#include "dplab/problem/paper003problems.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace dplab {
namespace {

// f_i(x) = (c_i/2) ‖x − a_i‖²: μ = min c_i, L = max c_i, x* = Σ c_i a_i / Σ c_i.
class DistanceProblem final : public Problem
{
public:
    DistanceProblem(Eigen::VectorXd c, Eigen::MatrixXd a) : mC(std::move(c)), mA(std::move(a)) {}

    std::string id() const override { return "test-distance"; }
    int agentCount() const override { return static_cast<int>(mA.rows()); }
    int dimension() const override { return static_cast<int>(mA.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long) const override
    {
        out = 0.5 * mC.cwiseProduct((X - mA).rowwise().squaredNorm());
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long) const override
    {
        out = mC.asDiagonal() * (X - mA);
    }
    double globalValue(const Eigen::VectorXd &x) const override
    {
        return 0.5 * (mC.cwiseProduct((mA.rowwise() - x.transpose()).rowwise().squaredNorm())).mean();
    }
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override
    {
        return (mC.asDiagonal() * (mA.rowwise() - x.transpose())).colwise().mean().transpose() * -1.0;
    }
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &) const override
    {
        return Eigen::MatrixXd::Identity(dimension(), dimension()) * mC.mean();
    }
    std::optional<Eigen::VectorXd> closedFormOptimum() const override
    {
        return (mA.transpose() * mC) / mC.sum();
    }
    std::optional<double> accuracy(const Eigen::VectorXd &, bool) const override { return std::nullopt; }
    Json describe() const override { return {{"type", id()}}; }

    Eigen::VectorXd optimum() const { return *closedFormOptimum(); }

private:
    Eigen::VectorXd mC;
    Eigen::MatrixXd mA;
};

// Metropolis weights on a 4-ring: degree 2 everywhere, w_ij = 1/3, w_ii = 1/3.
Eigen::MatrixXd ringMetropolis4()
{
    Eigen::MatrixXd w = Eigen::MatrixXd::Zero(4, 4);
    for (int i = 0; i < 4; ++i) {
        w(i, (i + 1) % 4) = w((i + 1) % 4, i) = 1.0 / 3.0;
        w(i, i) = 1.0 / 3.0;
    }
    return w;
}

// Metropolis weights on the path 0-1-2-3: w_ij = 1/(1 + max(deg)) = 1/3 on the edges,
// w_00 = w_33 = 2/3, w_11 = w_22 = 1/3. Self-weights differ, so ε_i differ.
Eigen::MatrixXd pathMetropolis4()
{
    Eigen::MatrixXd w = Eigen::MatrixXd::Zero(4, 4);
    for (int i = 0; i < 3; ++i)
        w(i, i + 1) = w(i + 1, i) = 1.0 / 3.0;
    for (int i = 0; i < 4; ++i)
        w(i, i) = 1.0 - (w.row(i).sum() - w(i, i));
    return w;
}

std::shared_ptr<DistanceProblem> testProblem()
{
    Eigen::VectorXd c(4);
    c << 1.0, 2.0, 3.0, 4.0;
    Eigen::MatrixXd a(4, 2);
    a << 1.0, 2.0, -1.0, 0.5, 3.0, -2.0, 0.0, 1.0;
    return std::make_shared<DistanceProblem>(c, a);
}

Graph graphOf(const Eigen::MatrixXd &w)
{
    Graph g(static_cast<int>(w.rows()), false);
    for (int i = 0; i < w.rows(); ++i)
        for (int j = i + 1; j < w.cols(); ++j)
            if (w(i, j) > 0)
                g.addEdge(i, j);
    return g;
}

struct RunSetup {
    std::string algorithm;
    Eigen::MatrixXd W;
    std::shared_ptr<const Problem> problem;
    Json params = Json::object();
    Json privacy = Json::object();
    long long horizon = 1000;
    std::uint64_t seed = 1;
    std::uint64_t repetition = 0;
};

std::unique_ptr<Algorithm> start(const RunSetup &s)
{
    const AlgorithmDescriptor *d = findAlgorithm(s.algorithm);
    EXPECT_NE(d, nullptr) << s.algorithm;
    RunContext ctx;
    ctx.graph = graphOf(s.W);
    ctx.W = s.W;
    ctx.problem = s.problem;
    auto params = resolveParams(d->params, s.params, "params");
    EXPECT_TRUE(params.ok()) << (params.ok() ? "" : params.error().message);
    auto privacy = resolveParams(d->privacyParams, s.privacy, "privacy");
    EXPECT_TRUE(privacy.ok()) << (privacy.ok() ? "" : privacy.error().message);
    ctx.params = *params;
    ctx.privacy = *privacy;
    ctx.compressor = makeCompressor(Json(), "compressor").value();
    ctx.noise = {s.seed, 0, s.repetition};
    ctx.x0 = Eigen::MatrixXd::Zero(s.problem->agentCount(), s.problem->dimension());
    for (int i = 0; i < ctx.x0.rows(); ++i)
        for (int j = 0; j < ctx.x0.cols(); ++j)
            ctx.x0(i, j) = 0.5 * i - 0.3 * j + 1.0; // a fixed, non-consensual start
    ctx.horizon = s.horizon;
    auto algo = d->create();
    const Status st = algo->reset(ctx);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
    return algo;
}

double maxDistance(const Eigen::MatrixXd &x, const Eigen::VectorXd &xStar)
{
    return (x.rowwise() - xStar.transpose()).rowwise().norm().maxCoeff();
}

double squaredError(const Eigen::MatrixXd &x, const Eigen::VectorXd &xStar)
{
    return (x.rowwise() - xStar.transpose()).squaredNorm();
}

bool containsText(const std::vector<std::string> &lines, const std::string &text)
{
    for (const auto &l : lines)
        if (l.find(text) != std::string::npos)
            return true;
    return false;
}

Json polynomial(double a, double t0, double p)
{
    return {{"type", "polynomial"}, {"a", a}, {"t0", t0}, {"p", p}};
}

Json geometric(double a, double q)
{
    return {{"type", "geometric"}, {"a", a}, {"q", q}};
}

// ---------------------------------------------------------------------------------------------
// Registry

TEST(Paper003Registry, AlgorithmsAreRegisteredWithReferences)
{
    for (const char *id : {"robust-dp-gt", "dpop", "diadsp"}) {
        const AlgorithmDescriptor *d = findAlgorithm(id);
        ASSERT_NE(d, nullptr) << id;
        EXPECT_FALSE(d->reference.empty()) << id;
        EXPECT_FALSE(d->explanation.empty()) << id;
        EXPECT_EQ(d->graphKind, GraphKind::Undirected) << id;
        EXPECT_EQ(d->weights, WeightNeeds::Doubly) << id;
    }
    EXPECT_NE(findAlgorithm("dpop")->reference.find("UNVERIFIED"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// robust-dp-gt

TEST(RobustDpGt, NoiseFreeConstantStepConvergesLinearlyToOptimum)
{
    auto problem = testProblem();
    RunSetup s{"robust-dp-gt", ringMetropolis4(), problem};
    s.params = {{"alpha", 0.05}, {"gamma", 1.0}};
    auto algo = start(s);
    const Eigen::VectorXd xStar = problem->optimum();
    std::vector<double> errors; // at k = 0, 20, 40, ..., 200
    errors.push_back(maxDistance(algo->decisions(), xStar));
    for (int k = 1; k <= 2000; ++k) {
        algo->step();
        if (k % 20 == 0 && k <= 200)
            errors.push_back(maxDistance(algo->decisions(), xStar));
    }
    EXPECT_LE(maxDistance(algo->decisions(), xStar), 1e-10);
    // Linear: every block of 20 steps shrinks the error by the same factor (≈ 0.067 here).
    for (std::size_t b = 2; b < errors.size(); ++b) {
        const double ratio = errors[b] / errors[b - 1];
        EXPECT_LT(ratio, 0.1) << b;
        if (b >= 3)
            EXPECT_NEAR(ratio, errors[b - 1] / errors[b - 2], 0.01) << b;
    }
    EXPECT_EQ(algo->accountant(), nullptr); // no noise, no ε
    EXPECT_EQ(algo->bitsSent(), 2000u * 2u * 4u * 2u * 32u);
}

// Σ_i (s_{i,k+1} − s_{i,k}) = γ_k Σ_i ∇f_i(x_{i,k}) + β_k Σ_i (1 − w_ii) η_{i,k}  (eq. 6): with a
// column-stochastic W every broadcast s_j + β_k η_j reaches the others with total weight 1 − w_jj.
TEST(RobustDpGt, TrackingIdentityHoldsToMachinePrecisionWithNoise)
{
    auto problem = testProblem();
    const Eigen::MatrixXd w = pathMetropolis4();
    RunSetup s{"robust-dp-gt", w, problem};
    s.params = {{"alpha", 0.06}, {"gamma", polynomial(2.0, 1.0, 1.1)}};
    s.privacy = {{"noise_s", 0.7}, {"noise_x", 0.4}, {"beta", polynomial(1.0, 1.0, 0.05)}};
    s.seed = 17;
    auto algo = start(s);
    algo->setRecordMessages(true);
    const int n = 4, d = 2;
    // The noise must be β_k × one Lap(b_η) vector per agent and iteration: block k of its
    // TrackerNoise stream (the counter-based sampler).
    std::vector<NoiseStream> streams;
    for (int i = 0; i < n; ++i)
        streams.push_back(NoiseStream::stream(17, 0, 0, i, RngPurpose::TrackerNoise));
    Eigen::VectorXd draw(d);

    Eigen::VectorXd cumulative = algo->state("s")->colwise().sum().transpose(); // Σ_i s_{i,0} = 0
    double cumulativeScale = 0.0;
    for (int k = 0; k < 300; ++k) {
        const Eigen::MatrixXd sOld = *algo->state("s");
        algo->step();
        const Eigen::MatrixXd &sNew = *algo->state("s");
        const Eigen::MatrixXd &grad = *algo->state("gradient");
        const Eigen::MatrixXd &noise = *algo->state("noise_s");
        const double gamma = 2.0 / std::pow(k + 1.0, 1.1);
        const double beta = 1.0 / std::pow(k + 1.0, 0.05);

        for (int i = 0; i < n; ++i) {
            streams[static_cast<std::size_t>(i)].laplace(static_cast<std::uint64_t>(k), 0.7, draw);
            for (int j = 0; j < d; ++j) {
                const double expected = beta * draw[j];
                ASSERT_NEAR(noise(i, j), expected, 1e-15 * (1 + std::abs(expected))) << k;
            }
        }

        const Eigen::VectorXd lhs = (sNew - sOld).colwise().sum().transpose();
        Eigen::VectorXd rhs = gamma * grad.colwise().sum().transpose();
        double scale = sNew.cwiseAbs().sum() + sOld.cwiseAbs().sum() + gamma * grad.cwiseAbs().sum();
        for (int i = 0; i < n; ++i) {
            rhs += (1.0 - w(i, i)) * noise.row(i).transpose();
            scale += noise.row(i).cwiseAbs().sum();
        }
        ASSERT_LE((lhs - rhs).cwiseAbs().maxCoeff(), 1e-12 * scale) << "iteration " << k;

        // The cumulative form: Σ_i s_{i,K} = Σ_{k<K} (γ_k Σ ∇f_i + β_k Σ (1 − w_ii) η_i).
        cumulative += rhs;
        cumulativeScale += scale;
        const Eigen::VectorXd total = sNew.colwise().sum().transpose();
        ASSERT_LE((total - cumulative).cwiseAbs().maxCoeff(), 1e-12 * cumulativeScale) << k;

        // The recorded s-messages carry exactly this noise.
        int sMessages = 0;
        for (const Message &m : algo->lastMessages()) {
            if (m.channel != "s")
                continue;
            ++sMessages;
            ASSERT_TRUE(m.noise.isApprox(noise.row(m.sender).transpose(), 0.0));
            ASSERT_TRUE(m.sent.isApprox(m.clean + m.noise, 0.0));
        }
        ASSERT_EQ(sMessages, n);
    }
}

// One noisy value per sender and channel: every receiver mixes the same sent_j (checked by
// recomputing each receiver's update from the recorded messages).
TEST(RobustDpGt, NoiseIsDrawnOncePerMessageAndOwnTermsAreExact)
{
    auto problem = testProblem();
    const Eigen::MatrixXd w = ringMetropolis4();
    RunSetup s{"robust-dp-gt", w, problem};
    s.params = {{"alpha", 0.1}, {"gamma", 1.0}};
    s.privacy = {{"noise_s", 1.0}, {"noise_x", 1.0}};
    auto algo = start(s);
    algo->setRecordMessages(true);
    for (int k = 0; k < 5; ++k) {
        const Eigen::MatrixXd sOld = *algo->state("s");
        const Eigen::MatrixXd xOld = algo->decisions();
        algo->step();
        Eigen::MatrixXd sentS(4, 2), sentX(4, 2);
        int count[2] = {0, 0};
        for (const Message &m : algo->lastMessages()) {
            ASSERT_GT(m.noise.norm(), 0.0);
            (m.channel == "s" ? sentS : sentX).row(m.sender) = m.sent.transpose();
            ++count[m.channel == "s" ? 0 : 1];
            EXPECT_EQ(m.bits, 2u * 32u);
        }
        ASSERT_EQ(count[0], 4);
        ASSERT_EQ(count[1], 4);
        Eigen::MatrixXd grad(4, 2);
        problem->gradients(xOld, grad, k);
        for (int i = 0; i < 4; ++i) {
            Eigen::RowVectorXd sNew = w(i, i) * sOld.row(i) + grad.row(i);
            Eigen::RowVectorXd xNew = w(i, i) * xOld.row(i);
            for (int j = 0; j < 4; ++j)
                if (j != i) {
                    sNew += w(i, j) * sentS.row(j);
                    xNew += w(i, j) * sentX.row(j);
                }
            xNew -= 0.1 * (sNew - sOld.row(i));
            EXPECT_LE((sNew - algo->state("s")->row(i)).norm(), 1e-13);
            EXPECT_LE((xNew - algo->decisions().row(i)).norm(), 1e-13);
        }
    }
}

// With γ_k ≡ 1 and β_k = 1/(1+k) (p = 0, q = 1: Theorem 1 case 1) the error decays like
// (m+k)^{−2q}; with β_k ≡ 1 it stalls at a noise floor. Means over 6 fixed seeds.
TEST(RobustDpGt, DecayingNoiseFactorDrivesTheErrorDown)
{
    auto problem = testProblem();
    const Eigen::VectorXd xStar = problem->optimum();
    double early = 0, late = 0, constantLate = 0;
    for (std::uint64_t rep = 0; rep < 6; ++rep) {
        RunSetup s{"robust-dp-gt", ringMetropolis4(), problem};
        s.params = {{"alpha", 0.05}, {"gamma", 1.0}};
        s.privacy = {{"noise_s", 0.5}, {"noise_x", 0.5}, {"beta", polynomial(1.0, 1.0, 1.0)}};
        s.repetition = rep;
        auto decaying = start(s);
        s.privacy["beta"] = 1.0;
        auto constant = start(s);
        for (int k = 0; k < 2000; ++k) {
            decaying->step();
            constant->step();
            if (k + 1 == 200)
                early += squaredError(decaying->decisions(), xStar);
        }
        late += squaredError(decaying->decisions(), xStar);
        constantLate += squaredError(constant->decisions(), xStar);
    }
    // Theory: a factor ≈ (2000/200)² = 100 between k = 200 and k = 2000.
    EXPECT_LT(late, early / 20);
    EXPECT_LT(late, constantLate / 100);
}

TEST(RobustDpGt, SameSeedSameRunOtherRepetitionOtherNoise)
{
    auto problem = testProblem();
    RunSetup s{"robust-dp-gt", ringMetropolis4(), problem};
    s.privacy = {{"noise_s", 1.0}, {"noise_x", 1.0}};
    auto a = start(s), b = start(s);
    s.repetition = 1;
    auto c = start(s);
    for (int k = 0; k < 50; ++k) {
        a->step();
        b->step();
        c->step();
    }
    EXPECT_EQ(a->decisions(), b->decisions());
    EXPECT_NE(a->decisions(), c->decisions());
}

TEST(RobustDpGt, ClippingBoundsEveryGradient)
{
    auto problem = testProblem();
    RunSetup s{"robust-dp-gt", ringMetropolis4(), problem};
    s.privacy = {{"noise_s", 1.0}, {"noise_x", 1.0}, {"gradient_bound", 0.5}, {"clip", true}};
    auto algo = start(s);
    for (int k = 0; k < 20; ++k) {
        algo->step();
        EXPECT_LE(algo->state("gradient")->rowwise().norm().maxCoeff(), 0.5 + 1e-12);
    }
    EXPECT_TRUE(algo->warnings().empty());
}

TEST(RobustDpGt, WarnsWhereTheoremConditionsFail)
{
    auto problem = testProblem();
    // The Fig. 1 schedule p = 1.1, q = 0.05 is in no case of Theorem 1.
    RunSetup s{"robust-dp-gt", ringMetropolis4(), problem};
    s.params = {{"alpha", 0.06}, {"gamma", polynomial(2.0, 1.0, 1.1)}};
    s.privacy = {{"beta", polynomial(1.0, 1.0, 0.05)}};
    EXPECT_TRUE(containsText(start(s)->warnings(), "No case of Theorem 1"));
    // p = 0.5, q = 1 is case 2, which needs αγ > min{2q − p, 2p}/μ = 1.
    s.params = {{"alpha", 0.1}, {"gamma", polynomial(1.0, 1.0, 0.5)}, {"mu", 1.0}, {"lipschitz", 4.0}};
    s.privacy = {{"beta", polynomial(1.0, 1.0, 1.0)}};
    EXPECT_TRUE(containsText(start(s)->warnings(), "Theorem 1 case 2"));
    // Constant γ = β = 1 with a large α: Theorem 3's bound 1/(μ+L) = 0.2 fails.
    s.params = {{"alpha", 0.45}, {"gamma", 1.0}, {"mu", 1.0}, {"lipschitz", 4.0}};
    s.privacy = Json::object();
    const auto w3 = start(s)->warnings();
    EXPECT_TRUE(containsText(w3, "Theorem 3"));
    EXPECT_TRUE(containsText(w3, "1/(μ+L)"));
    EXPECT_TRUE(containsText(w3, "Lemma 1"));
    // Without μ, L nothing step-size related is checked.
    s.params = {{"alpha", 0.3}, {"gamma", 1.0}};
    EXPECT_TRUE(start(s)->warnings().empty());
    // w_ii = 0 breaks Assumption 4.
    Eigen::MatrixXd noSelf = Eigen::MatrixXd::Zero(4, 4);
    for (int i = 0; i < 4; ++i)
        noSelf(i, (i + 1) % 4) = noSelf((i + 1) % 4, i) = 0.5;
    s.W = noSelf;
    EXPECT_TRUE(containsText(start(s)->warnings(), "Assumption 4"));
    // A gradient above the claimed C without clipping voids the guarantee.
    s.W = ringMetropolis4();
    s.privacy = {{"noise_s", 1.0}, {"noise_x", 1.0}, {"gradient_bound", 0.1}};
    EXPECT_TRUE(containsText(start(s)->warnings(), "Assumption 2")); // already at x_0
    s.privacy["gradient_bound"] = 1e3;
    EXPECT_FALSE(containsText(start(s)->warnings(), "Assumption 2"));
    s.privacy["clip"] = true;
    s.privacy["gradient_bound"] = 0.1;
    EXPECT_FALSE(containsText(start(s)->warnings(), "Assumption 2"));
}

TEST(RobustDpGt, AccountantFollowsTheoremTwoPerAgent)
{
    auto problem = testProblem();
    const Eigen::MatrixXd w = pathMetropolis4();
    RunSetup s{"robust-dp-gt", w, problem};
    s.params = {{"alpha", 0.06}, {"gamma", polynomial(2.0, 1.0, 1.1)}};
    s.privacy = {{"noise_s", 2.0}, {"noise_x", 3.0}, {"beta", polynomial(1.0, 1.0, 0.05)},
                 {"gradient_bound", 5.0}};
    auto algo = start(s);
    ASSERT_NE(algo->accountant(), nullptr);
    Paper003PrivacySetup setup;
    setup.alpha = 0.06;
    setup.gamma = Schedule::polynomial(2.0, 1.0, 1.1);
    setup.beta = Schedule::polynomial(1.0, 1.0, 0.05);
    setup.noiseS = 2.0;
    setup.noiseX = 3.0;
    setup.sensitivity = 2.0 * std::sqrt(2.0) * 5.0;
    for (int T = 1; T <= 40; ++T) {
        algo->step();
        const Eigen::VectorXd &eps = algo->accountant()->epsilon();
        for (int i = 0; i < 4; ++i) // after T iterations: rounds 0..T−1, i.e. (18) with K = T − 1
            ASSERT_NEAR(eps[i], paper003Epsilon(w(i, i), setup, T - 1), 1e-12 * (1 + eps[i]));
    }
    const Eigen::VectorXd &eps = algo->accountant()->epsilon();
    EXPECT_GT(eps[0], eps[1]); // w_00 = 2/3 > w_11 = 1/3
    EXPECT_DOUBLE_EQ(eps[0], eps[3]);
    EXPECT_DOUBLE_EQ(eps[1], eps[2]);
}

TEST(RobustDpGt, CalibratedNoiseHitsTheTargetEpsilon)
{
    auto problem = testProblem();
    RunSetup s{"robust-dp-gt", pathMetropolis4(), problem};
    s.params = {{"alpha", 0.1}, {"gamma", 1.0}};
    s.privacy = {{"beta", polynomial(1.0, 1.0, 0.8)}, {"epsilon", 7.5}, {"gradient_bound", 3.0}};
    s.horizon = 120;
    auto algo = start(s);
    for (int k = 0; k < 120; ++k)
        algo->step();
    EXPECT_NEAR(algo->accountant()->epsilon().maxCoeff(), 7.5, 7.5e-9);
}

// ---------------------------------------------------------------------------------------------
// The paper-003 accountant

// Direct O(K²) evaluation of (18), written out from (19) independently of the library.
double directEpsilon(double w, double alpha, const Schedule &gamma, const Schedule &beta,
                     double bEta, double bXi, double D, long long K)
{
    double total = 0;
    for (long long k = 1; k <= K; ++k) {
        double sSum = 0, xSum = 0;
        for (long long t = 0; t < k; ++t) {
            sSum += std::pow(w, double(k - 1 - t)) * gamma.at(t);
            const double c = t == k - 1 ? -1.0
                                        : std::pow(w, double(k - 2 - t)) * ((k - t - 1) - (k - t) * w);
            xSum += std::abs(c) * gamma.at(t);
        }
        total += D * (sSum / (beta.at(k) * bEta) + alpha * xSum / (beta.at(k) * bXi));
    }
    return total;
}

TEST(Paper003Accountant, HandComputedFirstThreeRounds)
{
    // w = 0.7, α = 0.2, γ_0..2 = 1, 0.5, 0.25 (geometric 1·0.5^t), β_k = 0.9^k, b_η = 2, b_ξ = 4,
    // r = 3, C = 1.5 → D = 2√3·1.5.
    const double w = 0.7, alpha = 0.2, bEta = 2, bXi = 4;
    const double D = 2 * std::sqrt(3.0) * 1.5;
    const double g0 = 1, g1 = 0.5, g2 = 0.25;
    Paper003PrivacySetup setup;
    setup.alpha = alpha;
    setup.gamma = Schedule::geometric(1.0, 0.5);
    setup.beta = Schedule::geometric(1.0, 0.9);
    setup.noiseS = bEta;
    setup.noiseX = bXi;
    setup.sensitivity = gradientSensitivity(3, 1.5);
    EXPECT_DOUBLE_EQ(setup.sensitivity, D);
    // k = 1: S = γ0, X = |c_{1,0}| γ0 = γ0.
    const double e1 = D * (g0 / (0.9 * bEta) + alpha * g0 / (0.9 * bXi));
    // k = 2: S = wγ0 + γ1, X = |1 − 2w| γ0 + γ1 (c_{2,0} = 1 − 2w = −0.4).
    const double e2 = D * ((w * g0 + g1) / (0.81 * bEta) + alpha * (0.4 * g0 + g1) / (0.81 * bXi));
    // k = 3: S = w²γ0 + wγ1 + γ2, X = |w(2 − 3w)| γ0 + |1 − 2w| γ1 + γ2 (c_{3,0} = −0.07).
    const double e3 = D * ((w * w * g0 + w * g1 + g2) / (0.729 * bEta)
                           + alpha * (0.07 * g0 + 0.4 * g1 + g2) / (0.729 * bXi));
    EXPECT_DOUBLE_EQ(paper003Epsilon(w, setup, 0), 0.0);
    EXPECT_NEAR(paper003Epsilon(w, setup, 1), e1, 1e-13 * e1);
    EXPECT_NEAR(paper003Epsilon(w, setup, 2), e1 + e2, 1e-13 * e2);
    EXPECT_NEAR(paper003Epsilon(w, setup, 3), e1 + e2 + e3, 1e-13 * e3);

    // The per-iteration accountant: after T iterations, K = T − 1.
    Eigen::VectorXd weights(2);
    weights << w, w;
    Paper003Accountant acc(weights, setup);
    const double expected[4] = {0, e1, e1 + e2, e1 + e2 + e3};
    for (int T = 1; T <= 4; ++T) {
        acc.advance();
        EXPECT_NEAR(acc.epsilon()[0], expected[T - 1], 1e-13 * (1 + expected[T - 1]));
        EXPECT_EQ(acc.epsilon()[0], acc.epsilon()[1]);
    }
}

TEST(Paper003Accountant, HandComputedTwoAgentNetwork)
{
    // Two agents, W = [[0.8, 0.2], [0.2, 0.8]]: w_ii = 0.8 for both; constant γ = β = 1,
    // α = 0.5, b = 1, D = 1. k = 1: 1 + 0.5·1; k = 2: (0.8 + 1) + 0.5(|1 − 1.6| + 1).
    Paper003PrivacySetup setup;
    setup.alpha = 0.5;
    setup.noiseS = setup.noiseX = 1.0;
    setup.sensitivity = 1.0;
    Eigen::VectorXd weights(2);
    weights << 0.8, 0.8;
    const double e1 = 1.0 + 0.5, e2 = 1.8 + 0.5 * 1.6;
    EXPECT_NEAR(paper003NetworkEpsilon(weights, setup, 2), e1 + e2, 1e-14);
}

TEST(Paper003Accountant, ReproducesTheSpecReferenceValues)
{
    // The paper's worked example: w_ii = 0.5, r = 2, C = 1, b_η = b_ξ = 1 (values rounded as printed there).
    Paper003PrivacySetup fig1;
    fig1.alpha = 0.06;
    fig1.gamma = Schedule::polynomial(2.0, 1.0, 1.1);
    fig1.beta = Schedule::polynomial(1.0, 1.0, 0.05);
    fig1.noiseS = fig1.noiseX = 1.0;
    fig1.sensitivity = gradientSensitivity(2, 1.0);
    EXPECT_NEAR(paper003Epsilon(0.5, fig1, 1), 6.2077, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig1, 2), 12.1512, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig1, 10), 33.2858, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig1, 100), 57.4205, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig1, 500), 72.2035, 5e-5);
    Paper003PrivacySetup fig2 = fig1;
    fig2.alpha = 0.1;
    fig2.gamma = Schedule::constant(1.0);
    fig2.beta = Schedule::polynomial(1.0, 1.0, 0.8);
    EXPECT_NEAR(paper003Epsilon(0.5, fig2, 1), 5.4170, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig2, 2), 16.3154, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig2, 10), 256.7012, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.5, fig2, 100), 14112.38, 5e-3);
    EXPECT_NEAR(paper003Epsilon(0.5, fig2, 500), 250692.6, 5e-2);
    Paper003PrivacySetup third = fig1;
    third.alpha = 0.01;
    third.gamma = Schedule::constant(1.0);
    third.beta = Schedule::constant(1.0);
    EXPECT_NEAR(paper003Epsilon(0.7, third, 10), 73.4257, 5e-5);
    EXPECT_NEAR(paper003Epsilon(0.7, third, 500), 4733.279, 5e-4);
}

TEST(Paper003Accountant, FastRecursionMatchesTheDirectDoubleSum)
{
    Paper003PrivacySetup setup;
    setup.alpha = 0.3;
    setup.gamma = Schedule::polynomial(1.5, 2.0, 0.7);
    setup.beta = Schedule::polynomial(1.0, 2.0, 0.4);
    setup.noiseS = 0.8;
    setup.noiseX = 1.7;
    setup.sensitivity = 2.5;
    for (double w : {0.0, 0.05, 0.3, 0.5, 0.75, 0.9, 0.97}) {
        const double fast = paper003Epsilon(w, setup, 300);
        const double direct = directEpsilon(w, 0.3, setup.gamma, setup.beta, 0.8, 1.7, 2.5, 300);
        EXPECT_NEAR(fast, direct, 1e-11 * direct) << "w = " << w;
        // The per-iteration accountant agrees too.
        Eigen::VectorXd weights(1);
        weights << w;
        Paper003Accountant acc(weights, setup);
        for (int T = 0; T < 301; ++T)
            acc.advance();
        EXPECT_NEAR(acc.epsilon()[0], direct, 1e-11 * direct) << "w = " << w;
    }
}

TEST(Paper003Accountant, LargerSelfWeightGivesLargerEpsilon)
{
    Paper003PrivacySetup setup;
    setup.alpha = 0.1;
    setup.gamma = Schedule::polynomial(2.0, 1.0, 1.1);
    setup.beta = Schedule::polynomial(1.0, 1.0, 0.05);
    setup.noiseS = setup.noiseX = 1.0;
    setup.sensitivity = 1.0;
    double previous = 0.0;
    for (double w = 0.05; w < 0.99; w += 0.05) {
        const double e = paper003Epsilon(w, setup, 200);
        EXPECT_GT(e, previous) << "w = " << w;
        previous = e;
    }
    Eigen::VectorXd weights(3);
    weights << 0.2, 0.6, 0.4;
    EXPECT_DOUBLE_EQ(paper003NetworkEpsilon(weights, setup, 50), paper003Epsilon(0.6, setup, 50));
}

TEST(Paper003Accountant, ConstantScheduleGrowsWithoutBound)
{
    Paper003PrivacySetup setup;
    setup.alpha = 0.05;
    setup.noiseS = setup.noiseX = 1.0;
    setup.sensitivity = 1.0;
    // γ = β = 1: the per-round cost tends to 1/(1 − w) + α·(Σ_j |c_j|) > 0, so ε(K) ~ K.
    const double e1000 = paper003Epsilon(0.5, setup, 1000);
    const double e2000 = paper003Epsilon(0.5, setup, 2000);
    EXPECT_GT(e2000, 1.99 * e1000);
    EXPECT_GT(e1000, 1000 * 2.0); // per round ≥ S_∞ = 1/(1 − 0.5) = 2 once k is large
}

TEST(Paper003Accountant, CorollaryThreeBoundsTheInfiniteHorizon)
{
    // m = 2, p = 5, q = 2 (p − q = 3 > 2), w = 0.5, α = 0.05, b = 1, r = 2, C = 1.
    const double D = gradientSensitivity(2, 1.0);
    Paper003PrivacySetup setup;
    setup.alpha = 0.05;
    setup.gamma = Schedule::polynomial(1.0, 2.0, 5.0);
    setup.beta = Schedule::polynomial(1.0, 2.0, 2.0);
    setup.noiseS = setup.noiseX = 1.0;
    setup.sensitivity = D;
    const double e2000 = paper003Epsilon(0.5, setup, 2000);
    const double e4000 = paper003Epsilon(0.5, setup, 4000);
    EXPECT_LT(e4000 - e2000, 1e-6 * e2000); // converged: bounded as K → ∞
    EXPECT_NEAR(e4000, 4.6127, 1e-4);       // the limit of the sum (18) at these constants (≈ 4.61)

    // (23) corrected by hand: P_5(0.5) = 1 + 26/2 + 66/4 + 26/8 + 1/16 = 33.8125,
    // Σ_{k≥3} k^−3 = ζ(3) − 1 − 1/8, Σ_{k≥3} k^−2 = π²/6 − 1 − 1/4.
    const double apery = 1.2020569031595942853997; // ζ(3)
    const double z3 = apery - 1.125;
    const double z2 = std::numbers::pi * std::numbers::pi / 6 - 1.25;
    const double prefactor = D * 1.0 * 33.8125 / (std::pow(2.0, 5) * std::pow(0.5, 6));
    const double corrected = prefactor * (z3 / 0.25 + 0.05 * z2 / 0.125);
    const double printed = prefactor * (z3 + 0.05 * z2 / 0.125);
    auto c = paper003InfiniteHorizonEpsilon(0.5, 0.05, 1.0, 2, 5.0, 2.0, 1.0, 1.0, D);
    auto pr = paper003InfiniteHorizonEpsilon(0.5, 0.05, 1.0, 2, 5.0, 2.0, 1.0, 1.0, D, true);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(pr.ok());
    EXPECT_NEAR(*c, corrected, 1e-10 * corrected);
    EXPECT_NEAR(*pr, printed, 1e-10 * printed);
    EXPECT_NEAR(*c, 89.2, 0.05);   // the values worked out by hand above, rounded
    EXPECT_NEAR(*pr, 44.95, 0.01); // (corrected and as printed)
    EXPECT_GT(*c, e4000);          // an upper bound, loose
    // Outside the corollary: p − q ≤ 2, or m not a positive integer.
    EXPECT_FALSE(paper003InfiniteHorizonEpsilon(0.5, 0.05, 1.0, 2, 1.1, 0.05, 1, 1, D).ok());
    EXPECT_FALSE(paper003InfiniteHorizonEpsilon(0.5, 0.05, 1.0, 0, 5.0, 2.0, 1, 1, D).ok());
}

TEST(Paper003Accountant, EulerianPolynomialAndStaircaseSeries)
{
    EXPECT_DOUBLE_EQ(eulerianPolynomial(0, 0.3), 1.0);
    EXPECT_DOUBLE_EQ(eulerianPolynomial(1, 0.3), 1.0);
    EXPECT_DOUBLE_EQ(eulerianPolynomial(2, 0.3), 1.3);
    EXPECT_DOUBLE_EQ(eulerianPolynomial(3, 0.5), 1 + 4 * 0.5 + 0.25);
    EXPECT_DOUBLE_EQ(eulerianPolynomial(4, 2.0), 1 + 22 + 44 + 8);
    EXPECT_DOUBLE_EQ(eulerianPolynomial(5, 1.0), 120.0); // Σ_j ⟨n, j⟩ = n!
    for (int n = 1; n <= 6; ++n)
        for (double w : {0.2, 0.5, 0.8}) {
            double series = 0;
            for (int t = 1; t < 4000; ++t)
                series += std::pow(double(t), n) * std::pow(w, t);
            EXPECT_NEAR(series, w * eulerianPolynomial(n, w) / std::pow(1 - w, n + 1), 1e-9 * series);
        }
}

TEST(Paper003Accountant, ZetaTailMatchesDirectSums)
{
    EXPECT_NEAR(zetaTail(2.0, 0), std::numbers::pi * std::numbers::pi / 6, 1e-13);
    double direct = 0;
    for (long long k = 1000000; k >= 4; --k)
        direct += std::pow(double(k), -3.5);
    direct += 0.0; // the tail beyond 1e6 is ≈ 1e6^{−2.5}/2.5 ≈ 4e-16
    EXPECT_NEAR(zetaTail(3.5, 3), direct, 1e-13);
}

TEST(Paper003Accountant, CalibrationHitsTheTarget)
{
    Paper003PrivacySetup setup;
    setup.alpha = 0.06;
    setup.gamma = Schedule::polynomial(2.0, 1.0, 1.1);
    setup.beta = Schedule::polynomial(1.0, 1.0, 0.05);
    setup.noiseS = 1.0;
    setup.noiseX = 2.0; // b_ξ = 2 b_η
    setup.sensitivity = gradientSensitivity(2, 4.0);
    Eigen::VectorXd weights(3);
    weights << 0.5, 0.3, 0.6;
    for (double target : {0.5, 3.0, 100.0}) {
        const double c = paper003CalibrationFactor(weights, setup, 499, target);
        Paper003PrivacySetup scaled = setup;
        scaled.noiseS *= c;
        scaled.noiseX *= c;
        EXPECT_NEAR(paper003NetworkEpsilon(weights, scaled, 499), target, 1e-9 * target);
    }
}

// ---------------------------------------------------------------------------------------------
// DPOP and DiaDSP accountants

TEST(DpopAccountant, GeometricSumByHand)
{
    // ε(K) = Σ_{k=1}^{K} D c q^{k−1} / (M p^k) = (D c / (M p)) (1 − (q/p)^K) / (1 − q/p).
    const double D = 2.0, c = 0.3, q = 0.9, M = 1.5, p = 0.95;
    DpopPrivacySetup setup{Schedule::geometric(c, q), Schedule::geometric(M, p), D};
    for (long long K : {1LL, 2LL, 3LL, 50LL}) {
        const double hand = D * c / (M * p) * (1 - std::pow(q / p, double(K))) / (1 - q / p);
        EXPECT_NEAR(roundSumEpsilon(setup, K), hand, 1e-12 * hand) << K;
    }
    EXPECT_NEAR(roundSumEpsilon(setup, 3000), D * c / (M * (p - q)), 1e-9);
    EXPECT_DOUBLE_EQ(roundSumEpsilon(setup, 0), 0.0);
    const double f = roundSumCalibrationFactor(setup, 200, 4.0);
    DpopPrivacySetup scaled{setup.stepsize, Schedule::geometric(M * f, p), D};
    EXPECT_NEAR(roundSumEpsilon(scaled, 200), 4.0, 4e-9);
    DpopAccountant acc(3, setup);
    acc.advance(); // round 0: nothing
    EXPECT_EQ(acc.epsilon()[2], 0.0);
    acc.advance();
    EXPECT_NEAR(acc.epsilon()[2], D * c / (M * p), 1e-14);
}

TEST(DiaDspAccountant, FirstRoundsByHand)
{
    // Δy_0 = D, Δy_k = 2D; Δx_0 = 0, Δx_1 = ηD, Δx_k = 2ηD; scales s q^k.
    const double D = 1.5, eta = 0.1, sx = 0.5, sy = 0.8, q = 0.9;
    DiaDspPrivacySetup setup{Schedule::constant(eta), Schedule::geometric(sx, q),
                             Schedule::geometric(sy, q), D};
    const double e0 = D / sy;
    const double e1 = eta * D / (sx * q) + 2 * D / (sy * q);
    const double e2 = 2 * eta * D / (sx * q * q) + 2 * D / (sy * q * q);
    EXPECT_NEAR(roundSumEpsilon(setup, 0), e0, 1e-14);
    EXPECT_NEAR(roundSumEpsilon(setup, 1), e0 + e1, 1e-13);
    EXPECT_NEAR(roundSumEpsilon(setup, 2), e0 + e1 + e2, 1e-13);
    // Geometric noise: ε grows like q^{−K}.
    EXPECT_GT(roundSumEpsilon(setup, 200), 1e8);
    const double f = roundSumCalibrationFactor(setup, 60, 25.0);
    DiaDspPrivacySetup scaled{setup.stepsize, Schedule::geometric(sx * f, q),
                              Schedule::geometric(sy * f, q), D};
    EXPECT_NEAR(roundSumEpsilon(scaled, 60), 25.0, 25e-9);
    DiaDspAccountant acc(2, setup);
    acc.advance();
    EXPECT_NEAR(acc.epsilon()[0], e0, 1e-14);
}

// All three algorithms calibrated to the same ε at the same horizon report that ε.
TEST(EqualEpsilon, AllThreeAlgorithmsCalibrateToTheSameBudget)
{
    auto problem = testProblem();
    const long long T = 150;
    const double target = 12.0;
    RunSetup gt{"robust-dp-gt", ringMetropolis4(), problem};
    gt.params = {{"alpha", 0.06}, {"gamma", polynomial(2.0, 1.0, 1.1)}};
    gt.privacy = {{"beta", polynomial(1.0, 1.0, 0.05)}, {"epsilon", target}, {"gradient_bound", 10.0}};
    RunSetup dpop{"dpop", ringMetropolis4(), problem};
    dpop.params = {{"stepsize", geometric(0.2, 0.97)}};
    dpop.privacy = {{"noise_x", geometric(1.0, 0.99)}, {"epsilon", target}, {"gradient_bound", 10.0}};
    RunSetup dia{"diadsp", ringMetropolis4(), problem};
    dia.params = {{"stepsize", 0.1}};
    dia.privacy = {{"noise_x", geometric(1.0, 0.99)}, {"noise_y", geometric(1.0, 0.99)},
                   {"epsilon", target}, {"gradient_bound", 10.0}};
    for (RunSetup *s : {&gt, &dpop, &dia}) {
        s->horizon = T;
        auto algo = start(*s);
        for (long long k = 0; k < T; ++k)
            algo->step();
        ASSERT_NE(algo->accountant(), nullptr) << s->algorithm;
        EXPECT_NEAR(algo->accountant()->epsilon().maxCoeff(), target, 1e-9 * target) << s->algorithm;
    }
}

// ---------------------------------------------------------------------------------------------
// DiaDSP and DPOP dynamics

TEST(DiaDsp, NoiseFreeConvergesToTheOptimum)
{
    auto problem = testProblem();
    RunSetup s{"diadsp", ringMetropolis4(), problem};
    s.params = {{"stepsize", 0.05}};
    auto algo = start(s);
    for (int k = 0; k < 3000; ++k)
        algo->step();
    EXPECT_LE(maxDistance(algo->decisions(), problem->optimum()), 1e-10);
    // Tracking: Σ y_i = Σ ∇f_i(x_i) without noise.
    const Eigen::VectorXd sumY = algo->state("y")->colwise().sum();
    const Eigen::VectorXd sumG = algo->state("gradient")->colwise().sum();
    EXPECT_LE((sumY - sumG).norm(), 1e-12);
    EXPECT_EQ(algo->accountant(), nullptr);
}

TEST(DiaDsp, NoiseAccumulatesInTheTrackerAndOwnTermIsNoisy)
{
    auto problem = testProblem();
    const Eigen::MatrixXd w = ringMetropolis4();
    RunSetup s{"diadsp", w, problem};
    s.params = {{"stepsize", 0.05}};
    s.privacy = {{"noise_x", 0.3}, {"noise_y", 0.2}};
    auto algo = start(s);
    algo->setRecordMessages(true);
    Eigen::VectorXd injected = Eigen::VectorXd::Zero(2);
    for (int k = 0; k < 30; ++k) {
        const Eigen::MatrixXd yOld = *algo->state("y");
        algo->step();
        Eigen::MatrixXd sentX(4, 2), sentY(4, 2);
        for (const Message &m : algo->lastMessages()) {
            (m.channel == "x" ? sentX : sentY).row(m.sender) = m.sent.transpose();
            if (m.channel == "y")
                injected += m.noise;
        }
        // x⁺ = W x^a − η y: the agent's own term is its noisy broadcast value too.
        const Eigen::MatrixXd expectX = w * sentX - 0.05 * yOld;
        EXPECT_LE((expectX - algo->decisions()).cwiseAbs().maxCoeff(), 1e-13);
        // 1ᵀy(k) = 1ᵀ∇f(x(k)) + Σ_{t<k} 1ᵀξ_y(t).
        const Eigen::VectorXd sumY = algo->state("y")->colwise().sum();
        const Eigen::VectorXd sumG = algo->state("gradient")->colwise().sum();
        EXPECT_LE((sumY - sumG - injected).cwiseAbs().maxCoeff(), 1e-12);
    }
}

TEST(Dpop, NoiseFreeSharedMinimiserIsReachedExactly)
{
    Eigen::VectorXd c(4);
    c << 2.0, 2.0, 2.0, 2.0; // the rendezvous f_i = ‖x − a‖² with a common a
    Eigen::MatrixXd a(4, 2);
    a.rowwise() = Eigen::RowVector2d(1.5, -0.5);
    auto problem = std::make_shared<DistanceProblem>(c, a);
    RunSetup s{"dpop", ringMetropolis4(), problem};
    s.params = {{"stepsize", 0.2}};
    auto algo = start(s);
    for (int k = 0; k < 200; ++k)
        algo->step();
    EXPECT_LE(maxDistance(algo->decisions(), problem->optimum()), 1e-12);
}

TEST(Dpop, NoiseFreeConstantStepHasAnOrderStepBias)
{
    // Heterogeneous minimisers: the fixed point of x ← W x − γ ∇f(W x) is O(γ) from x*.
    auto problem = testProblem();
    const Eigen::VectorXd xStar = problem->optimum();
    double bias[2];
    int idx = 0;
    for (double gamma : {0.04, 0.02}) {
        RunSetup s{"dpop", ringMetropolis4(), problem};
        s.params = {{"stepsize", gamma}};
        auto algo = start(s);
        for (int k = 0; k < 4000; ++k)
            algo->step();
        const Eigen::MatrixXd x = algo->decisions();
        algo->step();
        EXPECT_LE((algo->decisions() - x).cwiseAbs().maxCoeff(), 1e-12); // at a fixed point
        bias[idx++] = maxDistance(x, xStar);
    }
    EXPECT_GT(bias[0], 1e-3);
    EXPECT_NEAR(bias[1] / bias[0], 0.5, 0.1); // halving γ halves the bias
}

TEST(Dpop, ProjectionKeepsIteratesInTheBoxAndOwnTermIsNoisy)
{
    auto problem = testProblem();
    const Eigen::MatrixXd w = ringMetropolis4();
    RunSetup s{"dpop", w, problem};
    s.params = {{"stepsize", geometric(0.3, 0.98)}, {"project", true}, {"box_low", -1.0}, {"box_high", 1.0}};
    s.privacy = {{"noise_x", geometric(2.0, 0.99)}};
    auto algo = start(s);
    algo->setRecordMessages(true);
    for (int k = 0; k < 20; ++k) {
        algo->step();
        EXPECT_LE(algo->decisions().cwiseAbs().maxCoeff(), 1.0);
        Eigen::MatrixXd sent(4, 2);
        for (const Message &m : algo->lastMessages())
            sent.row(m.sender) = m.sent.transpose();
        EXPECT_LE((w * sent - *algo->state("v")).cwiseAbs().maxCoeff(), 1e-14);
    }
    // q = 0.98 ≥ p = 0.99? No: q < p, so no schedule warning; and no accountant without C.
    EXPECT_FALSE(containsText(algo->warnings(), "Huang"));
    s.params["stepsize"] = geometric(0.3, 0.995);
    EXPECT_TRUE(containsText(start(s)->warnings(), "Huang"));
}

// ---------------------------------------------------------------------------------------------
// The paper's problems

template <class P>
void expectGradientsMatchFiniteDifferences(const P &problem, const Eigen::MatrixXd &X)
{
    Eigen::MatrixXd grad(X.rows(), X.cols());
    problem.gradients(X, grad);
    const double h = 1e-6;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
        Eigen::MatrixXd plus = X, minus = X;
        plus.col(j).array() += h;
        minus.col(j).array() -= h;
        Eigen::VectorXd fp(X.rows()), fm(X.rows());
        problem.values(plus, fp);
        problem.values(minus, fm);
        const Eigen::VectorXd fd = (fp - fm) / (2 * h);
        EXPECT_LE((fd - grad.col(j)).cwiseAbs().maxCoeff(), 1e-5 * (1 + grad.cwiseAbs().maxCoeff()));
    }
}

TEST(Paper003Problems, RendezvousIsTheSquaredDistance)
{
    Eigen::MatrixXd a(3, 2);
    a << 0, 0, 2, 0, 1, 3;
    RendezvousProblem problem(a);
    Eigen::MatrixXd X(3, 2);
    X << 1, 1, -1, 2, 0.5, 0.5;
    Eigen::VectorXd f(3);
    problem.values(X, f);
    EXPECT_DOUBLE_EQ(f[0], 2.0);  // ‖(1,1)‖²
    EXPECT_DOUBLE_EQ(f[1], 13.0); // ‖(−3,2)‖²
    expectGradientsMatchFiniteDifferences(problem, X);
    const Eigen::VectorXd xStar = *problem.closedFormOptimum();
    EXPECT_NEAR(xStar[0], 1.0, 1e-15);
    EXPECT_NEAR(xStar[1], 1.0, 1e-15);
    EXPECT_LE(problem.globalGradient(xStar).norm(), 1e-14);
}

TEST(Paper003Problems, RidgeDataOptimumZeroesTheGradient)
{
    Rng rng(5);
    const SingleSampleRidgeProblem problem = paper003RidgeData(4, 6, 0.3, 25.0, rng);
    Eigen::MatrixXd X = Eigen::MatrixXd::Random(4, 6);
    expectGradientsMatchFiniteDifferences(problem, X);
    const Eigen::VectorXd xStar = *problem.closedFormOptimum();
    EXPECT_LE(problem.globalGradient(xStar).norm(), 1e-10 * (1 + xStar.norm()));
    const Json facts = problem.describe();
    EXPECT_EQ(facts["truth"].size(), 4u);
    // The data lie in the paper's ranges.
    for (const auto &row : facts["features"])
        for (const auto &u : row)
            EXPECT_LE(std::abs(u.get<double>()), 1.0);
    for (const auto &row : facts["truth"])
        for (const auto &t : row) {
            EXPECT_GE(t.get<double>(), 0.0);
            EXPECT_LE(t.get<double>(), 10.0);
        }
    // Without noise ζ the printed optimum (Σ u uᵀ x̃ in place of Σ u v) is the exact one.
    Rng quiet(5);
    const SingleSampleRidgeProblem exact = paper003RidgeData(4, 6, 0.3, 0.0, quiet);
    const Json f0 = exact.describe();
    for (int j = 0; j < 6; ++j)
        EXPECT_NEAR(f0["printed_optimum"][j].get<double>(), f0["optimum"][j].get<double>(), 1e-10);
    EXPECT_DOUBLE_EQ(problem.localStrongConvexity(), 0.6);
}

TEST(Paper003Problems, RobustDpGtSolvesTheRidgeProblemNoiseFree)
{
    Rng rng(9);
    auto problem = std::make_shared<SingleSampleRidgeProblem>(paper003RidgeData(4, 3, 0.5, 25.0, rng));
    // W(r, d) of eq. (37) with r = 0.3, d = 1/3.
    const double r = 0.3, dd = 1.0 / 3.0;
    Eigen::MatrixXd w(4, 4);
    w << 1 - r, r * dd, 0, r * (1 - dd), r * dd, 1 - r, r * (1 - dd), 0, 0, r * (1 - dd), 1 - r,
        r * dd, r * (1 - dd), 0, r * dd, 1 - r;
    RunSetup s{"robust-dp-gt", w, problem};
    s.params = {{"alpha", 0.01}, {"gamma", 1.0}};
    auto algo = start(s);
    for (int k = 0; k < 6000; ++k)
        algo->step();
    EXPECT_LE(maxDistance(algo->decisions(), *problem->closedFormOptimum()), 1e-8);
}

TEST(Paper003Problems, FactoryBuildsBothAndNamesBadInput)
{
    // Rendezvous: random points in the box, reproducible from the seed; resolving twice is stable.
    const Json spec = {{"type", "rendezvous"}, {"low", 0}, {"high", 1}};
    auto resolved = resolveProblemSpec(spec, 5, "problem");
    ASSERT_TRUE(resolved.ok()) << resolved.error().toString();
    auto again = resolveProblemSpec(*resolved, 5, "problem");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *resolved);
    auto a = makeProblem(spec, 5, "problem", "", 7);
    auto b = makeProblem(spec, 5, "problem", "", 7);
    ASSERT_TRUE(a.ok()) << a.error().toString();
    EXPECT_EQ((*a)->describe()["points"], (*b)->describe()["points"]);
    EXPECT_EQ((*a)->dimension(), 2);
    const Json facts = (*a)->describe(); // a named copy: iterating a temporary's member dangles
    for (const auto &p : facts["points"])
        for (const auto &v : p) {
            EXPECT_GE(v.get<double>(), 0.0);
            EXPECT_LE(v.get<double>(), 1.0);
        }
    // Shared point: x* = a.
    auto shared = makeProblem({{"type", "rendezvous"}, {"points", {{1, 2}, {3, 4}}}, {"shared", true}},
                              2, "problem", "", 1);
    ASSERT_TRUE(shared.ok()) << shared.error().toString();
    EXPECT_EQ(*(*shared)->closedFormOptimum(), Eigen::Vector2d(1, 2));
    // Errors name the field.
    auto badPoints = makeProblem({{"type", "rendezvous"}, {"points", {{1, 2}}}}, 2, "problem", "", 1);
    ASSERT_FALSE(badPoints.ok());
    EXPECT_EQ(badPoints.error().where, "problem.points");
    auto badBox = makeProblem({{"type", "rendezvous"}, {"low", 2}, {"high", 1}}, 2, "problem", "", 1);
    ASSERT_FALSE(badBox.ok());
    EXPECT_EQ(badBox.error().where, "problem.high");
    // Ridge: defaults of Sec. 5.2, ρ > 0.
    auto ridge = makeProblem({{"type", "paper003-ridge"}, {"dimension", 3}}, 4, "problem", "", 3);
    ASSERT_TRUE(ridge.ok()) << ridge.error().toString();
    EXPECT_EQ((*ridge)->describe()["noise_std"], 25.0);
    auto badPenalty = makeProblem({{"type", "paper003-ridge"}, {"penalty", 0}}, 4, "problem", "", 3);
    ASSERT_FALSE(badPenalty.ok());
    EXPECT_EQ(badPenalty.error().where, "problem.penalty");
}

} // namespace
} // namespace dplab
