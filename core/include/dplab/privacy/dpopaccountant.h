// SPDX-License-Identifier: GPL-3.0-or-later
//
// Privacy accountant for the DPOP baseline (Huang, Mitra, Vaidya 2015) as implemented by the
// algorithm `dpop`, by the observation-sensitivity argument of paper 003 Proposition 1.
//
// Observation model: every round k the adversary sees each agent's broadcast
//     w_i(k) = x_i(k) + η_i(k),   η_i(k) ~ Lap(M_k)^r.
// In `dpop` agent i mixes only received (noisy) values, v_i(k) = Σ_j W_ij w_j(k) with its own
// noisy w_i(k) included, then x_i(k+1) = Π_X(v_i(k) − γ_k ∇f_i(v_i(k))). With identical past
// observations v_i(k) is identical for adjacent problems, so only the gradient step differs:
//     ‖Δx_i(k+1)‖₁ ≤ γ_k ‖∇f_i(v) − ∇f'_i(v)‖₁ ≤ γ_k · 2√r C
// (the box projection is coordinate-wise non-expansive; without projection trivially). Hence
//     ε(K) = Σ_{k=1}^{K} 2√r C γ_{k−1} / M_k        (rounds 0..K; round 0 costs nothing).
// For γ_k = c q^k and M_k = M p^k (0 < q < p) this tends to 2√r C c / (M (p − q)).
// The same value holds for every agent (the weights do not enter).
//
// Iteration convention (as in paper003accountant.h): after T iterations the rounds 0..T−1
// have been broadcast and the accountant reports ε(T − 1).
//
// Threading: plain functions are thread-safe; an accountant instance is owned by one algorithm.
#pragma once

#include "dplab/privacy/roundsumaccountant.h"
#include "dplab/common/schedule.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace dplab {

struct DpopPrivacySetup {
    Schedule stepsize = Schedule::constant(0.0); ///< γ_k
    Schedule noise = Schedule::constant(0.0);    ///< Laplace scale M_k of the broadcast x
    double sensitivity = 0.0;                    ///< 2√r C

    /** The cost of round k alone: D γ_{k−1} / M_k; round 0 costs nothing (x(0) does not depend
     *  on f_i). */
    double roundEpsilon(long long k) const;
    /** "Laplace noise of scale M_k drawn once per message; step γ_k". */
    std::string noiseDescription() const;
    static constexpr const char *boundHoldsOn = "the mixed points v_i";
    static constexpr const char *argument = ": every agent mixes only broadcast values, so its next "
                                            "state differs only through γ_k ∇f_i";
    static std::string accountantName() { return "DPOP, observation sensitivity 2√r C γ_{k−1}"; }
};

/** ε(K) = Σ_{k=1}^{K} D γ_{k−1} / M_k (roundSumEpsilon, the rounds 0..K), and the factor c such
 *  that the noise c·M_k gives ε(K) = a target (roundSumCalibrationFactor, ε ∝ 1/c). */
using DpopAccountant = RoundSumAccountantOf<DpopPrivacySetup>;

} // namespace dplab
