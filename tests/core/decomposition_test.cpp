// SPDX-License-Identifier: GPL-3.0-or-later
// Every Eigen decomposition in core is checked (dplab/common/decomposition.h): a singular,
// indefinite or NaN matrix gives an error that names the matrix — never a garbage number and
// never a crash. One case per kind of site: the spectral routines of the weights (eigen-solvers,
// SVD, the Perron vectors' orthogonal decomposition), the PSD check of a user's W, the gossip
// spectrum and contraction, a problem's Gram matrix, the reference solve
// (Cholesky of the Hessian, the quadratic's closed form), paper 003's 3 × 3 theory (eigen-solver
// and LU), the trace-norm projection in an algorithm's step, and the runner that turns a failure
// inside a step into an internal error of the run.
#include "dplab/algo/gossip.h"
#include "dplab/algo/paper003theory.h"
#include "dplab/common/decomposition.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/constraints.h"
#include "dplab/problem/objectives.h"
#include "dplab/problem/optimum.h"
#include "dplab/problem/paper001problems.h"

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

} // namespace
} // namespace dplab
