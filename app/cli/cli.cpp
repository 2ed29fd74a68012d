// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "clifrontier.h"
#include "clitune.h"
#include "cliverify.h"
#include "interrupt.h"

#ifdef DPLAB_CLI_REPORT
#include "clireport.h"
#endif

#include "dplab/algo/algorithm.h"
#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/common/numberformat.h"
#include "dplab/compress/compressor.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/messagescsv.h"
#include "dplab/engine/outputfolder.h"
#include "dplab/engine/reporttuning.h"
#include "dplab/engine/results.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/problem.h"
#include "dplab/teaching/theory.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>
#include <string>
#include <vector>

#include <unistd.h>

namespace dplab::cli {

namespace {

const char *const kUsage =
    "usage:\n"
    "  dplab-cli run EXPERIMENT.json --out DIR [--shard I/N] [--seed S] [--iterations N] [--repetitions R] [--trace]\n"
    "                [--messages [--messages-iterations N]] [--threads K] [--max-memory SIZE] [--quiet]\n"
    "  dplab-cli merge DIR... --out DIR [--quiet]\n"
    "  dplab-cli verify RESULTS_DIR [--rerun K] [--threads T] [--max-memory SIZE]\n"
    "  dplab-cli validate EXPERIMENT.json [--deep] [--max-memory SIZE]\n"
    "  dplab-cli report EXPERIMENT.json --out DIR [--seed S] [--iterations N] [--repetitions R] [--threads K] [--max-memory SIZE] [--tuning TUNE_DIR] [--quiet]\n"
    "  dplab-cli report --from RESULTS_DIR [--out DIR] [--tuning TUNE_DIR] [--quiet]\n"
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

} // namespace

namespace {

int reportError(const Error &error)
{
    std::cerr << "dplab-cli: " << error.toString() << "\n";
    return exitCodeOf(error);
}

/** Command-line arguments: positionals and --options (with or without values). */
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>> options;
    bool has(const std::string &key) const { return options.count(key) > 0; }
    std::string value(const std::string &key) const
    {
        auto it = options.find(key);
        return it == options.end() || it->second.empty() ? std::string() : it->second.back();
    }
};

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

/** The resolve options of --threads, --max-memory and --trace (the memory limit also becomes the
 *  process default the data loaders check against). */
Result<ResolveOptions> resolveOptions(const Args &args)
{
    ResolveOptions options;
    options.trace = args.has("--trace");
    if (args.has("--threads")) {
        auto threads = parseInteger(args.value("--threads"), "--threads", 0);
        if (!threads)
            return threads.error();
        if (auto s = checkThreadCount(*threads, "--threads"); !s)
            return s.error();
        options.threads = static_cast<int>(*threads);
    }
    if (args.has("--max-memory")) {
        auto bytes = parseByteSize(args.value("--max-memory"), "--max-memory");
        if (!bytes)
            return bytes.error();
        options.limits.maxMemoryBytes = *bytes;
        ResourceLimits::setDefaultMemoryLimit(*bytes);
    }
    return options;
}

/** Reads an experiment, applies --seed / --iterations / --repetitions overrides and resolves it
 *  (every sweep point, data headers, resource estimate against the limits); `build` also builds
 *  it (loads data). */
Result<Experiment> loadWithOverrides(const std::string &path, const Args &args, bool build = true)
{
    auto options = resolveOptions(args);
    if (!options)
        return options.error();
    auto doc = readJsonFile(path);
    if (!doc)
        return doc.error();
    if (doc->is_object()) {
        if (args.has("--seed")) {
            auto seed = parseInteger(args.value("--seed"), "--seed", 0);
            if (!seed)
                return seed.error();
            (*doc)["seed"] = static_cast<std::uint64_t>(*seed);
        }
        if (args.has("--iterations")) {
            auto iterations = parseInteger(args.value("--iterations"), "--iterations", 1);
            if (!iterations)
                return iterations.error();
            (*doc)["iterations"] = *iterations;
        }
        if (args.has("--repetitions")) {
            auto repetitions = parseInteger(args.value("--repetitions"), "--repetitions", 1);
            if (!repetitions)
                return repetitions.error();
            (*doc)["repetitions"] = *repetitions;
        }
    }
    auto inFile = [&](Error err) {
        if (err.where.find(path) != 0) // every message names the experiment file first
            err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
        return err;
    };
    auto e = resolveExperiment(*doc, parentDir(path), *options);
    if (!e)
        return inFile(e.error());
    if (build)
        if (auto s = buildExperiment(*e); !s)
            return inFile(s.error());
    return e;
}

/** Prints warnings and, on a terminal, a progress bar to stderr. */
class ConsoleObserver : public RunObserver
{
public:
    ConsoleObserver(const Experiment &experiment, bool quiet)
        : mExperiment(experiment), mQuiet(quiet), mTty(::isatty(2) != 0)
    {
    }
    void onStatus(const StatusEvent &e) override
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
                std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
                          << (100 * e.done / e.total) << "%" << std::flush;
                mBarShown = true;
            }
            break;
        default:
            break;
        }
    }
    void clearBar()
    {
        if (mBarShown) {
            std::cerr << "\r" << std::string(48, ' ') << "\r";
            mBarShown = false;
        }
    }

