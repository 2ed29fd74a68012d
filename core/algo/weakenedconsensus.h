// SPDX-License-Identifier: GPL-3.0-or-later
//
// The static-consensus update with a weakening factor that paper 000 attributes to its baselines
// [48] (Chen & Wang, TAC 2025) and [47] (Wang & Nedić, TAC 2023, Algorithm 1). Paper 000 gives
// only their names, their weakening factors and what they share; the update below is
// RECONSTRUCTED FROM PAPER 000'S DESCRIPTION, NOT FROM THE ORIGINAL PAPERS (whose texts were not
// available): agent i shares θ_i + ϑ_i (Laplace, once per message) and sets
//     θ_i ← θ_i + γ_t Σ_{j≠i} W_ij ((θ_j + ϑ_j) − θ_i) − λ_t ∇f_{t,i}(θ_i)
// (own state noise-free; the weakening factor γ_t multiplies only the coupling). The two files
// chenwang48.cpp and wangnedic47.cpp differ in their defaults and their privacy reading (see
// core/include/dplab/privacy/weakenedaccountant.h). Private to core/algo.
#pragma once

#include "dplab/algo/algorithm.h"

#include <memory>

namespace dplab::weakened {

enum class Variant {
    ChenWang48,  ///< online LDP, per-agent ε, event-level adjacency (finite ε possible)
    WangNedic47  ///< offline centralized DP, one noise scale for the network (ε diverges in T)
};

std::unique_ptr<Algorithm> create(Variant variant);

/** The parameter specs both share (defaults differ): stepsize λ_t, weakening γ_t. */
std::vector<ParamSpec> params(double stepExponent, double weakeningExponent, const std::string &weakeningHelp);
/** noise_theta, noise_theta_decay, gradient_bound, lipschitz (online only), epsilon. */
std::vector<ParamSpec> privacyParams(Variant variant);

} // namespace dplab::weakened
