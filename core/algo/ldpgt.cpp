// SPDX-License-Identifier: GPL-3.0-or-later
//
// LDP gradient tracking for distributed online learning over directed graphs — Algorithm 1 of
// Z. Chen and Y. Wang (paper 000), line by line. Learner i keeps θ_i (model), s_i (tracker of the
// λ-weighted cumulative gradient) and z_i ∈ R^m (left-eigenvector estimator). At iteration t:
//
//   3: g_i = ∇f_{t,i}(θ_i(t))                 (the problem's gradient at t: for an online stream
//                                             the average over every sample received so far)
//   4: broadcast s_i(t) + ζ_i(t) over G_C,    ζ_i(t) ~ Lap(ν^i_ζ (t+1)^(−ς^i_ζ))^d, drawn once
//   5: s_i(t+1) = C_ii s_i(t) + Σ_{j≠i} C_ij (s_j(t) + ζ_j(t)) + λ_t g_i
//   6: broadcast θ_i(t) + ϑ_i(t) over G_R,    ϑ_i(t) ~ Lap(ν^i_ϑ (t+1)^(−ς^i_ϑ))^d, drawn once
//   7: θ_i(t+1) = R_ii θ_i(t) + Σ_{j≠i} R_ij (θ_j(t) + ϑ_j(t)) − (s_i(t+1) − s_i(t)) / (m [z_i(t)]_i)
//   8: z_i(t+1) = R_ii z_i(t) + Σ_{j≠i} R_ij z_j(t)          (sent noise-free over G_R)
//
// with λ_t = λ_0 (t+1)^(−v). The paper writes its weights as Laplacian-like matrices R_p, C_p
// (R_p 1 = 0, 1ᵀC_p = 0, negative diagonals) and mixes with (1 + R_p,ii) and R_p,ij; the
// RunContext hands over the stochastic matrices R = I + R_p (row-stochastic) and C = I + C_p
// (column-stochastic), so (1 + R_p,ii) = R_ii and R_p,ij = R_ij for j ≠ i — lines 5, 7, 8 above
// are the paper's lines in those terms (line 8: z + Σ R_p,ij (z_j − z) = R_ii z + Σ_{j≠i} R_ij z_j).
// The stacked z's rows are R^t, so m [z_i(t)]_i → u_i (left Perron vector of R, Σu = m).
// Own terms are noise-free; only what the neighbours receive is noisy. The increment
// s(t+1) − s(t) keeps 1ᵀ(s(t+1) − s(t)) = 1ᵀ(ζ_C(t) + λ_t ∇f_t(θ(t))) (eq. 8): the noise does
// not accumulate as in noisy Push-Pull (eq. 6).
//
// Initial tracker: the paper says "random" without a law; s_0 enters only through (C − I)s_0,
// which sums to zero, so it is a transient. DPLab sets s_0 = 0 by default; params.tracker_init
// = σ > 0 draws i.i.d. N(0, σ²) entries from a stream derived from (agent, RngPurpose::Init)
// that never coincides with the engine's x0 stream.
//
// Privacy: Theorem 3's accountant (core/privacy/paper000accountant.h), both bounds computed,
// privacy.accountant selects which one epsilon() reports; state("epsilon_finite_t") and
// state("epsilon_iterated") give both (n×1) for overlays.
#include "algo/dpcommon.h"
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/formatnumber.h"
#include "dplab/privacy/paper000accountant.h"
#include "dplab/common/schedule.h"

#include <cmath>
#include <limits>
#include <memory>

