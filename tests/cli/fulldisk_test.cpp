// SPDX-License-Identifier: GPL-3.0-or-later
// A full disk while dplab-cli writes its results: the run ends with exit 2 and one line, and the
// folder keeps the previous complete set, byte for byte. The disk is simulated without mount
// privileges by a file size limit (RLIMIT_FSIZE) on a forked child, with SIGXFSZ ignored so a
// write beyond it fails with EFBIG as a full disk fails with ENOSPC. The commit's own write on a
// full disk is covered in tests/core/outputfolder_test.cpp.
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <map>

#include <sys/resource.h>

namespace dplab::test {
namespace {

namespace fs = std::filesystem;

/** dplab-cli `args` in a child whose files may grow to at most `limit` bytes; its exit code. */
int runWithFileSizeLimit(const std::vector<std::string> &args, rlim_t limit, const fs::path &log)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::signal(SIGXFSZ, SIG_IGN); // ignored signals stay ignored across exec
        const rlimit rl{limit, limit};
        if (::setrlimit(RLIMIT_FSIZE, &rl) != 0)
            ::_exit(126);
        execCli(args, log);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::map<std::string, std::string> folderContents(const fs::path &dir)
{
    std::map<std::string, std::string> out;
    for (const auto &entry : fs::directory_iterator(dir))
        out[entry.path().filename().string()] = entry.is_regular_file() ? readText(entry.path()) : "<folder>";
    return out;
}

TEST(FullDisk, ARunThatCannotWriteItsResultsKeepsThePreviousSet)
{
    TempDir dir;
    fs::copy_file(preset("teaching-push-pull-quadratic.json"), dir / "e.json");
    const std::string experiment = (dir / "e.json").string();
    const std::string out = (dir / "out").string();
    ASSERT_EQ(runCli("run " + quote(experiment) + " --iterations 20 --out " + quote(out) + " --quiet").exitCode, 0);
    const auto before = folderContents(out);
    ASSERT_TRUE(before.count("manifest.json") && before.count("summary.json") && before.count("metrics.csv"));

    // 3000 iterations give a metrics.csv far beyond 64 KiB; the first run's files are smaller.
    const fs::path log = dir / "log.txt";
    const int code = runWithFileSizeLimit({"run", experiment, "--iterations", "3000", "--out", out, "--quiet"}, 64 * 1024, log);
    const std::string err = readText(log);
    EXPECT_EQ(code, 2) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("File too large"), std::string::npos) << err;
    EXPECT_EQ(folderContents(out), before) << "the previous set changed";

    // With room again, the same run replaces the set.
    ASSERT_EQ(runCli("run " + quote(experiment) + " --iterations 3000 --out " + quote(out) + " --quiet").exitCode, 0);
    EXPECT_NE(readText(fs::path(out) / "metrics.csv"), before.at("metrics.csv"));
}

} // namespace
} // namespace dplab::test
