// SPDX-License-Identifier: GPL-3.0-or-later
// OutputFolder: a results folder written as one set — lock, protected input, staging, commit
// order (incomplete marker, stale outputs removed, manifest last), abandon.
#include "dplab/common/files.h"
#include "dplab/engine/outputfolder.h"

#include "../common/tempdir.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dplab {
namespace {

namespace fs = std::filesystem;

class Folder : public ::testing::Test
{
protected:
    std::string dir() const { return (mTemp.path() / "out").string(); }
    std::string file(const std::string &name) const { return (mTemp.path() / "out" / name).string(); }
    static std::string read(const std::string &path) { return readFile(path).ok() ? *readFile(path) : std::string("<none>"); }
    static void stageSet(OutputFolder &f, const std::string &tag, bool sweep)
    {
        ASSERT_TRUE(f.write("metrics.csv", "metrics " + tag + "\n").ok());
        ASSERT_TRUE(f.write("summary.json", "{\"tag\": \"" + tag + "\"}\n").ok());
        if (sweep)
            ASSERT_TRUE(f.write("sweep.csv", "sweep " + tag + "\n").ok());
        ASSERT_TRUE(f.write("manifest.json", "{\"tag\": \"" + tag + "\"}\n").ok());
    }
    static std::vector<std::string> entries(const std::string &dir)
    {
        std::vector<std::string> names;
        for (const auto &e : fs::directory_iterator(dir))
            if (e.path().filename().string().front() != '.') // the lock file
                names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    test::TempDir mTemp;
};

TEST_F(Folder, CommitInstallsTheSetAndRemovesStaleOutputs)
{
    {
        auto f = OutputFolder::open(dir());
        ASSERT_TRUE(f.ok()) << f.error().toString();
        stageSet(**f, "one", true);
        ASSERT_TRUE((*f)->write("trace.csv", "trace\n").ok());
        // Nothing visible before the commit.
        EXPECT_EQ(read(file("metrics.csv")), "<none>");
        ASSERT_TRUE((*f)->commit().ok());
    }
    EXPECT_EQ(read(file("sweep.csv")), "sweep one\n");
    std::ofstream(file("notes.txt")) << "the user's own file\n";
    {
        auto f = OutputFolder::open(dir());
        ASSERT_TRUE(f.ok());
        stageSet(**f, "two", false);
        ASSERT_TRUE((*f)->commit().ok());
    }
    // The previous experiment's sweep.csv and trace.csv are gone; the user's file stays.
    EXPECT_EQ(entries(dir()), (std::vector<std::string>{"manifest.json", "metrics.csv", "notes.txt", "summary.json"}));
    EXPECT_EQ(read(file("summary.json")), "{\"tag\": \"two\"}\n");
}

TEST_F(Folder, ASecondWriterIsRefusedWhileTheFirstHoldsTheLock)
{
    auto first = OutputFolder::open(dir());
    ASSERT_TRUE(first.ok());
    auto second = OutputFolder::open(dir());
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(second.error().message.find("another DPLab process"), std::string::npos) << second.error().message;
    first->reset();
    EXPECT_TRUE(OutputFolder::open(dir()).ok());
}

TEST_F(Folder, RefusesToOverwriteTheInputExperiment)
{
    fs::create_directories(dir());
    std::ofstream(file("experiment.json")) << "{}";
    OutputFolder::Options options;
    options.protect = {file("experiment.json")};
    auto f = OutputFolder::open(dir(), options);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("would replace it"), std::string::npos) << f.error().message;
    // An input of another name in the same folder is no conflict.
    options.protect = {(mTemp.path() / "out" / "mine.json").string()};
    std::ofstream(options.protect[0]) << "{}";
    EXPECT_TRUE(OutputFolder::open(dir(), options).ok());
}

TEST_F(Folder, RefusesAFileAndAnUncreatableFolder)
{
    std::ofstream((mTemp.path() / "plain").string()) << "x";
    auto file = OutputFolder::open((mTemp.path() / "plain").string());
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.error().code, ErrorCode::InvalidArgument);
    auto under = OutputFolder::open((mTemp.path() / "plain" / "sub").string());
    ASSERT_FALSE(under.ok());
    EXPECT_EQ(under.error().code, ErrorCode::InvalidArgument);
}

