// SPDX-License-Identifier: GPL-3.0-or-later
//
// DiaDSP: differentially private gradient tracking by state and direction perturbation
// (T. Ding, S. Zhu, J. He, C. Chen, X. Guan, IEEE TAC 67(2), 2021), in the uncompressed form
// that paper 001 writes as eqs. (8)–(11) and uses as its baseline (paper 003's baseline [40]):
//     x^a_i = x_i + ξ_{x,i},   y^a_i = y_i + ξ_{y,i},   ξ ~ Lap(s_x q^k)^r, Lap(s_y q^k)^r
//     x_i(k+1) = Σ_j w_ij x^a_j(k) − η y_i(k)
//     y_i(k+1) = Σ_j w_ij y^a_j(k) + ∇f_i(x_i(k+1)) − ∇f_i(x_i(k)),      y_i(0) = ∇f_i(x_i(0))
// The sums run over all j, the agent's own noisy values included (paper 001 eq. (10) as
// printed; there w_ii = 0 by definition, with self-loops the own term is the noisy one), so the
// agent continues from the perturbed state. Noise enters 1ᵀy and accumulates:
// 1ᵀy(k) = 1ᵀ(∇f(x(k)) + Σ_{t<k} ξ_y(t)), which is what paper 003's Algorithm 1 avoids.
// Full-precision messages (no compressor).
#include "algo/dpcommon.h"
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/decomposition.h"
#include "dplab/common/formatnumber.h"
#include "dplab/privacy/diadspaccountant.h"
#include "dplab/privacy/paper003accountant.h"
#include "dplab/common/schedule.h"

#include <Eigen/Eigenvalues>

#include <cmath>

namespace dplab {

namespace {

class DiaDsp final : public AccountedAlgorithm<DiaDspAccountant>
{
    /** ∇f at x for round t, clipped to C or checked against it (defined first: its type is
     *  deduced). */
    auto boundedGradients()
    {
        return [this](const Eigen::MatrixXd &x, Eigen::MatrixXd &out, long long t) {
            mProblem->gradients(x, out, t);
            mBound.enforce(out, t);
        };
    }

public:
    Status start(const RunContext &ctx) override
    {
        mMixer = Mixer(ctx.W);
        const int n = ctx.agents();
        const int d = ctx.dimension();
        mStep = paramSchedule(ctx.params, "stepsize");
        mNoiseX = paramSchedule(ctx.privacy, "noise_x");
        mNoiseY = paramSchedule(ctx.privacy, "noise_y");
        if (Status s = mBound.reset(ctx.privacy, ctx.problem.get()); !s)
            return s;
        DiaDspPrivacySetup setup{mStep, mNoiseX, mNoiseY, gradientSensitivity(d, mBound.bound())};
        std::vector<std::string> notes;
        if (const std::optional<double> target = dp::epsilonTarget(ctx.privacy)) {
            // s_x first enters at round 1 (Δx_0 = 0): a one-iteration run needs no x shape.
            const Result<double> factor = dp::roundSumFactor(
                setup, mBound, ctx.horizon, *target,
                {{.scale = mNoiseY.a(), .field = "privacy.noise_y"},
                 {.scale = mNoiseX.a(), .field = "privacy.noise_x", .needed = ctx.horizon > 1}});
            if (!factor)
                return factor.error();
            mNoiseX = setup.noiseX = dp::scaledSchedule(mNoiseX, *factor);
            mNoiseY = setup.noiseY = dp::scaledSchedule(mNoiseY, *factor);
            notes.push_back(dp::calibrationNote("s_x(k) = " + mNoiseX.toString() + ", s_y(k) = "
                                                    + mNoiseY.toString() + " give ε",
                                                *target, ctx.horizon));
        }
        mAccountant = dp::accountantIfBounded(
            mNoiseX.a() > 0 || mNoiseY.a() > 0, mBound,
            "no ε is accounted (the sensitivity needs ‖∇f_i‖₂ ≤ C)", mWarnings,
            [&] { return std::make_unique<DiaDspAccountant>(n, setup, notes); });
        if (ctx.W.size() > 0 && ctx.W.isApprox(ctx.W.transpose(), 1e-12)) {
            Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(ctx.W, Eigen::EigenvaluesOnly);
            if (Status s = checkDecomposed(ErrorCode::Internal, "", "weights W",
                                           "eigen-decomposition", solver.info(),
                                           solver.eigenvalues().allFinite());
                !s)
                return s;
            const double low = solver.eigenvalues().minCoeff();
            if (low < 0)
                mWarnings.push_back("W has a negative eigenvalue (" + formatNumber(low)
                                    + "): noisy gradient tracking that mixes its own noisy state "
                                      "can oscillate; a lazy (PSD) W is safer");
        }

        mState.reset(ctx.x0, boundedGradients());
        mChannels.reset(ctx);
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        mBits += mChannels.send(mState, mNoiseX.at(k), mNoiseY.at(k), record);
        // (10) x⁺ = W x^a − η y;  (11) y⁺ = W y^a + ∇f(x⁺) − ∇f(x).
        mState.step(
            k, mStep.at(k), [&](auto &out) { mMixer.apply(mChannels.x().sent(), out); },
            [&](auto &out) { mMixer.apply(mChannels.y().sent(), out); }, boundedGradients());
        if (mAccountant)
            mAccountant->advance();
    }

