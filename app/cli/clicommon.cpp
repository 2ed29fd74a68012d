// SPDX-License-Identifier: GPL-3.0-or-later
#include "clicommon.h"

#include "dplab/common/files.h"
#include "dplab/common/limits.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <stdexcept>

#include <unistd.h>

namespace dplab::cli {

const char *const kUsage =
    "usage:\n"
    "  dplab-cli run EXPERIMENT.json --out DIR [--shard I/N] [--seed S] [--iterations N] [--repetitions R] [--trace]\n"
    "                [--messages [--messages-iterations N]] [--threads K] [--max-memory SIZE] [--quiet]\n"
    "  dplab-cli merge DIR... --out DIR [--quiet]\n"
    "  dplab-cli verify RESULTS_DIR [--rerun K] [--threads T] [--max-memory SIZE]\n"
    "  dplab-cli validate EXPERIMENT.json [--deep] [--max-memory SIZE]\n"
    "  dplab-cli report EXPERIMENT.json --out DIR [--seed S] [--iterations N] [--repetitions R] [--threads K] [--max-memory SIZE]\n"
    "                   [--tuning TUNE_DIR] [--plot-size single|double|slide] [--quiet]\n"
    "  dplab-cli report --from RESULTS_DIR [--out DIR] [--tuning TUNE_DIR] [--plot-size single|double|slide] [--quiet]\n"
    "  dplab-cli list algorithms|compressors|problems|generators|weights [--json]\n"
    "  dplab-cli graph --generator TYPE --nodes N [--weights SCHEME] [--set KEY=VALUE]... [--json]\n"
    "  dplab-cli --version (or -V): prints the version\n"
    "exit codes: 0 success, 2 invalid input (including over a limit, unreadable or corrupt files), 3 a run diverged,\n"
    "            1 internal error (a bug), 130/143 interrupted by SIGINT/SIGTERM\n"
    "--max-memory SIZE (e.g. 16G, 512M) replaces the memory limit (default: min(8 GiB, 3/4 of the RAM));\n"
    "--threads K is at most 256 (0 = all cores)\n";

int usageError(const std::string &message)
{
    std::cerr << "dplab-cli: " << message << "\n" << kUsage;
    return InvalidInput;
}

int inputError(const std::string &message)
{
    std::cerr << "dplab-cli: " << message << "\n";
    return InvalidInput;
}

int reportError(const Error &error)
{
    std::cerr << "dplab-cli: " << error.toString() << "\n";
    return exitCodeOf(error);
}

Result<Args> parseArgs(int argc, char **argv, int first, const std::vector<std::string> &flags,
                       const std::vector<std::string> &valued)
{
    Args args;
    for (int i = first; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--", 0) == 0) {
            if (std::find(flags.begin(), flags.end(), a) != flags.end()) {
                args.options[a];
            } else if (std::find(valued.begin(), valued.end(), a) != valued.end()) {
                if (i + 1 >= argc)
                    return Error::invalid(a, "needs a value");
                args.options[a].push_back(argv[++i]);
            } else {
                return Error::invalid(a, "unknown option");
            }
        } else {
            args.positional.push_back(a);
        }
    }
    return args;
}

Result<long long> parseInteger(const std::string &text, const std::string &option, long long min)
{
    try {
        std::size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used != text.size() || v < min)
            throw std::invalid_argument(text);
        return v;
    } catch (...) {
        return Error::invalid(option, "must be a whole number ≥ " + std::to_string(min) + ", got \"" + text + "\"");
    }
}

Result<double> parseReal(const std::string &text, const std::string &option)
{
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v))
            return v;
    } catch (...) {
    }
    return Error::invalid(option, "\"" + text + "\" is not a finite number");
}

Result<int> threadsOption(const Args &args)
{
    if (!args.has("--threads"))
        return 0;
    auto threads = parseInteger(args.value("--threads"), "--threads", 0);
    if (!threads)
        return threads.error();
    if (auto s = checkThreadCount(*threads, "--threads"); !s)
        return s.error();
    return static_cast<int>(*threads);
}

Result<RunnerOptions> runnerOptionsOf(const Args &args)
{
    auto threads = threadsOption(args);
    if (!threads)
        return threads.error();
    RunnerOptions runner;
    runner.threads = *threads;
    return runner;
}

Result<ResolveOptions> resolveOptions(const Args &args)
{
    ResolveOptions options;
    options.trace = args.has("--trace");
    auto threads = threadsOption(args);
    if (!threads)
        return threads.error();
    options.threads = *threads;
    if (args.has("--max-memory")) {
        auto bytes = parseByteSize(args.value("--max-memory"), "--max-memory");
        if (!bytes)
            return bytes.error();
        options.limits.maxMemoryBytes = *bytes;
        ResourceLimits::setDefaultMemoryLimit(*bytes);
    }
    return options;
}