private:
    const Experiment &mExperiment;
    bool mQuiet;
    bool mTty;
    bool mBarShown = false;
    long long mLastPercent = -1;
};

/** Opens --out for writing before anything runs (writable, not the experiment's own files,
 *  not locked by another process); exit-2 errors name --out. */
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

/** Points the SIGINT/SIGTERM watcher at a folder for as long as it lives. */
class InterruptTarget
{
public:
    explicit InterruptTarget(OutputFolder *folder) { setInterruptTarget(folder); }
    ~InterruptTarget() { setInterruptTarget(nullptr); }
    InterruptTarget(const InterruptTarget &) = delete;
    InterruptTarget &operator=(const InterruptTarget &) = delete;
};

int commandRun(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--trace", "--quiet", "--messages"},
                          {"--out", "--seed", "--iterations", "--repetitions", "--threads", "--max-memory", "--shard",
                           "--messages-iterations"});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("run takes one experiment file");
    if (!args->has("--out"))
        return usageError("run needs --out DIR");
    RunnerOptions options;
    options.trace = args->has("--trace");
    {
        auto resolve = resolveOptions(*args);
        if (!resolve)
            return reportError(resolve.error());
        options.threads = resolve->threads;
    }
    if (args->has("--shard")) {
        auto shard = parseShard(args->value("--shard"), "--shard");
        if (!shard)
            return reportError(shard.error());
        options.shard = *shard;
    }
    long long messageIterations = 0; // --messages: the first N iterations' messages
    if (args->has("--messages-iterations") && !args->has("--messages"))
        return usageError("--messages-iterations needs --messages");
    if (args->has("--messages")) {
        messageIterations = kDefaultMessageIterations;
        if (args->has("--messages-iterations")) {
            auto n = parseInteger(args->value("--messages-iterations"), "--messages-iterations", 1);
            if (!n)
                return reportError(n.error());
            messageIterations = *n;
        }
        options.messages = messageRecording(messageIterations);
    }
    auto experiment = loadWithOverrides(args->positional[0], *args);
    if (!experiment)
        return reportError(experiment.error());
    if (messageIterations > 0) { // the recorded messages count against the memory limit, like traces
        const ResourceItem item = estimateMessageBytes(*experiment, messageIterations, "--messages-iterations");
        experiment->resources.add(item.what, item.path, item.bytes);
        if (auto s = checkResources(experiment->resources, ResourceLimits{}); !s)
            return reportError(s.error());
    }
    auto folder = openOutputFolder(args->value("--out"), args->positional[0]);
    if (!folder)
        return reportError(folder.error());
    InterruptTarget target(folder->get());
    const bool quiet = args->has("--quiet");
    ConsoleObserver observer(*experiment, quiet);
    const auto started = std::chrono::steady_clock::now();
    auto result = Runner(options).run(*experiment, &observer);
    observer.clearBar();
    if (!result)
        return reportError(result.error());
    std::vector<std::pair<std::string, std::string>> extra;
    if (messageIterations > 0) {
        auto messages = messagesCsv(*experiment, *result);
        if (!messages)
            return reportError(messages.error());
        extra.emplace_back("messages.csv", std::move(*messages));
    }
    if (auto s = stageRunOutputs(**folder, *experiment, *result, options.trace, extra); !s)
        return reportError(s.error());
    if (auto s = (*folder)->commit(); !s)
        return reportError(s.error());
    if (!quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::size_t jobs = 0;
        for (std::size_t k = 0; k < result->jobs.size(); ++k)
            jobs += options.shard.contains(k) ? 1 : 0;
        const std::string part = options.shard.whole() ? std::string()
                                                        : " shard " + args->value("--shard") + ": " + std::to_string(jobs)
                                                              + " of " + std::to_string(result->jobs.size()) + " jobs,";
        std::fprintf(stderr, "wrote %s (%s%zu run(s) × %d repetition(s), %lld iterations) in %.2f s\n",
                     args->value("--out").c_str(), part.c_str(), experiment->runs.size(), experiment->repetitions,
                     experiment->iterations, seconds);
    }
    return result->diverged() ? Diverged : Success;
}

