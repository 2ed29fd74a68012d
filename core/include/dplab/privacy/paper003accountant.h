// SPDX-License-Identifier: GPL-3.0-or-later
//
// The privacy accountant of paper 003 (Xuan & Wang, gradient-tracking based DP distributed
// optimization, Theorem 2 eq. (18) and Corollary 3 eq. (23)) for the algorithm `robust-dp-gt`.
//
// Observation model (paper 003 Sec. 3.2): the adversary sees every broadcast
//     m_{i,k} = s_{i,k} + β_k η_{i,k},   n_{i,k} = x_{i,k} + β_k ξ_{i,k},   η, ξ ~ Lap(b_η), Lap(b_ξ)
// for all agents and rounds k = 0, 1, ... . With identical past observations only the changed
// agent i's states differ, and (proof of Theorem 2)
//     Δs_{i,k+1} = w_ii Δs_{i,k} + γ_k Δf_{i,k}
//     Δx_{i,k+1} = w_ii Δx_{i,k} + α (1 − w_ii) Δs_{i,k} − α γ_k Δf_{i,k},    ‖Δf_{i,k}‖₁ ≤ 2√r C,
// so round k ≥ 1 costs
//     ε_{i,k} = D ( S_{i,k} / (β_k b_η) + α X_{i,k} / (β_k b_ξ) ),   D = 2√r C (the sensitivity),
//     S_{i,k} = Σ_{t<k} w_ii^{k−1−t} γ_t,   X_{i,k} = Σ_{t<k} |c_{k,t}| γ_t,
//     c_{k,t} = w_ii^{k−2−t} ((k−t−1) − (k−t) w_ii)   (c_{k,k−1} = −1),
// and round 0 costs nothing. Theorem 2's ε(K) = Σ_{k=1}^{K} ε_{i,k} covers the rounds 0..K.
// Only w_ii enters; the network value is max_i ε_i (the agent with the largest w_ii).
//
// Iteration convention: after T iterations of the algorithm the rounds 0..T−1 have been
// broadcast, so the accountant reports ε_i = (18) with K = T − 1; calibrating for a horizon of
// T iterations therefore uses K = T − 1 as well. Theorem 2 states (18) "given any finite number
// of iterations K"; read with K = T, the bound also charges round T, which is never sent: that
// literal reading is offered as an alternative curve.
//
// Cost: X_{i,k} is evaluated through the signed sum Y_k = Σ_t c_{k,t} γ_t, which obeys
// Y_{k+1} = w Y_k + (1 − w) S_k − γ_k (the Δx recursion), plus twice the few negative terms
// (those with k − t < 1/(1 − w)); O(1/(1 − w)) per round and agent instead of O(k).
//
// Threading: plain functions are thread-safe; an accountant instance is owned by one algorithm.
#pragma once

#include "dplab/common/result.h"
#include "dplab/privacy/accountant.h"
#include "dplab/common/schedule.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace dplab {

/** The quantities eq. (18) depends on (everything else of the run is irrelevant to it). */
struct Paper003PrivacySetup {
    double alpha = 0.0;  ///< constant step α of the x-update
    Schedule gamma = Schedule::constant(1.0); ///< gradient step γ_k
    Schedule beta = Schedule::constant(1.0);  ///< noise factor β_k
    double noiseS = 0.0; ///< Laplace scale b_η of the s-messages (before β_k)
    double noiseX = 0.0; ///< Laplace scale b_ξ of the x-messages (before β_k)
    double sensitivity = 0.0; ///< D = 2√r C, the ℓ1 bound of ‖∇f_i − ∇f'_i‖₁ (eq. 22)
};

/** The ℓ1 sensitivity 2√r C of eq. (22) for dimension r and gradient bound C (‖∇f_i‖₂ ≤ C). */
double gradientSensitivity(int dimension, double gradientBound);

/** ε_i(K) of Theorem 2, eq. (18), for one agent with self-weight w_ii ∈ [0, 1): the rounds
 *  0..K. A zero scale with a nonzero sensitivity gives +inf. Cost O(K / (1 − w_ii)). */
double paper003Epsilon(double selfWeight, const Paper003PrivacySetup &setup, long long K);

/** The network value max_i ε_i(K) over the self-weights diag(W). */
double paper003NetworkEpsilon(const Eigen::Ref<const Eigen::VectorXd> &selfWeights,
                              const Paper003PrivacySetup &setup, long long K);

