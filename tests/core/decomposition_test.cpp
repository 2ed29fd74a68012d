// SPDX-License-Identifier: GPL-3.0-or-later
// Every Eigen decomposition in core is checked (dplab/common/decomposition.h): a singular,
// indefinite or NaN matrix gives an error that names the matrix — never a garbage number and
// never a crash. One case per kind of site: the spectral routines of the weights (eigen-solvers,
// SVD, the Perron vectors' orthogonal decomposition), the PSD check of a user's W, the gossip
// spectrum and contraction, a problem's Gram matrix, the reference solve
// (Cholesky of the Hessian, the quadratic's closed form), paper 003's 3 × 3 theory (eigen-solver
// and LU), the trace-norm projection in an algorithm's step, and the runner that turns a failure
// inside a step into an internal error of the run. Then every remaining site, reached through its
// public path: DiaDSP's W and the gossip check of PD-OGD / accelerated gossip (an algorithm's
// reset), the symmetric path of the gossip contraction, a problem's eigenvalue range (an
// experiment file), paper 003's ridge LDLTs, the online stream's LDLT, and the closed forms'
// Cholesky solve (a seam: no input reaches it, see LeastSquaresProblem::closedFormOptimum).
#include "dplab/algo/algorithm.h"
#include "dplab/algo/gossip.h"
#include "dplab/algo/paper003theory.h"
#include "dplab/common/checkedsolve.h"
#include "dplab/common/decomposition.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/constraints.h"
#include "dplab/problem/objectives.h"
#include "dplab/problem/optimum.h"
#include "dplab/problem/paper001problems.h"
#include "dplab/problem/paper003problems.h"
#include "dplab/problem/stream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace dplab {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/** Runs `f`, expecting a NumericalError whose message contains `text`. */
template <class F>
void expectNamedFailure(F f, const std::string &text)
{
    try {
        f();
        ADD_FAILURE() << "no NumericalError (expected one naming \"" << text << "\")";
    } catch (const NumericalError &e) {
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
}

Eigen::MatrixXd nanMatrix(int n, bool symmetric)
{
    Eigen::MatrixXd m = Eigen::MatrixXd::Constant(n, n, 0.25);
    m(0, 1) = kNaN;
    if (symmetric)
        m(1, 0) = kNaN;
    else
        m(2, 0) = 0.5;
    return m;
}

TEST(DecompositionCheck, MessagesNameTheMatrixAndTheRoutine)
{
    EXPECT_EQ(decompositionFailure("weights R", "eigen-decomposition", Eigen::NoConvergence),
              "weights R: eigen-decomposition did not converge");
    EXPECT_EQ(decompositionFailure("Hessian", "Cholesky factorization", Eigen::NumericalIssue),
              "Hessian: Cholesky factorization failed: the matrix is not positive definite");
    EXPECT_EQ(decompositionFailure("I − A", "LU factorization", Eigen::NumericalIssue),
              "I − A: LU factorization failed: the matrix is singular or ill-conditioned");
    EXPECT_EQ(decompositionFailure("P", "singular value decomposition", Eigen::InvalidInput),
              "P: singular value decomposition failed: the matrix has NaN or infinite entries");
    EXPECT_EQ(decompositionFailure("P", "eigen-decomposition", Eigen::Success, false),
              "P: eigen-decomposition failed: the matrix has NaN or infinite entries");
    EXPECT_NO_THROW(requireDecomposed("W", "eigen-decomposition", Eigen::Success));
    expectNamedFailure([] { requireDecomposed("W", "eigen-decomposition", Eigen::NoConvergence); },
                       "W: eigen-decomposition did not converge");
    const Status ok = checkDecomposed(ErrorCode::Internal, "graph.weights", "W", "eigen-decomposition", Eigen::Success);
    EXPECT_TRUE(ok.ok());
    const Status bad = checkDecomposed(ErrorCode::Internal, "graph.weights", "W", "eigen-decomposition",
                                       Eigen::NoConvergence);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::Internal);
    EXPECT_EQ(bad.error().toString(), "graph.weights: W: eigen-decomposition did not converge");
}

