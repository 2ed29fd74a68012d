// SPDX-License-Identifier: GPL-3.0-or-later
//
// An output folder written as a unit, so a folder never mixes two runs:
//
// - open() creates the folder when needed, refuses a path that is a file, refuses to overwrite
//   a protected input (the experiment file given to `run`), takes an exclusive lock (flock on
//   the hidden file `.dplab-lock` in it — a second process, or a second OutputFolder in this
//   one, is refused while the first lives; the kernel drops the lock when a process dies) and
//   creates a hidden staging folder inside it, which proves the folder is writable before any
//   work is done. Staging folders of killed processes are removed.
// - write() puts a file into the staging folder; nothing in the folder itself changes yet.
// - commit() installs the staged files. Replacing a set: the new summary marked `"incomplete":
//   true` is written into the staging folder (the commit's only write: a full disk stops it
//   here, with the previous set complete), then the old manifest.json goes, then that summary
//   is renamed over summary.json, then every other
//   file is renamed in and the outputs of a previous experiment that the new set lacks
//   (sweep.csv, trace.csv, report.*, …) are removed, then the final summary.json and the
//   manifest.json are renamed in, last. A process killed at any point leaves either the old
//   set untouched or a set whose summary.json says incomplete and which has no manifest.json —
//   and readers (merge, report --from, the GUI) require both a manifest and a complete summary.
// - abandon() (any thread, e.g. a signal watcher) removes the staging folder; after it no
//   commit happens. It waits for a commit in progress (renames only: milliseconds).
//
// Threading: one thread writes and commits; abandon() may be called from another thread.
#pragma once

#include "dplab/common/result.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dplab {

/** The file names DPLab writes into a results folder (a commit that replaces the set removes
 *  those the new set does not have). */
const std::vector<std::string> &resultFileNames();

class OutputFolder
{
public:
    struct Options {
        /** Files that must never be overwritten (the experiment file being run): a folder in
         *  which one of the result files would be one of these is refused. */
        std::vector<std::string> protect;
        /** true: the staged files form a new set replacing the old one (run, merge); false: they
         *  are added to the existing set (report --from). */
        bool replaceSet = true;
    };

    /** Opens (creates) `dir` for writing. Errors (code InvalidArgument, where = dir): not a
     *  folder, cannot be created or written, would overwrite a protected file, locked by
     *  another process. */
    static Result<std::unique_ptr<OutputFolder>> open(const std::string &dir, const Options &options);
    static Result<std::unique_ptr<OutputFolder>> open(const std::string &dir) { return open(dir, Options{}); }

    ~OutputFolder();
    OutputFolder(const OutputFolder &) = delete;
    OutputFolder &operator=(const OutputFolder &) = delete;

    const std::string &path() const { return mDir; }
    /** The hidden staging folder (for writers that write files themselves, e.g. the report). */
    const std::string &stagingPath() const { return mStaging; }

    /** Writes `name` (a plain file name) into the staging folder. */
    Status write(const std::string &name, const std::string &content);

    /** Installs every staged file (see the header comment). After an error the folder holds
     *  either the old set or a set marked incomplete, never a mix that readers accept. */
    Status commit();

    /** Drops the staged files and refuses any later commit. Returns false when the commit had
     *  already happened. Safe from another thread. */
    bool abandon();

private:
    OutputFolder() = default;
    Status installReplacingSet(const std::vector<std::string> &staged);

    std::string mDir;
    std::string mStaging;
    Options mOptions;
    int mLockFd = -1;
    std::mutex mMutex;
    std::atomic<bool> mDone{false}; ///< committed or abandoned
    bool mCommitted = false;        ///< guarded by mMutex
};

} // namespace dplab
