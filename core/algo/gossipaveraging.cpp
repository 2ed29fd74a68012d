// SPDX-License-Identifier: GPL-3.0-or-later
//
// "gossip": averaging of the agents' initial values by plain or accelerated gossip — the teaching
// view of the communication primitive inside paper 002's PD-FTGL / PD-OCG. The decisions are the
// agents' current estimates H^k (n×d), so `consensus_error` = (1/n) Σ_i ‖H^k_i − mean‖² is the
// gossip error per step (the mean is kept exactly, so it is the error against the true average).
// The problem of the run is not used.
#include "algo/privateonline.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/gossip.h"
#include "dplab/algo/mixing.h"

namespace dplab {

namespace {

class GossipAveraging final : public Algorithm
{
public:
    Status start(const RunContext &ctx) override
    {
        const int n = ctx.agents();
        const int d = ctx.dimension();
        const std::string mode = paramText(ctx.params, "acceleration");
        const GossipTheta rule = mode == "paper"       ? GossipTheta::Paper
                                 : mode == "chebyshev" ? GossipTheta::Chebyshev
                                                       : GossipTheta::Plain;
        if (rule != GossipTheta::Plain)
            mWarnings = privateonline::checkGossipMatrix(ctx.W);
        mSpectrum = gossipSpectrum(ctx.W);
        mGossip = AcceleratedGossip(ctx.W, gossipTheta(mSpectrum.sigma2, rule), d);
        mGossip.start(ctx.x0);
        mChannel = Broadcast("h", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        mScale = Eigen::VectorXd::Zero(n);
        return {};
    }

    void iterate(long long, std::vector<Message> *record) override
    {
        mBits += mChannel.send(mGossip.current(), mScale, record);
        mGossip.step(mChannel.sent());
    }

    const Eigen::MatrixXd &decisions() const override { return mGossip.current(); }

private:
    AcceleratedGossip mGossip;
    GossipSpectrum mSpectrum;
    Broadcast mChannel;
    Eigen::VectorXd mScale;
};

} // namespace

AlgorithmDescriptor describeGossip()
{
    auto d = algorithmDescriptor(
        "gossip", "Gossip averaging (plain / accelerated)",
        "J. Liu, A. S. Morse, Accelerated linear iterations for distributed averaging, Annual "
        "Reviews in Control 35(2), 2011; as used in X. Wang et al., ICML 2025, eq. (5)",
        "Every agent starts from its initial value and repeatedly averages with its neighbours. "
        "Plain gossip: H ← P H (error shrinks like σ₂^k). Accelerated gossip: H^{k+1} = (1+θ)PH^k − "
        "θH^{k−1}, H^{−1} = H^0, which keeps the mean exactly and shrinks the error roughly like "
        "(1 − c√(1 − σ₂))^k — much faster on poorly connected graphs such as rings. The "
        "consensus error plot is the gossip error per step.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<GossipAveraging>);
    d.params = {choiceParam("acceleration", "Acceleration", "paper", {"none", "paper", "chebyshev"},
                            "'none' = plain gossip (θ = 0); 'paper' = θ = 1/(1 + √(1 − σ₂²)) of "
                            "paper 002 eq. (7); 'chebyshev' = θ* = (1 − s)/(1 + s), s = √(1 − σ₂²).")};
    d.acceptsCompressor = false;
    d.needsOnline = false;
    {
        TheoryRate plain;
        plain.kind = TheoryRate::Kind::Linear;
        plain.metric = "consensus_error";
        plain.ratePower = 2.0; // ‖(W − 11ᵀ/n)^k e‖² ≤ ρ^(2k) ‖e‖² for a symmetric W
        plain.whenParam = "acceleration";
        plain.whenValue = "none";
        plain.label = "ρ^(2k), ρ = ‖W − 11ᵀ/n‖₂";
        plain.citation = "plain gossip contraction (Xiao & Boyd 2004)";
        d.theory.push_back(plain);
    }
    return d;
}

} // namespace dplab
