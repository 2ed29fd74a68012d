// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliverify.h"

#include "clicommon.h"

#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/engine/results.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"
#include "dplab/privacy/rng.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace dplab::cli {

const char *const kVerifyUsage = "  dplab-cli verify RESULTS_DIR [--rerun K] [--threads T] [--max-memory SIZE]\n";

std::vector<std::size_t> chooseRerunJobs(std::uint64_t seed, const std::vector<std::size_t> &jobs, std::size_t k)
{
    std::vector<std::size_t> pool = jobs;
    k = std::min(k, pool.size());
    Rng rng = Rng::stream(seed, 0, 0, 0, RngPurpose::Other);
    for (std::size_t i = 0; i < k; ++i) // partial Fisher–Yates: the first k are a uniform sample
        std::swap(pool[i], pool[i + static_cast<std::size_t>(rng.below(pool.size() - i))]);
    pool.resize(k);
    std::sort(pool.begin(), pool.end());
    return pool;
}

namespace {

namespace fs = std::filesystem;

/** `base` with only the jobs at positions in [from, to) kept (the others emptied), and the job at
 *  `replaced` (if any) replaced by `replacement`: the writers then give the header and those
 *  jobs' rows only. Positions follow the writers' order (point, run, repetition). */
ExperimentResult keepJobs(const ExperimentResult &base, std::size_t from, std::size_t to, std::size_t replaced = SIZE_MAX,
                          const RepetitionResult *replacement = nullptr)
{
    ExperimentResult out = base;
    std::size_t position = 0;
    for (auto &point : out.points)
        for (auto &run : point.runs)
            for (auto &rep : run.repetitions) {
                if (position == replaced && replacement)
                    rep = *replacement;
                if (position < from || position >= to) {
                    rep = RepetitionResult{};
                    rep.skipped = true;
                }
                ++position;
            }
    return out;
}

/** A repetition of a rerun with its metric values in the folder's column order (by name). */
Result<RepetitionResult> inFolderOrder(const RunResult &folderRun, const RunResult &rerunRun, const RepetitionResult &rep)
{
    std::vector<std::size_t> map;
    for (const auto &name : folderRun.metricNames) {
        auto it = std::find(rerunRun.metricNames.begin(), rerunRun.metricNames.end(), name);
        if (it == rerunRun.metricNames.end())
            return Error::invalid("--rerun", "the rerun of run \"" + folderRun.label + "\" records no " + name
                                                 + ", which the folder has");
        map.push_back(static_cast<std::size_t>(it - rerunRun.metricNames.begin()));
    }
    if (map.size() != rerunRun.metricNames.size())
        return Error::invalid("--rerun", "the rerun of run \"" + folderRun.label + "\" records other metrics than the folder");
    RepetitionResult out = rep;
    for (std::size_t k = 0; k < out.values.size(); ++k)
        for (std::size_t m = 0; m < map.size(); ++m)
            out.values[k][m] = rep.values[k][map[m]];
    return out;
}

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
}

std::string shorten(const std::string &line)
{
    return line.size() <= 90 ? line : line.substr(0, 87) + "...";
}

struct Compared {
    std::size_t rows = 0;
};

/** Compares one job's rows of a file with the rerun's, byte for byte. The job's rows in the file
 *  are its own lines: `before` data rows (those of the jobs before it, as the folder's result
 *  writes them) after the header, then as many as the folder holds for the job (`folderRows`).
 *  Errors name file:line and the job. */
Status compareRows(const std::string &dir, const std::string &name, const std::vector<std::string> &fileLines,
                   std::size_t before, const std::string &folderRows, const std::string &rerunRows, const std::string &jobText,
                   Compared &count)
{
    const std::size_t mine = lines(folderRows).size() - 1; // the header of a job-only file
    const std::vector<std::string> theirs = lines(rerunRows);
    const std::string where = (fs::path(dir) / name).string();
    if (1 + before + mine > fileLines.size())
        return Error::internal(where, "has fewer rows than the folder's result read back");
    const std::size_t n = std::max(mine, theirs.size() - 1);
    for (std::size_t k = 0; k < n; ++k) {
        const std::string a = k < mine ? fileLines[1 + before + k] : std::string("(no row)");
        const std::string b = k + 1 < theirs.size() ? theirs[k + 1] : std::string("(no row)");
        if (a != b)
            return Error::invalid(where + ":" + std::to_string(2 + before + k), "the rerun of " + jobText + " differs: the folder has \""
                                                                                   + shorten(a) + "\", the rerun gives \"" + shorten(b) + "\"");
    }
    count.rows += mine;
    return {};
}

std::size_t dataRows(const std::string &csv)
{
    return lines(csv).size() - 1;
}

/** The intact line: the files match the manifest's digests (or the notice that it has none). */
void printIntegrity(const std::string &dir, const ResultsManifest &m)
{
    const std::string part = m.shard.whole() ? std::string("whole job list")
                                             : "shard " + std::to_string(m.shard.index) + "/" + std::to_string(m.shard.count);
    if (m.hasDigests()) {
        std::uint64_t bytes = 0;
        for (const auto &[name, record] : m.files)
            bytes += record.bytes;
        std::cout << dir << ": intact: " << m.files.size() << " files (" << bytes
                  << " bytes) match the sizes, rows and SHA-256 digests manifest.json records (" << part << ", "
                  << m.jobs.size() << " of " << m.jobCount() << " jobs)\n";
    } else {
        std::cerr << "dplab-cli: " << unverifiedNotice(dir) << "\n";
    }
}

/** The files a rerun compares: metrics.csv, epsilon_per_agent.csv and (with a trace) trace.csv. */
constexpr int kRerunFiles = 3;
const char *const kRerunFileNames[kRerunFiles] = {"metrics.csv", "epsilon_per_agent.csv", "trace.csv"};

