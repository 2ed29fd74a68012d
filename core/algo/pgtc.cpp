// SPDX-License-Identifier: GPL-3.0-or-later
//
// PGTC — private gradient tracking with compressed communication (paper 001, Algorithm 1),
// undirected graph, doubly stochastic W. Per agent i and iteration k = 0, 1, ...:
//   5   ξ_{x_i,k} ~ Lap_d(s_{ξx_i} q_i^k),  ξ_{y_i,k} ~ Lap_d(s_{ξy_i} q_i^k)
//   6   x^a_i = x_i + ξ_{x_i,k},  y^a_i = y_i + ξ_{y_i,k}                                 (8), (9)
//   7   broadcast C(x^a_i − x^c_i) and C(y^a_i − y^c_i)
//   9   x̂_j = x^c_j + C(x^a_j − x^c_j),  ŷ_j = y^c_j + C(y^a_j − y^c_j)                 (14), (15)
//       x^c_j ← (1 − α_x) x^c_j + α_x x̂_j,  y^c_j ← (1 − α_y) y^c_j + α_y ŷ_j          (16), (17)
//  10   x_i ← x^a_i + γ Σ_j w_ij (x̂_j − x̂_i) − η y_i                                     (12)
//       y_i ← y^a_i + γ Σ_j w_ij (ŷ_j − ŷ_i) + ∇f_i(x_i⁺) − ∇f_i(x_i)                    (13)
// with x^c = y^c = 0 and y_i(0) = ∇f_i(x_i(0)). The noise is KEPT: the agent continues from its
// noisy x^a_i, y^a_i (unlike Broadcast's noise-on-the-message semantics). −η y_i uses the
// un-noised tracker. The self weight w_ii multiplies x̂_i − x̂_i = 0, so only the off-diagonal
// of W enters: Σ_j w_ij (x̂_j − x̂_i) = −(L x̂)_i with L = D − W the Laplacian of the weights.
//
// Invariant (paper eq. (26)/(51)): because 1ᵀL = 0 (W symmetric / doubly stochastic),
//     Σ_i y_{i,k} = Σ_i ∇f_i(x_{i,k}) + Σ_i Σ_{t<k} ξ_{y_i,t}
// for any compressor, any α, with or without error feedback; likewise
//     Σ_i x_{i,k+1} = Σ_i (x_{i,k} + ξ_{x_i,k}) − η Σ_i y_{i,k}.
//
// Randomness: ξ_x from noise.stream(i, DecisionNoise), ξ_y from noise.stream(i, TrackerNoise),
// d draws per agent and message in coordinate order (the same numbers Broadcast would draw);
// compressor randomness from one stream per agent, noise.stream(i, Compressor), used by the x
// message then the y message. Bits: the compressor's count for each of the 2 messages per agent
// per iteration.
#include "algo/paper001common.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/referencechannel.h"

namespace dplab {

namespace {

class Pgtc final : public paper001::CompressedPrivateAlgorithm
{
public:
    Status start(const RunContext &ctx) override
    {
        const int n = ctx.agents();
        const int d = ctx.dimension();
        // 5–7 for x, and ξ_y ~ Lap_d(s_{ξy_i} q_i^k).
        if (Status s = startShared(ctx, Paper001Method::Pgtc, RngPurpose::TrackerNoise, mNoiseY); !s)
            return s;
        const double alphaY = paramReal(ctx.params, "alpha_y");
        mChannelY = ReferenceChannel("y", n, d, ctx.compressor, alphaY, mFeedback);

        mProblem->gradients(mX, mGrad, 0);
        mY = mGrad;
        mYa.resize(n, d);
        mMinusLapHat.resize(n, d);
        mNextGrad.resize(n, d);

        if (mGamma > 1.0)
            mWarnings.push_back("γ > 1: Lemma 3 takes γ ∈ (0, 1] (W_γ = (1 − γ)I + γW)");
        finishShared(ctx, {{alphaY, "α_y"}});
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        // 5–6: draw the noise and perturb the states (8), (9).
        mNoiseX.draw(k);
        mNoiseY.draw(k);
        mXa = mX + mNoiseX.noise();
        mYa = mY + mNoiseY.noise();
        // 7–9: compressed differences to the reference points, (14)–(17).
        mBits += mChannelX.send(mXa, mCompressorRng, record, &mNoiseX.noise());
        mBits += mChannelY.send(mYa, mCompressorRng, record, &mNoiseY.noise());
        // 10: (12) x ← x^a + γ Σ_j w_ij (x̂_j − x̂_i) − η y.
        mLaplacian.applyNegative(mChannelX.estimates(), mMinusLapHat);
        mX = mXa + mGamma * mMinusLapHat - mEta * mY;
        // (13) y ← y^a + γ Σ_j w_ij (ŷ_j − ŷ_i) + ∇f(x⁺) − ∇f(x).
        mProblem->gradients(mX, mNextGrad, k + 1);
        mLaplacian.applyNegative(mChannelY.estimates(), mMinusLapHat);
        mY = mYa + mGamma * mMinusLapHat + (mNextGrad - mGrad);
        mGrad.swap(mNextGrad);
        if (mAccountant)
            mAccountant->advance();
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }

    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        if (const auto *own = namedState(name, {{"y", &mY}, {"gradient", &mGrad}}))
            return own;
        if (const auto *x = paper001::channelState(name, "x", mChannelX, mNoiseX))
            return x;
        return paper001::channelState(name, "y", mChannelY, mNoiseY);
    }

private:
    paper001::GeometricNoise mNoiseY;
    ReferenceChannel mChannelY;
    Eigen::MatrixXd mY, mYa, mNextGrad;
    Eigen::MatrixXd mMinusLapHat; ///< −L x̂, then −L ŷ: row i is Σ_j w_ij (x̂_j − x̂_i)
};

} // namespace

