// SPDX-License-Identifier: GPL-3.0-or-later
// Feasible sets: projection optimality (variational inequality), linear-minimizer optimality,
// the trace-norm ball's exact projection and top-singular-pair oracle.
#include "dplab/problem/constraints.h"
#include "dplab/privacy/rng.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace dplab {
namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::VectorXd randomVector(int d, double scale, Rng &rng)
{
    Eigen::VectorXd v(d);
    for (int k = 0; k < d; ++k)
        v[k] = scale * rng.gaussian();
    return v;
}

/** Random points of K: projections of random points at several scales and linear minimizers. */
std::vector<Eigen::VectorXd> pointsOf(const ConstraintSet &set, Rng &rng)
{
    std::vector<Eigen::VectorXd> out;
    const int d = set.dimension();
    for (double scale : {0.01, 0.3, 1.0, 5.0, 50.0})
        for (int r = 0; r < 6; ++r) {
            Eigen::VectorXd y = randomVector(d, scale, rng);
            set.project(y);
            out.push_back(y);
        }
    if (set.bounded())
        for (int r = 0; r < 6; ++r) {
            Eigen::VectorXd v(d);
            set.linearMinimizer(randomVector(d, 1.0, rng), v);
            out.push_back(v);
        }
    return out;
}

std::vector<std::shared_ptr<const ConstraintSet>> allSets()
{
    return {std::make_shared<FullSpace>(6), std::make_shared<L2Ball>(6, 2.0), std::make_shared<Box>(6, -0.5, 1.5),
            std::make_shared<TraceNormBall>(3, 4, 2.5), std::make_shared<TraceNormBall>(5, 2, 1.0)};
}

TEST(CappedSimplex, HandComputedProjections)
{
    Eigen::Vector2d s(3.0, 1.0);
    EXPECT_LE((projectCappedSimplex(s, 2.0) - Eigen::Vector2d(2.0, 0.0)).norm(), 1e-15);
    EXPECT_LE((projectCappedSimplex(Eigen::Vector2d(1.0, 1.0), 1.0) - Eigen::Vector2d(0.5, 0.5)).norm(), 1e-15);
    // Inside (Σ ≤ τ): unchanged; negative entries are clipped to 0 first.
    EXPECT_LE((projectCappedSimplex(Eigen::Vector2d(0.5, 0.25), 1.0) - Eigen::Vector2d(0.5, 0.25)).norm(), 1e-15);
    EXPECT_LE((projectCappedSimplex(Eigen::Vector3d(-1.0, 0.5, 0.2), 1.0) - Eigen::Vector3d(0.0, 0.5, 0.2)).norm(), 1e-15);
    // (4, 2, 1), τ = 3: λ = (4 + 2 − 3)/2 = 1.5 → (2.5, 0.5, 0).
    EXPECT_LE((projectCappedSimplex(Eigen::Vector3d(4.0, 2.0, 1.0), 3.0) - Eigen::Vector3d(2.5, 0.5, 0.0)).norm(), 1e-15);
}

TEST(ConstraintSets, ProjectionSatisfiesTheVariationalInequality)
{
    // p = Proj_K(x) iff p ∈ K and ⟨x − p, y − p⟩ ≤ 0 for every y ∈ K; also Proj is idempotent.
    Rng rng(1);
    for (const auto &set : allSets()) {
        const auto ys = pointsOf(*set, rng);
        for (double scale : {0.1, 1.0, 10.0})
            for (int r = 0; r < 20; ++r) {
                const Eigen::VectorXd x = randomVector(set->dimension(), scale, rng);
                Eigen::VectorXd p = x;
                set->project(p);
                EXPECT_TRUE(set->contains(p, 1e-9)) << set->id();
                for (const auto &y : ys)
                    EXPECT_LE((x - p).dot(y - p), 1e-9 * (1.0 + x.squaredNorm())) << set->id();
                Eigen::VectorXd again = p;
                set->project(again);
                EXPECT_LE((again - p).norm(), 1e-9 * (1.0 + p.norm())) << set->id();
            }
    }
}

