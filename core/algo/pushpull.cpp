// SPDX-License-Identifier: GPL-3.0-or-later
//
// Push-Pull gradient tracking (Pu, Shi, Xu, Nedić 2020) on directed graphs, with the optional DP
// noise of paper 000 eq. (5):
//   θ_i(t+1) = R_ii θ_i(t) + Σ_{j≠i} R_ij (θ_j(t) + ϑ_j(t)) − λ_t y_i(t)
//   y_i(t+1) = C_ii y_i(t) + Σ_{j≠i} C_ij (y_j(t) + ζ_j(t)) + ∇f_{t+1,i}(θ_i(t+1)) − ∇f_{t,i}(θ_i(t))
//   y_i(0) = ∇f_{0,i}(θ_i(0))
// R row-stochastic pulls θ over G_R, C column-stochastic pushes y over G_C. Agent j draws ϑ_j(t)
// ~ Lap(ν^j_ϑ (t+1)^(−ς^j_ϑ))^d and ζ_j(t) ~ Lap(ν^j_ζ (t+1)^(−ς^j_ζ))^d once per message; its own
// terms are noise-free. Paper 000 eq. (6): the tracker then accumulates all past noises,
// 1ᵀy(t) = 1ᵀ(∇f_t(θ(t)) + Σ_{k<t} ζ_C(k)), which is why noisy Push-Pull does not converge.
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/schedule.h"

namespace dplab {

namespace {

class PushPull final : public Algorithm
{
public:
    Status start(const RunContext &ctx) override
    {
        mRowMixer = Mixer(ctx.R);
        mColumnMixer = Mixer(ctx.C);
        mStep = paramSchedule(ctx.params, "stepsize");
        const int n = ctx.agents();
        const int d = ctx.dimension();
        mNuTheta = paramPerAgent(ctx.privacy, "noise_theta", n);
        mDecayTheta = paramPerAgent(ctx.privacy, "noise_theta_decay", n);
        mNuY = paramPerAgent(ctx.privacy, "noise_y", n);
        mDecayY = paramPerAgent(ctx.privacy, "noise_y_decay", n);
        mState.reset(ctx.x0, gradientsOf(*mProblem));
        mScale.resize(n);
        mChannelTheta =
            Broadcast("theta", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        mChannelY = Broadcast("y", n, d, ctx.noise, RngPurpose::TrackerNoise, ctx.compressor);
        return {};
    }

    void iterate(long long t, std::vector<Message> *record) override
    {
        decayingScales(mNuTheta, mDecayTheta, t, mScale);
        mBits += mChannelTheta.send(mState.x(), mScale, record);
        decayingScales(mNuY, mDecayY, t, mScale);
        mBits += mChannelY.send(mState.y(), mScale, record);

        // (5a) θ(t+1) = R θ(t) + ϑ_R(t) − λ_t y(t)
        // (5b) y(t+1) = C y(t) + ζ_C(t) + ∇f_{t+1}(θ(t+1)) − ∇f_t(θ(t))
        mState.step(
            t, mStep.at(t),
            [&](auto &out) { mRowMixer.mix(mState.x(), mChannelTheta.sent(), out); },
            [&](auto &out) { mColumnMixer.mix(mState.y(), mChannelY.sent(), out); },
            gradientsOf(*mProblem));
    }

    const Eigen::MatrixXd &decisions() const override { return mState.x(); }
    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        return mState.state(name);
    }

private:
    Mixer mRowMixer, mColumnMixer;
    Schedule mStep;
    Eigen::VectorXd mNuTheta, mDecayTheta, mNuY, mDecayY, mScale;
    Broadcast mChannelTheta, mChannelY;
    TrackingState mState; ///< θ (as x), the tracker y, ∇f(θ)
};

} // namespace

AlgorithmDescriptor describePushPull()
{
    auto d = algorithmDescriptor(
        "push-pull", "Push-Pull gradient tracking",
        "S. Pu, W. Shi, J. Xu, A. Nedić, Push-pull gradient methods for distributed "
        "optimization in networks, IEEE TAC 66(1), 2021; DP noise as in eq. (5) of "
        "Y. Wang et al., LDP gradient tracking for distributed online learning over "
        "directed graphs (paper 000)",
        "Decisions θ are pulled over G_R with a row-stochastic R; the gradient tracker "
        "y is pushed over G_C with a column-stochastic C. Noise-free it converges "
        "linearly to x* on a strongly connected digraph. With DP noise on the shared "
        "θ and y (eq. 5) the tracker accumulates every past noise, so the error "
        "stalls at a floor (paper 000, eq. 6).",
        GraphKind::Directed, WeightNeeds::RowColumn, makeAlgorithm<PushPull>);
    d.params = {stepsizeParam(0.05, "Step size λ_t (a number or a schedule, e.g. "
                                    "{\"type\":\"polynomial\",\"a\":0.1,\"t0\":1,\"p\":0.61}).")};
    d.privacyParams = {
        perAgentNoiseParam("noise_theta", "Noise scale ν_ϑ",
                           "Laplace scale ν^i_ϑ of the noise on the shared θ (per agent or one "
                           "value); the scale at t is ν^i_ϑ (t+1)^(−ς^i_ϑ). 0 = no noise."),
        perAgentDecayParam("noise_theta_decay", "Noise decay ς_ϑ", 0.0,
                           "Decay exponent ς^i_ϑ of the θ noise scale."),
        perAgentNoiseParam("noise_y", "Noise scale ν_ζ",
                           "Laplace scale ν^i_ζ of the noise on the shared tracker y; the scale "
                           "at t is ν^i_ζ (t+1)^(−ς^i_ζ). 0 = no noise."),
        perAgentDecayParam("noise_y_decay", "Noise decay ς_ζ", 0.0,
                           "Decay exponent ς^i_ζ of the y noise scale.")};
    d.attack = {AttackSurface::Kind::TrackerDifference, "theta", "y", "stepsize"};
    d.exactWithoutNoise = NoiseFreeClaim{
        .citation = "Pu, Shi, Xu and Nedić 2020 (Push-Pull): linear convergence to x* for a "
                    "small enough constant step"};
    return d;
}

} // namespace dplab
