// SPDX-License-Identifier: GPL-3.0-or-later
//
// Shared machinery of paper 002's private decentralized online learners (pd-ftgl, pd-ocg; the
// pieces pd-ogd shares): parameter specs, the feasible set K, gradient clipping, the checks of
// Assumption 3.4, and the blocked learner whose two variants differ only in how the next
// decision is computed.
//
// Private header of core/algo (not part of the public API).
//
// Threading: a BlockedPrivateLearner is one Algorithm instance, used by one thread at a time.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/algo/gossip.h"
#include "dplab/algo/mixing.h"
#include "dplab/privacy/treeaggregation.h"
#include "dplab/problem/constraints.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace dplab::privateonline {

// --- parameter specs shared by pd-ftgl, pd-ocg and pd-ogd ------------------------------------

/** "clip" (a bound, JSON key "clip"): the clipping bound C, 0 = no clipping. Not the clip switch
 *  of the paper-003 algorithms (dpcommon.h). */
ParamSpec clipBoundParam();
ParamSpec lipschitzParam();
ParamSpec constraintParam();
ParamSpec radiusParam();
ParamSpec alphaParam();
ParamSpec thetaParam();
/** "h_scale", the multiplier on the regulariser h; `theoreticalH` is the algorithm's formula
 *  for h, with its source, ending the help text. */
ParamSpec hScaleParam(const std::string &theoreticalH);
ParamSpec epsilonParam();
ParamSpec noiseParam();

/** K from the "constraint"/"radius" params: the problem's own set ("problem", R^d when it has
 *  none), or an ℓ2 ball / box [−r, r]^d / R^d of radius r. Errors name "params.constraint". */
Result<std::shared_ptr<const ConstraintSet>> resolveConstraint(const RunContext &ctx);

/** Warnings for the parts of Assumption 3.4 that P violates (symmetric, doubly stochastic, PSD,
 *  σ₂ < 1). Empty when P satisfies it. */
std::vector<std::string> checkGossipMatrix(const Eigen::MatrixXd &p);

/** The two paper-002 algorithms that share Algorithm 1's structure. */
enum class Variant {
    Ftgl, ///< Algorithm 1: projection once per block
    Ocg   ///< Algorithm 3: L Frank–Wolfe steps per block, L' gossip steps
};

/** Algorithm 1 / Algorithm 3 of paper 002 for all learners at once (rows = learners).
 *
 *  Round t (0-based iteration; paper round t+1) lies in block z = ⌊t/L⌋ + 1 at position
 *  k = t mod L. Every round each learner plays X.row(i), queries its (clipped) gradient and adds
 *  ∇f − αx to its block sum; from block 2 on, the first `gossipSteps` rounds of each block run
 *  one accelerated-gossip step on the previous block's sums (one message per learner). At the
 *  end of block z ≥ 2 each learner feeds its gossiped sum w_i(z−1) to its own PrivateSum tree
 *  and gets ẑ_i(z); the gossip restarts on block z's sums (block-decoupled). Then
 *    FTGL: x_i(z+1) = Proj_K(−ẑ_i(z) / (α(z−1)L + 2h))                                   (6)
 *    OCG : x_i(z+1) = CG(K, L, F_{z,i}, x_i(z)), F_{z,i}(x) = ⟨ẑ_i(z−1), x⟩ + (α(z−2)L+2h)/2 ‖x‖²,
 *          one Frank–Wolfe step with exact line search per round of block z                (9)
 *  Rounds after the last full block (when L does not divide T) keep playing the last decision;
 *  their gradients are never used. */
class BlockedPrivateLearner : public AccountedAlgorithm<TreeAccountant>
{
public:
    explicit BlockedPrivateLearner(Variant variant) : mVariant(variant) {}

    Status start(const RunContext &ctx) override;
    void iterate(long long t, std::vector<Message> *record) override;
    const Eigen::MatrixXd &decisions() const override { return mX; }
    /** "zhat" (ẑ, n×d), "leaf" (last w_i(z−1) fed to the trees), "block_sum" (d_i of the current
     *  block), "gossip" (H^k of the running gossip), "cg" (PD-OCG's Frank–Wolfe iterate),
     *  "counters" (1×4: blocks completed, gossip steps, projections per learner, linear
     *  minimizations per learner). */
    const Eigen::MatrixXd *state(const std::string &name) const override;

    long long blockSize() const { return mBlock; }
    long long gossipSteps() const { return mGossipSteps; }
    double h() const { return mH; }
    double noiseScale() const { return mNoiseScale; }
    double theta() const { return mTheta; }
    const GossipSpectrum &spectrum() const { return mSpectrum; }
    const PrivateSum &tree(int i) const { return mTrees[i]; }

private:
    /** K from the parameters (bounded, Assumption 3.1) and its radius R. */
    Status resolveFeasibleSet(const RunContext &ctx);
    /** The gossip's spectrum and θ, the block size L and the gossip steps L' (warnings where they
     *  miss eq. (7)/(10)), and the blocks that fit in T. */
    Status chooseBlocks(const RunContext &ctx);
    /** h = h_scale × the theoretical h of the variant's corollaries. */
    Status chooseRegulariser(const RunContext &ctx);
    /** One tree per learner at the Laplace scale of Theorems 3.6 / 3.9, and the accountant. */
    void setUpPrivacy(const RunContext &ctx);
    /** x_i(1) = 0 and the sums, buffers, gossip and channel of a fresh run. */
    void resetState(const RunContext &ctx);
    void endOfBlock(long long z);
    void frankWolfeStep(long long z);

    Variant mVariant;
    std::shared_ptr<const ConstraintSet> mSet;
    int mN = 0, mD = 0;
    long long mHorizon = 0, mBlock = 1, mGossipSteps = 0, mFullBlocks = 0;
    double mAlpha = 0.0, mClipBound = 0.0, mG = 1.0, mR = 1.0, mH = 1.0, mTheta = 0.0;
    double mNoiseScale = 0.0;
    GossipSpectrum mSpectrum;
    AcceleratedGossip mGossip;
    Broadcast mChannel;
    std::vector<PrivateSum> mTrees;
    Eigen::MatrixXd mX, mY, mGrad, mBlockSum, mZhat, mLeaf, mCounters;
    Eigen::VectorXd mScale, mRow, mDirection;
    long long mBlocksDone = 0, mGossipDone = 0, mProjections = 0, mLinearMinimizations = 0;
};

/** The descriptor of paper 002's learner `variant`, `algorithm` of the paper ("Algorithm 1"), with
 *  the fields pd-ftgl and pd-ocg share: the paper's reference, an undirected graph with a doubly
 *  stochastic W, an online problem, no compressor, the privacy parameters ε and noise. */
AlgorithmDescriptor describeBlockedLearner(Variant variant, const std::string &id, const std::string &name,
                                           const std::string &algorithm, const std::string &summary);

} // namespace dplab::privateonline
