// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/results.h"

#include "dplab/common/csv.h"
#include "dplab/common/files.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/sweepgrid.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace dplab {

namespace fs = std::filesystem;

std::size_t ResultsManifest::jobCount() const
{
    std::size_t n = 0;
    for (const auto &[runs, repetitions] : layout)
        n += static_cast<std::size_t>(runs) * static_cast<std::size_t>(repetitions);
    return n;
}

std::string experimentHash(const Json &resolved)
{
    std::uint64_t h = 14695981039346656037ull; // FNV-1a, 64 bits
    for (unsigned char c : resolved.dump()) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
    return buffer;
}

ResultsManifest makeManifest(const Experiment &experiment, const ExperimentResult &result, bool trace)
{
    ResultsManifest m;
    m.dplabVersion = DPLAB_VERSION;
    m.experimentName = experiment.name;
    m.experimentHash = experimentHash(experiment.resolved);
    if (!experiment.baseDir.empty()) {
        std::error_code ec;
        const fs::path dir = fs::absolute(experiment.baseDir, ec);
        m.experimentDir = ec ? experiment.baseDir : dir.lexically_normal().string();
        if (m.experimentDir.size() > 1 && m.experimentDir.back() == '/')
            m.experimentDir.pop_back();
    }
    m.shard = result.shard;
    m.trace = trace;
    std::size_t position = 0;
    for (const auto &p : result.points) {
        const int repetitions = p.runs.empty() ? 0 : static_cast<int>(p.runs.front().repetitions.size());
        m.layout.emplace_back(static_cast<int>(p.runs.size()), repetitions);
        for (const auto &run : p.runs)
            for (const auto &rep : run.repetitions) {
                if (!rep.skipped)
                    m.jobs.push_back(position);
                ++position;
            }
    }
    return m;
}

Json manifestToJson(const ResultsManifest &m)
{
    Json layout = Json::array();
    for (const auto &[runs, repetitions] : m.layout)
        layout.push_back({runs, repetitions});
    Json j{{"format", kResultsFormat},
           {"version", 1},
           {"dplab_version", m.dplabVersion},
           {"experiment", m.experimentName},
           {"experiment_hash", m.experimentHash},
           {"experiment_dir", m.experimentDir},
           {"shard", Json{{"index", m.shard.index}, {"count", m.shard.count}}},
           {"layout", layout},
           {"jobs", m.jobs},
           {"trace", m.trace}};
    if (m.hasDigests()) {
        j["digest_algorithm"] = m.digestAlgorithm;
        Json files = Json::object();
        for (const auto &[name, record] : m.files)
            files[name] = Json{{"bytes", record.bytes}, {"rows", record.rows}, {m.digestAlgorithm, record.sha256}};
        j["files"] = files;
    }
    return j;
}

