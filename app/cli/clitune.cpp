// SPDX-License-Identifier: GPL-3.0-or-later
#include "clitune.h"

#include "clicommon.h"
#include "interrupt.h"

#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/outputfolder.h"
#include "dplab/engine/tuning.h"
#include "dplab/engine/writers.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

namespace dplab::cli {

const char *const kTuneUsage =
    "  dplab-cli tune EXPERIMENT.json --param PATH --range LO:HI [--log] --metric NAME [--epsilon E]\n"
    "                [--repetitions R] [--budget JOBS] [--seed S] [--iterations N] [--threads K] [--out DIR]\n"
    "                [--compare] [--quiet]\n";

namespace {

/** Progress on a terminal (round and jobs of the budget); divergences of candidates are
 *  expected while searching and are not printed. */
class TuneObserver : public RunObserver
{
public:
    explicit TuneObserver(bool quiet) : mShow(!quiet && ::isatty(2) != 0) {}
    void onStatus(const StatusEvent &) override {}
    void round(const TuneProgress &p)
    {
        if (!mShow)
            return;
        char text[96];
        std::snprintf(text, sizeof text, "tune: round %d, %lld of %lld jobs", p.round, p.jobs, p.budget);
        mLine.show(text);
    }
    void clear() { mLine.clear(); }

private:
    bool mShow;
    ProgressLine mLine{48};
};

/** The tuning options of the command line (--param, --range, --metric, --log, --compare,
 *  --epsilon, --budget). */
Result<TuneOptions> tuneOptionsOf(const Args &args)
{
    TuneOptions tuneOptions;
    tuneOptions.parameter = args.value("--param");
    tuneOptions.metric = args.value("--metric");
    tuneOptions.logScale = args.has("--log");
    tuneOptions.compare = args.has("--compare");
    const std::string range = args.value("--range");
    const auto colon = range.find(':', 1); // from 1: a range may start with a minus sign
    if (colon == std::string::npos || range.find(':', colon + 1) != std::string::npos)
        return Error::invalid("--range", "must be LO:HI (e.g. 0.001:1), got \"" + range + "\"");
    auto lo = parseReal(range.substr(0, colon), "--range");
    if (!lo)
        return lo.error();
    auto hi = parseReal(range.substr(colon + 1), "--range");
    if (!hi)
        return hi.error();
    tuneOptions.lo = *lo;
    tuneOptions.hi = *hi;
    if (args.has("--epsilon")) {
        auto e = parseReal(args.value("--epsilon"), "--epsilon");
        if (!e)
            return e.error();
        if (!(*e > 0))
            return Error::invalid("--epsilon", "must be > 0, got " + args.value("--epsilon"));
        tuneOptions.epsilon = *e;
    }
    if (args.has("--budget")) {
        auto b = parseInteger(args.value("--budget"), "--budget", 1);
        if (!b)
            return b.error();
        tuneOptions.budget = *b;
    }
    return tuneOptions;
}

/** --out, opened (created, locked, checked writable) before anything runs; null without --out. */
Result<std::unique_ptr<OutputFolder>> openTuneFolder(const Args &args, const std::string &path)
{
    if (!args.has("--out"))
        return std::unique_ptr<OutputFolder>();
    const std::string dir = args.value("--out");
    std::error_code ec;
    if (std::filesystem::equivalent(path, std::filesystem::path(dir) / "tuned.json", ec))
        return Error::invalid("--out " + dir, "holds the experiment file as tuned.json: writing the "
                                              "results there would replace it; choose another output folder");
    OutputFolder::Options folderOptions;
    folderOptions.protect.push_back(path);
    folderOptions.replaceSet = false; // the tuning files join whatever else the folder holds
    auto opened = OutputFolder::open(dir, folderOptions);
    if (!opened) {
        Error err = opened.error();
        err.where = "--out " + err.where;
        return err;
    }
    return std::move(*opened);
}

/** tuning.csv, best.json, tuned.json and, with --compare, comparison.csv. */
Status writeTuneFiles(OutputFolder &folder, const TuneResult &result, bool compare)
{
    for (const auto &[name, content] :
         std::vector<std::pair<std::string, std::string>>{{"tuning.csv", tuningCsv(result)},
                                                          {"best.json", bestJson(result).dump(2) + "\n"},
                                                          {"tuned.json", result.tuned.dump(2) + "\n"}})
        if (auto s = folder.write(name, content); !s)
            return s.error();
    if (compare)
        if (auto s = folder.write("comparison.csv", comparisonCsv(result)); !s)
            return s.error();
    return folder.commit();
}

} // namespace

int commandTune(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--quiet", "--log", "--compare"},
                          {"--param", "--range", "--metric", "--epsilon", "--repetitions", "--budget", "--seed",
                           "--iterations", "--threads", "--out"});
    if (!args)
        return inputError(args.error().toString());
    const bool quiet = args->has("--quiet");
    if (args->positional.size() != 1)
        return inputError("tune takes one experiment file\nusage:\n" + std::string(kTuneUsage));
    for (const char *required : {"--param", "--range", "--metric"})
        if (!args->has(required))
            return inputError(std::string("tune needs ") + required + " (dplab-cli tune --help shows every option)");
    auto tuneOptions = tuneOptionsOf(*args);
    if (!tuneOptions)
        return reportError(tuneOptions.error());
    auto runner = runnerOptionsOf(*args);
    if (!runner)
        return reportError(runner.error());

    const std::string path = args->positional[0];
    auto experiment = parseWithOverrides(path, *args);
    if (!experiment)
        return reportError(experiment.error());
    if (auto s = checkTuneOptions(*experiment, *tuneOptions); !s)
        return reportError(inExperimentFile(s.error(), path));
    auto folder = openTuneFolder(*args, path);
    if (!folder)
        return reportError(folder.error());
    InterruptTarget interruptTarget(folder->get());

    const auto started = std::chrono::steady_clock::now();
    TuneObserver observer(quiet);
    auto result = tune(*experiment, *tuneOptions, *runner, &observer, nullptr,
                       [&](const TuneProgress &p) { observer.round(p); });
    observer.clear();
    if (!result)
        return reportError(inExperimentFile(result.error(), path));

    // tuned.json must be an experiment `run` accepts.
    if (auto check = resolveExperiment(result->tuned, parentDir(path)); !check)
        return reportError(Error::internal("tuned.json", "the tuned experiment does not resolve: " + check.error().toString()));
    if (*folder)
        if (auto s = writeTuneFiles(**folder, *result, tuneOptions->compare); !s)
            return reportError(s.error());
    std::cout << comparisonTable(*result) << std::flush;
    bool anyDiverged = false;
    for (const TunedRun &tr : result->runs)
        if (tr.tuned && !tr.bestCandidate()) {
            anyDiverged = true;
            std::cerr << "tune: " << indexPath("runs", tr.run) << " (" << tr.label << "): every candidate diverged\n";
        }
    if (!quiet)
        std::fprintf(stderr, "tune: %lld of %lld jobs in %.2f s%s%s\n", result->jobs, result->budget,
                     secondsSince(started), *folder ? ", wrote " : "", *folder ? args->value("--out").c_str() : "");
    return anyDiverged ? Diverged : Success;
}

} // namespace dplab::cli
