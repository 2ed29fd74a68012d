// SPDX-License-Identifier: GPL-3.0-or-later
// AgentTeam (dplab/common/agentteam.h): every agent of a call is handed out exactly once, in
// chunks of consecutive agents, under both schedules and for any number of workers; the split
// threshold; a chunk's exception reaches the caller; the background task.
#include "dplab/common/agentteam.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace dplab {
namespace {

TEST(AgentTeam, EveryAgentOnceInConsecutiveChunks)
{
    for (auto schedule : {AgentTeam::Schedule::Claim, AgentTeam::Schedule::RoundRobin}) {
        for (int workers : {0, 1, 3}) {
            AgentTeam team(workers, {}, schedule);
            for (int n : {1, 2, 5, 17, 1000}) {
                for (int call = 0; call < 20; ++call) {
                    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(n));
                    team.run(n, 8, [&](int begin, int end, double *scratch) {
                        ASSERT_LT(begin, end);
                        scratch[7] = begin; // the scratch holds the size asked for
                        for (int i = begin; i < end; ++i)
                            seen[static_cast<std::size_t>(i)].fetch_add(1);
                    });
                    for (int i = 0; i < n; ++i)
                        ASSERT_EQ(seen[static_cast<std::size_t>(i)].load(), 1)
                            << "agent " << i << " of " << n << ", " << workers << " workers";
                }
            }
        }
    }
}

TEST(AgentTeam, RoundRobinRunsChunksOnEveryWorker)
{
    AgentTeam team(2, {}, AgentTeam::Schedule::RoundRobin);
    std::mutex mutex;
    std::set<std::thread::id> threads;
    team.run(12, 1, [&](int, int, double *) {
        std::lock_guard lock(mutex);
        threads.insert(std::this_thread::get_id());
    });
    EXPECT_EQ(threads.size(), 3u);
    EXPECT_EQ(threads.count(std::this_thread::get_id()), 1u);
}

TEST(AgentTeam, ForAgentsSplitsFromTheThreshold)
{
    AgentTeam team(1, {}, AgentTeam::Schedule::RoundRobin);
    auto callsFor = [&](double work) {
        std::atomic<int> calls{0};
        forAgents(8, work, 1, [&](int, int, double *) { calls.fetch_add(1); });
        return calls.load();
    };
    EXPECT_EQ(callsFor(1e12), 1) << "no team in scope: one call on this thread";
    {
        const AgentTeam::Scope scope(&team, 100.0);
        EXPECT_EQ(callsFor(99.0), 1);
        EXPECT_GT(callsFor(100.0), 1);
    }
    EXPECT_EQ(callsFor(1e12), 1) << "the scope restores the previous team";
}

TEST(AgentTeam, AChunksExceptionReachesTheCaller)
{
    AgentTeam team(2);
    EXPECT_THROW(team.run(100, 1,
                          [](int begin, int end, double *) {
                              if (begin <= 50 && 50 < end)
                                  throw std::runtime_error("agent 50");
                          }),
                 std::runtime_error);
    std::atomic<int> total{0};
    team.run(10, 1, [&](int begin, int end, double *) { total.fetch_add(end - begin); }); // still usable
    EXPECT_EQ(total.load(), 10);
}

TEST(AgentTeam, BackgroundTaskRunsOnceAndRethrows)
{
    for (int workers : {0, 1}) {
        AgentTeam team(workers);
        int runs = 0;
        const std::function<void()> task = [&] { ++runs; };
        for (int k = 0; k < 50; ++k) {
            team.post(task);
            team.wait();
        }
        EXPECT_EQ(runs, 50);
        team.wait(); // nothing posted: returns
        const std::function<void()> failing = [] { throw std::runtime_error("metrics"); };
        team.post(failing);
        EXPECT_THROW(team.wait(), std::runtime_error);
    }
}

TEST(AgentTeam, ManyShortCallsWithABackgroundTaskInBetween)
{
    // The runner's pattern at its fastest: a metrics task posted, split calls of a few agents back
    // to back while it runs, then waited for. Each call's chunks must see that call's fields and
    // each task its own input; a ThreadSanitizer build (docs/reliability.md) reports the race if a
    // hand-over loses its ordering (with the claims made relaxed it did in 4 runs of 5).
    for (auto schedule : {AgentTeam::Schedule::Claim, AgentTeam::Schedule::RoundRobin}) {
        AgentTeam team(3, {}, schedule);
        std::vector<int> seen(16, -1);
        double input = 0.0, output = 0.0;
        const std::function<void()> task = [&] { output = 2.0 * input; };
        for (int call = 0; call < 20000; ++call) {
            const bool posting = call % 8 == 0;
            if (posting) {
                input = call;
                team.post(task);
            }
            const int n = 2 + call % 15;
            team.run(n, 1 + call % 7, [&](int begin, int end, double *scratch) {
                scratch[call % 7] = begin; // every participant's scratch has the size of this call
                for (int i = begin; i < end; ++i)
                    seen[static_cast<std::size_t>(i)] = call;
            });
            for (int i = 0; i < n; ++i)
                ASSERT_EQ(seen[static_cast<std::size_t>(i)], call) << "agent " << i;
            if (posting) {
                team.wait();
                ASSERT_EQ(output, 2.0 * call);
            }
        }
    }
}

} // namespace
} // namespace dplab
