// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/constraints.h"

#include "dplab/common/decomposition.h"
#include "dplab/problem/problem.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>

namespace dplab {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::Map<const RowMajorMatrix> asMatrix(const Eigen::Ref<const Eigen::VectorXd> &x, int rows, int cols)
{
    return Eigen::Map<const RowMajorMatrix>(x.data(), rows, cols);
}

} // namespace

// --- R^d --------------------------------------------------------------------------------------

void FullSpace::linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &, Eigen::Ref<Eigen::VectorXd> v) const
{
    assert(false && "FullSpace::linearMinimizer: R^d is unbounded, no linear minimizer exists");
    v.setZero();
}

bool FullSpace::contains(const Eigen::Ref<const Eigen::VectorXd> &x, double) const
{
    return x.allFinite();
}

Json FullSpace::toJson() const
{
    return Json{{"type", id()}};
}

// --- ℓ2 ball ----------------------------------------------------------------------------------

void L2Ball::project(Eigen::Ref<Eigen::VectorXd> x) const
{
    const double norm = x.norm();
    if (norm > mR)
        x *= mR / norm;
}

void L2Ball::linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const
{
    const double norm = g.norm();
    if (norm > 0.0)
        v = (-mR / norm) * g;
    else
        v.setZero();
}

bool L2Ball::contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol) const
{
    return x.norm() <= mR + tol;
}

Json L2Ball::toJson() const
{
    return Json{{"type", id()}, {"radius", mR}};
}

// --- box --------------------------------------------------------------------------------------

void Box::project(Eigen::Ref<Eigen::VectorXd> x) const
{
    x = x.cwiseMax(mLo).cwiseMin(mHi);
}

void Box::linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const
{
    for (Eigen::Index k = 0; k < g.size(); ++k)
        v[k] = g[k] > 0.0 ? mLo : g[k] < 0.0 ? mHi : 0.5 * (mLo + mHi);
}

bool Box::contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol) const
{
    return (x.array() >= mLo - tol).all() && (x.array() <= mHi + tol).all();
}

double Box::radius() const
{
    return std::sqrt(static_cast<double>(mD)) * std::max(std::abs(mLo), std::abs(mHi));
}

Json Box::toJson() const
{
    return Json{{"type", id()}, {"lo", mLo}, {"hi", mHi}};
}

// --- trace-norm ball ----------------------------------------------------------------------------

void projectCappedSimplex(const Eigen::Ref<const Eigen::VectorXd> &s, double tau, Eigen::Ref<Eigen::VectorXd> out)
{
    out = s.cwiseMax(0.0);
    if (out.sum() <= tau)
        return;
    // Projection onto {Σ = τ, ≥ 0}: sort descending, find the threshold λ (Duchi et al. 2008).
    thread_local std::vector<double> u;
    u.assign(out.data(), out.data() + out.size());
    std::sort(u.begin(), u.end(), std::greater<double>());
    double cumulative = 0.0, lambda = 0.0;
    for (std::size_t j = 0; j < u.size(); ++j) {
        cumulative += u[j];
        const double candidate = (cumulative - tau) / static_cast<double>(j + 1);
        if (u[j] - candidate > 0.0)
            lambda = candidate;
    }
    out = (out.array() - lambda).cwiseMax(0.0).matrix();
}

Eigen::VectorXd projectCappedSimplex(const Eigen::Ref<const Eigen::VectorXd> &s, double tau)
{
    Eigen::VectorXd out(s.size());
    projectCappedSimplex(s, tau, out);
    return out;
}

double traceNorm(const Eigen::Ref<const Eigen::VectorXd> &x, int rows, int cols)
{
    const RowMajorMatrix m = asMatrix(x, rows, cols);
    if (!m.allFinite())
        return std::numeric_limits<double>::quiet_NaN(); // a diverged iterate has no norm
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(m);
    return requireSingularValues(svd, "trace-norm argument X").singularValues().sum();
}

namespace {

/** TraceNormBall::project with the k × k matrices of type Small: a dynamic matrix with a
 *  compile-time maximum size keeps the eigensolver's workspace on the stack (no allocation per
 *  call), MatrixXd serves larger k. */
template <typename Small>
void projectTraceNorm(Eigen::Map<RowMajorMatrix> xm, double tau)
{
    // Only the eigensolver works on Small; the products stay dynamic (Eigen's blocked kernels:
    // with a small compile-time maximum it picks a slower coefficient-wise product).
    const bool left = xm.rows() <= xm.cols();
    thread_local Eigen::MatrixXd gram, w, y, scaled;
    thread_local Eigen::VectorXd s, shrunk, factor;
    thread_local Eigen::SelfAdjointEigenSolver<Small> eig;
    if (left)
        gram.noalias() = xm * xm.transpose();
    else
        gram.noalias() = xm.transpose() * xm;
    eig.compute(gram);
    if (eig.info() != Eigen::Success || !eig.eigenvalues().allFinite()) {
        // NaN or ∞ in X is a diverging run: pass it on for the runner to report. A finite X
        // whose Gram matrix the solver cannot decompose is an internal error.
        if (!gram.allFinite()) {
            xm.setConstant(std::numeric_limits<double>::quiet_NaN());
            return;
        }
        requireEigenvalues(eig, "trace-norm projection: Gram matrix of X");
    }
    w = eig.eigenvectors();
    if (left) {
        y.noalias() = w.transpose() * xm;
        s = y.rowwise().norm();
    } else {
        y.noalias() = xm * w;
        s = y.colwise().norm().transpose();
    }
    if (s.sum() <= tau)
        return;
    shrunk.resize(s.size());
    projectCappedSimplex(s, tau, shrunk);
    factor.resize(s.size());
    for (Eigen::Index j = 0; j < s.size(); ++j)
        factor[j] = s[j] > 0.0 ? shrunk[j] / s[j] : 0.0;
    scaled.noalias() = w * factor.asDiagonal(); // a plain operand: the product allocates nothing
    if (left)
        xm.noalias() = scaled * y;
    else
        xm.noalias() = y * scaled.transpose();
}

} // namespace

