// SPDX-License-Identifier: GPL-3.0-or-later
//
// The small experiment the engine, results and CLI tests share: four agents on an undirected
// ring with Metropolis weights, each with a 2-D quadratic f_i(x) = ½xᵀA_i x − b_iᵀx (the A_i, b_i
// below), runs given by the test. Included by path ("../common/ringquadratic.h"): header-only.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace dplab::test {

/** The experiment document: `name`, `seed`, `iterations`, `repetitions`, `recordEvery` and the
 *  ring, its quadratics and `runs`. */
inline nlohmann::json ringQuadraticExperiment(const std::string &name, std::uint64_t seed, long long iterations,
                                              long long repetitions, long long recordEvery, nlohmann::json runs)
{
    nlohmann::json e = nlohmann::json::parse(R"({
      "format": "dplab-experiment", "version": 1,
      "graph": { "directed": false, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0]],
                 "weights": { "scheme": "metropolis" } },
      "problem": { "type": "quadratic", "dimension": 2,
                   "agents": [ {"A": [[2,0],[0,1]], "b": [1,0]}, {"A": [[1,0],[0,2]], "b": [0,1]},
                               {"A": [[3,1],[1,2]], "b": [1,1]}, {"A": [[1,0],[0,1]], "b": [-1,0]} ] }
    })");
    e["name"] = name;
    e["seed"] = seed;
    e["iterations"] = iterations;
    e["repetitions"] = repetitions;
    e["record_every"] = recordEvery;
    e["runs"] = std::move(runs);
    return e;
}

/** Two runs: "GT" (gradient tracking, step 0.1, noise_x `noiseX`, random init) and "DGD" (step 0.1). */
inline nlohmann::json gradientTrackingAndDgd(double noiseX)
{
    nlohmann::json runs = nlohmann::json::parse(R"([
      { "label": "GT", "algorithm": "gradient-tracking", "params": { "stepsize": 0.1 },
        "privacy": { "noise_x": 0 }, "init": { "type": "random" } },
      { "label": "DGD", "algorithm": "dgd", "params": { "stepsize": 0.1 } } ])");
    runs[0]["privacy"]["noise_x"] = noiseX;
    return runs;
}

} // namespace dplab::test