TEST(DecompositionCheck, SpectralRoutinesOfTheWeightsRefuseNaN)
{
    // Unchecked, Eigen's solvers return NaN or stale numbers here, which the inspector and the
    // CLI's graph command would print as σ₂, ρ or a Perron vector.
    expectNamedFailure([] { spectralRadius(nanMatrix(3, false)); }, "weight matrix: eigen-decomposition");
    expectNamedFailure([] { spectralRadius(nanMatrix(3, true)); }, "weight matrix: eigen-decomposition");
    expectNamedFailure([] { singularValues(nanMatrix(3, false)); },
                       "weight matrix: singular value decomposition failed: the matrix has NaN");
    expectNamedFailure([] { consensusRate(nanMatrix(3, true)); }, "weights W − 11ᵀ/n");
    expectNamedFailure([] { leftPerronVector(nanMatrix(3, false)); }, "weights R (left Perron vector)");
    expectNamedFailure([] { rightPerronVector(nanMatrix(3, false)); }, "weights C (right Perron vector)");
    // A finite matrix still gives its numbers.
    Eigen::MatrixXd w(2, 2);
    w << 0.5, 0.5, 0.5, 0.5;
    EXPECT_NEAR(spectralRadius(w), 1.0, 1e-12);
    EXPECT_NEAR(secondSingularValue(w), 0.0, 1e-12);
}

TEST(DecompositionCheck, GossipSpectrumRefusesNaN)
{
    expectNamedFailure([] { gossipSpectrum(nanMatrix(3, true)); }, "gossip matrix P");
    expectNamedFailure([] { gossipSpectrum(nanMatrix(3, false)); }, "gossip matrix P");
}

TEST(DecompositionCheck, GossipContractionRefusesNaN)
{
    // The polynomial's deviation p(P) − 11ᵀ/n (SVD of a non-symmetric P).
    expectNamedFailure([] { gossipContraction(nanMatrix(3, false), 0.5, 4); }, "gossip polynomial p(P) − 11ᵀ/n");
}

TEST(DecompositionCheck, PsdCheckOfTheWeightsNamesNaNAndMeasuresAnIndefiniteW)
{
    // A user's explicit W: a Status naming the matrix's symmetric part, not a throw.
    Eigen::MatrixXd diagonalNaN = Eigen::MatrixXd::Constant(3, 3, 0.25);
    diagonalNaN(0, 0) = kNaN; // symmetric, so the eigen-decomposition is reached
    const Status nan = checkPsd(diagonalNaN);
    ASSERT_FALSE(nan.ok());
    EXPECT_NE(nan.error().message.find("its symmetric part: eigen-decomposition"), std::string::npos)
        << nan.error().toString();
    // Indefinite: eigenvalues 1 and −0.5 of [[0.25, 0.75], [0.75, 0.25]].
    Eigen::Matrix2d indefinite;
    indefinite << 0.25, 0.75, 0.75, 0.25;
    const Status s = checkPsd(indefinite);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("smallest eigenvalue is -0.5"), std::string::npos) << s.error().toString();
}

TEST(DecompositionCheck, NonconvexLogisticNamesTheGramMatrixOfNaNFeatures)
{
    Eigen::MatrixXd v = Eigen::MatrixXd::Ones(3, 2);
    v(1, 1) = kNaN;
    expectNamedFailure([&] { NonconvexLogisticProblem({v}, {Eigen::VectorXd::Ones(3)}, 0.1, 1.0); },
                       "Gram matrix VᵀV/m of an agent's features");
}

/** F(x) = ½ xᵀA x − bᵀx on one agent, with a Hessian that may be replaced (NaN). */
class OneQuadratic final : public Problem
{
public:
    OneQuadratic(Eigen::MatrixXd a, Eigen::VectorXd b, bool nanHessian = false)
        : mA(std::move(a)), mB(std::move(b)), mNanHessian(nanHessian)
    {
    }
    std::string id() const override { return "one-quadratic"; }
    int agentCount() const override { return 1; }
    int dimension() const override { return static_cast<int>(mB.size()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::VectorXd> out, long long) const override
    {
        const Eigen::VectorXd xi = x.row(0).transpose();
        out[0] = 0.5 * xi.dot(mA * xi) - mB.dot(xi);
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::MatrixXd> out, long long) const override
    {
        out.row(0) = (mA * x.row(0).transpose() - mB).transpose();
    }
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &) const override
    {
        return mNanHessian ? Eigen::MatrixXd::Constant(mA.rows(), mA.cols(), kNaN) : mA;
    }
    Json describe() const override { return {{"type", id()}}; }

private:
    Eigen::MatrixXd mA;
    Eigen::VectorXd mB;
    bool mNanHessian;
};

