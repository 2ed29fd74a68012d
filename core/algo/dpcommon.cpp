// SPDX-License-Identifier: GPL-3.0-or-later
#include "algo/dpcommon.h"
#include "dplab/common/decomposition.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <sstream>

namespace dplab::dp {

ParamSpec epsilonTargetParam(const std::string &help)
{
    auto spec = realParam("epsilon", "Target ε", 0.0, 0.0, 1e12,
                          help.empty() ? "Privacy budget ε to reach at the run's horizon (its iterations), "
                                         "> 0. When given, the noise parameters only give the shape and "
                                         "are all multiplied by the one factor that makes the accountant's "
                                         "ε equal this target (ε ∝ 1/scale). Absent (or null): the noise "
                                         "parameters as given."
                                       : help,
                          true, true);
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
                     false, true);
}

double gradientBound(const Json &privacy, const Problem *problem)
{
    const double given = paramReal(privacy, "gradient_bound");
    if (given > 0 || !problem)
        return given;
    const Json facts = problem->describe();
    if (facts.is_object() && facts.contains("gradient_bound") && facts.at("gradient_bound").is_number()) {
        const double v = facts.at("gradient_bound").get<double>();
        if (std::isfinite(v) && v > 0)
            return v;
    }
    return given;
}

ParamSpec clipParam()
{
    return boolParam("clip", "Clip gradients to C",
                     false, "Clip every local gradient to ‖·‖₂ ≤ C before use, which enforces "
                            "Assumption 2 (paper 003 notes clipping as the practical relaxation).");
}

void clipRows(Eigen::Ref<Eigen::MatrixXd> g, double bound)
{
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
        const double norm = g.row(i).norm();
        if (norm > bound)
            g.row(i) *= bound / norm;
    }
}

double maxRowNorm(const Eigen::Ref<const Eigen::MatrixXd> &g)
{
    return g.rows() == 0 ? 0.0 : g.rowwise().norm().maxCoeff();
}

namespace {

double spectralRadiusOf(const Eigen::MatrixXd &m, const char *name)
{
    if (m.size() == 0)
        return 0.0;
    if (m.isApprox(m.transpose(), 1e-12)) {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(m, Eigen::EigenvaluesOnly);
        return requireEigenvalues(solver, name).eigenvalues().cwiseAbs().maxCoeff();
    }
    Eigen::EigenSolver<Eigen::MatrixXd> solver(m, false);
    return requireEigenvalues(solver, name).eigenvalues().cwiseAbs().maxCoeff();
}

} // namespace

double consensusSpectralRadius(const Eigen::MatrixXd &w)
{
    const double n = static_cast<double>(w.rows());
    return spectralRadiusOf(w - Eigen::MatrixXd::Constant(w.rows(), w.cols(), 1.0 / n),
                            "weights W − 11ᵀ/n");
}

double offDiagonalSpectralRadius(const Eigen::MatrixXd &w)
{
    Eigen::MatrixXd off = w;
    off.diagonal().setZero();
    return spectralRadiusOf(off, "weights W off the diagonal");
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

std::string num(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

} // namespace dplab::dp
