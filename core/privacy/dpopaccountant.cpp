// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/dpopaccountant.h"

namespace dplab {

double DpopPrivacySetup::roundEpsilon(long long k) const
{
    if (k < 1)
        return 0.0;
    return laplaceCost(sensitivity * stepsize.at(k - 1), noise.at(k));
}

std::string DpopPrivacySetup::noiseDescription() const
{
    return "Laplace noise of scale " + noise.toString() + " drawn once per message; step "
           + stepsize.toString();
}

} // namespace dplab