int commandMerge(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--quiet"}, {"--out"});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.empty())
        return usageError("merge takes the shard folders");
    if (!args->has("--out"))
        return usageError("merge needs --out DIR");
    for (const auto &dir : args->positional) {
        std::error_code ec;
        if (std::filesystem::equivalent(dir, args->value("--out"), ec))
            return reportError(Error::invalid("--out " + dir, "is one of the shard folders; merge into another folder"));
    }
    auto folder = openOutputFolder(args->value("--out"), "");
    if (!folder)
        return reportError(folder.error());
    InterruptTarget target(folder->get());
    std::vector<ResultsFolder> shards;
    for (const auto &dir : args->positional) {
        auto shard = readResultsFolder(dir); // checks every file against its manifest first
        if (!shard)
            return reportError(shard.error());
        if (!shard->manifest.hasDigests())
            std::cerr << "warning: " << unverifiedNotice(dir) << "\n";
        shards.push_back(std::move(*shard));
    }
    for (const auto &shard : shards)
        if (shard.manifest.files.count("messages.csv")) {
            std::cerr << "note: " << shard.dir << "/messages.csv is not merged (verify checks it in the shard folder)\n";
            break;
        }
    auto merged = mergeResultsFolders(std::move(shards));
    if (!merged)
        return reportError(merged.error());
    if (auto s = stageRunOutputs(**folder, merged->experiment, merged->result, merged->manifest.trace); !s)
        return reportError(s.error());
    if (auto s = (*folder)->commit(); !s)
        return reportError(s.error());
    if (!args->has("--quiet"))
        std::fprintf(stderr, "merged %zu shard(s), %zu jobs, into %s\n", args->positional.size(),
                     merged->result.jobs.size(), args->value("--out").c_str());
    return merged->result.diverged() ? Diverged : Success;
}

/** The overrides given on the command line, as the report mentions them. */
std::string overridesText(const Args &args)
{
    std::string text;
    for (const char *key : {"--seed", "--iterations", "--repetitions"})
        if (args.has(key))
            text += (text.empty() ? "" : " ") + std::string(key) + " " + args.value(key);
    return text;
}

#ifdef DPLAB_CLI_REPORT
/** The tuning whose "Compare tuned" section the report shows: --tuning DIR's best.json (it must
 *  hold compared runs of this experiment), or for `report --from` without --tuning the results
 *  folder's own best.json when it has compared runs (`tune … --compare --out` into that folder).
 *  Null when there is none. */
Result<Json> reportTuning(const Args &args, const std::string &from, const Experiment &experiment)
{
    const bool given = args.has("--tuning");
    if (!given && from.empty())
        return Json();
    const std::string file = (std::filesystem::path(given ? args.value("--tuning") : from) / "best.json").string();
    std::error_code ec;
    if (!given && !std::filesystem::exists(file, ec))
        return Json();
    auto best = readJsonFile(file);
    if (!best) {
        Error err = best.error();
        err.where = given ? "--tuning " + err.where : err.where;
        return err;
    }
    if (!best->is_object() || !best->contains("comparisons")) {
        if (!given)
            return Json(); // a tuning without --compare: nothing to compare
        return Error::invalid("--tuning " + file, "has no comparisons: run `tune … --compare --out DIR` for the table");
    }
    if (best->contains("runs") && best->at("runs").is_object())
        for (auto it = best->at("runs").begin(); it != best->at("runs").end(); ++it)
            if (std::none_of(experiment.runs.begin(), experiment.runs.end(),
                             [&](const RunSpec &r) { return r.label == it.key(); }))
                return Error::invalid(std::string(given ? "--tuning " : "") + file,
                                      "tunes a run \"" + it.key() + "\" this experiment does not have");
    if (auto blocks = compareTunedBlocks(*best); !blocks) {
        Error err = blocks.error();
        err.where = file + ": " + err.where;
        return err;
    }
    return *best;
}

