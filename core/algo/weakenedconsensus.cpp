// SPDX-License-Identifier: GPL-3.0-or-later
#include "algo/weakenedconsensus.h"

#include "algo/dpcommon.h"
#include "algo/tracking.h"
#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"
#include "dplab/common/formatnumber.h"
#include "dplab/privacy/weakenedaccountant.h"
#include "dplab/common/schedule.h"

#include <cmath>
#include <limits>

namespace dplab::weakened {

namespace {

/** Exponent p of a polynomial schedule a/(t + t0)^p, 0 for a constant one, NaN otherwise. */
double exponentOf(const Schedule &s)
{
    if (s.kind() == Schedule::Kind::Polynomial)
        return s.p();
    if (s.kind() == Schedule::Kind::Constant)
        return 0.0;
    return std::numeric_limits<double>::quiet_NaN();
}

class WeakenedConsensus final : public AccountedAlgorithm<WeakenedConsensusAccountant>
{
public:
    explicit WeakenedConsensus(Variant variant) : mVariant(variant) {}

    Status start(const RunContext &ctx) override
    {
        const int n = ctx.agents();
        const int d = ctx.dimension();
        if (ctx.W.rows() != n || ctx.W.cols() != n)
            return Error::invalid("graph.weights", "needs a doubly stochastic W of size n×n");
        mMixer = Mixer(ctx.W);
        mStep = paramSchedule(ctx.params, "stepsize");
        mWeakening = paramSchedule(ctx.params, "weakening");
        mNu = paramPerAgent(ctx.privacy, "noise_theta", n);
        mDecay = paramPerAgent(ctx.privacy, "noise_theta_decay", n);
        checkConditions(ctx.W);
        if (Status s = setUpAccountant(ctx, n, d); !s)
            return s;

        mTheta = ctx.x0;
        mMixed.resize(n, d);
        mGrad.resize(n, d);
        mScale.resize(n);
        mChannel = Broadcast("theta", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        return {};
    }

    void iterate(long long t, std::vector<Message> *record) override
    {
        mProblem->gradients(mTheta, mGrad, t);
        decayingScales(mNu, mDecay, t, mScale);
        mBits += mChannel.send(mTheta, mScale, record);
        // mixed_i = W_ii θ_i + Σ_{j≠i} W_ij (θ_j + ϑ_j); the coupling Σ_{j≠i} W_ij ((θ_j + ϑ_j) − θ_i)
        // is mixed_i − θ_i because the row sums to 1.
        mMixer.mix(mTheta, mChannel.sent(), mMixed);
        const double gamma = mWeakening.at(t);
        mTheta += gamma * (mMixed - mTheta) - mStep.at(t) * mGrad;
        if (mAccountant)
            mAccountant->advance();
    }

    const Eigen::MatrixXd &decisions() const override { return mTheta; }
    const Eigen::MatrixXd *state(const std::string &name) const override
    {
        return namedState(name, {{"gradient", &mGrad}, {"noise_scale", &mNoiseBase}});
    }

private:
    const char *tag() const { return mVariant == Variant::ChenWang48 ? "reconstructed [48]" : "reconstructed [47]"; }

    void checkConditions(const Eigen::MatrixXd &W)
    {
        // γ_0 max_i |w_ii| ≤ 1 keeps I + γ_t W_Laplacian nonnegative (docs/paper000-results.md §9).
        const double maxSelf = (Eigen::VectorXd::Ones(W.rows()) - W.diagonal()).maxCoeff();
        if (mWeakening.at(0) * maxSelf > 1.0)
            mWarnings.push_back(std::string(tag()) + ": γ_0 max_i (1 − W_ii) = "
                                + formatNumber(mWeakening.at(0) * maxSelf)
                                + " > 1: the weakened mixing matrix has negative entries");
        // Typical conditions of this line of work (not read in the papers): Σγ = ∞, Σλ = ∞,
        // Σλ²/γ < ∞ (2v − u > 1), Σγ²ν² < ∞ (ς > 1/2 − u for ν (t+1)^(−ς)).
        const double u = exponentOf(mWeakening);
        const double v = exponentOf(mStep);
        if (!(u > 0.5 && u <= 1.0) || !(v <= 1.0) || !(2.0 * v - u > 1.0))
            mWarnings.push_back(std::string(tag()) + ": the reconstruction's convergence conditions are "
                                "γ_t = γ_0 (t+1)^(−u), λ_t = λ_0 (t+1)^(−v) with 1/2 < u ≤ 1 and (1+u)/2 < v ≤ 1 "
                                "(here γ_t = " + mWeakening.toString() + ", λ_t = " + mStep.toString() + ")");
        if (std::isfinite(u))
            for (Eigen::Index i = 0; i < mNu.size(); ++i)
                if (mNu[i] > 0 && !(u - mDecay[i] > 0.5)) {
                    mWarnings.push_back(std::string(tag()) + ": Σ γ_t² ν_t² < ∞ needs the noise decay ς > 1/2 − u = "
                                        + formatNumber(0.5 - u) + " (agent " + std::to_string(i)
                                        + " has ς = "
                                        + formatNumber(mDecay[i]) + ")");
                    break;
                }
    }

    Status setUpAccountant(const RunContext &ctx, int n, int d)
    {
        mAccountant.reset();
        const std::optional<double> target = dp::epsilonTarget(ctx.privacy);
        double cl = paramReal(ctx.privacy, "gradient_bound");
        if (!(cl > 0))
            cl = dp::problemFact(*mProblem, "gradient_l1_bound");
        const bool online = mVariant == Variant::ChenWang48;
        double L = online ? paramReal(ctx.privacy, "lipschitz") : 0.0;
        if (online && !(L > 0))
            L = dp::problemFact(*mProblem, "lipschitz");
        const bool anyNoise = (mNu.array() > 0).any();
        mNoiseBase = mNu;
        if (!anyNoise && !target)
            return {};
        if (!(cl > 0)) {
            if (target)
                return Error::invalid("privacy.epsilon", "needs the ℓ1 gradient bound c_l: set privacy.gradient_bound "
                                                         "or enable the problem's per-sample clipping");
            mWarnings.push_back(std::string(tag()) + ": no ε is computed: the sensitivity needs the ℓ1 gradient "
                                                     "bound c_l (privacy.gradient_bound or clipping)");
            return {};
        }
        WeakenedConsensusPrivacySetup setup;
        setup.gradientBound = cl;
        setup.lipschitz = L > 0 ? L : std::numeric_limits<double>::infinity();
        setup.dimension = d;
        setup.online = online;
        setup.stepsize = mStep;
        setup.weakening = mWeakening;
        setup.selfCoupling = Eigen::VectorXd::Ones(n) - ctx.W.diagonal();
        setup.nu = mNu;
        setup.decay = mDecay;
        std::vector<std::string> notes;
        if (target) {
            if (ctx.horizon < 1)
                return Error::invalid("privacy.epsilon", "calibration needs the run's horizon (iterations ≥ 1)");
            if (!anyNoise)
                setup.nu.setOnes(); // no shape given: one common scale
            for (int i = 0; i < n; ++i)
                if (!(setup.nu[i] > 0))
                    return Error::invalid("privacy.noise_theta", "calibration needs every agent's scale > 0 "
                                                                 "(or all 0)");
            const Eigen::VectorXd eps = weakenedConsensusEpsilon(setup, ctx.horizon);
            if (!eps.allFinite() || !(eps.array() > 0).all())
                return Error::invalid("privacy.epsilon", "the accountant gives no finite positive ε at the horizon");
            if (online) {
                // LDP: every learner spends the target (as ldp-gt calibrates).
                setup.nu = setup.nu.cwiseProduct(eps / *target);
            } else {
                // Centralized DP: one scale factor for the network, max_i ε_i = target.
                setup.nu *= eps.maxCoeff() / *target;
            }
            mNu = setup.nu;
            notes.push_back("calibrated to ε = " + formatNumber(*target) + " after "
                            + std::to_string(ctx.horizon)
                            + " iterations (" + (online ? "every learner" : "max over agents") + ")");
        }
        mNoiseBase = mNu;
        const std::string name = online
                                     ? "reconstructed [48], event-level coupling bound (paper 000 Lemma 10 style)"
                                     : "reconstructed [47], derived coupling bound (grows without bound in T)";
        mAccountant = std::make_unique<WeakenedConsensusAccountant>(setup, name, notes);
        return {};
    }

    Variant mVariant;
    Mixer mMixer;
    Schedule mStep, mWeakening;
    Eigen::VectorXd mNu, mDecay, mScale;
    Eigen::MatrixXd mNoiseBase;
    Broadcast mChannel;
    Eigen::MatrixXd mTheta, mMixed, mGrad;
};

std::vector<ParamSpec> params(double stepExponent, double weakeningExponent, const std::string &weakeningHelp)
{
    auto step = stepsizeParam(1.0, "Step size λ_t = λ_0 (t+1)^(−v) (not reported by paper 000, which tuned it "
                                   "'near-optimally'; the reconstruction needs (1+u)/2 < v ≤ 1).");
    step.defaultValue = Json{{"type", "polynomial"}, {"a", 1.0}, {"t0", 1.0}, {"p", stepExponent}};
    step.condition = "(1+u)/2 < v ≤ 1";
    auto weakening = scheduleParam("weakening", "Weakening factor γ_t",
                                   Json{{"type", "polynomial"}, {"a", 1.0}, {"t0", 1.0}, {"p", weakeningExponent}},
                                   0.0, 1e6, weakeningHelp, {.minExclusive = true});
    weakening.condition = "1/2 < u ≤ 1";
    return {step, weakening};
}

std::vector<ParamSpec> privacyParams(Variant variant)
{
    const bool online = variant == Variant::ChenWang48;
    auto nu = perAgentNoiseParam("noise_theta", "Noise scale ν",
                                 online ? "Laplace scale ν^i of the noise on the shared θ (per learner or one "
                                          "value); the scale at t is ν^i (t+1)^(−ς^i). 0 = no noise."
                                        : "Laplace scale ν of the noise on the shared x (centralized DP: one "
                                          "value for the network, a list is accepted); the scale at k is "
                                          "ν (k+1)^(−ς). 0 = no noise.");
    auto decay = realParam("noise_theta_decay", "Noise decay ς", 0.0, -1.0, 10.0,
                           "Exponent ς of the noise scale ν (t+1)^(−ς): 0 = persistent noise (allowed by the "
                           "weakening-factor methods), < 0 = growing. Convergence of the reconstruction needs "
                           "ς > 1/2 − u.");
    decay.perAgent = true;
    auto cl = realParam("gradient_bound", "Gradient ℓ1 bound c_l", 0.0, 0.0, 1e12,
                        "c_l with ‖∇l‖_1 ≤ c_l (0 = the problem's clipping bound); without it no ε is computed.",
                        {.logScale = true});
    auto target = dp::epsilonTargetParam(
        online ? "Target ε, > 0: scale every learner's ν so that its ε_i after the run's iterations "
                 "equals this value (the accountant is ∝ 1/ν); the given ν set the shape. Absent (or "
                 "null): ν as given."
               : "Target ε, > 0: scale ν by the one factor that makes max_i ε_i after the run's "
                 "iterations equal this value. The derived bound grows without limit in the "
                 "horizon: this is a finite-horizon budget only. Absent (or null): ν as given.");
    std::vector<ParamSpec> out = {nu, decay, cl};
    if (online)
        out.push_back(realParam("lipschitz", "Lipschitz constant L", 0.0, 0.0, 1e12,
                                "L of the per-sample gradient, used by the event-level (1/(t+1)) branch of the "
                                "sensitivity. 0 = the problem's value.", {.logScale = true}));
    out.push_back(target);
    return out;
}

} // namespace

AlgorithmDescriptor describe(const Baseline &baseline)
{
    const std::string reconstructed = "reconstructed from paper 000's description, not from the original paper";
    auto d = algorithmDescriptor(baseline.id, baseline.name, baseline.reference + " — " + reconstructed,
                                 "R" + reconstructed.substr(1) + ". " + baseline.summary,
                                 GraphKind::Undirected, WeightNeeds::Doubly,
                                 [variant = baseline.variant] { return std::make_unique<WeakenedConsensus>(variant); });
    d.params = params(baseline.stepExponent, baseline.weakeningExponent, baseline.weakeningHelp);
    d.privacyParams = privacyParams(baseline.variant);
    return d;
}

} // namespace dplab::weakened
