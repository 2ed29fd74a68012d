// SPDX-License-Identifier: GPL-3.0-or-later
// No heap allocation per iteration in the step loop (docs/architecture.md §2: "step()
// allocates nothing"): for one preset of every algorithm family, after a warm-up (scratch buffers
// reach their size, a block of PD-FTGL completes), step() and the online metric's observe() are
// run with every allocation counted (allocationcounter.h; this file is its own test executable,
// so the replacement of malloc is local to it) — on one thread, and with the per-agent work split
// over an AgentTeam of two workers at any size (dplab/common/agentteam.h; the counter counts every
// thread; round robin, so that every worker runs chunks in the warm-up). tests/core/conformance_test.cpp checks the same
// for every registered algorithm on a small problem.
#include "dplab/common/agentteam.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/metrics.h"
#include "dplab/problem/problem.h"

#include <gtest/gtest.h>

#include <string>

// After every other header: it defines malloc and friends, which system headers declare.
#include "allocationcounter.h"

namespace dplab {
namespace {

struct Case {
    const char *preset;
    int warmUp;
    int counted;
};

class StepLoop : public ::testing::TestWithParam<Case>
{
};

TEST_P(StepLoop, AllocatesNothingPerIteration)
{
#if !DPLAB_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting is off under sanitizers";
#endif
    const Case c = GetParam();
    auto e = loadExperimentFile(resourceDir() + "/presets/" + c.preset + ".json");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    AgentTeam team(2, {}, AgentTeam::Schedule::RoundRobin);
    for (int split = 0; split < 2; ++split) {
        for (std::size_t r = 0; r < e->runs.size(); ++r) {
            const AgentTeam::Scope scope(split ? &team : nullptr, 0.0); // 0: split every call
            const RunContext ctx = makeRunContext(*e, static_cast<int>(r), 0);
            std::unique_ptr<Algorithm> algorithm = e->runs[r].algorithm->create();
            ASSERT_TRUE(algorithm->reset(ctx).ok());
            const std::vector<std::string> names =
                applicableMetrics(*e->problem, false, algorithm->accountant() != nullptr, {});
            MetricTracker tracker(*e->problem, nullptr, names);
            auto iterate = [&](int steps) {
                for (int s = 0; s < steps; ++s) {
                    if (tracker.needsObserve())
                        tracker.observe(algorithm->decisions(), algorithm->iteration());
                    algorithm->step();
                }
            };
            iterate(c.warmUp);
            gAllocations = 0;
            gCounting = true;
            iterate(c.counted);
            gCounting = false;
            EXPECT_EQ(gAllocations.load(), 0) << c.preset << " run " << r << " (" << e->runs[r].algorithm->id
                                              << (split ? ", split over a team" : ", one thread")
                                              << "): heap allocations in " << c.counted << " iterations";
        }
    }
}

// One preset per algorithm family.
INSTANTIATE_TEST_SUITE_P(
    AlgorithmFamilies, StepLoop,
    ::testing::Values(Case{"teaching-gradient-tracking-logistic", 20, 50}, // dgd, gradient-tracking
                      Case{"teaching-push-pull-quadratic", 20, 50},        // push-pull
                      Case{"paper003-fig1-dpop", 20, 50},                  // robust-dp-gt, dpop
                      Case{"paper003-fig2-diadsp", 20, 50},                // diadsp
                      Case{"paper001-fig2-nonconvex-logistic", 20, 50},    // pgtc, ppdc (compressors)
                      Case{"paper000-fig2-logistic", 20, 50},              // ldp-gt, push-pull online
                      Case{"paper002-teaching-gossip", 20, 50},            // gossip
                      Case{"paper002-fig1-digits", 20, 50}),               // pd-ogd, pd-ftgl, pd-ocg
    [](const ::testing::TestParamInfo<Case> &info) {
        std::string name = info.param.preset;
        for (char &ch : name)
            if (ch == '-')
                ch = '_';
        return name;
    });

} // namespace
} // namespace dplab
