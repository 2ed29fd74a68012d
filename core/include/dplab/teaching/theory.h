// SPDX-License-Identifier: GPL-3.0-or-later
//
// Theory overlays: the rates a paper states for an algorithm (AlgorithmDescriptor::theory),
// evaluated as reference curves for one run. A power law c·t^e is anchored at the run's first
// recorded point with t ≥ 1 and a positive value; a linear rate c·ρ^(m·k) at its first recorded
// point with a positive value. The curves show the slope a theorem guarantees, not its constant.
// A level (paper 003's steady-state θ) is an absolute bound evaluated on the run's problem and
// weights, drawn flat over the recorded iterations; where the run's parameters are outside the
// theorem it comes without points and says why.
//
// Threading: pure functions.
#pragma once

#include "dplab/engine/experiment.h"

#include <string>
#include <vector>

namespace dplab {

struct TheoryCurve {
    std::string metric;   ///< the metric it overlays
    std::string label;    ///< e.g. "O(t^−0.39)"
    std::string citation; ///< e.g. "paper 000, Theorem 2"
    bool linear = false;  ///< false: c·t^exponent; true: c·exp(exponent·k)
    bool level = false;   ///< a flat bound `value` (overrides linear and exponent)
    double exponent = 0;  ///< Power: e; Linear: log ρ^m (per iteration)
    double value = 0;     ///< Level: the bound
    std::string why;      ///< Level: non-empty when no bound applies to this run (no points)
    std::vector<long long> iterations;
    std::vector<double> values;
};

/** The rates of `run`'s algorithm that apply to its parameters, with the exponent or ρ filled
 *  in (curves without points). Linear rates use ρ(W − 11ᵀ/n) of the run's W (or R). Levels
 *  need the built `problem` (skipped when null); one outside its theorem has `why` set. */
std::vector<TheoryCurve> theoryRates(const RunSpec &run, const Problem *problem = nullptr);

/** The reference curves of `run` anchored on its recorded series: `names` are the metric
 *  columns of `values[k][m]` at `iterations[k]`. Rates whose metric is absent are skipped. */
std::vector<TheoryCurve> theoryCurves(const RunSpec &run, const std::vector<std::string> &names,
                                      const std::vector<long long> &iterations,
                                      const std::vector<std::vector<double>> &values,
                                      const Problem *problem = nullptr);

} // namespace dplab
