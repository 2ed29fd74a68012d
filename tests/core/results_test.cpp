// SPDX-License-Identifier: GPL-3.0-or-later
// Results folders read back (readResultsFolder) and shards merged (mergeResultsFolders): a
// folder written, read and written again gives the same bytes; shards of any split merge into
// the files of the whole run; the job split is balanced and a job's numbers do not depend on
// its shard.
#include "../common/ringquadratic.h"
#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/results.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"

#include "../common/tempdir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include <unistd.h>

namespace dplab {
namespace {

namespace fs = std::filesystem;

Json sweepExperiment()
{
    Json e = test::ringQuadraticExperiment("results test", 5, 40, 3, 7, test::gradientTrackingAndDgd(0.05));
    e["sweep"] = Json::parse(R"({ "parameter": "runs[*].params.stepsize", "values": [0.05, 0.1, 0.2] })");
    return e;
}

class Results : public ::testing::Test
{
protected:

    std::string write(const std::string &name, const Experiment &e, const ExperimentResult &r, bool trace)
    {
        const std::string dir = (mTemp.path() / name).string();
        auto s = writeRunOutputs(dir, e, r, trace);
        EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().toString());
        return dir;
    }
    static ExperimentResult run(const Experiment &e, Shard shard, bool trace, int threads = 2)
    {
        RunnerOptions options;
        options.shard = shard;
        options.trace = trace;
        options.threads = threads;
        auto r = Runner(options).run(e);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
        return std::move(r.value());
    }
    static std::string text(const std::string &dir, const std::string &name)
    {
        auto t = readFile((fs::path(dir) / name).string());
        return t.ok() ? *t : "<missing " + name + ">";
    }
    /** The wall times are measurements: blanked before comparing two summaries. */
    static std::string withoutWallTimes(const std::string &summary)
    {
        return std::regex_replace(summary, std::regex("\"(wall_time_seconds|reference_solve_seconds)\": [-+0-9.eE]+"),
                                  "\"$1\": _");
    }
    static void expectSameSet(const std::string &a, const std::string &b, bool trace)
    {
        for (const char *name : {"metrics.csv", "final_values.csv", "epsilon_per_agent.csv", "sweep.csv",
                                 "experiment.json"})
            EXPECT_EQ(text(a, name), text(b, name)) << name;
        if (trace)
            EXPECT_EQ(text(a, "trace.csv"), text(b, "trace.csv"));
        EXPECT_EQ(withoutWallTimes(text(a, "summary.json")), withoutWallTimes(text(b, "summary.json")));
        // The manifests agree but for the digest of summary.json (its wall times differ).
        auto ma = readJsonFile((fs::path(a) / "manifest.json").string());
        auto mb = readJsonFile((fs::path(b) / "manifest.json").string());
        ASSERT_TRUE(ma.ok() && mb.ok());
        ASSERT_TRUE(ma->at("files").contains("summary.json"));
        (*ma)["files"].erase("summary.json");
        (*mb)["files"].erase("summary.json");
        EXPECT_EQ(*ma, *mb);
    }
    test::TempDir mTemp;
};

TEST_F(Results, ShardsAreBalancedAndCoverTheJobListOnce)
{
    for (int n : {1, 2, 3, 7, 18, 25}) {
        std::vector<int> owners(18, 0), sizes(n, 0);
        for (int i = 1; i <= n; ++i)
            for (std::size_t k = 0; k < 18; ++k)
                if ((Shard{i, n}).contains(k)) {
                    ++owners[k];
                    ++sizes[i - 1];
                }
        for (int o : owners)
            EXPECT_EQ(o, 1);
        EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()) - *std::min_element(sizes.begin(), sizes.end()), 1);
    }
    EXPECT_FALSE(parseShard("0/3", "--shard").ok());
    EXPECT_FALSE(parseShard("4/3", "--shard").ok());
    EXPECT_FALSE(parseShard("3", "--shard").ok());
    EXPECT_FALSE(parseShard("a/b", "--shard").ok());
    ASSERT_TRUE(parseShard("2/3", "--shard").ok());
    EXPECT_EQ(parseShard("2/3", "--shard")->index, 2);
}

TEST_F(Results, AFolderReadBackWritesTheSameBytes)
{
    auto e = parseExperiment(sweepExperiment(), ".");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    const ExperimentResult r = run(*e, {}, true);
    const std::string a = write("a", *e, r, true);
    auto folder = readResultsFolder(a);
    ASSERT_TRUE(folder.ok()) << folder.error().toString();
    EXPECT_TRUE(folder->manifest.shard.whole());
    EXPECT_EQ(folder->manifest.jobs.size(), 18u);
    const std::string b = write("b", folder->experiment, folder->result, true);
    expectSameSet(a, b, true);
    // Wall times too: they are read back exactly.
    EXPECT_EQ(text(a, "summary.json"), text(b, "summary.json"));
}

