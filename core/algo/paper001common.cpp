// SPDX-License-Identifier: GPL-3.0-or-later
#include "algo/paper001common.h"

#include "algo/dpcommon.h"
#include "dplab/common/formatnumber.h"

#include <cmath>

namespace dplab::paper001 {

GeometricNoise::GeometricNoise(const NoiseSource &source, RngPurpose purpose, Eigen::VectorXd scale,
                               Eigen::VectorXd decay, int d)
    : mScale(std::move(scale)), mDecay(std::move(decay)), mNoise(Eigen::MatrixXd::Zero(mScale.size(), d))
{
    mStreams.reserve(static_cast<std::size_t>(mScale.size()));
    for (Eigen::Index i = 0; i < mScale.size(); ++i)
        mStreams.push_back(source.noiseStream(static_cast<int>(i), purpose));
    mRow.resize(d);
}

double GeometricNoise::scaleAt(int agent, long long k) const
{
    return mScale[agent] * std::pow(mDecay[agent], static_cast<double>(k));
}

void GeometricNoise::draw(long long k)
{
    for (Eigen::Index i = 0; i < mNoise.rows(); ++i) {
        const double b = scaleAt(static_cast<int>(i), k);
        if (b > 0) {
            mStreams[static_cast<std::size_t>(i)].laplace(static_cast<std::uint64_t>(k), b, mRow);
            mNoise.row(i) = mRow.transpose();
        } else {
            mNoise.row(i).setZero();
        }
    }
}

OffDiagonalLaplacian::OffDiagonalLaplacian(const Eigen::MatrixXd &w)
{
    Eigen::MatrixXd off = w;
    off.diagonal().setZero();
    mOff = off.sparseView(0.0, 0.0);
    mOff.makeCompressed();
    mRowSum = off.rowwise().sum();
}

const Eigen::MatrixXd *channelState(const std::string &name, const std::string &v,
                                    const ReferenceChannel &channel, const GeometricNoise &noise)
{
    if (name == v + "_ref")
        return &channel.references();
    if (name == v + "_hat")
        return &channel.estimates();
    if (name == "noise_" + v)
        return &noise.noise();
    if (name == "residual_" + v)
        return &channel.residuals();
    return nullptr;
}

ParamSpec errorFeedbackParam()
{
    return boolParam("error_feedback", "Error feedback", false,
                     "Not in paper 001: add a residual memory e_i to the difference before "
                     "compression, C(x^a − x^c + e), e ← x^a − x^c + e − C(·) (EF-SGD practice).");
}

ParamSpec referenceStepParam(const ReferenceStep &step)
{
    const std::string &a = step.symbol;
    const std::string c = step.state + "^c";
    auto spec = realParam(step.key, "Reference step " + a, step.tableValue, 0.0, 1e3,
                          a + ": step of the reference point, " + c + " ← (1 − " + a + ") " + c
                              + " + " + a + " " + step.estimate + " " + step.equation
                              + " (Table I: " + formatNumber(step.tableValue) + ").",
                          {.minExclusive = true});
    spec.condition = a + " ∈ (0, 1/r) (" + step.condition + ")";
    return spec;
}

std::vector<Rng> compressorStreams(const NoiseSource &noise, int n)
{
    std::vector<Rng> rng;
    rng.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        rng.push_back(noise.stream(i, RngPurpose::Compressor));
    return rng;
}

std::vector<ParamSpec> privacyParams(Paper001Method method)
{
    const bool pgtc = method == Paper001Method::Pgtc;
    auto sx = realParam("s_x", "Noise scale s_ξx", 0.1, 0.0, 1e9,
                        "s_{ξx_i}: Laplace scale at k = 0 of the noise ξ_{x_i,k} ~ Lap_d(s_{ξx_i} q_i^k) "
                        "added to x_i (kept in the state). Figs. 2/3/4 use 0.1, Fig. 7 uses 5, Table I "
                        "lists 100. 0 = no noise.", {.logScale = true});
    sx.perAgent = true;
    auto s2 = pgtc ? realParam("s_y", "Noise scale s_ξy", 0.1, 0.0, 1e9,
                               "s_{ξy_i}: Laplace scale at k = 0 of the noise ξ_{y_i,k} ~ Lap_d(s_{ξy_i} q_i^k) "
                               "added to the tracker y_i (kept in the state; it accumulates in Σ_i y_i, eq. "
                               "(26)). 0 = no noise.", {.logScale = true})
                   : realParam("s_v", "Noise scale s_ξv", 0.1, 0.0, 1e9,
                               "s_{ξv_i}: Laplace scale at k = 0 of the noise ξ_{v_i,k} ~ Lap_d(s_{ξv_i} q_i^k) "
                               "added to the dual variable v_i, which is never sent (it accumulates in "
                               "Σ_i v_i, eq. (79)). 0 = no noise.", {.logScale = true});
    s2.perAgent = true;
    auto q = realParam("q", "Noise decay q", 0.2, 0.0, 1.0,
                       "q_i: the noise scale at iteration k is s q_i^k (0 < q_i < 1). Figs. 2/3 use 0.2, "
                       "Table I lists 0.1, Figs. 4/7 sweep 0.18 … 0.9.", {.minExclusive = true});
    q.perAgent = true;
    q.condition = "0 < q < 1; Propositions 1/2: q > (ηL_f + √(η²L_f² + 4ηL_f))/2";
    auto bound = choiceParam("bound", "Privacy bound", "theorem", {"theorem", "proposition"},
                             pgtc ? "Which ε to report: 'theorem' = Theorem 3 eq. (25), finite horizon, "
                                    "needs the gradient bound M; 'proposition' = Proposition 1 eq. (24), "
                                    "infinite horizon, needs δ and L_f (Assumption 6)."
                                  : "Which ε to report: 'theorem' = Theorem 6 eq. (35), finite horizon, "
                                    "needs the gradient bound M; 'proposition' = Proposition 2 eq. (34), "
                                    "infinite horizon, needs δ and L_f (Assumption 6).");
    auto m = realParam("gradient_bound", "Gradient bound M", 0.0, 0.0, 1e12,
                       "M of Assumption 7, ‖∇f_i(x)‖ ≤ M for all x (Theorems 3/6). 0 = the bound the "
                       "problem states (its \"gradient_bound\" fact), if any; else no finite-horizon ε.",
                       {.logScale = true});
    auto delta = realParam("delta", "Sensitivity δ", 1.0, 0.0, 1e12,
                           "δ of Propositions 1/2: the ℓ1 bound ‖∇f^(1)_i − ∇f^(2)_i‖_1 ≤ δ of the (constant, "
                           "Assumption 6) gradient difference of two adjacent cost functions (reading of DiaDSP; "
                           "paper 001 leaves δ undefined).",
                           {.minExclusive = true, .logScale = true});
    auto lf = realParam("smoothness", "Smoothness L_f", 0.0, 0.0, 1e12,
                        "L_f of Assumption 1, used by Propositions 1/2 (η < 1/(2L_f) and the q threshold). "
                        "0 = the problem's \"smoothness\" fact, if any; else no infinite-horizon ε.",
                        {.logScale = true});
    auto target = dp::epsilonTargetParam(
                            "Privacy budget ε to reach at the run's horizon, > 0. When given, each agent's s_x and "
                            + std::string(pgtc ? "s_y" : "s_v")
                            + " only give the shape and are multiplied by the one factor that makes that "
                              "agent's ε (the selected bound; Theorem "
                            + std::string(pgtc ? "3 with K = iterations − 1" : "6 with K = iterations − 1")
                            + ", or the horizon-free Proposition) equal this target (ε ∝ 1/s). Absent (or null): "
                              "the scales as given.");
    return {sx, s2, q, bound, m, delta, lf, target};
}

namespace {

Paper001Bound boundOf(const RunContext &ctx)
{
    return paramText(ctx.privacy, "bound") == "proposition" ? Paper001Bound::InfiniteHorizon
                                                           : Paper001Bound::FiniteHorizon;
}

/** Every agent's accountant inputs with the given noise scales. */
std::vector<Paper001PrivacyInputs> agentInputs(const RunContext &ctx, Paper001Method method, double stepsize,
                                               double omega, const Eigen::VectorXd &sx, const Eigen::VectorXd &s2)
{
    const int n = ctx.agents();
    const Eigen::VectorXd q = paramPerAgent(ctx.privacy, "q", n);
    // M and L_f: the privacy object's values, else the facts the problem states (describe()).
    const Json facts = ctx.problem->describe();
    auto fromProblem = [&](const char *privacyKey, const char *factKey) {
        const double given = paramReal(ctx.privacy, privacyKey);
        if (given > 0)
            return given;
        const auto it = facts.find(factKey);
        return it != facts.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    const double gradientBound = fromProblem("gradient_bound", "gradient_bound");
    const double smoothness = fromProblem("smoothness", "smoothness");
    std::vector<Paper001PrivacyInputs> agents(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        Paper001PrivacyInputs &in = agents[static_cast<std::size_t>(i)];
        in.method = method;
        in.dimension = ctx.dimension();
        in.stepsize = stepsize;
        in.omega = omega;
        in.gradientBound = gradientBound;
        in.smoothness = smoothness;
        in.delta = paramReal(ctx.privacy, "delta");
        in.sx = sx[i];
        in.s2 = s2[i];
        in.q = q[i];
    }
    return agents;
}

} // namespace

Status calibrate(const RunContext &ctx, Paper001Method method, double stepsize, double omega, Eigen::VectorXd &sx,
                 Eigen::VectorXd &s2)
{
    const std::optional<double> target = dp::epsilonTarget(ctx.privacy);
    if (!target)
        return {};
    const char *secondKey = method == Paper001Method::Pgtc ? "privacy.s_y" : "privacy.s_v";
    if (!(sx.minCoeff() > 0) || !(s2.minCoeff() > 0))
        return Error::invalid(sx.minCoeff() > 0 ? secondKey : "privacy.s_x",
                              "must be > 0 for every agent: it gives the shape that the target ε rescales");
    const Paper001Bound bound = boundOf(ctx);
    if (bound == Paper001Bound::FiniteHorizon && ctx.horizon < 1)
        return Error::invalid("privacy.epsilon", "needs a run horizon (iterations ≥ 1)");
    const auto agents = agentInputs(ctx, method, stepsize, omega, sx, s2);
    for (std::size_t i = 0; i < agents.size(); ++i) {
        const Paper001PrivacyInputs &in = agents[i];
        double at = 0.0;
        if (bound == Paper001Bound::FiniteHorizon) {
            if (!(in.gradientBound > 0))
                return Error::invalid("privacy.gradient_bound",
                                      "must be > 0 (or stated by the problem) to calibrate the noise to a target ε");
            at = paper001TheoremEpsilon(in, ctx.horizon - 1); // the rounds 0..T−1 (header)
        } else {
            const auto e = paper001PropositionEpsilon(in);
            if (!e)
                return Error::invalid("privacy.epsilon", "cannot calibrate: " + paper001PropositionViolation(in));
            at = *e;
        }
        if (!std::isfinite(at))
            return Error::invalid("privacy.epsilon", "cannot calibrate: the bound at the horizon exceeds the "
                                                     "double range (it grows like q^{-K})");
        const double c = at / *target; // ε ∝ 1/s when s_x and the second scale move together
        sx[static_cast<Eigen::Index>(i)] *= c;
        s2[static_cast<Eigen::Index>(i)] *= c;
    }
    return {};
}

std::unique_ptr<Paper001Accountant> makeAccountant(const RunContext &ctx, Paper001Method method, double stepsize,
                                                   double omega, const Eigen::VectorXd &sx,
                                                   const Eigen::VectorXd &s2, std::vector<std::string> &warnings)
{
    const int n = ctx.agents();
    const char *secondKey = method == Paper001Method::Pgtc ? "s_y" : "s_v";
    if (sx.minCoeff() <= 0 || s2.minCoeff() <= 0) {
        warnings.push_back(std::string("no differential privacy: s_x or ") + secondKey
                           + " is 0 for some agent (the paper needs both positive); ε is not reported");
        return nullptr;
    }
    const Paper001Bound bound = boundOf(ctx);
    auto agents = agentInputs(ctx, method, stepsize, omega, sx, s2);
    if (bound == Paper001Bound::FiniteHorizon) {
        if (!(agents.front().gradientBound > 0)) {
            warnings.push_back("privacy.gradient_bound (M of Assumption 7) is not set and the problem states "
                               "no bound: ε of "
                               + std::string(method == Paper001Method::Pgtc ? "Theorem 3" : "Theorem 6")
                               + " is not reported");
            return nullptr;
        }
    } else {
        for (int i = 0; i < n; ++i) {
            const std::string why = paper001PropositionViolation(agents[static_cast<std::size_t>(i)]);
            if (!why.empty()) {
                warnings.push_back("agent " + std::to_string(i) + ": " + why + "; ε is not reported");
                return nullptr;
            }
        }
    }
    if (bound == Paper001Bound::FiniteHorizon && ctx.horizon > 0) {
        // (25)/(35) grow like q^{-K}: say where the bound leaves the double range (then ε = ∞).
        long long lo = 0, hi = ctx.horizon - 1;
        auto overflows = [&](long long K) {
            for (const auto &in : agents)
                if (std::isinf(paper001TheoremEpsilon(in, K)))
                    return true;
            return false;
        };
        if (overflows(hi)) {
            while (lo < hi) {
                const long long mid = lo + (hi - lo) / 2;
                if (overflows(mid))
                    hi = mid;
                else
                    lo = mid + 1;
            }
            warnings.push_back("ε of " + std::string(method == Paper001Method::Pgtc ? "Theorem 3" : "Theorem 6")
                               + " exceeds the double range (reported as ∞) from iteration " + std::to_string(lo + 1)
                               + " on: the finite-horizon bound grows like q^{-K}");
        }
    }
    return std::make_unique<Paper001Accountant>(bound, std::move(agents));
}

void checkAlpha(const RunContext &ctx, double alpha, const std::string &symbol, std::vector<std::string> &warnings)
{
    if (ctx.compressor->isIdentity())
        return; // x̂ = x^c + (x^a − x^c) = x^a whatever α: the reference step plays no role
    const double r = ctx.compressor->r(ctx.dimension());
    if (r > 0 && alpha >= 1.0 / r)
        warnings.push_back(symbol + " = " + formatNumber(alpha) + " is not below 1/r = "
                           + formatNumber(1.0 / r) + " ("
                           + ctx.compressor->id() + " has r = " + formatNumber(r)
                           + "): the convergence theorems need " + symbol + " ∈ (0, 1/r)");
}

void checkDecay(const Eigen::VectorXd &q, std::vector<std::string> &warnings)
{
    if (q.size() > 0 && q.maxCoeff() >= 1.0)
        warnings.push_back("q = 1: the noise does not decay (the paper needs 0 < q < 1); the accumulated "
                           "noise grows without bound");
}

Status CompressedPrivateAlgorithm::startShared(const RunContext &ctx, Paper001Method method,
                                               RngPurpose secondPurpose, GeometricNoise &second)
{
    const int n = ctx.agents();
    const int d = ctx.dimension();
    mMethod = method;
    mEta = paramReal(ctx.params, "stepsize");
    mGamma = paramReal(ctx.params, "gamma");
    mAlphaX = paramReal(ctx.params, "alpha_x");
    mFeedback = paramBool(ctx.params, "error_feedback");

    mLaplacian = OffDiagonalLaplacian(ctx.W);

    mDecay = paramPerAgent(ctx.privacy, "q", n);
    mScaleX = paramPerAgent(ctx.privacy, "s_x", n);
    mScale2 = paramPerAgent(ctx.privacy, method == Paper001Method::Pgtc ? "s_y" : "s_v", n);
    if (Status s = calibrate(ctx, method, mEta, mOmega, mScaleX, mScale2); !s)
        return s;
    mNoiseX = GeometricNoise(ctx.noise, RngPurpose::DecisionNoise, mScaleX, mDecay, d);
    second = GeometricNoise(ctx.noise, secondPurpose, mScale2, mDecay, d);
    mCompressorRng = compressorStreams(ctx.noise, n);
    mChannelX = ReferenceChannel("x", n, d, ctx.compressor, mAlphaX, mFeedback);

    mX = ctx.x0;
    mXa.resize(n, d);
    mGrad.resize(n, d);
    return {};
}

void CompressedPrivateAlgorithm::finishShared(const RunContext &ctx, std::initializer_list<ChannelStep> moreSteps,
                                              const std::optional<std::string> &ownWarning)
{
    checkAlpha(ctx, mAlphaX, "α_x", mWarnings);
    for (const ChannelStep &step : moreSteps)
        checkAlpha(ctx, step.alpha, step.symbol, mWarnings);
    checkDecay(mDecay, mWarnings);
    if (ownWarning)
        mWarnings.push_back(*ownWarning);
    mAccountant = makeAccountant(ctx, mMethod, mEta, mOmega, mScaleX, mScale2, mWarnings);
}

} // namespace dplab::paper001
