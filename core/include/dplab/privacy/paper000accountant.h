// SPDX-License-Identifier: GPL-3.0-or-later
//
// The privacy accountant of paper 000 (Chen & Wang, LDP gradient tracking for distributed online
// learning over directed graphs), Theorem 3 and Lemma 10: learner i adds Laplace noise of scale
// ν^i_{t,ζ} = ν^i_ζ (t+1)^(−ς^i_ζ) to its shared s_t and ν^i_{t,ϑ} = ν^i_ϑ (t+1)^(−ς^i_ϑ) to its
// shared θ_t, element-wise, and is ε_i-LDP with
//
//     ε_i(T) = Σ_{t=1}^{T} ( Δ^i_{t,s} / ν^i_{t,ζ} + Δ^i_{t,θ} / ν^i_{t,ϑ} )          (Lemma 10)
//
// where Δ are ℓ1 sensitivities of the shared variables (Definition 3; event-level adjacency, the
// neighbours' messages held fixed). Two sensitivity bounds are iterated from Δ_0 = 0, with the
// paper's c_C = min_i |C_ii|, c_R = min_i |R_ii| of its Laplacian-like matrices — in terms of the
// stochastic matrices DPLab uses, c_C = min_i (1 − C_ii), c_R = min_i (1 − R_ii):
//
//   FiniteT  (Theorem 3-1; eqs. (15)–(18); privacy.accountant "finite-t"):
//       ϱ_{t+1,s} = (1 − c_C) ϱ_{t,s} + 2 c_l λ_t
//       ϱ_{t+1,θ} = (1 − c_R) ϱ_{t,θ} + κ^i_t (ϱ_{t+1,s} + ϱ_{t,s})
//     Valid for every T but grows without bound (≈ T^{1+ς−v}).
//   Iterated (Theorem 3-2's inequalities iterated numerically; eq. (19); "iterated"):
//       Δ_{t+1,s} = min{ (1 − c_C)Δ_{t,s} + 2 c_l λ_t ,
//                        (1 − c_C)Δ_{t,s} + √n L (t/(t+1)) λ_t Δ_{t,θ} + 2 c_l λ_t/(t+1) }
//       Δ_{t+1,θ} = (1 − c_R) Δ_{t,θ} + κ^i_t (Δ_{t+1,s} + Δ_{t,s})
//     Both branches are valid bounds and the recursion is monotone, so the min is one too; once
//     the Lipschitz branch wins the terms decay like t^{−(1+v−ς)} and ε saturates (Theorem 3-2).
//
// κ^i_t = 1/(m [z_t^i]_i) is used EXACTLY (z is deterministic: the rows of z_t are R^t), where
// the paper bounds it by c_z γ_z^t + 1/u_i (Lemma 3) with constants it does not give. Theorem
// 3-2's closed form (C_0, C_4, T_0; spec option B) is not computed.
//
// Indexing (the time convention of every DPLab accountant): after advance() has been called k
// times, ε_i covers the messages of iterations 0..k−1, i.e. Lemma 10's sum over t = 1..k−1 (the
// messages s_0, θ_0 carry no data, Δ_0 = 0). The paper's ε_i(T) with T = k — which also charges
// the messages s_k, θ_k of the NEXT iteration — is kept as literalOf() and offered as an
// alternative curve ("as printed").
//
// Remark 13: every ε_i scales as 1/ν^i when ν^i_ζ and ν^i_ϑ are scaled together, which gives the
// calibration below.
//
// Threading: an accountant is owned by one algorithm; not thread-safe. The free functions are pure.
#pragma once

#include "dplab/privacy/accountant.h"
#include "dplab/common/schedule.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <limits>
#include <string>
#include <vector>

namespace dplab {

/** Which of the two bounds an accountant's epsilon() reports (both are always computed). */
enum class Paper000Bound {
    FiniteT, ///< Theorem 3-1, literal; grows without bound (docs/paper000.md)
    Iterated ///< iterated min of the crude and Lipschitz sensitivity bounds; saturates
};

/** "finite-t" / "iterated" (the JSON values of ldp-gt's privacy.accountant). */
const char *paper000BoundId(Paper000Bound bound);

/** What the accountant needs. Learner vectors all have length m. */
struct Paper000PrivacySetup {
    double gradientBound = 0.0; ///< c_l of Assumption 5: ‖∇l(θ, ξ)‖_1 ≤ c_l. REQUIRES: > 0
    /** L of Assumption 3(iii) (‖∇l(θ₁) − ∇l(θ₂)‖₂ ≤ L‖θ₁ − θ₂‖₂); +inf disables the Lipschitz
     *  branch (then Iterated equals FiniteT). */
    double lipschitz = std::numeric_limits<double>::infinity();
    int dimension = 1;   ///< n, the dimension of θ
    double cC = 0.0;     ///< min_i (1 − C_ii) of the column-stochastic C (the paper's min |C_ii|)
    double cR = 0.0;     ///< min_i (1 − R_ii) of the row-stochastic R
    Schedule stepsize;   ///< λ_t
    Eigen::VectorXd nuS;        ///< ν^i_ζ: base Laplace scale of the noise on s
    Eigen::VectorXd decayS;     ///< ς^i_ζ
    Eigen::VectorXd nuTheta;    ///< ν^i_ϑ: base Laplace scale of the noise on θ
    Eigen::VectorXd decayTheta; ///< ς^i_ϑ

