// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliverify.h"

#include "cli.h"

#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/engine/results.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"
#include "dplab/privacy/rng.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
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

int fail(const std::string &message)
{
    std::cerr << "dplab-cli: " << message << "\n";
    return InvalidInput;
}

int failWith(const Error &error)
{
    std::cerr << "dplab-cli: " << error.toString() << "\n";
    return exitCodeOf(error);
}

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

} // namespace

int commandVerify(int argc, char **argv)
{
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--rerun" || a == "--threads" || a == "--max-memory") {
            if (i + 1 >= argc)
                return fail(a + ": needs a value");
            options[a] = argv[++i];
        } else if (a.rfind("--", 0) == 0) {
            return fail(a + ": unknown option\nusage:\n" + std::string(kVerifyUsage));
        } else {
            positional.push_back(a);
        }
    }
    if (positional.size() != 1)
        return fail("verify takes one results folder\nusage:\n" + std::string(kVerifyUsage));
    auto number = [&](const std::string &key, long long min) -> Result<long long> {
        const std::string &text = options.at(key);
        try {
            std::size_t used = 0;
            const long long v = std::stoll(text, &used);
            if (used == text.size() && v >= min)
                return v;
        } catch (...) {
        }
        return Error::invalid(key, "must be a whole number ≥ " + std::to_string(min) + ", got \"" + text + "\"");
    };
    long long rerun = 0;
    int threads = 0;
    if (options.count("--rerun")) {
        auto k = number("--rerun", 1);
        if (!k)
            return failWith(k.error());
        rerun = *k;
    }
    if (options.count("--threads")) {
        auto t = number("--threads", 0);
        if (!t)
            return failWith(t.error());
        if (auto s = checkThreadCount(*t, "--threads"); !s)
            return failWith(s.error());
        threads = static_cast<int>(*t);
    }
    if (options.count("--max-memory")) {
        auto bytes = parseByteSize(options.at("--max-memory"), "--max-memory");
        if (!bytes)
            return failWith(bytes.error());
        ResourceLimits::setDefaultMemoryLimit(*bytes);
    }

    const std::string dir = positional[0];
    // The digests first, without parsing the files (so any size is checked); the rerun reads them.
    auto manifest = readVerifiedManifest(dir);
    if (!manifest)
        return failWith(manifest.error());
    const ResultsManifest &m = *manifest;
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
    if (rerun > 0) {
        auto folder = readResultsFolder(dir);
        if (!folder)
            return failWith(folder.error());
        auto experiment = loadFolderExperiment(*folder);
        if (!experiment)
            return failWith(experiment.error());
        const std::vector<std::size_t> chosen = chooseRerunJobs(folder->experiment.seed, m.jobs, static_cast<std::size_t>(rerun));
        const std::vector<JobKey> &jobs = folder->result.jobs;
        std::vector<std::string> fileLines[3];
        const char *names[3] = {"metrics.csv", "epsilon_per_agent.csv", "trace.csv"};
        for (int f = 0; f < (m.trace ? 3 : 2); ++f) {
            auto text = readFile((fs::path(dir) / names[f]).string(), UINT64_MAX);
            if (!text)
                return failWith(text.error());
            fileLines[f] = lines(*text);
        }
        Compared compared[3];
        std::string positions;
        for (std::size_t position : chosen) {
            const JobKey &job = jobs[position];
            RunnerOptions runnerOptions;
            runnerOptions.threads = threads == 0 ? 1 : threads;
            runnerOptions.trace = m.trace;
            // Shard position+1 of (job count) is exactly this job.
            runnerOptions.shard = Shard{static_cast<int>(position) + 1, static_cast<int>(jobs.size())};
            auto rerunResult = Runner(runnerOptions).run(*experiment);
            if (!rerunResult)
                return failWith(rerunResult.error());
            const RunResult &folderRun = folder->result.points[static_cast<std::size_t>(job.point)].runs[static_cast<std::size_t>(job.run)];
            const RunResult &rerunRun = rerunResult->points[static_cast<std::size_t>(job.point)].runs[static_cast<std::size_t>(job.run)];
            auto rep = inFolderOrder(folderRun, rerunRun, rerunRun.repetitions[static_cast<std::size_t>(job.repetition)]);
            if (!rep)
                return failWith(rep.error());
            const ExperimentResult mine = keepJobs(folder->result, position, position + 1);
            const ExperimentResult theirs = keepJobs(folder->result, position, position + 1, position, &*rep);
            const ExperimentResult earlier = keepJobs(folder->result, 0, position);
            std::string jobText = "job " + std::to_string(position) + " (";
            if (folder->experiment.sweep)
                jobText += "sweep point " + std::to_string(job.point) + ", ";
            jobText += "run \"" + folderRun.label + "\", repetition " + std::to_string(job.repetition) + ")";
            const Experiment &e = folder->experiment;
            if (auto s = compareRows(dir, names[0], fileLines[0], dataRows(metricsCsv(e, earlier)), metricsCsv(e, mine),
                                     metricsCsv(e, theirs), jobText, compared[0]);
                !s)
                return failWith(s.error());
            if (auto s = compareRows(dir, names[1], fileLines[1], dataRows(epsilonPerAgentCsv(e, earlier)),
                                     epsilonPerAgentCsv(e, mine), epsilonPerAgentCsv(e, theirs), jobText, compared[1]);
                !s)
                return failWith(s.error());
            if (m.trace)
                if (auto s = compareRows(dir, names[2], fileLines[2], dataRows(traceCsv(e, earlier)), traceCsv(e, mine),
                                         traceCsv(e, theirs), jobText, compared[2]);
                    !s)
                    return failWith(s.error());
            positions += (positions.empty() ? "" : ", ") + std::to_string(position);
        }
        std::cout << dir << ": rerun of " << chosen.size() << " of " << m.jobs.size() << " jobs (chosen by seed "
                  << folder->experiment.seed << ": " << positions << "): their " << compared[0].rows << " metrics.csv, "
                  << compared[1].rows << " epsilon_per_agent.csv" << (m.trace ? ", " + std::to_string(compared[2].rows) + " trace.csv" : "")
                  << " rows are identical byte for byte\n";
    }
    return m.hasDigests() ? Success : InvalidInput;
}

} // namespace dplab::cli
