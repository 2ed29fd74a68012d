// SPDX-License-Identifier: GPL-3.0-or-later
//
// PD-OGD: the private decentralized online gradient descent of Li et al. 2018 ("Differentially
// private distributed online learning", IEEE TKDE 30(8), Algorithm 1 "ε-differentially private
// DOLA"), the baseline of paper 002's experiments. Paper 002 does not restate the rule; it says
// only that PD-OGD adds noise directly to the decisions, projects once per round, and that its
// noise was enlarged to give (ε, 0)-DP over all T rounds. Li et al.'s Algorithm 1, per learner i
// and round t:
//     b_i(t)   = Σ_j P_ij (x_j(t) + σ_j(t))           every broadcast decision is noised once
//                                                     (the own term too, as in Li et al.)
//     g_i(t)   = clip(∇f_{t,i}(b_i(t)))               (or at x_i(t): 'gradient_at' = decision)
//     x_i(t+1) = Proj_K(b_i(t) − a_t g_i(t))
//     σ_i(t+1) ~ Lap^d(μ_t),  μ_t = Δ_t/ε_round,  Δ_t = 2 a_t √d C  (ℓ1 sensitivity of x_i(t+1))
// ε_round = ε/T ('composition' = horizon: paper 002's fair comparison, (ε, 0)-DP over T rounds
// by basic composition) or ε (Li et al.'s per-round guarantee). The played decision, scored by
// the metrics, is the iterate x_i(t) ∈ K; Li et al.'s guarantee covers the broadcast values.
#include "algo/clipping.h"
#include "algo/privateonline.h"
#include "dplab/algo/builtin.h"
#include "dplab/common/schedule.h"

#include <cmath>