    int agents() const { return static_cast<int>(nuS.size()); }
    /** Sets cC and cR from the stochastic matrices R (row) and C (column). */
    void setWeights(const Eigen::MatrixXd &R, const Eigen::MatrixXd &C);
};

class Paper000Accountant : public PrivacyAccountant
{
public:
    Paper000Accountant(Paper000PrivacySetup setup, Paper000Bound bound);

    std::string name() const override;
    /** Per-learner ε_i(T) of the selected bound; +inf for a learner whose ν is 0. */
    const Eigen::VectorXd &epsilon() const override;
    std::vector<std::string> assumptions() const override;
    /** The bound not selected (option A next to C, or C next to A). */
    std::vector<AlternativeBound> alternatives() const override;

    /** Accounts one more iteration: kappa(i) = κ^i_t = 1/(m [z_t^i]_i) of the iteration t just
     *  done (t = steps() before the call). Cost O(m). */
    void advance(const Eigen::Ref<const Eigen::VectorXd> &kappa);

    long long steps() const { return mSteps; }
    Paper000Bound bound() const { return mBound; }
    const Paper000PrivacySetup &setup() const { return mSetup; }
    /** ε_i(T) of the Theorem 3-1 bound (option A) and of the iterated bound (option C). */
    const Eigen::VectorXd &epsilonFiniteT() const { return mEpsFinite; }
    const Eigen::VectorXd &epsilonIterated() const { return mEpsIterated; }
    const Eigen::VectorXd &epsilonOf(Paper000Bound b) const
    {
        return b == Paper000Bound::FiniteT ? mEpsFinite : mEpsIterated;
    }
    /** The paper's ε_i(T) at T = steps() (one round ahead of epsilonOf(): the printed index). */
    const Eigen::VectorXd &literalOf(Paper000Bound b) const
    {
        return b == Paper000Bound::FiniteT ? mLiteralFinite : mLiteralIterated;
    }
    /** The current sensitivity bounds Δ^i_{T,s}, Δ^i_{T,θ} (T = steps()) of a bound. */
    const Eigen::VectorXd &sensitivityS(Paper000Bound b) const
    {
        return b == Paper000Bound::FiniteT ? mRhoS : mDeltaS;
    }
    const Eigen::VectorXd &sensitivityTheta(Paper000Bound b) const
    {
        return b == Paper000Bound::FiniteT ? mRhoTheta : mDeltaTheta;
    }

    static std::string boundName(Paper000Bound bound);

private:
    Paper000PrivacySetup mSetup;
    Paper000Bound mBound;
    long long mSteps = 0;
    Eigen::VectorXd mRhoS, mRhoTheta, mDeltaS, mDeltaTheta;
    Eigen::VectorXd mEpsFinite, mEpsIterated;
    Eigen::VectorXd mLiteralFinite, mLiteralIterated;
};

/** The eigenvector estimator of Algorithm 1 line 8 on its own: Z_0 = I, Z_{t+1} = R Z_t, so the
 *  rows z_t^i form R^t. For offline accounting and calibration. Cost per advance O(nnz(R)·m);
 *  `freeze` stops multiplying once Z changes by less than 1e-15 (κ then moves < 1e-15). */
class EigenvectorEstimator
{
public:
    explicit EigenvectorEstimator(const Eigen::MatrixXd &R, bool freeze = true);
    const Eigen::MatrixXd &z() const { return mZ; }
    /** κ_t(i) = 1 / (m [z_t^i]_i). */
    Eigen::VectorXd kappa() const;
    void advance();

private:
    Eigen::SparseMatrix<double, Eigen::RowMajor> mR;
    Eigen::MatrixXd mZ, mNext;
    bool mFreeze = true;
    bool mFrozen = false;
};

/** Runs the accountant for `horizon` iterations with the exact κ of R; both bounds are in the
 *  result (epsilonFiniteT / epsilonIterated). Cost O(horizon · m) after the estimator freezes. */
Paper000Accountant paper000Account(const Paper000PrivacySetup &setup, const Eigen::MatrixXd &R,
                                   long long horizon, Paper000Bound bound = Paper000Bound::Iterated);

/** Calibration (Remark 13): per-learner factors c_i such that scaling learner i's ν^i_ζ and ν^i_ϑ
 *  by c_i gives ε_i(horizon) = target under `bound`. REQUIRES: target > 0, every ν > 0. */
Eigen::VectorXd paper000NoiseMultipliers(const Paper000PrivacySetup &setup, const Eigen::MatrixXd &R,
                                         long long horizon, double target, Paper000Bound bound);

} // namespace dplab
