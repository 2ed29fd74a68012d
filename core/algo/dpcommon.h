// SPDX-License-Identifier: GPL-3.0-or-later
//
// Private helpers shared by the paper-003 algorithms (robust-dp-gt, dpop, diadsp): the privacy
// parameters they spell alike (target ε, gradient bound C, clipping), gradient clipping and the
// spectral facts of W their theorem checks use. Not a public header.
//
// Threading: plain functions.
#pragma once

#include "dplab/common/params.h"
#include "dplab/problem/problem.h"
#include "dplab/common/schedule.h"

#include <Eigen/Core>

#include <optional>
#include <string>

namespace dplab::dp {

/** "epsilon": target ε at the run's horizon, optional (absent or null: the noise as given); a
 *  number must be > 0 and rescales the given noise. `help` replaces the default help text. */
ParamSpec epsilonTargetParam(const std::string &help = {});
/** The target ε of resolved privacy parameters, or none when "epsilon" is unset (null). */
std::optional<double> epsilonTarget(const Json &privacy);
/** "gradient_bound": C with ‖∇f_i‖₂ ≤ C (Assumption 2); the sensitivity is 2√r C. */
ParamSpec gradientBoundParam();
/** C for the accountant: privacy.gradient_bound if > 0, else the problem's "gradient_bound" fact
 *  (describe()) if it states a finite positive one, else 0 (unknown). */
double gradientBound(const Json &privacy, const Problem *problem);
/** "clip": clip every local gradient to ‖·‖₂ ≤ C before use (enforces Assumption 2). */
ParamSpec clipParam();

/** Scales every row of g with ‖g_i‖₂ > bound down to norm `bound`. */
void clipRows(Eigen::Ref<Eigen::MatrixXd> g, double bound);
/** max_i ‖g_i‖₂. */
double maxRowNorm(const Eigen::Ref<const Eigen::MatrixXd> &g);

/** ρ_w = ρ(W − 11ᵀ/n), the spectral radius of the consensus part of W. */
double consensusSpectralRadius(const Eigen::MatrixXd &w);
/** ρ(W_o), W_o = W with its diagonal set to zero. */
double offDiagonalSpectralRadius(const Eigen::MatrixXd &w);

/** The schedule c·s_k (same kind and shape, scale multiplied by c). */
Schedule scaledSchedule(const Schedule &s, double c);

/** A number for messages: up to 6 significant digits. */
std::string num(double v);

} // namespace dplab::dp
