// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/diadspaccountant.h"

namespace dplab {

double DiaDspPrivacySetup::roundEpsilon(long long k) const
{
    const double d = sensitivity;
    const double dy = k == 0 ? d : 2.0 * d;
    const double dx = k == 0 ? 0.0 : (k == 1 ? 1.0 : 2.0) * stepsize.at(k - 1) * d;
    return laplaceCost(dx, noiseX.at(k)) + laplaceCost(dy, noiseY.at(k));
}

std::string DiaDspPrivacySetup::noiseDescription() const
{
    return "Laplace noise drawn once per message: x scale " + noiseX.toString() + ", y scale "
           + noiseY.toString();
}

} // namespace dplab
