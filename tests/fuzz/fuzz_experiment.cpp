// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: experiment JSON → parseJson → resolveExperiment (every sweep point, limits) →
// for small problems buildExperiment and a reset + two steps of every run's algorithm.
#include "fuzzcommon.h"

#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"

#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace dplab;
    fuzz::limitMemory();
    auto doc = parseJson(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    if (!doc)
        return 0;
    ResolveOptions options;
    options.limits.maxMemoryBytes = 256ull << 20;
    options.threads = 1;
    auto experiment = resolveExperiment(*doc, "/nonexistent-fuzz-dir", options);
    if (!experiment)
        return 0;
    (void)experiment->resolved.dump(); // what `run --out` writes
    // Build and step only what is cheap, so an execution stays well under a second.
    if (experiment->problemSpec.bytes > (4 << 20) || experiment->resources.totalBytes() > (64 << 20)
        || experiment->graph.nodeCount() > 64 || experiment->dimension() > 64)
        return 0;
    if (!buildExperiment(*experiment))
        return 0;
    for (std::size_t r = 0; r < experiment->runs.size(); ++r) {
        const RunContext ctx = makeRunContext(*experiment, static_cast<int>(r), 0);
        std::unique_ptr<Algorithm> algorithm = experiment->runs[r].algorithm->create();
        if (!algorithm->reset(ctx))
            continue;
        for (int k = 0; k < 2; ++k)
            algorithm->step();
        (void)algorithm->decisions();
    }
    return 0;
}
