// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/gossip.h"
#include "dplab/common/decomposition.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace dplab {

namespace {

bool isSymmetric(const Eigen::Ref<const Eigen::MatrixXd> &p)
{
    return (p - p.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * std::max(1.0, p.cwiseAbs().maxCoeff());
}

/** p_k(λ) of the scalar recurrence e_{j+1} = (1+θ) λ e_j − θ e_{j−1}, e_0 = e_{−1} = 1. */
double scalarPolynomial(double lambda, double theta, long long steps)
{
    double previous = 1.0, current = 1.0;
    for (long long j = 0; j < steps; ++j) {
        const double next = (1.0 + theta) * lambda * current - theta * previous;
        previous = current;
        current = next;
    }
    return current;
}

} // namespace

GossipSpectrum gossipSpectrum(const Eigen::Ref<const Eigen::MatrixXd> &p)
{
    assert(p.rows() == p.cols() && "gossipSpectrum: P must be square");
    GossipSpectrum s;
    if (p.rows() < 2) {
        s.sigma2 = 0.0;
        s.rho = 1.0;
        return s;
    }
    Eigen::VectorXd values;
    if (isSymmetric(p)) {
        const Eigen::MatrixXd sym = 0.5 * (p + p.transpose());
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(sym, Eigen::EigenvaluesOnly);
        values = requireEigenvalues(eig, "gossip matrix P").eigenvalues().cwiseAbs();
    } else {
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(p);
        values = requireSingularValues(svd, "gossip matrix P").singularValues();
    }
    std::sort(values.data(), values.data() + values.size(), std::greater<double>());
    s.sigma2 = std::min(1.0, values[1]);
    s.rho = 1.0 - s.sigma2;
    return s;
}

double gossipTheta(double sigma2, GossipTheta rule)
{
    assert(sigma2 >= 0.0 && sigma2 <= 1.0 && "gossipTheta: sigma2 must be in [0, 1]");
    const double s = std::sqrt(std::max(0.0, 1.0 - sigma2 * sigma2));
    switch (rule) {
    case GossipTheta::Paper:
        return 1.0 / (1.0 + s);
    case GossipTheta::Chebyshev:
        return (1.0 - s) / (1.0 + s);
    case GossipTheta::Plain:
        return 0.0;
    }
    return 0.0;
}

long long acceleratedGossipSteps(int n, long long horizon, double rho)
{
    assert(n >= 1 && horizon >= 1 && rho > 0.0 && "acceleratedGossipSteps: n, T >= 1 and rho > 0");
    const double nn = static_cast<double>(n);
    const double value = 4.0 * std::log(nn * static_cast<double>(horizon) * std::sqrt(14.0 * nn)) / std::sqrt(rho);
    // Guard against 4.0000000001 → 5 from rounding: ceil of a value within 1e-9 of an integer.
    const double rounded = std::round(value);
    const long long steps = std::abs(value - rounded) < 1e-9 ? static_cast<long long>(rounded)
                                                             : static_cast<long long>(std::ceil(value));
    return std::max<long long>(1, steps);
}

Eigen::MatrixXd gossipPolynomial(const Eigen::Ref<const Eigen::MatrixXd> &p, double theta, long long steps)
{
    const Eigen::Index n = p.rows();
    Eigen::MatrixXd previous = Eigen::MatrixXd::Identity(n, n);
    Eigen::MatrixXd current = previous;
    for (long long k = 0; k < steps; ++k) {
        Eigen::MatrixXd next = (1.0 + theta) * (p * current) - theta * previous;
        previous.swap(current);
        current.swap(next);
    }
    return current;
}

double gossipContraction(const Eigen::Ref<const Eigen::MatrixXd> &p, double theta, long long steps)
{
    const Eigen::Index n = p.rows();
    const Eigen::MatrixXd mean = Eigen::MatrixXd::Constant(n, n, 1.0 / static_cast<double>(n));
    Eigen::MatrixXd deviation;
    if (isSymmetric(p)) {
        const Eigen::MatrixXd sym = 0.5 * (p + p.transpose());
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(sym);
        requireEigenvalues(eig, "gossip matrix P");
        Eigen::VectorXd values(n);
        for (Eigen::Index k = 0; k < n; ++k)
            values[k] = scalarPolynomial(eig.eigenvalues()[k], theta, steps);
        deviation = eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose() - mean;
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dev(0.5 * (deviation + deviation.transpose()),
                                                           Eigen::EigenvaluesOnly);
        return requireEigenvalues(dev, "gossip polynomial p(P) − 11ᵀ/n")
            .eigenvalues()
            .cwiseAbs()
            .maxCoeff();
    }
    deviation = gossipPolynomial(p, theta, steps) - mean;
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(deviation);
    return requireSingularValues(svd, "gossip polynomial p(P) − 11ᵀ/n").singularValues()[0];
}

AcceleratedGossip::AcceleratedGossip(const Eigen::MatrixXd &p, double theta, int d)
    : mMixer(p), mTheta(theta), mCurrent(Eigen::MatrixXd::Zero(p.rows(), d)),
      mPrevious(Eigen::MatrixXd::Zero(p.rows(), d)), mNext(Eigen::MatrixXd::Zero(p.rows(), d))
{
}

void AcceleratedGossip::start(const Eigen::Ref<const Eigen::MatrixXd> &h0)
{
    assert(h0.rows() == mCurrent.rows() && h0.cols() == mCurrent.cols() && "AcceleratedGossip::start: shape");
    mCurrent = h0;
    mPrevious = h0;
    mSteps = 0;
}

void AcceleratedGossip::step()
{
    step(mCurrent);
}

void AcceleratedGossip::step(const Eigen::Ref<const Eigen::MatrixXd> &sent)
{
    mMixer.mix(mCurrent, sent, mNext);
    mNext *= 1.0 + mTheta;
    if (mTheta != 0.0)
        mNext -= mTheta * mPrevious;
    mPrevious.swap(mCurrent);
    mCurrent.swap(mNext);
    ++mSteps;
}

} // namespace dplab
