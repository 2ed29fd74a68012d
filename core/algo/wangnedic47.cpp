// SPDX-License-Identifier: GPL-3.0-or-later
//
// Baseline [47] of paper 000, its static-consensus method (Algorithm 1): Y. Wang and A. Nedić,
// "Tailoring gradient methods for differentially private distributed optimization", IEEE TAC
// 2023 — RECONSTRUCTED FROM PAPER 000'S DESCRIPTION, NOT FROM THE ORIGINAL PAPER (its text was
// not available; [47]'s gradient-tracking method, the one paper 000 actually compares with, is
// not implemented). [47] is offline and centralized DP; on an online problem it uses the same
// gradient as every other algorithm (the problem's gradient at t). The one weakening factor sits
// on the x coupling with paper 000's γ_1 = (t+1)^(−0.95) (the default docs/paper000-results.md
// §9 states), so the step must decay faster than (1+u)/2 = 0.975: v = 0.98.
//
// Privacy: the derived coupling bound (crude recursion, privacy/weakenedaccountant.h) DIVERGES
// as the horizon grows for every schedule under which the method converges, so no finite ε on
// the infinite horizon is claimed (the paper claims one by an argument not recovered); a target
// ε is a finite-horizon calibration only.
#include "algo/weakenedconsensus.h"
#include "dplab/algo/builtin.h"

namespace dplab {

AlgorithmDescriptor describeWangNedic47Static()
{
    return weakened::describe({
        .variant = weakened::Variant::WangNedic47,
        .id = "wang-nedic-47-static",
        .name = "[47] DP static consensus (reconstructed)",
        .reference = "Y. Wang and A. Nedić, Tailoring gradient methods for differentially private "
                     "distributed optimization, IEEE TAC 2023 (ref. [47] of paper 000), Algorithm 1",
        .summary =
            "Static-consensus gradient method with one shared variable: x_i ← x_i + γ_k Σ_j "
            "W_ij((x_j + ζ_j) − x_i) − λ_k ∇f_i(x_i), a weakening factor γ_k = (k+1)^(−0.95) on the "
            "noisy coupling, Laplace noise of one network-wide scale (centralized DP). The ε shown "
            "is a derived coupling bound that grows without limit in the horizon (no finite ε as "
            "k → ∞ is claimed here, although [47] claims one by an argument not available to "
            "DPLab).",
        .stepExponent = 0.98,
        .weakeningExponent = 0.95,
        .weakeningHelp = "γ_k multiplies the neighbour coupling only; paper 000 gives [47]'s factors "
                         "γ_1 = (t+1)^(−0.95), γ_2 = (t+1)^(−0.75) without saying which coupling "
                         "each weakens — here γ_1 on the x coupling, the only one of the static "
                         "method."});
}

} // namespace dplab
