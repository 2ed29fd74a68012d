// SPDX-License-Identifier: GPL-3.0-or-later
#include "clifrontier.h"

#include "cli.h"

#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/teaching/frontier.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace dplab::cli {

const char *const kFrontierUsage =
    "  dplab-cli frontier EXPERIMENT.json --epsilons E1,E2,...|FROM:TO:COUNT --out DIR [--repetitions R] [--seed S]\n"
    "                     [--iterations N] [--threads K] [--quiet]\n";

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

/** Progress on a terminal; warnings and divergence always (unless --quiet). */
class FrontierObserver : public RunObserver
{
public:
    FrontierObserver(bool quiet, int points) : mQuiet(quiet), mTty(::isatty(2) != 0), mPoints(points) {}
    void nextPoint(double epsilon)
    {
        ++mPoint;
        mEpsilon = epsilon;
        mLastPercent = -1;
    }
    void onStatus(const StatusEvent &e) override
    {
        if (mQuiet)
            return;
        if (e.kind == StatusEvent::Kind::Diverged) {
            clear();
            std::cerr << "ε = " << mEpsilon << ": runs[" << e.run << "] repetition " << e.repetition
                      << " diverged at iteration " << e.iteration << "\n";
        } else if (e.kind == StatusEvent::Kind::Progress && mTty && e.total > 0) {
            const long long percent = 100 * e.done / e.total;
            if (percent == mLastPercent)
                return;
            mLastPercent = percent;
            std::fprintf(stderr, "\rε %d/%d (%g): %3lld%%", mPoint, mPoints, mEpsilon, percent);
            mShown = true;
        }
    }
    void clear()
    {
        if (mShown) {
            std::cerr << "\r" << std::string(40, ' ') << "\r";
            mShown = false;
        }
    }

private:
    bool mQuiet, mTty;
    int mPoints;
    int mPoint = 0;
    double mEpsilon = 0;
    long long mLastPercent = -1;
    bool mShown = false;
};

} // namespace

int commandFrontier(int argc, char **argv)
{
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    bool quiet = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quiet") {
            quiet = true;
        } else if (a == "--epsilons" || a == "--out" || a == "--repetitions" || a == "--seed" || a == "--iterations"
                   || a == "--threads") {
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
        return invalid("frontier takes one experiment file\nusage:\n" + std::string(kFrontierUsage));
    if (!options.count("--epsilons"))
        return invalid("frontier needs --epsilons (a list 0.1,1,10 or a log-spaced range 0.1:100:7)");
    if (!options.count("--out"))
        return invalid("frontier needs --out DIR");
    const std::string path = positional[0];
    auto epsilons = parseEpsilonList(options["--epsilons"], "--epsilons");
    if (!epsilons)
        return failed(epsilons.error());

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
    auto experiment = parseExperiment(*doc, parentDir(path));
    if (!experiment) {
        Error err = experiment.error();
        if (err.code != ErrorCode::ParseError)
            err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
        return failed(err);
    }
    RunnerOptions runner;
    if (options.count("--threads")) {
        auto threads = wholeNumber(options["--threads"], "--threads", 1);
        if (!threads)
            return failed(threads.error());
        runner.threads = static_cast<int>(*threads);
    }

    const auto started = std::chrono::steady_clock::now();
    FrontierObserver observer(quiet, static_cast<int>(epsilons->size()));
    FrontierResult result;
    for (std::size_t k = 0; k < epsilons->size(); ++k) {
        observer.nextPoint((*epsilons)[k]);
        auto point = runFrontier(*experiment, {(*epsilons)[k]}, runner, &observer);
        if (!point) {
            observer.clear();
            Error err = point.error();
            err.where = path + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
            return failed(err);
        }
        if (k == 0) {
            result.metrics = point->metrics;
            result.skipped = point->skipped;
        }
        result.epsilons.push_back((*epsilons)[k]);
        for (auto &row : point->rows)
            result.rows.push_back(std::move(row));
    }
    observer.clear();
    // Rows by run, then ε (each point came back in run order).
    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [](const FrontierRow &a, const FrontierRow &b) { return a.run < b.run; });
    if (!quiet)
        for (const auto &message : result.skipped)
            std::cerr << "frontier: " << message << "\n";

    const std::string dir = options["--out"];
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return failed(Error::io(dir, "cannot create the folder: " + ec.message()));
    if (auto s = writeFileAtomic((std::filesystem::path(dir) / "frontier.csv").string(), frontierCsv(result)); !s)
        return failed(s.error());
    if (auto s = writeFileAtomic((std::filesystem::path(dir) / "experiment.json").string(),
                                 experiment->resolved.dump(2) + "\n");
        !s)
        return failed(s.error());
    if (!quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "wrote %s/frontier.csv (%zu point(s), %zu ε value(s)) in %.2f s\n", dir.c_str(),
                     result.rows.size(), epsilons->size(), seconds);
    }
    return result.diverged() ? Diverged : Success;
}

} // namespace dplab::cli
