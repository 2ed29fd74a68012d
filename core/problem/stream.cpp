// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/stream.h"

#include "dplab/common/enumnames.h"
#include "dplab/privacy/rng.h"
#include "problem/vectormath.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>

namespace dplab {

namespace {

std::atomic<std::uint64_t> gNextInstance{1};

bool allFinite(const Eigen::MatrixXd &m)
{
    return m.allFinite();
}

const char *gradientName(StreamGradient g)
{
    return g == StreamGradient::Cumulative ? "cumulative" : "window";
}

const char *populationName(StreamPopulation p)
{
    return p == StreamPopulation::Pool ? "pool" : "sequence";
}

/** Checks and normalises labels for the loss; returns an error message or "". */
std::string normaliseLabels(SampleLoss loss, Eigen::VectorXd &labels, int classes)
{
    for (Eigen::Index k = 0; k < labels.size(); ++k) {
        double &b = labels[k];
        if (!std::isfinite(b))
            return "label " + std::to_string(k) + " is not finite";
        switch (loss) {
        case SampleLoss::Logistic:
            if (b == -1.0)
                b = 0.0;
            if (b != 0.0 && b != 1.0)
                return "logistic labels must be 0/1 or ±1 (label " + std::to_string(k) + " is "
                       + std::to_string(b) + ")";
            break;
        case SampleLoss::Softmax:
            if (b < 0 || b != std::floor(b) || b >= classes)
                return "softmax labels must be whole numbers in [0, " + std::to_string(classes)
                       + ") (label " + std::to_string(k) + " is " + std::to_string(b) + ")";
            break;
        case SampleLoss::LeastSquares:
            break;
        }
    }
    return {};
}

} // namespace

const char *sampleLossName(SampleLoss loss)
{
    return nameIn<SampleLoss>({{SampleLoss::Logistic, "logistic"},
                               {SampleLoss::LeastSquares, "least-squares"},
                               {SampleLoss::Softmax, "softmax"}},
                              loss, "logistic");
}

Result<std::shared_ptr<const OnlineStreamProblem>>
OnlineStreamProblem::create(Eigen::MatrixXd features, Eigen::VectorXd labels,
                            std::vector<std::vector<int>> sequences, const StreamOptions &options,
                            const std::string &path, Eigen::MatrixXd testFeatures,
                            Eigen::VectorXd testLabels, std::string id)
{
    const Eigen::Index n = features.rows();
    if (n < 1 || features.cols() < 1)
        return Error::invalid(joinPath(path, "data"), "the data pool is empty");
    if (labels.size() != n)
        return Error::invalid(joinPath(path, "labels"),
                              "has " + std::to_string(labels.size()) + " labels for "
                                  + std::to_string(n) + " samples");
    if (!allFinite(features))
        return Error::invalid(joinPath(path, "data"), "features must be finite");
    if (options.samplesPerIteration < 1)
        return Error::invalid(joinPath(path, "samples_per_iteration"), "must be ≥ 1");
    if (options.window < 0)
        return Error::invalid(joinPath(path, "window"), "must be ≥ 0");
    if (!(options.ridge >= 0) || !std::isfinite(options.ridge))
        return Error::invalid(joinPath(path, "ridge"), "must be a finite number ≥ 0");
    if (!(options.clipL1 >= 0) || !std::isfinite(options.clipL1))
        return Error::invalid(joinPath(path, "clip_l1"), "must be a finite number ≥ 0");
    if (sequences.empty())
        return Error::invalid(joinPath(path, "agents"), "needs at least one learner");
    for (std::size_t i = 0; i < sequences.size(); ++i) {
        if (sequences[i].empty())
            return Error::invalid(indexPath(joinPath(path, "sequences"), i), "is empty");
        for (int row : sequences[i])
            if (row < 0 || row >= n)
                return Error::invalid(indexPath(joinPath(path, "sequences"), i),
                                      "sample index " + std::to_string(row) + " is outside the pool of "
                                          + std::to_string(n));
    }

    int classes = 1;
    if (options.loss == SampleLoss::Softmax) {
        classes = options.classes;
        if (classes <= 0) {
            double maxLabel = labels.maxCoeff();
            if (testLabels.size() > 0)
                maxLabel = std::max(maxLabel, testLabels.maxCoeff());
            classes = std::isfinite(maxLabel) && maxLabel >= 0 ? static_cast<int>(maxLabel) + 1 : 0;
        }
        if (classes < 2)
            return Error::invalid(joinPath(path, "classes"), "softmax needs at least 2 classes");
    }
    if (auto message = normaliseLabels(options.loss, labels, classes); !message.empty())
        return Error::invalid(joinPath(path, "labels"), message);
    if (testFeatures.size() > 0) {
        if (testFeatures.cols() != features.cols())
            return Error::invalid(joinPath(path, "test"),
                                  "test features have " + std::to_string(testFeatures.cols())
                                      + " columns, the pool has " + std::to_string(features.cols()));
        if (testLabels.size() != testFeatures.rows())
            return Error::invalid(joinPath(path, "test"), "test labels and features differ in length");
        if (!allFinite(testFeatures))
            return Error::invalid(joinPath(path, "test"), "test features must be finite");
        if (auto message = normaliseLabels(options.loss, testLabels, classes); !message.empty())
            return Error::invalid(joinPath(path, "test"), message);
    }

    std::shared_ptr<OnlineStreamProblem> p(new OnlineStreamProblem());
    p->mInstance = gNextInstance.fetch_add(1, std::memory_order_relaxed);
    p->mId = id.empty() ? std::string("online-") + sampleLossName(options.loss) : std::move(id);
    p->mOptions = options;
    p->mClasses = classes;
    p->mDimension = static_cast<int>(features.cols()) * classes;
    p->mFeatures = std::move(features);
    p->mLabels = std::move(labels);
    p->mTestFeatures = std::move(testFeatures);
    p->mTestLabels = std::move(testLabels);

    std::vector<int> distinctOf(static_cast<std::size_t>(n), -1);
    p->mAgents.resize(sequences.size());
    p->mPopulationWeights.resize(sequences.size());
    for (std::size_t i = 0; i < sequences.size(); ++i) {
        AgentStream &a = p->mAgents[i];
        a.sequence = std::move(sequences[i]);
        std::vector<int> order; // pool rows in first-arrival order
        a.distinctAt.resize(a.sequence.size());
        for (std::size_t k = 0; k < a.sequence.size(); ++k) {
            const int row = a.sequence[k];
            int &u = distinctOf[static_cast<std::size_t>(row)];
            if (u < 0) {
                u = static_cast<int>(order.size());
                order.push_back(row);
                a.firstArrival.push_back(static_cast<long long>(k));
                a.arrivals.emplace_back();
            }
            a.arrivals[static_cast<std::size_t>(u)].push_back(static_cast<long long>(k));
            a.distinctAt[k] = u;
        }
        const auto distinct = static_cast<Eigen::Index>(order.size());
        a.rows.resize(distinct, p->mFeatures.cols());
        a.labels.resize(distinct);
        Eigen::VectorXd &pop = p->mPopulationWeights[i];
        pop.resize(distinct);
        for (Eigen::Index u = 0; u < distinct; ++u) {
            a.rows.row(u) = p->mFeatures.row(order[static_cast<std::size_t>(u)]);
            a.labels[u] = p->mLabels[order[static_cast<std::size_t>(u)]];
            pop[u] = static_cast<double>(a.arrivals[static_cast<std::size_t>(u)].size())
                     / static_cast<double>(a.sequence.size());
        }
        a.rowL1 = a.rows.rowwise().lpNorm<1>();
        for (int row : order)
            distinctOf[static_cast<std::size_t>(row)] = -1;
        a.poolRows = std::move(order);
    }
    return std::shared_ptr<const OnlineStreamProblem>(std::move(p));
}

Result<std::shared_ptr<const OnlineStreamProblem>>
OnlineStreamProblem::fromAgentSamples(const std::vector<Eigen::MatrixXd> &features,
                                      const std::vector<Eigen::VectorXd> &labels,
                                      const StreamOptions &options, const std::string &path)
{
    if (features.empty() || features.size() != labels.size())
        return Error::invalid(joinPath(path, "agents"), "needs one feature matrix and one label vector per learner");
    Eigen::Index rows = 0;
    const Eigen::Index cols = features.front().cols();
    for (std::size_t i = 0; i < features.size(); ++i) {
        if (features[i].cols() != cols)
            return Error::invalid(indexPath(joinPath(path, "agents"), i), "feature count differs from learner 0");
        if (features[i].rows() != labels[i].size())
            return Error::invalid(indexPath(joinPath(path, "agents"), i), "features and labels differ in length");
        rows += features[i].rows();
    }
    Eigen::MatrixXd pool(rows, cols);
    Eigen::VectorXd poolLabels(rows);
    std::vector<std::vector<int>> sequences(features.size());
    Eigen::Index at = 0;
    for (std::size_t i = 0; i < features.size(); ++i) {
        pool.middleRows(at, features[i].rows()) = features[i];
        poolLabels.segment(at, features[i].rows()) = labels[i];
        for (Eigen::Index k = 0; k < features[i].rows(); ++k)
            sequences[i].push_back(static_cast<int>(at + k));
        at += features[i].rows();
    }
    return create(std::move(pool), std::move(poolLabels), std::move(sequences), options, path);
}

std::vector<std::vector<int>> OnlineStreamProblem::iidSequences(int poolSize, int agents,
                                                                long long length, std::uint64_t seed)
{
    assert(poolSize > 0 && agents > 0 && length >= 0 && "iidSequences: bad sizes");
    std::vector<std::vector<int>> sequences(static_cast<std::size_t>(agents));
    for (int i = 0; i < agents; ++i) {
        Rng rng = Rng::stream(seed, 0, 0, i, RngPurpose::Stream);
        auto &s = sequences[static_cast<std::size_t>(i)];
        s.resize(static_cast<std::size_t>(length));
        for (auto &row : s)
            row = static_cast<int>(rng.below(static_cast<std::uint64_t>(poolSize)));
    }
    return sequences;
}

long long OnlineStreamProblem::samplesReceived(long long t) const
{
    return (std::max(t, 0LL) + 1) * mOptions.samplesPerIteration;
}

Eigen::Index OnlineStreamProblem::cumulativeWeights(int i, long long K, Eigen::VectorXd &weights) const
{
    // Per thread, per learner: the multiplicity of every distinct row within [0, cachedK), as
    // exact integers held in doubles. One problem instance at a time (a different instance
    // resets it); a K below the cached one, or far beyond it, is recounted by binary searches.
    struct Counts {
        long long K = 0;
        Eigen::Index reached = 0; // P at K: distinct rows arrive in index order
        Eigen::VectorXd count;
    };
    thread_local std::uint64_t cachedInstance = 0;
    thread_local std::vector<Counts> cache;
    if (cachedInstance != mInstance) {
        cachedInstance = mInstance;
        cache.assign(mAgents.size(), Counts{});
    }
    const AgentStream &agent = mAgents[static_cast<std::size_t>(i)];
    Counts &c = cache[static_cast<std::size_t>(i)];
    const auto distinct = static_cast<Eigen::Index>(agent.firstArrival.size());
    const auto L = static_cast<long long>(agent.sequence.size());
    if (c.count.size() != distinct) {
        c.count = Eigen::VectorXd::Zero(distinct);
        c.K = 0;
        c.reached = 0;
    }
    if (K < c.K || K - c.K > distinct) {
        const long long cycles = K / L;
        const long long rest = K % L;
        c.reached = cycles > 0 ? distinct
                               : static_cast<Eigen::Index>(std::lower_bound(agent.firstArrival.begin(),
                                                                            agent.firstArrival.end(), K)
                                                           - agent.firstArrival.begin());
        c.count.setZero();
        for (Eigen::Index u = 0; u < c.reached; ++u) {
            const auto &arr = agent.arrivals[static_cast<std::size_t>(u)];
            c.count[u] = static_cast<double>(cycles * static_cast<long long>(arr.size())
                                             + (std::lower_bound(arr.begin(), arr.end(), rest) - arr.begin()));
        }
    } else {
        for (long long k = c.K; k < K; ++k) {
            const int u = agent.distinctAt[static_cast<std::size_t>(k % L)];
            c.count[u] += 1.0;
            c.reached = std::max(c.reached, static_cast<Eigen::Index>(u) + 1);
        }
    }
    c.K = K;
    // Sized once for all P this agent can reach (no allocation as P grows); entries ≥ P unused.
    if (weights.size() < distinct)
        weights.resize(distinct);
    const Eigen::Index P = c.reached;
    weights.head(P) = c.count.head(P) / static_cast<double>(K);
    return P;
}

double OnlineStreamProblem::sampleLoss(const Eigen::Ref<const Eigen::VectorXd> &theta,
                                       const Eigen::Ref<const Eigen::VectorXd> &a, double b,
                                       Eigen::Ref<Eigen::VectorXd> grad) const
{
    Eigen::MatrixXd A = a.transpose();
    Eigen::VectorXd labels = Eigen::VectorXd::Constant(1, b);
    Eigen::VectorXd w = Eigen::VectorXd::Ones(1);
    Eigen::VectorXd g;
    const double value = weightedLoss(A, labels, w, theta, 0.0, &g);
    grad = g;
    return value;
}

namespace {

/** buffer.head(size), growing the buffer geometrically (at least 1024) when needed: the sample
 *  sets of a cumulative stream grow by a few rows per iteration, and the buffer must not be
 *  reallocated each time. */
Eigen::VectorXd::SegmentReturnType scratch(Eigen::VectorXd &buffer, Eigen::Index size)
{
    if (buffer.size() < size)
        buffer.resize(std::max({size, 2 * buffer.size(), Eigen::Index(1024)}));
    return buffer.head(size);
}

} // namespace

double OnlineStreamProblem::weightedLoss(const Eigen::Ref<const Eigen::MatrixXd> &A,
                                         const Eigen::Ref<const Eigen::VectorXd> &b,
                                         const Eigen::Ref<const Eigen::VectorXd> &w,
                                         const Eigen::Ref<const Eigen::VectorXd> &theta, double clip,
                                         Eigen::VectorXd *grad, const Eigen::VectorXd *rowL1,
                                         bool wantValue) const
{
    // Scratch is thread_local: the hot loop (gradients at every iteration) does not allocate.
    thread_local Eigen::VectorXd zBuffer, rBuffer, eBuffer;
    const double ridge = mOptions.ridge;
    const Eigen::Index P = A.rows();
    const double weightSum = w.sum();
    double value = wantValue ? 0.5 * ridge * theta.squaredNorm() * weightSum : 0.0;
    // The clip needs the exact ‖∇l_u‖_1 only where the bound ‖∇l_u‖_1 ≤ |dl/dz|·‖a_u‖_1 + r‖θ‖_1
    // reaches it (the margin covers the rounding of both sums), so skipping the rest changes
    // nothing.
    const double clipMargin = 1.0 - 1e-9;
    const double ridgeL1 = clip > 0 && rowL1 ? ridge * theta.lpNorm<1>() : 0.0;
    if (mOptions.loss != SampleLoss::Softmax) {
        auto z = scratch(zBuffer, P);
        auto r = scratch(rBuffer, P); // dl/dz per sample, then coefficient · dl/dz
        z.noalias() = A * theta;
        if (mOptions.loss == SampleLoss::Logistic) {
            // Vectorised (problem/vectormath.h): r = s(z), e = e^{−|z|}, and
            // softplus(z) = max(z, 0) + log1p(e).
            auto e = scratch(eBuffer, P);
            vectormath::sigmoid(z.array(), r.array(), e.array());
            if (wantValue) {
                vectormath::log1pInPlace(e.array());
                value += (w.array() * (z.array().max(0.0) + e.array() - b.array() * z.array())).sum();
            }
            r.array() -= b.array();
        } else {
            r = z - b;
            if (wantValue)
                value += 0.5 * (w.array() * r.array().square()).sum();
        }
        if (grad) {
            // z becomes the coefficient w_u · (clip scale)_u.
            double coefSum = 0.0;
            for (Eigen::Index u = 0; u < P; ++u) {
                double coef = w[u];
                if (clip > 0 && !(rowL1 && std::abs(r[u]) * (*rowL1)[u] + ridgeL1 <= clip * clipMargin)) {
                    const double norm = (r[u] * A.row(u).transpose() + ridge * theta).lpNorm<1>();
                    if (norm > clip)
                        coef *= clip / norm;
                }
                z[u] = coef;
                coefSum += coef;
                r[u] *= coef;
            }
            grad->resize(theta.size());
            grad->noalias() = A.transpose() * r;
            *grad += (ridge * coefSum) * theta;
        }
        return value;
    }

    // Softmax: Θ is d_f × K, column c = class c.
    thread_local Eigen::MatrixXd ZBuffer;
    const Eigen::Index df = A.cols();
    const Eigen::Map<const Eigen::MatrixXd> Theta(theta.data(), df, mClasses);
    if (ZBuffer.rows() < P || ZBuffer.cols() != mClasses)
        ZBuffer.resize(std::max({P, 2 * ZBuffer.rows(), Eigen::Index(1024)}), mClasses);
    auto Z = ZBuffer.topRows(P);
    Z.noalias() = A * Theta; // P × K logits, then residuals p − e_b
    for (Eigen::Index u = 0; u < P; ++u) {
        const double zmax = Z.row(u).maxCoeff();
        double sum = 0.0;
        for (Eigen::Index c = 0; c < mClasses; ++c)
            sum += std::exp(Z(u, c) - zmax);
        const auto label = static_cast<Eigen::Index>(b[u]);
        if (wantValue)
            value += w[u] * (zmax + std::log(sum) - Z(u, label));
        for (Eigen::Index c = 0; c < mClasses; ++c)
            Z(u, c) = std::exp(Z(u, c) - zmax) / sum;
        Z(u, label) -= 1.0;
    }
    if (grad) {
        auto coef = scratch(rBuffer, P);
        coef = w;
        if (clip > 0) {
            for (Eigen::Index u = 0; u < P; ++u) {
                // Σ_c ‖a (p − e_b)_c + r Θ_c‖_1 ≤ ‖a‖_1 ‖p − e_b‖_1 + r ‖Θ‖_1 (see the logistic case).
                if (rowL1 && (*rowL1)[u] * Z.row(u).lpNorm<1>() + ridgeL1 <= clip * clipMargin)
                    continue;
                double norm = 0.0;
                for (Eigen::Index c = 0; c < mClasses; ++c)
                    norm += (A.row(u).transpose() * Z(u, c) + ridge * Theta.col(c)).lpNorm<1>();
                if (norm > clip)
                    coef[u] *= clip / norm;
            }
        }
        const double coefSum = coef.sum();
        Z.array().colwise() *= coef.array();
        grad->resize(theta.size());
        Eigen::Map<Eigen::MatrixXd> G(grad->data(), df, mClasses);
        G.noalias() = A.transpose() * Z;
        G += (ridge * coefSum) * Theta;
    }
    return value;
}

double OnlineStreamProblem::agentLoss(int i, const Eigen::Ref<const Eigen::VectorXd> &theta,
                                      long long t, Eigen::VectorXd *grad, bool wantValue) const
{
    const AgentStream &agent = mAgents[static_cast<std::size_t>(i)];
    const long long K = samplesReceived(t);
    thread_local Eigen::VectorXd w;
    if (mOptions.gradient == StreamGradient::Cumulative) {
        const Eigen::Index P = cumulativeWeights(i, K, w);
        return weightedLoss(agent.rows.topRows(P), agent.labels.head(P), w.head(P), theta,
                            mOptions.clipL1, grad, &agent.rowL1, wantValue);
    }
    const long long W = mOptions.window > 0 ? mOptions.window : mOptions.samplesPerIteration;
    const long long first = std::max(0LL, K - W);
    const auto count = static_cast<Eigen::Index>(K - first);
    const auto L = static_cast<long long>(agent.sequence.size());
    thread_local Eigen::MatrixXd A;
    thread_local Eigen::VectorXd b;
    A.resize(count, mFeatures.cols());
    b.resize(count);
    for (Eigen::Index k = 0; k < count; ++k) {
        const int row = agent.sequence[static_cast<std::size_t>((first + k) % L)];
        A.row(k) = mFeatures.row(row);
        b[k] = mLabels[row];
    }
    w.resize(count);
    w.setConstant(1.0 / static_cast<double>(count));
    return weightedLoss(A, b, w, theta, mOptions.clipL1, grad, nullptr, wantValue);
}

void OnlineStreamProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                 Eigen::Ref<Eigen::VectorXd> out, long long t) const
{
    assert(X.rows() == agentCount() && X.cols() == mDimension && "values: X must be agents × dimension");
    thread_local Eigen::VectorXd x;
    for (int i = 0; i < agentCount(); ++i) {
        x = X.row(i).transpose();
        out[i] = agentLoss(i, x, t, nullptr);
    }
}

void OnlineStreamProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                    Eigen::Ref<Eigen::MatrixXd> out, long long t) const
{
    assert(X.rows() == agentCount() && X.cols() == mDimension && "gradients: X must be agents × dimension");
    thread_local Eigen::VectorXd x, g;
    for (int i = 0; i < agentCount(); ++i) {
        x = X.row(i).transpose();
        agentLoss(i, x, t, &g, false);
        out.row(i) = g.transpose();
    }
}

void OnlineStreamProblem::crossValues(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                                      long long t) const
{
    assert(X.cols() == mDimension && out.size() == X.rows() && "crossValues: shapes");
    // Merge the agents' weighted sample sets of iteration t over the pool rows.
    thread_local Eigen::VectorXd poolWeight, agentWeights;
    thread_local std::vector<int> used;
    const Eigen::Index N = mFeatures.rows();
    if (poolWeight.size() != N) {
        poolWeight = Eigen::VectorXd::Zero(N);
        used.reserve(static_cast<std::size_t>(N));
    }
    used.clear();
    auto add = [&](int row, double w) {
        if (poolWeight[row] == 0.0)
            used.push_back(row);
        poolWeight[row] += w;
    };
    const long long K = samplesReceived(t);
    for (int i = 0; i < agentCount(); ++i) {
        const AgentStream &agent = mAgents[static_cast<std::size_t>(i)];
        if (mOptions.gradient == StreamGradient::Cumulative) {
            const Eigen::Index P = cumulativeWeights(i, K, agentWeights);
            for (Eigen::Index u = 0; u < P; ++u)
                add(agent.poolRows[static_cast<std::size_t>(u)], agentWeights[u]);
        } else {
            const long long W = mOptions.window > 0 ? mOptions.window : mOptions.samplesPerIteration;
            const long long first = std::max(0LL, K - W);
            const auto L = static_cast<long long>(agent.sequence.size());
            const double w = 1.0 / static_cast<double>(K - first);
            for (long long k = first; k < K; ++k)
                add(agent.sequence[static_cast<std::size_t>(k % L)], w);
        }
    }
    const auto P = static_cast<Eigen::Index>(used.size());
    // Buffers grow geometrically (to the whole pool when it is small), so that the per-iteration
    // call stops allocating once the set of rows in use stops growing.
    thread_local Eigen::MatrixXd ABuffer, ZBuffer;
    thread_local Eigen::VectorXd bBuffer, wBuffer;
    if (ABuffer.rows() < P || ABuffer.cols() != mFeatures.cols()) {
        const Eigen::Index rows = std::min(N, std::max({P, 2 * ABuffer.rows(), Eigen::Index(1024)}));
        ABuffer.resize(rows, mFeatures.cols());
        bBuffer.resize(rows);
        wBuffer.resize(rows);
    }
    auto A = ABuffer.topRows(P);
    auto b = bBuffer.head(P);
    auto w = wBuffer.head(P);
    for (Eigen::Index u = 0; u < P; ++u) {
        const int row = used[static_cast<std::size_t>(u)];
        A.row(u) = mFeatures.row(row);
        b[u] = mLabels[row];
        w[u] = poolWeight[row];
        poolWeight[row] = 0.0;
    }
    const double weightSum = w.sum(); // = number of agents
    const double ridge = mOptions.ridge;
    const Eigen::Index zCols = mOptions.loss == SampleLoss::Softmax ? mClasses : X.rows();
    if (ZBuffer.rows() < ABuffer.rows() || ZBuffer.cols() != zCols)
        ZBuffer.resize(ABuffer.rows(), zCols);
    auto Z = ZBuffer.topRows(P);
    if (mOptions.loss != SampleLoss::Softmax) {
        Z.noalias() = A * X.transpose(); // P × rows: every margin of every decision at once
        if (mOptions.loss == SampleLoss::Logistic) {
            // Σ_u w_u (softplus(z_ur) − b_u z_ur) = (softplus(Z)ᵀ w − Zᵀ (w∘b))_r, the softplus
            // vectorised column by column.
            thread_local Eigen::VectorXd wbBuffer, linear, eBuffer;
            auto wb = scratch(wbBuffer, P);
            wb = w.cwiseProduct(b);
            linear.noalias() = Z.transpose() * wb;
            auto e = scratch(eBuffer, P);
            for (Eigen::Index r = 0; r < X.rows(); ++r)
                vectormath::softplusInPlace(Z.col(r).array(), e.array());
            out.noalias() = Z.transpose() * w;
            for (Eigen::Index r = 0; r < X.rows(); ++r)
                out[r] += 0.5 * ridge * X.row(r).squaredNorm() * weightSum - linear[r];
            return;
        }
        for (Eigen::Index r = 0; r < X.rows(); ++r) {
            double value = 0.5 * ridge * X.row(r).squaredNorm() * weightSum;
            for (Eigen::Index u = 0; u < P; ++u) {
                const double e = Z(u, r) - b[u];
                value += w[u] * 0.5 * e * e;
            }
            out[r] = value;
        }
        return;
    }
    const Eigen::Index df = A.cols();
    thread_local Eigen::VectorXd theta;
    for (Eigen::Index r = 0; r < X.rows(); ++r) {
        theta = X.row(r).transpose();
        const Eigen::Map<const Eigen::MatrixXd> Theta(theta.data(), df, mClasses);
        Z.noalias() = A * Theta; // P × K logits
        double value = 0.5 * ridge * theta.squaredNorm() * weightSum;
        for (Eigen::Index u = 0; u < P; ++u) {
            const double zmax = Z.row(u).maxCoeff();
            double sum = 0.0;
            for (Eigen::Index c = 0; c < mClasses; ++c)
                sum += std::exp(Z(u, c) - zmax);
            value += w[u] * (zmax + std::log(sum) - Z(u, static_cast<Eigen::Index>(b[u])));
        }
        out[r] = value;
    }
}