TEST_F(Folder, AbandonKeepsThePreviousSet)
{
    {
        auto f = OutputFolder::open(dir());
        stageSet(**f, "old", true);
        ASSERT_TRUE((*f)->commit().ok());
    }
    const auto before = entries(dir());
    {
        auto f = OutputFolder::open(dir());
        stageSet(**f, "new", false);
        EXPECT_TRUE((*f)->abandon());
        EXPECT_FALSE((*f)->commit().ok());
    }
    EXPECT_EQ(entries(dir()), before);
    EXPECT_EQ(read(file("metrics.csv")), "metrics old\n");
    // Dropped without commit (e.g. an error return): same.
    {
        auto f = OutputFolder::open(dir());
        stageSet(**f, "dropped", false);
    }
    EXPECT_EQ(entries(dir()), before);
}

TEST_F(Folder, ACommitThatFailsHalfwayLeavesASetMarkedIncompleteWithoutManifest)
{
    {
        auto f = OutputFolder::open(dir());
        stageSet(**f, "old", false);
        ASSERT_TRUE((*f)->commit().ok());
    }
    // A non-empty folder named like a result file: renaming the new file over it fails.
    fs::create_directories(file("sweep.csv") + "/blocker");
    auto f = OutputFolder::open(dir());
    ASSERT_TRUE(f.ok());
    stageSet(**f, "new", true);
    auto s = (*f)->commit();
    ASSERT_FALSE(s.ok());
    EXPECT_FALSE(fs::exists(file("manifest.json")));
    auto summary = readJsonFile(file("summary.json"));
    ASSERT_TRUE(summary.ok());
    EXPECT_EQ((*summary)["incomplete"], true);
    EXPECT_EQ((*summary)["tag"], "new");
}

// A full disk during the commit: a child process with a file size limit (RLIMIT_FSIZE, the
// unprivileged stand-in for a small file system; SIGXFSZ ignored so writes fail with EFBIG)
// stages a new set, then commits with a limit that the staged files fit but the commit's own
// write (the summary marked incomplete) does not. The commit fails and the previous complete
// set is still there, manifest and all, byte for byte.
TEST_F(Folder, AFullDiskDuringTheCommitKeepsThePreviousCompleteSet)
{
    {
        auto f = OutputFolder::open(dir());
        ASSERT_TRUE(f.ok());
        stageSet(**f, "old", true);
        ASSERT_TRUE((*f)->commit().ok());
    }
    const auto before = entries(dir());
    std::map<std::string, std::string> contents;
    for (const auto &name : before)
        contents[name] = read(file(name));

    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        auto f = OutputFolder::open(dir());
        if (!f.ok())
            ::_exit(10);
        const std::string summary = "{\"tag\": \"new\", \"padding\": \"" + std::string(200, 'x') + "\"}\n";
        if (!(*f)->write("metrics.csv", "metrics new\n").ok() || !(*f)->write("summary.json", summary).ok()
            || !(*f)->write("manifest.json", "{\"tag\": \"new\"}\n").ok())
            ::_exit(11);
        // Room for every staged file, not for the summary marked incomplete (it is longer).
        const rlim_t limit = summary.size() + 4;
        const struct rlimit rl{limit, limit};
        if (::setrlimit(RLIMIT_FSIZE, &rl) != 0)
            ::_exit(12);
        const Status s = (*f)->commit();
        if (s.ok())
            ::_exit(13);
        ::_exit(s.error().message.find("File too large") != std::string::npos ? 0 : 14);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
    ASSERT_EQ(WEXITSTATUS(status), 0) << "10 open, 11 staging, 12 setrlimit, 13 commit succeeded, 14 other error";

    EXPECT_EQ(entries(dir()), before);
    for (const auto &name : before)
        EXPECT_EQ(read(file(name)), contents[name]) << name;
    EXPECT_EQ(read(file("manifest.json")), "{\"tag\": \"old\"}\n");
    // The next commit (space again) replaces the set as usual.
    auto f = OutputFolder::open(dir());
    ASSERT_TRUE(f.ok());
    stageSet(**f, "next", false);
    ASSERT_TRUE((*f)->commit().ok());
    EXPECT_EQ(read(file("manifest.json")), "{\"tag\": \"next\"}\n");
}

TEST_F(Folder, StagingLeftByAKilledProcessIsCleanedUp)
{
    fs::create_directories(dir() + "/.dplab-staging-999999");
    std::ofstream(dir() + "/.dplab-staging-999999/metrics.csv") << "half";
    std::ofstream(dir() + "/.metrics.csv.tmp-abc123") << "half";
    auto f = OutputFolder::open(dir());
    ASSERT_TRUE(f.ok());
    EXPECT_FALSE(fs::exists(dir() + "/.dplab-staging-999999"));
    EXPECT_FALSE(fs::exists(dir() + "/.metrics.csv.tmp-abc123"));
}

} // namespace
} // namespace dplab
