// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/runidentity.h"
#include "dplab/engine/sweepgrid.h"

#include <cmath>
#include <cstdio>

namespace dplab {

namespace {

void appendCanonical(const Json &v, std::string &out)
{
    switch (v.type()) {
    case Json::value_t::object: {
        out += '{';
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) { // nlohmann::json keeps object keys sorted
            if (!first)
                out += ',';
            first = false;
            out += Json(it.key()).dump();
            out += ':';
            appendCanonical(it.value(), out);
        }
        out += '}';
        return;
    }
    case Json::value_t::array: {
        out += '[';
        for (std::size_t k = 0; k < v.size(); ++k) {
            if (k > 0)
                out += ',';
            appendCanonical(v[k], out);
        }
        out += ']';
        return;
    }
    case Json::value_t::number_float: {
        const double x = v.get<double>();
        char buffer[40];
        if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9007199254740992.0)
            std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(x)); // 1.0 and 1 alike
        else
            std::snprintf(buffer, sizeof buffer, "%.17g", x);
        out += buffer;
        return;
    }
    default: // strings, integers, booleans, null: nlohmann's compact text is already canonical
        out += v.dump(-1, ' ', false, Json::error_handler_t::replace);
        return;
    }
}

} // namespace

std::string canonicalJson(const Json &value)
{
    std::string out;
    appendCanonical(value, out);
    return out;
}

std::string canonicalHash(const Json &value)
{
    // FNV-1a, 128 bits: offset basis and prime of the FNV specification.
    unsigned __int128 h = (static_cast<unsigned __int128>(0x6c62272e07bb0142ull) << 64) | 0x62b821756295c58dull;
    const unsigned __int128 prime = (static_cast<unsigned __int128>(0x0000000001000000ull) << 64) | 0x000000000000013Bull;
    for (unsigned char c : canonicalJson(value)) {
        h ^= c;
        h *= prime;
    }
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "fnv1a128:%016llx%016llx", static_cast<unsigned long long>(h >> 64),
                  static_cast<unsigned long long>(h));
    return buffer;
}

Json runSpecification(const Experiment &point, int run)
{
    const Json &doc = point.resolved;
    Json spec = Json::object();
    // Everything of the document that reaches a run's numbers; the other runs, the name,
    // description, presentation and the number of repetitions do not.
    for (const char *key : {"format", "version", "seed", "iterations", "record_every", "common_random_numbers",
                            "metrics", "graph", "problem", "eavesdropper"})
        if (doc.contains(key))
            spec[key] = doc[key];
    // What resolving fills in even when the document leaves it out.
    spec["seed"] = point.seed;
    spec["iterations"] = point.iterations;
    spec["record_every"] = point.recordEvery;
    spec["common_random_numbers"] = point.commonRandomNumbers;
    const RunSpec &r = point.runs[static_cast<std::size_t>(run)];
    Json runJson = doc.contains("runs") && doc["runs"].size() > static_cast<std::size_t>(run)
                       ? doc["runs"][static_cast<std::size_t>(run)]
                       : Json::object();
    runJson.erase("label");
    runJson.erase("color");
    runJson["algorithm"] = r.algorithm ? r.algorithm->id : std::string();
    runJson["params"] = r.params;
    runJson["privacy"] = r.privacy;
    runJson["compressor"] = r.compressor;
    runJson["init"] = r.init;
    runJson["weights"] = r.weights;
    spec["run"] = runJson;
    if (!point.commonRandomNumbers)
        spec["run_index"] = run; // the noise streams are keyed by it
    return spec;
}

namespace {

/** The hash runIdentity gives for a run's specification (moved into the key and back). */
std::string identityOf(Json &specification, int repetition, int repetitions)
{
    Json key = Json::object();
    key["specification"] = std::move(specification);
    if (repetition >= 0)
        key["repetition"] = repetition;
    else
        key["repetitions"] = repetitions;
    std::string identity = canonicalHash(key);
    specification = std::move(key["specification"]);
    return identity;
}

} // namespace

std::string runIdentity(const Experiment &point, int run, int repetition)
{
    Json specification = runSpecification(point, run);
    return identityOf(specification, repetition, point.repetitions);
}

RunKey runKey(const Experiment &point, int run)
{
    RunKey key;
    key.specification = runSpecification(point, run);
    key.identity = identityOf(key.specification, -1, point.repetitions);
    return key;
}

Result<Experiment> sweepPointForKeys(const Experiment &experiment, int point)
{
    if (!experiment.sweep || point < 0 || point >= static_cast<int>(experiment.sweep->values.size()))
        return Error::invalid("sweep.values", "no point " + std::to_string(point));
    Json doc = experiment.resolved;
    doc.erase("sweep");
    if (auto s = applySweepValue(doc, *experiment.sweep, experiment.sweep->values[point]); !s)
        return s.error();
    ResolveOptions options;
    options.resolveSweepPoints = false;
    options.limits.maxMemoryBytes = UINT64_MAX; // nothing is allocated for a key
    return resolveExperiment(doc, experiment.baseDir, options);
}

Result<std::string> runIdentityAt(const Experiment &experiment, int point, int run, int repetition)
{
    if (run < 0 || run >= static_cast<int>(experiment.runs.size()))
        return Error::invalid("runs", "no run " + std::to_string(run));
    if (!experiment.sweep)
        return runIdentity(experiment, run, repetition);
    auto resolved = sweepPointForKeys(experiment, point);
    if (!resolved)
        return resolved.error();
    return runIdentity(*resolved, run, repetition);
}

} // namespace dplab