/** `report --from DIR`: the report of a results folder (a run or a merge), without running. */
int commandReportFrom(int argc, char **argv, const Args &args)
{
    const std::string from = args.value("--from");
    const std::string dir = args.has("--out") ? args.value("--out") : from;
    OutputFolder::Options options;
    options.replaceSet = false; // adds report.html and report.pdf to the set
    auto folder = OutputFolder::open(dir, options);
    if (!folder) {
        Error err = folder.error();
        err.where = (args.has("--out") ? "--out " : "--from ") + err.where;
        return reportError(err);
    }
    InterruptTarget target(folder->get());
    const auto started = std::chrono::steady_clock::now();
    auto results = readResultsFolder(from); // refuses a folder whose files fail verification
    if (!results)
        return reportError(results.error());
    if (!results->manifest.hasDigests())
        std::cerr << "warning: " << unverifiedNotice(from) << "\n";
    if (!results->manifest.shard.whole())
        return reportError(Error::invalid(from, "holds shard " + std::to_string(results->manifest.shard.index) + "/"
                                                    + std::to_string(results->manifest.shard.count)
                                                    + " only; merge the shards first (dplab-cli merge DIR... --out DIR)"));
    auto experiment = loadFolderExperiment(*results);
    if (!experiment)
        return reportError(experiment.error());
    auto tuning = reportTuning(args, from, *experiment);
    if (!tuning)
        return reportError(tuning.error());
    auto shared = std::make_shared<const Experiment>(std::move(*experiment));
    auto sharedResult = std::make_shared<const ExperimentResult>(std::move(results->result));
    std::string error;
    int pages = 0;
    if (!writeReport(argc, argv, (*folder)->stagingPath(), shared, sharedResult, "", *tuning, &error, &pages)) {
        std::cerr << "dplab-cli: " << error << "\n";
        return InvalidInput; // the report could not be written to --out
    }
    if (auto s = (*folder)->commit(); !s)
        return reportError(s.error());
    if (!args.has("--quiet")) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "wrote %s/report.html and report.pdf (%d pages) in %.2f s\n", dir.c_str(), pages, seconds);
    }
    return Success;
}
#endif

int commandReport(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--quiet"},
                          {"--out", "--seed", "--iterations", "--repetitions", "--threads", "--max-memory", "--from",
                           "--tuning"});
    if (!args)
        return usageError(args.error().toString());
    if (args->has("--from")) {
        if (!args->positional.empty())
            return usageError("report --from DIR takes no experiment file (it reports the results in DIR)");
        for (const char *key : {"--seed", "--iterations", "--repetitions", "--threads"})
            if (args->has(key))
                return usageError(std::string("report --from does not run anything: ") + key + " does not apply");
    } else {
        if (args->positional.size() != 1)
            return usageError("report takes one experiment file");
        if (!args->has("--out"))
            return usageError("report needs --out DIR");
    }
#ifndef DPLAB_CLI_REPORT
    std::cerr << "dplab-cli: report needs the UI library (this build has DPLAB_BUILD_UI=OFF)\n";
    return InvalidInput;
#else
    if (args->has("--from"))
        return commandReportFrom(argc, argv, *args);
    RunnerOptions options;
    {
        auto resolve = resolveOptions(*args);
        if (!resolve)
            return reportError(resolve.error());
        options.threads = resolve->threads;
    }
    auto experiment = loadWithOverrides(args->positional[0], *args);
    if (!experiment)
        return reportError(experiment.error());
    auto tuning = reportTuning(*args, std::string(), *experiment); // checked before anything runs
    if (!tuning)
        return reportError(tuning.error());
    const std::string dir = args->value("--out");
    auto folder = openOutputFolder(dir, args->positional[0]);
    if (!folder)
        return reportError(folder.error());
    InterruptTarget target(folder->get());
    const bool quiet = args->has("--quiet");
    ConsoleObserver observer(*experiment, quiet);
    const auto started = std::chrono::steady_clock::now();
    auto shared = std::make_shared<const Experiment>(std::move(*experiment));
    auto result = Runner(options).run(*shared, &observer);
    observer.clearBar();
    if (!result)
        return reportError(result.error());
    if (auto s = stageRunOutputs(**folder, *shared, *result, false); !s)
        return reportError(s.error());
    auto sharedResult = std::make_shared<const ExperimentResult>(std::move(*result));
    std::string error;
    int pages = 0;
    if (!writeReport(argc, argv, (*folder)->stagingPath(), shared, sharedResult, overridesText(*args), *tuning, &error,
                     &pages)) {
        std::cerr << "dplab-cli: " << error << "\n";
        return InvalidInput; // the report could not be written to --out
    }
    if (auto s = (*folder)->commit(); !s)
        return reportError(s.error());
    if (!quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "wrote %s/report.html and report.pdf (%d pages) in %.2f s\n", dir.c_str(), pages, seconds);
    }
    return sharedResult->diverged() ? Diverged : Success;
