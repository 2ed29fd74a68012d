// SPDX-License-Identifier: GPL-3.0-or-later
#include "algo/dpcommon.h"
#include "algo/clipping.h"
#include "dplab/common/decomposition.h"
#include "dplab/common/formatnumber.h"
#include "dplab/graph/analysis.h"

#include <Eigen/Eigenvalues>

#include <cmath>

namespace dplab::dp {

ParamSpec epsilonTargetParam(const std::string &help)
{
    auto spec = realParam("epsilon", "Target ε", 0.0, 0.0, 1e12,
                          help.empty() ? "Privacy budget ε to reach at the run's horizon (its iterations), "
                                         "> 0. When given, the noise parameters only give the shape and "
                                         "are all multiplied by the one factor that makes the accountant's "
                                         "ε equal this target (ε ∝ 1/scale). Absent (or null): the noise "
                                         "parameters as given."
                                       : help, {.minExclusive = true, .logScale = true});
    spec.defaultValue = nullptr; // optional: no target is no key
    return spec;
}

std::optional<double> epsilonTarget(const Json &privacy)
{
    const auto it = privacy.find("epsilon");
    if (it == privacy.end() || it->is_null())
        return std::nullopt;
    return it->get<double>();
}

ParamSpec gradientBoundParam()
{
    return realParam("gradient_bound", "Gradient bound C", 0.0, 0.0, 1e12,
                     "C with ‖∇f_i(x)‖₂ ≤ C (paper 003 Assumption 2); the ℓ1 sensitivity of a "
                     "gradient change is 2√r·C (eq. 22). 0 = the bound the problem states (its "
                     "\"gradient_bound\" fact), if any; else unknown: no accountant. Without "
                     "clipping it is the user's claim, checked on the iterates.",
                     {.logScale = true});
}

double problemFact(const Problem &problem, const char *key)
{
    const Json facts = problem.describe();
    if (facts.is_object() && facts.contains(key) && facts.at(key).is_number()) {
        const double v = facts.at(key).get<double>();
        if (std::isfinite(v) && v > 0)
            return v;
    }
    return 0.0;
}

double gradientBound(const Json &privacy, const Problem *problem)
{
    const double given = paramReal(privacy, "gradient_bound");
    if (given > 0 || !problem)
        return given;
    const double stated = problemFact(*problem, "gradient_bound");
    return stated > 0 ? stated : given;
}

ParamSpec clipSwitchParam()
{
    return boolParam("clip", "Clip gradients to C",
                     false, "Clip every local gradient to ‖·‖₂ ≤ C before use, which enforces "
                            "Assumption 2 (paper 003 notes clipping as the practical relaxation).");
}

Status GradientBound::reset(const Json &privacy, const Problem *problem)
{
    mBound = gradientBound(privacy, problem);
    mClipping = paramBool(privacy, "clip");
    mObserved = 0.0;
    mViolationIteration = -1;
    if (mClipping && !(mBound > 0))
        return Error::invalid("privacy.gradient_bound", "must be > 0 when clip is on");
    return {};
}

void GradientBound::enforce(Eigen::Ref<Eigen::MatrixXd> g, long long t)
{
    if (mClipping)
        clipRows(g, mBound);
    else
        check(g, t);
}

void GradientBound::check(const Eigen::Ref<const Eigen::MatrixXd> &g, long long t)
{
    if (!(mBound > 0) || mViolationIteration >= 0)
        return;
    const double norm = maxRowNorm(g);
    if (norm > mBound) {
        mObserved = norm;
        mViolationIteration = t;
    }
}

Status GradientBound::canCalibrate(long long horizon) const
{
    if (!(mBound > 0))
        return Error::invalid("privacy.gradient_bound",
                              "must be > 0 to calibrate the noise to a target ε");
    if (horizon < 1)
        return Error::invalid("privacy.epsilon", "needs a run horizon (iterations ≥ 1)");
    return {};
}

std::vector<std::string> GradientBound::withViolation(std::vector<std::string> warnings,
                                                      const std::string &what, bool accounted) const
{
    if (accounted && mViolationIteration >= 0)
        warnings.push_back(what + " = " + formatNumber(mObserved) + " > C = " + formatNumber(mBound)
                           + " at iteration " + std::to_string(mViolationIteration)
                           + ": the accounted ε is not a guarantee (turn on privacy.clip)");
    return warnings;
}

namespace {

// W counts as symmetric within round-off (a Metropolis W built in floating point).
constexpr double kSymmetryTolerance = 1e-12;

} // namespace

double offDiagonalSpectralRadius(const Eigen::MatrixXd &w)
{
    Eigen::MatrixXd off = w;
    off.diagonal().setZero();
    return spectralRadius(off, "weights W off the diagonal", kSymmetryTolerance);
}

Schedule scaledSchedule(const Schedule &s, double c)
{
    switch (s.kind()) {
    case Schedule::Kind::Constant:
        return Schedule::constant(c * s.a());
    case Schedule::Kind::Polynomial:
        return Schedule::polynomial(c * s.a(), s.t0(), s.p());
    case Schedule::Kind::Geometric:
        return Schedule::geometric(c * s.a(), s.q());
    }
    return s;
}

Status requireNoiseShapes(std::initializer_list<NoiseShape> shapes)
{
    for (const NoiseShape &shape : shapes)
        if (shape.needed && !(shape.scale > 0))
            return Error::invalid(shape.field, std::string("must be > 0: it gives the shape ")
                                                   + shape.symbol + "that the target ε rescales");
    return {};
}

std::string calibrationNote(const std::string &scalesGive, double target, long long horizon)
{
    return "calibrated: " + scalesGive + " = " + formatNumber(target) + " after "
           + std::to_string(horizon) + " iterations";
}

} // namespace dplab::dp
