// SPDX-License-Identifier: GPL-3.0-or-later
#include "algo/privateonline.h"
#include "algo/clipping.h"
#include "dplab/algo/builtin.h"
#include "dplab/common/decomposition.h"
#include "dplab/common/formatnumber.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace dplab::privateonline {

namespace {

} // namespace

// --- parameter specs ----------------------------------------------------------------------

ParamSpec clipBoundParam()
{
    return realParam("clip", "Clipping bound C", 1.0, 0.0, 1e9,
                     "Every queried gradient is clipped to ‖g‖ ≤ C (g / max(1, ‖g‖/C)), and C plays "
                     "the role of the Lipschitz constant G in the noise scale and in h (paper 002 "
                     "§4.1; tuned over {0.01, 0.1, 1, 10}). 0 = no clipping: G is then the "
                     "'lipschitz' parameter and the privacy guarantee holds only if ‖∇f‖ ≤ G.",
                     {.logScale = true});
}

ParamSpec lipschitzParam()
{
    return realParam("lipschitz", "Lipschitz bound G", 1.0, 0.0, 1e9,
                     "Assumed bound G on ‖∇f_{t,i}‖ (Assumption 3.2), used only when clip = 0.",
                     {.minExclusive = true, .logScale = true});
}

ParamSpec constraintParam()
{
    return choiceParam("constraint", "Feasible set K", "problem", {"problem", "l2-ball", "box", "none"},
                       "K of the decisions: the problem's own set ('problem'; e.g. the trace-norm "
                       "ball of the multiclass problem, R^d if it has none), the Euclidean ball of "
                       "radius r, the box [−r, r]^d, or R^d.");
}

ParamSpec radiusParam()
{
    return realParam("radius", "Radius r", 1.0, 0.0, 1e12,
                     "Radius r of the ℓ2 ball or half-width of the box when 'constraint' is "
                     "l2-ball or box.", {.minExclusive = true, .logScale = true});
}

ParamSpec alphaParam()
{
    return realParam("alpha", "Strong convexity α", 0.0, 0.0, 1e9,
                     "Modulus α of Assumption 3.3 (0 = general convex). Enters d_i = Σ(∇f − αx), "
                     "the regulariser α(z−1)L + 2h and, when > 0, h = αL.");
}

ParamSpec thetaParam()
{
    return choiceParam("theta", "Gossip momentum θ", "paper", {"paper", "chebyshev"},
                       "θ of the accelerated gossip: 'paper' = 1/(1 + √(1 − σ₂²)) (eq. (7)), "
                       "'chebyshev' = (1 − s)/(1 + s), s = √(1 − σ₂²) (faster; not the paper's "
                       "choice, the privacy accounting adapts to the measured gossip accuracy).");
}

ParamSpec hScaleParam(const std::string &theoreticalH)
{
    return realParam("h_scale", "h multiplier", 1.0, 0.0, 1e9,
                     "Multiplier on the theoretical regulariser h (the paper tunes it over "
                     "{1e-4, 5e-4, …, 10, 50}). Theoretical h: " + theoreticalH,
                     {.minExclusive = true, .logScale = true});
}

ParamSpec epsilonParam()
{
    auto spec = realParam("epsilon", "Privacy budget ε", 10.0, 0.0, 1e12,
                          "Target ε of (ε, 0)-DP over all T rounds (Definition 3.5); sets the "
                          "Laplace scale 6√d (G + αR)(2 + log₂ T)/ε of every tree node.",
                          {.minExclusive = true, .logScale = true});
    spec.condition = "(ε, 0)-DP over all rounds, Theorems 3.6 / 3.9";
    return spec;
}

ParamSpec noiseParam()
{
    return boolParam("noise", "Add noise", true,
                     "Off: the trees add no noise (non-private reference, ε = ∞; no ε metric).");
}

