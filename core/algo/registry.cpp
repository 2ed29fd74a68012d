// SPDX-License-Identifier: GPL-3.0-or-later
//
// The algorithm registry. Adding an algorithm = one file in core/algo/ with a describeXxx()
// function + one line below.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/builtin.h"

namespace dplab {

const std::vector<AlgorithmDescriptor> &algorithmRegistry()
{
    static const std::vector<AlgorithmDescriptor> registry = {
        describeDgd(),
        describeGradientTracking(),
        describePushPull(),
        describeRobustDpGt(),
        describeDpop(),
        describeDiaDsp(),
        describePgtc(),
        describePpdc(),
        describeLdpGradientTracking(),
        describeChenWang48(),
        describeWangNedic47Static(),
        describeGossip(),
        describePdFtgl(),
        describePdOcg(),
        describePdOgd(),
    };
    return registry;
}

} // namespace dplab
