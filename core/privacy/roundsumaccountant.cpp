// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/roundsumaccountant.h"

#include <cassert>
#include <limits>
#include <sstream>

namespace dplab {

double laplaceCost(double sensitivity, double scale)
{
    if (sensitivity == 0.0)
        return 0.0;
    return scale > 0.0 ? sensitivity / scale : std::numeric_limits<double>::infinity();
}

std::string gradientBoundAssumption(const std::string &where, double sensitivity)
{
    std::ostringstream s;
    s << "‖∇f_i(x)‖₂ ≤ C on " << where << ", sensitivity 2√r·C = " << sensitivity;
    return s.str();
}

double calibrationFactor(double epsilon, double targetEpsilon)
{
    assert(targetEpsilon > 0 && "calibrationFactor: target ε must be > 0");
    return epsilon / targetEpsilon;
}

RoundSumAccountant::RoundSumAccountant(int agents, std::vector<std::string> notes)
    : mNotes(std::move(notes)), mEpsilon(Eigen::VectorXd::Zero(agents))
{
}

void RoundSumAccountant::advance()
{
    mEpsilon.array() += roundCost(mRounds);
    ++mRounds;
}

std::vector<std::string> RoundSumAccountant::assumptions() const
{
    std::vector<std::string> out = ownAssumptions();
    out.insert(out.end(), mNotes.begin(), mNotes.end());
    return out;
}

} // namespace dplab
