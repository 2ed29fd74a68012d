// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/diadspaccountant.h"

#include <sstream>

namespace dplab {

double diadspRoundEpsilon(const DiaDspPrivacySetup &setup, long long k)
{
    const double d = setup.sensitivity;
    const double dy = k == 0 ? d : 2.0 * d;
    const double dx = k == 0 ? 0.0 : (k == 1 ? 1.0 : 2.0) * setup.stepsize.at(k - 1) * d;
    return laplaceCost(dx, setup.noiseX.at(k)) + laplaceCost(dy, setup.noiseY.at(k));
}

double diadspEpsilon(const DiaDspPrivacySetup &setup, long long K)
{
    return sumOfRounds(K, [&](long long k) { return diadspRoundEpsilon(setup, k); });
}

double diadspCalibrationFactor(const DiaDspPrivacySetup &setup, long long K, double targetEpsilon)
{
    return calibrationFactor(diadspEpsilon(setup, K), targetEpsilon);
}

DiaDspAccountant::DiaDspAccountant(int agents, DiaDspPrivacySetup setup, std::vector<std::string> notes)
    : RoundSumAccountant(agents, std::move(notes)), mSetup(std::move(setup))
{
}

double DiaDspAccountant::roundCost(long long k) const
{
    return diadspRoundEpsilon(mSetup, k);
}

std::vector<std::string> DiaDspAccountant::ownAssumptions() const
{
    std::ostringstream s;
    s << "‖∇f_i(x)‖₂ ≤ C on the iterates, sensitivity 2√r·C = " << mSetup.sensitivity;
    return {s.str(),
            "Laplace noise drawn once per message: x scale " + mSetup.noiseX.toString()
                + ", y scale " + mSetup.noiseY.toString(),
            "observation-based DP (paper 003 Proposition 1) with Δx_{k+1} = −η Δy_k, "
            "Δy_{k+1} = Δg_{k+1} − Δg_k (the agent mixes only noisy values)",
            "after T iterations the rounds 0..T−1 are counted"};
}

} // namespace dplab
