// SPDX-License-Identifier: GPL-3.0-or-later
// Small problems and matrices for algorithm tests, independent of the problem factory.
#pragma once

#include "dplab/privacy/rng.h"
#include "dplab/problem/problem.h"

#include <Eigen/Dense>

#include <vector>

namespace dplab::test {

/** f_i(x) = ½ xᵀA_i x − b_iᵀx with random SPD A_i (eigenvalues in [lo, hi]) and random b_i. */
class RandomQuadratic : public Problem
{
public:
    RandomQuadratic(int n, int d, std::uint64_t seed, double lo = 1.0, double hi = 5.0) : mN(n), mD(d)
    {
        Rng rng(seed);
        for (int i = 0; i < n; ++i) {
            Eigen::MatrixXd g(d, d);
            for (int r = 0; r < d; ++r)
                for (int c = 0; c < d; ++c)
                    g(r, c) = rng.gaussian();
            Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
            Eigen::MatrixXd q = qr.householderQ();
            Eigen::VectorXd ev(d);
            for (int k = 0; k < d; ++k)
                ev[k] = rng.uniform(lo, hi);
            mA.push_back(q * ev.asDiagonal() * q.transpose());
            Eigen::VectorXd b(d);
            for (int k = 0; k < d; ++k)
                b[k] = 3.0 * rng.gaussian();
            mB.push_back(b);
        }
    }
    std::string id() const override { return "test-quadratic"; }
    int agentCount() const override { return mN; }
    int dimension() const override { return mD; }
    void values(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::VectorXd> out, long long) const override
    {
        for (int i = 0; i < mN; ++i) {
            const Eigen::VectorXd xi = x.row(i).transpose();
            out[i] = 0.5 * xi.dot(mA[i] * xi) - mB[i].dot(xi);
        }
    }
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::MatrixXd> out,
                   long long) const override
    {
        for (int i = 0; i < mN; ++i)
            out.row(i) = (mA[i] * x.row(i).transpose() - mB[i]).transpose();
    }
    double globalValue(const Eigen::VectorXd &x) const override
    {
        double v = 0;
        for (int i = 0; i < mN; ++i)
            v += 0.5 * x.dot(mA[i] * x) - mB[i].dot(x);
        return v / mN;
    }
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override
    {
        Eigen::VectorXd g = Eigen::VectorXd::Zero(mD);
        for (int i = 0; i < mN; ++i)
            g += mA[i] * x - mB[i];
        return g / mN;
    }
    std::optional<Eigen::VectorXd> closedFormOptimum() const override { return optimum(); }
    Json describe() const override { return Json{{"type", id()}}; }

    Eigen::VectorXd optimum() const
    {
        Eigen::MatrixXd a = Eigen::MatrixXd::Zero(mD, mD);
        Eigen::VectorXd b = Eigen::VectorXd::Zero(mD);
        for (int i = 0; i < mN; ++i) {
            a += mA[i];
            b += mB[i];
        }
        return a.ldlt().solve(b);
    }
    /** Largest eigenvalue over agents (the smoothness constant L). */
    double smoothness() const
    {
        double l = 0;
        for (const auto &a : mA)
            l = std::max(l, Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a).eigenvalues().maxCoeff());
        return l;
    }

private:
    int mN, mD;
    std::vector<Eigen::MatrixXd> mA;
    std::vector<Eigen::VectorXd> mB;
};

/** Metropolis–Hastings weights of an undirected adjacency matrix (computed here, by hand). */
inline Eigen::MatrixXd metropolis(const Eigen::MatrixXd &adj)
{
    const int n = static_cast<int>(adj.rows());
    const Eigen::VectorXd deg = adj.rowwise().sum();
    Eigen::MatrixXd w = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j && adj(i, j) > 0)
                w(i, j) = 1.0 / (1.0 + std::max(deg[i], deg[j]));
    for (int i = 0; i < n; ++i)
        w(i, i) = 1.0 - w.row(i).sum();
    return w;
}

/** A(i, j) = 1 when j -> i. */
inline Eigen::MatrixXd adjacencyOf(int n, const std::vector<std::pair<int, int>> &edges, bool directed)
{
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
    for (auto [from, to] : edges) {
        a(to, from) = 1;
        if (!directed)
            a(from, to) = 1;
    }
    return a;
}

/** Row-stochastic R: uniform over in-neighbours and self. */
inline Eigen::MatrixXd uniformRow(const Eigen::MatrixXd &adj)
{
    Eigen::MatrixXd r = adj + Eigen::MatrixXd::Identity(adj.rows(), adj.cols());
    for (int i = 0; i < r.rows(); ++i)
        r.row(i) /= r.row(i).sum();
    return r;
}

/** Column-stochastic C: uniform over out-neighbours and self. */
inline Eigen::MatrixXd uniformColumn(const Eigen::MatrixXd &adj)
{
    Eigen::MatrixXd c = adj + Eigen::MatrixXd::Identity(adj.rows(), adj.cols());
    for (int j = 0; j < c.cols(); ++j)
        c.col(j) /= c.col(j).sum();
    return c;
}

} // namespace dplab::test