    const Eigen::MatrixXd &decisions() const override { return mState.x(); }
    std::vector<std::string> warnings() const override
    {
        return mBound.withViolation(mWarnings, "‖∇f_i‖₂", mAccountant != nullptr);
    }
    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        return mState.state(name);
    }

private:

    Mixer mMixer;
    Schedule mStep, mNoiseX, mNoiseY;
    dp::GradientBound mBound;
    TrackingChannels mChannels;
    TrackingState mState;
};

} // namespace

AlgorithmDescriptor describeDiaDsp()
{
    auto d = algorithmDescriptor(
        "diadsp", "DiaDSP (DP gradient tracking, state and direction perturbation)",
        "T. Ding, S. Zhu, J. He, C. Chen, X. Guan, Differentially private distributed "
        "optimization via state and direction perturbation in multiagent systems, "
        "IEEE TAC 67(2), 2021; uncompressed form of paper 001 eqs. (8)–(11)",
        "Gradient tracking in which each agent broadcasts x_i + ξ_x and y_i + ξ_y (Laplace, scale "
        "s·q^k, one draw per message) and continues from the perturbed values: x ← W x^a − η y, "
        "y ← W y^a + ∇f(x⁺) − ∇f(x), y(0) = ∇f(x(0)). The y-noise accumulates in the tracked "
        "gradient, 1ᵀy(k) = 1ᵀ∇f + Σ_{t<k} 1ᵀξ_y(t), so the iterates settle at a noise-dependent "
        "point; with geometric noise the budget grows like q^{−K}. Full-precision messages.",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<DiaDsp>);
    d.acceptsCompressor = false;
    d.params = {stepsizeParam(0.1, "Step size η (constant in DiaDSP; a schedule is accepted).")};
    auto nx = noiseScaleParam("noise_x", "Noise on x",
                              "Laplace scale s_x q^k of the noise on the broadcast x_i, e.g. "
                              "{\"type\":\"geometric\",\"a\":s_x,\"q\":q}. 0 = no noise.");
    auto ny = noiseScaleParam("noise_y", "Noise on y",
                              "Laplace scale s_y q^k of the noise on the broadcast tracker y_i. "
                              "0 = no noise.");
    d.privacyParams = {nx, ny, dp::epsilonTargetParam(), dp::gradientBoundParam(),
                       dp::clipSwitchParam()};
    d.exactWithoutNoise = NoiseFreeClaim{
        .citation = "without noise DiaDSP is gradient tracking (Nedić, Olshevsky and Shi 2017): "
                    "linear convergence to x*"};
    return d;
}

} // namespace dplab
