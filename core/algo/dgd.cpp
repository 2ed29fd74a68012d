// SPDX-License-Identifier: GPL-3.0-or-later
//
// Decentralized gradient descent (Nedić & Ozdaglar 2009), undirected graphs:
//     x_i(k+1) = W_ii x_i(k) + Σ_{j≠i} W_ij m_j(k) − α_k ∇f_i(x_i(k)),
//     m_j(k)   = C(x_j(k) + η_j(k)),  η_j(k) ~ Lap(b_k)^d   (b_k = 0: no noise, no draw)
// With a constant step α it converges linearly to an O(α) neighbourhood of x*, not to x*.
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/schedule.h"

namespace dplab {

namespace {

class Dgd final : public Algorithm
{
public:
    Status start(const RunContext &ctx) override
    {
        mMixer = Mixer(ctx.W);
        mStep = paramSchedule(ctx.params, "stepsize");
        mNoise = paramSchedule(ctx.privacy, "noise_x");
        const int n = ctx.agents();
        const int d = ctx.dimension();
        mX = ctx.x0;
        mNext.resize(n, d);
        mGrad.resize(n, d);
        mScale.resize(n);
        mChannel = Broadcast("x", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        mProblem->gradients(mX, mGrad, k);
        mScale.setConstant(mNoise.at(k));
        mBits += mChannel.send(mX, mScale, record);
        mMixer.mix(mX, mChannel.sent(), mNext);
        mNext -= mStep.at(k) * mGrad;
        mX.swap(mNext);
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }

private:
    Mixer mMixer;
    Schedule mStep;
    Schedule mNoise;
    Broadcast mChannel;
    Eigen::MatrixXd mX, mNext, mGrad;
    Eigen::VectorXd mScale;
};

} // namespace

AlgorithmDescriptor describeDgd()
{
    auto d = algorithmDescriptor(
        "dgd", "Decentralized gradient descent",
        "A. Nedić, A. Ozdaglar, Distributed subgradient methods for multi-agent "
        "optimization, IEEE TAC 54(1), 2009",
        "Each agent averages its neighbours' decisions with the weights W and takes a "
        "local gradient step: x_i ← Σ_j W_ij x_j − α ∇f_i(x_i). With a constant step "
        "it stalls in an O(α) neighbourhood of x*; gradient tracking removes that bias.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<Dgd>);
    d.params = {stepsizeParam(0.05, "Step size α_k (a number or a schedule).")};
    d.privacyParams = {noiseScaleParam("noise_x", "Noise on x",
                                       "Laplace scale b_k of the noise added once to each "
                                       "broadcast decision (0 = no noise).")};
    d.attack = {AttackSurface::Kind::DecisionStep, "x", "", "stepsize"};
    return d;
}

} // namespace dplab
