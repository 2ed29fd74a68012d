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
#include <string>

namespace dplab::weakened {

enum class Variant {
    ChenWang48,  ///< online LDP, per-agent ε, event-level adjacency (finite ε possible)
    WangNedic47  ///< offline centralized DP, one noise scale for the network (ε diverges in T)
};

/** What tells the two baselines apart in the registry. */
struct Baseline {
    Variant variant = Variant::ChenWang48;
    std::string id;
    std::string name;
    std::string reference; ///< the original paper, before " — reconstructed from paper 000's description, …"
    std::string summary;   ///< after "Reconstructed from paper 000's description, …. "
    double stepExponent = 1.0;      ///< v of the default λ_t = (t+1)^(−v)
    double weakeningExponent = 1.0; ///< u of the default γ_t = (t+1)^(−u)
    std::string weakeningHelp;      ///< the help of "weakening"
};

/** The baseline's descriptor: both say they are reconstructed, run on an undirected graph with a
 *  doubly stochastic W and share their parameters (stepsize λ_t, weakening γ_t; noise_theta,
 *  noise_theta_decay, gradient_bound, lipschitz (online only), epsilon) up to the defaults. */
AlgorithmDescriptor describe(const Baseline &baseline);

} // namespace dplab::weakened
