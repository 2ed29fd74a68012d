// SPDX-License-Identifier: GPL-3.0-or-later
#include "clifrontier.h"

#include "clicommon.h"

#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/teaching/frontier.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

namespace dplab::cli {

const char *const kFrontierUsage =
    "  dplab-cli frontier EXPERIMENT.json --epsilons E1,E2,...|FROM:TO:COUNT --out DIR [--repetitions R] [--seed S]\n"
    "                     [--iterations N] [--threads K] [--quiet]\n";

namespace {

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
            char text[80];
            std::snprintf(text, sizeof text, "ε %d/%d (%g): %3lld%%", mPoint, mPoints, mEpsilon, percent);
            mLine.show(text);
        }
    }
    void clear() { mLine.clear(); }

private:
    bool mQuiet, mTty;
    int mPoints;
    int mPoint = 0;
    double mEpsilon = 0;
    long long mLastPercent = -1;
    ProgressLine mLine{40};
};

} // namespace

int commandFrontier(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {"--quiet"},
                          {"--epsilons", "--out", "--repetitions", "--seed", "--iterations", "--threads"});
    if (!args)
        return inputError(args.error().toString());
    const bool quiet = args->has("--quiet");
    if (args->positional.size() != 1)
        return inputError("frontier takes one experiment file\nusage:\n" + std::string(kFrontierUsage));
    if (!args->has("--epsilons"))
        return inputError("frontier needs --epsilons (a list 0.1,1,10 or a log-spaced range 0.1:100:7)");
    if (!args->has("--out"))
        return inputError("frontier needs --out DIR");
    const std::string path = args->positional[0];
    auto epsilons = parseEpsilonList(args->value("--epsilons"), "--epsilons");
    if (!epsilons)
        return reportError(epsilons.error());

    auto experiment = parseWithOverrides(path, *args);
    if (!experiment)
        return reportError(experiment.error());
    auto runner = runnerOptionsOf(*args);
    if (!runner)
        return reportError(runner.error());

    const auto started = std::chrono::steady_clock::now();
    FrontierObserver observer(quiet, static_cast<int>(epsilons->size()));
    FrontierResult result;
    for (std::size_t k = 0; k < epsilons->size(); ++k) {
        observer.nextPoint((*epsilons)[k]);
        auto point = runFrontier(*experiment, {(*epsilons)[k]}, *runner, &observer);
        if (!point) {
            observer.clear();
            return reportError(inExperimentFile(point.error(), path));
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

    const std::string dir = args->value("--out");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return reportError(Error::io(dir, "cannot create the folder: " + ec.message()));
    if (auto s = writeFileAtomic((std::filesystem::path(dir) / "frontier.csv").string(), frontierCsv(result)); !s)
        return reportError(s.error());
    if (auto s = writeFileAtomic((std::filesystem::path(dir) / "experiment.json").string(),
                                 experiment->resolved.dump(2) + "\n");
        !s)
        return reportError(s.error());
    if (!quiet) {
        const double seconds = secondsSince(started);
        std::fprintf(stderr, "wrote %s/frontier.csv (%zu point(s), %zu ε value(s)) in %.2f s\n", dir.c_str(),
                     result.rows.size(), epsilons->size(), seconds);
    }
    return result.diverged() ? Diverged : Success;
}

} // namespace dplab::cli
