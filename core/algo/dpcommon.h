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
#include "dplab/common/result.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

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
/** A number the problem states in its describe() facts under `key`, if finite and > 0; else 0. */
double problemFact(const Problem &problem, const char *key);
/** "clip" (a switch, JSON key "clip"): clip every local gradient to ‖·‖₂ ≤ C before use
 *  (enforces Assumption 2). Not paper 002's bound of the same key (privateonline.h). */
ParamSpec clipSwitchParam();

/** Assumption 2's bound C on the local gradients and what a run does with it: with privacy.clip
 *  every gradient is clipped to ‖·‖₂ ≤ C; otherwise the first iteration at which some
 *  ‖∇f_i‖₂ > C is remembered, since the accounted ε is then not a guarantee. */
class GradientBound
{
public:
    /** Reads C (gradientBound()) and the clip switch; fails naming privacy.gradient_bound when
     *  clipping is on without a bound. Forgets an earlier violation. */
    Status reset(const Json &privacy, const Problem *problem);
    double bound() const { return mBound; }
    bool clips() const { return mClipping; }
    /** Clips g to C (clip on), or else checks it as the gradients of iteration t. */
    void enforce(Eigen::Ref<Eigen::MatrixXd> g, long long t);
    /** Remembers iteration t when a bound is known, no violation is remembered yet and some
     *  ‖g_i‖₂ > C. */
    void check(const Eigen::Ref<const Eigen::MatrixXd> &g, long long t);
    /** Fails naming the field unless a target ε can be reached: C > 0 and a horizon ≥ 1. */
    Status canCalibrate(long long horizon) const;
    /** `warnings`, and after a violation of an accounted run (`accounted`) one more: "<what> =
     *  ‖g‖ > C = C at iteration t: the accounted ε is not a guarantee (turn on privacy.clip)". */
    std::vector<std::string> withViolation(std::vector<std::string> warnings,
                                           const std::string &what, bool accounted) const;

private:
    double mBound = 0.0;
    bool mClipping = false;
    double mObserved = 0.0;
    long long mViolationIteration = -1;
};

/** ρ(W_o), W_o = W with its diagonal set to zero. */
double offDiagonalSpectralRadius(const Eigen::MatrixXd &w);

/** The schedule c·s_k (same kind and shape, scale multiplied by c). */
Schedule scaledSchedule(const Schedule &s, double c);


} // namespace dplab::dp
