// SPDX-License-Identifier: GPL-3.0-or-later
//
// Parameter specs and descriptors: the documented data behind every algorithm, compressor,
// problem, generator and weight scheme. The GUI form, `dplab-cli list --json`, the experiment
// validator and the report all read the same descriptors (docs/architecture.md §2).
//
// Parameter values travel as nlohmann::json objects. `resolveParams` validates a user's object
// against the specs (unknown key, wrong type, out of range, NaN: each an Error naming the JSON
// path) and returns the object with every default filled in (an optional Real unset: null).
//
// Threading: plain data and pure functions.
#pragma once

#include "dplab/common/result.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dplab {

using Json = nlohmann::json;

enum class ParamType {
    Real,     ///< a finite double in [min, max]
    Integer,  ///< a whole number in [min, max]
    Bool,     ///< true / false
    Choice,   ///< one of `choices`
    Schedule, ///< a number (constant) or {"type": "constant"|"polynomial"|"geometric", ...}
    Text      ///< free text (e.g. a file name)
};

/** One parameter of a descriptor. Like LevelDB's Options fields: unit, default, requirement. */
struct ParamSpec {
    std::string key;   ///< JSON key
    std::string label; ///< short label for forms
    std::string unit;  ///< e.g. "" or "iterations"
    std::string help;  ///< tooltip / report sentence; say what it does and its paper symbol
    ParamType type = ParamType::Real;
    Json defaultValue;          ///< filled in when absent (null: required; a null Real is optional)
    double min = -1e300;        ///< inclusive lower bound (Real, Integer, schedule scale)
    double max = 1e300;         ///< inclusive upper bound
    bool minExclusive = false;  ///< min is exclusive (e.g. step > 0)
    bool logScale = false;      ///< GUI hint: log-scale spin box / slider
    bool perAgent = false;      ///< may be given as a list with one value per agent
    std::vector<std::string> choices; ///< for Choice
    std::string condition;      ///< theorem condition this parameter takes part in (warnings)
};

enum class GraphKind { Undirected, Directed, Either };

const char *graphKindName(GraphKind kind);

/** What every registry entry has: id (kebab-case JSON value), name, reference, help, parameters. */
struct Descriptor {
    std::string id;
    std::string name;
    std::string reference;   ///< paper reference ("" when none)
    std::string explanation; ///< a paragraph for tooltips, help and the report
    std::vector<ParamSpec> params;
};

/** Validates `given` (an object, or null meaning {}) against `specs`; fills defaults.
 *  `path` is the JSON path of `given` for error messages. `agents` is the length a per-agent
 *  list must have (0 = unknown, then any length ≥ 1 is accepted). */
Result<Json> resolveParams(const std::vector<ParamSpec> &specs, const Json &given,
                           const std::string &path, int agents = 0);

/** Describes one spec as JSON (for `list --json` and the GUI). */
Json paramSpecToJson(const ParamSpec &spec);
Json descriptorToJson(const Descriptor &descriptor);

// --- Reading resolved parameter objects (keys are known to exist after resolveParams) ----

double paramReal(const Json &params, const std::string &key);
long long paramInt(const Json &params, const std::string &key);
bool paramBool(const Json &params, const std::string &key);
std::string paramText(const Json &params, const std::string &key);
/** A per-agent parameter as a vector of length n (a scalar is repeated). */
Eigen::VectorXd paramPerAgent(const Json &params, const std::string &key, int n);

// --- Convenience builders for descriptor tables ---------------------------------------------

/** How a real parameter's range reads and its slider and sweeps step, by name:
 *  realParam(…, {.minExclusive = true, .logScale = true}). */
struct RealRange {
    bool minExclusive = false; ///< (min, max] rather than [min, max]
    bool logScale = false;     ///< sliders and sweeps step logarithmically
};
ParamSpec realParam(std::string key, std::string label, double def, double min, double max,
                    std::string help, RealRange range = {});
ParamSpec intParam(std::string key, std::string label, long long def, long long min,
                   long long max, std::string help);
ParamSpec boolParam(std::string key, std::string label, bool def, std::string help);
ParamSpec choiceParam(std::string key, std::string label, std::string def,
                      std::vector<std::string> choices, std::string help);

} // namespace dplab
