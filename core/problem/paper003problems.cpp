// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/paper003problems.h"
#include "problem/problementry.h"

#include "dplab/problem/objectives.h"
#include "dplab/common/decomposition.h"
#include "dplab/common/jsonmatrix.h"

#include <Eigen/Cholesky>

#include <cassert>
#include <cmath>

namespace dplab {

// --- Rendezvous ------------------------------------------------------------------------------

RendezvousProblem::RendezvousProblem(Eigen::MatrixXd points, Json facts)
    : mPoints(std::move(points)), mFacts(std::move(facts))
{
    assert(mPoints.rows() >= 1 && mPoints.cols() >= 1 && "RendezvousProblem: empty points");
}

void RendezvousProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                               Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    out = (X - mPoints).rowwise().squaredNorm();
}

void RendezvousProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                  Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    out = 2.0 * (X - mPoints);
}

double RendezvousProblem::globalValue(const Eigen::VectorXd &x) const
{
    return (mPoints.rowwise() - x.transpose()).rowwise().squaredNorm().mean();
}

Eigen::VectorXd RendezvousProblem::globalGradient(const Eigen::VectorXd &x) const
{
    return 2.0 * (x - mPoints.colwise().mean().transpose());
}

std::optional<Eigen::MatrixXd> RendezvousProblem::globalHessian(const Eigen::VectorXd &) const
{
    return Eigen::MatrixXd(2.0 * Eigen::MatrixXd::Identity(dimension(), dimension()));
}

std::optional<Eigen::VectorXd> RendezvousProblem::closedFormOptimum() const
{
    return Eigen::VectorXd(mPoints.colwise().mean().transpose());
}

Json RendezvousProblem::describe() const
{
    Json out = mFacts;
    out.update(problemFacts(*this));
    out.update(Json{{"objective", "f_i(x) = ‖x − a_i‖²"},
                    {"points", matrixToJson(mPoints)},
                    {"strong_convexity", 2.0}, // local μ of every f_i
                    {"smoothness", 2.0}});     // local L of every f_i
    return out;
}

// --- Single-sample ridge (paper 003 Sec. 5.2) ------------------------------------------------

SingleSampleRidgeProblem::SingleSampleRidgeProblem(Eigen::MatrixXd features, Eigen::VectorXd targets,
                                                   double penalty, Json facts)
    : mU(std::move(features)), mV(std::move(targets)), mPenalty(penalty), mFacts(std::move(facts))
{
    assert(mU.rows() == mV.size() && mU.rows() >= 1 && "SingleSampleRidgeProblem: shapes");
    assert(penalty > 0 && "SingleSampleRidgeProblem: the penalty must be > 0");
}

void SingleSampleRidgeProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                      Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    const Eigen::VectorXd residual = X.cwiseProduct(mU).rowwise().sum() - mV;
    out = residual.cwiseAbs2() + mPenalty * X.rowwise().squaredNorm();
}

void SingleSampleRidgeProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                         Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    // Row-wise: 2 u_i (u_iᵀx_i − v_i) + 2ρ x_i, without temporaries in the loop.
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double residual = X.row(i).dot(mU.row(i)) - mV[i];
        out.row(i) = 2.0 * residual * mU.row(i) + 2.0 * mPenalty * X.row(i);
    }
}

double SingleSampleRidgeProblem::globalValue(const Eigen::VectorXd &x) const
{
    return ((mU * x - mV).squaredNorm()) / static_cast<double>(agentCount()) + mPenalty * x.squaredNorm();
}

Eigen::VectorXd SingleSampleRidgeProblem::globalGradient(const Eigen::VectorXd &x) const
{
    return 2.0 * mU.transpose() * (mU * x - mV) / static_cast<double>(agentCount()) + 2.0 * mPenalty * x;
}

std::optional<Eigen::MatrixXd> SingleSampleRidgeProblem::globalHessian(const Eigen::VectorXd &) const
{
    const double n = static_cast<double>(agentCount());
    return Eigen::MatrixXd(2.0 / n * mU.transpose() * mU
                           + 2.0 * mPenalty * Eigen::MatrixXd::Identity(dimension(), dimension()));
}

std::optional<Eigen::VectorXd> SingleSampleRidgeProblem::closedFormOptimum() const
{
    const double n = static_cast<double>(agentCount());
    const Eigen::MatrixXd H = mU.transpose() * mU + n * mPenalty * Eigen::MatrixXd::Identity(dimension(), dimension());
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(H);
    requireDecomposed("ridge matrix UᵀU + nρI", "LDLT factorization",
                      ldlt.info() == Eigen::Success && ldlt.isPositive() ? Eigen::Success
                                                                         : Eigen::NumericalIssue);
    return Eigen::VectorXd(ldlt.solve(mU.transpose() * mV));
}

