// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/metrics.h"
#include "dplab/engine/metricnames.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace dplab {

const std::vector<std::string> &allMetricNames()
{
    static const std::vector<std::string> names = {
        metric::ConsensusError, metric::DistanceToOptimum, metric::OptimalityGap, metric::GradientNorm,
        metric::AverageLoss,    metric::Regret,            metric::Epsilon,       metric::Bits,
        metric::TrainAccuracy,  metric::TestAccuracy,      metric::Residual,
        metric::AttackError};
    return names;
}

bool isOptInMetric(const std::string &name)
{
    return name == metric::Residual;
}

std::string metricDisplayName(const std::string &name)
{
    static const std::pair<const char *, const char *> names[] = {
        {metric::ConsensusError, "Consensus error"},
        {metric::DistanceToOptimum, "Distance to optimum"},
        {metric::OptimalityGap, "Optimality gap"},
        {metric::GradientNorm, "Gradient norm"},
        {metric::AverageLoss, "Average loss"},
        {metric::Regret, "Regret"},
        {metric::Epsilon, "Cumulative ε (max over agents)"},
        {metric::Bits, "Bits sent"},
        {metric::TrainAccuracy, "Training accuracy"},
        {metric::TestAccuracy, "Test accuracy"},
        {metric::Residual, "Residual"},
        {metric::AttackError, "Eavesdropper's reconstruction error"}};
    for (const auto &[key, words] : names)
        if (name == key)
            return words;
    return name;
}

double consensusError(const Eigen::Ref<const Eigen::MatrixXd> &x)
{
    const Eigen::RowVectorXd mean = x.colwise().mean();
    return (x.rowwise() - mean).squaredNorm() / static_cast<double>(x.rows());
}

double distanceToOptimum(const Eigen::Ref<const Eigen::MatrixXd> &x, const Eigen::VectorXd &xStar)
{
    return (x.rowwise() - xStar.transpose()).rowwise().norm().mean();
}

std::vector<double> residualSeries(const std::vector<Eigen::MatrixXd> &iterates)
{
    std::vector<double> out(iterates.size());
    if (iterates.empty())
        return out;
    const Eigen::MatrixXd &last = iterates.back();
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < iterates.size(); ++k) {
        best = std::min(best, (iterates[k] - last).squaredNorm());
        out[k] = best;
    }
    return out;
}

std::vector<std::string> applicableMetrics(const Problem &problem, bool hasReference, bool hasAccountant,
                                           const std::vector<std::string> &optIn)
{
    const bool online = problem.isOnline();
    const Eigen::VectorXd probe = Eigen::VectorXd::Zero(problem.dimension());
    std::vector<std::string> names;
    for (const auto &name : allMetricNames()) {
        bool applies = false;
        if (name == metric::ConsensusError || name == metric::Bits)
            applies = true;
        else if (name == metric::DistanceToOptimum || name == metric::OptimalityGap)
            applies = hasReference;
        else if (name == metric::GradientNorm)
            applies = !online;
        else if (name == metric::AverageLoss)
            applies = online;
        else if (name == metric::Regret)
            applies = online && hasReference;
        else if (name == metric::Epsilon)
            applies = hasAccountant;
        else if (name == metric::TrainAccuracy)
            applies = problem.accuracy(probe, false).has_value();
        else if (name == metric::TestAccuracy)
            applies = problem.accuracy(probe, true).has_value();
        else if (name == metric::Residual)
            applies = std::find(optIn.begin(), optIn.end(), name) != optIn.end();
        if (applies)
            names.push_back(name);
    }
    return names;
}

MetricTracker::MetricTracker(const Problem &problem, const Reference *reference, std::vector<std::string> names)
    : mProblem(problem), mReference(reference), mNames(std::move(names)), mOnline(problem.isOnline())
{
    const int n = problem.agentCount();
    const int rows = n + (reference ? 1 : 0);
    mStacked.resize(rows, problem.dimension());
    if (reference)
        mStacked.row(n) = reference->x.transpose();
    mCross.resize(rows);
    for (const std::string &name : mNames) {
        if (name == metric::OptimalityGap)
            mRequest.value = true;
        else if (name == metric::GradientNorm)
            mRequest.gradient = true;
        else if (name == metric::TrainAccuracy)
            mRequest.trainAccuracy = true;
        else if (name == metric::TestAccuracy)
            mRequest.testAccuracy = true;
    }
}