TEST(DecompositionCheck, ReferenceSolveNamesANaNHessian)
{
    const OneQuadratic problem(Eigen::Matrix2d::Identity(), Eigen::Vector2d(1.0, 2.0), true);
    const auto newton = solveNewton(problem, Eigen::VectorXd::Zero(2));
    ASSERT_FALSE(newton.ok());
    EXPECT_EQ(newton.error().code, ErrorCode::Internal);
    EXPECT_NE(newton.error().message.find("Hessian ∇²F"), std::string::npos) << newton.error().toString();
    EXPECT_NE(newton.error().message.find("NaN"), std::string::npos) << newton.error().toString();
}

TEST(DecompositionCheck, SingularQuadraticHasNoClosedFormButATrueMinimizer)
{
    // A = diag(1, 0) is singular: Cholesky of A fails, so there is no closed form. With b in
    // A's range the minimizers are x = (1, anything); Newton on A + shift·I finds one of them.
    Eigen::MatrixXd a = Eigen::Vector2d(1.0, 0.0).asDiagonal();
    const QuadraticProblem consistent({a, a}, {Eigen::Vector2d(1.0, 0.0), Eigen::Vector2d(1.0, 0.0)});
    EXPECT_FALSE(consistent.closedFormOptimum().has_value());
    const auto reference = solveReference(consistent);
    ASSERT_TRUE(reference.ok()) << reference.error().toString();
    EXPECT_NEAR(reference->x[0], 1.0, 1e-8);
    EXPECT_LT(reference->gradientNorm, 1e-8);
    // With b outside the range F is unbounded below: an error, not a number.
    const QuadraticProblem unbounded({a, a}, {Eigen::Vector2d(1.0, 1.0), Eigen::Vector2d(1.0, 1.0)});
    EXPECT_FALSE(unbounded.closedFormOptimum().has_value());
    const auto none = solveReference(unbounded);
    EXPECT_FALSE(none.ok()) << "an unbounded problem got an optimum at " << none->x.transpose();
}

TEST(DecompositionCheck, IndefiniteQuadraticHasNoClosedForm)
{
    const Eigen::MatrixXd a = Eigen::Vector2d(1.0, -1.0).asDiagonal();
    const QuadraticProblem indefinite({a}, {Eigen::Vector2d(1.0, 1.0)});
    EXPECT_FALSE(indefinite.closedFormOptimum().has_value());
    EXPECT_FALSE(solveReference(indefinite).ok());
}

TEST(DecompositionCheck, Paper003TheoryNamesItsMatrix)
{
    Paper003Constants c;
    c.n = 5;
    c.mu = 1.0;
    c.L = kNaN;
    c.rhoW = 0.5;
    c.rhoWo = 0.3;
    expectNamedFailure([&] { paper003SteadyState(c, 0.01); }, "paper 003 steady-state matrix A");
    // ρ_w = 1 is no failure: (30) then has no steady state, θ = ∞.
    c.L = 1.0;
    c.rhoW = 1.0;
    const Paper003SteadyState state = paper003SteadyState(c, 0.01);
    EXPECT_TRUE(std::isinf(state.rhoA));
    EXPECT_TRUE(std::isinf(state.theta));
}

TEST(DecompositionCheck, TraceNormStepPassesNaNOnAsDivergence)
{
    // Inside an algorithm's step a NaN iterate is a diverging run: the projection returns NaN
    // for the runner to report ("decisions became NaN/Inf"), it does not throw.
    const TraceNormBall ball(3, 4, 1.0);
    Eigen::VectorXd x = Eigen::VectorXd::Ones(12);
    x[5] = kNaN;
    EXPECT_NO_THROW(ball.project(x));
    EXPECT_TRUE(x.array().isNaN().all());
    Eigen::VectorXd g = Eigen::VectorXd::Ones(12), v(12);
    g[2] = kNaN;
    EXPECT_NO_THROW(ball.linearMinimizer(g, v));
    EXPECT_TRUE(v.array().isNaN().all());
    EXPECT_TRUE(std::isnan(traceNorm(g, 3, 4)));
    // Finite input is projected as before.
    Eigen::VectorXd y = Eigen::VectorXd::Constant(12, 2.0);
    ball.project(y);
    EXPECT_NEAR(traceNorm(y, 3, 4), 1.0, 1e-9);
}