double OnlineStreamProblem::globalValue(const Eigen::VectorXd &x) const
{
    if (mOptions.population == StreamPopulation::Pool) {
        const Eigen::VectorXd w = Eigen::VectorXd::Constant(mFeatures.rows(), 1.0 / static_cast<double>(mFeatures.rows()));
        return weightedLoss(mFeatures, mLabels, w, x, 0.0, nullptr);
    }
    double sum = 0.0;
    for (std::size_t i = 0; i < mAgents.size(); ++i)
        sum += weightedLoss(mAgents[i].rows, mAgents[i].labels, mPopulationWeights[i], x, 0.0, nullptr);
    return sum / static_cast<double>(mAgents.size());
}

Eigen::VectorXd OnlineStreamProblem::globalGradient(const Eigen::VectorXd &x) const
{
    Eigen::VectorXd g;
    if (mOptions.population == StreamPopulation::Pool) {
        const Eigen::VectorXd w = Eigen::VectorXd::Constant(mFeatures.rows(), 1.0 / static_cast<double>(mFeatures.rows()));
        weightedLoss(mFeatures, mLabels, w, x, 0.0, &g);
        return g;
    }
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(mDimension);
    for (std::size_t i = 0; i < mAgents.size(); ++i) {
        weightedLoss(mAgents[i].rows, mAgents[i].labels, mPopulationWeights[i], x, 0.0, &g);
        sum += g;
    }
    return sum / static_cast<double>(mAgents.size());
}