namespace dplab {

namespace {

class PdOgd final : public AccountedAlgorithm<BasicCompositionAccountant>
{
public:
    Status start(const RunContext &ctx) override
    {
        using namespace privateonline;
        mN = ctx.agents();
        mD = ctx.dimension();
        mWarnings = checkGossipMatrix(ctx.W);
        auto set = resolveConstraint(ctx);
        if (!set)
            return set.error();
        mSet = set.value();
        mStep = paramSchedule(ctx.params, "stepsize");
        mClipBound = paramReal(ctx.params, "clip");
        mG = mClipBound > 0.0 ? mClipBound : paramReal(ctx.params, "lipschitz");
        mAtMix = paramText(ctx.params, "gradient_at") == "received";
        mMixer = Mixer(ctx.W);
        mNoise = paramBool(ctx.privacy, "noise");
        const double epsilon = paramReal(ctx.privacy, "epsilon");
        const bool horizon = paramText(ctx.privacy, "composition") == "horizon";
        if (horizon && ctx.horizon < 1)
            return Error::invalid("iterations", "composition = horizon needs T ≥ 1");
        mEpsilonRound = horizon ? epsilon / static_cast<double>(ctx.horizon) : epsilon;
        mAccountant.reset();
        if (mNoise)
            mAccountant = std::make_unique<BasicCompositionAccountant>(
                mN, horizon ? "basic composition over T rounds (paper 002's PD-OGD)"
                            : "basic composition of per-round ε (Li et al. 2018)");
        if (mClipBound <= 0.0)
            mWarnings.push_back("clip = 0: the privacy guarantee assumes ‖∇f‖ ≤ G without enforcing it");
        mX = Eigen::MatrixXd::Zero(mN, mD); // x_i(1) = 0, like pd-ftgl / pd-ocg
        mMixed = mX;
        mGrad = mX;
        mRow.resize(mD);
        mScale = Eigen::VectorXd::Zero(mN);
        mDelta = Eigen::VectorXd::Zero(mN);
        mChannel = Broadcast("x", mN, mD, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        mLastStep = 0.0;
        mProjections = 0;
        return {};
    }

    void iterate(long long t, std::vector<Message> *record) override
    {
        // The message carries x_i(t), produced with step a_{t−1} (x_i(0) is data-independent).
        const double sensitivity = t == 0 ? 0.0 : 2.0 * mLastStep * std::sqrt(static_cast<double>(mD)) * mG;
        const double scale = mNoise ? 2.0 * (t == 0 ? mStep.at(0) : mLastStep) * std::sqrt(static_cast<double>(mD)) * mG
                                          / mEpsilonRound
                                    : 0.0;
        mScale.setConstant(scale);
        mBits += mChannel.send(mX, mScale, record);
        if (mAccountant && scale > 0.0) {
            mDelta.setConstant(sensitivity);
            mAccountant->add(mDelta, mScale);
        }
        mMixer.apply(mChannel.sent(), mMixed); // Σ_j P_ij (x_j + σ_j), own term included
        mProblem->gradients(mAtMix ? mMixed : mX, mGrad, t);
        clipRows(mGrad, mClipBound);
        const double a = mStep.at(t);
        for (int i = 0; i < mN; ++i) {
            mRow = (mMixed.row(i) - a * mGrad.row(i)).transpose();
            mSet->project(mRow);
            mX.row(i) = mRow.transpose();
        }
        ++mProjections;
        mLastStep = a;
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }
    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        return namedState(name, {{"mixed", &mMixed}});
    }

private:
    std::shared_ptr<const ConstraintSet> mSet;
    int mN = 0, mD = 0;
    Schedule mStep;
    double mClipBound = 0.0, mG = 1.0, mEpsilonRound = 1.0, mLastStep = 0.0;
    bool mAtMix = true, mNoise = true;
    Mixer mMixer;
    Broadcast mChannel;
    Eigen::MatrixXd mX, mMixed, mGrad;
    Eigen::VectorXd mRow, mScale, mDelta;
    long long mProjections = 0;
};

} // namespace

AlgorithmDescriptor describePdOgd()
{
    using namespace privateonline;
    auto d = algorithmDescriptor(
        "pd-ogd", "PD-OGD (Li et al. 2018, paper 002's baseline)",
        "C. Li, P. Zhou, L. Xiong, Q. Wang, T. Wang, Differentially Private Distributed Online "
        "Learning, IEEE TKDE 30(8):1440–1453, 2018, Algorithm 1; used as PD-OGD in X. Wang et al., "
        "ICML 2025",
        "Private decentralized online gradient descent: every learner broadcasts its decision plus "
        "Laplace noise Lap^d(2a_t√d C/ε_round) each round, averages what it receives with the gossip "
        "weights (b_i = Σ_j P_ij(x_j + σ_j)), takes a clipped gradient step at b_i and projects onto K "
        "(one projection per round). Paper 002 enlarges the noise so that the T rounds together are "
        "(ε, 0)-DP (ε_round = ε/T, basic composition). The rule is Li et al.'s Algorithm 1 (paper 002 "
        "does not restate it); the played and scored decision is the projected iterate x_i(t) ∈ K.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<PdOgd>);
    auto step = scheduleParam("stepsize", "Step size a_t",
                              Json{{"type", "polynomial"}, {"a", 1.0}, {"t0", 1.0}, {"p", 0.5}}, 0.0, 1e9,
                              "Step a_t (a number or a schedule). Default 1/√(t+1) (Li et al.'s convex "
                              "rate); R/(C√t) is the usual OGD tuning.",
                              {.minExclusive = true, .logScale = true});
    d.params = {step,
                choiceParam("gradient_at", "Gradient at", "received", {"received", "decision"},
                            "Where the gradient is queried: 'received' = at b_i(t), the weighted "
                            "average of the received noisy decisions (Li et al., Alg. 1 line 5); "
                            "'decision' = at the learner's own iterate x_i(t)."),
                clipBoundParam(), lipschitzParam(), constraintParam(), radiusParam()};
    d.acceptsCompressor = false;
    d.needsOnline = true;
    auto composition = choiceParam("composition", "Budget over", "horizon", {"horizon", "per-round"},
                                   "'horizon': ε over all T rounds, ε/T per round (paper 002's "
                                   "comparison); 'per-round': ε per round as in Li et al. (εT over T rounds).");
    d.privacyParams = {epsilonParam(), noiseParam(), composition};
    d.theory.push_back(powerRate("regret", 0.5, "O(√T)", "Li et al. 2018 as quoted in paper 002, Table 1 (convex)"));
    return d;
}

} // namespace dplab
