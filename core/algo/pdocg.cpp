// SPDX-License-Identifier: GPL-3.0-or-later
//
// PD-OCG, paper 002 Algorithm 3: the projection-free variant of PD-FTGL. Blocks of L = √T rounds
// (T^{2/3} ln^{−2/3} T when strongly convex), only the first L' rounds of a block gossip, and the
// next decision is L Frank–Wolfe steps (Algorithm 4, exact line search, warm-started at the
// decision being played) on F_{z,i}(x) = ⟨ẑ_i(z−1), x⟩ + (α(z−2)L + 2h)/2 ‖x‖², one linear
// minimization per round. The machinery lives in privateonline.{h,cpp}.
#include "algo/privateonline.h"
#include "dplab/algo/builtin.h"

namespace dplab {

AlgorithmDescriptor describePdOcg()
{
    using namespace privateonline;
    auto d = describeBlockedLearner(
        Variant::Ocg, "pd-ocg", "PD-OCG (private decentralized online conditional gradient)", "Algorithm 3",
        "Projection-free PD-FTGL: blocks of L = √T rounds; in the first L' rounds of block z the "
        "learners gossip the previous block's sums (L' of eq. (10)); the gossiped sums go into "
        "per-learner private trees as in PD-FTGL; during block z each learner runs one Frank–Wolfe "
        "step per round (linear minimization over K + exact line search) on F_{z,i}(x) = "
        "⟨ẑ_i(z−1), x⟩ + (α(z−2)L+2h)/2‖x‖², warm-started at its current decision, and plays the "
        "result in block z+1. x_i(1) = x_i(2) = x_i(3) = 0. (ε, 0)-DP over all T rounds; regret "
        "Õ(n(T^{3/4} + ε^{−1}T^{1/4})) (convex), Õ(n(T^{2/3} + ε^{−1})) (strongly convex).");
    auto block = intParam("block", "Block size L", 0, 0, 100000000,
                          "Rounds per block = Frank–Wolfe steps per block. 0 = √T rounded "
                          "(T^{2/3} ln^{−2/3} T when α > 0; Corollaries 3.10 / 3.11).");
    block.unit = "rounds";
    auto gossip = intParam("gossip_steps", "Gossip steps L'", 0, 0, 100000000,
                           "Accelerated-gossip steps at the start of each block. 0 = eq. (10): "
                           "⌈4 ln(nT√(14n))/√ρ⌉. Capped at L.");
    gossip.unit = "steps";
    const ParamSpec hScale = hScaleParam("√(15LT)·G/R (α = 0; Appendix I — the main text's "
                                         "√(15LTG/R) is a typo) or αL (α > 0).");
    d.params = {block,          gossip,         hScale,       alphaParam(),    clipBoundParam(),
                lipschitzParam(), thetaParam(), constraintParam(), radiusParam()};
    d.theory.push_back(powerRate("regret", 0.75, "O(T^(3/4))", "paper 002, Corollary 3.10 (convex)"));
    return d;
}

} // namespace dplab
