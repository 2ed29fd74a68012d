// SPDX-License-Identifier: GPL-3.0-or-later
// One job over several threads (docs/architecture.md §7): with more threads than jobs, each job
// splits its agents' gradients over the spare threads (dplab/common/agentteam.h) and evaluates
// its metrics at x̄ on one of them. The files of a run must not depend on it: the same experiment
// at --threads 1, 2 and 4 gives byte-identical metrics, messages, final values and ε per agent —
// for push-pull (gradient tracking) and DGD (another family) on a logistic problem large enough
// to be split at the default threshold, and on small ones with the threshold forced to 0
// (DPLAB_SPLIT_MIN_WORK, which splits every call: the gradients and the noisy, compressed sends).
#include "clitest.h"

#include <cstdlib>

namespace dplab::test {
namespace {

/** One run (one job) of `algorithm` on logistic regression over `samples` × `dimension` synthetic
 *  data held by `agents` agents on a sparse digraph. */
nlohmann::json logisticExperiment(const std::string &algorithm, int agents, int samples, int dimension)
{
    nlohmann::json run = {{"label", algorithm}, {"algorithm", algorithm}, {"params", {{"stepsize", 0.05}}}};
    nlohmann::json weights;
    if (algorithm == "push-pull") {
        run["privacy"] = {{"noise_theta", 0.1}, {"noise_y", 0.1}};
        weights = {{"row", {{"scheme", "uniform-row"}}}, {"column", {{"scheme", "uniform-column"}}}};
    } else {
        run["privacy"] = {{"noise_x", 0.1}};
        weights = {{"scheme", "metropolis"}};
    }
    return {{"format", "dplab-experiment"},
            {"version", 1},
            {"name", "split"},
            {"seed", 11},
            {"iterations", 40},
            {"record_every", 1},
            {"repetitions", 1},
            {"graph",
             {{"generator", {{"type", "exponential"}, {"nodes", agents}, {"directed", algorithm == "push-pull"}}},
              {"weights", weights}}},
            {"problem",
             {{"type", "logistic"},
              {"lambda", 0.01},
              {"bias", false},
              {"test_fraction", 0},
              {"data", {{"source", "synthetic"}, {"samples", samples}, {"dimension", dimension}}}}},
            {"runs", {run}}};
}

/** Runs `experiment` at --threads 1, 2, 4, with and without --messages, and compares the files. */
void expectSameFilesAtAnyThreadCount(const nlohmann::json &experiment)
{
    TempDir dir;
    writeText(dir / "e.json", experiment.dump());
    const std::string file = quote((dir / "e.json").string());
    for (const std::string messages : {"", " --messages"}) {
        for (int threads : {1, 2, 4}) {
            const std::string out = (dir / ("t" + std::to_string(threads))).string();
            const auto r = runCli("run " + file + " --out " + quote(out) + " --threads " + std::to_string(threads)
                                  + messages + " --quiet");
            ASSERT_EQ(r.exitCode, 0) << r.err;
        }
        std::vector<std::string> files{"metrics.csv", "final_values.csv", "epsilon_per_agent.csv"};
        if (!messages.empty())
            files.push_back("messages.csv");
        for (const std::string &name : files) {
            const std::string one = readText(dir / "t1" / name);
            EXPECT_FALSE(one.empty()) << name;
            EXPECT_EQ(one, readText(dir / "t2" / name)) << name << messages << ": --threads 2 differs from 1";
            EXPECT_EQ(one, readText(dir / "t4" / name)) << name << messages << ": --threads 4 differs from 1";
        }
    }
}

TEST(CliThreads, PushPullSplitOverThreadsGivesTheSameFiles)
{
    // 4000 samples × 60 features: 2.4e5 multiply-adds a gradient pass, above the default threshold.
    expectSameFilesAtAnyThreadCount(logisticExperiment("push-pull", 40, 4000, 60));
}

TEST(CliThreads, DgdSplitOverThreadsGivesTheSameFiles)
{
    expectSameFilesAtAnyThreadCount(logisticExperiment("dgd", 40, 4000, 60));
}

TEST(CliThreads, EveryCallSplitGivesTheSameFiles)
{
    // A small problem with the threshold at 0: every gradient pass is split, into chunks of one
    // or two agents.
    ::setenv("DPLAB_SPLIT_MIN_WORK", "0", 1);
    expectSameFilesAtAnyThreadCount(logisticExperiment("push-pull", 7, 210, 9));
    expectSameFilesAtAnyThreadCount(logisticExperiment("dgd", 7, 210, 9));
    // Gradient tracking with a random compressor: each agent's rand-k draws from its own stream.
    nlohmann::json topK = logisticExperiment("gradient-tracking", 9, 270, 12);
    topK["runs"][0]["privacy"] = {{"noise_x", 0.1}, {"noise_y", 0.1}};
    topK["runs"][0]["compressor"] = {{"type", "rand-k"}, {"k", 3}};
    expectSameFilesAtAnyThreadCount(topK);
    ::unsetenv("DPLAB_SPLIT_MIN_WORK");
}

} // namespace
} // namespace dplab::test
