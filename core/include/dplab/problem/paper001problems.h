// SPDX-License-Identifier: GPL-3.0-or-later
//
// The two nonconvex test problems of paper 001 (Section V), F = (1/n) Σ_i f_i:
//
//  (37) "nonconvex-logistic": binary classification with a nonconvex regulariser,
//       f_i(x) = (1/m) Σ_j log(1 + exp(−u_ij x·v_ij)) + Σ_s λ α x_s² / (1 + α x_s²),
//       synthetic data: v_ij ~ N(0, I_d), u_ij uniform in {−1, +1} independent of v_ij
//       (paper: m = 200, d = 10, λ = 0.001, α = 1). Smooth, bounded gradients (Assumption 7).
//  (38) "nonconvex-pl": f_i(x) = xᵀx + 3 sin(x)ᵀsin(x) + m_i xᵀcos(x) (sin, cos element-wise),
//       Σ_i m_i = 0, so F(x) = xᵀx + 3 sin(x)ᵀsin(x): nonconvex, P–L (Karimi et al. 2016), unique
//       minimiser x* = 0 with F* = 0, global smoothness 8. The local f_i have unbounded gradients.
//
// Threading: immutable after construction; const methods are thread-safe.
#pragma once

#include "dplab/problem/objectives.h"

#include <Eigen/Core>

#include <vector>

namespace dplab {

class NonconvexLogisticProblem final : public Problem
{
public:
    /** features[i] is agent i's m_i×d matrix of v_ij (rows), labels[i] its ±1 labels u_ij.
     *  REQUIRES: ≥ 1 agent, ≥ 1 sample each, the same d, labels ±1, λ ≥ 0, α > 0. */
    NonconvexLogisticProblem(std::vector<Eigen::MatrixXd> features, std::vector<Eigen::VectorXd> labels,
                             double lambda, double alpha, Json facts = Json::object());

    std::string id() const override { return "nonconvex-logistic"; }
    int agentCount() const override { return static_cast<int>(mFeatures.size()); }
    int dimension() const override { return static_cast<int>(mFeatures.front().cols()); }
    /** Cost: 2·m·d per agent. */
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    /** Facts include "gradient_bound" (M of Assumption 7) and "smoothness" (L_f). */
    Json describe() const override;

    /** M with ‖∇f_i(x)‖ ≤ M for all i, x: max_i σ_max(V_i)/√m_i + √d · 9 λ √α / (8 √3)
     *  (the logistic weights lie in (0, 1); the regulariser's derivative 2λαx/(1 + αx²)² peaks
     *  at 9λ√α/(8√3) for x = 1/√(3α)). */
    double gradientBound() const { return mGradientBound; }
    /** L_f = max_i λ_max(V_iᵀV_i)/(4 m_i) + 2 λ α (|second derivative of the regulariser| ≤ 2λα). */
    double smoothness() const { return mSmoothness; }
    const Eigen::MatrixXd &features(int i) const { return mFeatures[static_cast<std::size_t>(i)]; }
    const Eigen::VectorXd &labels(int i) const { return mLabels[static_cast<std::size_t>(i)]; }

private:
    std::vector<Eigen::MatrixXd> mFeatures;
    std::vector<Eigen::VectorXd> mLabels;
    double mLambda;
    double mAlpha;
    double mGradientBound = 0.0;
    double mSmoothness = 0.0;
    Json mFacts;
};

class NonconvexPlProblem final : public Problem
{
public:
    /** REQUIRES: coefficients.size() ≥ 1 (one m_i per agent), d ≥ 1. Σ m_i should be 0 (else F
     *  keeps a term (1/n)(Σ m_i) xᵀcos x and x* = 0 is no longer its minimiser). */
    NonconvexPlProblem(Eigen::VectorXd coefficients, int dimension, Json facts = Json::object());

    std::string id() const override { return "nonconvex-pl"; }
    int agentCount() const override { return static_cast<int>(mM.size()); }
    int dimension() const override { return mDimension; }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    /** diag(2 + 6 cos 2x + m̄ (−2 sin x − x∘cos x)), m̄ = (1/n) Σ m_i. */
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** x* = 0 (exact when Σ m_i = 0). */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    Json describe() const override;

    const Eigen::VectorXd &coefficients() const { return mM; }

private:
    Eigen::VectorXd mM;
    int mDimension;
    Json mFacts;
};

/** Draws paper 001's synthetic data for (37): per agent, m rows of N(0, 1) features (d draws per
 *  sample from `rng`, then one label ±1 by rng.below(2)), agents in order. */
void paper001LogisticData(int agents, int samples, int dimension, Rng &rng, std::vector<Eigen::MatrixXd> &features,
                          std::vector<Eigen::VectorXd> &labels);

/** m_1..m_{n−1} ~ U(−1, 1), m_n = −Σ_{i<n} m_i, redrawn until every |m_i| ≥ 0.05 (paper 001 gives
 *  no distribution; one agent gets m_1 = 0). */
Eigen::VectorXd paper001PlCoefficients(int agents, Rng &rng);

ProblemEntry nonconvexLogisticProblemEntry();
ProblemEntry nonconvexPlProblemEntry();

} // namespace dplab
