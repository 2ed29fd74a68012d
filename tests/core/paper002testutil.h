// SPDX-License-Identifier: GPL-3.0-or-later
// Graphs, gossip matrices and small online problems for the paper-002
// tests (gossip, tree aggregation, pd-ftgl / pd-ocg / pd-ogd), independent of the factories.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/compress/compressor.h"
#include "dplab/privacy/rng.h"
#include "dplab/problem/constraints.h"
#include "dplab/problem/problem.h"
#include "testproblems.h"

#include <Eigen/Dense>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

namespace dplab::test {

inline Eigen::MatrixXd ringAdjacency(int n)
{
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        a(i, (i + 1) % n) = 1;
        a((i + 1) % n, i) = 1;
    }
    return a;
}

inline Eigen::MatrixXd completeAdjacency(int n)
{
    Eigen::MatrixXd a = Eigen::MatrixXd::Ones(n, n);
    a.diagonal().setZero();
    return a;
}

inline bool isConnected(const Eigen::MatrixXd &a)
{
    const int n = static_cast<int>(a.rows());
    std::vector<int> seen(n, 0), stack{0};
    seen[0] = 1;
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        for (int j = 0; j < n; ++j)
            if (a(i, j) > 0 && !seen[j]) {
                seen[j] = 1;
                stack.push_back(j);
            }
    }
    for (int v : seen)
        if (!v)
            return false;
    return true;
}

/** Watts–Strogatz: ring lattice with k nearest neighbours (k even), each lattice edge (i, i+s)
 *  rewired with probability p to (i, uniform non-neighbour); redrawn until connected. */
inline Eigen::MatrixXd wattsStrogatzAdjacency(int n, int k, double p, std::uint64_t seed)
{
    Rng rng(seed);
    for (;;) {
        Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
        for (int i = 0; i < n; ++i)
            for (int s = 1; s <= k / 2; ++s) {
                a(i, (i + s) % n) = 1;
                a((i + s) % n, i) = 1;
            }
        for (int s = 1; s <= k / 2; ++s)
            for (int i = 0; i < n; ++i) {
                const int j = (i + s) % n;
                if (a(i, j) == 0 || rng.uniform01() >= p)
                    continue;
                std::vector<int> free;
                for (int c = 0; c < n; ++c)
                    if (c != i && a(i, c) == 0)
                        free.push_back(c);
                if (free.empty())
                    continue;
                const int c = free[rng.below(free.size())];
                a(i, j) = a(j, i) = 0;
                a(i, c) = a(c, i) = 1;
            }
        if (isConnected(a))
            return a;
    }
}

/** Lazy Metropolis (I + W_MH)/2: symmetric, doubly stochastic, PSD (eigenvalues in [0, 1]). */
inline Eigen::MatrixXd lazyMetropolis(const Eigen::MatrixXd &adj)
{
    const int n = static_cast<int>(adj.rows());
    return 0.5 * (Eigen::MatrixXd::Identity(n, n) + metropolis(adj));
}

/** Deviation from the row mean: max_i ‖H_i − mean(H)‖. */
inline double maxDeviation(const Eigen::MatrixXd &h)
{
    const Eigen::RowVectorXd mean = h.colwise().mean();
    return (h.rowwise() - mean).rowwise().norm().maxCoeff();
}

/** f_{t,i}(x) = ½‖x − c_i‖² every round, K = {‖x‖ ≤ radius}. Online (uses t only formally). */
class FixedQuadraticInBall : public Problem, public HasConstraintSet
{
public:
    FixedQuadraticInBall(int n, int d, double radius, std::uint64_t seed)
        : mC(n, d), mSet(std::make_shared<L2Ball>(d, radius))
    {
        Rng rng(seed);
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < d; ++k)
                mC(i, k) = rng.gaussian();
    }
    std::string id() const override { return "test-fixed-quadratic"; }
    int agentCount() const override { return static_cast<int>(mC.rows()); }
    int dimension() const override { return static_cast<int>(mC.cols()); }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::VectorXd> out, long long) const override
    {
        out = 0.5 * (x - mC).rowwise().squaredNorm();
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::MatrixXd> out,
                   long long) const override
    {
        out = x - mC;
    }
    bool isOnline() const override { return true; }
    Json describe() const override { return Json{{"type", id()}}; }
    std::shared_ptr<const ConstraintSet> constraintSet() const override { return mSet; }

    /** Σ_j f_j(x). */
    double globalLoss(const Eigen::VectorXd &x) const { return 0.5 * (mC.rowwise() - x.transpose()).rowwise().squaredNorm().sum(); }
    /** argmin_{x ∈ K} Σ_j f_j(x) = Proj_K(mean c). */
    Eigen::VectorXd best() const
    {
        Eigen::VectorXd m = mC.colwise().mean().transpose();
        mSet->project(m);
        return m;
    }

