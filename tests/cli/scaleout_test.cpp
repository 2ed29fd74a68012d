// SPDX-License-Identifier: GPL-3.0-or-later
// `run --shard`, `merge`, `report --from` and output folders as a unit, end to end:
// a sweep preset and a Monte-Carlo preset split into 1, 3 and 7 shards merge into the bytes of
// the unsharded run; merge refuses missing, duplicated, foreign and other-version shards with
// exit 2 naming them; an interrupted run leaves nothing merge accepts and keeps the previous set;
// the local xargs recipe of docs/scale-out.md runs as written; every CSV parses with python3's
// csv module.
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <regex>
#include <thread>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace dplab::test {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

std::string withoutWallTimes(const std::string &summary)
{
    return std::regex_replace(summary, std::regex("\"(wall_time_seconds|reference_solve_seconds)\": [-+0-9.eE]+"), "\"$1\": _");
}

/** Every file of the set equal byte for byte; summary.json up to the measured wall times (runs and reference solve). */
void expectSameResults(const fs::path &a, const fs::path &b)
{
    for (const char *name : {"metrics.csv", "final_values.csv", "epsilon_per_agent.csv", "sweep.csv", "trace.csv",
                             "experiment.json"}) {
        ASSERT_EQ(fs::exists(a / name), fs::exists(b / name)) << name;
        if (fs::exists(a / name))
            EXPECT_TRUE(readText(a / name) == readText(b / name)) << name << " differs between " << a << " and " << b;
    }
    ASSERT_TRUE(fs::exists(a / "summary.json"));
    EXPECT_EQ(withoutWallTimes(readText(a / "summary.json")), withoutWallTimes(readText(b / "summary.json")));
    // The manifests are equal but for the record of summary.json (whose wall times differ).
    Json ma = Json::parse(readText(a / "manifest.json")), mb = Json::parse(readText(b / "manifest.json"));
    ASSERT_TRUE(ma["files"].contains("summary.json"));
    ma["files"].erase("summary.json");
    mb["files"].erase("summary.json");
    EXPECT_EQ(ma, mb);
}

/** Runs `preset` whole and in N ∈ {1, 3, 7} shards merged, comparing the outputs. */
void expectShardsMergeToWhole(const std::string &preset, const std::string &overrides, const TempDir &dir)
{
    const std::string file = quote(dplab::test::preset(preset));
    auto whole = runCli("run " + file + " " + overrides + " --out " + quotedPath(dir / "whole") + " --quiet");
    ASSERT_TRUE(whole.exitCode == 0 || whole.exitCode == 3) << whole.err;
    for (int n : {1, 3, 7}) {
        std::string folders;
        for (int i = 1; i <= n; ++i) {
            const fs::path out = dir / ("shard-" + std::to_string(n) + "-" + std::to_string(i));
            auto r = runCli("run " + file + " " + overrides + " --shard " + std::to_string(i) + "/" + std::to_string(n)
                            + " --threads 1 --out " + quotedPath(out) + " --quiet");
            ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 3) << r.err;
            const Json manifest = Json::parse(readText(out / "manifest.json"));
            EXPECT_EQ(manifest["shard"]["index"], i);
            EXPECT_EQ(manifest["shard"]["count"], n);
            folders = quotedPath(out) + " " + folders; // reversed: the order does not matter
        }
        const fs::path merged = dir / ("merged-" + std::to_string(n));
        auto m = runCli("merge " + folders + " --out " + quotedPath(merged) + " --quiet");
        ASSERT_TRUE(m.exitCode == 0 || m.exitCode == 3) << m.err;
        EXPECT_EQ(m.exitCode, whole.exitCode);
        SCOPED_TRACE(preset + ", N = " + std::to_string(n));
        expectSameResults(dir / "whole", merged);
    }
}

TEST(ScaleOut, SweepPresetShardsMergeToTheUnshardedBytes)
{
    TempDir dir;
    expectShardsMergeToWhole("paper001-fig4-q-sweep.json", "--iterations 30 --repetitions 2", dir);
}

TEST(ScaleOut, MonteCarloPresetShardsMergeToTheUnshardedBytes)
{
    TempDir dir;
    expectShardsMergeToWhole("paper003-fig1-dpop.json", "--iterations 40 --repetitions 12 --trace", dir);
}

