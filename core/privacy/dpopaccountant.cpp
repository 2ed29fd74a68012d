// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/dpopaccountant.h"

#include <cassert>
#include <limits>
#include <sstream>

namespace dplab {

namespace {

// Nothing released costs nothing; a nonzero sensitivity without noise costs +inf.
double cost(double num, double den)
{
    if (num == 0.0)
        return 0.0;
    return den > 0.0 ? num / den : std::numeric_limits<double>::infinity();
}

double roundCost(const DpopPrivacySetup &setup, long long k)
{
    if (k < 1)
        return 0.0;
    return cost(setup.sensitivity * setup.stepsize.at(k - 1), setup.noise.at(k));
}

} // namespace

double dpopEpsilon(const DpopPrivacySetup &setup, long long K)
{
    double total = 0.0;
    for (long long k = 1; k <= K; ++k)
        total += roundCost(setup, k);
    return total;
}

double dpopCalibrationFactor(const DpopPrivacySetup &setup, long long K, double targetEpsilon)
{
    assert(targetEpsilon > 0 && "dpopCalibrationFactor: target ε must be > 0");
    return dpopEpsilon(setup, K) / targetEpsilon;
}

DpopAccountant::DpopAccountant(int agents, DpopPrivacySetup setup, std::vector<std::string> notes)
    : mSetup(std::move(setup)), mNotes(std::move(notes)), mEpsilon(Eigen::VectorXd::Zero(agents))
{
}

void DpopAccountant::advance()
{
    mEpsilon.array() += roundCost(mSetup, mRounds);
    ++mRounds;
}

std::vector<std::string> DpopAccountant::assumptions() const
{
    std::ostringstream s;
    s << "‖∇f_i(x)‖₂ ≤ C on the mixed points v_i, sensitivity 2√r·C = " << mSetup.sensitivity;
    std::vector<std::string> out = {
        s.str(),
        "Laplace noise of scale " + mSetup.noise.toString() + " drawn once per message; step "
            + mSetup.stepsize.toString(),
        "observation-based DP (paper 003 Proposition 1): every agent mixes only broadcast values, "
        "so its next state differs only through γ_k ∇f_i",
        "after T iterations the rounds 0..T−1 are counted"};
    out.insert(out.end(), mNotes.begin(), mNotes.end());
    return out;
}

} // namespace dplab