private:
    Eigen::MatrixXd mC;
    std::shared_ptr<const ConstraintSet> mSet;
};

/** Online multiclass softmax on a synthetic stream (class means + Gaussian noise, one example per
 *  learner per round), decision X ∈ R^{q×p} row-major, K = trace-norm ball of radius tau. */
class SyntheticMulticlass : public Problem, public HasConstraintSet
{
public:
    SyntheticMulticlass(int n, int q, int p, long long rounds, double tau, std::uint64_t seed)
        : mN(n), mQ(q), mP(p), mSet(std::make_shared<TraceNormBall>(q, p, tau))
    {
        Rng rng(seed);
        Eigen::MatrixXd means(q, p);
        for (int c = 0; c < q; ++c)
            for (int k = 0; k < p; ++k)
                means(c, k) = rng.gaussian();
        mFeatures.resize(rounds * n);
        mLabels.resize(rounds * n);
        for (long long s = 0; s < rounds * n; ++s) {
            const int label = static_cast<int>(rng.below(q));
            Eigen::VectorXd e(p);
            for (int k = 0; k < p; ++k)
                e[k] = means(label, k) + rng.gaussian();
            mFeatures[s] = e;
            mLabels[s] = label;
        }
    }
    std::string id() const override { return "test-multiclass"; }
    int agentCount() const override { return mN; }
    int dimension() const override { return mQ * mP; }
    bool isOnline() const override { return true; }
    Json describe() const override { return Json{{"type", id()}}; }
    std::shared_ptr<const ConstraintSet> constraintSet() const override { return mSet; }

    void values(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::VectorXd> out, long long t) const override
    {
        for (int i = 0; i < mN; ++i)
            out[i] = loss(x.row(i).transpose(), sample(t, i), nullptr);
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t) const override
    {
        Eigen::VectorXd g(mQ * mP);
        for (int i = 0; i < mN; ++i) {
            loss(x.row(i).transpose(), sample(t, i), &g);
            out.row(i) = g.transpose();
        }
    }

private:
    long long sample(long long t, int i) const { return (t * mN + i) % static_cast<long long>(mLabels.size()); }
    /** log(1 + Σ_{ℓ≠y} exp(s_ℓ − s_y)) = logsumexp(s) − s_y; gradient (softmax − onehot) eᵀ. */
    double loss(const Eigen::VectorXd &x, long long s, Eigen::VectorXd *grad) const
    {
        const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> xm(x.data(), mQ, mP);
        const Eigen::VectorXd scores = xm * mFeatures[s];
        const double top = scores.maxCoeff();
        const Eigen::VectorXd ex = (scores.array() - top).exp().matrix();
        const double lse = top + std::log(ex.sum());
        if (grad) {
            Eigen::VectorXd prob = ex / ex.sum();
            prob[mLabels[s]] -= 1.0;
            Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> gm(grad->data(), mQ, mP);
            gm = prob * mFeatures[s].transpose();
        }
        return lse - scores[mLabels[s]];
    }

    int mN, mQ, mP;
    std::shared_ptr<const ConstraintSet> mSet;
    std::vector<Eigen::VectorXd> mFeatures;
    std::vector<int> mLabels;
};

/** A RunContext for a paper-002 algorithm on `problem` with gossip matrix w. */
inline RunContext makeContext(const AlgorithmDescriptor &alg, std::shared_ptr<const Problem> problem,
                              const Eigen::MatrixXd &w, long long horizon, Json params, Json privacy,
                              std::uint64_t seed = 11)
{
    RunContext ctx;
    const int n = problem->agentCount();
    ctx.W = w;
    ctx.problem = std::move(problem);
    ctx.params = resolveParams(alg.params, params, "params", n).value();
    ctx.privacy = resolveParams(alg.privacyParams, privacy, "privacy", n).value();
    ctx.compressor = makeCompressor(Json(), "compressor").value(); // identity
    ctx.noise = {seed, 0, 0};
    ctx.x0 = Eigen::MatrixXd::Zero(n, ctx.problem->dimension());
    ctx.horizon = horizon;
    return ctx;
}

} // namespace dplab::test