double SingleSampleRidgeProblem::localSmoothness() const
{
    return 2.0 * (mU.rowwise().squaredNorm().maxCoeff() + mPenalty);
}

Json SingleSampleRidgeProblem::describe() const
{
    Json out = mFacts;
    out.update(problemFacts(*this));
    out.update(Json{{"objective", "f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖²"},
                    {"penalty", mPenalty},
                    {"features", matrixToJson(mU)},
                    {"targets", vectorToJson(mV)},
                    {"optimum", vectorToJson(*closedFormOptimum())},
                    {"strong_convexity", localStrongConvexity()}, // min_i μ_i
                    {"smoothness", localSmoothness()}});          // max_i L_i
    return out;
}

SingleSampleRidgeProblem paper003RidgeData(int agents, int dimension, double penalty,
                                           double noiseStd, Rng &rng)
{
    assert(agents >= 1 && dimension >= 1 && "paper003RidgeData: sizes");
    Eigen::MatrixXd u(agents, dimension), truth(agents, dimension);
    Eigen::VectorXd v(agents);
    for (int i = 0; i < agents; ++i) {
        for (int j = 0; j < dimension; ++j)
            u(i, j) = rng.uniform(-1.0, 1.0);
        for (int j = 0; j < dimension; ++j)
            truth(i, j) = rng.uniform(0.0, 10.0);
        v[i] = u.row(i).dot(truth.row(i)) + noiseStd * rng.gaussian();
    }
    const double n = static_cast<double>(agents);
    const Eigen::MatrixXd H = u.transpose() * u + n * penalty * Eigen::MatrixXd::Identity(dimension, dimension);
    Eigen::VectorXd printedRhs = Eigen::VectorXd::Zero(dimension);
    for (int i = 0; i < agents; ++i)
        printedRhs += u.row(i).transpose() * u.row(i).dot(truth.row(i));
    Json facts;
    facts["generator"] = "paper 003 Sec. 5.2: u_i ~ U[-1,1]^r, x~_i ~ U[0,10]^r, "
                         "v_i = u_i^T x~_i + N(0, noise_std^2)";
    facts["noise_std"] = noiseStd;
    facts["truth"] = matrixToJson(truth);
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(H);
    requireDecomposed("ridge matrix UᵀU + nρI", "LDLT factorization",
                      ldlt.info() == Eigen::Success && ldlt.isPositive() ? Eigen::Success
                                                                         : Eigen::NumericalIssue);
    facts["printed_optimum"] = vectorToJson(ldlt.solve(printedRhs));
    return SingleSampleRidgeProblem(std::move(u), std::move(v), penalty, std::move(facts));
}

// --- Factory entries -------------------------------------------------------------------------

namespace {

constexpr long long kMaxSeed = 9007199254740992LL; // 2^53: exact in a JSON double

std::vector<ParamSpec> rendezvousSpecs()
{
    return {
        intParam("dimension", "Dimension", 2, 1, 100000, "Dimension r of the positions (2 in the paper)."),
        realParam("low", "Box low", 0.0, -1e9, 1e9,
                  "Random points a_i are uniform in [low, high]^r (when \"points\" is absent)."),
        realParam("high", "Box high", 10.0, -1e9, 1e9, "Upper end of the box of random points."),
        boolParam("shared", "Shared point a", false,
                  "true: every agent uses the first point (the paper's literal common a, "
                  "x* = a); false: agent-specific private a_i, x* = mean(a_i)."),
        intParam("seed", "Seed", -1, -1, kMaxSeed,
                 "Seed of the random points (-1 = the experiment seed)."),
    };
}

std::vector<ParamSpec> paper003RidgeSpecs()
{
    return {
        intParam("dimension", "Dimension r", 10, 1, 100000,
                 "Dimension r of x (not given in the paper; 10 suggested)."),
        realParam("penalty", "Penalty ρ", 0.5, 0.0, 1e9,
                  "Ridge penalty ρ of f_i = (u_iᵀx − v_i)² + ρ‖x‖² (not given in the paper); "
                  "μ_i = 2ρ.", {.minExclusive = true, .logScale = true}),
        realParam("noise_std", "Noise std", 25.0, 0.0, 1e9,
                  "Standard deviation of ζ_i in v_i = u_iᵀx̃_i + ζ_i (25 in the paper)."),
        intParam("seed", "Seed", -1, -1, kMaxSeed,
                 "Seed of the synthetic data (-1 = the experiment seed)."),
    };
}

std::uint64_t problemSeed(const Json &resolved, const ProblemContext &context)
{
    const long long own = paramInt(resolved, "seed");
    return own >= 0 ? static_cast<std::uint64_t>(own) : context.seed;
}

Result<Json> resolveRendezvous(const Json &spec, const ProblemContext &context)
{
    auto resolved = resolveProblemKeys(rendezvousSpecs(), spec, context.path, "rendezvous", {"points"});
    if (!resolved)
        return resolved.error();
    Json out = *resolved;
    if (!(paramReal(out, "low") < paramReal(out, "high")))
        return Error::invalid(joinPath(context.path, "high"), "must be > low");
    if (spec.contains("points")) {
        const std::string path = joinPath(context.path, "points");
        const Json &points = spec["points"];
        const auto d = static_cast<std::size_t>(paramInt(out, "dimension"));
        if (!points.is_array() || static_cast<int>(points.size()) != context.agents)
            return Error::invalid(path, "must be a list of " + std::to_string(context.agents)
                                            + " points (one per agent)");
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Json &p = points[i];
            if (!p.is_array() || p.size() != d)
                return Error::invalid(indexPath(path, i), "must be a list of " + std::to_string(d)
                                                              + " numbers");
            for (std::size_t j = 0; j < d; ++j)
                if (!p[j].is_number() || !std::isfinite(p[j].get<double>()))
                    return Error::invalid(indexPath(indexPath(path, i), j), "must be a finite number");
        }
        out["points"] = points;
    }
    return out;
}

