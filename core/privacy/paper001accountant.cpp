// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/paper001accountant.h"
#include "dplab/common/formatnumber.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace dplab {

namespace {

bool isPgtc(const Paper001PrivacyInputs &in)
{
    return in.method == Paper001Method::Pgtc;
}

/** τ_{i0} of (24) (PGTC) or (34) (PPDC). */
double propositionTau(const Paper001PrivacyInputs &in)
{
    return isPgtc(in) ? in.stepsize / in.sx + 1.0 / in.s2 : 1.0 / in.sx + 1.0 / (in.stepsize * in.s2);
}

} // namespace

double paper001TheoremPrefactor(const Paper001PrivacyInputs &in)
{
    assert(in.sx > 0 && in.s2 > 0 && "paper001TheoremPrefactor: noise scales must be positive");
    const double root = std::sqrt(static_cast<double>(in.dimension)) * in.gradientBound;
    const double sqrtEta = std::sqrt(in.stepsize); // as printed in (25)/(35); see the header
    if (isPgtc(in))
        return 4.0 * root * (sqrtEta / in.sx + 1.0 / in.s2);
    return 2.0 * root * (sqrtEta / in.sx + 2.0 / (in.omega * in.s2));
}

double paper001GeometricSum(double q, long long K)
{
    assert(q > 0 && q <= 1 && "paper001GeometricSum: q must be in (0, 1]");
    if (K < 0)
        return 0.0;
    if (q == 1.0)
        return static_cast<double>(K + 1);
    // Σ_{k=0}^{K} r^k with r = 1/q > 1: (r^{K+1} − 1) / (r − 1); pow overflows to +∞ for huge K.
    const double r = 1.0 / q;
    return std::expm1(static_cast<double>(K + 1) * std::log(r)) / (r - 1.0);
}

double paper001TheoremEpsilon(const Paper001PrivacyInputs &in, long long K)
{
    return paper001TheoremPrefactor(in) * paper001GeometricSum(in.q, K);
}

double paper001PropositionThreshold(double stepsize, double smoothness)
{
    const double a = stepsize * smoothness;
    return (a + std::sqrt(a * a + 4.0 * a)) / 2.0;
}

std::string paper001PropositionViolation(const Paper001PrivacyInputs &in)
{
    const std::string which = isPgtc(in) ? "Proposition 1" : "Proposition 2";
    if (!(in.smoothness > 0))
        return which + " needs the smoothness constant L_f (privacy.smoothness)";
    if (!(in.delta > 0))
        return which + " needs δ > 0 (privacy.delta)";
    if (!(in.sx > 0 && in.s2 > 0))
        return which + " needs positive noise scales";
    if (!(in.stepsize < 1.0 / (2.0 * in.smoothness)))
        return which + " needs η < 1/(2 L_f) = " + formatNumber(1.0 / (2.0 * in.smoothness))
               + " (η = " + formatNumber(in.stepsize) + ")";
    const double threshold = paper001PropositionThreshold(in.stepsize, in.smoothness);
    if (!(in.q > threshold && in.q < 1.0))
        return which + " needs q in (" + formatNumber(threshold) + ", 1) (q = " + formatNumber(in.q)
               + ")";
    return {};
}

std::optional<double> paper001PropositionEpsilon(const Paper001PrivacyInputs &in)
{
    if (!paper001PropositionViolation(in).empty())
        return std::nullopt;
    const double a = in.stepsize * in.smoothness;
    const double q2 = in.q * in.q;
    return propositionTau(in) * q2 * in.delta / (q2 - a - in.q * a);
}

