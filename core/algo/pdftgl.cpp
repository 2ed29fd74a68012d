// SPDX-License-Identifier: GPL-3.0-or-later
//
// PD-FTGL, paper 002 Algorithm 1 (Wang, Yang, Yao, Song, Wan, ICML 2025): blocks of L rounds,
// a block-decoupled accelerated gossip of each block's gradient sums during the next block, one
// PrivateSum tree per learner over the gossiped sums, and one projection per block (eq. (6)).
// The machinery lives in privateonline.{h,cpp}.
#include "algo/privateonline.h"
#include "dplab/algo/builtin.h"

namespace dplab {

AlgorithmDescriptor describePdFtgl()
{
    using namespace privateonline;
    auto d = describeBlockedLearner(
        Variant::Ftgl, "pd-ftgl", "PD-FTGL (private decentralized FTGL)", "Algorithm 1",
        "Rounds are grouped in blocks of L; each learner plays one decision per block. During block z "
        "the learners run L accelerated-gossip steps (θ of eq. (7), one exchange per round, no noise) "
        "on the previous block's sums d_i(z−1) = Σ(∇f − αx), restarting from them (block-decoupled). "
        "Each learner feeds its gossiped sum to its own binary tree (Algorithm 2: each node noised "
        "once with Lap^d(6√d(G+αR)(2+log₂T)/ε)), and plays x_i(z+1) = Proj_K(−ẑ_i(z)/(α(z−1)L+2h)). "
        "x_i(1) = x_i(2) = 0 (one-block lag). (ε, 0)-DP over all T rounds; regret "
        "Õ(n(ρ^{−1/4} + ε^{−1}ρ^{1/4})√T) (convex), Õ(n(ρ^{−1/2} + ε^{−1})) (strongly convex).");
    auto block = intParam("block", "Block size L", 0, 0, 100000000,
                          "Rounds per block = accelerated-gossip steps. 0 = eq. (7): "
                          "⌈4 ln(nT√(14n))/√ρ⌉ (smaller values weaken the gossip accuracy the privacy "
                          "proof needs).");
    block.unit = "rounds";
    const ParamSpec hScale =
        hScaleParam("G√(14LT(2 + log₂T))/R (α = 0, Cor. 3.7) or αL (α > 0, Cor. 3.8).");
    d.params = {block,        hScale,          alphaParam(), clipBoundParam(), lipschitzParam(),
                thetaParam(), constraintParam(), radiusParam()};
    d.theory.push_back(powerRate("regret", 0.5, "O(√T)", "paper 002, Corollary 3.7 (convex)"));
    return d;
}

} // namespace dplab