/** DGD whose step throws the NumericalError of a failed decomposition at iteration 3. */
class FailingStep final : public Algorithm
{
public:
    explicit FailingStep(std::unique_ptr<Algorithm> inner) : mInner(std::move(inner)) {}
    Status start(const RunContext &ctx) override { return mInner->reset(ctx); }
    void iterate(long long k, std::vector<Message> *) override
    {
        if (k == 3)
            requireDecomposed("test matrix M", "eigen-decomposition", Eigen::NoConvergence);
        mInner->step();
    }
    const Eigen::MatrixXd &decisions() const override { return mInner->decisions(); }

private:
    std::unique_ptr<Algorithm> mInner;
};

TEST(DecompositionCheck, RunnerReportsAFailureInsideAStepAsAnInternalErrorOfTheRun)
{
    const Json doc = {{"format", "dplab-experiment"},
                      {"version", 1},
                      {"seed", 3},
                      {"iterations", 10},
                      {"repetitions", 3},
                      {"graph", {{"generator", {{"type", "ring"}, {"nodes", 4}}}, {"weights", {{"scheme", "metropolis"}}}}},
                      {"problem", {{"type", "quadratic"}, {"dimension", 2}}},
                      {"runs", Json::array({{{"algorithm", "dgd"}}, {{"algorithm", "dgd"}}})}};
    auto e = parseExperiment(doc, "");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    AlgorithmDescriptor failing = *e->runs[1].algorithm;
    const AlgorithmDescriptor *dgd = e->runs[1].algorithm;
    failing.create = [dgd] { return std::make_unique<FailingStep>(dgd->create()); };
    e->runs[1].algorithm = &failing;
    for (int threads : {1, 3}) {
        RunnerOptions options;
        options.threads = threads;
        const auto result = Runner(options).run(*e);
        ASSERT_FALSE(result.ok()) << threads << " threads";
        EXPECT_EQ(result.error().code, ErrorCode::Internal);
        EXPECT_EQ(result.error().toString(), "runs[1]: test matrix M: eigen-decomposition did not converge");
    }
}

/** An experiment of `algorithm` (with `params`) on a ring of four agents and a 2-D quadratic. */
Experiment ringExperiment(const std::string &algorithm, const Json &params = Json::object())
{
    const Json doc = {{"format", "dplab-experiment"},
                      {"version", 1},
                      {"seed", 5},
                      {"iterations", 20},
                      {"graph", {{"generator", {{"type", "ring"}, {"nodes", 4}}}, {"weights", {{"scheme", "metropolis"}}}}},
                      {"problem", {{"type", "quadratic"}, {"dimension", 2}}},
                      {"runs", Json::array({{{"algorithm", algorithm}, {"params", params}}})}};
    auto e = parseExperiment(doc, "");
    EXPECT_TRUE(e.ok()) << e.error().toString();
    return std::move(e.value());
}

/** A symmetric 4 × 4 matrix of `value`s: finite, but its eigenvalues (4·value) or P + Pᵀ overflow
 *  to ∞ for value ≥ 1e308. The experiment file refuses it (weights must be stochastic), so it
 *  reaches an algorithm only through the context a caller hands to reset(). */
Eigen::MatrixXd overflowingWeights(double value = 1e308)
{
    return Eigen::MatrixXd::Constant(4, 4, value);
}

TEST(DecompositionCheck, DiaDspNamesItsWeightsW)
{
    // A W read from an experiment is finite, nonnegative and doubly stochastic, so its spectrum
    // lies in [−1, 1]: the check fails only for a context built by hand.
    const Experiment e = ringExperiment("diadsp", {{"stepsize", 0.1}});
    RunContext ctx = makeRunContext(e, 0, 0);
    const auto algorithm = e.runs[0].algorithm->create();
    ASSERT_TRUE(algorithm->reset(ctx).ok());
    ctx.W = overflowingWeights();
    const Status s = algorithm->reset(ctx);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Internal);
    EXPECT_EQ(s.error().message, "weights W: eigen-decomposition failed: the matrix has NaN or infinite entries");
}

TEST(DecompositionCheck, GossipCheckOfThePrivateLearnersNamesP)
{
    // privateonline::checkGossipMatrix (Assumption 3.4's PSD test), run first by accelerated
    // gossip's reset (and PD-OGD's): P passes the symmetry test, ½(P + Pᵀ) overflows.
    const Experiment e = ringExperiment("gossip", {{"acceleration", "paper"}});
    RunContext ctx = makeRunContext(e, 0, 0);
    const auto algorithm = e.runs[0].algorithm->create();
    ASSERT_TRUE(algorithm->reset(ctx).ok());
    ctx.W = overflowingWeights(1.5e308);
    expectNamedFailure([&] { (void)algorithm->reset(ctx); }, "gossip matrix P: eigen-decomposition did not converge");
}