TEST(ConstraintSets, LinearMinimizerIsOptimal)
{
    Rng rng(2);
    for (const auto &set : allSets()) {
        if (!set->bounded())
            continue;
        const auto ys = pointsOf(*set, rng);
        for (int r = 0; r < 30; ++r) {
            const Eigen::VectorXd g = randomVector(set->dimension(), 1.0, rng);
            Eigen::VectorXd v(set->dimension());
            set->linearMinimizer(g, v);
            EXPECT_TRUE(set->contains(v, 1e-9)) << set->id();
            for (const auto &y : ys)
                EXPECT_LE(g.dot(v), g.dot(y) + 1e-9) << set->id();
        }
    }
}

TEST(TraceNormBall, LinearMinimizerIsMinusTauTopSingularPair)
{
    // min_{‖V‖_* ≤ τ} ⟨G, V⟩ = −τ σ_max(G), attained at −τ u₁v₁ᵀ.
    Rng rng(3);
    for (auto [q, p] : {std::pair{3, 7}, std::pair{7, 3}, std::pair{4, 4}}) {
        TraceNormBall ball(q, p, 2.0);
        const Eigen::VectorXd g = randomVector(q * p, 1.0, rng);
        Eigen::VectorXd v(q * p);
        ball.linearMinimizer(g, v);
        const Eigen::MatrixXd gm = Eigen::Map<const RowMajor>(g.data(), q, p);
        const double sigmaMax = Eigen::JacobiSVD<Eigen::MatrixXd>(gm).singularValues()[0];
        EXPECT_NEAR(g.dot(v), -2.0 * sigmaMax, 1e-10);
        EXPECT_NEAR(traceNorm(v, q, p), 2.0, 1e-10); // rank one, on the boundary
    }
    // G = 0: any point is optimal; the oracle returns 0.
    TraceNormBall ball(2, 3, 1.0);
    Eigen::VectorXd v(6);
    ball.linearMinimizer(Eigen::VectorXd::Zero(6), v);
    EXPECT_EQ(v.norm(), 0.0);
}

TEST(TraceNormBall, ProjectionOfADiagonalMatrixByHand)
{
    // X = [[3, 0, 0], [0, 1, 0]] (row-major), τ = 2: singular values (3, 1) → (2, 0).
    TraceNormBall ball(2, 3, 2.0);
    Eigen::VectorXd x(6);
    x << 3, 0, 0, 0, 1, 0;
    ball.project(x);
    Eigen::VectorXd expected(6);
    expected << 2, 0, 0, 0, 0, 0;
    EXPECT_LE((x - expected).norm(), 1e-12);
    // Rotated: X = Q₁ diag(3, 1) Q₂ᵀ keeps its singular vectors: Proj = Q₁ diag(2, 0) Q₂ᵀ.
    const double c = std::cos(0.4), s = std::sin(0.4);
    Eigen::Matrix2d q1;
    q1 << c, -s, s, c;
    Eigen::Matrix3d q2 = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
    Eigen::MatrixXd sigma = Eigen::MatrixXd::Zero(2, 3);
    sigma(0, 0) = 3;
    sigma(1, 1) = 1;
    const RowMajor xm = q1 * sigma * q2.transpose();
    sigma(0, 0) = 2;
    sigma(1, 1) = 0;
    const RowMajor pm = q1 * sigma * q2.transpose();
    Eigen::VectorXd rotated = Eigen::Map<const Eigen::VectorXd>(xm.data(), 6);
    ball.project(rotated);
    EXPECT_LE((rotated - Eigen::Map<const Eigen::VectorXd>(pm.data(), 6)).norm(), 1e-12);
    // Inside the ball: unchanged.
    Eigen::VectorXd inside(6);
    inside << 0.5, 0, 0.1, 0, -0.3, 0;
    const Eigen::VectorXd before = inside;
    ball.project(inside);
    EXPECT_EQ((inside - before).norm(), 0.0);
}

