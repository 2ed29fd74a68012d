// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two small declarative facts an algorithm descriptor may carry for the teaching views:
//
//  AttackSurface  what an eavesdropper who wiretaps one agent's links (everything it sends and
//                 receives) can reconstruct from the messages, given the public protocol
//                 (weights, step sizes). core/engine/eavesdropper.h implements each kind.
//  TheoryRate     a convergence rate a paper states for the algorithm (O(t^−β), ρ^k, O(√T)),
//                 drawn by the UI as a dashed reference curve anchored at the run's first
//                 recorded point, or a steady-state bound (paper 003's θ) drawn as a level
//                 (core/teaching/theory.h evaluates it).
//
// Threading: plain data.
#pragma once

#include "dplab/common/params.h"

#include <Eigen/Core>

#include <functional>
#include <string>

namespace dplab {

class Problem;

struct AttackSurface {
    enum class Kind {
        None,
        /** x_i(k+1) = Σ_j W_ij x_j(k) − α_k g_i(k) (DGD): g_i(k) from two consecutive decisions. */
        DecisionStep,
        /** y_i(k+1) = Σ_j W_ij y_j(k) + g_i(k+1) − g_i(k), y_i(0) = g_i(0) (DIGing, Push-Pull):
         *  g_i by summing the tracker's increments. */
        TrackerDifference,
        /** s_i(t+1) = Σ_j C_ij s_j(t) + λ_t g_i(t) (paper 000, Algorithm 1): g_i(t) from one
         *  increment of the tracker. */
        StepInsideTracker
    };
    Kind kind = Kind::None;
    std::string decisionChannel; ///< message channel carrying the decision x_i ("x", "theta")
    std::string trackerChannel;  ///< channel carrying the tracker ("y", "s"); "" for DecisionStep
    std::string stepParam = "stepsize"; ///< the params key of the (public) step-size schedule
};

/** A steady-state bound evaluated for one run: `value` finite, or `why` it has none (the
 *  parameters are outside the theorem, e.g. a step above its bound). */
struct TheoryLevel {
    double value = 0.0;
    std::string label; ///< the value and what it came from, e.g. "26.8 (θ = 2862, ρ(A) = 0.9999)"
    std::string why;   ///< non-empty: no bound for this run
};

/** What a Level bound is evaluated on: one run's resolved parameters, weights and problem. */
struct TheoryRun {
    const Json &params;
    const Json &privacy;
    bool compressed; ///< a compressor other than the identity acts on its messages
    const Eigen::MatrixXd &W;
    const Problem &problem;
};

struct TheoryRate {
    enum class Kind {
        /** value(t) ∝ t^e, e = exponent + scheduleFactor · p(scheduleParam) */
        Power,
        /** value(k) ∝ ρ^(ratePower·k), ρ = ‖W − 11ᵀ/n‖₂ of the run's weights */
        Linear,
        /** limsup_k value(k) ≤ level(run).value: an absolute bound, not anchored */
        Level
    };
    Kind kind = Kind::Power;
    std::string metric;        ///< the metric whose plot the curve overlays
    double exponent = 0.0;     ///< Power: the fixed part of the exponent
    std::string scheduleParam; ///< Power: a polynomial schedule in params whose p enters e ("" = none)
    double scheduleFactor = 0.0;
    double ratePower = 1.0;    ///< Linear: ρ^(ratePower·k)
    std::string whenParam;     ///< applies only when params[whenParam] == whenValue ("" = always)
    std::string whenValue;
    std::string label;         ///< e.g. "O(t^−(1−v))"
    std::string citation;      ///< e.g. "paper 000, Theorem 2"
    /** Level: the bound for one run on its problem, or why none applies (see TheoryLevel). */
    std::function<TheoryLevel(const TheoryRun &)> level;
};

} // namespace dplab