TEST(DecompositionCheck, GossipContractionSymmetricPathNamesBothMatrices)
{
    // The eigen-decomposition of a symmetric P (½(P + Pᵀ) overflows) ...
    expectNamedFailure([] { gossipContraction(overflowingWeights(1.5e308), 0.5, 4); },
                       "gossip matrix P: eigen-decomposition did not converge");
    // ... and that of p(P) − 11ᵀ/n, whose p(λ) = 3^k overflows for P = 2I (not a gossip matrix).
    const Eigen::MatrixXd twice = 2.0 * Eigen::MatrixXd::Identity(3, 3);
    expectNamedFailure([&] { gossipContraction(twice, 0.5, 2000); }, "gossip polynomial p(P) − 11ᵀ/n");
    // A gossip matrix still gives its contraction: P = lazy averaging of 3 agents, p(P) = P^4
    // (θ = 0), ‖P^4 − 11ᵀ/n‖ = ½⁴.
    const Eigen::MatrixXd lazy = 0.5 * Eigen::MatrixXd::Identity(3, 3) + Eigen::MatrixXd::Constant(3, 3, 1.0 / 6.0);
    EXPECT_NEAR(gossipContraction(lazy, 0.0, 4), 1.0 / 16.0, 1e-14);
}

TEST(DecompositionCheck, Paper003LuNamesIMinusANearRhoOne)
{
    // L = 0 makes A upper triangular with diagonal (1 − αμ, ½(1 + ρ_w²), ½(1 + ρ_w²)); αμ = 2⁻⁵³
    // puts ρ(A) one rounding step below 1, so I − A is invertible in exact arithmetic but its
    // condition number is 10¹⁶: the LU check, not θ = garbage.
    Paper003Constants c;
    c.n = 5;
    c.mu = 1.0;
    c.L = 0.0;
    c.rhoW = 0.5;
    c.rhoWo = 0.3;
    const double alpha = std::ldexp(1.0, -53);
    expectNamedFailure([&] { paper003SteadyState(c, alpha); },
                       "paper 003 matrix I − A: LU factorization failed: the matrix is singular or ill-conditioned");
    // Further from 1 (αμ = 10⁻³), θ is finite again.
    const Paper003SteadyState fine = paper003SteadyState(c, 1e-3);
    EXPECT_LT(fine.rhoA, 1.0);
    EXPECT_TRUE(std::isfinite(fine.theta));
}

TEST(DecompositionCheck, ExperimentNamesAQuadraticMatrixWhoseEigenvaluesOverflow)
{
    // eigenRange: a symmetric A_0 of finite entries 1e308, whose symmetrised ½(A + Aᵀ) is ∞. The
    // file is read, the problem built, and the error names A_0 — no crash, no ∞ as "smoothness".
    const Json huge = {{1e308, 1e308}, {1e308, 1e308}};
    const Json identity = {{1.0, 0.0}, {0.0, 1.0}};
    const Json doc = {{"format", "dplab-experiment"},
                      {"version", 1},
                      {"seed", 5},
                      {"iterations", 20},
                      {"graph", {{"generator", {{"type", "ring"}, {"nodes", 3}}}, {"weights", {{"scheme", "metropolis"}}}}},
                      {"problem",
                       {{"type", "quadratic"},
                        {"dimension", 2},
                        {"agents", Json::array({{{"A", huge}, {"b", {1.0, 1.0}}},
                                                {{"A", identity}, {"b", {1.0, 1.0}}},
                                                {{"A", identity}, {"b", {1.0, 1.0}}}})}}},
                      {"runs", Json::array({{{"algorithm", "dgd"}}})}};
    const auto e = parseExperiment(doc, "");
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().code, ErrorCode::Internal);
    EXPECT_EQ(e.error().toString(), "problem: quadratic A_0: eigen-decomposition did not converge");
    // The same file with A_0 = I is fine.
    Json ok = doc;
    ok["problem"]["agents"][0]["A"] = identity;
    EXPECT_TRUE(parseExperiment(ok, "").ok());
}