Result<std::shared_ptr<const ConstraintSet>> resolveConstraint(const RunContext &ctx)
{
    const int d = ctx.dimension();
    const std::string kind = paramText(ctx.params, "constraint");
    const double r = paramReal(ctx.params, "radius");
    std::shared_ptr<const ConstraintSet> set;
    if (kind == "problem") {
        set = constraintSetOf(*ctx.problem);
        if (!set)
            set = std::make_shared<FullSpace>(d);
    } else if (kind == "l2-ball") {
        set = std::make_shared<L2Ball>(d, r);
    } else if (kind == "box") {
        set = std::make_shared<Box>(d, -r, r);
    } else {
        set = std::make_shared<FullSpace>(d);
    }
    if (set->dimension() != d)
        return Error::invalid("params.constraint", "the set has dimension " + std::to_string(set->dimension())
                                                       + ", the decisions " + std::to_string(d));
    return set;
}

std::vector<std::string> checkGossipMatrix(const Eigen::MatrixXd &p)
{
    std::vector<std::string> out;
    const double tol = 1e-9;
    if ((p - p.transpose()).cwiseAbs().maxCoeff() > tol)
        out.push_back("Assumption 3.4: the gossip matrix P is not symmetric");
    if ((p.rowwise().sum().array() - 1.0).abs().maxCoeff() > tol
        || (p.colwise().sum().array() - 1.0).abs().maxCoeff() > tol)
        out.push_back("Assumption 3.4: the gossip matrix P is not doubly stochastic");
    if ((p - p.transpose()).cwiseAbs().maxCoeff() <= tol) {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (p + p.transpose()), Eigen::EigenvaluesOnly);
        requireEigenvalues(eig, "gossip matrix P");
        if (eig.eigenvalues().minCoeff() < -tol)
            out.push_back("Assumption 3.4: the gossip matrix P is not positive semidefinite (smallest "
                          "eigenvalue " + formatNumber(eig.eigenvalues().minCoeff(), 4)
                          + "); use lazy-metropolis weights");
    }
    return out;
}

// --- the blocked learner ------------------------------------------------------------------

Status BlockedPrivateLearner::start(const RunContext &ctx)
{
    assert(ctx.compressor && "BlockedPrivateLearner: the context must carry a compressor (identity)");
    mN = ctx.agents();
    mD = ctx.dimension();
    if (ctx.horizon < 1)
        return Error::invalid("iterations", "paper 002's learners need the horizon T ≥ 1");
    mHorizon = ctx.horizon;

    mAlpha = paramReal(ctx.params, "alpha");
    mClipBound = paramReal(ctx.params, "clip");
    mG = mClipBound > 0.0 ? mClipBound : paramReal(ctx.params, "lipschitz");
    if (Status s = resolveFeasibleSet(ctx); !s)
        return s;
    // Gossip: spectrum, θ, and the number of steps of eq. (7)/(10); the block size.
    if (Status s = chooseBlocks(ctx); !s)
        return s;
    // h: Corollaries 3.7 / 3.8 (PD-FTGL), 3.10 / 3.11 (PD-OCG; Appendix I's √(15LT)·G/R).
    if (Status s = chooseRegulariser(ctx); !s)
        return s;
    // Privacy: one tree per learner, Laplace scale of Theorems 3.6 / 3.9.
    setUpPrivacy(ctx);
    // State: x_i(1) = 0 (Algorithm 1 line 2; the run's init is not used).
    resetState(ctx);
    return {};
}

Status BlockedPrivateLearner::resolveFeasibleSet(const RunContext &ctx)
{
    auto set = resolveConstraint(ctx);
    if (!set)
        return set.error();
    mSet = set.value();
    if (!mSet->bounded())
        return Error::invalid("params.constraint", "paper 002's learners need a bounded feasible set K "
                                                   "(Assumption 3.1); choose l2-ball, box or a problem with a set");
    mR = mSet->radius();
    return {};
}

