// SPDX-License-Identifier: GPL-3.0-or-later
//
// Gradient-tracking based differentially private distributed optimization (paper 003, Xuan &
// Wang, Algorithm 1), undirected graphs with a symmetric doubly stochastic W, w_ii > 0.
// Per agent: the decision x_i and the cumulative-gradient tracker s_i (s_{i,0} = 0). Round k:
//   a) agent i draws ONE η_{i,k} ~ Lap(b_η)^r and ONE ξ_{i,k} ~ Lap(b_ξ)^r and broadcasts
//      s_{i,k} + β_k η_{i,k} and x_{i,k} + β_k ξ_{i,k} to all neighbours (drawn here as
//      Lap(β_k b), the same law: the sampler is linear in the scale);
//   b) s_{i,k+1} = w_ii s_{i,k} + Σ_{j≠i} w_ij (s_{j,k} + β_k η_{j,k}) + γ_k ∇f_i(x_{i,k})
//      x_{i,k+1} = w_ii x_{i,k} + Σ_{j≠i} w_ij (x_{j,k} + β_k ξ_{j,k}) − α (s_{i,k+1} − s_{i,k})
// Own terms are noise-free; the gradient is exact (optionally clipped to C) and taken at x_{i,k};
// the x-update uses the new s. Tracking identity (6): Σ_i (s_{i,k+1} − s_{i,k}) =
// γ_k Σ_i ∇f_i(x_{i,k}) + β_k Σ_i (1 − w_ii) η_{i,k}, so the noise does not accumulate in the
// tracked gradient (it does in plain noisy gradient tracking).
//
// Noise parameters follow the paper: Laplace scales b_η, b_ξ (per-coordinate variance
// 2 β_k² b²), not variances. Sec. 5.2's "σ² = 0.01" is read as per-coordinate variance,
// b = √(0.01/2) ≈ 0.0707.
#include "algo/dpcommon.h"
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/algo/paper003theory.h"
#include "dplab/common/formatnumber.h"
#include "dplab/privacy/paper003accountant.h"
#include "dplab/common/schedule.h"
#include "dplab/graph/analysis.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace dplab {