/** Three shards of the small sweep, for the failure cases. */
class MergeFailures : public ::testing::Test
{
protected:
    void SetUp() override
    {
        mFile = quote(preset("paper002-teaching-gossip.json"));
        for (int i = 1; i <= 3; ++i)
            ASSERT_EQ(runShard(i, 3, "", "s" + std::to_string(i)), 0);
    }
    int runShard(int i, int n, const std::string &extra, const std::string &name)
    {
        auto r = runCli("run " + mFile + " --iterations 20 " + extra + " --shard " + std::to_string(i) + "/"
                        + std::to_string(n) + " --out " + quotedPath(mDir / name) + " --quiet");
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return r.exitCode;
    }
    CliResult merge(const std::vector<std::string> &names)
    {
        std::string args;
        for (const auto &n : names)
            args += quotedPath(mDir / n) + " ";
        return runCli("merge " + args + "--out " + quotedPath(mDir / "merged"));
    }
    /** Merging `names` is refused (exit code 2) with a message holding each of `words`. */
    void expectRefused(const std::vector<std::string> &names, std::initializer_list<const char *> words)
    {
        const auto r = merge(names);
        EXPECT_EQ(r.exitCode, 2);
        for (const char *word : words)
            EXPECT_NE(r.err.find(word), std::string::npos) << r.err;
    }
    TempDir mDir;
    std::string mFile;
};