std::optional<Eigen::MatrixXd> OnlineStreamProblem::globalHessian(const Eigen::VectorXd &x) const
{
    if (mOptions.loss == SampleLoss::Softmax)
        return std::nullopt;
    const Eigen::Index df = mFeatures.cols();
    Eigen::MatrixXd H = mOptions.ridge * Eigen::MatrixXd::Identity(df, df);
    auto add = [&](const Eigen::MatrixXd &A, const Eigen::VectorXd &w, double scale) {
        Eigen::VectorXd c = w;
        if (mOptions.loss == SampleLoss::Logistic) {
            const Eigen::VectorXd z = A * x;
            for (Eigen::Index u = 0; u < c.size(); ++u) {
                const double s = vectormath::sigmoid(z[u]);
                c[u] *= s * (1.0 - s);
            }
        }
        H.noalias() += scale * (A.transpose() * c.asDiagonal() * A);
    };
    if (mOptions.population == StreamPopulation::Pool) {
        add(mFeatures, Eigen::VectorXd::Constant(mFeatures.rows(), 1.0 / static_cast<double>(mFeatures.rows())), 1.0);
    } else {
        for (std::size_t i = 0; i < mAgents.size(); ++i)
            add(mAgents[i].rows, mPopulationWeights[i], 1.0 / static_cast<double>(mAgents.size()));
    }
    return H;
}