void TraceNormBall::project(Eigen::Ref<Eigen::VectorXd> x) const
{
    // With k = min(q, p) and the smaller Gram matrix G = X Xᵀ (q ≤ p) or Xᵀ X (q > p), k × k: its
    // eigenvectors W are X's left (right) singular vectors, and the rows of Y = Wᵀ X (columns of
    // Y = X W) have norms s_j = X's singular values. Taking s_j as those norms rather than as
    // √λ_j keeps them accurate to ~ε‖X‖ even where λ_j is lost in rounding (σ = 0 gives ~1e-16,
    // not √ε). The projection U diag(s') Vᵀ is then W diag(s'/s) Y (or Y diag(s'/s) Wᵀ), so the
    // long singular vectors are never formed. Singular values 0 map to 0 (s' = 0 there whenever
    // the ball is left). Cost O(k² max(q, p)) plus a k × k symmetric eigensolve, about 2.5×
    // faster than a QR and a Jacobi SVD of the k × k factor for k = 10.
    Eigen::Map<RowMajorMatrix> xm(x.data(), mRows, mCols);
    if (std::min(mRows, mCols) <= 16)
        projectTraceNorm<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 16, 16>>(xm, mTau);
    else
        projectTraceNorm<Eigen::MatrixXd>(xm, mTau);
}

namespace {

/** The minimizer of ⟨G, V⟩ over the trace-norm ball, with the k × k eigensolver of type Small
 *  (as in projectTraceNorm: for k ≤ 16 its workspace is on the stack) and scratch kept per
 *  thread, so that a step calling it allocates nothing once warmed up. */
template <typename Small>
void traceNormLinearMinimizer(const Eigen::Map<const RowMajorMatrix> &gm, double tau,
                              Eigen::Ref<Eigen::VectorXd> v)
{
    Eigen::Map<RowMajorMatrix> out(v.data(), gm.rows(), gm.cols());
    // Top singular pair from the smaller Gram matrix: G Gᵀ u = σ² u, v₁ = Gᵀ u / σ (or the
    // transposed case). The minimizer of ⟨G, V⟩ over the ball is −τ u₁ v₁ᵀ.
    thread_local Eigen::MatrixXd gram;
    thread_local Eigen::SelfAdjointEigenSolver<Small> eig;
    thread_local Eigen::VectorXd column, scaled;
    thread_local Eigen::RowVectorXd row;
    const bool wide = gm.rows() <= gm.cols();
    if (wide)
        gram.noalias() = gm * gm.transpose();
    else
        gram.noalias() = gm.transpose() * gm;
    if (!gram.allFinite()) { // a diverging run: NaN out, the runner reports it
        v.setConstant(std::numeric_limits<double>::quiet_NaN());
        return;
    }
    eig.compute(gram);
    requireEigenvalues(eig, "linear minimization oracle: Gram matrix of G");
    const Eigen::Index top = gram.rows() - 1;
    const double sigma = std::sqrt(std::max(0.0, eig.eigenvalues()[top]));
    if (sigma <= 0.0) {
        v.setZero();
        return;
    }
    column = eig.eigenvectors().col(top);
    // The product first, then the division (as one expression Eigen would evaluate the product
    // into a temporary): the same numbers, no allocation.
    if (wide) { // column = u₁
        row.noalias() = column.transpose() * gm;
        row /= sigma;
        out.noalias() = (-tau) * column * row;
    } else { // column = v₁
        scaled.noalias() = gm * column;
        scaled /= sigma;
        out.noalias() = (-tau) * scaled * column.transpose();
    }
}

} // namespace

void TraceNormBall::linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const
{
    const auto gm = asMatrix(g, mRows, mCols);
    using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 16, 16>;
    if (std::min(mRows, mCols) <= 16)
        traceNormLinearMinimizer<Small>(gm, mTau, v);
    else
        traceNormLinearMinimizer<Eigen::MatrixXd>(gm, mTau, v);
}

bool TraceNormBall::contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol) const
{
    return traceNorm(x, mRows, mCols) <= mTau + tol;
}

