// SPDX-License-Identifier: GPL-3.0-or-later
//
// The algorithm registry. Adding an algorithm = one file in core/algo/ with a describeXxx()
// function + one line below (docs/extending.md). An algorithm in a file outside core joins it
// through registerAlgorithm, before the registry is first read.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/builtin.h"

#include <algorithm>
#include <atomic>

namespace dplab {

namespace {

std::atomic<bool> gRegistryRead{false};

std::vector<AlgorithmDescriptor> &registryStorage()
{
    static std::vector<AlgorithmDescriptor> registry = {
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

} // namespace

const std::vector<AlgorithmDescriptor> &algorithmRegistry()
{
    // Once read, the registry no longer changes: pointers into it (findAlgorithm, RunSpec) stay
    // valid and threads may read it without a lock.
    gRegistryRead.store(true, std::memory_order_release);
    return registryStorage();
}

bool registerAlgorithm(AlgorithmDescriptor descriptor)
{
    if (gRegistryRead.load(std::memory_order_acquire) || descriptor.id.empty()
        || !descriptor.create)
        return false;
    std::vector<AlgorithmDescriptor> &registry = registryStorage();
    if (std::any_of(registry.begin(), registry.end(),
                    [&](const AlgorithmDescriptor &d) { return d.id == descriptor.id; }))
        return false;
    registry.push_back(std::move(descriptor));
    return true;
}

bool calibratesEpsilon(const AlgorithmDescriptor &algorithm)
{
    return std::any_of(algorithm.privacyParams.begin(), algorithm.privacyParams.end(),
                       [](const ParamSpec &p) { return p.key == "epsilon"; });
}

} // namespace dplab