Status applyOverrides(Json &doc, const Args &args)
{
    if (!doc.is_object())
        return {};
    if (args.has("--seed")) {
        auto seed = parseInteger(args.value("--seed"), "--seed", 0);
        if (!seed)
            return seed.error();
        doc["seed"] = static_cast<std::uint64_t>(*seed);
    }
    for (const char *key : {"--iterations", "--repetitions"}) {
        if (!args.has(key))
            continue;
        auto v = parseInteger(args.value(key), key, 1);
        if (!v)
            return v.error();
        doc[std::string(key).substr(2)] = *v;
    }
    return {};
}

std::string overridesText(const Args &args)
{
    std::string text;
    for (const char *key : {"--seed", "--iterations", "--repetitions"})
        if (args.has(key))
            text += (text.empty() ? "" : " ") + std::string(key) + " " + args.value(key);
    return text;
}

Error inExperimentFile(Error err, const std::string &path)
{
    if (err.where.rfind("--", 0) == 0) // an option's error names the option
        return err;
    if (err.where.find(path) != 0) // every message names the experiment file first
        err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
    return err;
}

Result<Experiment> loadWithOverrides(const std::string &path, const Args &args, bool build)
{
    auto options = resolveOptions(args);
    if (!options)
        return options.error();
    auto doc = readJsonFile(path);
    if (!doc)
        return doc.error();
    if (auto s = applyOverrides(*doc, args); !s)
        return s.error();
    auto e = resolveExperiment(*doc, parentDir(path), *options);
    if (!e)
        return inExperimentFile(e.error(), path);
    if (build)
        if (auto s = buildExperiment(*e); !s)
            return inExperimentFile(s.error(), path);
    return e;
}

Result<Experiment> parseWithOverrides(const std::string &path, const Args &args)
{
    auto doc = readJsonFile(path);
    if (!doc)
        return doc.error();
    if (auto s = applyOverrides(*doc, args); !s)
        return s.error();
    auto experiment = parseExperiment(*doc, parentDir(path));
    if (!experiment)
        return inExperimentFile(experiment.error(), path);
    return experiment;
}

Result<std::unique_ptr<OutputFolder>> openOutputFolder(const std::string &dir, const std::string &experimentPath)
{
    OutputFolder::Options options;
    if (!experimentPath.empty())
        options.protect.push_back(experimentPath);
    auto folder = OutputFolder::open(dir, options);
    if (!folder) {
        Error err = folder.error();
        err.where = "--out " + err.where;
        return err;
    }
    return folder;
}

double secondsSince(std::chrono::steady_clock::time_point started)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

ConsoleObserver::ConsoleObserver(const Experiment &experiment, bool quiet)
    : mExperiment(experiment), mQuiet(quiet), mTty(::isatty(2) != 0)
{
}

void ConsoleObserver::onStatus(const StatusEvent &e)
{
    if (mQuiet)
        return;
    const std::string label = e.run < static_cast<int>(mExperiment.runs.size()) ? mExperiment.runs[e.run].label : "";
    switch (e.kind) {
    case StatusEvent::Kind::Warning:
        clearBar();
        std::cerr << "warning: runs[" << e.run << "] (" << label << "): " << e.message << "\n";
        break;
    case StatusEvent::Kind::Diverged:
        clearBar();
        std::cerr << "runs[" << e.run << "] (" << label << "), repetition " << e.repetition << ": diverged at iteration "
                  << e.iteration << " (" << e.message << ")\n";
        break;
    case StatusEvent::Kind::Progress:
        if (mTty && e.total > 0 && 100 * e.done / e.total != mLastPercent) {
            mLastPercent = 100 * e.done / e.total; // redraw only when the percentage changes
            const int width = 40;
            const int filled = static_cast<int>(width * e.done / e.total);
            mBar.show("[" + std::string(filled, '#') + std::string(width - filled, ' ') + "] "
                      + std::to_string(100 * e.done / e.total) + "%");
        }
        break;
    default:
        break;
    }
}

void ConsoleObserver::clearBar()
{
    mBar.clear();
}

void ProgressLine::show(const std::string &text)
{
    std::cerr << "\r" << text << std::flush;
    mShown = true;
}

void ProgressLine::clear()
{
    if (mShown) {
        std::cerr << "\r" << std::string(mWidth, ' ') << "\r";
        mShown = false;
    }
}

} // namespace dplab::cli