Json TraceNormBall::toJson() const
{
    return Json{{"type", id()}, {"rows", mRows}, {"radius", mTau}};
}

// --- registry ---------------------------------------------------------------------------------

const std::vector<Descriptor> &constraintDescriptors()
{
    static const std::vector<Descriptor> descriptors = [] {
        std::vector<Descriptor> out;
        Descriptor none;
        none.id = "none";
        none.name = "Unconstrained (R^d)";
        none.explanation = "No constraint: projection is the identity; projection-free methods "
                           "cannot run (no linear minimizer over an unbounded set).";
        out.push_back(none);

        Descriptor ball;
        ball.id = "l2-ball";
        ball.name = "Euclidean ball";
        ball.explanation = "K = {‖x‖₂ ≤ r}. Projection rescales x onto the sphere when it lies "
                           "outside; the linear minimizer of ⟨g, v⟩ is −r g/‖g‖.";
        ball.params = {realParam("radius", "Radius r", 1.0, 0.0, 1e12, "Radius of the ball (R of paper 002).",
                                 {.minExclusive = true, .logScale = true})};
        out.push_back(ball);

        Descriptor box;
        box.id = "box";
        box.name = "Box";
        box.explanation = "K = {lo ≤ x_k ≤ hi for every coordinate}. Projection clamps each "
                          "coordinate; the linear minimizer picks lo or hi by the sign of g_k.";
        box.params = {realParam("lo", "Lower bound", -1.0, -1e12, 1e12, "Lower bound of every coordinate."),
                      realParam("hi", "Upper bound", 1.0, -1e12, 1e12, "Upper bound of every coordinate.")};
        out.push_back(box);

        Descriptor trace;
        trace.id = "trace-norm";
        trace.name = "Trace-norm ball";
        trace.reference = "Paper 002 §4.1 (Wang et al., ICML 2025), after Zhang et al. 2017";
        trace.explanation = "K = {X ∈ R^{q×p} : ‖X‖_* ≤ τ} for a matrix decision stored row-major "
                            "(x[r·p + c] = X(r, c)). Exact projection: SVD and projection of the "
                            "singular values onto {s ≥ 0, Σ s ≤ τ}. Linear minimizer: −τ u₁v₁ᵀ from "
                            "the top singular pair.";
        trace.params = {realParam("radius", "Radius τ", 10.0, 0.0, 1e12, "Trace-norm bound τ (paper: 10).",
                                  {.minExclusive = true, .logScale = true}),
                        intParam("rows", "Rows q", 1, 1, 1000000,
                                 "Rows q of the matrix decision (number of classes); the columns are d/q.")};
        out.push_back(trace);
        return out;
    }();
    return descriptors;
}

Result<std::shared_ptr<const ConstraintSet>> makeConstraintSet(const Json &spec, int dimension, const std::string &path)
{
    if (spec.is_null())
        return std::shared_ptr<const ConstraintSet>(std::make_shared<FullSpace>(dimension));
    if (!spec.is_object())
        return Error::invalid(path, "must be an object {\"type\": ...}");
    if (!spec.contains("type") || !spec["type"].is_string())
        return Error::invalid(joinPath(path, "type"), "must name a constraint set (none, l2-ball, box, trace-norm)");
    const std::string type = spec["type"].get<std::string>();
    const Descriptor *descriptor = nullptr;
    for (const auto &d : constraintDescriptors())
        if (d.id == type)
            descriptor = &d;
    if (!descriptor)
        return Error::invalid(joinPath(path, "type"), "unknown constraint set '" + type
                                                          + "' (none, l2-ball, box, trace-norm)");
    Json rest = spec;
    rest.erase("type");
    auto params = resolveParams(descriptor->params, rest, path);
    if (!params)
        return params.error();
    const Json &p = params.value();
    if (type == "none")
        return std::shared_ptr<const ConstraintSet>(std::make_shared<FullSpace>(dimension));
    if (type == "l2-ball")
        return std::shared_ptr<const ConstraintSet>(std::make_shared<L2Ball>(dimension, paramReal(p, "radius")));
    if (type == "box") {
        const double lo = paramReal(p, "lo"), hi = paramReal(p, "hi");
        if (lo > hi)
            return Error::invalid(joinPath(path, "lo"), "must be <= hi");
        return std::shared_ptr<const ConstraintSet>(std::make_shared<Box>(dimension, lo, hi));
    }
    const long long rows = paramInt(p, "rows");
    if (dimension % rows != 0)
        return Error::invalid(joinPath(path, "rows"), "must divide the dimension " + std::to_string(dimension));
    return std::shared_ptr<const ConstraintSet>(
        std::make_shared<TraceNormBall>(static_cast<int>(rows), static_cast<int>(dimension / rows), paramReal(p, "radius")));
}

std::shared_ptr<const ConstraintSet> constraintSetOf(const Problem &problem)
{
    if (const auto *has = dynamic_cast<const HasConstraintSet *>(&problem))
        return has->constraintSet();
    return nullptr;
}

} // namespace dplab
