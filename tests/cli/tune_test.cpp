// SPDX-License-Identifier: GPL-3.0-or-later
// dplab-cli tune: the three files, tuned.json runs, the tuned value beats a grid run with `run`
// and a sweep, threads change no byte, --epsilon reports runs that cannot calibrate, --compare
// writes the pairs, and every bad-input class is exit 2 with one line naming it.
#include "clitest.h"

#include "dplab/common/csv.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

std::string preset(const std::string &name)
{
    return std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets/" + name;
}

std::vector<std::vector<std::string>> csvRows(const std::filesystem::path &file)
{
    auto table = parseCsv(readText(file), file.string());
    EXPECT_TRUE(table.ok());
    return table.ok() ? table->rows : std::vector<std::vector<std::string>>{};
}

/** Two noise-free runs on the teaching quadratics, short. */
std::string dgdVsTracking()
{
    return quote(preset("teaching-dgd-vs-tracking.json")) + " --iterations 60";
}

/** `tune EXPERIMENT OPTIONS --quiet --out DIR/t`. */
CliResult tuneInto(const TempDir &dir, const std::string &experiment, const std::string &options)
{
    return runCli("tune " + experiment + " " + options + " --quiet --out " + quote((dir / "t").string()));
}

TEST(Tune, WritesTuningBestAndTunedAndTunedRuns)
{
    TempDir dir;
    const auto r = tuneInto(dir, dgdVsTracking(),
                            "--param params.stepsize --range 0.01:0.5 --log --metric distance_to_optimum --budget 24");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = csvRows(dir / "t" / "tuning.csv");
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], (std::vector<std::string>{"run", "value", "distance_to_optimum_mean", "distance_to_optimum_std",
                                                 "repetitions"}));
    EXPECT_EQ(rows.size(), 1u + 24u); // 12 candidates per run, 1 repetition each
    const Json best = Json::parse(readText(dir / "t" / "best.json"));
    for (const char *label : {"DGD", "Gradient tracking"}) {
        const Json &b = best["runs"][label];
        for (const char *key : {"value", "mean", "std", "repetitions", "ci_low", "ci_high"})
            EXPECT_TRUE(b.contains(key)) << label << " " << key;
        EXPECT_GE(b["value"].get<double>(), 0.01);
        EXPECT_LE(b["value"].get<double>(), 0.5);
    }
    // tuned.json is a valid experiment for `run`, with the best values.
    const Json tuned = Json::parse(readText(dir / "t" / "tuned.json"));
    EXPECT_EQ(tuned["runs"][0]["params"]["stepsize"], best["runs"]["DGD"]["value"]);
    const auto run = runCli("run " + quote((dir / "t" / "tuned.json").string()) + " --quiet --out "
                            + quote((dir / "r").string()));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    // The table is printed.
    EXPECT_NE(r.out.find("Gradient tracking"), std::string::npos);
}

TEST(Tune, TunedValueIsAtLeastAsGoodAsEveryPointOfAGridRun)
{
    TempDir dir;
    const auto r = tuneInto(dir, dgdVsTracking(),
                            "--param params.stepsize --range 0.02:0.6 --log --metric distance_to_optimum");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json best = Json::parse(readText(dir / "t" / "best.json"));

    // The same experiment run over a coarse grid with `run` and a sweep.
    Json doc = Json::parse(readText(preset("teaching-dgd-vs-tracking.json")));
    doc["sweep"] = {{"parameter", "runs[*].params.stepsize"}, {"values", {0.02, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6}}};
    writeText(dir / "grid.json", doc.dump());
    const auto grid = runCli("run " + quote((dir / "grid.json").string()) + " --iterations 60 --quiet --out "
                             + quote((dir / "g").string()));
    ASSERT_TRUE(grid.exitCode == 0 || grid.exitCode == 3) << grid.err; // a large step may diverge
    const auto rows = csvRows(dir / "g" / "sweep.csv");
    ASSERT_GT(rows.size(), 1u);
    const auto header = rows[0];
    const auto runCol = std::find(header.begin(), header.end(), "run") - header.begin();
    const auto meanCol = std::find(header.begin(), header.end(), "distance_to_optimum_mean") - header.begin();
    ASSERT_LT(static_cast<std::size_t>(meanCol), header.size());
    int compared = 0;
    for (std::size_t k = 1; k < rows.size(); ++k) {
        if (rows[k][meanCol].empty())
            continue;
        const double gridMean = std::stod(rows[k][meanCol]);
        const double tunedMean = best["runs"][rows[k][runCol]]["mean"].get<double>();
        EXPECT_LE(tunedMean, gridMean) << rows[k][runCol] << " at " << rows[k][1];
        ++compared;
    }
    EXPECT_GE(compared, 10);
}

