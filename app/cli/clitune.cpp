// SPDX-License-Identifier: GPL-3.0-or-later
#include "clitune.h"

#include "cli.h"
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
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace dplab::cli {

const char *const kTuneUsage =
    "  dplab-cli tune EXPERIMENT.json --param PATH --range LO:HI [--log] --metric NAME [--epsilon E]\n"
    "                [--repetitions R] [--budget JOBS] [--seed S] [--iterations N] [--threads K] [--out DIR]\n"
    "                [--compare] [--quiet]\n";

namespace {

int invalid(const std::string &message)
{
    std::cerr << "dplab-cli: " << message << "\n";
    return InvalidInput;
}

int failed(const Error &error)
{
    std::cerr << "dplab-cli: " << error.toString() << "\n";
    return exitCodeOf(error);
}

Result<long long> wholeNumber(const std::string &text, const std::string &option, long long min)
{
    try {
        std::size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used == text.size() && v >= min)
            return v;
    } catch (...) {
    }
    return Error::invalid(option, "must be a whole number ≥ " + std::to_string(min) + ", got \"" + text + "\"");
}

Result<double> realNumber(const std::string &text, const std::string &option)
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
        std::fprintf(stderr, "\rtune: round %d, %lld of %lld jobs", p.round, p.jobs, p.budget);
        mShown = true;
    }
    void clear()
    {
        if (mShown) {
            std::cerr << "\r" << std::string(48, ' ') << "\r";
            mShown = false;
        }
    }

private:
    bool mShow;
    bool mShown = false;
};

class InterruptScope
{
public:
    explicit InterruptScope(OutputFolder *folder) { setInterruptTarget(folder); }
    ~InterruptScope() { setInterruptTarget(nullptr); }
    InterruptScope(const InterruptScope &) = delete;
    InterruptScope &operator=(const InterruptScope &) = delete;
};

} // namespace