namespace dplab {

namespace {

class LdpGradientTracking final : public AccountedAlgorithm<Paper000Accountant>
{
public:
    Status start(const RunContext &ctx) override
    {
        const int n = ctx.agents();
        const int d = ctx.dimension();
        if (ctx.R.rows() != n || ctx.R.cols() != n || ctx.C.rows() != n || ctx.C.cols() != n)
            return Error::invalid("graph.weights", "ldp-gt needs a row-stochastic R and a column-stochastic C of size n×n");
        for (int i = 0; i < n; ++i)
            if (!(ctx.R(i, i) > 0))
                return Error::invalid("graph.weights.row",
                                      "ldp-gt needs R_ii > 0 for every agent (agent " + std::to_string(i)
                                          + " has R_ii = " + formatNumber(ctx.R(i, i))
                                          + "): the estimator divides by m [z_i]_i ≥ m R_ii^t");
        mR = ctx.R;
        mRowMixer = Mixer(ctx.R);
        mColumnMixer = Mixer(ctx.C);
        mStep = paramSchedule(ctx.params, "stepsize");
        mNuTheta = paramPerAgent(ctx.privacy, "noise_theta", n);
        mDecayTheta = paramPerAgent(ctx.privacy, "noise_theta_decay", n);
        mNuS = paramPerAgent(ctx.privacy, "noise_y", n);
        mDecayS = paramPerAgent(ctx.privacy, "noise_y_decay", n);

        mTheta = ctx.x0;
        mS = Eigen::MatrixXd::Zero(n, d);
        const double trackerInit = paramReal(ctx.params, "tracker_init");
        if (trackerInit > 0) {
            for (int i = 0; i < n; ++i) {
                Rng base = ctx.noise.stream(i, RngPurpose::Init);
                Rng rng(base.next() ^ 0x5eed5eed5eed5eedULL); // not the engine's x0 numbers
                for (int k = 0; k < d; ++k)
                    mS(i, k) = trackerInit * rng.gaussian();
            }
        }
        mZ = Eigen::MatrixXd::Identity(n, n);
        mNextZ.resize(n, n);
        mGrad = Eigen::MatrixXd::Zero(n, d);
        mNextTheta.resize(n, d);
        mNextS.resize(n, d);
        mKappa.resize(n);
        mScale.resize(n);
        mChannelS = Broadcast("s", n, d, ctx.noise, RngPurpose::TrackerNoise, ctx.compressor);
        mChannelTheta =
            Broadcast("theta", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        checkConditions(n);
        if (Status s = setUpAccountant(ctx, n, d); !s)
            return s;
        return {};
    }

    void iterate(long long t, std::vector<Message> *record) override
    {
        const int n = static_cast<int>(mTheta.rows());

        // 3: local gradient at the current θ over the data received so far.
        mProblem->gradients(mTheta, mGrad, t);
        // 4–5: s(t+1) = C_diag s(t) + C_off (s(t) + ζ(t)) + λ_t g
        decayingScales(mNuS, mDecayS, t, mScale);
        mBits += mChannelS.send(mS, mScale, record);
        mColumnMixer.mix(mS, mChannelS.sent(), mNextS);
        mNextS += mStep.at(t) * mGrad;
        // 6–7: θ(t+1) = R_diag θ(t) + R_off (θ(t) + ϑ(t)) − Z_t^{-1}(s(t+1) − s(t))
        decayingScales(mNuTheta, mDecayTheta, t, mScale);
        mBits += mChannelTheta.send(mTheta, mScale, record);
        mRowMixer.mix(mTheta, mChannelTheta.sent(), mNextTheta);
        mKappa = (static_cast<double>(n) * mZ.diagonal()).cwiseInverse();
        mNextTheta.noalias() -= mKappa.asDiagonal() * (mNextS - mS);
        // 8: z(t+1) = R z(t), sent in full precision without noise (m values per agent).
        mRowMixer.apply(mZ, mNextZ);
        mBits += static_cast<std::uint64_t>(n) * fullVectorBits(n);
        if (record)
            for (int i = 0; i < n; ++i)
                recordMessage(*record, i, "z", mZ.row(i).transpose(), Eigen::VectorXd::Zero(n), mZ.row(i).transpose(),
                              fullVectorBits(n));

        if (mAccountant) {
            mAccountant->advance(mKappa);
            mEpsFinite.col(0) = mAccountant->epsilonFiniteT();
            mEpsIterated.col(0) = mAccountant->epsilonIterated();
        }
        mTheta.swap(mNextTheta);
        mS.swap(mNextS);
        mZ.swap(mNextZ);
    }

    const Eigen::MatrixXd &decisions() const override { return mTheta; }

    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        const bool accounted = mAccountant != nullptr;
        return namedState(name, {{"s", &mS},
                                 {"z", &mZ},
                                 {"gradient", &mGrad}, // g(t) of the last step
                                 {"noise_scale", &mNoiseBase},
                                 {"epsilon_finite_t", accounted ? &mEpsFinite : nullptr},
                                 {"epsilon_iterated", accounted ? &mEpsIterated : nullptr}});
    }

private:
    void checkConditions(int n)
    {
        // Algorithm 1 input: λ_t = λ_0 (t+1)^(−v), v ∈ (1/2, 1).
        const bool polynomial = mStep.kind() == Schedule::Kind::Polynomial;
        const double v = polynomial ? mStep.p() : 0.0;
        if (!polynomial || mStep.t0() != 1.0)
            mWarnings.push_back("ldp-gt: Theorems 1–3 assume the step size λ_t = λ_0 (t+1)^(−v); got "
                                + mStep.toString());
        if (!(v > 0.5 && v < 1.0))
            mWarnings.push_back("ldp-gt: Algorithm 1 needs the step-size exponent v ∈ (1/2, 1); got v = "
                                + formatNumber(v));
        // Assumption 4: ς ∈ (1/2, 1) and max_i ς^i < v < 1, for the learners that add noise.
        double maxDecay = -std::numeric_limits<double>::infinity();
        bool noisy = false;
        std::string outside;
        auto check = [&](const Eigen::VectorXd &nu, const Eigen::VectorXd &decay, const char *what) {
            for (int i = 0; i < n; ++i) {
                if (!(nu[i] > 0))
                    continue;
                noisy = true;
                maxDecay = std::max(maxDecay, decay[i]);
                if (!(decay[i] > 0.5 && decay[i] < 1.0) && outside.empty())
                    outside = std::string(what) + " decay of agent " + std::to_string(i) + " is "
                              + formatNumber(decay[i]);
            }
        };
        check(mNuS, mDecayS, "the s-noise");
        check(mNuTheta, mDecayTheta, "the θ-noise");
        if (noisy && !(maxDecay < v && v < 1.0))
            mWarnings.push_back("ldp-gt: Theorems 1–3 need max_i ς^i < v < 1 (noise decaying more slowly "
                                "than the step size); max ς^i = "
                                + formatNumber(maxDecay) + ", v = " + formatNumber(v));
        if (!outside.empty())
            mWarnings.push_back("ldp-gt: Assumption 4 needs every noise decay ς^i ∈ (1/2, 1); " + outside);
    }

