// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/accountant.h"

namespace dplab {

BasicCompositionAccountant::BasicCompositionAccountant(int agents, std::string name)
    : mName(std::move(name)), mEpsilon(Eigen::VectorXd::Zero(agents))
{
}

void BasicCompositionAccountant::add(const Eigen::Ref<const Eigen::VectorXd> &delta,
                                     const Eigen::Ref<const Eigen::VectorXd> &b)
{
    for (Eigen::Index i = 0; i < mEpsilon.size(); ++i)
        if (b[i] > 0)
            mEpsilon[i] += delta[i] / b[i];
}

} // namespace dplab
