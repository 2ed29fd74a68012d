// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/diadspaccountant.h"

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

} // namespace

double diadspRoundEpsilon(const DiaDspPrivacySetup &setup, long long k)
{
    const double d = setup.sensitivity;
    const double dy = k == 0 ? d : 2.0 * d;
    const double dx = k == 0 ? 0.0 : (k == 1 ? 1.0 : 2.0) * setup.stepsize.at(k - 1) * d;
    return cost(dx, setup.noiseX.at(k)) + cost(dy, setup.noiseY.at(k));
}

double diadspEpsilon(const DiaDspPrivacySetup &setup, long long K)
{
    double total = 0.0;
    for (long long k = 0; k <= K; ++k)
        total += diadspRoundEpsilon(setup, k);
    return total;
}

double diadspCalibrationFactor(const DiaDspPrivacySetup &setup, long long K, double targetEpsilon)
{
    assert(targetEpsilon > 0 && "diadspCalibrationFactor: target ε must be > 0");
    return diadspEpsilon(setup, K) / targetEpsilon;
}

DiaDspAccountant::DiaDspAccountant(int agents, DiaDspPrivacySetup setup, std::vector<std::string> notes)
    : mSetup(std::move(setup)), mNotes(std::move(notes)), mEpsilon(Eigen::VectorXd::Zero(agents))
{
}

void DiaDspAccountant::advance()
{
    mEpsilon.array() += diadspRoundEpsilon(mSetup, mRounds);
    ++mRounds;
}

std::vector<std::string> DiaDspAccountant::assumptions() const
{
    std::ostringstream s;
    s << "‖∇f_i(x)‖₂ ≤ C on the iterates, sensitivity 2√r·C = " << mSetup.sensitivity;
    std::vector<std::string> out = {
        s.str(),
        "Laplace noise drawn once per message: x scale " + mSetup.noiseX.toString() + ", y scale "
            + mSetup.noiseY.toString(),
        "observation-based DP (paper 003 Proposition 1) with Δx_{k+1} = −η Δy_k, "
        "Δy_{k+1} = Δg_{k+1} − Δg_k (the agent mixes only noisy values)",
        "after T iterations the rounds 0..T−1 are counted"};
    out.insert(out.end(), mNotes.begin(), mNotes.end());
    return out;
}

} // namespace dplab
