// SPDX-License-Identifier: GPL-3.0-or-later
// Integrity of results folders: manifest.json records every file's bytes, rows and SHA-256
// (checked here against coreutils' sha256sum, an implementation independent of DPLab's);
// `merge` refuses a shard with a truncated (cut at a line boundary), extended, altered or
// missing file with exit 2 and one line naming the shard, the file and the damage; `verify`
// says intact (0) or names the damage (2), and with --rerun re-runs seed-chosen jobs of a shard
// and of a merged study and compares their rows byte for byte (and catches a row edited together
// with its manifest record); a folder without digests is flagged unverified (verify, merge,
// report --from).
#include "clitest.h"

#include "dplab/engine/integrity.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

namespace dplab::test {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        out.push_back(text.substr(start, end - start + 1));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
}

int lineCount(const std::string &text)
{
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

/** Three shards of the push-pull teaching preset (the example), merged as a reference. */
class Integrity : public ::testing::Test
{
protected:
    // The shards are run once for the suite; every test damages its own copy.
    static void SetUpTestSuite()
    {
        sDir = fs::temp_directory_path() / ("dplab-integrity-shards-" + std::to_string(::getpid()));
        fs::remove_all(sDir);
        const std::string file = quote(preset("teaching-push-pull-quadratic.json"));
        for (int i = 1; i <= 3; ++i) {
            auto r = runCli("run " + file + " --iterations 60 --repetitions 4 --trace --shard " + std::to_string(i)
                            + "/3 --out " + quotedPath(sDir / ("s" + std::to_string(i))) + " --quiet");
            ASSERT_EQ(r.exitCode, 0) << r.err;
        }
    }
    static void TearDownTestSuite() { fs::remove_all(sDir); }
    void SetUp() override
    {
        for (int i = 1; i <= 3; ++i)
            fs::copy(sDir / ("s" + std::to_string(i)), mDir / ("s" + std::to_string(i)), fs::copy_options::recursive);
    }
    CliResult merge()
    {
        return runCli("merge " + quotedPath(mDir / "s1") + " " + quotedPath(mDir / "s2") + " " + quotedPath(mDir / "s3") + " --out " + quotedPath(mDir / "merged")
                      + " --quiet");
    }
    /** Merge and verify both refuse with one line naming the damage and (for merge) the shard. */
    void expectRefused(const std::string &file, const std::string &damage)
    {
        auto m = merge();
        EXPECT_EQ(m.exitCode, 2) << m.err;
        EXPECT_EQ(lineCount(m.err), 1) << m.err;
        EXPECT_NE(m.err.find((mDir / "s2" / file).string() + ": " + damage), std::string::npos) << m.err;
        EXPECT_NE(m.err.find("shard 2/3"), std::string::npos) << m.err;
        EXPECT_FALSE(fs::exists(mDir / "merged" / "manifest.json"));
        auto v = runCli("verify " + quotedPath(mDir / "s2"));
        EXPECT_EQ(v.exitCode, 2) << v.out << v.err;
        EXPECT_EQ(lineCount(v.err), 1) << v.err;
        EXPECT_NE(v.err.find(file + ": " + damage), std::string::npos) << v.err;
    }
    TempDir mDir;
    static fs::path sDir;
};

fs::path Integrity::sDir;

TEST_F(Integrity, ManifestRecordsBytesRowsAndSha256OfEveryFile)
{
    const Json manifest = Json::parse(readText(mDir / "s2" / "manifest.json"));
    EXPECT_EQ(manifest["digest_algorithm"], "sha256");
    const Json &files = manifest["files"];
    for (const char *name : {"metrics.csv", "summary.json", "experiment.json", "final_values.csv", "epsilon_per_agent.csv",
                             "trace.csv"}) {
        ASSERT_TRUE(files.contains(name)) << name;
        const std::string text = readText(mDir / "s2" / name);
        EXPECT_EQ(files[name]["bytes"].get<std::uint64_t>(), text.size()) << name;
        const int lines = lineCount(text);
        EXPECT_EQ(files[name]["rows"].get<int>(), std::string(name).ends_with(".csv") ? lines - 1 : lines) << name;
        EXPECT_EQ(files[name]["sha256"].get<std::string>(), sha256Hex(text)) << name;
    }
    EXPECT_FALSE(files.contains("manifest.json"));
    // An implementation that is not DPLab's agrees.
    if (std::system("command -v sha256sum >/dev/null 2>&1") == 0) {
        auto sums = std::system(("cd " + quotedPath(mDir / "s2") + " && sha256sum metrics.csv trace.csv > sums.txt").c_str());
        ASSERT_EQ(sums, 0);
        const std::string text = readText(mDir / "s2" / "sums.txt");
        EXPECT_NE(text.find(files["metrics.csv"]["sha256"].get<std::string>() + "  metrics.csv"), std::string::npos) << text;
        EXPECT_NE(text.find(files["trace.csv"]["sha256"].get<std::string>() + "  trace.csv"), std::string::npos) << text;
    }
    // Known answer (FIPS 180-2 example "abc").
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(Integrity, IntactShardsMergeAndVerify)
{
    auto m = merge();
    ASSERT_EQ(m.exitCode, 0) << m.err;
    for (const char *name : {"s1", "s2", "s3", "merged"}) {
        auto v = runCli("verify " + quotedPath(mDir / name));
        EXPECT_EQ(v.exitCode, 0) << v.err;
        EXPECT_NE(v.out.find(": intact: "), std::string::npos) << v.out;
        EXPECT_EQ(v.err, "");
    }
}

TEST_F(Integrity, ATruncatedShardIsRefused)
{
    // Cut at a line boundary (a copy that stopped between rows): every row left is well formed.
    const auto lines = linesOf(readText(mDir / "s2" / "metrics.csv"));
    ASSERT_GT(lines.size(), 10u);
    std::string cut;
    for (std::size_t k = 0; k < lines.size() / 2; ++k)
        cut += lines[k];
    writeText(mDir / "s2" / "metrics.csv", cut);
    expectRefused("metrics.csv", "truncated");
}

TEST_F(Integrity, AnExtendedShardIsRefused)
{
    const std::string text = readText(mDir / "s2" / "metrics.csv");
    writeText(mDir / "s2" / "metrics.csv", text + linesOf(text).back());
    expectRefused("metrics.csv", "extra rows");
}

TEST_F(Integrity, AnAlteredShardIsRefused)
{
    // One digit of one value, same rows, same bytes.
    std::string text = readText(mDir / "s2" / "metrics.csv");
    const std::size_t at = text.find_last_of("123456789");
    ASSERT_NE(at, std::string::npos);
    text[at] = text[at] == '9' ? '8' : static_cast<char>(text[at] + 1);
    writeText(mDir / "s2" / "metrics.csv", text);
    expectRefused("metrics.csv", "altered");
}

TEST_F(Integrity, AMissingFileIsRefused)
{
    fs::remove(mDir / "s2" / "trace.csv");
    expectRefused("trace.csv", "missing");
}

TEST_F(Integrity, VerifyRerunsSeedChosenJobsOfAShardAndOfAMerge)
{
    ASSERT_EQ(merge().exitCode, 0);
    for (const char *name : {"s2", "merged"}) {
        auto v = runCli("verify " + quotedPath(mDir / name) + " --rerun 3");
        EXPECT_EQ(v.exitCode, 0) << v.err;
        EXPECT_NE(v.out.find("rerun of 3 of"), std::string::npos) << v.out;
        EXPECT_NE(v.out.find("identical byte for byte"), std::string::npos) << v.out;
        EXPECT_NE(v.out.find("trace.csv"), std::string::npos) << v.out;
        // The same jobs every time (chosen by the seed).
        auto again = runCli("verify " + quotedPath(mDir / name) + " --rerun 3 --threads 2");
        EXPECT_EQ(again.out, v.out);
    }
}

TEST_F(Integrity, VerifyRerunCatchesARowEditedTogetherWithItsManifest)
{
    ASSERT_EQ(merge().exitCode, 0);
    const fs::path dir = mDir / "merged";
    // Edit one consensus_error value and forge the manifest's record to match.
    std::string text = readText(dir / "metrics.csv");
    const auto lines = linesOf(text);
    const std::size_t row = lines.size() / 2;
    std::string line = lines[row];
    const std::size_t comma = line.find(',', line.find(',', line.find(',') + 1) + 1); // after run,repetition,iteration
    ASSERT_NE(comma, std::string::npos);
    line.insert(comma + 1, "1");
    std::string edited;
    for (std::size_t k = 0; k < lines.size(); ++k)
        edited += k == row ? line : lines[k];
    writeText(dir / "metrics.csv", edited);
    Json manifest = Json::parse(readText(dir / "manifest.json"));
    manifest["files"]["metrics.csv"]["bytes"] = edited.size();
    manifest["files"]["metrics.csv"]["sha256"] = sha256Hex(edited);
    writeText(dir / "manifest.json", manifest.dump(2) + "\n");

    auto plain = runCli("verify " + quotedPath(dir));
    EXPECT_EQ(plain.exitCode, 0) << "a forged record passes the digest check: " << plain.err;
    const std::size_t jobs = manifest["jobs"].size();
    auto rerun = runCli("verify " + quotedPath(dir) + " --rerun " + std::to_string(jobs));
    EXPECT_EQ(rerun.exitCode, 2) << rerun.out;
    EXPECT_EQ(lineCount(rerun.err), 1) << rerun.err;
    EXPECT_NE(rerun.err.find("metrics.csv:" + std::to_string(row + 1) + ": the rerun of job"), std::string::npos) << rerun.err;
    EXPECT_NE(rerun.err.find("differs"), std::string::npos) << rerun.err;
}

TEST_F(Integrity, AFolderWithoutDigestsIsFlaggedUnverified)
{
    for (int i = 1; i <= 3; ++i) { // as an older DPLab wrote them
        const fs::path file = mDir / ("s" + std::to_string(i)) / "manifest.json";
        Json manifest = Json::parse(readText(file));
        manifest.erase("files");
        manifest.erase("digest_algorithm");
        writeText(file, manifest.dump(2) + "\n");
    }
    auto v = runCli("verify " + quotedPath(mDir / "s2"));
    EXPECT_EQ(v.exitCode, 2);
    EXPECT_NE(v.err.find("s2: unverified: manifest.json records no digests"), std::string::npos) << v.err;
    auto m = merge();
    EXPECT_EQ(m.exitCode, 0) << m.err;
    EXPECT_EQ(lineCount(m.err), 3) << m.err; // one warning per shard
    EXPECT_NE(m.err.find("warning: " + (mDir / "s1").string() + ": unverified"), std::string::npos) << m.err;
    // The merge itself records digests again.
    EXPECT_EQ(runCli("verify " + quotedPath(mDir / "merged")).exitCode, 0);
}

TEST_F(Integrity, VerifyRejectsBadArguments)
{
    EXPECT_EQ(runCli("verify").exitCode, 2);
    EXPECT_EQ(runCli("verify " + quotedPath(mDir / "s1") + " --rerun 0").exitCode, 2);
    EXPECT_EQ(runCli("verify " + quotedPath(mDir / "s1") + " --bogus").exitCode, 2);
    auto none = runCli("verify " + quotedPath(mDir / "nothing-here"));
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("no such folder"), std::string::npos) << none.err;
}

TEST_F(Integrity, ReportFromRefusesADamagedFolder)
{
    if (!DPLAB_TEST_HAVE_UI)
        GTEST_SKIP() << "built without the UI";
    ASSERT_EQ(merge().exitCode, 0);
    const fs::path dir = mDir / "merged";
    const std::string text = readText(dir / "metrics.csv");
    writeText(dir / "metrics.csv", text.substr(0, text.rfind('\n', text.size() - 2) + 1)); // last row dropped
    auto r = runCli("report --from " + quotedPath(dir) + " --quiet");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("metrics.csv: truncated"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "report.html"));
    // Without digests (an older DPLab): reported, with a warning that nothing was verified.
    writeText(dir / "metrics.csv", text);
    Json manifest = Json::parse(readText(dir / "manifest.json"));
    manifest.erase("files");
    manifest.erase("digest_algorithm");
    writeText(dir / "manifest.json", manifest.dump(2) + "\n");
    auto old = runCli("report --from " + quotedPath(dir) + " --quiet");
    EXPECT_EQ(old.exitCode, 0) << old.err;
    EXPECT_NE(old.err.find("warning: " + dir.string() + ": unverified"), std::string::npos) << old.err;
    EXPECT_TRUE(fs::exists(dir / "report.html"));
}

} // namespace
} // namespace dplab::test
