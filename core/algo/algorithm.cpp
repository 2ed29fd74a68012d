// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/algorithm.h"

namespace dplab {

const Eigen::MatrixXd *Algorithm::state(const std::string &) const
{
    return nullptr;
}

const AlgorithmDescriptor *findAlgorithm(const std::string &id)
{
    for (const auto &d : algorithmRegistry())
        if (d.id == id)
            return &d;
    return nullptr;
}

} // namespace dplab
