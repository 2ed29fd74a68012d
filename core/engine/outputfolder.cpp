// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/outputfolder.h"

#include "dplab/common/files.h"
#include "dplab/common/params.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace dplab {

namespace fs = std::filesystem;

namespace {

const char *const kStagingPrefix = ".dplab-staging-";
const char *const kLockName = ".dplab-lock";

std::string errnoText(int err)
{
    return std::strerror(err);
}

void removeTree(const std::string &path)
{
    // A file created while the tree is removed makes the last rmdir fail: try again.
    for (int attempt = 0; attempt < 20; ++attempt) {
        std::error_code ec;
        fs::remove_all(path, ec);
        if (!fs::exists(path, ec))
            return;
    }
}

void syncFolder(const std::string &dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

const std::vector<std::string> &resultFileNames()
{
    static const std::vector<std::string> names = {
        "metrics.csv",  "summary.json", "experiment.json", "final_values.csv", "epsilon_per_agent.csv",
        "sweep.csv",    "trace.csv",    "messages.csv",    "frontier.csv",     "report.html",
        "report.pdf",
        "manifest.json"};
    return names;
}

Result<std::unique_ptr<OutputFolder>> OutputFolder::open(const std::string &dir, const Options &options)
{
    if (dir.empty())
        return Error::invalid("--out", "is empty");
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        return Error::invalid(dir, "is a file, not a folder");
    fs::create_directories(dir, ec);
    if (ec)
        return Error::invalid(dir, "cannot create the output folder: " + ec.message());
    for (const auto &input : options.protect)
        for (const auto &name : resultFileNames()) {
            std::error_code eq;
            if (fs::equivalent(input, fs::path(dir) / name, eq))
                return Error::invalid(dir, "is the folder of the experiment file " + input + ": writing the results there would replace it; choose another output folder");
        }

    std::unique_ptr<OutputFolder> folder(new OutputFolder);
    folder->mDir = dir;
    folder->mOptions = options;
    // The lock is a hidden file rather than the folder itself: on NFS, flock becomes a POSIX
    // lock, which needs a descriptor open for writing.
    const std::string lockPath = (fs::path(dir) / kLockName).string();
    folder->mLockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (folder->mLockFd < 0)
        return Error::invalid(dir, "cannot write into the output folder: " + errnoText(errno));
    if (::flock(folder->mLockFd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        if (err == EWOULDBLOCK)
            return Error::invalid(dir, "another DPLab process is writing results to this folder (it holds the folder's lock); wait for it to finish or choose another output folder");
        return Error::invalid(dir, "cannot lock the output folder: " + errnoText(err));
    }
    // We hold the lock: staging folders and temporaries found now belong to dead processes.
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        bool stale = name.rfind(kStagingPrefix, 0) == 0;
        for (const auto &out : resultFileNames())
            stale = stale || name.rfind("." + out + ".tmp-", 0) == 0;
        if (stale)
            removeTree(entry.path().string());
    }
    folder->mStaging = (fs::path(dir) / (kStagingPrefix + std::to_string(::getpid()))).string();
    fs::create_directory(folder->mStaging, ec);
    if (ec)
        return Error::invalid(dir, "cannot write into the output folder: " + ec.message());
    return folder;
}

OutputFolder::~OutputFolder()
{
    abandon();
    if (mLockFd >= 0)
        ::close(mLockFd); // releases the lock
}

Status OutputFolder::write(const std::string &name, const std::string &content)
{
    if (mDone)
        return Error::io((fs::path(mDir) / name).string(), "the output folder was abandoned");
    if (auto s = writeFileAtomic((fs::path(mStaging) / name).string(), content); !s)
        return Error::io((fs::path(mDir) / name).string(), s.error().message);
    return {};
}

bool OutputFolder::abandon()
{
    std::lock_guard lock(mMutex); // waits for a commit in progress
    mDone = true;
    if (!mStaging.empty())
        removeTree(mStaging);
    return !mCommitted;
}

Status OutputFolder::commit()
{
    std::lock_guard lock(mMutex);
    if (mDone)
        return Error::io(mDir, "the output folder was abandoned (interrupted)");
    std::vector<std::string> staged;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(mStaging, ec))
        if (entry.path().filename().string().rfind(".", 0) != 0) // not a writer's own temporary
            staged.push_back(entry.path().filename().string());
    if (ec)
        return Error::io(mStaging, "cannot list the staged results: " + ec.message());
    std::sort(staged.begin(), staged.end());
    Status s = mOptions.replaceSet ? installReplacingSet(staged) : Status{};
    if (s && !mOptions.replaceSet)
        for (const auto &name : staged)
            if (std::rename((fs::path(mStaging) / name).c_str(), (fs::path(mDir) / name).c_str()) != 0) {
                s = Error::io((fs::path(mDir) / name).string(), "cannot install: " + errnoText(errno));
                break;
            }
    syncFolder(mDir);
    mDone = true;
    mCommitted = true;
    removeTree(mStaging);
    return s;
}

Status OutputFolder::installReplacingSet(const std::vector<std::string> &staged)
{
    const auto inDir = [&](const std::string &name) { return (fs::path(mDir) / name).string(); };
    const auto inStaging = [&](const std::string &name) { return (fs::path(mStaging) / name).string(); };
    const bool hasSummary = std::find(staged.begin(), staged.end(), "summary.json") != staged.end();
    const bool hasManifest = std::find(staged.begin(), staged.end(), "manifest.json") != staged.end();
    std::error_code ec;

    // 0. Everything the commit writes is written before the previous set is touched: the summary
    //    marked incomplete goes into the staging folder first (a hidden name, not a result), so a
    //    full disk (or a file size limit) stops the commit while the previous set is complete.
    //    From here on only renames and removals follow, which need no new space.
    const std::string incomplete = inStaging(".summary-incomplete.json");
    if (hasSummary) {
        auto text = readFile(inStaging("summary.json"));
        if (!text)
            return text.error();
        auto summary = parseJson(*text, inStaging("summary.json"));
        if (!summary)
            return summary.error();
        (*summary)["incomplete"] = true;
        if (auto s = writeFileAtomic(incomplete, summary->dump(2) + "\n"); !s)
            return Error::io(inDir("summary.json"), s.error().message + " (the previous results are unchanged)");
    }
    // 1. From here on the folder is no complete set: no manifest, summary marked incomplete.
    fs::remove(inDir("manifest.json"), ec);
    if (ec)
        return Error::io(inDir("manifest.json"), "cannot remove the previous manifest: " + ec.message());
    if (hasSummary) {
        if (std::rename(incomplete.c_str(), inDir("summary.json").c_str()) != 0)
            return Error::io(inDir("summary.json"), "cannot install: " + errnoText(errno));
    } else {
        fs::remove(inDir("summary.json"), ec);
    }
    syncFolder(mDir);
    // 2. The files of the new set, and away with the previous experiment's extra outputs.
    for (const auto &name : staged) {
        if (name == "summary.json" || name == "manifest.json")
            continue;
        if (std::rename(inStaging(name).c_str(), inDir(name).c_str()) != 0)
            return Error::io(inDir(name), "cannot install: " + errnoText(errno));
    }
    for (const auto &name : resultFileNames())
        if (std::find(staged.begin(), staged.end(), name) == staged.end() && name != "summary.json") {
            fs::remove(inDir(name), ec);
            if (ec)
                return Error::io(inDir(name), "cannot remove the previous run's file: " + ec.message());
        }
    syncFolder(mDir);
    // 3. The complete summary, then the manifest: the set is complete.
    if (hasSummary && std::rename(inStaging("summary.json").c_str(), inDir("summary.json").c_str()) != 0)
        return Error::io(inDir("summary.json"), "cannot install: " + errnoText(errno));
    if (hasManifest) {
        syncFolder(mDir);
        if (std::rename(inStaging("manifest.json").c_str(), inDir("manifest.json").c_str()) != 0)
            return Error::io(inDir("manifest.json"), "cannot install: " + errnoText(errno));
    }
    return {};
}

} // namespace dplab
