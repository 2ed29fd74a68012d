// SPDX-License-Identifier: GPL-3.0-or-later
//
// The experiment file (docs/architecture.md §4): parsing, validation naming the JSON path, and the resolved
// document with every default filled in (what `run --out` writes as experiment.json and what
// the GUI saves).
//
// Two steps (docs/architecture.md §4): resolveExperiment turns the JSON into a validated specification —
// graph, weight matrices, parameters, every sweep point, the headers of the data files and an
// estimate of the memory the run needs, checked against ResourceLimits — without loading data or
// resetting an algorithm. buildExperiment then builds the problem (loading data through a
// DataCache, so a file is read once while it is unchanged). parseExperiment does both.
//
// Top-level keys: format ("dplab-experiment"), version (1), name, description, seed,
// iterations, repetitions, record_every, common_random_numbers, metrics, graph, problem, runs,
// sweep, eavesdropper, presentation (teaching). Unknown keys are errors naming the key.
//
// Threading: Experiment is a value; parsing is a pure function.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/common/limits.h"
#include "dplab/common/params.h"
#include "dplab/graph/graph.h"
#include "dplab/problem/problemspec.h"
#include "dplab/engine/eavesdropper.h"
#include "dplab/engine/presentation.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dplab {

inline constexpr const char *kExperimentFormat = "dplab-experiment";
inline constexpr int kExperimentVersion = 1;
/** Without "record_every", a run records at most this many iterations (plus iteration 0). */
inline constexpr long long kDefaultRecordedPoints = 2000;

struct RunSpec {
    std::string label;
    const AlgorithmDescriptor *algorithm = nullptr;
    Json params;     ///< resolved against algorithm->params
    Json privacy;    ///< resolved against algorithm->privacyParams
    Json compressor; ///< resolved compressor spec ({"type": "identity"} when none)
    std::shared_ptr<const Compressor> compressorImpl;
    Json init;    ///< {"type": "zeros"} | {"type": "random", "scale": s} | {"x": [[...]]}
    Json weights; ///< resolved weight spec used by this run
    std::string color; ///< "" = automatic
    Eigen::MatrixXd W, R, C; ///< the weight matrices this run mixes with (per its needs)
};

struct SweepSpec {
    std::string parameter; ///< e.g. "runs[*].privacy.noise_y", "graph.generator.nodes"
    std::vector<Json> values;
};

struct Experiment {
    std::string name;
    std::string description;
    std::uint64_t seed = 0;
    long long iterations = 0;
    int repetitions = 1;
    long long recordEvery = 1;
    bool commonRandomNumbers = true;
    std::vector<std::string> extraMetrics; ///< opt-in metrics (e.g. "residual")
    Graph graph;
    Json graphJson;   ///< resolved graph object
    Json problemJson; ///< the problem object
    ProblemSpec problemSpec; ///< resolved problem, data headers, dimension when known
    std::shared_ptr<const Problem> problem; ///< null until buildExperiment
    ResourceEstimate resources; ///< memory estimate over every sweep point (resolveExperiment)
    std::vector<RunSpec> runs;
    std::optional<SweepSpec> sweep;
    std::optional<EavesdropperSpec> eavesdropper; ///< teaching: the attack of attack_error
    std::optional<Presentation> presentation;     ///< teaching: presentation mode and lesson notes
    std::string baseDir; ///< folder of the experiment file (relative data paths)
    Json resolved;       ///< the whole resolved document

    /** True once buildExperiment has built the problem (the experiment can run). */
    bool isBuilt() const { return problem != nullptr; }
    /** The problem dimension: the built problem's, else the specification's (-1 = unknown until
     *  the data are loaded). */
    int dimension() const { return problem ? problem->dimension() : problemSpec.dimension; }
};

/** What resolveExperiment checks besides the document. */
struct ResolveOptions {
    ResourceLimits limits;
    bool trace = false;            ///< the run keeps traces (--trace): counted in the estimate
    int threads = 0;               ///< worker threads (0 = hardware concurrency): per-thread state
    bool resolveSweepPoints = true; ///< resolve every sweep point (false: the base document only)
};

/** JSON → validated specification: graph, weights, runs, every sweep point (each value checked
 *  as the point's document), data headers, resource estimate against the limits. Loads no data,
 *  resets no algorithm. Errors name the JSON path; sweep point errors name sweep.values[i]. */
Result<Experiment> resolveExperiment(const Json &document, const std::string &baseDir,
                                     const ResolveOptions &options = {});

/** Builds the problem of a resolved experiment (loads data through `cache`), then checks what
 *  only the data decide (the dimension against init.x). */
Status buildExperiment(Experiment &experiment, DataCache &cache = DataCache::shared());

/** The memory estimate of one resolved experiment point (no sweep): graph, weights, problem,
 *  recorded metrics, traces, per-thread algorithm state. */
ResourceEstimate estimateResources(const Experiment &point, const ResolveOptions &options);

/** Reads an experiment file (checked: a regular file, nesting, number range) and resolves it;
 *  errors are prefixed with the file. */
Result<Experiment> resolveExperimentFile(const std::string &path, const ResolveOptions &options = {});

/** resolveExperiment (default options) + buildExperiment: a runnable experiment. */
Result<Experiment> parseExperiment(const Json &document, const std::string &baseDir);

/** Reads, parses and validates an experiment file. */
Result<Experiment> loadExperimentFile(const std::string &path);

/** The experiment of one sweep point: the document with `sweep.parameter` set to `value`
 *  (and without the sweep key), resolved and built (data through DataCache::shared()). */
Result<Experiment> experimentAtSweepValue(const Experiment &experiment, const Json &value);

/** The paper-003 ring family: a weight spec {"scheme": "ring4-family"} without parameters takes
 *  the ring4-family generator's (rho_wo, rho_w) or (r, d) from `graph`, so a sweep over
 *  graph.generator.rho_w changes W too. Any other spec is returned unchanged. */
Json inheritRing4Parameters(Json weights, const Json &graph);

/** Sets the value(s) addressed by a path such as "runs[*].privacy.q", "runs[1].params.stepsize",
 *  "graph.generator.nodes" in `document`. Errors name `path`. */
Status setJsonPath(Json &document, const std::string &path, const Json &value);

/** Builds the run's initial decisions (n×d) for one repetition. */
Eigen::MatrixXd initialDecisions(const RunSpec &run, int n, int d, const NoiseSource &noise);

/** The context the runner resets run `run`'s algorithm with for one repetition: weights, problem,
 *  resolved parameters, compressor, the noise key (run index omitted with common random
 *  numbers), initial decisions and horizon. Every caller that resets an algorithm outside the
 *  runner (warnings, report) uses this, so it sees what the run saw. */
RunContext makeRunContext(const Experiment &experiment, int run, int repetition);

} // namespace dplab
