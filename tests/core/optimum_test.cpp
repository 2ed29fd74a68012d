// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/objectives.h"
#include "dplab/problem/optimum.h"

#include <gtest/gtest.h>

namespace dplab {
namespace {

std::shared_ptr<const Problem> build(const Json &spec, int agents)
{
    auto result = makeProblem(spec, agents, "problem", "", 1);
    if (!result) {
        ADD_FAILURE() << result.error().toString();
        return nullptr;
    }
    return *result;
}

/** Forwards values and gradients only: no Hessian, no closed form (forces L-BFGS). */
class FirstOrderOnly final : public Problem
{
public:
    explicit FirstOrderOnly(std::shared_ptr<const Problem> inner) : mInner(std::move(inner)) {}
    std::string id() const override { return mInner->id(); }
    int agentCount() const override { return mInner->agentCount(); }
    int dimension() const override { return mInner->dimension(); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t) const override
    {
        mInner->values(X, out, t);
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t) const override
    {
        mInner->gradients(X, out, t);
    }
    Json describe() const override { return mInner->describe(); }

private:
    std::shared_ptr<const Problem> mInner;
};

TEST(Optimum, NewtonAndLbfgsReachTheToleranceOnBreastCancer)
{
    auto problem = build(Json{{"type", "logistic"}}, 8);
    ASSERT_TRUE(problem);
    auto reference = solveReference(*problem);
    ASSERT_TRUE(reference.ok()) << reference.error().toString();
    EXPECT_EQ(reference->method, "newton");
    EXPECT_LE(reference->gradientNorm, 1e-10);
    EXPECT_LE(problem->globalGradient(reference->x).norm(), 1e-10);
    EXPECT_DOUBLE_EQ(reference->value, problem->globalValue(reference->x));

    const Eigen::VectorXd x0 = Eigen::VectorXd::Zero(problem->dimension());
    auto lbfgs = solveLbfgs(*problem, x0);
    ASSERT_TRUE(lbfgs.ok()) << lbfgs.error().toString();
    EXPECT_LE(lbfgs->gradientNorm, 1e-10);
    // F is λ-strongly convex: ‖x − x*‖ ≤ ‖∇F(x)‖/λ = 1e-8 for either point.
    EXPECT_LE((lbfgs->x - reference->x).norm(), 2e-8);
    EXPECT_NEAR(lbfgs->value, reference->value, 1e-14);

    // The optimum classifies the data well (UCI reports ~97 % for linear separators).
    EXPECT_GT(problem->accuracy(reference->x, false).value(), 0.97);
    EXPECT_GT(problem->accuracy(reference->x, true).value(), 0.93);

    // Without a Hessian the reference comes from L-BFGS.
    FirstOrderOnly firstOrder(problem);
    auto viaLbfgs = solveReference(firstOrder);
    ASSERT_TRUE(viaLbfgs.ok()) << viaLbfgs.error().toString();
    EXPECT_EQ(viaLbfgs->method, "l-bfgs");
    EXPECT_LE((viaLbfgs->x - reference->x).norm(), 2e-8);
}

TEST(Optimum, SolversAgreeOnSyntheticProblems)
{
    const Json specs[] = {
        Json::parse(R"({"type": "logistic", "lambda": 0.001, "split": "by-label",
                        "data": {"source": "synthetic", "samples": 400, "dimension": 6}})"),
        Json::parse(R"({"type": "ridge", "lambda": 0.01, "bias": true,
                        "data": {"source": "synthetic", "samples": 100, "dimension": 8}})"),
        Json::parse(R"({"type": "quadratic", "dimension": 10,
                        "random": {"min_eigenvalue": 0.01, "max_eigenvalue": 100}})"),
    };
    for (const auto &spec : specs) {
        SCOPED_TRACE(spec.dump());
        auto problem = build(spec, 5);
        ASSERT_TRUE(problem);
        const Eigen::VectorXd x0 = Eigen::VectorXd::Zero(problem->dimension());
        auto newton = solveNewton(*problem, x0);
        auto lbfgs = solveLbfgs(*problem, x0);
        ASSERT_TRUE(newton.ok()) << newton.error().toString();
        ASSERT_TRUE(lbfgs.ok()) << lbfgs.error().toString();
        EXPECT_LE(newton->gradientNorm, 1e-10);
        EXPECT_LE(lbfgs->gradientNorm, 1e-10);
        const double mu = problem->describe().value("global_strong_convexity", 0.001);
        EXPECT_LE((newton->x - lbfgs->x).norm(), 2e-10 / std::min(mu, 0.001));
        if (auto closed = problem->closedFormOptimum())
            EXPECT_LE((*closed - newton->x).norm(), 2e-10 / std::min(mu, 0.001));
    }
}

TEST(Optimum, ClosedFormIsPreferred)
{
    auto problem = build(Json::parse(R"({"type": "ridge"})"), 4);
    ASSERT_TRUE(problem);
    auto reference = solveReference(*problem);
    ASSERT_TRUE(reference.ok());
    EXPECT_EQ(reference->method, "closed form");
    EXPECT_LE(reference->gradientNorm, 1e-12);
}

TEST(Optimum, IterationLimitIsAnError)
{
    auto problem = build(Json{{"type", "logistic"}}, 2);
    ASSERT_TRUE(problem);
    SolverOptions options;
    options.maxIterations = 2;
    const Eigen::VectorXd x0 = Eigen::VectorXd::Zero(problem->dimension());
    auto newton = solveNewton(*problem, x0, options);
    ASSERT_FALSE(newton.ok());
    EXPECT_EQ(newton.error().code, ErrorCode::Internal);
    EXPECT_NE(newton.error().message.find("iteration limit"), std::string::npos);
    EXPECT_FALSE(solveLbfgs(*problem, x0, options).ok());
    FirstOrderOnly firstOrder(problem);
    EXPECT_EQ(solveNewton(firstOrder, x0).error().code, ErrorCode::Unsupported);
}

} // namespace
} // namespace dplab