std::optional<Eigen::VectorXd> OnlineStreamProblem::closedFormOptimum() const
{
    if (mOptions.loss != SampleLoss::LeastSquares) {
        if (mOptions.referenceIterations <= 0)
            return std::nullopt;
        // FISTA from 0 with a backtracked step 1/L (L doubles until the sufficient-decrease test
        // holds); stops early when ‖∇F‖ ≤ 1e-10·max(1, F).
        Eigen::VectorXd x = Eigen::VectorXd::Zero(mDimension), y = x, previous = x, candidate;
        double L = 1.0, t = 1.0;
        for (int k = 0; k < mOptions.referenceIterations; ++k) {
            const double fy = globalValue(y);
            const Eigen::VectorXd g = globalGradient(y);
            if (g.norm() <= 1e-10 * std::max(1.0, std::abs(fy))) {
                x = y;
                break;
            }
            for (int attempt = 0; attempt < 60; ++attempt) {
                candidate = y - g / L;
                const Eigen::VectorXd step = candidate - y;
                if (globalValue(candidate) <= fy + g.dot(step) + 0.5 * L * step.squaredNorm() + 1e-15)
                    break;
                L *= 2.0;
            }
            previous = x;
            x = candidate;
            const double tNext = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
            y = x + ((t - 1.0) / tNext) * (x - previous);
            t = tNext;
        }
        if (!x.allFinite())
            return std::nullopt;
        return x;
    }
    const Eigen::MatrixXd H = *globalHessian(Eigen::VectorXd::Zero(mDimension));
    const Eigen::VectorXd rhs = -globalGradient(Eigen::VectorXd::Zero(mDimension));
    Eigen::LDLT<Eigen::MatrixXd> ldlt(H);
    if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || ldlt.rcond() < 1e-14)
        return std::nullopt;
    Eigen::VectorXd x = ldlt.solve(rhs);
    if (!x.allFinite())
        return std::nullopt;
    return x;
}

