// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/optimum.h"

#include "dplab/common/formatnumber.h"
#include "dplab/common/decomposition.h"

#include <Eigen/Cholesky>

#include <cmath>
#include <deque>

namespace dplab {

namespace {

struct Point {
    Eigen::VectorXd x;
    double f = 0.0;
    Eigen::VectorXd g;
};

Point evaluate(const Problem &problem, Eigen::VectorXd x)
{
    Point p;
    p.f = problem.globalValue(x);
    p.g = problem.globalGradient(x);
    p.x = std::move(x);
    return p;
}

Reference toReference(const Point &p, const char *method)
{
    Reference ref;
    ref.x = p.x;
    ref.value = p.f;
    ref.gradientNorm = p.g.norm();
    ref.method = method;
    return ref;
}

Error notReached(const char *method, const Point &p, int iterations, const std::string &why)
{
    return Error::internal("problem", std::string(method) + " stopped at ‖∇F‖ = "
                                          + formatNumber(p.g.norm()) + " after "
                                          + std::to_string(iterations) + " iterations (" + why
                                          + ")");
}

/** Backtracking from `current` along the descent direction p, first trying step t0 and halving.
 *  Accepts by Armijo, or, where F is flat to rounding, by a decrease of ‖∇F‖. */
std::optional<Point> backtrack(const Problem &problem, const Point &current,
                               const Eigen::VectorXd &p, double t0)
{
    constexpr double c1 = 1e-4;
    const double slope = current.g.dot(p);
    const double gradientNorm = current.g.norm();
    const double flat = 1e-12 * std::max(1.0, std::abs(current.f));
    double t = t0;
    for (int k = 0; k < 60; ++k, t *= 0.5) {
        Eigen::VectorXd x = current.x + t * p;
        const double f = problem.globalValue(x);
        if (!std::isfinite(f))
            continue;
        if (f <= current.f + c1 * t * slope) {
            Point next{std::move(x), f, {}};
            next.g = problem.globalGradient(next.x);
            return next;
        }
        if (std::abs(f - current.f) <= flat) {
            Eigen::VectorXd g = problem.globalGradient(x);
            if (g.norm() < gradientNorm)
                return Point{std::move(x), f, std::move(g)};
        }
    }
    return std::nullopt;
}

} // namespace

Result<Reference> solveNewton(const Problem &problem, const Eigen::VectorXd &x0,
                              const SolverOptions &options)
{
    const int maxIterations = options.maxIterations > 0 ? options.maxIterations : 200;
    Point current = evaluate(problem, x0);
    const Eigen::Index d = x0.size();
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        if (current.g.norm() <= options.tolerance)
            return toReference(current, "newton");
        auto H = problem.globalHessian(current.x);
        if (!H)
            return Error::unsupported("problem", "Newton's method needs the Hessian, which this "
                                                 "problem does not provide");
        if (!H->allFinite())
            return Error::internal("problem", decompositionFailure("Hessian ∇²F at the iterate",
                                                                   "Cholesky factorization",
                                                                   Eigen::InvalidInput));
        // A Hessian that is not positive definite (singular or indefinite) is shifted by a
        // growing multiple of I until the factorization succeeds (Levenberg–Marquardt style).
        Eigen::LLT<Eigen::MatrixXd> llt(*H);
        double shift = 0.0;
        for (int tries = 0; llt.info() != Eigen::Success && tries < 40; ++tries) {
            shift = shift == 0.0 ? 1e-10 * std::max(1.0, H->diagonal().cwiseAbs().maxCoeff())
                                 : 10.0 * shift;
            llt.compute(*H + shift * Eigen::MatrixXd::Identity(d, d));
        }
        if (Status s = checkDecomposed(ErrorCode::Internal, "problem",
                                       "Hessian ∇²F + shift·I at the iterate",
                                       "Cholesky factorization", llt.info());
            !s)
            return s.error();
        Eigen::VectorXd p = -llt.solve(current.g);
        if (!(current.g.dot(p) < 0.0))
            p = -current.g;
        auto next = backtrack(problem, current, p, 1.0);
        if (!next)
            return notReached("newton", current, iteration, "the line search found no decrease");
        current = std::move(*next);
    }
    if (current.g.norm() <= options.tolerance)
        return toReference(current, "newton");
    return notReached("newton", current, maxIterations, "iteration limit");
}

