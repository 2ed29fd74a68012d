// SPDX-License-Identifier: GPL-3.0-or-later
//
// Convex feasible sets K ⊆ R^d with the two oracles decentralized online learners use:
//   project(x)            the Euclidean projection argmin_{y∈K} ‖y − x‖ (projection-based methods)
//   linearMinimizer(g)    argmin_{v∈K} ⟨g, v⟩ (Frank–Wolfe / conditional gradient)
//
// Sets (JSON {"type": id, ...}):
//   none         R^d (unbounded; no linear minimizer)
//   l2-ball      {‖x‖₂ ≤ radius}
//   box          {lo ≤ x_k ≤ hi}
//   trace-norm   {X ∈ R^{q×p} : ‖X‖_* ≤ radius} for a matrix decision flattened ROW-MAJOR,
//                x[r·p + c] = X(r, c) (paper 002's multiclass experiments, τ = radius)
//
// Every set contains 0 (paper 002, Assumption 3.1) except a box that excludes it.
//
// Threading: a ConstraintSet is immutable; its const methods are thread-safe.
#pragma once

#include "dplab/common/params.h"
#include "dplab/common/result.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace dplab {

class Problem;

class ConstraintSet
{
public:
    virtual ~ConstraintSet() = default;
    virtual std::string id() const = 0;
    /** The dimension d of the vectors it constrains. */
    virtual int dimension() const = 0;
    /** Replaces x by its Euclidean projection onto K. */
    virtual void project(Eigen::Ref<Eigen::VectorXd> x) const = 0;
    /** Writes into v a minimizer of ⟨g, v⟩ over K. REQUIRES: bounded(). */
    virtual void linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const = 0;
    /** Whether x ∈ K up to an absolute tolerance tol. */
    virtual bool contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol = 1e-9) const = 0;
    /** R = max_{x∈K} ‖x‖₂ (+∞ when unbounded). */
    virtual double radius() const = 0;
    bool bounded() const { return std::isfinite(radius()); }
    /** The resolved JSON object ({"type": ..., ...}). */
    virtual Json toJson() const = 0;
};

/** R^d. */
class FullSpace final : public ConstraintSet
{
public:
    explicit FullSpace(int d) : mD(d) {}
    std::string id() const override { return "none"; }
    int dimension() const override { return mD; }
    void project(Eigen::Ref<Eigen::VectorXd>) const override {}
    void linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const override;
    bool contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol = 1e-9) const override;
    double radius() const override { return std::numeric_limits<double>::infinity(); }
    Json toJson() const override;

private:
    int mD;
};

/** {‖x‖₂ ≤ r}. Projection x·min(1, r/‖x‖); minimizer −r g/‖g‖ (0 when g = 0). */
class L2Ball final : public ConstraintSet
{
public:
    L2Ball(int d, double r) : mD(d), mR(r) {}
    std::string id() const override { return "l2-ball"; }
    int dimension() const override { return mD; }
    void project(Eigen::Ref<Eigen::VectorXd> x) const override;
    void linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const override;
    bool contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol = 1e-9) const override;
    double radius() const override { return mR; }
    Json toJson() const override;

private:
    int mD;
    double mR;
};

/** {lo ≤ x_k ≤ hi} (the same bounds for every coordinate). Projection clamps; the minimizer
 *  takes lo where g_k > 0, hi where g_k < 0 and the midpoint where g_k = 0. */
class Box final : public ConstraintSet
{
public:
    Box(int d, double lo, double hi) : mD(d), mLo(lo), mHi(hi) {}
    std::string id() const override { return "box"; }
    int dimension() const override { return mD; }
    void project(Eigen::Ref<Eigen::VectorXd> x) const override;
    void linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const override;
    bool contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol = 1e-9) const override;
    double radius() const override;
    Json toJson() const override;

private:
    int mD;
    double mLo, mHi;
};

/** The trace-norm (nuclear-norm) ball {X ∈ R^{q×p} : ‖X‖_* ≤ τ}, X flattened row-major.
 *  Projection: SVD X = U diag(s) Vᵀ, s projected onto {s ≥ 0, Σ s ≤ τ} (unchanged when Σ s ≤ τ),
 *  X' = U diag(s') Vᵀ — exact, computed as U diag(s'/s) Uᵀ X from a QR reduction to a k×k
 *  triangle and its Jacobi SVD (k = min(q,p)), O(k² max(q,p)). Minimizer of ⟨G, V⟩:
 *  −τ u₁ v₁ᵀ with (u₁, v₁) the top singular pair of G, from the eigen-decomposition of the
 *  smaller Gram matrix, O(min(q,p)² max(q,p)). R = τ since ‖X‖_F ≤ ‖X‖_*. */
class TraceNormBall final : public ConstraintSet
{
public:
    TraceNormBall(int rows, int cols, double tau) : mRows(rows), mCols(cols), mTau(tau) {}
    std::string id() const override { return "trace-norm"; }
    int dimension() const override { return mRows * mCols; }
    int rows() const { return mRows; }
    int cols() const { return mCols; }
    void project(Eigen::Ref<Eigen::VectorXd> x) const override;
    void linearMinimizer(const Eigen::Ref<const Eigen::VectorXd> &g, Eigen::Ref<Eigen::VectorXd> v) const override;
    bool contains(const Eigen::Ref<const Eigen::VectorXd> &x, double tol = 1e-9) const override;
    double radius() const override { return mTau; }
    Json toJson() const override;

private:
    int mRows, mCols;
    double mTau;
};

/** Euclidean projection of s onto {s ≥ 0, Σ s ≤ tau} (the capped simplex used for singular
 *  values): s' = max(s − λ, 0) with the smallest λ ≥ 0 that makes Σ s' ≤ tau. O(k log k). */
Eigen::VectorXd projectCappedSimplex(const Eigen::Ref<const Eigen::VectorXd> &s, double tau);
/** The same into `out` (size of s), without allocating once its per-thread sort buffer has grown. */
void projectCappedSimplex(const Eigen::Ref<const Eigen::VectorXd> &s, double tau, Eigen::Ref<Eigen::VectorXd> out);

/** ‖X‖_* of a row-major flattened q×p matrix. */
double traceNorm(const Eigen::Ref<const Eigen::VectorXd> &x, int rows, int cols);

const std::vector<Descriptor> &constraintDescriptors();

/** Builds a set from {"type": "none" | "l2-ball" | "box" | "trace-norm", ...} for vectors of
 *  dimension d; "trace-norm" needs "rows" (q) with q dividing d. Errors name `path`. */
Result<std::shared_ptr<const ConstraintSet>> makeConstraintSet(const Json &spec, int dimension,
                                                               const std::string &path);

/** Problems whose decisions live in a set K of their own implement this as well (e.g. paper
 *  002's multiclass problem with its trace-norm ball); algorithms find it with constraintSetOf. */
class HasConstraintSet
{
public:
    virtual ~HasConstraintSet() = default;
    virtual std::shared_ptr<const ConstraintSet> constraintSet() const = 0;
};

/** The problem's own K, or nullptr when it has none. */
std::shared_ptr<const ConstraintSet> constraintSetOf(const Problem &problem);

} // namespace dplab
