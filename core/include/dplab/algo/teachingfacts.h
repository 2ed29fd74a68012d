// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two small declarative facts an algorithm descriptor may carry for the teaching views:
//
//  AttackSurface  what an eavesdropper who wiretaps one agent's links (everything it sends and
//                 receives) can reconstruct from the messages, given the public protocol
//                 (weights, step sizes). core/teaching/eavesdropper.h implements each kind.
//  TheoryRate     a convergence rate a paper states for the algorithm (O(t^−β), ρ^k, O(√T)),
//                 drawn by the UI as a dashed reference curve anchored at the run's first
//                 recorded point (core/teaching/theory.h evaluates it).
//
// Threading: plain data.
#pragma once

#include <string>

namespace dplab {

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

struct TheoryRate {
    enum class Kind {
        /** value(t) ∝ t^e, e = exponent + scheduleFactor · p(scheduleParam) */
        Power,
        /** value(k) ∝ ρ^(ratePower·k), ρ = ‖W − 11ᵀ/n‖₂ of the run's weights */
        Linear
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
};

} // namespace dplab
