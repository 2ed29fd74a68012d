// SPDX-License-Identifier: GPL-3.0-or-later
//
// Baseline [48] of paper 000: Z. Chen and Y. Wang, "Locally differentially private distributed
// online learning with guaranteed optimality", IEEE TAC 2025 — RECONSTRUCTED FROM PAPER 000'S
// DESCRIPTION, NOT FROM THE ORIGINAL PAPER (its text was not available). What paper 000 states:
// undirected graphs, one weakening factor γ_t = (t+1)^(−0.7), LDP per learner, a finite budget
// on the infinite horizon, the same online data model. The update is in weakenedconsensus.h;
// the accountant (event-level coupling bound, finite when v − u + ς > 0) in
// privacy/weakenedaccountant.h.
#include "algo/weakenedconsensus.h"
#include "dplab/algo/builtin.h"

namespace dplab {

AlgorithmDescriptor describeChenWang48()
{
    return weakened::describe({
        .variant = weakened::Variant::ChenWang48,
        .id = "chen-wang-48",
        .name = "[48] LDP online consensus (reconstructed)",
        .reference = "Z. Chen and Y. Wang, Locally differentially private distributed online learning "
                     "with guaranteed optimality, IEEE TAC 2025 (ref. [48] of paper 000)",
        .summary =
            "Each learner shares θ_i plus Laplace noise and moves θ_i ← θ_i + γ_t Σ_j W_ij((θ_j + "
            "ϑ_j) − θ_i) − λ_t ∇f_{t,i}(θ_i): a weakening factor γ_t = (t+1)^(−0.7) (paper 000's "
            "value) damps the noisy coupling so the noise averages out, at the price of slower "
            "consensus. Privacy: local DP per learner with event-level adjacency; the derived "
            "sensitivity decays like λ_t/(γ_t (t+1)), so ε stays finite when the step decays faster "
            "than the weakening factor.",
        .stepExponent = 0.9,
        .weakeningExponent = 0.7,
        .weakeningHelp = "γ_t multiplies the neighbour coupling only; paper 000 uses (t+1)^(−0.7) "
                         "'in line with the guidelines in [48]'."});
}

} // namespace dplab