std::optional<double> OnlineStreamProblem::accuracy(const Eigen::VectorXd &x, bool test) const
{
    if (mOptions.loss == SampleLoss::LeastSquares)
        return std::nullopt;
    const Eigen::MatrixXd &A = test ? mTestFeatures : mFeatures;
    const Eigen::VectorXd &b = test ? mTestLabels : mLabels;
    if (A.rows() == 0)
        return std::nullopt;
    Eigen::Index correct = 0;
    if (mOptions.loss == SampleLoss::Logistic) {
        const Eigen::VectorXd z = A * x;
        for (Eigen::Index k = 0; k < z.size(); ++k)
            correct += (z[k] > 0 ? 1.0 : 0.0) == b[k];
    } else {
        const Eigen::Map<const Eigen::MatrixXd> Theta(x.data(), A.cols(), mClasses);
        const Eigen::MatrixXd Z = A * Theta;
        for (Eigen::Index k = 0; k < Z.rows(); ++k) {
            Eigen::Index best = 0;
            Z.row(k).maxCoeff(&best);
            correct += static_cast<double>(best) == b[k];
        }
    }
    return static_cast<double>(correct) / static_cast<double>(A.rows());
}

std::optional<double> OnlineStreamProblem::gradientL1Bound() const
{
    if (mOptions.clipL1 > 0)
        return mOptions.clipL1;
    if (mOptions.ridge > 0 || mOptions.loss == SampleLoss::LeastSquares)
        return std::nullopt; // r θ and the squared loss are unbounded in θ
    const double maxL1 = mFeatures.rowwise().lpNorm<1>().maxCoeff();
    // Logistic: |s(z) − b| ≤ 1. Softmax: ‖a (p − e_b)ᵀ‖_1 = ‖a‖_1 ‖p − e_b‖_1 ≤ 2‖a‖_1.
    return mOptions.loss == SampleLoss::Logistic ? maxL1 : 2.0 * maxL1;
}