TEST(Tune, SameSeedSameTuningCsvAtOneAndTwoThreads)
{
    TempDir dir;
    const std::string common = "tune " + quote(preset("teaching-noise-accumulation.json"))
                               + " --iterations 40 --repetitions 2 --param params.stepsize.a --range 0.02:0.5 --log"
                                 " --metric distance_to_optimum --budget 32 --seed 9 --quiet";
    const auto one = runCli(common + " --threads 1 --out " + quote((dir / "one").string()));
    const auto two = runCli(common + " --threads 2 --out " + quote((dir / "two").string()));
    ASSERT_EQ(one.exitCode, 0) << one.err;
    ASSERT_EQ(two.exitCode, 0) << two.err;
    const std::string a = readText(dir / "one" / "tuning.csv");
    EXPECT_GT(std::count(a.begin(), a.end(), '\n'), 4);
    EXPECT_EQ(a, readText(dir / "two" / "tuning.csv"));
    EXPECT_EQ(readText(dir / "one" / "best.json"), readText(dir / "two" / "best.json"));
}

TEST(Tune, EpsilonReportsRunsThatCannotCalibrateAsNotComparable)
{
    TempDir dir;
    const Json doc = Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "seed": 3, "iterations": 60, "repetitions": 2,
      "graph": { "generator": { "type": "ring", "nodes": 5 }, "weights": { "scheme": "metropolis" } },
      "problem": { "type": "rendezvous", "dimension": 2, "low": 0, "high": 1 },
      "runs": [ { "label": "DPOP", "algorithm": "dpop",
                  "params": { "stepsize": 0.1, "project": true, "box_low": 0, "box_high": 1 },
                  "privacy": { "noise_x": 1, "gradient_bound": 2.83, "clip": true } },
                { "label": "DGD", "algorithm": "dgd", "params": { "stepsize": 0.1 } } ]
    })");
    writeText(dir / "e.json", doc.dump());
    const auto r = tuneInto(dir, quote((dir / "e.json").string()),
                            "--param params.stepsize --range 0.01:1 --log --metric distance_to_optimum --epsilon 5");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json best = Json::parse(readText(dir / "t" / "best.json"));
    EXPECT_EQ(best["runs"]["DGD"]["comparable"], false);
    EXPECT_NE(best["runs"]["DGD"]["reason"].get<std::string>().find("not comparable"), std::string::npos);
    EXPECT_FALSE(best["runs"]["DGD"].contains("value"));
    EXPECT_EQ(best["runs"]["DPOP"]["comparable"], true);
    for (const auto &row : csvRows(dir / "t" / "tuning.csv"))
        EXPECT_NE(row[0], "DGD");
    EXPECT_NE(r.out.find("not comparable"), std::string::npos);
    // tuned.json runs DPOP at the target ε and leaves DGD as it was.
    const Json tuned = Json::parse(readText(dir / "t" / "tuned.json"));
    EXPECT_EQ(tuned["runs"][0]["privacy"]["epsilon"], 5);
    EXPECT_EQ(tuned["runs"][1]["params"]["stepsize"]["a"], 0.1); // resolved: a constant schedule
}