TEST_F(Results, ShardsOfAnySplitMergeIntoTheWholeRun)
{
    auto e = parseExperiment(sweepExperiment(), ".");
    ASSERT_TRUE(e.ok());
    const std::string whole = write("whole", *e, run(*e, {}, true), true);
    for (int n : {1, 3, 7}) {
        std::vector<ResultsFolder> shards;
        for (int i = n; i >= 1; --i) { // any order
            const ExperimentResult part = run(*e, {i, n}, true, 1);
            const std::string dir = write("shard-" + std::to_string(n) + "-" + std::to_string(i), *e, part, true);
            auto folder = readResultsFolder(dir);
            ASSERT_TRUE(folder.ok()) << folder.error().toString();
            shards.push_back(std::move(*folder));
        }
        auto merged = mergeResultsFolders(std::move(shards));
        ASSERT_TRUE(merged.ok()) << merged.error().toString();
        const std::string out = write("merged-" + std::to_string(n), merged->experiment, merged->result, true);
        SCOPED_TRACE("N = " + std::to_string(n));
        expectSameSet(whole, out, true);
    }
}

TEST_F(Results, ReaderRefusesIncompleteAndMismatchedFolders)
{
    auto e = parseExperiment(sweepExperiment(), ".");
    ASSERT_TRUE(e.ok());
    const std::string dir = write("a", *e, run(*e, {}, false), false);
    // No manifest: not a complete set.
    fs::rename(fs::path(dir) / "manifest.json", mTemp.path() / "manifest.json");
    auto noManifest = readResultsFolder(dir);
    ASSERT_FALSE(noManifest.ok());
    EXPECT_NE(noManifest.error().message.find("no manifest.json"), std::string::npos);
    fs::rename(mTemp.path() / "manifest.json", fs::path(dir) / "manifest.json");
    ASSERT_TRUE(readResultsFolder(dir).ok());
    // A summary marked incomplete.
    const std::string summaryText = text(dir, "summary.json");
    auto summary = readJsonFile(dir + "/summary.json");
    (*summary)["incomplete"] = true;
    ASSERT_TRUE(writeFileAtomic(dir + "/summary.json", summary->dump(2)).ok());
    auto incomplete = readResultsFolder(dir);
    ASSERT_FALSE(incomplete.ok());
    EXPECT_NE(incomplete.error().message.find("incomplete"), std::string::npos);
    ASSERT_TRUE(writeFileAtomic(dir + "/summary.json", summaryText).ok());
    ASSERT_TRUE(readResultsFolder(dir).ok());
    // An experiment.json that is not the manifest's: its digest first, then (record forged) its hash.
    auto doc = readJsonFile(dir + "/experiment.json");
    (*doc)["seed"] = 6;
    const std::string edited = doc->dump(2) + "\n";
    ASSERT_TRUE(writeFileAtomic(dir + "/experiment.json", edited).ok());
    auto damaged = readResultsFolder(dir);
    ASSERT_FALSE(damaged.ok());
    EXPECT_NE(damaged.error().where.find("experiment.json"), std::string::npos) << damaged.error().toString();
    EXPECT_NE(damaged.error().message.find("manifest.json records"), std::string::npos) << damaged.error().toString();
    auto manifest = readJsonFile(dir + "/manifest.json");
    (*manifest)["files"]["experiment.json"] = Json{{"bytes", edited.size()}, {"rows", countRows("experiment.json", edited)},
                                                   {"sha256", sha256Hex(edited)}};
    ASSERT_TRUE(writeFileAtomic(dir + "/manifest.json", manifest->dump(2)).ok());
    auto other = readResultsFolder(dir);
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("does not match manifest.json"), std::string::npos) << other.error().toString();
}

TEST_F(Results, AJobGivesTheSameNumbersInEveryShard)
{
    auto e = parseExperiment(sweepExperiment(), ".");
    ASSERT_TRUE(e.ok());
    const ExperimentResult whole = run(*e, {}, false);
    const ExperimentResult part = run(*e, {2, 5}, false);
    std::size_t position = 0, compared = 0;
    for (std::size_t p = 0; p < whole.points.size(); ++p)
        for (std::size_t r = 0; r < whole.points[p].runs.size(); ++r)
            for (std::size_t k = 0; k < whole.points[p].runs[r].repetitions.size(); ++k, ++position) {
                const auto &rep = part.points[p].runs[r].repetitions[k];
                EXPECT_EQ(rep.skipped, !(Shard{2, 5}).contains(position));
                if (rep.skipped) {
                    EXPECT_TRUE(rep.values.empty());
                    continue;
                }
                EXPECT_EQ(rep.values, whole.points[p].runs[r].repetitions[k].values);
                ++compared;
            }
    EXPECT_EQ(compared, 4u); // positions 1, 6, 11, 16 of 18
}

} // namespace
} // namespace dplab