namespace {

// The exponent form of a schedule: a/(t0 + k)^p (constant: p = 0). False for geometric ones.
struct PowerForm {
    double a = 0.0, m = 1.0, p = 0.0;
};

bool powerForm(const Schedule &s, PowerForm &out)
{
    switch (s.kind()) {
    case Schedule::Kind::Constant:
        out = {s.a(), 0.0, 0.0};
        return true;
    case Schedule::Kind::Polynomial:
        out = {s.a(), s.t0(), s.p()};
        return true;
    case Schedule::Kind::Geometric:
        return false;
    }
    return false;
}

/** μ and L: the parameters, else the problem's facts (local constants); false if either is
 *  unknown. */
bool problemConstants(const Json &params, const Problem &problem, double &mu, double &L)
{
    mu = paramReal(params, "mu");
    L = paramReal(params, "lipschitz");
    const Json facts = problem.describe();
    if (mu <= 0 && facts.contains("strong_convexity") && facts["strong_convexity"].is_number())
        mu = facts["strong_convexity"].get<double>();
    if (L <= 0 && facts.contains("smoothness") && facts["smoothness"].is_number())
        L = facts["smoothness"].get<double>();
    return mu > 0 && L > 0;
}

/** Theorem 3's θ for one run, as a level on distance_to_optimum: mean_i ‖x_i − x*‖ ≤
 *  √(Σ_i ‖x_i − x*‖²/n) (Cauchy–Schwarz) and E√Z ≤ √(E Z) (Jensen), so θ ≥ limsup E‖x − 1x*‖²
 *  gives limsup E[distance_to_optimum] ≤ √(θ/n). A constant γ and β reduce to γ_k = β_k = 1:
 *  with s' = s/γ the run is the same with step αγ and tracker noise β b_η/γ, decision noise
 *  β b_ξ. */
TheoryLevel thetaLevel(const TheoryRun &run)
{
    TheoryLevel out;
    const Schedule gamma = paramSchedule(run.params, "gamma");
    const Schedule beta = paramSchedule(run.privacy, "beta");
    if (gamma.kind() != Schedule::Kind::Constant || beta.kind() != Schedule::Kind::Constant) {
        out.why = "Theorem 3's θ needs constant γ_k and β_k";
        return out;
    }
    if (dp::epsilonTarget(run.privacy)) {
        out.why = "the noise is calibrated to the target ε when the run starts; θ is shown for "
                  "explicit noise scales (no privacy.epsilon)";
        return out;
    }
    if (paramBool(run.privacy, "clip")) {
        out.why = "Theorem 3 assumes exact gradients, and clipping is on";
        return out;
    }
    if (run.compressed) {
        out.why = "Theorem 3 assumes uncompressed messages";
        return out;
    }
    Paper003Constants c;
    if (!problemConstants(run.params, run.problem, c.mu, c.L)) {
        out.why = "the problem states no μ and L (set params.mu and params.lipschitz)";
        return out;
    }
    const Eigen::MatrixXd &w = run.W;
    if (w.rows() < 2 || !w.isApprox(w.transpose(), 1e-9)) {
        out.why = "Theorem 3 needs a symmetric W on at least two agents";
        return out;
    }
    const double g = gamma.a(), b = beta.a();
    const double alpha = paramReal(run.params, "alpha") * g;
    if (!(g > 0) || !(alpha > 0)) {
        out.why = "αγ must be > 0";
        return out;
    }
    const double r = run.problem.dimension();
    const double bEta = b * paramReal(run.privacy, "noise_s") / g, bXi = b * paramReal(run.privacy, "noise_x");
    c.n = static_cast<int>(w.rows());
    c.rhoW = consensusRate(w);
    c.rhoWo = dp::offDiagonalSpectralRadius(w);
    c.sigmaEta2 = 2 * r * bEta * bEta;
    c.sigmaXi2 = 2 * r * bXi * bXi;
    const Paper003SteadyState state = paper003SteadyState(c, alpha);
    if (!(state.rhoA < 1)) {
        const std::array<double, 3> bounds = paper003Theorem3StepBounds(c);
        out.why = "ρ(A) = " + formatNumber(state.rhoA) + " ≥ 1 at αγ = " + formatNumber(alpha)
                  + ": (30) has no finite steady state (Theorem 3's step bound: αγ < "
                  + formatNumber(std::min({bounds[0], bounds[1], bounds[2]})) + ")";
        return out;
    }
    out.value = std::sqrt(state.theta / c.n);
    out.label = formatNumber(out.value) + " (θ = " + formatNumber(state.theta)
                + ", ρ(A) = " + formatNumber(state.rhoA) + ")";
    return out;
}

class RobustDpGt final : public AccountedAlgorithm<Paper003Accountant>
{
public:
    Status start(const RunContext &ctx) override
    {
        mW = ctx.W;
        mMixer = Mixer(ctx.W);
        const int n = ctx.agents();
        const int d = ctx.dimension();
        mAlpha = paramReal(ctx.params, "alpha");
        mGamma = paramSchedule(ctx.params, "gamma");
        mBeta = paramSchedule(ctx.privacy, "beta");
        mNoiseS = paramReal(ctx.privacy, "noise_s");
        mNoiseX = paramReal(ctx.privacy, "noise_x");
        const std::optional<double> target = dp::epsilonTarget(ctx.privacy);
        if (Status s = mBound.reset(ctx.privacy, ctx.problem.get()); !s)
            return s;

        Paper003PrivacySetup setup;
        setup.alpha = mAlpha;
        setup.gamma = mGamma;
        setup.beta = mBeta;
        setup.sensitivity = gradientSensitivity(d, mBound.bound());
        std::vector<std::string> notes;
        if (target) {
            if (Status s = mBound.canCalibrate(ctx.horizon); !s)
                return s;
            // Shape: the given scales (their ratio); both 0 means b_η = b_ξ.
            setup.noiseS = mNoiseS;
            setup.noiseX = mNoiseX;
            if (mNoiseS == 0.0 && mNoiseX == 0.0)
                setup.noiseS = setup.noiseX = 1.0;
            const double factor = paper003CalibrationFactor(mW.diagonal(), setup, ctx.horizon - 1, *target);
            if (!std::isfinite(factor))
                return Error::invalid(mNoiseS == 0.0 ? "privacy.noise_s" : "privacy.noise_x",
                                      "must be > 0: its messages leak with zero noise, no scale "
                                      "reaches a finite ε");
            mNoiseS = factor * setup.noiseS;
            mNoiseX = factor * setup.noiseX;
            notes.push_back(dp::calibrationNote("b_η = " + formatNumber(mNoiseS) + ", b_ξ = "
                                                    + formatNumber(mNoiseX) + " give max_i ε_i",
                                                *target, ctx.horizon)
                            + " (rounds 0.." + std::to_string(ctx.horizon - 1) + ")");
        }
        setup.noiseS = mNoiseS;
        setup.noiseX = mNoiseX;
        mAccountant = dp::accountantIfBounded(
            mNoiseS > 0 || mNoiseX > 0, mBound,
            "Assumption 2's C is unknown, so no ε is accounted (Theorem 2 needs ‖∇f_i‖₂ ≤ C)",
            mWarnings,
            [&] { return std::make_unique<Paper003Accountant>(mW.diagonal(), setup, notes); });
        checkConditions(ctx);

        mX = ctx.x0;
        mS = Eigen::MatrixXd::Zero(n, d);
        mNextX.resize(n, d);
        mNextS.resize(n, d);
        mGrad.resize(n, d);
        // Assumption 2 at the start already (the runner reads warnings() after reset).
        if (!mBound.clips() && mBound.bound() > 0 && mAccountant) {
            mProblem->gradients(mX, mGrad, 0);
            mBound.check(mGrad, 0);
        }
        mScale.resize(n);
        mChannelS = Broadcast("s", n, d, ctx.noise, RngPurpose::TrackerNoise, ctx.compressor);
        mChannelX = Broadcast("x", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        return {};
    }

    void iterate(long long k, std::vector<Message> *record) override
    {
        const double beta = mBeta.at(k);
        // a) one noisy message per state and agent, broadcast to all neighbours.
        mBits += sendAtScale(mChannelS, mS, beta * mNoiseS, mScale, record);
        mBits += sendAtScale(mChannelX, mX, beta * mNoiseX, mScale, record);

        // b) s first (gradient at the current x), then x with the new s.
        mProblem->gradients(mX, mGrad, k);
        mBound.enforce(mGrad, k);
        mMixer.mix(mS, mChannelS.sent(), mNextS);
        mNextS += mGamma.at(k) * mGrad;
        mMixer.mix(mX, mChannelX.sent(), mNextX);
        mNextX -= mAlpha * (mNextS - mS);

        mX.swap(mNextX);
        mS.swap(mNextS);
        if (mAccountant)
            mAccountant->advance();
    }

    const Eigen::MatrixXd &decisions() const override { return mX; }

    std::vector<std::string> warnings() const override
    {
        return mBound.withViolation(mWarnings, "Assumption 2 fails on the iterates: ‖∇f_i‖₂",
                                    mAccountant != nullptr);
    }

    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        return namedState(name, {{"s", &mS},
                                 {"gradient", &mGrad},             // the (clipped) ∇f_i(x_{i,k}) of the last step
                                 {"noise_s", &mChannelS.noise()},  // β_k η_k of the last step
                                 {"noise_x", &mChannelX.noise()}}); // β_k ξ_k of the last step
    }

private:
    // Theorem conditions that the resolved parameters violate (warnings, not errors).
    void checkConditions(const RunContext &ctx)
    {
        const Eigen::MatrixXd &w = mW;
        const int n = static_cast<int>(w.rows());
        if (!w.isApprox(w.transpose(), 1e-9))
            mWarnings.push_back("Assumption 4: W must be symmetric (the analysis and identity (6) "
                                "use 1ᵀW = 1ᵀ and W = Wᵀ)");
        for (int i = 0; i < n; ++i) {
            if (!(w(i, i) > 0)) {
                mWarnings.push_back("Assumption 4: w_ii > 0 is required; agent " + std::to_string(i)
                                    + " has w_ii = " + formatNumber(w(i, i)));
                break;
            }
        }

        PowerForm g, b;
        const bool gOk = powerForm(mGamma, g);
        const bool bOk = powerForm(mBeta, b);
        if (!gOk || !bOk) {
            mWarnings.push_back("Theorem 1 covers γ_k = γ/(m+k)^p and β_k = 1/(m+k)^q only; a "
                                "geometric schedule has no convergence guarantee (Theorem 2's ε "
                                "still holds)");
            return;
        }
        const double p = g.p, q = b.p;
        if (p > 0 && q > 0 && g.m != b.m)
            mWarnings.push_back("Theorem 1 takes one m for γ_k = γ/(m+k)^p and β_k = 1/(m+k)^q; "
                                "here m = " + formatNumber(g.m) + " and " + formatNumber(b.m));
        const double gamma0 = mGamma.at(0);
        double mu = 0, L = 0;
        const bool known = problemConstants(ctx.params, *mProblem, mu, L);
        const double rhoW = consensusRate(w);
        const double t = 1.0 - rhoW * rhoW;
        const double dI = std::sqrt(static_cast<double>(n - 1)); // d_I² = ‖I − 11ᵀ/n‖_F² = n − 1

        if (known && !(mAlpha * gamma0 < 2.0 / (mu + L)))
            mWarnings.push_back("Lemma 1 needs αγ_0 < 2/(μ+L) = " + formatNumber(2.0 / (mu + L))
                                + "; αγ_0 = " + formatNumber(mAlpha * gamma0));

        if (p == 0 && q == 0) {
            // Theorems 3 and 4 (γ_k = β_k = 1; a constant γ rescales α, a constant β rescales b).
            if (!known)
                return;
            const double a = mAlpha * g.a;
            Paper003Constants c;
            c.n = n;
            c.mu = mu;
            c.L = L;
            c.rhoW = rhoW;
            const std::array<double, 3> b3 = paper003Theorem3StepBounds(c);
            const double b4 = paper003Theorem4StepBound(c);
            const char *names[3] = {"1/(μ+L)", "(1−ρ_w²)/(4√2 d_I L)", "√(2d3/(d2+√(d2²+4d1d3)))"};
            for (int i = 0; i < 3; ++i)
                if (!(a < b3[i]))
                    mWarnings.push_back(std::string("Theorem 3 (linear convergence with γ_k = β_k = 1) "
                                                    "needs α < ")
                                        + names[i] + " = " + formatNumber(b3[i])
                                        + "; αγ = " + formatNumber(a));
            if (!(a < b4))
                mWarnings.push_back("Theorem 4 (error θ increasing in ρ_w and ρ(W_o)) needs "
                                    "α < (1−ρ_w²)/(8 d_I L) = "
                                    + formatNumber(b4) + "; αγ = " + formatNumber(a));
            return;
        }
        if (p == 0 && q > 0) {
            if (!known)
                return;
            const double a = mAlpha * g.a;
            const double rr = rhoW * rhoW;
            const double c41 = 64 * (1 + rr) * (3 * mu + L) * std::pow(L, 6) * dI * dI
                               / (std::pow(t, 4) * (mu + L));
            const double c42 = 64 * (1 + rr) * (mu * mu + 2 * mu * L + 5 * L * L) * L * L * dI * dI
                               / (std::pow(t, 4) * (mu + L) * (mu + L));
            const double bounds[3] = {2.0 / (mu + L), t / (4 * std::sqrt(2.0) * L * dI),
                                      std::sqrt(2.0 / (c42 + std::sqrt(c42 * c42 + 4 * c41)))};
            const char *names[3] = {"2/(μ+L)", "(1−ρ_w²)/(4√2 L d_I)", "√(2/(c42+√(c42²+4c41)))"};
            for (int i = 0; i < 3; ++i)
                if (!(a < bounds[i]))
                    mWarnings.push_back(std::string("Theorem 1 case 1 (p = 0, q > 0) needs αγ < ")
                                        + names[i] + " = " + formatNumber(bounds[i])
                                        + " (c41, c42 of Corollary 1); αγ = " + formatNumber(a));
            return;
        }
        if (p > 0 && p <= 1 && q > p) {
            if (known) {
                const double need = std::min(2 * q - p, 2 * p) / mu;
                if (!(mAlpha * g.a > need))
                    mWarnings.push_back("Theorem 1 case 2 (0 < p ≤ 1, q > p) needs αγ > "
                                        "min{2q−p, 2p}/μ = " + formatNumber(need) + "; αγ = "
                                        + formatNumber(mAlpha * g.a));
            }
            return;
        }
        if (p > 1 && q >= p / 2) {
            mWarnings.push_back("Theorem 1 case 3 (p > 1, q ≥ p/2): E‖x̄_k − x*‖² only stays "
                                "bounded (O(1) + O(1)/(m+k)^p); it is not shown to vanish");
            return;
        }
        std::string why;
        if (p == 0)
            why = "case 1 (p = 0) needs q > 0";
        else if (p <= 1)
            why = "case 2 (0 < p ≤ 1) needs q > p = " + formatNumber(p);
        else
            why = "case 3 (p > 1) needs q ≥ p/2 = " + formatNumber(p / 2);
        mWarnings.push_back("No case of Theorem 1 covers p = " + formatNumber(p)
                            + ", q = " + formatNumber(q) + ": "
                            + why + "; there is no convergence guarantee, only Theorem 2's "
                            "finite-horizon ε");
    }