    Status setUpAccountant(const RunContext &ctx, int n, int d)
    {
        mAccountant.reset();
        mNoiseBase.resize(n, 2);
        const std::optional<double> target = dp::epsilonTarget(ctx.privacy);
        bool anyNoise = (mNuS.array() > 0).any() || (mNuTheta.array() > 0).any();
        if (!anyNoise && !target) {
            mNoiseBase << mNuTheta, mNuS;
            return {};
        }
        double cl = paramReal(ctx.privacy, "gradient_bound");
        if (!(cl > 0))
            cl = dp::problemFact(*mProblem, "gradient_l1_bound");
        double L = paramReal(ctx.privacy, "lipschitz");
        if (!(L > 0))
            L = dp::problemFact(*mProblem, "lipschitz");
        if (!(cl > 0)) {
            if (target)
                return Error::invalid("privacy.epsilon",
                                      "needs the ℓ1 gradient bound c_l: set privacy.gradient_bound or "
                                      "enable the problem's per-sample clipping");
            mWarnings.push_back("ldp-gt: no ε is computed: Theorem 3 needs the ℓ1 gradient bound c_l "
                                "(Assumption 5); set privacy.gradient_bound or enable clipping");
            mNoiseBase << mNuTheta, mNuS;
            return {};
        }
        Paper000PrivacySetup setup;
        setup.gradientBound = cl;
        setup.lipschitz = L > 0 ? L : std::numeric_limits<double>::infinity();
        setup.dimension = d;
        setup.setWeights(ctx.R, ctx.C);
        setup.stepsize = mStep;
        setup.nuS = mNuS;
        setup.decayS = mDecayS;
        setup.nuTheta = mNuTheta;
        setup.decayTheta = mDecayTheta;
        const auto bound = paramText(ctx.privacy, "accountant") == "finite-t" ? Paper000Bound::FiniteT
                                                                                : Paper000Bound::Iterated;
        if (target) {
            if (ctx.horizon <= 0)
                return Error::invalid("privacy.epsilon", "calibration needs the run's horizon (iterations)");
            // The given ν act as the shape: a learner with both ν = 0 starts from ν = 1.
            for (int i = 0; i < n; ++i)
                if (!(setup.nuS[i] > 0) && !(setup.nuTheta[i] > 0))
                    setup.nuS[i] = setup.nuTheta[i] = 1.0;
            for (int i = 0; i < n; ++i)
                if (!(setup.nuS[i] > 0) || !(setup.nuTheta[i] > 0))
                    return Error::invalid("privacy.epsilon",
                                          "calibration needs both noise scales of agent " + std::to_string(i)
                                              + " > 0 or both 0");
            const Eigen::VectorXd c = paper000NoiseMultipliers(setup, ctx.R, ctx.horizon, *target, bound);
            setup.nuS = setup.nuS.cwiseProduct(c);
            setup.nuTheta = setup.nuTheta.cwiseProduct(c);
            mNuS = setup.nuS;
            mNuTheta = setup.nuTheta;
        }
        if (!setup.nuS.allFinite() || !setup.nuTheta.allFinite())
            return Error::invalid("privacy", "the calibrated noise scales are not finite");
        mNoiseBase << mNuTheta, mNuS;
        if (setup.cC <= 0 || setup.cR <= 0)
            mWarnings.push_back("ldp-gt: some agent keeps all of its weight (C_ii = 1 or R_ii = 1): "
                                "the sensitivity recursion of Theorem 3 does not contract");
        mAccountant = std::make_unique<Paper000Accountant>(setup, bound);
        mEpsFinite = Eigen::MatrixXd::Zero(n, 1);
        mEpsIterated = Eigen::MatrixXd::Zero(n, 1);
        return {};
    }