Status BlockedPrivateLearner::chooseBlocks(const RunContext &ctx)
{
    for (auto &w : checkGossipMatrix(ctx.W))
        mWarnings.push_back(w);
    mSpectrum = gossipSpectrum(ctx.W);
    if (mSpectrum.rho <= 0.0)
        return Error::invalid("graph.weights", "σ₂(P) = 1: the graph is not connected (Assumption 3.4)");
    const GossipTheta rule = paramText(ctx.params, "theta") == "chebyshev" ? GossipTheta::Chebyshev : GossipTheta::Paper;
    mTheta = gossipTheta(mSpectrum.sigma2, rule);
    const long long theoryGossip = acceleratedGossipSteps(mN, mHorizon, mSpectrum.rho);
    const long long blockGiven = paramInt(ctx.params, "block");
    const double T = static_cast<double>(mHorizon);
    if (mVariant == Variant::Ftgl) {
        mBlock = blockGiven > 0 ? blockGiven : theoryGossip;
        mGossipSteps = mBlock;
        if (mBlock < theoryGossip)
            mWarnings.push_back("block L = " + std::to_string(mBlock) + " is below eq. (7)'s "
                                + std::to_string(theoryGossip)
                                + ": the gossip misses Lemma D.3's accuracy; the accountant charges the "
                                  "larger sensitivity");
    } else {
        const double theoryBlock = mAlpha > 0.0 ? std::pow(T, 2.0 / 3.0) * std::pow(std::log(std::max(T, 2.0)), -2.0 / 3.0)
                                                : std::sqrt(T);
        mBlock = blockGiven > 0 ? blockGiven : std::max<long long>(1, std::llround(theoryBlock));
        const long long gossipGiven = paramInt(ctx.params, "gossip_steps");
        mGossipSteps = gossipGiven > 0 ? gossipGiven : theoryGossip;
        if (mGossipSteps < theoryGossip)
            mWarnings.push_back("gossip steps L' = " + std::to_string(mGossipSteps) + " are below eq. (10)'s "
                                + std::to_string(theoryGossip)
                                + ": the gossip misses Lemma D.3's accuracy; the accountant charges the "
                                  "larger sensitivity");
        if (mGossipSteps > mBlock) {
            mWarnings.push_back("gossip steps L' = " + std::to_string(mGossipSteps) + " exceed the block L = "
                                + std::to_string(mBlock) + " (the paper assumes L' < L); capped at L");
            mGossipSteps = mBlock;
        }
    }
    if (mBlock > mHorizon)
        mWarnings.push_back("block L = " + std::to_string(mBlock) + " exceeds T = " + std::to_string(mHorizon)
                            + ": no block completes and every learner plays 0");
    mFullBlocks = mHorizon / mBlock;
    if (mFullBlocks * mBlock != mHorizon)
        mWarnings.push_back("T = " + std::to_string(mHorizon) + " is not a multiple of L = " + std::to_string(mBlock)
                            + ": the last " + std::to_string(mHorizon - mFullBlocks * mBlock)
                            + " rounds keep the last decision and their gradients are unused");
    return {};
}

Status BlockedPrivateLearner::chooseRegulariser(const RunContext &ctx)
{
    const double T = static_cast<double>(mHorizon);
    const double L = static_cast<double>(mBlock);
    double hTheory;
    if (mAlpha > 0.0)
        hTheory = mAlpha * L;
    else if (mVariant == Variant::Ftgl)
        hTheory = mG * std::sqrt(14.0 * L * T * (2.0 + std::log2(T))) / mR;
    else
        hTheory = std::sqrt(15.0 * L * T) * mG / mR;
    mH = paramReal(ctx.params, "h_scale") * hTheory;
    if (!(mH > 0.0))
        return Error::invalid("params.h_scale", "h must be > 0 (G, R and h_scale must be > 0)");
    return {};
}

