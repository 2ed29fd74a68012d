// SPDX-License-Identifier: GPL-3.0-or-later
//
// Privacy accountant for the DiaDSP baseline (Ding, Zhu, He, Chen, Guan, IEEE TAC 2021; the
// uncompressed form of paper 001 eqs. (8)–(11)) as implemented by the algorithm `diadsp`, by the
// observation-sensitivity argument of paper 003 Proposition 1.
//
// Observation model: every round k the adversary sees x^a_i = x_i + ξ_x and y^a_i = y_i + ξ_y,
// ξ_x ~ Lap(s_x(k))^r, ξ_y ~ Lap(s_y(k))^r. The agent mixes only the noisy values
// (Σ_j w_ij x^a_j, own included, paper 001 eqs. (10)–(11)), so with identical past observations
//     Δx_{k+1} = −η_k Δy_k,   Δy_{k+1} = Δg_{k+1} − Δg_k,   Δy_0 = Δg_0,   Δx_0 = 0,
// with Δg_k = ∇f_i(x_k) − ∇f'_i(x'_k), ‖Δg_k‖₁ ≤ D = 2√r C. Hence the per-round ℓ1 bounds
//     Δy_0 = D,  Δy_k = 2D (k ≥ 1);   Δx_0 = 0,  Δx_1 = η_0 D,  Δx_k = 2 η_{k−1} D (k ≥ 2),
// and ε(K) = Σ_{k=0}^{K} (Δx_k / s_x(k) + Δy_k / s_y(k))  (the rounds 0..K).
// Paper 001 Theorem 3 bounds the same sum by 4√d M Σ_k (√η / (s_x q^k) + 1/(s_y q^k)); with η
// in place of its √η (the x-shift above, Δx_{k+1} = −η_k Δy_k, is linear in η) it is this sum
// with Δy_0 and Δx_1 rounded up to 2D and 2ηD. With s q^k noise the budget grows like q^{−K}:
// it is only finite for a finite horizon.
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

struct DiaDspPrivacySetup {
    Schedule stepsize = Schedule::constant(0.0); ///< η_k (constant η in the paper)
    Schedule noiseX = Schedule::constant(0.0);   ///< Laplace scale s_x(k) of the broadcast x
    Schedule noiseY = Schedule::constant(0.0);   ///< Laplace scale s_y(k) of the broadcast y
    double sensitivity = 0.0;                    ///< D = 2√r C

    /** The cost of round k alone: Δx_k / s_x(k) + Δy_k / s_y(k). */
    double roundEpsilon(long long k) const;
    /** "Laplace noise drawn once per message: x scale s_x(k), y scale s_y(k)". */
    std::string noiseDescription() const;
    static constexpr const char *boundHoldsOn = "the iterates";
    static constexpr const char *argument = " with Δx_{k+1} = −η Δy_k, Δy_{k+1} = Δg_{k+1} − Δg_k "
                                            "(the agent mixes only noisy values)";
    static std::string accountantName() { return "DiaDSP, observation sensitivity (x: 2ηD, y: 2D)"; }
};

/** ε(K) = Σ_{k=0}^{K} of the round costs (roundSumEpsilon), and the factor c such that the
 *  noises c·s_x(k), c·s_y(k) give ε(K) = a target (roundSumCalibrationFactor). */
using DiaDspAccountant = RoundSumAccountantOf<DiaDspPrivacySetup>;

} // namespace dplab