Result<ResultsManifest> manifestFromJson(const Json &j, const std::string &file)
{
    const auto bad = [&](const std::string &field, const std::string &message) {
        return Error::parse(file + ": " + field, message);
    };
    if (!j.is_object() || j.value("format", Json()) != kResultsFormat)
        return bad("format", "is not \"dplab-results\" (not a DPLab results manifest)");
    ResultsManifest m;
    try {
        m.dplabVersion = j.at("dplab_version").get<std::string>();
        m.experimentName = j.at("experiment").get<std::string>();
        m.experimentHash = j.at("experiment_hash").get<std::string>();
        m.experimentDir = j.at("experiment_dir").get<std::string>();
        m.shard.index = j.at("shard").at("index").get<int>();
        m.shard.count = j.at("shard").at("count").get<int>();
        for (const auto &l : j.at("layout"))
            m.layout.emplace_back(l.at(0).get<int>(), l.at(1).get<int>());
        m.jobs = j.at("jobs").get<std::vector<std::size_t>>();
        m.trace = j.at("trace").get<bool>();
        if (j.contains("digest_algorithm") || j.contains("files")) {
            m.digestAlgorithm = j.at("digest_algorithm").get<std::string>();
            if (m.digestAlgorithm != kDigestAlgorithm)
                return bad("digest_algorithm", "is \"" + m.digestAlgorithm + "\"; this DPLab checks \"" + kDigestAlgorithm + "\" only");
            const Json &files = j.at("files");
            if (!files.is_object())
                return bad("files", "must be an object (file name → bytes, rows, sha256)");
            for (auto it = files.begin(); it != files.end(); ++it) {
                const std::string &name = it.key();
                if (name.empty() || name.find('/') != std::string::npos || name == "." || name == ".." || name == "manifest.json")
                    return bad("files", "names \"" + name + "\", which is not a file of the set");
                FileRecord record;
                record.bytes = it.value().at("bytes").get<std::uint64_t>();
                record.rows = it.value().at("rows").get<std::uint64_t>();
                record.sha256 = it.value().at(kDigestAlgorithm).get<std::string>();
                if (record.sha256.size() != 64
                    || record.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
                    return bad("files." + name + "." + kDigestAlgorithm, "must be 64 lower-case hex digits");
                m.files[name] = std::move(record);
            }
        }
    } catch (const Json::exception &e) {
        return Error::parse(file, std::string("malformed manifest: ") + e.what());
    }
    if (m.shard.count < 1 || m.shard.index < 1 || m.shard.index > m.shard.count)
        return bad("shard", "must be i/N with 1 ≤ i ≤ N");
    for (const auto &[runs, repetitions] : m.layout)
        if (runs < 0 || repetitions < 0)
            return bad("layout", "has a negative count");
    for (std::size_t k = 0; k < m.jobs.size(); ++k)
        if (m.jobs[k] >= m.jobCount() || (k > 0 && m.jobs[k] <= m.jobs[k - 1]))
            return bad("jobs", "must be increasing positions below " + std::to_string(m.jobCount()));
    return m;
}

namespace {

std::vector<JobKey> jobList(const ResultsManifest &m)
{
    std::vector<JobKey> jobs;
    for (std::size_t p = 0; p < m.layout.size(); ++p)
        for (int r = 0; r < m.layout[p].first; ++r)
            for (int k = 0; k < m.layout[p].second; ++k)
                jobs.push_back({static_cast<int>(p), r, k});
    return jobs;
}

RunStatus statusFromName(const std::string &name)
{
    if (name == "diverged")
        return RunStatus::Diverged;
    if (name == "cancelled")
        return RunStatus::Cancelled;
    return RunStatus::Ok;
}

bool parseDouble(const std::string &text, double &out)
{
    if (text.empty()) {
        out = std::nan("");
        return true;
    }
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

bool parseInteger(const std::string &text, long long &out)
{
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
}

// The value column's text of a sweep point, as the writers put it (before CSV quoting).
std::string valueText(const Json &value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

/** Walks a results CSV in job order: the rows of one job follow each other, keyed by the run
 *  label, the repetition and (with a sweep) the value column. */
class CsvCursor
{
public:
    CsvCursor(CsvTable table, std::string file) : mTable(std::move(table)), mFile(std::move(file)) {}
    const std::vector<std::string> &header() const { return mTable.rows.front(); }
    bool empty() const { return mTable.rows.empty(); }
    bool atEnd() const { return mRow >= mTable.rows.size(); }
    const std::vector<std::string> &row() const { return mTable.rows[mRow]; }
    void next() { ++mRow; }
    std::string where() const
    {
        return mFile + ":" + std::to_string(atEnd() ? (mTable.lines.empty() ? 1 : mTable.lines.back() + 1) : mTable.lines[mRow]);
    }
    /** Whether the current row belongs to (label, repetition, value) given the key columns. */
    bool matches(const std::string &label, int repetition, int valueColumn, const std::string &value) const
    {
        if (atEnd())
            return false;
        const auto &r = row();
        return r.size() == header().size() && r[0] == label && r[1] == std::to_string(repetition)
               && (valueColumn < 0 || r[static_cast<std::size_t>(valueColumn)] == value);
    }
    Status checkWidth() const
    {
        if (!atEnd() && row().size() != header().size())
            return Error::parse(where(), "has " + std::to_string(row().size()) + " fields, the header has "
                                             + std::to_string(header().size()));
        return {};
    }
    void skipHeader() { mRow = 1; }

private:
    CsvTable mTable;
    std::string mFile;
    std::size_t mRow = 0;
};

Result<CsvCursor> openCsv(const fs::path &path, const std::vector<std::string> &keyColumns)
{
    auto text = readFile(path.string());
    if (!text)
        return text.error();
    auto table = parseCsv(*text, path.string());
    if (!table)
        return table.error();
    if (table->rows.empty())
        return Error::parse(path.string() + ":1", "no header");
    const auto &header = table->rows.front();
    for (std::size_t c = 0; c < keyColumns.size(); ++c)
        if (c >= header.size() || header[c] != keyColumns[c])
            return Error::parse(path.string() + ":1", "column " + std::to_string(c + 1) + " must be \"" + keyColumns[c] + "\"");
    CsvCursor cursor(std::move(*table), path.string());
    cursor.skipHeader();
    return cursor;
}

std::vector<std::string> canonicalMetricOrder(const Json &final)
{
    std::vector<std::string> names;
    for (const auto &name : allMetricNames())
        if (final.contains(name))
            names.push_back(name);
    for (auto it = final.begin(); it != final.end(); ++it) // names this build does not know, last
        if (std::find(names.begin(), names.end(), it.key()) == names.end())
            names.push_back(it.key());
    return names;
}

Status readSummary(const Json &summary, const std::string &file, const ResultsManifest &m, const Experiment &e,
                   ExperimentResult &result)
{
    try {
        std::vector<const Json *> points;
        if (e.sweep)
            for (const auto &p : summary.at("points"))
                points.push_back(&p);
        else
            points.push_back(&summary);
        if (points.size() != m.layout.size())
            return Error::parse(file, "has " + std::to_string(points.size()) + " point(s), manifest.json "
                                          + std::to_string(m.layout.size()));
        result.points.resize(points.size());
        for (std::size_t p = 0; p < points.size(); ++p) {
            const Json &pj = *points[p];
            PointResult &pr = result.points[p];
            pr.value = e.sweep ? pj.at("value") : Json();
            if (pj.contains("reference")) {
                const Json &ref = pj.at("reference");
                Reference reference;
                const auto x = ref.at("x").get<std::vector<double>>();
                reference.x = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
                reference.value = ref.at("value").get<double>();
                reference.gradientNorm = ref.at("gradient_norm").get<double>();
                reference.method = ref.at("method").get<std::string>();
                pr.reference = std::move(reference);
            }
            pr.referenceSeconds = pj.value("reference_solve_seconds", 0.0);
            const Json &runs = pj.at("runs");
            if (static_cast<int>(runs.size()) != m.layout[p].first)
                return Error::parse(file, "point " + std::to_string(p) + " has " + std::to_string(runs.size())
                                              + " run(s), manifest.json " + std::to_string(m.layout[p].first));
            pr.runs.resize(runs.size());
            for (std::size_t r = 0; r < runs.size(); ++r) {
                const Json &rj = runs[r];
                RunResult &rr = pr.runs[r];
                rr.label = rj.at("label").get<std::string>();
                rr.algorithm = rj.at("algorithm").get<std::string>();
                rr.accountant = rj.value("accountant", std::string());
                rr.warnings = rj.at("warnings").get<std::vector<std::string>>();
                rr.metricNames = canonicalMetricOrder(rj.at("final"));
                rr.repetitions.resize(static_cast<std::size_t>(m.layout[p].second));
                for (auto &rep : rr.repetitions)
                    rep.skipped = true;
                for (const auto &kj : rj.at("repetitions")) {
                    const int k = kj.at("repetition").get<int>();
                    if (k < 0 || k >= m.layout[p].second)
                        return Error::parse(file, "repetition " + std::to_string(k) + " of run \"" + rr.label + "\" is outside the manifest's layout");
                    RepetitionResult &rep = rr.repetitions[static_cast<std::size_t>(k)];
                    rep.skipped = false;
                    rep.status = statusFromName(kj.at("status").get<std::string>());
                    rep.wallSeconds = kj.at("wall_time_seconds").get<double>();
                    rep.divergedAt = kj.value("diverged_at", -1LL);
                }
            }
        }
        result.cancelled = summary.value("cancelled", false);
    } catch (const Json::exception &ex) {
        return Error::parse(file, std::string("malformed summary: ") + ex.what());
    }
    // The jobs summary.json lists are the manifest's.
    std::set<std::size_t> listed(m.jobs.begin(), m.jobs.end());
    std::size_t position = 0;
    for (const auto &p : result.points)
        for (const auto &run : p.runs)
            for (const auto &rep : run.repetitions) {
                if (rep.skipped == (listed.count(position) > 0))
                    return Error::parse(file, "lists other jobs than manifest.json (job " + std::to_string(position) + ")");
                ++position;
            }
    return {};
}

Status readMetrics(const fs::path &dir, const Experiment &e, const std::vector<JobKey> &jobs, const ResultsManifest &m,
                   ExperimentResult &result)
{
    std::vector<std::string> keys = {"run", "repetition", "iteration"};
    if (e.sweep)
        keys.push_back("value");
    auto cursor = openCsv(dir / "metrics.csv", keys);
    if (!cursor)
        return cursor.error();
    const auto &header = cursor->header();
    const int valueColumn = e.sweep ? 3 : -1;
    for (std::size_t position : m.jobs) {
        const JobKey &job = jobs[position];
        PointResult &pr = result.points[static_cast<std::size_t>(job.point)];
        RunResult &run = pr.runs[static_cast<std::size_t>(job.run)];
        RepetitionResult &rep = run.repetitions[static_cast<std::size_t>(job.repetition)];
        std::vector<int> columns; // header column of each of the run's metrics
        for (const auto &name : run.metricNames) {
            auto it = std::find(header.begin() + static_cast<long>(keys.size()), header.end(), name);
            if (it == header.end())
                return Error::parse(cursor->where(), "metrics.csv has no column \"" + name + "\" (run \"" + run.label + "\")");
            columns.push_back(static_cast<int>(it - header.begin()));
        }
        const std::string value = e.sweep ? valueText(pr.value) : "";
        while (cursor->matches(run.label, job.repetition, valueColumn, value)) {
            const auto &row = cursor->row();
            long long iteration = 0;
            if (!parseInteger(row[2], iteration) || (!rep.iterations.empty() && iteration <= rep.iterations.back()))
                break; // not this repetition's next row (a new block starts)
            std::vector<double> values(columns.size());
            for (std::size_t c = 0; c < columns.size(); ++c)
                if (!parseDouble(row[static_cast<std::size_t>(columns[c])], values[c]))
                    return Error::parse(cursor->where(), "\"" + row[static_cast<std::size_t>(columns[c])] + "\" is not a number");
            rep.iterations.push_back(iteration);
            rep.values.push_back(std::move(values));
            cursor->next();
        }
        if (auto s = cursor->checkWidth(); !s)
            return s;
    }
    if (!cursor->atEnd())
        return Error::parse(cursor->where(), "row of no job in manifest.json (or out of order)");
    return {};
}

Status readEpsilon(const fs::path &dir, const Experiment &e, const std::vector<JobKey> &jobs, const ResultsManifest &m,
                   ExperimentResult &result)
{
    std::vector<std::string> keys = {"run", "repetition"};
    if (e.sweep)
        keys.push_back("value");
    keys.push_back("agent");
    keys.push_back("epsilon");
    auto cursor = openCsv(dir / "epsilon_per_agent.csv", keys);
    if (!cursor)
        return cursor.error();
    const int valueColumn = e.sweep ? 2 : -1;
    const std::size_t agentColumn = keys.size() - 2;
    for (std::size_t position : m.jobs) {
        const JobKey &job = jobs[position];
        PointResult &pr = result.points[static_cast<std::size_t>(job.point)];
        RunResult &run = pr.runs[static_cast<std::size_t>(job.run)];
        const std::string value = e.sweep ? valueText(pr.value) : "";
        std::vector<double> eps;
        while (cursor->matches(run.label, job.repetition, valueColumn, value)
               && cursor->row()[agentColumn] == std::to_string(eps.size())) {
            double v = 0;
            if (!parseDouble(cursor->row()[agentColumn + 1], v))
                return Error::parse(cursor->where(), "\"" + cursor->row()[agentColumn + 1] + "\" is not a number");
            eps.push_back(v);
            cursor->next();
        }
        if (auto s = cursor->checkWidth(); !s)
            return s;
        if (!eps.empty())
            run.repetitions[static_cast<std::size_t>(job.repetition)].epsilonPerAgent =
                Eigen::Map<const Eigen::VectorXd>(eps.data(), static_cast<Eigen::Index>(eps.size()));
    }
    if (!cursor->atEnd())
        return Error::parse(cursor->where(), "row of no job in manifest.json (or out of order)");
    return {};
}

Status readTrace(const fs::path &dir, const Experiment &e, const std::vector<JobKey> &jobs, const ResultsManifest &m,
                 ExperimentResult &result)
{
    std::vector<std::string> keys = {"run", "repetition", "iteration", "agent"};
    if (e.sweep)
        keys.push_back("value");
    auto cursor = openCsv(dir / "trace.csv", keys);
    if (!cursor)
        return cursor.error();
    const int valueColumn = e.sweep ? 4 : -1;
    const std::size_t first = keys.size();
    const std::size_t d = cursor->header().size() - first;
    for (std::size_t position : m.jobs) {
        const JobKey &job = jobs[position];
        PointResult &pr = result.points[static_cast<std::size_t>(job.point)];
        RepetitionResult &rep = pr.runs[static_cast<std::size_t>(job.run)].repetitions[static_cast<std::size_t>(job.repetition)];
        const std::string &label = pr.runs[static_cast<std::size_t>(job.run)].label;
        const std::string value = e.sweep ? valueText(pr.value) : "";
        for (long long iteration : rep.iterations) {
            std::vector<std::vector<double>> rows;
            while (cursor->matches(label, job.repetition, valueColumn, value) && cursor->row()[2] == std::to_string(iteration)
                   && cursor->row()[3] == std::to_string(rows.size())) {
                std::vector<double> x(d);
                for (std::size_t c = 0; c < d; ++c)
                    if (!parseDouble(cursor->row()[first + c], x[c]))
                        return Error::parse(cursor->where(), "\"" + cursor->row()[first + c] + "\" is not a number");
                rows.push_back(std::move(x));
                cursor->next();
            }
            if (rows.empty())
                return Error::parse(cursor->where(), "trace.csv lacks iteration " + std::to_string(iteration) + " of run \"" + label + "\", repetition " + std::to_string(job.repetition));
            Eigen::MatrixXd x(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(d));
            for (std::size_t i = 0; i < rows.size(); ++i)
                for (std::size_t c = 0; c < d; ++c)
                    x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = rows[i][c];
            rep.trace.push_back(std::move(x));
        }
    }
    if (auto s = cursor->checkWidth(); !s)
        return s;
    if (!cursor->atEnd())
        return Error::parse(cursor->where(), "row of no job in manifest.json (or out of order)");
    return {};
}

} // namespace

void recordFiles(ResultsManifest &manifest, const std::vector<std::pair<std::string, std::string>> &files)
{
    manifest.digestAlgorithm = kDigestAlgorithm;
    manifest.files.clear();
    for (const auto &[name, content] : files)
        manifest.files[name] = fileRecord(name, content);
}

std::string unverifiedNotice(const std::string &dir)
{
    return dir + ": unverified: manifest.json records no digests (written by a DPLab before integrity records), so "
                 "its files cannot be checked against it; run it again to get a verifiable folder";
}

Status verifyFolderFiles(const std::string &dir, const ResultsManifest &m)
{
    if (!m.hasDigests())
        return {};
    const std::string shard = m.shard.whole() ? std::string()
                                              : "; shard " + std::to_string(m.shard.index) + "/" + std::to_string(m.shard.count)
                                                    + ": run it again";
    // The files the reader parses must be covered: a manifest that drops one cannot vouch for it.
    std::vector<std::string> required = {"summary.json", "experiment.json", "metrics.csv", "epsilon_per_agent.csv"};
    if (m.trace)
        required.push_back("trace.csv");
    for (const auto &name : required)
        if (!m.files.count(name))
            return Error::invalid((fs::path(dir) / "manifest.json").string(),
                                  "files: records no digest of " + name + ", which the set must hold (manifest edited?)" + shard);
    auto checks = checkFolderFiles(dir, m.files);
    if (!checks)
        return checks.error();
    for (const FileCheck &check : *checks)
        if (check.damage != Damage::None)
            return Error::invalid((fs::path(dir) / check.name).string(), check.describe() + shard);
    return {};
}

Result<ResultsManifest> readVerifiedManifest(const std::string &dirText)
{
    const fs::path dir(dirText);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return Error::invalid(dirText, fs::exists(dir, ec) ? "is not a folder" : "no such folder");
    if (!fs::exists(dir / "manifest.json", ec))
        return Error::invalid(dirText, "has no manifest.json: not a complete DPLab result set (an interrupted or unfinished run, or not a results folder)");
    auto manifestJson = readJsonFile((dir / "manifest.json").string());
    if (!manifestJson)
        return manifestJson.error();
    auto manifest = manifestFromJson(*manifestJson, (dir / "manifest.json").string());
    if (!manifest)
        return manifest.error();
    // An interrupted commit first (its own message), then every file against its digest.
    auto summary = readJsonFile((dir / "summary.json").string());
    if (summary && summary->is_object() && summary->value("incomplete", false))
        return Error::invalid((dir / "summary.json").string(), "is marked incomplete: writing this set was interrupted");
    if (auto s = verifyFolderFiles(dirText, *manifest); !s)
        return s.error();
    if (!summary)
        return summary.error();
    return manifest;
}

Result<ResultsFolder> readResultsFolder(const std::string &dirText)
{
    const fs::path dir(dirText);
    auto manifest = readVerifiedManifest(dirText);
    if (!manifest)
        return manifest.error();
    ResultsFolder folder;
    folder.dir = dirText;
    folder.manifest = std::move(*manifest);
    const ResultsManifest &m = folder.manifest;
    auto summary = readJsonFile((dir / "summary.json").string());
    if (!summary)
        return summary.error();
    auto doc = readJsonFile((dir / "experiment.json").string());
    if (!doc)
        return doc.error();
    if (experimentHash(*doc) != m.experimentHash)
        return Error::invalid((dir / "experiment.json").string(), "does not match manifest.json (experiment hash " + experimentHash(*doc) + ", manifest " + m.experimentHash + ")");

    Experiment &e = folder.experiment;
    try {
        e.name = doc->value("name", std::string());
        e.description = doc->value("description", std::string());
        e.seed = doc->at("seed").get<std::uint64_t>();
        e.iterations = doc->at("iterations").get<long long>();
        e.repetitions = doc->at("repetitions").get<int>();
        e.recordEvery = doc->value("record_every", 1LL);
        if (doc->contains("sweep")) {
            SweepSpec sweep;
            auto parameter = sweepParameterFromJson(doc->at("sweep").at("parameter"));
            if (!parameter)
                return Error::parse((dir / "experiment.json").string(), "malformed: " + parameter.error().toString());
            sweep.parameter = *parameter;
            sweep.values = doc->at("sweep").at("values").get<std::vector<Json>>();
            e.sweep = std::move(sweep);
        }
    } catch (const Json::exception &ex) {
        return Error::parse((dir / "experiment.json").string(), std::string("malformed: ") + ex.what());
    }
    e.resolved = *doc;
    e.baseDir = m.experimentDir;

    const std::vector<JobKey> jobs = jobList(m);
    ExperimentResult &result = folder.result;
    result.jobs = jobs;
    result.shard = m.shard;
    if (auto s = readSummary(*summary, (dir / "summary.json").string(), m, e, result); !s)
        return s.error();
    if (auto s = readMetrics(dir, e, jobs, m, result); !s)
        return s.error();
    if (auto s = readEpsilon(dir, e, jobs, m, result); !s)
        return s.error();
    if (m.trace)
        if (auto s = readTrace(dir, e, jobs, m, result); !s)
            return s.error();
    return folder;
}

Result<ResultsFolder> mergeResultsFolders(std::vector<ResultsFolder> shards)
{
    if (shards.empty())
        return Error::invalid("merge", "needs at least one results folder");
    const ResultsFolder &first = shards.front();
    const ResultsManifest &m0 = first.manifest;
    auto shardName = [](const ResultsManifest &m) {
        return "shard " + std::to_string(m.shard.index) + "/" + std::to_string(m.shard.count);
    };
    for (const auto &s : shards) { // the version first: another version may resolve a file differently
        const ResultsManifest &m = s.manifest;
        if (m.dplabVersion != m0.dplabVersion)
            return Error::invalid(s.dir, "was written by DPLab " + m.dplabVersion + ", " + first.dir + " by DPLab "
                                             + m0.dplabVersion + "; merge only shards of one DPLab version");
        if (m.experimentHash != m0.experimentHash)
            return Error::invalid(s.dir, "is from another experiment (\"" + m.experimentName + "\", " + m.experimentHash
                                             + ") than " + first.dir + " (\"" + m0.experimentName + "\", " + m0.experimentHash
                                             + "); shards must be runs of one experiment file with the same seed and overrides");
        if (m.shard.count != m0.shard.count)
            return Error::invalid(s.dir, "is " + shardName(m) + " but " + first.dir + " is " + shardName(m0)
                                             + "; merge the shards of one split");
        if (m.layout != m0.layout)
            return Error::invalid(s.dir, "has another job list than " + first.dir);
        if (m.trace != m0.trace)
            return Error::invalid(s.dir, std::string(m.trace ? "has" : "lacks") + " trace.csv, " + first.dir
                                             + (m0.trace ? " has it" : " does not") + "; run every shard with or without --trace");
    }
    const int count = m0.shard.count;
    std::vector<const ResultsFolder *> byIndex(static_cast<std::size_t>(count) + 1, nullptr);
    for (const auto &s : shards) {
        const ResultsFolder *&slot = byIndex[static_cast<std::size_t>(s.manifest.shard.index)];
        if (slot)
            return Error::invalid(s.dir, "is " + shardName(s.manifest) + " again (also " + slot->dir + "); give each shard once");
        slot = &s;
    }
    std::string missing;
    for (int i = 1; i <= count; ++i)
        if (!byIndex[static_cast<std::size_t>(i)])
            missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(count);
    if (!missing.empty())
        return Error::invalid("merge", "shard " + missing + " missing: run it (dplab-cli run EXPERIMENT --shard "
                                           + missing.substr(0, missing.find(',')) + " --out DIR) and give its folder too");

    // Every job exactly once.
    const std::vector<JobKey> jobs = jobList(m0);
    std::vector<const ResultsFolder *> owner(jobs.size(), nullptr);
    for (const auto &s : shards)
        for (std::size_t position : s.manifest.jobs) {
            if (owner[position])
                return Error::invalid(s.dir, "holds job " + std::to_string(position) + " (point " + std::to_string(jobs[position].point)
                                                 + ", run " + std::to_string(jobs[position].run) + ", repetition "
                                                 + std::to_string(jobs[position].repetition) + ") that " + owner[position]->dir
                                                 + " holds too");
            owner[position] = &s;
        }
    for (std::size_t position = 0; position < jobs.size(); ++position)
        if (!owner[position])
            return Error::invalid("merge", "job " + std::to_string(position) + " (point " + std::to_string(jobs[position].point)
                                               + ", run " + std::to_string(jobs[position].run) + ", repetition "
                                               + std::to_string(jobs[position].repetition) + ") is in no shard");

    // Assemble: point data from the owner of its first job, run data from the owner of its
    // first repetition (which the one-machine run takes them from too), each repetition from
    // its owner.
    ResultsFolder merged;
    const ResultsFolder &lead = *byIndex[1];
    merged.experiment = lead.experiment;
    ExperimentResult &result = merged.result;
    result.jobs = jobs;
    result.shard = Shard{};
    std::size_t position = 0;
    result.points.resize(m0.layout.size());
    for (std::size_t p = 0; p < m0.layout.size(); ++p) {
        PointResult &pr = result.points[p];
        const auto [runs, repetitions] = m0.layout[p];
        if (runs == 0 || repetitions == 0) {
            pr.value = lead.result.points[p].value;
            continue;
        }
        const PointResult &source = owner[position]->result.points[p];
        pr.value = source.value;
        pr.reference = source.reference;
        pr.referenceSeconds = source.referenceSeconds;
        pr.runs.resize(static_cast<std::size_t>(runs));
        for (int r = 0; r < runs; ++r) {
            RunResult &rr = pr.runs[static_cast<std::size_t>(r)];
            rr = owner[position]->result.points[p].runs[static_cast<std::size_t>(r)];
            for (int k = 0; k < repetitions; ++k, ++position)
                rr.repetitions[static_cast<std::size_t>(k)] =
                    owner[position]->result.points[p].runs[static_cast<std::size_t>(r)].repetitions[static_cast<std::size_t>(k)];
        }
    }
    for (const auto &s : shards)
        result.cancelled = result.cancelled || s.result.cancelled;
    merged.manifest = makeManifest(merged.experiment, merged.result, m0.trace);
    return merged;
}

Result<Experiment> loadFolderExperiment(const ResultsFolder &folder)
{
    std::error_code ec;
    const std::string base = !folder.manifest.experimentDir.empty() && fs::is_directory(folder.manifest.experimentDir, ec)
                                 ? folder.manifest.experimentDir
                                 : folder.dir;
    auto e = parseExperiment(folder.experiment.resolved, base);
    if (!e) {
        Error err = e.error();
        if (err.code != ErrorCode::ParseError)
            err.where = (fs::path(folder.dir) / "experiment.json").string() + ": " + (err.where.empty() ? std::string("(top level)") : err.where);
        return err;
    }
    return e;
}

} // namespace dplab
