// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/weakenedaccountant.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <sstream>

namespace dplab {

WeakenedConsensusAccountant::WeakenedConsensusAccountant(WeakenedConsensusPrivacySetup setup, std::string name,
                                                         std::vector<std::string> notes)
    : mSetup(std::move(setup)), mName(std::move(name)), mNotes(std::move(notes)),
      mDelta(Eigen::VectorXd::Zero(mSetup.nu.size())), mEpsilon(Eigen::VectorXd::Zero(mSetup.nu.size()))
{
    assert(mSetup.selfCoupling.size() == mSetup.nu.size() && mSetup.decay.size() == mSetup.nu.size()
           && "WeakenedConsensusAccountant: agent vectors differ in length");
}

void WeakenedConsensusAccountant::advance()
{
    const long long t = mSteps;
    const double tp1 = static_cast<double>(t + 1);
    const double lambda = mSetup.stepsize.at(t);
    const double gamma = mSetup.weakening.at(t);
    const double cl = mSetup.gradientBound;
    const bool lipschitz = mSetup.online && std::isfinite(mSetup.lipschitz);
    const double drift = lipschitz ? std::sqrt(static_cast<double>(mSetup.dimension)) * mSetup.lipschitz * lambda
                                         * (static_cast<double>(t) / tp1)
                                   : 0.0;
    for (Eigen::Index i = 0; i < mDelta.size(); ++i) {
        // Charge the message of iteration t (θ_t + ϑ_t): sensitivity Δ_t, scale ν (t+1)^(−ς).
        if (mDelta[i] != 0.0) {
            const double nu = mSetup.nu[i] * std::pow(tp1, -mSetup.decay[i]);
            mEpsilon[i] += nu > 0 ? mDelta[i] / nu : std::numeric_limits<double>::infinity();
        }
        const double keep = std::max(0.0, 1.0 - gamma * mSetup.selfCoupling[i]);
        double next = keep * mDelta[i] + 2.0 * cl * lambda;
        if (lipschitz)
            next = std::min(next, (keep + drift) * mDelta[i] + 2.0 * cl * lambda / tp1);
        mDelta[i] = next;
    }
    ++mSteps;
}

std::vector<std::string> WeakenedConsensusAccountant::assumptions() const
{
    std::ostringstream cl;
    cl << "every (per-sample and averaged) gradient has ‖∇l‖_1 ≤ c_l = " << mSetup.gradientBound;
    std::vector<std::string> out = {
        "update rule and adjacency reconstructed from paper 000's description, not from the original paper",
        cl.str(),
        "the messages an agent receives are held fixed (paper 000 Lemma 10's coupling argument); own "
        "state noise-free; Laplace noise once per message",
        mSetup.online ? "event-level adjacency on the cumulative-average stream: the sensitivity is the "
                        "smaller of the crude and the Lipschitz (1/(t+1)) recursions"
                      : "adjacency: the agent's whole objective changes (gradient difference ≤ 2 c_l); this "
                        "derived bound grows without limit in T — no finite ε as T → ∞ is claimed",
        "after T iterations the messages of iterations 0..T−1 are counted"};
    if (mSetup.online && std::isfinite(mSetup.lipschitz)) {
        std::ostringstream l;
        l << "L = " << mSetup.lipschitz << " in dimension n = " << mSetup.dimension;
        out.push_back(l.str());
    }
    out.insert(out.end(), mNotes.begin(), mNotes.end());
    return out;
}

Eigen::VectorXd weakenedConsensusEpsilon(const WeakenedConsensusPrivacySetup &setup, long long horizon)
{
    WeakenedConsensusAccountant acc(setup, "offline");
    for (long long t = 0; t < horizon; ++t)
        acc.advance();
    return acc.epsilon();
}

} // namespace dplab