TEST(Tune, AlternativesTuneEachRunByTheKeyItHasAndTunedJsonReproducesTheBest)
{
    // Paper 003's Algorithm 1 calls its step alpha, DPOP's is the scale of a schedule.
    TempDir dir;
    const auto r = runCli("tune " + quote(preset("teaching-privacy-frontier.json"))
                          + " --iterations 60 --repetitions 2 --param params.alpha,params.stepsize.a --range 0.001:1 --log"
                            " --metric distance_to_optimum --epsilon 50 --budget 24 --quiet --out "
                          + quote((dir / "t").string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json best = Json::parse(readText(dir / "t" / "best.json"));
    const Json tuned = Json::parse(readText(dir / "t" / "tuned.json"));
    EXPECT_EQ(tuned["runs"][0]["params"]["alpha"], best["runs"]["Robust DP-GT (paper 003)"]["value"]);
    EXPECT_EQ(tuned["runs"][1]["params"]["stepsize"]["a"], best["runs"]["DPOP"]["value"]);
    EXPECT_EQ(tuned["runs"][0]["privacy"]["epsilon"], 50);
    // Running tuned.json gives the best candidates' means exactly (same seeds, same jobs).
    const auto run = runCli("run " + quote((dir / "t" / "tuned.json").string()) + " --quiet --out " + quote((dir / "r").string()));
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto rows = csvRows(dir / "r" / "final_values.csv");
    const auto col = std::find(rows[0].begin(), rows[0].end(), "distance_to_optimum_mean") - rows[0].begin();
    ASSERT_EQ(rows.size(), 3u);
    for (std::size_t k = 1; k < rows.size(); ++k)
        EXPECT_EQ(std::stod(rows[k][col]), best["runs"][rows[k][0]]["mean"].get<double>()) << rows[k][0];
}

TEST(Tune, CompareWritesOnePairPerTwoRuns)
{
    TempDir dir;
    const auto r = tuneInto(dir, dgdVsTracking(),
                            "--repetitions 2 --param params.stepsize --range 0.02:0.5 --log"
                            " --metric distance_to_optimum --budget 24 --compare");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = csvRows(dir / "t" / "comparison.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][0], "run_a");
    EXPECT_EQ(rows[1][0], "DGD");
    EXPECT_EQ(rows[1][1], "Gradient tracking");
    EXPECT_EQ(rows[1][7], "no"); // two pairs cannot reach p < 0.05
    EXPECT_NE(r.out.find("signed-rank"), std::string::npos);
}

TEST(Tune, BadInputIsExitTwoWithOneLineNamingIt)
{
    TempDir dir;
    const std::string base = "tune " + dgdVsTracking() + " --quiet --out " + quote((dir / "t").string());
    struct Case {
        std::string args, names;
    };
    const std::vector<Case> cases = {
        {"--param params.stepsiz --range 0.01:1 --metric distance_to_optimum", "--param"},
        {"--param runs[7].params.stepsize --range 0.01:1 --metric distance_to_optimum", "--param"},
        {"--param problem.type --range 0.01:1 --metric distance_to_optimum", "--param"},
        {"--param params.stepsize --range 0.1:0.1 --metric distance_to_optimum", "--range"},
        {"--param params.stepsize --range 1:0.1 --metric distance_to_optimum", "--range"},
        {"--param params.stepsize --range 0:1 --log --metric distance_to_optimum", "--range"},
        {"--param params.stepsize --range abc --metric distance_to_optimum", "--range"},
        {"--param params.stepsize --range 0.01:1 --metric accuracy", "--metric"},
        {"--param params.stepsize --range 0.01:1 --metric regret", "--metric"}, // not recorded here
        {"--param params.stepsize --range 0.01:1 --metric distance_to_optimum --budget 2", "--budget"},
        {"--param params.stepsize --range 0.01:1 --metric distance_to_optimum --epsilon -1", "--epsilon"},
        {"--param params.stepsize --range 0.01:1 --metric distance_to_optimum --epsilon 1", "--epsilon"},
        {"--param runs[0].params.stepsize --range 0.01:1 --metric distance_to_optimum --compare", "--compare"},
        {"--range 0.01:1 --metric distance_to_optimum", "--param"},
    };
    for (const auto &c : cases) {
        const auto r = runCli(base + " " + c.args);
        EXPECT_EQ(r.exitCode, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.names), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.args << "\n" << r.err;
    }
    // The schedule case: a parameter that is an object, not a number.
    Json doc = Json::parse(readText(preset("teaching-dgd-vs-tracking.json")));
    doc["runs"][0]["params"]["stepsize"] = {{"type", "polynomial"}, {"a", 0.1}, {"t0", 1}, {"p", 0.5}};
    doc["runs"].erase(1);
    writeText(dir / "schedule.json", doc.dump());
    const auto r = runCli("tune " + quote((dir / "schedule.json").string()) + " --iterations 20 --param params.stepsize"
                          " --range 0.01:1 --metric distance_to_optimum --quiet");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("not a number; tune one of its numbers, e.g. params.stepsize.a"), std::string::npos) << r.err;
}

} // namespace
} // namespace dplab::test