int commandTune(int argc, char **argv)
{
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    bool quiet = false, logScale = false, compare = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quiet") {
            quiet = true;
        } else if (a == "--log") {
            logScale = true;
        } else if (a == "--compare") {
            compare = true;
        } else if (a == "--param" || a == "--range" || a == "--metric" || a == "--epsilon" || a == "--repetitions"
                   || a == "--budget" || a == "--seed" || a == "--iterations" || a == "--threads" || a == "--out") {
            if (i + 1 >= argc)
                return invalid(a + ": needs a value");
            options[a] = argv[++i];
        } else if (a.rfind("--", 0) == 0) {
            return invalid(a + ": unknown option");
        } else {
            positional.push_back(a);
        }
    }
    if (positional.size() != 1)
        return invalid("tune takes one experiment file\nusage:\n" + std::string(kTuneUsage));
    for (const char *required : {"--param", "--range", "--metric"})
        if (!options.count(required))
            return invalid(std::string("tune needs ") + required + " (dplab-cli tune --help shows every option)");

    TuneOptions tuneOptions;
    tuneOptions.parameter = options["--param"];
    tuneOptions.metric = options["--metric"];
    tuneOptions.logScale = logScale;
    tuneOptions.compare = compare;
    {
        const std::string range = options["--range"];
        const auto colon = range.find(':', 1); // from 1: a range may start with a minus sign
        if (colon == std::string::npos || range.find(':', colon + 1) != std::string::npos)
            return invalid("--range: must be LO:HI (e.g. 0.001:1), got \"" + range + "\"");
        auto lo = realNumber(range.substr(0, colon), "--range");
        if (!lo)
            return failed(lo.error());
        auto hi = realNumber(range.substr(colon + 1), "--range");
        if (!hi)
            return failed(hi.error());
        tuneOptions.lo = *lo;
        tuneOptions.hi = *hi;
    }
    if (options.count("--epsilon")) {
        auto e = realNumber(options["--epsilon"], "--epsilon");
        if (!e)
            return failed(e.error());
        if (!(*e > 0))
            return invalid("--epsilon: must be > 0, got " + options["--epsilon"]);
        tuneOptions.epsilon = *e;
    }
    if (options.count("--budget")) {
        auto b = wholeNumber(options["--budget"], "--budget", 1);
        if (!b)
            return failed(b.error());
        tuneOptions.budget = *b;
    }
    RunnerOptions runner;
    if (options.count("--threads")) {
        auto threads = wholeNumber(options["--threads"], "--threads", 0);
        if (!threads)
            return failed(threads.error());
        if (auto s = checkThreadCount(*threads, "--threads"); !s)
            return failed(s.error());
        runner.threads = static_cast<int>(*threads);
    }

    const std::string path = positional[0];
    auto doc = readJsonFile(path);
    if (!doc)
        return failed(doc.error());
    if (doc->is_object()) {
        for (const char *key : {"--seed", "--iterations", "--repetitions"}) {
            if (!options.count(key))
                continue;
            auto v = wholeNumber(options[key], key, std::string(key) == "--seed" ? 0 : 1);
            if (!v)
                return failed(v.error());
            (*doc)[std::string(key).substr(2)] = *v;
        }
    }
    auto inFile = [&](Error err) {
        if (err.where.rfind("--", 0) == 0) // an option's error names the option
            return err;
        if (err.code != ErrorCode::ParseError && err.where.find(path) != 0)
            err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
        return err;
    };
    auto experiment = parseExperiment(*doc, parentDir(path));
    if (!experiment)
        return failed(inFile(experiment.error()));
    if (auto s = checkTuneOptions(*experiment, tuneOptions); !s)
        return failed(inFile(s.error()));

    // The output folder is opened (created, locked, checked writable) before anything runs.
    std::unique_ptr<OutputFolder> folder;
    if (options.count("--out")) {
        const std::string dir = options["--out"];
        std::error_code ec;
        if (std::filesystem::equivalent(path, std::filesystem::path(dir) / "tuned.json", ec))
            return failed(Error::invalid("--out " + dir, "holds the experiment file as tuned.json: writing the "
                                                         "results there would replace it; choose another output folder"));
        OutputFolder::Options folderOptions;
        folderOptions.protect.push_back(path);
        folderOptions.replaceSet = false; // the tuning files join whatever else the folder holds
        auto opened = OutputFolder::open(dir, folderOptions);
        if (!opened) {
            Error err = opened.error();
            err.where = "--out " + err.where;
            return failed(err);
        }
        folder = std::move(*opened);
    }
    InterruptScope interruptScope(folder.get());

    const auto started = std::chrono::steady_clock::now();
    TuneObserver observer(quiet);
    auto result = tune(*experiment, tuneOptions, runner, &observer, nullptr,
                       [&](const TuneProgress &p) { observer.round(p); });
    observer.clear();
    if (!result)
        return failed(inFile(result.error()));

    // tuned.json must be an experiment `run` accepts.
    if (auto check = resolveExperiment(result->tuned, parentDir(path)); !check)
        return failed(Error::internal("tuned.json", "the tuned experiment does not resolve: " + check.error().toString()));

    if (folder) {
        for (const auto &[name, content] :
             std::vector<std::pair<std::string, std::string>>{{"tuning.csv", tuningCsv(*result)},
                                                              {"best.json", bestJson(*result).dump(2) + "\n"},
                                                              {"tuned.json", result->tuned.dump(2) + "\n"}})
            if (auto s = folder->write(name, content); !s)
                return failed(s.error());
        if (compare)
            if (auto s = folder->write("comparison.csv", comparisonCsv(*result)); !s)
                return failed(s.error());
        if (auto s = folder->commit(); !s)
            return failed(s.error());
    }
    std::cout << comparisonTable(*result) << std::flush;
    bool anyDiverged = false;
    for (const TunedRun &tr : result->runs)
        if (tr.tuned && !tr.bestCandidate()) {
            anyDiverged = true;
            std::cerr << "tune: " << indexPath("runs", tr.run) << " (" << tr.label << "): every candidate diverged\n";
        }
    if (!quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "tune: %lld of %lld jobs in %.2f s%s%s\n", result->jobs, result->budget, seconds,
                     folder ? ", wrote " : "", folder ? options["--out"].c_str() : "");
    }
    return anyDiverged ? Diverged : Success;
}

} // namespace dplab::cli