TEST_F(MergeFailures, AllShardsMerge)
{
    auto r = merge({"s3", "s1", "s2"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(mDir / "merged" / "manifest.json"));
}

TEST_F(MergeFailures, AMissingShardIsNamed)
{
    auto r = merge({"s1", "s3"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("shard 2/3 missing"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(mDir / "merged" / "manifest.json"));
}

TEST_F(MergeFailures, ADuplicatedShardIsNamed)
{
    fs::copy(mDir / "s2", mDir / "s2-copy", fs::copy_options::recursive);
    expectRefused({"s1", "s2", "s2-copy", "s3"}, {"s2-copy", "shard 2/3 again"});
}

TEST_F(MergeFailures, AShardOfAnotherExperimentIsNamed)
{
    ASSERT_EQ(runShard(2, 3, "--seed 99", "other-seed"), 0);
    expectRefused({"s1", "other-seed", "s3"}, {"other-seed", "another experiment"});
}

TEST_F(MergeFailures, AShardOfAnotherSplitIsNamed)
{
    ASSERT_EQ(runShard(2, 4, "", "of-four"), 0);
    expectRefused({"s1", "of-four", "s3"}, {"of-four", "shard 2/4"});
}

TEST_F(MergeFailures, AShardOfAnotherVersionIsNamed)
{
    Json manifest = Json::parse(readText(mDir / "s3" / "manifest.json"));
    manifest["dplab_version"] = "0.0.1-other";
    writeText(mDir / "s3" / "manifest.json", manifest.dump(2));
    expectRefused({"s1", "s2", "s3"}, {"s3", "DPLab 0.0.1-other"});
}

TEST_F(MergeFailures, AFolderWithoutManifestOrMarkedIncompleteIsRefused)
{
    fs::remove(mDir / "s2" / "manifest.json");
    auto r = merge({"s1", "s2", "s3"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("s2: has no manifest.json"), std::string::npos) << r.err;
    ASSERT_EQ(runShard(2, 3, "", "s2"), 0);
    Json summary = Json::parse(readText(mDir / "s2" / "summary.json"));
    summary["incomplete"] = true;
    writeText(mDir / "s2" / "summary.json", summary.dump(2));
    r = merge({"s1", "s2", "s3"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("incomplete"), std::string::npos) << r.err;
}

TEST_F(MergeFailures, MergeRefusesToWriteIntoAShardFolder)
{
    auto r = runCli("merge " + quotedPath(mDir / "s1") + " " + quotedPath(mDir / "s2") + " " + quotedPath(mDir / "s3") + " --out " + quotedPath(mDir / "s1"));
    EXPECT_EQ(r.exitCode, 2);
}

/** A child dplab-cli we can signal and wait for. */
struct Child {
    pid_t pid = -1;
    int wait() const
    {
        int status = 0;
        ::waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
};

Child spawnCli(const std::vector<std::string> &args, const fs::path &errFile)
{
    Child c;
    c.pid = ::fork();
    if (c.pid == 0)
        execCli(args, errFile);
    return c;
}

bool hasStaging(const fs::path &dir)
{
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().rfind(".dplab-staging-", 0) == 0)
            return true;
    return false;
}

/** Starts a long run into `out` and waits until it is running (its staging folder exists). */
Child startLongRun(const fs::path &out, const fs::path &log, const std::string &shard)
{
    Child c = spawnCli({"run", preset("paper003-fig1-dpop.json"), "--iterations", "50000", "--repetitions", "200",
                        "--shard", shard, "--threads", "1", "--out", out.string(), "--quiet"},
                       log);
    for (int k = 0; k < 6000 && !hasStaging(out); ++k)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // into the iterations
    return c;
}

TEST(OutputUnit, AnInterruptedShardLeavesNothingMergeAccepts)
{
    TempDir dir;
    for (int sig : {SIGTERM, SIGINT}) {
        const fs::path out = dir / ("interrupted-" + std::to_string(sig));
        Child c = startLongRun(out, dir / "log.txt", "1/2");
        ASSERT_TRUE(hasStaging(out));
        const auto sent = std::chrono::steady_clock::now();
        ::kill(c.pid, sig);
        const int code = c.wait();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count();
        std::printf("[ measured ] %s: stopped %.1f ms after the signal\n", sig == SIGTERM ? "SIGTERM" : "SIGINT", ms);
        EXPECT_EQ(code, 128 + sig); // the shells' convention; 1 is kept for bugs
        EXPECT_NE(readText(dir / "log.txt").find("interrupted"), std::string::npos) << readText(dir / "log.txt");
        EXPECT_FALSE(hasStaging(out));
        EXPECT_FALSE(fs::exists(out / "manifest.json"));
        EXPECT_FALSE(fs::exists(out / "metrics.csv"));
        auto r = runCli("merge " + quotedPath(out) + " --out " + quotedPath(dir / "merged"));
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find("has no manifest.json"), std::string::npos) << r.err;
    }
}

TEST(OutputUnit, AnInterruptedRunKeepsThePreviousSetAndTheLockRefusesASecondWriter)
{
    TempDir dir;
    const fs::path out = dir / "out";
    ASSERT_EQ(runCli("run " + quote(preset("paper002-teaching-gossip.json")) + " --iterations 20 --out " + quotedPath(out) + " --quiet").exitCode, 0);
    std::map<std::string, std::string> before;
    for (const auto &e : fs::directory_iterator(out))
        before[e.path().filename().string()] = readText(e.path());
    Child c = startLongRun(out, dir / "log.txt", "1/1");
    // While it runs, a second process on the same folder is refused.
    auto second = runCli("run " + quote(preset("paper002-teaching-gossip.json")) + " --iterations 20 --out " + quotedPath(out) + " --quiet");
    EXPECT_EQ(second.exitCode, 2);
    EXPECT_NE(second.err.find("another DPLab process"), std::string::npos) << second.err;
    ::kill(c.pid, SIGTERM);
    EXPECT_EQ(c.wait(), 128 + SIGTERM);
    EXPECT_NE(readText(dir / "log.txt").find("keeps its previous results"), std::string::npos);
    std::map<std::string, std::string> after;
    for (const auto &e : fs::directory_iterator(out))
        after[e.path().filename().string()] = readText(e.path());
    EXPECT_EQ(before, after);
}

TEST(OutputUnit, StaleOutputsOfAPreviousExperimentAreRemoved)
{
    TempDir dir;
    const fs::path out = dir / "out";
    ASSERT_EQ(runCli("run " + quote(preset("paper002-teaching-gossip.json")) + " --iterations 20 --trace --out " + quotedPath(out) + " --quiet").exitCode, 0);
    ASSERT_TRUE(fs::exists(out / "sweep.csv"));
    ASSERT_TRUE(fs::exists(out / "trace.csv"));
    writeText(out / "notes.txt", "mine");
    ASSERT_EQ(runCli("run " + quote(preset("teaching-push-pull-quadratic.json")) + " --iterations 20 --out " + quotedPath(out) + " --quiet").exitCode, 0);
    EXPECT_FALSE(fs::exists(out / "sweep.csv"));
    EXPECT_FALSE(fs::exists(out / "trace.csv"));
    EXPECT_EQ(readText(out / "notes.txt"), "mine");
    EXPECT_EQ(Json::parse(readText(out / "manifest.json"))["experiment"], Json::parse(readText(out / "experiment.json"))["name"]);
}

TEST(OutputUnit, TheInputExperimentIsNeverOverwritten)
{
    TempDir dir;
    const fs::path out = dir / "out";
    ASSERT_EQ(runCli("run " + quote(preset("teaching-push-pull-quadratic.json")) + " --iterations 20 --out " + quotedPath(out) + " --quiet").exitCode, 0);
    const std::string original = readText(out / "experiment.json");
    auto r = runCli("run " + quotedPath(out / "experiment.json") + " --seed 77 --out " + quotedPath(out) + " --quiet");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("would replace it"), std::string::npos) << r.err;
    EXPECT_EQ(readText(out / "experiment.json"), original);
}

TEST(OutputUnit, AnUnwritableOutIsRefusedBeforeRunning)
{
    TempDir dir;
    writeText(dir / "file", "x");
    const auto started = std::chrono::steady_clock::now();
    auto r = runCli("run " + quote(preset("paper003-fig1-dpop.json")) + " --out " + quotedPath(dir / "file" / "sub"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
    // Nothing ran: no progress, no "wrote".
    EXPECT_EQ(r.err.find("wrote"), std::string::npos);
    (void)started;
    if (::geteuid() != 0) { // root writes anywhere
        fs::create_directories(dir / "readonly");
        fs::permissions(dir / "readonly", fs::perms::owner_read | fs::perms::owner_exec);
        auto ro = runCli("run " + quote(preset("paper003-fig1-dpop.json")) + " --out " + quotedPath(dir / "readonly"));
        EXPECT_EQ(ro.exitCode, 2) << ro.err;
        fs::permissions(dir / "readonly", fs::perms::owner_all);
    }
}

/** The block between <!-- local-loop:begin --> and <!-- local-loop:end --> in docs/scale-out.md. */
std::string localLoopRecipe()
{
    const std::string doc = readText(std::string(DPLAB_TEST_SOURCE_DIR) + "/docs/scale-out.md");
    const auto begin = doc.find("<!-- local-loop:begin -->");
    const auto end = doc.find("<!-- local-loop:end -->");
    if (begin == std::string::npos || end == std::string::npos)
        return "";
    std::string block = doc.substr(begin, end - begin);
    const auto open = block.find("```sh\n");
    const auto close = block.rfind("```");
    return open == std::string::npos ? "" : block.substr(open + 6, close - open - 6);
}

TEST(ScaleOut, TheLocalXargsRecipeRunsAsWritten)
{
    TempDir dir;
    const std::string recipe = localLoopRecipe();
    ASSERT_FALSE(recipe.empty());
    // The recipe as written, with the experiment (at reduced size: a copy with fewer
    // iterations), N and OUT set, and dplab-cli on the PATH.
    Json e = Json::parse(readText(preset("paper001-fig4-q-sweep.json")));
    e["iterations"] = 30;
    e["repetitions"] = 2;
    writeText(dir / "study.json", e.dump(2));
    writeText(dir / "recipe.sh", recipe);
    const std::string bin = fs::path(DPLAB_CLI_PATH).parent_path().string();
    const std::string command = "cd " + quotedPath(dir.path()) + " && EXP=study.json N=5 OUT=results PATH=" + quote(bin)
                                + ":\"$PATH\" sh recipe.sh";
    ASSERT_EQ(std::system(command.c_str()), 0) << recipe;
    ASSERT_EQ(runCli("run " + quotedPath(dir / "study.json") + " --out " + quotedPath(dir / "whole") + " --quiet").exitCode, 0);
    for (int i = 1; i <= 5; ++i)
        EXPECT_TRUE(fs::exists(dir / "results" / ("shard-" + std::to_string(i)) / "manifest.json"));
    expectSameResults(dir / "whole", dir / "results" / "merged");
}

TEST(ScaleOut, ReportFromAMergedFolderNeedsNoRun)
{
    TempDir dir;
    const std::string file = quote(preset("teaching-push-pull-quadratic.json"));
    for (int i = 1; i <= 2; ++i)
        ASSERT_EQ(runCli("run " + file + " --iterations 30 --shard " + std::to_string(i) + "/2 --out " + quotedPath(dir / ("s" + std::to_string(i))) + " --quiet").exitCode, 0);
    ASSERT_EQ(runCli("merge " + quotedPath(dir / "s1") + " " + quotedPath(dir / "s2") + " --out " + quotedPath(dir / "merged") + " --quiet").exitCode, 0);
    const std::string metrics = readText(dir / "merged" / "metrics.csv");
    auto r = runCli("report --from " + quotedPath(dir / "merged") + " --quiet");
    if (r.err.find("needs the UI library") != std::string::npos)
        GTEST_SKIP() << "built without the UI";
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_GT(fs::file_size(dir / "merged" / "report.html"), 1000u);
    EXPECT_GT(fs::file_size(dir / "merged" / "report.pdf"), 1000u);
    EXPECT_EQ(readText(dir / "merged" / "metrics.csv"), metrics);
    EXPECT_TRUE(fs::exists(dir / "merged" / "manifest.json"));
    // The report names the runs of the experiment.
    const std::string html = readText(dir / "merged" / "report.html");
    const Json experiment = Json::parse(readText(dir / "merged" / "experiment.json"));
    for (const auto &run : experiment["runs"])
        EXPECT_NE(html.find(run["label"].get<std::string>()), std::string::npos);
    // Into another folder, and refused for a single shard.
    ASSERT_EQ(runCli("report --from " + quotedPath(dir / "merged") + " --out " + quotedPath(dir / "rep") + " --quiet").exitCode, 0);
    EXPECT_TRUE(fs::exists(dir / "rep" / "report.pdf"));
    auto shard = runCli("report --from " + quotedPath(dir / "s1"));
    EXPECT_EQ(shard.exitCode, 2);
    EXPECT_NE(shard.err.find("merge the shards first"), std::string::npos) << shard.err;
}

bool havePython()
{
    return std::system("python3 -c 'import csv' >/dev/null 2>&1") == 0;
}

TEST(OutputText, EveryCsvParsesWithPythonsCsvModule)
{
    if (!havePython())
        GTEST_SKIP() << "python3 not found";
    TempDir dir;
    // paper002-fig5-topology sweeps generator objects: values with commas and quotes.
    auto r = runCli("run " + quote(preset("paper002-fig5-topology.json")) + " --iterations 20 --trace --out " + quotedPath(dir / "out") + " --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string script = R"(
import csv, json, sys
out = sys.argv[1]
experiment = json.load(open(out + '/experiment.json'))
values = experiment['sweep']['values']
for name in ['metrics.csv', 'final_values.csv', 'epsilon_per_agent.csv', 'sweep.csv', 'trace.csv']:
    with open(out + '/' + name, newline='') as f:
        rows = list(csv.reader(f, strict=True))
    header = rows[0]
    assert len(rows) > 1, name
    for i, row in enumerate(rows[1:], 2):
        assert len(row) == len(header), '%s:%d: %d fields under %d' % (name, i, len(row), len(header))
        if 'value' in header:
            assert json.loads(row[header.index('value')]) in values, '%s:%d: value %r' % (name, i, row[header.index('value')])
print('ok')
)";
    writeText(dir / "check.py", script);
    const std::string command = "python3 " + quotedPath(dir / "check.py") + " " + quotedPath(dir / "out") + " >" + quotedPath(dir / "py.txt") + " 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << readText(dir / "py.txt");
    EXPECT_EQ(readText(dir / "py.txt"), "ok\n");
}

TEST(OutputText, LabelsWithControlCharactersAreRejected)
{
    TempDir dir;
    Json e = Json::parse(readText(preset("teaching-push-pull-quadratic.json")));
    for (const std::string bad : {std::string("a\rb"), std::string("nul\0x", 5), std::string("esc\x1b")}) {
        e["runs"][0]["label"] = bad;
        writeText(dir / "e.json", e.dump());
        auto r = runCli("validate " + quotedPath(dir / "e.json"));
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find("runs[0].label"), std::string::npos) << r.err;
    }
}

} // namespace
} // namespace dplab::test