void BlockedPrivateLearner::setUpPrivacy(const RunContext &ctx)
{
    const double T = static_cast<double>(mHorizon);
    const double L = static_cast<double>(mBlock);
    const bool noise = paramBool(ctx.privacy, "noise");
    const double epsilon = paramReal(ctx.privacy, "epsilon");
    mNoiseScale = noise ? treeNoiseScale(mD, mG, mAlpha, mR, mHorizon, epsilon) : 0.0;
    const long long leaves = std::max<long long>(0, mFullBlocks - 1);
    mTrees.clear();
    mTrees.reserve(mN);
    for (int i = 0; i < mN; ++i)
        mTrees.emplace_back(mD, leaves, mNoiseScale, ctx.noise.stream(i, RngPurpose::TreeNoise));
    mAccountant.reset();
    if (noise) {
        // Appendix C: a changed f_{τ,j} moves learner i's leaf by ≤ 2E + 2G/n (E = gossip error,
        // Lemma D.3), ≤ √d(2E + 2G/n) in ℓ1; summed over the n trees and divided by b this is the
        // cost of one node position. E is bounded by the measured contraction of the gossip
        // polynomial: E ≤ ‖p_{L'}(P) − 11ᵀ/n‖₂ · √n · L(G + αR) (= Lemma D.3 with eq. (7)'s L').
        const double contraction = gossipContraction(ctx.W, mTheta, mGossipSteps);
        const double error = contraction * std::sqrt(static_cast<double>(mN)) * L * (mG + mAlpha * mR);
        const double perLevel = static_cast<double>(mN) * std::sqrt(static_cast<double>(mD))
                                * (2.0 * error + 2.0 * mG / mN) / mNoiseScale;
        std::vector<std::string> assumptions = {
            "event-level DP over all T rounds: neighbouring inputs differ in one loss f_{t,i} (Definition 3.5)",
            "only the decisions are protected; gossip messages carry no noise",
            mClipBound > 0.0 ? "gradients clipped to norm ≤ C = " + formatNumber(mClipBound, 4)
                        : "‖∇f_{t,i}‖ ≤ G = " + formatNumber(mG, 4)
                              + " (Assumption 3.2; not enforced)",
            "a changed loss moves at most ⌈log₂(T/L − 1)⌉ + 1 node positions; each costs ≤ ε_level = "
                + formatNumber(perLevel, 4) + " (target ε/(2 + log₂ T) = "
                + formatNumber(epsilon / (2.0 + std::log2(T)), 4) + ")"};
        mAccountant = std::make_unique<TreeAccountant>(
            mN, perLevel, "paper 002 tree mechanism (Appendix C)", std::move(assumptions));
        if (perLevel * (treeHeight(leaves) + 1) > epsilon * (1.0 + 1e-12))
            mWarnings.push_back("with these parameters the tree accountant's bound "
                                + formatNumber(perLevel * (treeHeight(leaves) + 1), 4)
                                + " exceeds the target ε = " + formatNumber(epsilon, 4));
    }
    if (mClipBound <= 0.0)
        mWarnings.push_back("clip = 0: the privacy guarantee assumes ‖∇f‖ ≤ G = "
                            + formatNumber(mG, 4)
                            + " without enforcing it");

}

void BlockedPrivateLearner::resetState(const RunContext &ctx)
{
    mX = Eigen::MatrixXd::Zero(mN, mD);
    mY = mX;
    mGrad = mX;
    mBlockSum = mX;
    mZhat = mX;
    mLeaf = mX;
    mCounters = Eigen::MatrixXd::Zero(1, 4);
    mScale = Eigen::VectorXd::Zero(mN);
    mRow.resize(mD);
    mDirection.resize(mD);
    mGossip = AcceleratedGossip(ctx.W, mTheta, mD);
    mChannel = Broadcast("d", mN, mD, ctx.noise, RngPurpose::BlockSumNoise, ctx.compressor);
    mBlocksDone = mGossipDone = mProjections = mLinearMinimizations = 0;
}

void BlockedPrivateLearner::iterate(long long t, std::vector<Message> *record)
{
    const long long z = t / mBlock + 1; // 1-based block
    const long long k = t % mBlock;
    if (z > mFullBlocks)
        return; // an incomplete last block: keep playing x(Z+1)

    mProblem->gradients(mX, mGrad, t);
    clipRows(mGrad, mClipBound);
    mBlockSum += mGrad;
    if (mAlpha != 0.0)
        mBlockSum -= mAlpha * mX;

    if (z >= 2 && k < mGossipSteps) {
        // Eq. (5): every learner sends d_i^k(z−1) to its neighbours (no noise) and updates.
        mBits += mChannel.send(mGossip.current(), mScale, record);
        mGossip.step(mChannel.sent());
        ++mGossipDone;
    }
    if (mVariant == Variant::Ocg && z >= 2)
        frankWolfeStep(z);
    if (k == mBlock - 1)
        endOfBlock(z);
    mCounters << static_cast<double>(mBlocksDone), static_cast<double>(mGossipDone),
        static_cast<double>(mProjections), static_cast<double>(mLinearMinimizations);
}

