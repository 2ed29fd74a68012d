// SPDX-License-Identifier: GPL-3.0-or-later
//
// Privacy accountant for the two weakening-factor baselines of paper 000 that DPLab reconstructs
// (algorithms `chen-wang-48` and `wang-nedic-47-static`; their update rules are reconstructed from
// paper 000's description, not read in the original papers). Both share one noisy variable θ over
// an undirected graph, W symmetric with self-coupling |w_ii| = 1 − W_ii:
//     θ_{t+1,i} = θ_{t,i} + γ_t Σ_{j≠i} W_ij ((θ_{t,j} + ϑ_{t,j}) − θ_{t,i}) − λ_t g_{t,i},
// ϑ_{t,i} ~ Lap(ν^i (t+1)^(−ς^i)) per element. By the coupling argument of paper 000 Lemma 10
// (received messages held fixed) the ℓ1 distance Δ_t between the changed agent's two states obeys
//   Crude  (offline adjacency: the whole f_i changes, ‖∇f_i − ∇f'_i‖_1 ≤ 2 c_l):
//       Δ_{t+1} = (1 − γ_t |w_ii|) Δ_t + 2 c_l λ_t
//   Online (event-level adjacency on the cumulative-average stream of paper 000, one sample
//           differs, so the gradient difference is 2 c_l/(t+1) plus the Lipschitz drift):
//       Δ_{t+1} = min{ crude , (1 − γ_t|w_ii| + √n L λ_t t/(t+1)) Δ_t + 2 c_l λ_t/(t+1) }
// from Δ_0 = 0, and ε_i after T iterations = Σ_{t=1}^{T−1} Δ_t / ν_t (the messages of iterations
// 0..T−1; θ_0 carries no data) — DPLab's time convention.
//
// The crude recursion DIVERGES as T → ∞ under any schedule that converges (Σλ = ∞ with
// Σγ²ν² < ∞ forces Σ λ/(γν) = ∞): the reconstructed [47] has no finite budget, although [47]
// claims one by an argument that could not be read. The online recursion decays like
// λ_t/(γ_t (t+1)), so [48]'s ε is finite when v − u + ς > 0.
//
// Threading: an accountant instance is owned by one algorithm; the free function is pure.
#pragma once

#include "dplab/privacy/accountant.h"
#include "dplab/common/schedule.h"

#include <Eigen/Core>

#include <limits>
#include <string>
#include <vector>

namespace dplab {

struct WeakenedConsensusPrivacySetup {
    double gradientBound = 0.0; ///< c_l: ‖∇l‖_1 ≤ c_l per sample (hence per average gradient)
    /** L (‖∇l(θ₁) − ∇l(θ₂)‖₂ ≤ L‖θ₁ − θ₂‖₂); only the online recursion uses it (+inf = crude). */
    double lipschitz = std::numeric_limits<double>::infinity();
    int dimension = 1;           ///< n, the dimension of θ
    bool online = false;         ///< event-level adjacency with the 1/(t+1) branch ([48])
    Schedule stepsize = Schedule::constant(0.0);  ///< λ_t
    Schedule weakening = Schedule::constant(1.0); ///< γ_t
    Eigen::VectorXd selfCoupling; ///< |w_ii| = 1 − W_ii per agent
    Eigen::VectorXd nu;           ///< ν^i, the Laplace scale at t = 0
    Eigen::VectorXd decay;        ///< ς^i: the scale at t is ν^i (t+1)^(−ς^i)
};

class WeakenedConsensusAccountant final : public PrivacyAccountant
{
public:
    WeakenedConsensusAccountant(WeakenedConsensusPrivacySetup setup, std::string name,
                                std::vector<std::string> notes = {});
    std::string name() const override { return mName; }
    const Eigen::VectorXd &epsilon() const override { return mEpsilon; }
    std::vector<std::string> assumptions() const override;
    /** Accounts the broadcast of iteration t = steps() (its Δ_t at scale ν (t+1)^(−ς)). */
    void advance();
    long long steps() const { return mSteps; }
    const Eigen::VectorXd &sensitivity() const { return mDelta; }

private:
    WeakenedConsensusPrivacySetup mSetup;
    std::string mName;
    std::vector<std::string> mNotes;
    Eigen::VectorXd mDelta, mEpsilon;
    long long mSteps = 0;
};

/** Per-agent ε_i after `horizon` iterations (offline, for calibration). */
Eigen::VectorXd weakenedConsensusEpsilon(const WeakenedConsensusPrivacySetup &setup, long long horizon);

} // namespace dplab