#endif
}

/** Prints the theorem-condition warnings of every run (they come from a reset algorithm, so the
 *  experiment must be built) and the steady-state bounds its papers state for it (the Theory
 *  tab's flat dashed lines). */
Status printWarnings(const std::string &file, const Experiment &experiment, const std::string &prefix)
{
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &spec = experiment.runs[r];
        const RunContext ctx = makeRunContext(experiment, static_cast<int>(r), 0);
        auto algorithm = spec.algorithm->create();
        if (Status s = algorithm->reset(ctx); !s) {
            Error err = s.error();
            err.where = file + ": " + prefix + joinPath(indexPath("runs", r), err.where);
            return err;
        }
        for (const auto &w : algorithm->warnings())
            std::cerr << "warning: " << prefix << "runs[" << r << "] (" << spec.label << "): " << w << "\n";
        for (const TheoryCurve &curve : theoryRates(spec, experiment.problem.get())) {
            if (!curve.level)
                continue;
            std::cout << "  theory: " << prefix << "runs[" << r << "] (" << spec.label << "): ";
            if (curve.why.empty())
                std::cout << curve.label << " on " << curve.metric;
            else
                std::cout << "no " << curve.label << ": " << curve.why;
            std::cout << " (" << curve.citation << ")\n";
        }
    }
    return {};
}

int commandValidate(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--deep"}, {"--max-memory", "--threads"});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("validate takes one experiment file");
    const std::string &file = args->positional[0];
    const bool deep = args->has("--deep");
    // Resolving checks every run and every sweep point, the data files' headers and the resource
    // estimate; --deep also loads the data (every point) and resets every algorithm.
    auto experiment = loadWithOverrides(file, *args, false);
    if (!experiment)
        return reportError(experiment.error());
    // Problems that read no data file and are small are built anyway: their theorem-condition
    // warnings cost nothing.
    const bool cheap = experiment->problemSpec.data.empty() && experiment->problemSpec.bytes <= 64.0 * (1 << 20);
    const bool build = deep || cheap;
    if (build)
        if (auto s = buildExperiment(*experiment); !s) {
            Error err = s.error();
            err.where = file + ": " + err.where;
            return reportError(err);
        }
    std::cout << file << ": ok (" << experiment->runs.size() << " run(s), " << experiment->graph.nodeCount()
              << " agents, dimension ";
    if (experiment->dimension() >= 0)
        std::cout << experiment->dimension();
    else
        std::cout << "set by the data";
    if (experiment->sweep)
        std::cout << ", " << experiment->sweep->values.size() << " sweep points";
    std::cout << ", estimated memory " << formatBytes(experiment->resources.totalBytes()) << ")\n";
    if (!build)
        std::cout << "  data not loaded: `validate --deep` loads it and checks every run's theorem conditions\n";
    if (build)
        if (auto s = printWarnings(file, *experiment, ""); !s)
            return reportError(s.error());
    if (deep && experiment->sweep) {
        for (std::size_t i = 0; i < experiment->sweep->values.size(); ++i) {
            auto point = experimentAtSweepValue(*experiment, experiment->sweep->values[i]);
            if (!point) {
                Error err = point.error();
                err.where = file + ": " + err.where;
                return reportError(err);
            }
            if (auto s = printWarnings(file, *point, indexPath("sweep.values", i) + ": "); !s)
                return reportError(s.error());
        }
    }
    return Success;
}

