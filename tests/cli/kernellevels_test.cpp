// SPDX-License-Identifier: GPL-3.0-or-later
// The kernels' instruction sets (dplab/common/simd.h: SSE2, AVX2, AVX-512, chosen at run time by
// CPU) give the same bits: whole runs with DPLAB_KERNELS=sse2, =avx2 and unset (the highest level
// this CPU has) write byte-identical metrics, final values and ε per agent — presets of every
// paper (the fused logistic pass, the Laplace noise, the mixing products, paper 002's softmax
// cross values) and the (6, 10, 200) logistic case of tests/bench/compare_numpy.py recorded at
// every iteration (the metrics pass with its loss and accuracy). On a CPU without AVX2 or AVX-512
// the capped levels run the same versions and the test compares nothing new.
#include "clitest.h"

#include <cstdlib>

namespace dplab::test {
namespace {

/** Runs `file` (with `args`) under each DPLAB_KERNELS value, into folders of `dir`, and compares
 *  the files with SSE2's. */
void expectSameFilesAtEveryLevel(const std::filesystem::path &dir, const std::string &file, const std::string &args)
{
    const std::vector<std::string> levels{"sse2", "avx2", ""};
    for (std::size_t l = 0; l < levels.size(); ++l) {
        if (levels[l].empty())
            ::unsetenv("DPLAB_KERNELS");
        else
            ::setenv("DPLAB_KERNELS", levels[l].c_str(), 1);
        const auto r = runCli("run " + quote(file) + " --out " + quotedPath(dir / std::to_string(l)) + " " + args
                              + " --quiet");
        ::unsetenv("DPLAB_KERNELS");
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    for (const std::string name : {"metrics.csv", "final_values.csv", "epsilon_per_agent.csv"}) {
        const std::string sse2 = readText(dir / "0" / name);
        EXPECT_FALSE(sse2.empty()) << name;
        EXPECT_EQ(sse2, readText(dir / "1" / name)) << file << ", " << name << ": AVX2 differs from SSE2";
        EXPECT_EQ(sse2, readText(dir / "2" / name)) << file << ", " << name << ": the CPU's highest level differs from SSE2";
    }
}

TEST(CliKernelLevels, PresetsGiveTheSameFilesAtEveryLevel)
{
    for (const std::string name : {"paper000-fig2-logistic.json", "paper001-fig2-nonconvex-logistic.json",
                                   "paper002-fig1-digits.json", "paper003-fig1-dpop.json",
                                   "teaching-gradient-tracking-logistic.json", "teaching-push-pull-quadratic.json"}) {
        SCOPED_TRACE(name);
        TempDir dir;
        expectSameFilesAtEveryLevel(dir.path(), preset(name), "--iterations 60 --repetitions 1 --threads 1");
    }
}

TEST(CliKernelLevels, LogisticCaseRecordedEveryIterationGivesTheSameFilesAtEveryLevel)
{
    // compare_numpy.py's (6, 10, 200) push-pull case: 1200 samples of 10 features on 6 agents.
    const nlohmann::json experiment = {
        {"format", "dplab-experiment"}, {"version", 1}, {"name", "levels"}, {"seed", 1}, {"iterations", 300},
        {"record_every", 1}, {"repetitions", 1},
        {"graph",
         {{"generator", {{"type", "exponential"}, {"nodes", 6}, {"directed", true}}},
          {"weights", {{"row", {{"scheme", "uniform-row"}}}, {"column", {{"scheme", "uniform-column"}}}}}}},
        {"problem",
         {{"type", "logistic"}, {"lambda", 0.01}, {"bias", false}, {"test_fraction", 0},
          {"data", {{"source", "synthetic"}, {"samples", 1200}, {"dimension", 10}}}}},
        {"runs",
         {{{"label", "push-pull"}, {"algorithm", "push-pull"}, {"params", {{"stepsize", 0.01}}},
           {"privacy", {{"noise_theta", 0.1}, {"noise_y", 0.1}}}}}}};
    TempDir dir;
    writeText(dir / "e.json", experiment.dump());
    expectSameFilesAtEveryLevel(dir.path(), (dir / "e.json").string(), "--threads 1");
}

} // namespace
} // namespace dplab::test
