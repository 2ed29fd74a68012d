// SPDX-License-Identifier: GPL-3.0-or-later
//
// The worked example of docs/extending.md, compiled and run by the conformance suite
// (tests/core/conformance_test.cpp): noisy adapt-then-combine DGD with clipped gradients,
// Laplace noise on every broadcast and a basic-composition accountant, in one file.
//
// Agent i, iteration k = 0, 1, ..., undirected graph, doubly stochastic W:
//     g_i(k)   = ∇f_i(x_i(k)) scaled down to ℓ1 norm at most C
//     m_i(k)   = x_i(k) − α_k g_i(k) + η_i(k),   η_i(k) ~ Lap(b_k)^d, one draw per message
//     x_i(k+1) = Σ_j W_ij m_j(k)                  (its own message too, as sent)
// Privacy of f_i: x_i(k) is a function of messages already sent, so m_i(k) is the Laplace
// mechanism on α_k g_i(k), whose ℓ1 sensitivity to f_i is 2 α_k C. Sequential composition:
// ε_i after t iterations (the messages of iterations 0..t−1) is Σ_{k<t} 2 α_k C / b_k.
// Without noise it is DGD: with a constant step it stops in an O(α) neighbourhood of x*.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/schedule.h"

namespace dplab::example {

namespace {

class NoisyDgd final : public AccountedAlgorithm<BasicCompositionAccountant>
{
public:
    Status start(const RunContext &ctx) override
    {
        const int n = ctx.agents();
        const int d = ctx.dimension();
        mMixer = Mixer(ctx.W);
        mStep = paramSchedule(ctx.params, "stepsize");
        mClip = paramReal(ctx.params, "clip");
        mNoise = paramSchedule(ctx.privacy, "noise");
        // Every buffer is sized here: step() allocates nothing.
        mX = ctx.x0;
        mGrad.resize(n, d);
        mMessage.resize(n, d);
        mNext.resize(n, d);
        mScale.resize(n);
        mSensitivity.resize(n);
        // One channel "x": agent i's noise is the stream (seed, run, repetition, i, DecisionNoise).
        mChannel = Broadcast("x", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        mAccountant.reset();
        if (mNoise.a() > 0)
            mAccountant = std::make_unique<BasicCompositionAccountant>(n, "basic composition Σ 2α_k C / b_k");
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        const double alpha = mStep.at(k);
        mProblem->gradients(mX, mGrad, k);
        for (Eigen::Index i = 0; i < mGrad.rows(); ++i) {
            const double norm = mGrad.row(i).lpNorm<1>();
            if (norm > mClip)
                mGrad.row(i) *= mClip / norm;
        }
        mMessage = mX - alpha * mGrad;
        mScale.setConstant(mNoise.at(k));
        mBits += mChannel.send(mMessage, mScale, record);
        mMixer.apply(mChannel.sent(), mNext);
        mX.swap(mNext);
        if (mAccountant) { // the messages of iteration k join ε after k + 1 iterations
            mSensitivity.setConstant(2.0 * alpha * mClip);
            mAccountant->add(mSensitivity, mScale);
        }
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }

private:
    Mixer mMixer;
    Schedule mStep;
    Schedule mNoise;
    double mClip = 0.0;
    Broadcast mChannel;
    Eigen::MatrixXd mX, mGrad, mMessage, mNext;
    Eigen::VectorXd mScale, mSensitivity;
};

} // namespace

AlgorithmDescriptor describeNoisyDgd()
{
    auto d = algorithmDescriptor(
        "example-noisy-dgd", "Noisy DGD (the docs/extending.md example)",
        "",
        "Each agent clips its local gradient to ℓ1 norm C, takes a gradient step, adds "
        "Laplace noise once and broadcasts the result; every agent then averages the "
        "messages it received (its own included) with the weights W. ε by basic "
        "composition: Σ_k 2α_k C / b_k.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<NoisyDgd>);
    d.params = {
        stepsizeParam(0.05, "Step size α_k of the local gradient step (a number or a schedule)."),
        ParamSpec{.key = "clip",
                  .label = "Gradient clip C",
                  .help = "Bound C on the ℓ1 norm of each local gradient (larger ones are scaled "
                          "down); a message's sensitivity is 2α_k C.",
                  .type = ParamType::Real,
                  .defaultValue = 10.0,
                  .min = 0.0,
                  .max = 1e6,
                  .minExclusive = true,
                  .logScale = true},
    };
    d.privacyParams = {noiseScaleParam("noise", "Noise on the message",
                                       "Laplace scale b_k of the noise added once to each broadcast "
                                       "message (0 = no noise and no ε).")};
    return d;
}

// A built-in algorithm is one line in core/algo/registry.cpp; a file outside core registers
// itself before anything reads the registry.
const bool registered = registerAlgorithm(describeNoisyDgd());

} // namespace dplab::example