    Eigen::MatrixXd mW;
    Mixer mMixer;
    double mAlpha = 0.0;
    Schedule mGamma, mBeta;
    double mNoiseS = 0.0, mNoiseX = 0.0;
    dp::GradientBound mBound;
    Broadcast mChannelS, mChannelX;
    Eigen::MatrixXd mX, mS, mNextX, mNextS, mGrad;
    Eigen::VectorXd mScale;
};

} // namespace

AlgorithmDescriptor describeRobustDpGt()
{
    auto d = algorithmDescriptor(
        "robust-dp-gt", "Robust DP gradient tracking (paper 003)",
        "Y. Xuan, Y. Wang, Gradient-tracking based differentially private distributed "
        "optimization with enhanced optimization accuracy, arXiv 2212.05364 "
        "(Automatica), Algorithm 1; builds on S. Pu, Robust gradient tracking "
        "(R-Push-Pull)",
        "Each agent tracks the cumulative gradient s_i instead of the gradient and broadcasts "
        "s_i + β_k η_i and x_i + β_k ξ_i (one Laplace draw per message, own terms noise-free): "
        "s ← w_ii s + Σ_{j≠i} w_ij (noisy s_j) + γ_k ∇f_i(x_i), x ← w_ii x + Σ_{j≠i} w_ij "
        "(noisy x_j) − α (s⁺ − s). Then Σ_i (s⁺_i − s_i) = γ_k Σ_i ∇f_i + β_k Σ_i (1 − w_ii) η_i: "
        "the noise enters the tracked gradient once and does not accumulate. A decaying step "
        "γ_k = γ/(m+k)^p and noise factor β_k = 1/(m+k)^q trade accuracy against ε (Theorem 2, "
        "eq. 18; finite over an infinite horizon when p − q > 2, Corollary 3). With γ_k = β_k = 1 "
        "it converges linearly to a noise ball whose size grows with ρ_w and ρ(W_o) (Theorems "
        "3–4). Noise parameters are Laplace scales b (variance 2β_k²b² per coordinate).",
        GraphKind::Undirected, WeightNeeds::Doubly, makeAlgorithm<RobustDpGt>);
    auto alpha = realParam("alpha", "Step size α", 0.05, 0.0, 1e6,
                           "Constant outer step α of the x-update x ← … − α (s⁺ − s).",
                           {.minExclusive = true, .logScale = true});
    alpha.condition = "Lemma 1: αγ_0 < 2/(μ+L); Theorems 1, 3, 4 bound α (or αγ)";
    auto gamma = scheduleParam("gamma", "Gradient step γ_k", 1.0, 0.0, 1e6,
                               "Step γ_k multiplying the gradient in the s-update: a number (constant, "
                               "e.g. 1) or {\"type\":\"polynomial\",\"a\":γ,\"t0\":m,\"p\":p} for "
                               "γ/(m+k)^p.",
                               {.logScale = true});
    gamma.condition = "Theorem 1 cases by (p, q); Corollary 3 needs p − q > 2";
    auto mu = realParam("mu", "μ (for warnings)", 0.0, 0.0, 1e12,
                        "Strong convexity μ of every f_i, used only to check the step-size "
                        "conditions of Lemma 1 and Theorems 1, 3, 4. 0 = take the problem's "
                        "\"strong_convexity\" fact, if it states one, else not checked.");
    auto lip = realParam("lipschitz", "L (for warnings)", 0.0, 0.0, 1e12,
                         "Gradient Lipschitz constant L of every f_i, used only to check the "
                         "step-size conditions. 0 = take the problem's \"smoothness\" fact, if "
                         "it states one, else not checked.");
    d.params = {alpha, gamma, mu, lip};

    auto noiseS = realParam("noise_s", "Laplace scale b_η (s)", 0.0, 0.0, 1e9,
                            "Laplace scale b_η of η_{i,k} on the broadcast tracker s_i; the message "
                            "carries β_k η (variance 2β_k²b_η² per coordinate). 0 = no noise.",
                            {.logScale = true});
    auto noiseX = realParam("noise_x", "Laplace scale b_ξ (x)", 0.0, 0.0, 1e9,
                            "Laplace scale b_ξ of ξ_{i,k} on the broadcast decision x_i; the "
                            "message carries β_k ξ. 0 = no noise.", {.logScale = true});
    auto beta = scheduleParam("beta", "Noise factor β_k", 1.0, 0.0, 1e6,
                              "Factor β_k on both noises: a number (1 = constant noise) or "
                              "{\"type\":\"polynomial\",\"a\":1,\"t0\":m,\"p\":q} for 1/(m+k)^q.",
                              {.logScale = true});
    beta.condition = "Theorem 1 cases by (p, q); Theorem 2's ε has β_k in the denominator";
    d.privacyParams = {noiseS, noiseX, beta, dp::epsilonTargetParam(), dp::gradientBoundParam(),
                       dp::clipSwitchParam()};
    {
        TheoryRate theta;
        theta.kind = TheoryRate::Kind::Level;
        theta.metric = "distance_to_optimum";
        theta.label = "steady-state bound √(θ/n)";
        theta.citation = "paper 003, Theorem 3 (θ = 2nθ1 + 2θ2 of eq. 31)";
        theta.level = thetaLevel;
        d.theory.push_back(theta);
    }
    d.exactWithoutNoise = NoiseFreeClaim{
        .citation = "paper 003, Theorem 3 without noise (σ_η = σ_ξ = 0): the steady-state "
                    "bound θ is 0"};
    return d;
}

} // namespace dplab