void printDescriptors(const std::string &what, const std::vector<Json> &items, bool json)
{
    if (json) {
        std::cout << Json(items).dump(2) << "\n";
        return;
    }
    for (const auto &item : items) {
        std::cout << item.at("id").get<std::string>() << "  —  " << item.at("name").get<std::string>() << "\n";
        if (item.contains("graph"))
            std::cout << "    graph: " << item.at("graph").get<std::string>() << "\n";
        if (!item.at("reference").get<std::string>().empty())
            std::cout << "    reference: " << item.at("reference").get<std::string>() << "\n";
        auto printParams = [](const Json &params, const char *title) {
            for (const auto &p : params)
                std::cout << "    " << title << p.at("key").get<std::string>()
                          << (p.value("optional", false) ? std::string(" (optional: absent or null = not set)")
                                                         : " (default " + p.at("default").dump() + ")")
                          << ": " << p.at("help").get<std::string>() << "\n";
        };
        printParams(item.at("params"), "");
        if (item.contains("privacy_params"))
            printParams(item.at("privacy_params"), "privacy.");
        if (item.contains("theory"))
            for (const auto &rate : item.at("theory"))
                std::cout << "    stated rate: " << rate.at("label").get<std::string>() << " for "
                          << rate.at("metric").get<std::string>() << " ("
                          << rate.at("citation").get<std::string>() << ")\n";
        if (item.contains("attack") && !item.at("attack").is_null())
            std::cout << "    eavesdropper: reconstructs an agent's gradients from its "
                      << item.at("attack").at("decision_channel").get<std::string>()
                      << (item.at("attack").contains("tracker_channel")
                              ? " and " + item.at("attack").at("tracker_channel").get<std::string>()
                              : std::string())
                      << " messages\n";
    }
    (void)what;
}

/** What an eavesdropper on one agent reconstructs (null: no attack modelled). */
Json attackSurfaceToJson(const AttackSurface &attack)
{
    switch (attack.kind) {
    case AttackSurface::Kind::None:
        return nullptr;
    case AttackSurface::Kind::DecisionStep:
        return Json{{"kind", "decision-step"}, {"decision_channel", attack.decisionChannel},
                    {"step_param", attack.stepParam}};
    case AttackSurface::Kind::TrackerDifference:
    case AttackSurface::Kind::StepInsideTracker:
        return Json{{"kind", attack.kind == AttackSurface::Kind::TrackerDifference ? "tracker-difference"
                                                                                     : "step-inside-tracker"},
                    {"decision_channel", attack.decisionChannel},
                    {"tracker_channel", attack.trackerChannel},
                    {"step_param", attack.stepParam}};
    }
    return nullptr;
}

/** A stated rate: the metric it overlays, its form and where the paper states it. */
Json theoryRateToJson(const TheoryRate &rate)
{
    Json j{{"metric", rate.metric}, {"label", rate.label}, {"citation", rate.citation}};
    if (rate.kind == TheoryRate::Kind::Power) {
        j["kind"] = "power";
        j["exponent"] = rate.exponent;
        if (!rate.scheduleParam.empty()) {
            j["schedule_param"] = rate.scheduleParam;
            j["schedule_factor"] = rate.scheduleFactor;
        }
    } else if (rate.kind == TheoryRate::Kind::Linear) {
        j["kind"] = "linear";
        j["rate_power"] = rate.ratePower;
    } else {
        j["kind"] = "level"; // evaluated per experiment: `validate` prints it
    }
    if (!rate.whenParam.empty())
        j["when"] = Json{{rate.whenParam, rate.whenValue}};
    return j;
}