double OnlineStreamProblem::lipschitz() const
{
    const double maxSq = mFeatures.rowwise().squaredNorm().maxCoeff();
    double curvature = 1.0; // sup of l''(z): logistic 1/4, squared 1, softmax 1/2
    if (mOptions.loss == SampleLoss::Logistic)
        curvature = 0.25;
    else if (mOptions.loss == SampleLoss::Softmax)
        curvature = 0.5;
    const double L = curvature * maxSq + mOptions.ridge;
    return mOptions.clipL1 > 0 ? 2.0 * L : L;
}

Json OnlineStreamProblem::describe() const
{
    Json lengths = Json::array();
    for (const auto &a : mAgents)
        lengths.push_back(a.sequence.size());
    Json j{{"type", mId},
           {"online", true},
           {"loss", sampleLossName(mOptions.loss)},
           {"ridge", mOptions.ridge},
           {"samples_per_iteration", mOptions.samplesPerIteration},
           {"gradient", gradientName(mOptions.gradient)},
           {"window", mOptions.window > 0 ? mOptions.window : mOptions.samplesPerIteration},
           {"clip_l1", mOptions.clipL1},
           {"population", populationName(mOptions.population)},
           {"pool_size", mFeatures.rows()},
           {"features", mFeatures.cols()},
           {"dimension", mDimension},
           {"agents", agentCount()},
           {"sequence_lengths", lengths},
           {"test_size", mTestFeatures.rows()},
           {"lipschitz", lipschitz()}};
    if (mOptions.loss == SampleLoss::Softmax)
        j["classes"] = mClasses;
    if (auto cl = gradientL1Bound())
        j["gradient_l1_bound"] = *cl;
    if (mOptions.loss != SampleLoss::LeastSquares && mOptions.referenceIterations > 0)
        j["reference"] = "approximate: at most " + std::to_string(mOptions.referenceIterations)
                         + " FISTA iterations on the population objective";
    if (mOptions.gradient == StreamGradient::Window)
        j["deviation"] = "window gradient: the average over the latest samples only, not over all "
                         "samples received (paper 000 Algorithm 1 line 3 uses all of them)";
    return j;
}

} // namespace dplab
