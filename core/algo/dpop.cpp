// SPDX-License-Identifier: GPL-3.0-or-later
//
// DPOP: differentially private distributed optimization by noisy consensus + projected gradient
// (Z. Huang, S. Mitra, N. Vaidya, ICDCN 2015), the static-consensus baseline of paper 003 Fig. 1.
// Round k, every agent i:
//     w_i(k)   = x_i(k) + η_i(k),        η_i(k) ~ Lap(M_k)^r, drawn once, broadcast
//     v_i(k)   = Σ_j W_ij w_j(k)          (own noisy w_i(k) included: only broadcast values mix)
//     x_i(k+1) = Π_X( v_i(k) − γ_k ∇f_i(v_i(k)) ),   X a box [low, high]^r (or R^r)
// with geometric γ_k = c q^k and M_k = M p^k, 0 < q < p < 1 in [21].
//
// Provenance of this rule: paper 003 gives no DPOP update rule. Its text says only that DPOP is
// static-consensus based, that "to achieve rigorous ε-differential privacy, [21] requires the
// stepsize to decay geometrically", and that [21] defines DP on internal states (Remark 2). The
// rule above is a reconstruction of [21], recalled and UNVERIFIED ([21]'s text is not available
// here; docs/paper003.md, "The update", says so too). Choices made: the own term is the noisy broadcast
// value (this is what makes v_i(k) a function of the observations and the sensitivity
// γ_k·2√r C of the accountant hold); the gradient is taken at v_i(k); the projection is an
// optional box.
#include "algo/dpcommon.h"
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/formatnumber.h"
#include "dplab/privacy/dpopaccountant.h"
#include "dplab/privacy/paper003accountant.h"
#include "dplab/common/schedule.h"

#include <cmath>