void MetricTracker::observe(const Eigen::Ref<const Eigen::MatrixXd> &x, long long t)
{
    if (!mOnline)
        return;
    // AL(t) = (1/(t·n)) Σ_{τ≤t} Σ_j f_{τ,j}(x_i(τ)), averaged over learners i: every learner's
    // decision is scored on every learner's loss of round τ — one crossValues call for the n
    // decisions and the reference (Problem::crossValues: one matrix product over round τ's
    // samples for the online problems).
    const Eigen::Index n = x.rows();
    mStacked.topRows(n) = x;
    mProblem.crossValues(mStacked, mCross, t);
    const double loss = mCross.head(n).sum();
    mLossSum += loss / static_cast<double>(n * n);
    if (mReference) {
        // (1/n) Σ_i [Σ_j f_{τ,j}(x_i) − Σ_j f_{τ,j}(x_ref)]: regret of the network, per learner averaged.
        mRegretSum += loss / static_cast<double>(n) - mCross[n];
    }
    ++mObserved;
}

void MetricTracker::compute(const Eigen::Ref<const Eigen::MatrixXd> &x, long long t, const Algorithm &algorithm,
                            std::vector<double> &out)
{
    Eigen::VectorXd mean;
    if (computeLocal(x, algorithm, out, mean)) {
        evaluateGlobal(mean, mGlobal);
        fillGlobal(mGlobal, out);
    }
    (void)t;
}

bool MetricTracker::computeLocal(const Eigen::Ref<const Eigen::MatrixXd> &x, const Algorithm &algorithm,
                                 std::vector<double> &out, Eigen::VectorXd &mean) const
{
    out.assign(mNames.size(), std::numeric_limits<double>::quiet_NaN());
    mean = x.colwise().mean().transpose();
    for (std::size_t k = 0; k < mNames.size(); ++k) {
        const std::string &name = mNames[k];
        if (name == metric::ConsensusError) {
            out[k] = consensusError(x);
        } else if (name == metric::DistanceToOptimum) {
            out[k] = distanceToOptimum(x, mReference->x);
        } else if (name == metric::AverageLoss) {
            if (mObserved > 0)
                out[k] = mLossSum / static_cast<double>(mObserved);
        } else if (name == metric::Regret) {
            out[k] = mRegretSum;
        } else if (name == metric::Epsilon) {
            const PrivacyAccountant *acc = algorithm.accountant();
            out[k] = acc && acc->epsilon().size() > 0 ? acc->epsilon().maxCoeff() : 0.0;
        } else if (name == metric::Bits) {
            out[k] = static_cast<double>(algorithm.bitsSent());
        }
        // Residual: post-run. F, ∇F and the accuracies: fillGlobal.
    }
    return mRequest.value || mRequest.gradient || mRequest.trainAccuracy || mRequest.testAccuracy;
}

void MetricTracker::evaluateGlobal(const Eigen::VectorXd &mean, GlobalEvaluation &global) const
{
    // F(x̄), ∇F(x̄) and the accuracies in one pass over the data.
    mProblem.evaluateGlobal(mean, mRequest, global);
}

void MetricTracker::fillGlobal(const GlobalEvaluation &global, std::vector<double> &out) const
{
    constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t k = 0; k < mNames.size(); ++k) {
        const std::string &name = mNames[k];
        if (name == metric::OptimalityGap) {
            // F(x̄) − F* is the difference of two rounded numbers: below 64 ulp of their
            // magnitude it is round-off (−5.55e-18 at F* ≈ 0.3), recorded as 0.
            const double gap = global.value - mReference->value;
            const double scale = std::max(std::fabs(global.value), std::fabs(mReference->value));
            out[k] = std::fabs(gap) <= 64 * std::numeric_limits<double>::epsilon() * scale ? 0.0 : gap;
        } else if (name == metric::GradientNorm) {
            out[k] = global.gradient.norm();
        } else if (name == metric::TrainAccuracy) {
            out[k] = global.trainAccuracy.value_or(NaN);
        } else if (name == metric::TestAccuracy) {
            out[k] = global.testAccuracy.value_or(NaN);
        }
    }
}

} // namespace dplab