TEST(TraceNormBall, ProjectionMatchesAFullSvdOnDigitsSizedAndRankDeficientMatrices)
{
    // The projection works from the k × k Gram matrix; compare it with U diag(s') Vᵀ from a full
    // Jacobi SVD, on 10 × 64 matrices (paper 002's digits decisions) of full rank and of rank 2
    // (the Gram matrix's zero eigenvalues are where squaring loses accuracy), and transposed.
    Rng rng(11);
    for (auto [q, p] : {std::pair{10, 64}, std::pair{64, 10}}) {
        for (int rank : {10, 2}) {
            for (double scale : {0.3, 3.0}) {
                Eigen::MatrixXd a(q, rank), b(rank, p);
                for (Eigen::Index i = 0; i < a.size(); ++i)
                    a.data()[i] = scale * rng.gaussian();
                for (Eigen::Index i = 0; i < b.size(); ++i)
                    b.data()[i] = rng.gaussian();
                const RowMajor xm = a * b;
                const double tau = 5.0;
                Eigen::JacobiSVD<Eigen::MatrixXd> svd(Eigen::MatrixXd(xm), Eigen::ComputeThinU | Eigen::ComputeThinV);
                const Eigen::VectorXd shrunk = projectCappedSimplex(svd.singularValues(), tau);
                const RowMajor want = svd.matrixU() * shrunk.asDiagonal() * svd.matrixV().transpose();
                Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(xm.data(), xm.size());
                TraceNormBall(q, p, tau).project(x);
                const Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(want.data(), want.size());
                EXPECT_LE((x - w).norm(), 1e-12 * (1.0 + w.norm()))
                    << q << "x" << p << " rank " << rank << " scale " << scale;
            }
        }
    }
}

TEST(TraceNormBall, RadiusBoundsTheFrobeniusNorm)
{
    // ‖X‖_F ≤ ‖X‖_* so R = τ is a valid Assumption 3.1 bound.
    Rng rng(4);
    TraceNormBall ball(4, 6, 3.0);
    for (int r = 0; r < 20; ++r) {
        Eigen::VectorXd x = randomVector(24, 5.0, rng);
        ball.project(x);
        EXPECT_LE(x.norm(), ball.radius() + 1e-12);
    }
}

TEST(MakeConstraintSet, ParsesAndReportsPaths)
{
    auto ball = makeConstraintSet(Json{{"type", "l2-ball"}, {"radius", 3.0}}, 4, "problem.constraint");
    ASSERT_TRUE(ball.ok());
    EXPECT_EQ(ball.value()->id(), "l2-ball");
    EXPECT_DOUBLE_EQ(ball.value()->radius(), 3.0);
    auto trace = makeConstraintSet(Json{{"type", "trace-norm"}, {"rows", 3}, {"radius", 10.0}}, 12, "k");
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->dimension(), 12);
    EXPECT_EQ(trace.value()->toJson()["rows"], 3);
    auto none = makeConstraintSet(Json(), 5, "k");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none.value()->bounded());

    auto badType = makeConstraintSet(Json{{"type", "simplex"}}, 4, "problem.constraint");
    ASSERT_FALSE(badType.ok());
    EXPECT_EQ(badType.error().where, "problem.constraint.type");
    auto badRows = makeConstraintSet(Json{{"type", "trace-norm"}, {"rows", 5}}, 12, "k");
    ASSERT_FALSE(badRows.ok());
    EXPECT_EQ(badRows.error().where, "k.rows");
    auto badRadius = makeConstraintSet(Json{{"type", "l2-ball"}, {"radius", -1.0}}, 4, "k");
    ASSERT_FALSE(badRadius.ok());
    EXPECT_EQ(badRadius.error().where, "k.radius");
}

} // namespace
} // namespace dplab
