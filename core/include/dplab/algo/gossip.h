// SPDX-License-Identifier: GPL-3.0-or-later
//
// Accelerated gossip (Liu & Morse 2011; Ye et al. 2023, Prop. 1), as used block-decoupled by
// paper 002 (Wang et al., ICML 2025), eq. (5) with the index typo fixed:
//
//     d_i^{k+1} = (1+θ) Σ_j P_ij d_j^k − θ d_i^{k−1},      d_i^0 = d_i^{−1} = d_i,
//
// i.e. in matrix form H^{k+1} = (1+θ) P H^k − θ H^{k−1} with H^{−1} = H^0 (paper eq. (28)).
// Row i of H is agent i's vector. The recurrence is linear, so H^k = p_k(P) H^0 for a matrix
// polynomial p_k with p_k(1) = 1: the network mean is kept exactly when P is doubly stochastic.
// θ = 0 is plain gossip H^{k+1} = P H^k.
//
// "Block-decoupled": each call to start() restarts the recurrence from a fresh H^0, so nothing
// carries over from one gossiped block to the next.
//
// Threading: an AcceleratedGossip is owned by one algorithm instance; not thread-safe. The free
// functions are pure.
#pragma once

#include "dplab/algo/mixing.h"

#include <Eigen/Core>

namespace dplab {

/** Which momentum coefficient θ the accelerated gossip uses. */
enum class GossipTheta {
    Paper,     ///< θ = 1/(1 + √(1 − σ₂²)), paper 002 eq. (7) (the default)
    Chebyshev, ///< θ* = (1 − s)/(1 + s), s = √(1 − σ₂²): the asymptotically optimal heavy-ball value
    Plain      ///< θ = 0: plain gossip H^{k+1} = P H^k
};

/** Spectral facts of a gossip matrix P the accelerated gossip needs. */
struct GossipSpectrum {
    double sigma2 = 0.0; ///< second largest singular value σ₂(P)
    double rho = 1.0;    ///< spectral gap 1 − σ₂(P)
};

/** σ₂(P) and ρ = 1 − σ₂(P). For symmetric P the singular values are the |eigenvalues|
 *  (SelfAdjointEigenSolver, O(n³)); otherwise a JacobiSVD is used. REQUIRES: P square, n ≥ 1
 *  (n = 1 gives σ₂ = 0). */
GossipSpectrum gossipSpectrum(const Eigen::Ref<const Eigen::MatrixXd> &p);

/** θ for σ₂ = sigma2 under `rule` (see GossipTheta). REQUIRES: 0 ≤ sigma2 ≤ 1. */
double gossipTheta(double sigma2, GossipTheta rule);

/** The number of gossip steps of paper 002 eq. (7)/(10):
 *  L = ⌈4 ln(n T √(14 n)) / √ρ⌉. REQUIRES: n ≥ 1, T ≥ 1, rho > 0. */
long long acceleratedGossipSteps(int n, long long horizon, double rho);

/** p_k(P) with H^k = p_k(P) H^0 for the recurrence above (k ≥ 0). Dense, O(k n³) — for
 *  analysis, accountants and tests, not for the hot loop. */
Eigen::MatrixXd gossipPolynomial(const Eigen::Ref<const Eigen::MatrixXd> &p, double theta, long long steps);

/** ‖p_k(P) − 11ᵀ/n‖₂: the worst-case contraction of the deviation from the mean after k steps,
 *  ‖H^k − H̄‖_F ≤ factor · ‖H^0 − H̄‖_F. For symmetric P it is max over the eigenvalues λ ≠ the
 *  eigenvalue 1 of the Perron vector of |p_k(λ)| (scalar recurrence, O(n³ + n k)); otherwise the
 *  spectral norm of the dense polynomial. */
double gossipContraction(const Eigen::Ref<const Eigen::MatrixXd> &p, double theta, long long steps);

/** The recurrence on an n×d state, one step per call. The mixing uses a Mixer so that each
 *  agent combines its own exact iterate with what its neighbours sent. */
class AcceleratedGossip
{
public:
    AcceleratedGossip() = default;
    /** A gossip over P (n×n, doubly stochastic) with coefficient theta, for d-vectors. */
    AcceleratedGossip(const Eigen::MatrixXd &p, double theta, int d);

    /** Restarts from H^0 = H^{−1} = h0 (n×d); k = 0. */
    void start(const Eigen::Ref<const Eigen::MatrixXd> &h0);
    /** One step with exact messages: H^{k+1} = (1+θ) P H^k − θ H^{k−1}. */
    void step();
    /** One step where agent j's neighbours received sent.row(j) in place of H^k.row(j) (the
     *  agent's own term stays exact): H^{k+1}_i = (1+θ)(P_ii H^k_i + Σ_{j≠i} P_ij sent_j) − θ H^{k−1}_i. */
    void step(const Eigen::Ref<const Eigen::MatrixXd> &sent);

    /** H^k, the current iterates (row i = agent i). */
    const Eigen::MatrixXd &current() const { return mCurrent; }
    /** Steps done since the last start(). */
    long long steps() const { return mSteps; }
    double theta() const { return mTheta; }

private:
    Mixer mMixer;
    double mTheta = 0.0;
    long long mSteps = 0;
    Eigen::MatrixXd mCurrent, mPrevious, mNext;
};

} // namespace dplab