void BlockedPrivateLearner::frankWolfeStep(long long z)
{
    // F_{z,i}(x) = ⟨ẑ_i(z−1), x⟩ + (η/2)‖x‖², η = α(z−2)L + 2h; ∇F = ẑ + ηx. One CG iteration
    // (Algorithm 4) with the exact line search σ* = clip(−⟨∇F, v − x⟩ / (η‖v − x‖²), 0, 1).
    const double eta = mAlpha * static_cast<double>(z - 2) * static_cast<double>(mBlock) + 2.0 * mH;
    for (int i = 0; i < mN; ++i) {
        mRow = mZhat.row(i).transpose() + eta * mY.row(i).transpose();
        mSet->linearMinimizer(mRow, mDirection);
        mDirection -= mY.row(i).transpose();
        const double curvature = eta * mDirection.squaredNorm();
        if (curvature > 0.0) {
            const double sigma = std::clamp(-mRow.dot(mDirection) / curvature, 0.0, 1.0);
            mY.row(i) += sigma * mDirection.transpose();
        }
    }
    ++mLinearMinimizations;
}

void BlockedPrivateLearner::endOfBlock(long long z)
{
    if (z >= 2) {
        // Line 14 (15): w_i(z−1) = d_i^{L}(z−1), fed to learner i's tree as leaf z−1.
        mLeaf = mGossip.current();
        for (int i = 0; i < mN; ++i) {
            if (mTrees[i].count() >= mTrees[i].capacity())
                continue;
            mRow = mLeaf.row(i).transpose();
            mZhat.row(i) = mTrees[i].add(mRow).transpose();
        }
        if (mAccountant)
            mAccountant->setLeaves(mTrees.empty() ? 0 : mTrees[0].count());
    }
    // Line 13: the next gossip starts from this block's sums (block-decoupled).
    mGossip.start(mBlockSum);
    mBlockSum.setZero();

    if (mVariant == Variant::Ftgl) {
        // Eq. (6): x_i(z+1) = Proj_K(−ẑ_i(z) / (α(z−1)L + 2h)).
        const double eta = mAlpha * static_cast<double>(z - 1) * static_cast<double>(mBlock) + 2.0 * mH;
        for (int i = 0; i < mN; ++i) {
            mRow = -mZhat.row(i).transpose() / eta;
            mSet->project(mRow);
            mX.row(i) = mRow.transpose();
        }
        ++mProjections;
    } else {
        // x_i(z+1) = the CG iterate after block z's L steps (x_i(2) = 0 for z = 1).
        if (z >= 2)
            mX = mY;
        mY = mX;
    }
    ++mBlocksDone;
}

const Eigen::MatrixXd *BlockedPrivateLearner::state(const std::string &name) const
{
    return namedState(name, {{"zhat", &mZhat},
                             {"leaf", &mLeaf},
                             {"block_sum", &mBlockSum},
                             {"gossip", &mGossip.current()},
                             {"cg", &mY},
                             {"counters", &mCounters}});
}

AlgorithmDescriptor describeBlockedLearner(Variant variant, const std::string &id, const std::string &name,
                                           const std::string &algorithm, const std::string &summary)
{
    auto d = algorithmDescriptor(
        id, name,
        "X. Wang, W. Yang, C. Yao, M. Song, Y. Wan, Revisiting Differentially Private Algorithms "
        "for Decentralized Online Learning, ICML 2025 (PMLR 267), " + algorithm,
        summary, GraphKind::Undirected, WeightNeeds::Doubly,
        [variant] { return std::make_unique<BlockedPrivateLearner>(variant); });
    d.acceptsCompressor = false;
    d.needsOnline = true;
    d.privacyParams = {epsilonParam(), noiseParam()};
    return d;
}

} // namespace dplab::privateonline