int commandList(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--json"}, {});
    if (!args)
        return usageError(args.error().toString());
    if (args->positional.size() != 1)
        return usageError("list takes one of: algorithms, compressors, problems, generators, weights");
    const std::string what = args->positional[0];
    std::vector<Json> items;
    if (what == "algorithms") {
        for (const auto &d : algorithmRegistry()) {
            Json j = descriptorToJson(d);
            j["graph"] = graphKindName(d.graphKind);
            j["weights"] = d.weights == WeightNeeds::Doubly ? "doubly-stochastic W" : "row-stochastic R + column-stochastic C";
            Json privacy = Json::array();
            for (const auto &p : d.privacyParams)
                privacy.push_back(paramSpecToJson(p));
            j["privacy_params"] = privacy;
            j["accepts_compressor"] = d.acceptsCompressor;
            j["needs_online_problem"] = d.needsOnline;
            j["attack"] = attackSurfaceToJson(d.attack);
            Json theory = Json::array();
            for (const auto &rate : d.theory)
                theory.push_back(theoryRateToJson(rate));
            j["theory"] = theory;
            items.push_back(j);
        }
    } else if (what == "compressors" || what == "problems" || what == "generators" || what == "weights") {
        const auto &list = what == "compressors" ? compressorDescriptors()
                           : what == "problems"  ? problemDescriptors()
                           : what == "generators" ? generatorDescriptors()
                                                  : weightSchemeDescriptors();
        for (const auto &d : list)
            items.push_back(descriptorToJson(d));
    } else {
        return usageError("unknown list \"" + what + "\"");
    }
    printDescriptors(what, items, args->has("--json"));
    return Success;
}

Json matrixToJson(const Eigen::MatrixXd &m)
{
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        Json row = Json::array();
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row.push_back(m(i, j));
        rows.push_back(row);
    }
    return rows;
}

Json vectorToJson(const Eigen::VectorXd &v)
{
    Json out = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i)
        out.push_back(v[i]);
    return out;
}

Json weightFactsJson(const Eigen::MatrixXd &w)
{
    const WeightFacts f = analyseWeights(w);
    return Json{{"row_stochastic", f.rowStochastic}, {"column_stochastic", f.columnStochastic},
                {"symmetric", f.symmetric},          {"psd", f.psd},
                {"spectral_radius", f.spectralRadius}, {"sigma2", f.sigma2},
                {"spectral_gap", f.spectralGap},     {"consensus_rate", f.consensusRate}};
}

