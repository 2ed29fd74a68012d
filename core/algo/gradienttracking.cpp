// SPDX-License-Identifier: GPL-3.0-or-later
//
// Gradient tracking in the DIGing form (Nedić, Olshevsky, Shi 2017; Qu & Li 2018), undirected
// graphs with a doubly stochastic W:
//     x(k+1) = W x(k) − α y(k)
//     y(k+1) = W y(k) + ∇f(x(k+1)) − ∇f(x(k)),      y(0) = ∇f(x(0))
// Column-stochasticity of W keeps Σ_i y_i(k) = Σ_i ∇f_i(x_i(k)) (the tracking invariant) when the
// messages are exact. Optional Laplace noise / compression act on the broadcast x and y; the
// agent's own terms stay exact.
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/schedule.h"

namespace dplab {

namespace {

class GradientTracking final : public Algorithm
{
public:
    Status start(const RunContext &ctx) override
    {
        mMixer = Mixer(ctx.W);
        mStep = paramSchedule(ctx.params, "stepsize");
        mNoiseX = paramSchedule(ctx.privacy, "noise_x");
        mNoiseY = paramSchedule(ctx.privacy, "noise_y");
        mState.reset(ctx.x0, gradientsOf(*mProblem));
        mChannels.reset(ctx);
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        mBits += mChannels.send(mState, mNoiseX.at(k), mNoiseY.at(k), record);
        mState.step(
            k, mStep.at(k), [&](auto &out) { mMixer.mix(mState.x(), mChannels.x().sent(), out); },
            [&](auto &out) { mMixer.mix(mState.y(), mChannels.y().sent(), out); },
            gradientsOf(*mProblem));
    }

    const Eigen::MatrixXd &decisions() const override { return mState.x(); }
    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        return mState.state(name);
    }

private:
    Mixer mMixer;
    Schedule mStep, mNoiseX, mNoiseY;
    TrackingChannels mChannels;
    TrackingState mState;
};

} // namespace

AlgorithmDescriptor describeGradientTracking()
{
    auto d = algorithmDescriptor(
        "gradient-tracking", "Gradient tracking (DIGing)",
        "A. Nedić, A. Olshevsky, W. Shi, Achieving geometric convergence for "
        "distributed optimization over time-varying graphs, SIAM J. Optim. 27(4), 2017",
        "Each agent keeps y_i, an estimate of the average gradient, updated with "
        "gradient differences: x ← W x − α y, y ← W y + ∇f(x⁺) − ∇f(x). With a "
        "constant step it converges linearly to the exact optimum x*.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<GradientTracking>);
    d.params = {stepsizeParam(0.05, "Step size α_k (a number or a schedule).")};
    d.privacyParams = {
        noiseScaleParam("noise_x", "Noise on x",
                        "Laplace scale of the noise added once to each broadcast decision x_i."),
        noiseScaleParam("noise_y", "Noise on y",
                        "Laplace scale of the noise added once to each broadcast tracker y_i.")};
    d.attack = {AttackSurface::Kind::TrackerDifference, "x", "y", "stepsize"};
    d.exactWithoutNoise = NoiseFreeClaim{
        .citation = "Nedić, Olshevsky and Shi 2017 (DIGing): linear convergence to x* for a "
                    "small enough constant step"};
    return d;
}

} // namespace dplab
