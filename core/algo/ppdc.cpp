// SPDX-License-Identifier: GPL-3.0-or-later
//
// PPDC — private primal-dual with compressed communication (paper 001, Algorithm 2), undirected
// graph, doubly stochastic W used through its Laplacian L = D − W (D = diag of the off-diagonal
// row sums; L = I − W when W is stochastic, whatever its diagonal). Per agent i, k = 0, 1, ...:
//   5   ξ_{x_i,k} ~ Lap_d(s_{ξx_i} q_i^k),  ξ_{v_i,k} ~ Lap_d(s_{ξv_i} q_i^k)
//   6   broadcast C(x_i + ξ_{x_i,k} − x^c_i)  (one compressed vector)
//       x̂_j = x^c_j + C(x^a_j − x^c_j) for j ∈ N_i ∪ {i}                                 (14)
//   8   x_i ← x_i + ξ_{x_i,k} − η (γ Σ_j L_ij x̂_j + ω v_i + ∇f_i(x_i))                   (31)
//       v_i ← v_i + ξ_{v_i,k} + η ω Σ_j L_ij x̂_j                                         (32)
//   9   x^c_j ← (1 − α_x) x^c_j + α_x x̂_j for j ∈ N_i ∪ {i}                              (16)
// with x^c = 0, v = 0. The gradient is taken at the un-noised x_i; both noises are kept in the
// state; v is never sent. Step 9 of the paper updates only x^c_i; the neighbours' copies x^c_j
// (needed to form x̂_j) are updated the same way, as Algorithm 1 states explicitly.
//
// Invariants (paper (79), and (80) with the upper limit k − 1): since 1ᵀL = 0,
//     Σ_i v_{i,k} = Σ_i Σ_{t<k} ξ_{v_i,t}
//     x̄_{k+1} = x̄_k + ξ̄_{x,k} − η ḡ_k − η ω v̄_k,   ḡ_k = (1/n) Σ_i ∇f_i(x_{i,k}).
//
// Randomness: ξ_x from noise.stream(i, DecisionNoise), ξ_v from noise.stream(i, DualNoise),
// compressor randomness from noise.stream(i, Compressor). Bits: one compressed message per agent
// and iteration.
#include "algo/paper001common.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/referencechannel.h"

namespace dplab {

namespace {

class Ppdc final : public paper001::CompressedPrivateAlgorithm
{
public:
    Status start(const RunContext &ctx) override
    {
        mOmega = paramReal(ctx.params, "omega");
        // 5–7 for x, and ξ_v ~ Lap_d(s_{ξv_i} q_i^k).
        if (Status s = startShared(ctx, Paper001Method::Ppdc, RngPurpose::DualNoise, mNoiseV); !s)
            return s;
        mV = Eigen::MatrixXd::Zero(ctx.agents(), ctx.dimension());
        mLapXHat.resize(ctx.agents(), ctx.dimension());
        finishShared(ctx, {},
                     mOmega <= 1.0 ? std::optional<std::string>("ω ≤ 1: Theorems 4/5 need ω > ζ̃_2 > 1 (Remark 6)")
                                   : std::nullopt);
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        // 5: draw the noises; 6–7: broadcast C(x^a − x^c) and reconstruct x̂ (14).
        mNoiseX.draw(k);
        mNoiseV.draw(k);
        mXa = mX + mNoiseX.noise();
        mProblem->gradients(mX, mGrad, k);
        mBits += mChannelX.send(mXa, mCompressorRng, record, &mNoiseX.noise());
        // 8: (31) and (32) with L x̂ (row i: Σ_{j≠i} w_ij (x̂_i − x̂_j)).
        mLaplacian.apply(mChannelX.estimates(), mLapXHat);
        mX = mXa - mEta * (mGamma * mLapXHat + mOmega * mV + mGrad);
        mV += mNoiseV.noise() + (mEta * mOmega) * mLapXHat;
        // 9: (16) was applied by the channel to every holder's copy.
        if (mAccountant)
            mAccountant->advance();
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }

    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        // gradient: ∇f at the previous iterate x_{k−1} (the one the last step used).
        if (const auto *own = namedState(name, {{"v", &mV}, {"gradient", &mGrad}, {"noise_v", &mNoiseV.noise()}}))
            return own;
        return paper001::channelState(name, "x", mChannelX, mNoiseX);
    }

private:
    paper001::GeometricNoise mNoiseV;
    Eigen::MatrixXd mV;
    Eigen::MatrixXd mLapXHat; ///< +L x̂: row i is Σ_{j≠i} w_ij (x̂_i − x̂_j)
};

} // namespace

AlgorithmDescriptor describePpdc()
{
    auto d = algorithmDescriptor(
        "ppdc", "PPDC (private compressed primal-dual)",
        "A. Xie, X. Yi, X. Wang, M. Cao, X. Ren, Differentially private and communication-efficient "
        "distributed nonconvex optimization algorithms, arXiv:2307.16656 (Algorithm 2)",
        "The primal-dual method of Yi et al. with geometrically decaying Laplace noise s·q^k added "
        "to x and to the (never sent) dual v and kept in the state. Each agent sends one "
        "compressed difference C(x^a − x^c) to a reference point x^c per iteration and uses the "
        "reconstructed x̂ = x^c + C(·) in the Laplacian terms. The v-noise accumulates in Σ v and "
        "sets the accuracy (about ω times PGTC's).",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<Ppdc>);

    auto eta = realParam("stepsize", "Step size η", 0.015, 0.0, 1e3,
                         "η: the primal-dual step (Table I: 0.015 for C1, 0.01 for C2/C3).",
                         {.minExclusive = true, .logScale = true});
    eta.condition = "Theorems 4/5: 0 < η < ζ̃_3; Proposition 2: η < 1/(2L_f)";
    auto gamma = realParam("gamma", "Consensus weight γ", 45.0, 0.0, 1e6,
                           "γ: weight of the consensus term γ L x̂ in the primal update (31) "
                           "(Table I: 45 for C1/C2, 25 for C3).",
                           {.minExclusive = true, .logScale = true});
    gamma.condition = "Theorems 4/5: γ = ζ̃_1 ω";
    auto omega = realParam("omega", "Dual weight ω", 5.0, 0.0, 1e6,
                           "ω: weight of the dual variable in (31) and of the dual ascent η ω L x̂ in (32) "
                           "(Table I: 5).", {.minExclusive = true, .logScale = true});
    omega.condition = "Theorems 4/5: ω > ζ̃_2 > 1";
    const auto ax = paper001::referenceStepParam({.key = "alpha_x", .symbol = "α_x", .state = "x",
                                                  .estimate = "x̂", .equation = "(16)",
                                                  .tableValue = 0.2, .condition = "Theorems 4/5"});
    d.params = {eta, gamma, omega, ax, paper001::errorFeedbackParam()};
    d.privacyParams = paper001::privacyParams(Paper001Method::Ppdc);
    d.exactWithoutNoise = NoiseFreeClaim{
        .privacy = Json{{"s_x", 0.0}, {"s_v", 0.0}},
        .citation = "paper 001, Algorithm 2 without noise: a primal-dual method with exact "
                    "messages, linear under the P–Ł condition"};
    return d;
}

} // namespace dplab
