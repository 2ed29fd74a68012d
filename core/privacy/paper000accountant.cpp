// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/paper000accountant.h"

#include <cassert>
#include <cmath>
#include <sstream>

namespace dplab {

const char *paper000BoundId(Paper000Bound bound)
{
    return bound == Paper000Bound::FiniteT ? "finite-t" : "iterated";
}

void Paper000PrivacySetup::setWeights(const Eigen::MatrixXd &R, const Eigen::MatrixXd &C)
{
    cR = (Eigen::VectorXd::Ones(R.rows()) - R.diagonal()).minCoeff();
    cC = (Eigen::VectorXd::Ones(C.rows()) - C.diagonal()).minCoeff();
}

Paper000Accountant::Paper000Accountant(Paper000PrivacySetup setup, Paper000Bound bound)
    : mSetup(std::move(setup)), mBound(bound)
{
    const int m = mSetup.agents();
    assert(mSetup.decayS.size() == m && mSetup.nuTheta.size() == m && mSetup.decayTheta.size() == m
           && "Paper000Accountant: learner vectors differ in length");
    mRhoS = Eigen::VectorXd::Zero(m);
    mRhoTheta = Eigen::VectorXd::Zero(m);
    mDeltaS = Eigen::VectorXd::Zero(m);
    mDeltaTheta = Eigen::VectorXd::Zero(m);
    mEpsFinite = Eigen::VectorXd::Zero(m);
    mEpsIterated = Eigen::VectorXd::Zero(m);
    mLiteralFinite = Eigen::VectorXd::Zero(m);
    mLiteralIterated = Eigen::VectorXd::Zero(m);
}

std::vector<AlternativeBound> Paper000Accountant::alternatives() const
{
    const Paper000Bound other = mBound == Paper000Bound::FiniteT ? Paper000Bound::Iterated : Paper000Bound::FiniteT;
    return {AlternativeBound{boundName(other), epsilonOf(other)},
            AlternativeBound{boundName(mBound) + ", as printed (ε_i(T) at T = iterations: includes the next round's messages)",
                             literalOf(mBound)}};
}

std::string Paper000Accountant::boundName(Paper000Bound bound)
{
    return bound == Paper000Bound::FiniteT
               ? "paper 000 Theorem 3-1 (finite-T sensitivity bound, exact z)"
               : "paper 000 Theorem 3 (iterated sensitivity bound, exact z)";
}

std::string Paper000Accountant::name() const
{
    return boundName(mBound);
}

const Eigen::VectorXd &Paper000Accountant::epsilon() const
{
    return epsilonOf(mBound);
}

std::vector<std::string> Paper000Accountant::assumptions() const
{
    std::ostringstream cl, lip, weights;
    cl << "Assumption 5: every per-sample gradient has ‖∇l(θ, ξ)‖_1 ≤ c_l = " << mSetup.gradientBound;
    weights << "c_C = min_i (1 − C_ii) = " << mSetup.cC << ", c_R = min_i (1 − R_ii) = " << mSetup.cR;
    std::vector<std::string> out = {
        "event-level local DP: adjacent data sets of one learner differ in one sample "
        "(Definition 1); the messages the learner receives are held fixed (Definition 2)",
        "Laplace noise on every element of the shared s and θ, once per message (Lemma 10)",
        cl.str(), weights.str(),
        "κ_t^i = 1/(m [z_t^i]_i) taken exactly from the deterministic eigenvector estimator"};
    if (std::isfinite(mSetup.lipschitz)) {
        lip << "Assumption 3(iii): ∇l is L-Lipschitz with L = " << mSetup.lipschitz
            << " in dimension n = " << mSetup.dimension << " (used by the iterated bound)";
        out.push_back(lip.str());
    } else {
        out.push_back("no Lipschitz constant given: the iterated bound equals the finite-T bound");
    }
    if (mBound == Paper000Bound::FiniteT)
        out.push_back("the finite-T bound of Theorem 3-1 grows without bound in T");
    return out;
}

void Paper000Accountant::advance(const Eigen::Ref<const Eigen::VectorXd> &kappa)
{
    const int m = mSetup.agents();
    assert(kappa.size() == m && "Paper000Accountant::advance: one κ per learner");
    const long long t = mSteps;
    const double lambda = mSetup.stepsize.at(t);
    const double cl = mSetup.gradientBound;
    const double keepS = 1.0 - mSetup.cC;
    const double keepTheta = 1.0 - mSetup.cR;
    const double tp1 = static_cast<double>(t + 1);
    const bool lipschitz = std::isfinite(mSetup.lipschitz);
    const double coupling = lipschitz ? std::sqrt(static_cast<double>(mSetup.dimension))
                                            * mSetup.lipschitz * (static_cast<double>(t) / tp1) * lambda
                                      : 0.0;
    // The time convention (docs/architecture.md §10): ε after t iterations covers the messages of iterations
    // 0..t−1. This call accounts iteration t's messages s_t + ζ_t, θ_t + ϑ_t, whose
    // sensitivities Δ_t are the current ones (Δ_0 = 0: s_0, θ_0 carry no data) and whose scales
    // are ν (t+1)^(−ς). The paper's ε_i(T) with T = t + 1 adds the NEXT messages (Δ_{t+1} at
    // scale ν (t+2)^(−ς)); that literal reading is kept as an alternative curve.
    const double T0 = static_cast<double>(t + 1);
    const double T1 = static_cast<double>(t + 2);
    auto term = [](double delta, double nu) {
        if (delta == 0.0)
            return 0.0;
        return nu > 0 ? delta / nu : std::numeric_limits<double>::infinity();
    };
    for (int i = 0; i < m; ++i) {
        const double nuS0 = mSetup.nuS[i] * std::pow(T0, -mSetup.decayS[i]);
        const double nuTheta0 = mSetup.nuTheta[i] * std::pow(T0, -mSetup.decayTheta[i]);
        mEpsFinite[i] += term(mRhoS[i], nuS0) + term(mRhoTheta[i], nuTheta0);
        mEpsIterated[i] += term(mDeltaS[i], nuS0) + term(mDeltaTheta[i], nuTheta0);
        // Option A: eqs. (16), (18) as recursions.
        const double rhoS = keepS * mRhoS[i] + 2.0 * cl * lambda;
        mRhoTheta[i] = keepTheta * mRhoTheta[i] + kappa[i] * (rhoS + mRhoS[i]);
        mRhoS[i] = rhoS;
        // Option C: min of (15) and (19), then (17) with the exact κ.
        double deltaS = keepS * mDeltaS[i] + 2.0 * cl * lambda;
        if (lipschitz)
            deltaS = std::min(deltaS, keepS * mDeltaS[i] + coupling * mDeltaTheta[i] + 2.0 * cl * lambda / tp1);
        mDeltaTheta[i] = keepTheta * mDeltaTheta[i] + kappa[i] * (deltaS + mDeltaS[i]);
        mDeltaS[i] = deltaS;

        const double nuS = mSetup.nuS[i] * std::pow(T1, -mSetup.decayS[i]);
        const double nuTheta = mSetup.nuTheta[i] * std::pow(T1, -mSetup.decayTheta[i]);
        mLiteralFinite[i] = mEpsFinite[i] + term(mRhoS[i], nuS) + term(mRhoTheta[i], nuTheta);
        mLiteralIterated[i] = mEpsIterated[i] + term(mDeltaS[i], nuS) + term(mDeltaTheta[i], nuTheta);
    }
    ++mSteps;
}

EigenvectorEstimator::EigenvectorEstimator(const Eigen::MatrixXd &R, bool freeze)
    : mR(R.sparseView(0.0, 0.0)), mZ(Eigen::MatrixXd::Identity(R.rows(), R.cols())),
      mNext(R.rows(), R.cols()), mFreeze(freeze)
{
    assert(R.rows() == R.cols() && "EigenvectorEstimator: R must be square");
}

Eigen::VectorXd EigenvectorEstimator::kappa() const
{
    const double m = static_cast<double>(mZ.rows());
    return (m * mZ.diagonal()).cwiseInverse();
}

void EigenvectorEstimator::advance()
{
    if (mFrozen)
        return;
    mNext.noalias() = mR * mZ;
    if (mFreeze && (mNext - mZ).cwiseAbs().maxCoeff() < 1e-15)
        mFrozen = true;
    mZ.swap(mNext);
}

Paper000Accountant paper000Account(const Paper000PrivacySetup &setup, const Eigen::MatrixXd &R,
                                   long long horizon, Paper000Bound bound)
{
    Paper000Accountant accountant(setup, bound);
    EigenvectorEstimator z(R);
    for (long long t = 0; t < horizon; ++t) {
        accountant.advance(z.kappa());
        z.advance();
    }
    return accountant;
}

Eigen::VectorXd paper000NoiseMultipliers(const Paper000PrivacySetup &setup, const Eigen::MatrixXd &R,
                                         long long horizon, double target, Paper000Bound bound)
{
    assert(target > 0 && "paper000NoiseMultipliers: target must be > 0");
    const Paper000Accountant accountant = paper000Account(setup, R, horizon, bound);
    // ε ∝ 1/ν (Remark 13): c_i = ε_i / target.
    return accountant.epsilonOf(bound) / target;
}

} // namespace dplab