std::optional<double> paper001CalibrateNoiseScale(const Paper001PrivacyInputs &in, Paper001Bound bound,
                                                  double targetEpsilon, long long K)
{
    if (!(targetEpsilon > 0) || !std::isfinite(targetEpsilon))
        return std::nullopt;
    Paper001PrivacyInputs unit = in;
    unit.sx = 1.0;
    unit.s2 = 1.0;
    double atUnit;
    if (bound == Paper001Bound::FiniteHorizon) {
        atUnit = paper001TheoremEpsilon(unit, K);
    } else {
        const auto e = paper001PropositionEpsilon(unit);
        if (!e)
            return std::nullopt;
        atUnit = *e;
    }
    if (!std::isfinite(atUnit))
        return std::nullopt;
    return atUnit / targetEpsilon; // ε(s) = ε(1) / s
}

Paper001Accountant::Paper001Accountant(Paper001Bound bound, std::vector<Paper001PrivacyInputs> agents)
    : mBound(bound), mAgents(std::move(agents)), mPrefactor(static_cast<Eigen::Index>(mAgents.size())),
      mEpsilon(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(mAgents.size()))),
      mLiteral(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(mAgents.size())))
{
    for (std::size_t i = 0; i < mAgents.size(); ++i) {
        if (mBound == Paper001Bound::FiniteHorizon) {
            mPrefactor[static_cast<Eigen::Index>(i)] = paper001TheoremPrefactor(mAgents[i]);
        } else {
            const auto e = paper001PropositionEpsilon(mAgents[i]);
            assert(e && "Paper001Accountant: proposition conditions fail");
            mPrefactor[static_cast<Eigen::Index>(i)] = e.value_or(std::numeric_limits<double>::infinity());
        }
    }
}

std::string Paper001Accountant::name() const
{
    const bool pgtc = mAgents.empty() || isPgtc(mAgents.front());
    if (mBound == Paper001Bound::FiniteHorizon)
        return pgtc ? "paper 001 Theorem 3, eq. (25)" : "paper 001 Theorem 6, eq. (35)";
    return pgtc ? "paper 001 Proposition 1, eq. (24)" : "paper 001 Proposition 2, eq. (34)";
}

std::vector<std::string> Paper001Accountant::assumptions() const
{
    if (mBound == Paper001Bound::FiniteHorizon)
        return {"Assumption 7: every local gradient is bounded, ‖∇f_i(x)‖ ≤ M for all x",
                "pure ε-DP against an observer of all messages, for the iterations run so far; "
                "ε grows geometrically (ratio 1/q) with the horizon",
                "the √η factor of (25)/(35) is used as printed",
                "after t iterations the rounds 0..t−1 are counted: ε = (25)/(35) with K = t − 1 "
                "(K = t, as printed, is drawn as an alternative)"};
    return {"Assumption 6: the adjacent versions of f_i differ by a linear term, with "
            "‖∇f^(1)_i − ∇f^(2)_i‖_1 ≤ δ (δ read as in DiaDSP)",
            "Assumption 1: L_f-smooth local costs; η < 1/(2 L_f) and q above the threshold",
            "pure ε-DP for the whole infinite run"};
}

std::vector<AlternativeBound> Paper001Accountant::alternatives() const
{
    if (mBound != Paper001Bound::FiniteHorizon)
        return {}; // (24)/(34) do not depend on the horizon: the two readings agree
    return {AlternativeBound{name() + " as printed, K = iterations (one more term)", mLiteral}};
}

void Paper001Accountant::advance()
{
    const long long k = mIterations; // releases of iteration k are charged now
    for (Eigen::Index i = 0; i < mEpsilon.size(); ++i) {
        if (mBound == Paper001Bound::FiniteHorizon) {
            const double q = mAgents[static_cast<std::size_t>(i)].q;
            mEpsilon[i] = mPrefactor[i] * paper001GeometricSum(q, k);
            mLiteral[i] = mPrefactor[i] * paper001GeometricSum(q, k + 1);
        } else {
            mEpsilon[i] = mPrefactor[i];
            mLiteral[i] = mPrefactor[i];
        }
    }
    ++mIterations;
}

} // namespace dplab
