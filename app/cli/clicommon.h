// SPDX-License-Identifier: GPL-3.0-or-later
//
// What dplab-cli's subcommands share: the usage text, one option parser (positionals, flags and
// valued --options), the numbers options take, error lines on stderr with their exit codes
// (docs/architecture.md §8), an experiment read with its command-line overrides, the output
// folder and the console's progress.
//
// Threading: main thread; ConsoleObserver is called by the runner's workers one at a time.
#pragma once

#include "exitcodes.h"

#include "dplab/engine/experiment.h"
#include "dplab/engine/outputfolder.h"
#include "dplab/engine/runner.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dplab::cli {

/** The usage of the subcommands cli.cpp dispatches (frontier, tune and verify have their own). */
extern const char *const kUsage;

/** Prints "dplab-cli: MESSAGE" and the usage; returns InvalidInput. */
int usageError(const std::string &message);

/** Prints "dplab-cli: MESSAGE"; returns InvalidInput. */
int inputError(const std::string &message);

/** Prints "dplab-cli: " and the error; returns its exit code. */
int reportError(const Error &error);

/** Command-line arguments: positionals and --options (with or without values). */
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>> options;
    bool has(const std::string &key) const { return options.count(key) > 0; }
    /** The last value given for `key` ("" when absent). */
    std::string value(const std::string &key) const
    {
        auto it = options.find(key);
        return it == options.end() || it->second.empty() ? std::string() : it->second.back();
    }
};

/** Parses argv[first..]: `flags` take no value, `valued` take the next argument; anything else
 *  starting with "--" is an error naming it ("--x: unknown option", "--x: needs a value"). */
Result<Args> parseArgs(int argc, char **argv, int first, const std::vector<std::string> &flags,
                       const std::vector<std::string> &valued);

/** A whole number ≥ min, or an error naming `option`. */
Result<long long> parseInteger(const std::string &text, const std::string &option, long long min);

/** A finite number, or an error naming `option`. */
Result<double> parseReal(const std::string &text, const std::string &option);

/** --threads (0 = every core, at most 256), 0 when absent. */
Result<int> threadsOption(const Args &args);

/** Runner options with the threads of --threads (every core when absent). */
Result<RunnerOptions> runnerOptionsOf(const Args &args);

/** The resolve options of --threads, --max-memory and --trace (the memory limit also becomes the
 *  process default the data loaders check against). */
Result<ResolveOptions> resolveOptions(const Args &args);

/** Writes --seed, --iterations and --repetitions into an experiment document (an object). */
Status applyOverrides(Json &doc, const Args &args);

/** The overrides given on the command line, as the report mentions them. */
std::string overridesText(const Args &args);

/** `err` naming the experiment file first ("PATH: where: message"), unless it names an option
 *  or the file already. */
Error inExperimentFile(Error err, const std::string &path);

/** Reads an experiment, applies the overrides and resolves it (every sweep point, data headers,
 *  resource estimate against the limits); `build` also builds it (loads data). */
Result<Experiment> loadWithOverrides(const std::string &path, const Args &args, bool build = true);

/** Reads an experiment, applies the overrides and parses it (parseExperiment: resolved with the
 *  default options and built); errors name the file. */
Result<Experiment> parseWithOverrides(const std::string &path, const Args &args);

/** Opens --out for writing before anything runs (writable, not the experiment's own files,
 *  not locked by another process); exit-2 errors name --out. */
Result<std::unique_ptr<OutputFolder>> openOutputFolder(const std::string &dir, const std::string &experimentPath);

/** Seconds since `started`, for the closing line of a command. */
double secondsSince(std::chrono::steady_clock::time_point started);

/** A line of progress on stderr, redrawn in place ("\r" and the text) and wiped before any other
 *  output. */
class ProgressLine
{
public:
    explicit ProgressLine(int width) : mWidth(width) {}
    /** Redraws the line with `text`. */
    void show(const std::string &text);
    /** Wipes the line when it is shown. */
    void clear();

private:
    int mWidth;
    bool mShown = false;
};

/** Prints warnings and, on a terminal, a progress bar to stderr. */
class ConsoleObserver : public RunObserver
{
public:
    ConsoleObserver(const Experiment &experiment, bool quiet);
    void onStatus(const StatusEvent &e) override;
    void clearBar();

private:
    const Experiment &mExperiment;
    bool mQuiet;
    bool mTty;
    ProgressLine mBar{48};
    long long mLastPercent = -1;
};

} // namespace dplab::cli