/** Calibration (ε ∝ 1/b): the common factor c such that scales (c·b_η, c·b_ξ) give
 *  max_i ε_i(K) = targetEpsilon; setup.noiseS and setup.noiseX give the ratio b_ξ/b_η (use
 *  1, 1 for b_η = b_ξ = b; then c is b itself). REQUIRES: targetEpsilon > 0, at least one
 *  scale > 0, and the other scale > 0 whenever its term is nonzero. */
double paper003CalibrationFactor(const Eigen::Ref<const Eigen::VectorXd> &selfWeights,
                                 const Paper003PrivacySetup &setup, long long K,
                                 double targetEpsilon);

/** The Eulerian polynomial P_n(w) = Σ_{j<n} ⟨n, j⟩ w^j (P_0 = 1), which satisfies
 *  Σ_{t≥1} t^n w^t = w P_n(w) / (1 − w)^{n+1}. REQUIRES: 0 ≤ n ≤ 20. */
double eulerianPolynomial(int n, double w);

/** Σ_{k=m+1}^∞ k^{−s} (Hurwitz zeta ζ(s, m+1)) for s > 1, to ~1e-13 relative. */
double zetaTail(double s, long long m);

/** Corollary 3's infinite-horizon bound (23) for γ_k = γ/(m+k)^p, β_k = 1/(m+k)^q:
 *      2√rC γ P_⌈p⌉(w) / (m^p (1 − w)^{⌈p⌉+1}) · ( Σ_{k>m} k^{−(p−q)} / (b_η w^m)
 *                                                  + α Σ_{k>m} k^{−(p−q−1)} / (b_ξ w^{m+1}) )
 *  (the corrected form, which follows the paper's (28)–(29)); with `asPrinted` the first sum
 *  lacks its 1/(b_η w^m) as in the printed (23). An upper bound of lim_K ε_i(K), often loose.
 *  Fails (naming `path`) unless p − q > 2, m is a positive integer, 0 < w < 1 and the scales
 *  are positive. */
Result<double> paper003InfiniteHorizonEpsilon(double selfWeight, double alpha, double gammaScale,
                                              long long m, double p, double q, double noiseS,
                                              double noiseX, double sensitivity,
                                              bool asPrinted = false,
                                              const std::string &path = "privacy");

/** Per-agent cumulative ε of robust-dp-gt, advanced once per iteration. */
class Paper003Accountant final : public PrivacyAccountant
{
public:
    /** `selfWeights` = diag(W). `notes` are appended to assumptions() (e.g. how the scales
     *  were calibrated). */
    Paper003Accountant(const Eigen::Ref<const Eigen::VectorXd> &selfWeights,
                       Paper003PrivacySetup setup, std::vector<std::string> notes = {});

    std::string name() const override { return "paper 003 Theorem 2, eq. (18)"; }
    const Eigen::VectorXd &epsilon() const override { return mEpsilon; }
    std::vector<std::string> assumptions() const override;
    /** (18) with K = T (T = iterations done), one round more than broadcast. */
    std::vector<AlternativeBound> alternatives() const override;

    /** Accounts the broadcast of the iteration just done (rounds 0, 1, 2, ... in turn). */
    void advance();
    /** Rounds accounted so far (= iterations done). */
    long long rounds() const { return mRounds; }
    /** The cost ε_{i,k} of the last accounted round, per agent. */
    const Eigen::VectorXd &lastRoundCost() const { return mLast; }

private:
    /** ε_{i,k} from the current S, Y and γ history (valid for k = rounds()). */
    double roundCost(Eigen::Index i, long long k) const;

    Eigen::VectorXd mWeights;
    Paper003PrivacySetup mSetup;
    std::vector<std::string> mNotes;
    Eigen::VectorXd mEpsilon, mLast, mLiteral;
    Eigen::VectorXd mS; ///< S_{i,k}
    Eigen::VectorXd mY; ///< Y_{i,k} = Σ_t c_{k,t} γ_t (signed)
    std::vector<double> mGamma; ///< ring buffer of the last γ_t (for the negative terms)
    std::vector<std::vector<double>> mNegative; ///< per agent: |c(j)| of the negative c_{k,k−j}
    long long mRounds = 0;
};

} // namespace dplab
