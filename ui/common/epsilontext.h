// SPDX-License-Identifier: GPL-3.0-or-later
//
// What an ε number means, in words, for the status bar and the ε plot: which accountant
// certified it, for what δ, over which agents — and a plain flag when the bound is vacuous.
//
// Every accountant in DPLab composes Laplace releases (pure ε-DP, δ = 0). ε is the privacy loss
// after t iterations covering every message sent in iterations 0..t−1 (docs/architecture.md §10).
//
// Threading: pure functions.
#pragma once

#include <QString>

namespace dplab {

/** Above this an ε-DP guarantee says nothing a reader can use: e^ε ≥ e^100 ≈ 10^43. */
inline constexpr double kVacuousEpsilon = 100.0;

/** Whether `epsilon` is a vacuous bound (≥ kVacuousEpsilon, or ∞). */
bool isVacuousEpsilon(double epsilon);

/** Short status-bar text: "ε 0.82 (max)", "ε 1.7e+07 ⚠ vacuous", "ε —". */
QString epsilonStatusText(double epsilon);

/** Rich-text explanation of the number: what it bounds, δ, max over agents, and — when
 *  vacuous — why such a number appears and what it (does not) promise. */
QString epsilonExplanation(double epsilon, const QString &accountants = QString());

/** One line for the ε plot when a run's final ε is vacuous (empty otherwise). */
QString vacuousEpsilonNote(double epsilon);

} // namespace dplab