int commandGraph(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--json"}, {"--generator", "--nodes", "--weights", "--set", "--seed"});
    if (!args)
        return usageError(args.error().toString());
    if (!args->positional.empty() || !args->has("--generator"))
        return usageError("graph needs --generator TYPE");
    Json spec{{"type", args->value("--generator")}};
    if (args->has("--nodes")) {
        auto nodes = parseInteger(args->value("--nodes"), "--nodes", 1);
        if (!nodes)
            return reportError(nodes.error());
        spec["nodes"] = *nodes;
    }
    if (args->has("--seed")) {
        auto seed = parseInteger(args->value("--seed"), "--seed", 0);
        if (!seed)
            return reportError(seed.error());
        spec["seed"] = *seed;
    }
    if (args->has("--set")) {
        for (const auto &kv : args->options.at("--set")) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos)
                return usageError("--set takes KEY=VALUE, got \"" + kv + "\"");
            auto value = parseJson(kv.substr(eq + 1), "--set " + kv.substr(0, eq));
            spec[kv.substr(0, eq)] = value ? value.value() : Json(kv.substr(eq + 1));
        }
    }
    auto graph = generateGraph(spec, "--generator");
    if (!graph)
        return reportError(graph.error());
    const Connectivity conn = analyseConnectivity(*graph);
    Json out{{"generator", spec},
             {"nodes", graph->nodeCount()},
             {"edges", graph->edgeCount()},
             {"directed", graph->isDirected()},
             {"connected", conn.connected}};
    if (!conn.connected)
        out["connectivity"] = conn.message;
    Json edges = Json::array();
    for (const Edge &e : graph->edges())
        edges.push_back({e.from, e.to});
    out["edge_list"] = edges;

    const std::string scheme = args->has("--weights") ? args->value("--weights")
                               : graph->isDirected() ? "uniform"
                                                     : "metropolis";
    if (graph->isDirected()) {
        auto r = buildWeights(*graph, Json{{"scheme", scheme}}, WeightRole::Row, "--weights");
        if (!r)
            return reportError(r.error());
        auto c = buildWeights(*graph, Json{{"scheme", scheme}}, WeightRole::Column, "--weights");
        if (!c)
            return reportError(c.error());
        out["row"] = Json{{"scheme", scheme}, {"matrix", matrixToJson(*r)}, {"facts", weightFactsJson(*r)},
                          {"left_perron_vector", vectorToJson(leftPerronVector(*r))}};
        out["column"] = Json{{"scheme", scheme}, {"matrix", matrixToJson(*c)}, {"facts", weightFactsJson(*c)},
                             {"right_perron_vector", vectorToJson(rightPerronVector(*c))}};
    } else {
        auto w = buildWeights(*graph, Json{{"scheme", scheme}}, WeightRole::Doubly, "--weights");
        if (!w)
            return reportError(w.error());
        out["weights"] = Json{{"scheme", scheme}, {"matrix", matrixToJson(*w)}, {"facts", weightFactsJson(*w)}};
    }
    if (args->has("--json")) {
        std::cout << out.dump(2) << "\n";
        return Success;
    }
    std::cout << "graph: " << spec.dump() << "\n"
              << "nodes " << graph->nodeCount() << ", edges " << graph->edgeCount() << ", "
              << (graph->isDirected() ? "directed" : "undirected") << ", "
              << (conn.connected ? (graph->isDirected() ? "strongly connected" : "connected") : conn.message) << "\n";
    auto printMatrix = [](const std::string &title, const Json &block) {
        std::cout << title << " (" << block.at("scheme").get<std::string>() << "):\n";
        for (const auto &row : block.at("matrix")) {
            std::cout << " ";
            for (const auto &v : row) {
                char buf[32];
                std::snprintf(buf, sizeof buf, " %8.4f", v.get<double>());
                std::cout << buf;
            }
            std::cout << "\n";
        }
        const Json &f = block.at("facts");
        const double scale = std::max(1.0, f.at("spectral_radius").get<double>());
        std::cout << "  row-stochastic " << (f.at("row_stochastic").get<bool>() ? "yes" : "no") << ", column-stochastic "
                  << (f.at("column_stochastic").get<bool>() ? "yes" : "no") << ", symmetric "
                  << (f.at("symmetric").get<bool>() ? "yes" : "no") << ", PSD " << (f.at("psd").get<bool>() ? "yes" : "no")
                  << "\n  spectral radius " << f.at("spectral_radius").get<double>() << ", sigma2 "
                  << formatRounded(f.at("sigma2").get<double>(), 6, scale) << ", spectral gap "
                  << formatRounded(f.at("spectral_gap").get<double>(), 6, scale) << ", rho(W - 11^T/n) "
                  << formatRounded(f.at("consensus_rate").get<double>(), 6, scale) << "\n";
    };
    // The text is for people: round-off shows as 0 (the --json output keeps every digit).
    auto vectorText = [](const Json &v) {
        double scale = 0.0;
        for (const Json &x : v)
            scale = std::max(scale, std::fabs(x.get<double>()));
        std::string text = "[";
        for (const Json &x : v)
            text += (text.size() > 1 ? "," : "") + formatRounded(x.get<double>(), 6, scale);
        return text + "]";
    };
    if (out.contains("weights")) {
        printMatrix("W", out.at("weights"));
    } else {
        printMatrix("R", out.at("row"));
        std::cout << "  left Perron vector " << vectorText(out.at("row").at("left_perron_vector")) << "\n";
        printMatrix("C", out.at("column"));
        std::cout << "  right Perron vector " << vectorText(out.at("column").at("right_perron_vector")) << "\n";
    }
    return Success;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2)
        return usageError("no command");
    const std::string command = argv[1];
    if (command == "--version" || command == "-V" || command == "version") {
        std::cout << "dplab-cli " << DPLAB_VERSION << "\n";
        return Success;
    }
    // `dplab-cli COMMAND --help` (anywhere after the command) prints the usage and succeeds.
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--help" || a == "-h" || (k == 1 && a == "help")) {
            std::cout << kUsage << "and:\n" << kFrontierUsage << kTuneUsage;
            return Success;
        }
    }
    installInterruptHandling();
    try {
        if (command == "run")
            return commandRun(argc, argv);
        if (command == "merge")
            return commandMerge(argc, argv);
        if (command == "verify")
            return commandVerify(argc, argv);
        if (command == "validate")
            return commandValidate(argc, argv);
        if (command == "list")
            return commandList(argc, argv);
        if (command == "graph")
            return commandGraph(argc, argv);
        if (command == "report")
            return commandReport(argc, argv);
        if (command == "frontier")
            return commandFrontier(argc, argv);
        if (command == "tune")
            return commandTune(argc, argv);
    } catch (...) {
        std::string line;
        const int code = exitCodeOfException(std::current_exception(), &line);
        std::cerr << line << "\n";
        return code;
    }
    return usageError("unknown command \"" + command + "\"");
}

} // namespace dplab::cli
