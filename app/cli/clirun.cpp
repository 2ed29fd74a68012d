// SPDX-License-Identifier: GPL-3.0-or-later
#include "clirun.h"

#include "clicommon.h"
#include "interrupt.h"

#ifdef DPLAB_CLI_REPORT
#include "clireport.h"
#endif

#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/engine/messagescsv.h"
#include "dplab/engine/reporttuning.h"
#include "dplab/engine/results.h"
#include "dplab/engine/writers.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace dplab::cli {

namespace {

/** Runs `experiment` with its warnings and a progress bar on stderr (none when `quiet`). */
Result<ExperimentResult> runOnConsole(const Experiment &experiment, const RunnerOptions &options, bool quiet)
{
    ConsoleObserver observer(experiment, quiet);
    auto result = Runner(options).run(experiment, &observer);
    observer.clearBar();
    return result;
}

} // namespace

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
    const auto started = std::chrono::steady_clock::now();
    auto result = runOnConsole(*experiment, options, quiet);
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
        const double seconds = secondsSince(started);
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

#ifdef DPLAB_CLI_REPORT
namespace {

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
    if (!writeReport(argc, argv, (*folder)->stagingPath(), shared, sharedResult, "", *tuning, &error, &pages,
                     args.value("--plot-size"))) {
        std::cerr << "dplab-cli: " << error << "\n";
        return InvalidInput; // the report could not be written to --out
    }
    if (auto s = (*folder)->commit(); !s)
        return reportError(s.error());
    if (!args.has("--quiet")) {
        const double seconds = secondsSince(started);
        std::fprintf(stderr, "wrote %s/report.html and report.pdf (%d pages) in %.2f s\n", dir.c_str(), pages, seconds);
    }
    return Success;
}
} // namespace
#endif

int commandReport(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--quiet"},
                          {"--out", "--seed", "--iterations", "--repetitions", "--threads", "--max-memory", "--from",
                           "--tuning", "--plot-size"});
    if (!args)
        return usageError(args.error().toString());
    if (args->has("--plot-size")) {
        const std::string size = args->value("--plot-size");
        if (size != "single" && size != "double" && size != "slide")
            return usageError("--plot-size " + size + ": must be single, double or slide (the plot export presets)");
    }
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
    const auto started = std::chrono::steady_clock::now();
    auto shared = std::make_shared<const Experiment>(std::move(*experiment));
    auto result = runOnConsole(*shared, options, quiet);
    if (!result)
        return reportError(result.error());
    if (auto s = stageRunOutputs(**folder, *shared, *result, false); !s)
        return reportError(s.error());
    auto sharedResult = std::make_shared<const ExperimentResult>(std::move(*result));
    std::string error;
    int pages = 0;
    if (!writeReport(argc, argv, (*folder)->stagingPath(), shared, sharedResult, overridesText(*args), *tuning, &error,
                     &pages, args->value("--plot-size"))) {
        std::cerr << "dplab-cli: " << error << "\n";
        return InvalidInput; // the report could not be written to --out
    }
    if (auto s = (*folder)->commit(); !s)
        return reportError(s.error());
    if (!quiet) {
        const double seconds = secondsSince(started);
        std::fprintf(stderr, "wrote %s/report.html and report.pdf (%d pages) in %.2f s\n", dir.c_str(), pages, seconds);
    }
    return sharedResult->diverged() ? Diverged : Success;
#endif
}

} // namespace dplab::cli
