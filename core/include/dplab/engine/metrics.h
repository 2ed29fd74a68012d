// SPDX-License-Identifier: GPL-3.0-or-later
//
// The metrics of docs/architecture.md §3. Names are part of the contract (CSV headers, plots, reports).
// A metric that does not apply to a run is absent — never zero.
//
// Threading: MetricTracker is per repetition (one thread); the functions are pure.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/problem/problem.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace dplab {

namespace metric {
inline constexpr const char *ConsensusError = "consensus_error";
inline constexpr const char *DistanceToOptimum = "distance_to_optimum";
inline constexpr const char *OptimalityGap = "optimality_gap";
inline constexpr const char *GradientNorm = "gradient_norm";
inline constexpr const char *AverageLoss = "average_loss";
inline constexpr const char *Regret = "regret";
inline constexpr const char *Epsilon = "epsilon";
inline constexpr const char *Bits = "bits";
inline constexpr const char *TrainAccuracy = "train_accuracy";
inline constexpr const char *TestAccuracy = "test_accuracy";
inline constexpr const char *Residual = "residual";
inline constexpr const char *AttackError = "attack_error"; ///< eavesdropper's reconstruction error (teaching)
} // namespace metric

/** Every metric name in the canonical column order. */
const std::vector<std::string> &allMetricNames();
/** Metrics computed only when the experiment lists them under "metrics". */
bool isOptInMetric(const std::string &name);

/** (1/n) Σ_i ‖x_i − x̄‖². */
double consensusError(const Eigen::Ref<const Eigen::MatrixXd> &x);
/** (1/n) Σ_i ‖x_i − x*‖. */
double distanceToOptimum(const Eigen::Ref<const Eigen::MatrixXd> &x, const Eigen::VectorXd &xStar);
/** The post-run residual R_k = min_{τ≤k} ‖x_τ − x^∞‖² over recorded stacked iterates. */
std::vector<double> residualSeries(const std::vector<Eigen::MatrixXd> &iterates);

/** Which metrics apply to a run (before it starts), in canonical order. */
std::vector<std::string> applicableMetrics(const Problem &problem, bool hasReference, bool hasAccountant,
                                           const std::vector<std::string> &optIn);

/** Computes the per-iteration metrics of one repetition, keeping the running sums the online
 *  metrics need (average loss and regret are cumulative over every iteration, recorded or
 *  not, so `observe` must be called at every iteration for online problems; it costs one
 *  Problem::crossValues call). compute() evaluates F, ∇F and the accuracies at x̄ in one
 *  Problem::evaluateGlobal pass. */
class MetricTracker
{
public:
    MetricTracker(const Problem &problem, const Reference *reference, std::vector<std::string> names);

    const std::vector<std::string> &names() const { return mNames; }
    /** Accumulates the online losses of the decisions played at iteration t (online only). */
    void observe(const Eigen::Ref<const Eigen::MatrixXd> &x, long long t);
    /** The values of names() for the decisions x after t iterations; out has names().size()
     *  entries (NaN for the post-run residual, filled in later). */
    void compute(const Eigen::Ref<const Eigen::MatrixXd> &x, long long t, const Algorithm &algorithm,
                 std::vector<double> &out);
    bool needsObserve() const { return mOnline; }

    /** compute() in two parts, so that the metrics at x̄ can be evaluated on another thread while
     *  the job steps on (engine/runner.cpp): computeLocal fills every value that reads x or the
     *  algorithm now and returns whether the metrics at x̄ (F, ∇F, accuracies) are wanted, with x̄
     *  in `mean`; evaluateGlobal (const, thread-safe like Problem's const functions) evaluates
     *  them; fillGlobal puts them into out. compute() is exactly these three calls. */
    bool computeLocal(const Eigen::Ref<const Eigen::MatrixXd> &x, const Algorithm &algorithm,
                      std::vector<double> &out, Eigen::VectorXd &mean) const;
    void evaluateGlobal(const Eigen::VectorXd &mean, GlobalEvaluation &global) const;
    void fillGlobal(const GlobalEvaluation &global, std::vector<double> &out) const;

private:
    const Problem &mProblem;
    const Reference *mReference;
    std::vector<std::string> mNames;
    bool mOnline = false;
    double mLossSum = 0.0;   ///< Σ_τ (1/n) Σ_i Σ_j f_{τ,j}(x_i(τ)) / n
    double mRegretSum = 0.0; ///< Σ_τ (1/n) Σ_i [F_τ(x_i(τ)) − F_τ(x_ref)]
    long long mObserved = 0;
    GlobalRequest mRequest;     ///< what compute() asks evaluateGlobal for
    GlobalEvaluation mGlobal;
    Eigen::MatrixXd mStacked;   ///< the n decisions, then x_ref (online)
    Eigen::VectorXd mCross;
};

} // namespace dplab
