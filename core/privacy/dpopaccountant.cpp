// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/dpopaccountant.h"

#include <sstream>

namespace dplab {

namespace {

// Round 0 costs nothing: x(0) does not depend on f_i.
double dpopRoundEpsilon(const DpopPrivacySetup &setup, long long k)
{
    if (k < 1)
        return 0.0;
    return laplaceCost(setup.sensitivity * setup.stepsize.at(k - 1), setup.noise.at(k));
}

} // namespace

double dpopEpsilon(const DpopPrivacySetup &setup, long long K)
{
    return sumOfRounds(K, [&](long long k) { return dpopRoundEpsilon(setup, k); });
}

double dpopCalibrationFactor(const DpopPrivacySetup &setup, long long K, double targetEpsilon)
{
    return calibrationFactor(dpopEpsilon(setup, K), targetEpsilon);
}

DpopAccountant::DpopAccountant(int agents, DpopPrivacySetup setup, std::vector<std::string> notes)
    : RoundSumAccountant(agents, std::move(notes)), mSetup(std::move(setup))
{
}

double DpopAccountant::roundCost(long long k) const
{
    return dpopRoundEpsilon(mSetup, k);
}

std::vector<std::string> DpopAccountant::ownAssumptions() const
{
    std::ostringstream s;
    s << "‖∇f_i(x)‖₂ ≤ C on the mixed points v_i, sensitivity 2√r·C = " << mSetup.sensitivity;
    return {s.str(),
            "Laplace noise of scale " + mSetup.noise.toString() + " drawn once per message; step "
                + mSetup.stepsize.toString(),
            "observation-based DP (paper 003 Proposition 1): every agent mixes only broadcast "
            "values, so its next state differs only through γ_k ∇f_i",
            "after T iterations the rounds 0..T−1 are counted"};
}

} // namespace dplab
