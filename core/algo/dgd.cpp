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
    Status reset(const RunContext &ctx) override
    {
        mProblem = ctx.problem;
        mMixer = Mixer(ctx.W);
        mStep = paramSchedule(ctx.params, "stepsize");
        mNoise = paramSchedule(ctx.privacy, "noise_x");
        const int n = static_cast<int>(ctx.x0.rows());
        const int d = static_cast<int>(ctx.x0.cols());
        mX = ctx.x0;
        mNext.resize(n, d);
        mGrad.resize(n, d);
        mScale.resize(n);
        mChannel = Broadcast("x", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        restart();
        return {};
    }

    void step() override
    {
        auto *record = messageRecord();
        mProblem->gradients(mX, mGrad, mIteration);
        mScale.setConstant(mNoise.at(mIteration));
        mBits += mChannel.send(mX, mScale, record);
        mMixer.mix(mX, mChannel.sent(), mNext);
        mNext -= mStep.at(mIteration) * mGrad;
        mX.swap(mNext);
        ++mIteration;
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }

private:
    std::shared_ptr<const Problem> mProblem;
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
    AlgorithmDescriptor d;
    d.id = "dgd";
    d.name = "Decentralized gradient descent";
    d.reference = "A. Nedić, A. Ozdaglar, Distributed subgradient methods for multi-agent "
                  "optimization, IEEE TAC 54(1), 2009";
    d.explanation = "Each agent averages its neighbours' decisions with the weights W and takes a "
                    "local gradient step: x_i ← Σ_j W_ij x_j − α ∇f_i(x_i). With a constant step "
                    "it stalls in an O(α) neighbourhood of x*; gradient tracking removes that bias.";
    d.graphKind = GraphKind::Undirected;
    d.weights = WeightNeeds::Doubly;
    d.params = {stepsizeParam(0.05, "Step size α_k (a number or a schedule).")};
    d.privacyParams = {noiseScaleParam("noise_x", "Noise on x",
                                       "Laplace scale b_k of the noise added once to each "
                                       "broadcast decision (0 = no noise).")};
    d.attack = {AttackSurface::Kind::DecisionStep, "x", "", "stepsize"};
    d.create = [] { return std::make_unique<Dgd>(); };
    return d;
}

} // namespace dplab
