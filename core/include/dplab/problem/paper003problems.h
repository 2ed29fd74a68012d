// SPDX-License-Identifier: GPL-3.0-or-later
//
// The two test problems of paper 003 (Xuan & Wang), in the paper's own scaling:
//   rendezvous      f_i(x) = ‖x − a_i‖²  (Sec. 5.1, "example 1 in [21]"), ∇f_i = 2(x − a_i),
//                   μ = L = 2, x* = mean(a_i). The paper writes one assembly point a; whether it
//                   is shared is not stated. Default: agent-specific private points a_i (the
//                   reading under which privacy means something); "shared": true gives the
//                   literal common a (then x* = a).
//   paper003-ridge  f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖²  (Sec. 5.2, from Pu's R-Push-Pull), one
//                   sample per agent: u_i ~ U[−1, 1]^r, x̃_i ~ U[0, 10]^r, v_i = u_iᵀx̃_i + ζ_i,
//                   ζ_i ~ N(0, 25²). ∇f_i = 2u_i(u_iᵀx − v_i) + 2ρx, μ_i = 2ρ,
//                   L_i = 2(‖u_i‖² + ρ). Exact optimum x* = (Σ u_i u_iᵀ + nρI)⁻¹ Σ u_i v_i; the
//                   paper prints Σ u_i u_iᵀ x̃_i in place of Σ u_i v_i, which drops ζ (kept in
//                   describe() as "printed_optimum").
//
// Threading: immutable after construction; const methods are thread-safe.
#pragma once

#include "dplab/privacy/rng.h"
#include "dplab/problem/problem.h"

#include <Eigen/Core>

namespace dplab {

class RendezvousProblem final : public Problem
{
public:
    /** points: n×d, row i = a_i. `facts` are merged into describe(). */
    explicit RendezvousProblem(Eigen::MatrixXd points, Json facts = Json::object());

    std::string id() const override { return "rendezvous"; }
    int agentCount() const override { return static_cast<int>(mPoints.rows()); }
    int dimension() const override { return static_cast<int>(mPoints.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** mean(a_i). */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    Json describe() const override;

    const Eigen::MatrixXd &points() const { return mPoints; }

private:
    Eigen::MatrixXd mPoints;
    Json mFacts;
};

class SingleSampleRidgeProblem final : public Problem
{
public:
    /** features: n×r (row i = u_iᵀ), targets: n (v_i), penalty ρ > 0. */
    SingleSampleRidgeProblem(Eigen::MatrixXd features, Eigen::VectorXd targets, double penalty,
                             Json facts = Json::object());

    std::string id() const override { return "paper003-ridge"; }
    int agentCount() const override { return static_cast<int>(mU.rows()); }
    int dimension() const override { return static_cast<int>(mU.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    /** (2/n) Σ u_i u_iᵀ + 2ρI. */
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** (Σ u_i u_iᵀ + nρI)⁻¹ Σ u_i v_i. */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    Json describe() const override;

    double penalty() const { return mPenalty; }
    /** min_i μ_i = 2ρ and max_i L_i = 2(max_i ‖u_i‖² + ρ). */
    double localStrongConvexity() const { return 2.0 * mPenalty; }
    double localSmoothness() const;

private:
    Eigen::MatrixXd mU;
    Eigen::VectorXd mV;
    double mPenalty = 0.0;
    Json mFacts;
};

/** Sec. 5.2's synthetic data for n agents in dimension r: u_i ~ U[−1,1]^r, x̃_i ~ U[0,10]^r,
 *  ζ_i ~ N(0, noiseStd²), v_i = u_iᵀx̃_i + ζ_i, all from `rng` in that order per agent.
 *  describe() records x̃, the exact and the printed optimum. */
SingleSampleRidgeProblem paper003RidgeData(int agents, int dimension, double penalty,
                                           double noiseStd, Rng &rng);

struct ProblemEntry;
/** Factory entries ("rendezvous", "paper003-ridge"); registered in problem.cpp. */
ProblemEntry rendezvousProblemEntry();
ProblemEntry paper003RidgeProblemEntry();

} // namespace dplab
