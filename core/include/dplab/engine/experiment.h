// SPDX-License-Identifier: GPL-3.0-or-later
//
// The experiment file (DESIGN §4): parsing, validation naming the JSON path, and the resolved
// document with every default filled in (what `run --out` writes as experiment.json and what
// the GUI saves).
//
// Top-level keys: format ("dplab-experiment"), version (1), name, description, seed,
// iterations, repetitions, record_every, common_random_numbers, metrics, graph, problem, runs,
// sweep. Unknown keys are errors naming the key.
//
// Threading: Experiment is a value; parsing is a pure function.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

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
    std::shared_ptr<const Problem> problem;
    std::vector<RunSpec> runs;
    std::optional<SweepSpec> sweep;
    std::string baseDir; ///< folder of the experiment file (relative data paths)
    Json resolved;       ///< the whole resolved document
};

/** Parses and validates an experiment document. Builds the graph, the weights of every run and
 *  the problem (which may load data files relative to baseDir). */
Result<Experiment> parseExperiment(const Json &document, const std::string &baseDir);

/** Reads, parses and validates an experiment file. */
Result<Experiment> loadExperimentFile(const std::string &path);

/** The experiment of one sweep point: the document with `sweep.parameter` set to `value`
 *  (and without the sweep key), parsed. */
Result<Experiment> experimentAtSweepValue(const Experiment &experiment, const Json &value);

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
