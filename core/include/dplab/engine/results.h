// SPDX-License-Identifier: GPL-3.0-or-later
//
// Results folders read back: the manifest that makes a folder a complete set, the reader that
// turns a folder's files into an ExperimentResult again, and the merge of shards (issue 17).
//
// manifest.json (written last, see OutputFolder): format "dplab-results", the DPLab version,
// the experiment's name and hash (of its resolved document, so two folders come from the same
// experiment exactly when the hashes agree — seed and command-line overrides included), the
// folder the experiment file was in (to find data files again), the shard i/N, the layout of
// the job list ([runs, repetitions] per sweep point), the positions of the jobs this folder
// holds in that list, and whether trace.csv is part of the set. It also names its digest
// algorithm ("digest_algorithm": "sha256") and records every other file of the set ("files":
// name → bytes, rows, sha256; see integrity.h); the reader checks them before it parses
// anything, so a cut, extended, edited or missing file is refused naming the file and the
// damage. A manifest without "files" (written before digests were recorded) reads as
// *unverified*: callers say so.
//
// The reader is exact: numbers are written with 17 significant digits and read back with
// from_chars, so writing a result read back gives the same bytes (wall times included, which
// are a measurement: two runs differ only there).
//
// Threading: pure functions of their arguments and the files they read.
#pragma once

#include "dplab/engine/integrity.h"
#include "dplab/engine/runner.h"

#include <map>
#include <string>
#include <vector>

namespace dplab {

inline constexpr const char *kResultsFormat = "dplab-results";

struct ResultsManifest {
    std::string dplabVersion;
    std::string experimentName;
    std::string experimentHash;
    std::string experimentDir; ///< absolute folder of the experiment file ("" when unknown)
    Shard shard;
    std::vector<std::pair<int, int>> layout; ///< per sweep point: runs, repetitions
    std::vector<std::size_t> jobs;           ///< positions in the job list held here
    bool trace = false;
    /** kDigestAlgorithm, or "" for a folder written before manifests recorded digests. */
    std::string digestAlgorithm;
    /** Every other file of the set (manifest.json itself excepted): bytes, rows, SHA-256. */
    std::map<std::string, FileRecord> files;
    /** Jobs in the whole list (the sum over the layout). */
    std::size_t jobCount() const;
    /** Whether the folder's files can be checked (the manifest records digests). */
    bool hasDigests() const { return !digestAlgorithm.empty(); }
};

/** A stable hash of an experiment's resolved document ("fnv1a64:<16 hex digits>"). */
std::string experimentHash(const Json &resolved);

ResultsManifest makeManifest(const Experiment &experiment, const ExperimentResult &result, bool trace);
Json manifestToJson(const ResultsManifest &manifest);
/** Errors name `file` and the field. */
Result<ResultsManifest> manifestFromJson(const Json &json, const std::string &file);

/** A results folder read back. `experiment` carries what the writers need (name, seed,
 *  iterations, repetitions, sweep, resolved document, baseDir = the manifest's experiment
 *  folder) but no graph or problem: loadFolderExperiment builds those. */
struct ResultsFolder {
    std::string dir;
    ResultsManifest manifest;
    Experiment experiment;
    ExperimentResult result;
};

/** Checks DIR's files against the digests its manifest records: the first damaged one (in name
 *  order) as an error naming DIR/FILE, the damage class and, for a shard, which one ("…/metrics.csv:
 *  truncated: 7249 of the 10011 rows manifest.json records (…); shard 2/3"). A manifest without
 *  digests passes (the caller flags the folder as unverified). */
Status verifyFolderFiles(const std::string &dir, const ResultsManifest &manifest);

/** Reads DIR's manifest.json and checks the files it records (verifyFolderFiles) without
 *  parsing them (any size): the check of `dplab-cli verify`. Errors as readResultsFolder's first
 *  ones: not a folder, no manifest, a summary marked incomplete, a damaged file. */
Result<ResultsManifest> readVerifiedManifest(const std::string &dir);

/** Reads DIR's manifest.json, checks the files it records (verifyFolderFiles), then reads
 *  summary.json, experiment.json, metrics.csv, epsilon_per_agent.csv (and trace.csv when the
 *  manifest lists it). Errors (exit 2 in the CLI) name the folder or file:line: no manifest (an
 *  interrupted or unfinished run), a damaged file, a summary marked incomplete, an
 *  experiment.json that does not match the manifest, a malformed file. */
Result<ResultsFolder> readResultsFolder(const std::string &dir);

/** The files a run writes (stageRunOutputs) with their records, into `manifest`. */
void recordFiles(ResultsManifest &manifest, const std::vector<std::pair<std::string, std::string>> &files);

/** The line callers print for a folder whose manifest records no digests (older DPLab):
 *  "DIR: unverified: manifest.json records no digests (…)". */
std::string unverifiedNotice(const std::string &dir);

/** Merges shard folders into the result of the whole job list. Every folder must come from the
 *  same experiment (hash) and DPLab version and be shard i of the same N; every shard must be
 *  there exactly once. Errors name the missing, duplicated or foreign shard. */
Result<ResultsFolder> mergeResultsFolders(std::vector<ResultsFolder> shards);

/** The folder's experiment, fully built (graph, weights, problem and its data) for the report
 *  and the GUI. Data paths resolve against the manifest's experiment folder when it exists,
 *  else against the results folder. */
Result<Experiment> loadFolderExperiment(const ResultsFolder &folder);

} // namespace dplab