TEST(DecompositionCheck, Paper003RidgeLdltsNameTheirMatrix)
{
    // Through an experiment ρ > 0 and |u_ij| ≤ 1, so UᵀU + nρI ⪰ nρI is positive definite by
    // construction; the two LDLTs are fed through the public functions instead.
    // paper003RidgeData with ρ < 0: UᵀU − 30I is indefinite or negative definite (‖UᵀU‖ ≤ 6).
    Rng rng = Rng::stream(7, 0, 0, -1, RngPurpose::Data);
    expectNamedFailure([&] { paper003RidgeData(3, 2, -10.0, 1.0, rng); },
                       "ridge matrix UᵀU + nρI: LDLT factorization failed: the matrix is not positive definite");
    // The closed form of a problem built from features with NaN.
    Eigen::MatrixXd u = Eigen::MatrixXd::Constant(3, 2, kNaN);
    const SingleSampleRidgeProblem nan(u, Eigen::Vector3d(1.0, 2.0, 3.0), 0.5);
    expectNamedFailure([&] { (void)nan.closedFormOptimum(); }, "ridge matrix UᵀU + nρI: LDLT factorization failed");
    // Finite features give the optimum (Σ u_i u_iᵀ + nρI)⁻¹ Σ u_i v_i: here U = I₂ on top of a
    // zero row, n = 3, ρ = 0.5: x = v₁:₂ / 2.5.
    u << 1.0, 0.0, 0.0, 1.0, 0.0, 0.0;
    const SingleSampleRidgeProblem finite(u, Eigen::Vector3d(1.0, 2.0, 3.0), 0.5);
    const auto x = finite.closedFormOptimum();
    ASSERT_TRUE(x.has_value());
    EXPECT_NEAR((*x - Eigen::Vector2d(0.4, 0.8)).norm(), 0.0, 1e-15);
}

TEST(DecompositionCheck, OnlineStreamHasNoClosedFormForAnIllConditionedHessian)
{
    // Least squares without ridge on nearly collinear features (1, 1 ± δ), δ = 10⁻⁷: H = AᵀA/N =
    // [[1, 1], [1, 1 + 2δ²/3]] has κ ≈ 6·10¹⁴, so the LDLT's rcond is below 10⁻¹⁴ and
    // closedFormOptimum() says "none" (the engine then solves for x* itself) instead of a solve
    // that has lost all its digits. (The stream's features are finite and H = AᵀA/N + rI is
    // positive semidefinite by construction: ill-conditioning is the failure left to catch.)
    const double delta = 1e-7;
    Eigen::MatrixXd rows(3, 2);
    rows << 1.0, 1.0, 1.0, 1.0 + delta, 1.0, 1.0 - delta;
    const std::vector<Eigen::MatrixXd> features(2, rows);
    const std::vector<Eigen::VectorXd> labels(2, Eigen::Vector3d(1.0, 0.0, 2.0));
    StreamOptions options;
    options.loss = SampleLoss::LeastSquares;
    auto collinear = OnlineStreamProblem::fromAgentSamples(features, labels, options);
    ASSERT_TRUE(collinear.ok()) << collinear.error().toString();
    EXPECT_FALSE((*collinear)->closedFormOptimum().has_value());
    // With a ridge the same stream has its optimum.
    options.ridge = 0.5;
    auto ridge = OnlineStreamProblem::fromAgentSamples(features, labels, options);
    ASSERT_TRUE(ridge.ok()) << ridge.error().toString();
    const auto x = (*ridge)->closedFormOptimum();
    ASSERT_TRUE(x.has_value());
    EXPECT_TRUE(x->allFinite());
    EXPECT_LT((*ridge)->globalGradient(*x).norm(), 1e-12);
}

TEST(DecompositionCheck, ClosedFormCholeskySolveNamesItsMatrix)
{
    // The seam both closed forms (quadratic mean A, least-squares Hessian) go through.
    const Eigen::MatrixXd indefinite = Eigen::Vector2d(1.0, -1.0).asDiagonal();
    expectNamedFailure([&] { choleskySolve(indefinite, Eigen::Vector2d(1.0, 1.0), "least-squares Hessian"); },
                       "least-squares Hessian: Cholesky factorization failed: the matrix is not positive definite");
    expectNamedFailure([] { choleskySolve(nanMatrix(3, true), Eigen::Vector3d::Ones(), "quadratic mean A"); },
                       "quadratic mean A: Cholesky factorization failed");
    Eigen::Matrix2d spd;
    spd << 4.0, 1.0, 1.0, 3.0;
    const Eigen::VectorXd x = choleskySolve(spd, Eigen::Vector2d(1.0, 2.0), "A");
    EXPECT_NEAR((spd * x - Eigen::Vector2d(1.0, 2.0)).norm(), 0.0, 1e-15);
}

} // namespace
} // namespace dplab