namespace dplab {

namespace {

class Dpop final : public AccountedAlgorithm<DpopAccountant>
{
public:
    Status start(const RunContext &ctx) override
    {
        mMixer = Mixer(ctx.W);
        const int n = ctx.agents();
        const int d = ctx.dimension();
        mStep = paramSchedule(ctx.params, "stepsize");
        mProject = paramBool(ctx.params, "project");
        mLow = paramReal(ctx.params, "box_low");
        mHigh = paramReal(ctx.params, "box_high");
        if (mProject && !(mLow < mHigh))
            return Error::invalid("params.box_high", "must be > box_low");
        mNoise = paramSchedule(ctx.privacy, "noise_x");
        if (Status s = mBound.reset(ctx.privacy, ctx.problem.get()); !s)
            return s;
        DpopPrivacySetup setup{mStep, mNoise, gradientSensitivity(d, mBound.bound())};
        std::vector<std::string> notes;
        if (const std::optional<double> target = dp::epsilonTarget(ctx.privacy)) {
            const Result<double> factor = dp::roundSumFactor(
                setup, mBound, ctx.horizon, *target,
                {{.scale = mNoise.a(), .field = "privacy.noise_x", .symbol = "M_k "}});
            if (!factor)
                return factor.error();
            mNoise = setup.noise = dp::scaledSchedule(mNoise, *factor);
            notes.push_back(dp::calibrationNote("noise M_k = " + mNoise.toString() + " gives ε",
                                                *target, ctx.horizon));
        }
        const bool noisy = mNoise.a() > 0;
        mAccountant = dp::accountantIfBounded(
            noisy, mBound,
            "no ε is accounted (the sensitivity 2√r C γ_k needs ‖∇f_i‖₂ ≤ C)", mWarnings,
            [&] { return std::make_unique<DpopAccountant>(n, setup, notes); });
        if (noisy && (mStep.kind() != Schedule::Kind::Geometric
                      || mNoise.kind() != Schedule::Kind::Geometric || !(mStep.q() < mNoise.q())
                      || !(mNoise.q() < 1)))
            mWarnings.push_back("Huang et al. [21] take γ_k = c q^k and M_k = M p^k with "
                                "0 < q < p < 1; otherwise ε grows without bound in K (here γ_k = "
                                + mStep.toString() + ", M_k = " + mNoise.toString() + ")");

        mX = ctx.x0;
        mV.resize(n, d);
        mGrad.resize(n, d);
        mScale.resize(n);
        mChannel = Broadcast("x", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        mBits += sendAtScale(mChannel, mX, mNoise.at(k), mScale, record);
        // v = W w: every term, the own one included, is a broadcast (noisy) value.
        mMixer.apply(mChannel.sent(), mV);
        mProblem->gradients(mV, mGrad, k);
        mBound.enforce(mGrad, k);
        mX = mV - mStep.at(k) * mGrad;
        if (mProject)
            mX = mX.cwiseMax(mLow).cwiseMin(mHigh);
        if (mAccountant)
            mAccountant->advance();
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }
    std::vector<std::string> warnings() const override
    {
        return mBound.withViolation(mWarnings, "‖∇f_i(v_i)‖₂", mAccountant != nullptr);
    }
    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        // v: the mixed noisy point of the last step.
        return namedState(name, {{"v", &mV}, {"gradient", &mGrad}});
    }

private:
    Mixer mMixer;
    Schedule mStep, mNoise;
    bool mProject = false;
    double mLow = 0.0, mHigh = 0.0;
    dp::GradientBound mBound;
    Broadcast mChannel;
    Eigen::MatrixXd mX, mV, mGrad;
    Eigen::VectorXd mScale;
};

} // namespace

AlgorithmDescriptor describeDpop()
{
    auto d = algorithmDescriptor(
        "dpop", "DPOP (noisy consensus + projected gradient)",
        "Z. Huang, S. Mitra, N. Vaidya, Differentially private distributed "
        "optimization, ICDCN 2015 (baseline [21] of paper 003, Fig. 1). Update rule "
        "reconstructed (paper 003 states none; UNVERIFIED against [21])",
        "Each agent broadcasts its state plus Laplace noise, w_i = x_i + η_i (one draw per "
        "message), averages the received noisy states with its own noisy one, v_i = Σ_j W_ij w_j, "
        "and takes a projected gradient step at that average, x_i ← Π_X(v_i − γ_k ∇f_i(v_i)). "
        "With geometric γ_k = c q^k and noise M_k = M p^k (q < p) the budget stays finite, "
        "ε → 2√r C c / (M(p − q)), but the steps sum to a finite total, so the iterates stop "
        "short of x*. Paper 003 gives no DPOP rule; this is the reconstruction of its spec "
        "(UNVERIFIED), with the own term noisy so that v_i depends on observations only.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<Dpop>);
    d.acceptsCompressor = false;
    auto step = stepsizeParam(0.1, "Step size γ_k; DPOP needs a geometric c q^k for a finite ε, "
                                   "e.g. {\"type\":\"geometric\",\"a\":0.1,\"q\":0.99}.");
    step.defaultValue = Json{{"type", "geometric"}, {"a", 0.1}, {"q", 0.99}};
    step.condition = "[21]: γ_k = c q^k with q < p (the noise ratio)";
    d.params = {step,
                boolParam("project", "Project onto a box", false,
                          "Project every iterate onto X = [box_low, box_high]^r (DPOP's Π_X)."),
                realParam("box_low", "Box lower bound", -10.0, -1e12, 1e12,
                          "Lower bound of every coordinate of X (when projecting)."),
                realParam("box_high", "Box upper bound", 10.0, -1e12, 1e12,
                          "Upper bound of every coordinate of X (when projecting).")};
    auto noise = noiseScaleParam("noise_x", "Noise scale M_k",
                                 "Laplace scale M_k of the noise added once to each broadcast "
                                 "state, e.g. {\"type\":\"geometric\",\"a\":M,\"q\":p}. 0 = no "
                                 "noise.");
    noise.condition = "[21]: M_k = M p^k with q < p < 1";
    d.privacyParams = {noise, dp::epsilonTargetParam(), dp::gradientBoundParam(),
                       dp::clipSwitchParam()};
    return d;
}

} // namespace dplab