/** Reruns the job at `position` alone and compares its rows of every file with the folder's. */
Status rerunJob(const std::string &dir, const ResultsManifest &m, const ResultsFolder &folder,
                const Experiment &experiment, std::size_t position, int threads,
                const std::vector<std::string> (&fileLines)[kRerunFiles], Compared (&compared)[kRerunFiles])
{
    const std::vector<JobKey> &jobs = folder.result.jobs;
    const JobKey &job = jobs[position];
    RunnerOptions runnerOptions;
    runnerOptions.threads = threads == 0 ? 1 : threads;
    runnerOptions.trace = m.trace;
    // Shard position+1 of (job count) is exactly this job.
    runnerOptions.shard = Shard{static_cast<int>(position) + 1, static_cast<int>(jobs.size())};
    auto rerunResult = Runner(runnerOptions).run(experiment);
    if (!rerunResult)
        return rerunResult.error();
    const RunResult &folderRun = folder.result.points[static_cast<std::size_t>(job.point)].runs[static_cast<std::size_t>(job.run)];
    const RunResult &rerunRun = rerunResult->points[static_cast<std::size_t>(job.point)].runs[static_cast<std::size_t>(job.run)];
    auto rep = inFolderOrder(folderRun, rerunRun, rerunRun.repetitions[static_cast<std::size_t>(job.repetition)]);
    if (!rep)
        return rep.error();
    const ExperimentResult mine = keepJobs(folder.result, position, position + 1);
    const ExperimentResult theirs = keepJobs(folder.result, position, position + 1, position, &*rep);
    const ExperimentResult earlier = keepJobs(folder.result, 0, position);
    std::string jobText = "job " + std::to_string(position) + " (";
    if (folder.experiment.sweep)
        jobText += "sweep point " + std::to_string(job.point) + ", ";
    jobText += "run \"" + folderRun.label + "\", repetition " + std::to_string(job.repetition) + ")";
    const Experiment &e = folder.experiment;
    using Writer = std::string (*)(const Experiment &, const ExperimentResult &);
    const Writer writers[kRerunFiles] = {metricsCsv, epsilonPerAgentCsv, traceCsv};
    for (int f = 0; f < (m.trace ? 3 : 2); ++f)
        if (auto s = compareRows(dir, kRerunFileNames[f], fileLines[f], dataRows(writers[f](e, earlier)),
                                 writers[f](e, mine), writers[f](e, theirs), jobText, compared[f]);
            !s)
            return s.error();
    return {};
}

/** --rerun K: K jobs chosen by the experiment's seed, rerun and compared byte for byte. */
Status rerunJobs(const std::string &dir, const ResultsManifest &m, long long rerun, int threads)
{
    auto folder = readResultsFolder(dir);
    if (!folder)
        return folder.error();
    auto experiment = loadFolderExperiment(*folder);
    if (!experiment)
        return experiment.error();
    const std::vector<std::size_t> chosen = chooseRerunJobs(folder->experiment.seed, m.jobs, static_cast<std::size_t>(rerun));
    std::vector<std::string> fileLines[kRerunFiles];
    for (int f = 0; f < (m.trace ? 3 : 2); ++f) {
        auto text = readFile((fs::path(dir) / kRerunFileNames[f]).string(), UINT64_MAX);
        if (!text)
            return text.error();
        fileLines[f] = lines(*text);
    }
    Compared compared[kRerunFiles];
    std::string positions;
    for (std::size_t position : chosen) {
        if (auto s = rerunJob(dir, m, *folder, *experiment, position, threads, fileLines, compared); !s)
            return s.error();
        positions += (positions.empty() ? "" : ", ") + std::to_string(position);
    }
    std::cout << dir << ": rerun of " << chosen.size() << " of " << m.jobs.size() << " jobs (chosen by seed "
              << folder->experiment.seed << ": " << positions << "): their " << compared[0].rows << " metrics.csv, "
              << compared[1].rows << " epsilon_per_agent.csv" << (m.trace ? ", " + std::to_string(compared[2].rows) + " trace.csv" : "")
              << " rows are identical byte for byte\n";
    return {};
}

} // namespace

int commandVerify(int argc, char **argv)
{
    auto args = parseArgs(argc, argv, 2, {}, {"--rerun", "--threads", "--max-memory"});
    if (!args)
        return inputError(args.error().toString() + "\nusage:\n" + std::string(kVerifyUsage));
    if (args->positional.size() != 1)
        return inputError("verify takes one results folder\nusage:\n" + std::string(kVerifyUsage));
    long long rerun = 0;
    if (args->has("--rerun")) {
        auto k = parseInteger(args->value("--rerun"), "--rerun", 1);
        if (!k)
            return reportError(k.error());
        rerun = *k;
    }
    auto threads = threadsOption(*args);
    if (!threads)
        return reportError(threads.error());
    if (args->has("--max-memory")) {
        auto bytes = parseByteSize(args->value("--max-memory"), "--max-memory");
        if (!bytes)
            return reportError(bytes.error());
        ResourceLimits::setDefaultMemoryLimit(*bytes);
    }

    const std::string dir = args->positional[0];
    // The digests first, without parsing the files (so any size is checked); the rerun reads them.
    auto manifest = readVerifiedManifest(dir);
    if (!manifest)
        return reportError(manifest.error());
    printIntegrity(dir, *manifest);
    if (rerun > 0)
        if (auto s = rerunJobs(dir, *manifest, rerun, *threads); !s)
            return reportError(s.error());
    return manifest->hasDigests() ? Success : InvalidInput;
}

} // namespace dplab::cli
