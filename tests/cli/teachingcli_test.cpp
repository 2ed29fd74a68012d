// SPDX-License-Identifier: GPL-3.0-or-later
// Teaching through the CLI: the frontier subcommand, attack_error in metrics.csv, and every
// teaching preset runs.
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line))
        out.push_back(line);
    return out;
}

TEST(TeachingCli, FrontierWritesOneRowPerRunAndEpsilon)
{
    TempDir dir;
    const auto r = runCli("frontier " + quote(preset("teaching-privacy-frontier.json"))
                          + " --epsilons 10:1000:3 --iterations 50 --repetitions 2 --quiet --out "
                          + quote((dir / "out").string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(readText(dir / "out" / "frontier.csv"));
    ASSERT_EQ(rows.size(), 7u);
    const auto header = csvCells(rows[0]);
    EXPECT_EQ(header[0], "run");
    EXPECT_EQ(header[1], "target_epsilon");
    EXPECT_EQ(header[2], "consensus_error_mean");
    EXPECT_EQ(header[3], "consensus_error_std");
    EXPECT_NE(std::find(header.begin(), header.end(), "distance_to_optimum_mean"), header.end());
    EXPECT_NE(std::find(header.begin(), header.end(), "epsilon_mean"), header.end());
    EXPECT_EQ(csvCells(rows[1])[0], "Robust DP-GT (paper 003)");
    EXPECT_EQ(csvCells(rows[1])[1], "10");
    EXPECT_NEAR(std::stod(csvCells(rows[2])[1]), 100.0, 1e-9);
    EXPECT_EQ(csvCells(rows[4])[0], "DPOP");
    // The achieved ε equals the target (the runs calibrate to it).
    const auto eps = std::find(header.begin(), header.end(), "epsilon_mean") - header.begin();
    EXPECT_NEAR(std::stod(csvCells(rows[3])[eps]), 1000.0, 1e-6 * 1000);
    EXPECT_TRUE(std::filesystem::exists(dir / "out" / "experiment.json"));
}

TEST(TeachingCli, FrontierErrorsAreInvalidInput)
{
    TempDir dir;
    auto r = runCli("frontier " + quote(preset("teaching-privacy-frontier.json")) + " --out " + quote(dir.path().string()));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--epsilons"), std::string::npos) << r.err;
    r = runCli("frontier " + quote(preset("teaching-privacy-frontier.json")) + " --epsilons 1,-3 --out "
               + quote(dir.path().string()));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--epsilons: \"-3\" is not a number > 0"), std::string::npos) << r.err;
    r = runCli("frontier " + quote(preset("teaching-dgd-vs-tracking.json")) + " --epsilons 1 --out "
               + quote(dir.path().string()));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("teaching-dgd-vs-tracking.json: runs: no run's algorithm calibrates"), std::string::npos)
        << r.err;
}

TEST(TeachingCli, EavesdropperReportsAttackErrorInMetricsCsv)
{
    TempDir dir;
    const auto r = runCli("run " + quote(preset("teaching-eavesdropper.json")) + " --iterations 60 --quiet --out "
                          + quote(dir.path().string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(readText(dir / "metrics.csv"));
    const auto header = csvCells(rows[0]);
    EXPECT_EQ(header.back(), "attack_error");
    const std::size_t col = header.size() - 1;
    double cleanLast = -1, noisyLast = -1;
    for (std::size_t k = 1; k < rows.size(); ++k) {
        const auto c = csvCells(rows[k]);
        if (c[2] != "60")
            continue;
        if (c[0] == "LDP-GT without noise")
            cleanLast = std::stod(c[col]);
        if (c[0] == "LDP-GT + DP noise")
            noisyLast = std::stod(c[col]);
    }
    EXPECT_GE(cleanLast, 0.0);
    EXPECT_LE(cleanLast, 1e-9);
    EXPECT_GT(noisyLast, 0.5);
    // Iteration 0 has no reconstruction yet: an empty cell, never 0.
    EXPECT_EQ(csvCells(rows[1])[2], "0");
    EXPECT_EQ(csvCells(rows[1])[col], "");
}

TEST(TeachingCli, TeachingPresetsRun)
{
    for (const std::string name : {"teaching-consensus-gossip.json", "teaching-dgd-vs-tracking.json",
                                   "teaching-noise-accumulation.json", "teaching-compression-bits.json",
                                   "teaching-privacy-frontier.json", "teaching-eavesdropper.json"}) {
        TempDir dir;
        const auto r = runCli("run " + quote(preset(name)) + " --iterations 30 --repetitions 1 --quiet --out "
                              + quote(dir.path().string()));
        EXPECT_EQ(r.exitCode, 0) << name << ": " << r.err;
        const Json resolved = Json::parse(readText(dir / "experiment.json"));
        ASSERT_TRUE(resolved.contains("presentation")) << name;
        EXPECT_FALSE(resolved["presentation"]["notes"].get<std::string>().empty()) << name;
    }
}

} // namespace
} // namespace dplab::test