    Eigen::MatrixXd mR;
    Mixer mRowMixer, mColumnMixer;
    Schedule mStep;
    Eigen::VectorXd mNuTheta, mDecayTheta, mNuS, mDecayS, mScale, mKappa;
    Broadcast mChannelS, mChannelTheta;
    Eigen::MatrixXd mTheta, mS, mZ, mGrad, mNextTheta, mNextS, mNextZ;
    Eigen::MatrixXd mNoiseBase, mEpsFinite, mEpsIterated;
};

} // namespace

AlgorithmDescriptor describeLdpGradientTracking()
{
    auto d = algorithmDescriptor(
        "ldp-gt", "LDP gradient tracking (online, directed)",
        "Z. Chen and Y. Wang, Locally differentially private gradient tracking for "
        "distributed online learning over directed graphs (paper 000), Algorithm 1",
        "Push-pull gradient tracking that puts the step size inside the tracker: s "
        "accumulates λ_t-weighted gradients (pushed over G_C with a column-stochastic "
        "C) and θ moves by the increment s(t+1) − s(t), rescaled by a local estimate "
        "m[z_t]_i of the left Perron vector of R (z pulled noise-free over G_R). Each "
        "learner adds its own Laplace noise, decaying as (t+1)^(−ς^i), to the shared s "
        "and θ; because only the current noise enters the increment (eq. 8) the "
        "learners still converge to θ*, and with ς^i < v the cumulative ε stays finite "
        "(Theorem 3).",
        GraphKind::Directed, WeightNeeds::RowColumn, makeAlgorithm<LdpGradientTracking>);
    auto step = stepsizeParam(1.0, "Step size λ_t = λ_0 (t+1)^(−v) with v ∈ (1/2, 1) "
                                   "(Algorithm 1); the paper's Fig. 2 uses λ_0 = 1, v = 0.61.");
    step.defaultValue = Json{{"type", "polynomial"}, {"a", 1.0}, {"t0", 1.0}, {"p", 0.61}};
    step.condition = "max_i ς^i < v < 1";
    d.params = {step,
                realParam("tracker_init", "Tracker init σ", 0.0, 0.0, 1e6,
                          "Initial s_0: 0 (default) or i.i.d. N(0, σ²) entries. The paper draws s_0 "
                          "at random without giving a law; s_0 only adds a transient.")};
    auto decayTheta = perAgentDecayParam("noise_theta_decay", "Noise decay ς_ϑ", 0.55,
                                         "Decay exponent ς^i_ϑ of the θ noise scale; Assumption 4 "
                                         "needs ς^i ∈ (1/2, 1) and max_i ς^i < v.");
    decayTheta.condition = "max_i ς^i < v < 1";
    auto decayS = perAgentDecayParam("noise_y_decay", "Noise decay ς_ζ", 0.55,
                                     "Decay exponent ς^i_ζ of the s noise scale; Assumption 4 needs "
                                     "ς^i ∈ (1/2, 1) and max_i ς^i < v.");
    decayS.condition = "max_i ς^i < v < 1";
    d.privacyParams = {
        perAgentNoiseParam("noise_theta", "Noise scale ν_ϑ",
                           "Laplace scale ν^i_ϑ of the noise on the shared θ (per agent or one "
                           "value); the scale at t is ν^i_ϑ (t+1)^(−ς^i_ϑ). 0 = no noise. Same key "
                           "as push-pull, so both can be given the same noise."),
        decayTheta,
        perAgentNoiseParam("noise_y", "Noise scale ν_ζ",
                           "Laplace scale ν^i_ζ of the noise on the shared tracker s (the key is "
                           "push-pull's tracker key); the scale at t is ν^i_ζ (t+1)^(−ς^i_ζ). 0 = no "
                           "noise."),
        decayS,
        choiceParam("accountant", "ε bound", "iterated", {"iterated", "finite-t"},
                    "Which Theorem 3 bound the ε metric reports: 'iterated' (sensitivity bounds of "
                    "eqs. (15), (19) iterated numerically; saturates) or 'finite-t' (Theorem 3-1 "
                    "literally; grows without bound). Both are computed."),
        realParam("gradient_bound", "Gradient ℓ1 bound c_l", 0.0, 0.0, 1e12,
                  "c_l of Assumption 5 (‖∇l‖_1 ≤ c_l). 0 = take it from the problem (its clipping "
                  "bound); without it no ε is computed.", {.logScale = true}),
        realParam("lipschitz", "Lipschitz constant L", 0.0, 0.0, 1e12,
                  "L of Assumption 3(iii), used by the iterated bound. 0 = take it from the "
                  "problem.", {.logScale = true}),
        dp::epsilonTargetParam("Target ε_i of every learner at the run's horizon, > 0: scale every "
                               "learner's ν^i_ζ, ν^i_ϑ (Remark 13) so that its ε_i under the selected "
                               "bound equals this value; the given scales then only set the ratio "
                               "between the two channels. Absent (or null): the scales as given.")};
    d.attack = {AttackSurface::Kind::StepInsideTracker, "theta", "s", "stepsize"};
    {
        // e = −1 + 1·p(stepsize) = −(1 − v)
        TheoryRate gap = powerRate("optimality_gap", -1.0, "O(t^−(1−v))", "paper 000, Theorem 2 (convex F)");
        gap.scheduleParam = "stepsize";
        gap.scheduleFactor = 1.0;
        d.theory.push_back(gap);
    }
    return d;
}

} // namespace dplab