AlgorithmDescriptor describePgtc()
{
    auto d = algorithmDescriptor(
        "pgtc", "PGTC (private compressed gradient tracking)",
        "A. Xie, X. Yi, X. Wang, M. Cao, X. Ren, Differentially private and communication-efficient "
        "distributed nonconvex optimization algorithms, arXiv:2307.16656 (Algorithm 1)",
        "Gradient tracking in which each agent adds geometrically decaying Laplace noise s·q^k to "
        "its x and y and keeps it, then sends only compressed differences C(x^a − x^c), "
        "C(y^a − y^c) to reference points x^c, y^c that every neighbour updates identically. "
        "The consensus step γ Σ_j w_ij (x̂_j − x̂_i) uses the reconstructed x̂ = x^c + C(·). "
        "It converges linearly (P–L) to a neighbourhood set by the y-noise accumulated in the "
        "tracker, whatever the compressor. 2 compressed messages per agent and iteration.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<Pgtc>);

    auto eta = realParam("stepsize", "Step size η", 0.1, 0.0, 1e3,
                         "η: the constant step on the tracker, x ← … − η y (Table I: 0.1 for C1/C2, 0.15 "
                         "for C3). Theorems 1/2 take η = ζ γ ρ²/L_f with a very small ζ.",
                         {.minExclusive = true, .logScale = true});
    eta.condition = "Theorems 1/2: η = ζ_η γ ρ²/L_f; Propositions 1: η < 1/(2L_f)";
    auto gamma = realParam("gamma", "Consensus step γ", 0.2, 0.0, 1e3,
                           "γ: weight of the compressed consensus correction γ Σ_j w_ij (x̂_j − x̂_i) "
                           "(Table I: 0.2 for C1/C2, 0.1 for C3). γ = 1 with the identity compressor gives "
                           "DiaDSP (10)–(11).", {.minExclusive = true});
    gamma.condition = "Lemma 3: γ ∈ (0, 1]; Theorems 1/2: γ = ζ_γ ρ φ_1";
    const auto ax = paper001::referenceStepParam({.key = "alpha_x", .symbol = "α_x", .state = "x",
                                                  .estimate = "x̂", .equation = "(16)",
                                                  .tableValue = 0.5, .condition = "Lemma 1"});
    const auto ay = paper001::referenceStepParam({.key = "alpha_y", .symbol = "α_y", .state = "y",
                                                  .estimate = "ŷ", .equation = "(17)",
                                                  .tableValue = 0.5, .condition = "Lemma 1"});
    d.params = {eta, gamma, ax, ay, paper001::errorFeedbackParam()};
    d.privacyParams = paper001::privacyParams(Paper001Method::Pgtc);
    d.exactWithoutNoise = NoiseFreeClaim{
        .privacy = Json{{"s_x", 0.0}, {"s_y", 0.0}},
        .citation = "paper 001, Algorithm 1 without noise: gradient tracking with exact "
                    "messages, linear under the P–Ł condition"};
    return d;
}

} // namespace dplab
