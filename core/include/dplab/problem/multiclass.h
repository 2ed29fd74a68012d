// SPDX-License-Identifier: GPL-3.0-or-later
//
// Paper 002's online multiclass classification (Wang et al., ICML 2025, §4.1, after Zhang et al.
// 2017 and Wan et al. 2020). Learner i receives ONE example (e_i(t), y_i(t)) per round and suffers
//
//     f_{t,i}(X) = log(1 + Σ_{ℓ≠y} exp(x_ℓᵀe − x_yᵀe)) = logsumexp(Xe) − (Xe)_y,
//
// with the decision X ∈ R^{q×p} (q classes, p features) flattened ROW-MAJOR into the agent's
// d = q·p vector: x[ℓ·p + k] = X(ℓ, k), row ℓ = class ℓ's weights. ∇f = (softmax(Xe) − 1_y) eᵀ.
// The feasible set is the trace-norm ball K = {‖X‖_* ≤ τ} (problem.constraintSet()). The
// gradients are NOT clipped here: gradient clipping at C is done by the learners (params.clip of
// pd-ftgl / pd-ocg / pd-ogd), which also use C in their noise calibration.
//
// Streams: the data set (N examples) is copied `epochs`·n times, shuffled, and dealt out evenly,
// so each learner's stream has T = epochs·N examples, one per round (paper: letter 10n copies →
// T = 10N; poker n copies → T = N). Round t uses example t mod T of the learner's stream.
//
// Global objective (optimality gap, reference): F(X) = (1/n) Σ_i (1/T) Σ_t f_{t,i}(X), the loss
// averaged over every example of every stream; the reference X* = argmin_{X∈K} F(X) (the best
// fixed decision in hindsight, the comparator of the regret) is computed by projected
// accelerated gradient (FISTA) and reported by closedFormOptimum().
//
// Threading: immutable after construction; const methods are thread-safe.
#pragma once

#include "dplab/problem/constraints.h"
#include "dplab/problem/dataset.h"
#include "dplab/problem/objectives.h"

#include <Eigen/Core>

#include <memory>
#include <vector>

namespace dplab {

class OnlineMulticlassProblem final : public Problem, public HasConstraintSet
{
public:
    /** features: N×p pool; labels: N class indices in 0..classes−1; streams: one per learner,
     *  pool rows in arrival order (each non-empty); tau: trace-norm radius. `referenceIterations`
     *  bounds the FISTA iterations of closedFormOptimum(). REQUIRES: consistent sizes. */
    OnlineMulticlassProblem(Eigen::MatrixXd features, std::vector<int> labels, int classes,
                            std::vector<std::vector<int>> streams, double tau, int referenceIterations,
                            Json facts = Json::object());

    std::string id() const override { return "online-multiclass"; }
    int agentCount() const override { return static_cast<int>(mStreams.size()); }
    int dimension() const override { return mClasses * static_cast<int>(mFeatures.cols()); }
    bool isOnline() const override { return true; }

    /** out(i) = f_{t,i}(X.row(i)). Cost O(n·q·p). */
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    /** out.row(i) = ∇f_{t,i}(X.row(i)) (unclipped). Cost O(n·q·p). */
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;
    /** out(r) = Σ_j f_{t,j}(X.row(r)): round t's n examples scored under each row of X, one
     *  matrix product per row. Cost O(rows·n·q·p). */
    void crossValues(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                     long long t) const override;
    /** F(x): every example of every stream, weighted by multiplicity. Cost O(N·q·p). */
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    /** The best fixed decision in hindsight within K (FISTA with exact projections and a
     *  backtracked step, stopped when the Frank–Wolfe gap certifies F(X) − F* ≤ 1e-9·max(1, F) or
     *  after referenceIterations; 0 iterations give X = 0). Cost per iteration O(N·q·p). */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    /** Fraction of pool examples (weighted by multiplicity) with argmax_ℓ (Xe)_ℓ = y. */
    std::optional<double> accuracy(const Eigen::VectorXd &x, bool test) const override;
    Json describe() const override;
    std::shared_ptr<const ConstraintSet> constraintSet() const override { return mSet; }

    int classes() const { return mClasses; }
    int features() const { return static_cast<int>(mFeatures.cols()); }
    /** T: the shortest stream's length (rounds before any stream wraps around). */
    long long rounds() const;
    const std::vector<int> &stream(int agent) const { return mStreams[agent]; }
    /** Loss of one example and, when grad is non-null, its gradient (size q·p). */
    double exampleLoss(const Eigen::Ref<const Eigen::VectorXd> &x, int row, Eigen::VectorXd *grad) const;
    /** Frank–Wolfe gap max_{V∈K} ⟨∇F(x), x − V⟩ ≥ F(x) − F*: the reference's certificate. */
    double frankWolfeGap(const Eigen::VectorXd &x) const;

private:
    /** F and ∇F (grad may be null) over the weighted pool. */
    double weightedLoss(const Eigen::VectorXd &x, Eigen::VectorXd *grad) const;

    /** N×p, row-major so that each example is contiguous. */
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> mFeatures;
    std::vector<int> mLabels;
    int mClasses = 1;
    std::vector<std::vector<int>> mStreams;
    Eigen::VectorXd mWeights; ///< per pool row: multiplicity / (n·T_i), Σ = 1
    std::shared_ptr<const TraceNormBall> mSet;
    int mReferenceIterations = 500;
    Json mFacts;
};

/** Deals `epochs`·agents shuffled copies of rows 0..N−1 out to `agents` learners: each stream has
 *  epochs·N rows and every row appears epochs·agents times in all. Draws from rng. */
std::vector<std::vector<int>> dealCopies(int rows, int agents, int epochs, Rng &rng);

/** The "online-multiclass" problem type of the factory. */
ProblemEntry onlineMulticlassProblemEntry();

/** Validates online-multiclass's data object (source bundled / csv / libsvm / idx / synthetic and
 *  its keys) and fills its defaults; loads nothing. Errors name `dataPath` (e.g.
 *  "problem.data.images"). Shared with the "online-softmax" stream problem. */
Result<Json> resolveMulticlassData(const Json &given, const std::string &dataPath);

/** Loads a data object resolved by resolveMulticlassData: labels are the raw file values,
 *  features unscaled; relative file names resolve against baseDir; synthetic data draws from
 *  rng. Errors name `dataPath`. Cost: reading the file. */
Result<Dataset> loadMulticlassData(const Json &resolved, const std::string &dataPath, const std::string &baseDir,
                                   Rng &rng);

/** The data object's parameter specs for a descriptor, keys prefixed by `prefix` + ".". */
std::vector<ParamSpec> multiclassDataParams(const std::string &prefix);

} // namespace dplab