Result<Reference> solveLbfgs(const Problem &problem, const Eigen::VectorXd &x0,
                             const SolverOptions &options)
{
    const int maxIterations = options.maxIterations > 0 ? options.maxIterations : 20000;
    const auto memory = static_cast<std::size_t>(std::max(1, options.memory));
    Point current = evaluate(problem, x0);
    std::deque<Eigen::VectorXd> S;
    std::deque<Eigen::VectorXd> Y;
    std::deque<double> rho;
    std::vector<double> alpha(memory);
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        const double gradientNorm = current.g.norm();
        if (gradientNorm <= options.tolerance)
            return toReference(current, "l-bfgs");

        // Two-loop recursion: p = −H_k ∇F.
        Eigen::VectorXd q = current.g;
        for (std::size_t k = S.size(); k-- > 0;) {
            alpha[k] = rho[k] * S[k].dot(q);
            q -= alpha[k] * Y[k];
        }
        if (S.empty())
            q *= std::min(1.0, 1.0 / gradientNorm); // first step: length at most 1
        else
            q *= S.back().dot(Y.back()) / Y.back().squaredNorm();
        for (std::size_t k = 0; k < S.size(); ++k) {
            const double beta = rho[k] * Y[k].dot(q);
            q += (alpha[k] - beta) * S[k];
        }
        Eigen::VectorXd p = -q;
        if (!(current.g.dot(p) < 0.0)) {
            S.clear();
            Y.clear();
            rho.clear();
            p = -current.g * std::min(1.0, 1.0 / gradientNorm);
        }

        auto next = backtrack(problem, current, p, 1.0);
        if (!next && !S.empty()) {
            // Restart from steepest descent once before giving up.
            S.clear();
            Y.clear();
            rho.clear();
            next = backtrack(problem, current, -current.g * std::min(1.0, 1.0 / gradientNorm),
                             1.0);
        }
        if (!next)
            return notReached("l-bfgs", current, iteration, "the line search found no decrease");

        Eigen::VectorXd s = next->x - current.x;
        Eigen::VectorXd y = next->g - current.g;
        const double sy = s.dot(y);
        if (sy > 1e-12 * s.norm() * y.norm()) {
            if (S.size() == memory) {
                S.pop_front();
                Y.pop_front();
                rho.pop_front();
            }
            S.push_back(std::move(s));
            Y.push_back(std::move(y));
            rho.push_back(1.0 / sy);
        }
        current = std::move(*next);
    }
    if (current.g.norm() <= options.tolerance)
        return toReference(current, "l-bfgs");
    return notReached("l-bfgs", current, maxIterations, "iteration limit");
}

Result<Reference> solveReference(const Problem &problem)
{
    if (auto x = problem.closedFormOptimum()) {
        Point p = evaluate(problem, *x);
        return toReference(p, "closed form");
    }
    const Eigen::VectorXd x0 = Eigen::VectorXd::Zero(problem.dimension());
    SolverOptions options;
    options.tolerance = 1e-10 * std::max(1.0, std::abs(problem.globalValue(x0)));
    if (problem.globalHessian(x0)) {
        auto newton = solveNewton(problem, x0, options);
        if (newton)
            return newton;
        // Newton stalled (e.g. a nearly singular Hessian): try L-BFGS from the same start.
        auto lbfgs = solveLbfgs(problem, x0, options);
        if (lbfgs)
            return lbfgs;
        return newton.error();
    }
    return solveLbfgs(problem, x0, options);
}

} // namespace dplab