Result<std::shared_ptr<const Problem>> buildRendezvous(const Json &resolved, const ProblemContext &context)
{
    const int n = context.agents;
    const int d = static_cast<int>(paramInt(resolved, "dimension"));
    Eigen::MatrixXd points(n, d);
    Json facts;
    if (resolved.contains("points")) {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < d; ++j)
                points(i, j) = resolved["points"][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<double>();
        facts["generator"] = "explicit";
    } else {
        const std::uint64_t seed = problemSeed(resolved, context);
        Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
        const double low = paramReal(resolved, "low"), high = paramReal(resolved, "high");
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < d; ++j)
                points(i, j) = rng.uniform(low, high);
        facts["generator"] = "uniform in [low, high]^r";
        facts["seed"] = seed;
    }
    const bool shared = paramBool(resolved, "shared");
    if (shared)
        points.rowwise() = Eigen::RowVectorXd(points.row(0));
    facts["shared"] = shared;
    return std::shared_ptr<const Problem>(std::make_shared<RendezvousProblem>(points, std::move(facts)));
}

Result<Json> resolvePaper003Ridge(const Json &spec, const ProblemContext &context)
{
    return resolveProblemKeys(paper003RidgeSpecs(), spec, context.path, "paper003-ridge");
}

Result<std::shared_ptr<const Problem>> buildPaper003Ridge(const Json &resolved, const ProblemContext &context)
{
    const std::uint64_t seed = problemSeed(resolved, context);
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    auto problem = std::make_shared<SingleSampleRidgeProblem>(
        paper003RidgeData(context.agents, static_cast<int>(paramInt(resolved, "dimension")),
                          paramReal(resolved, "penalty"), paramReal(resolved, "noise_std"), rng));
    return std::shared_ptr<const Problem>(std::move(problem));
}

} // namespace

ProblemEntry rendezvousProblemEntry()
{
    return problemEntry(
        "rendezvous", "Rendezvous (paper 003)",
        "paper 003 Sec. 5.1 (example 1 of Huang, Mitra, Vaidya 2015)",
        "Optimal rendezvous f_i(x) = ‖x − a_i‖², ∇f_i = 2(x − a_i), μ = L = 2, x* = mean(a_i). "
        "The points are given as \"points\" (one per agent) or drawn uniformly in "
        "[low, high]^r. The paper writes one assembly point a without saying whether agents "
        "share it; by default each agent has its own private a_i (\"shared\": true = the "
        "literal common a).",
        rendezvousSpecs(), resolveRendezvous, buildRendezvous);
}

ProblemEntry paper003RidgeProblemEntry()
{
    return problemEntry(
        "paper003-ridge", "Single-sample ridge (paper 003)",
        "paper 003 Sec. 5.2 (from Pu, robust gradient tracking)",
        "f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖² with one synthetic sample per agent: u_i ~ U[−1,1]^r, "
        "x̃_i ~ U[0,10]^r, v_i = u_iᵀx̃_i + ζ_i, ζ_i ~ N(0, 25²). x* = (Σ u_i u_iᵀ + nρI)⁻¹ "
        "Σ u_i v_i (exact; the paper's printed formula drops ζ). μ_i = 2ρ, L_i = 2(‖u_i‖² + ρ).",
        paper003RidgeSpecs(), resolvePaper003Ridge, buildPaper003Ridge);
}

} // namespace dplab
