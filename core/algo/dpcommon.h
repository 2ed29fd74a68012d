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
#include "dplab/privacy/roundsumaccountant.h"

#include <Eigen/Core>

#include <cmath>
#include <initializer_list>
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

/** A noise scale that gives the shape a target ε rescales: it must be > 0 when `needed`. */
struct NoiseShape {
    double scale = 0.0;
    const char *field = "";  ///< "privacy.noise_x"
    const char *symbol = ""; ///< what the error calls the shape, "M_k " (or nothing)
    bool needed = true;
};

/** Fails naming the field of the first needed shape whose scale is not > 0. */
Status requireNoiseShapes(std::initializer_list<NoiseShape> shapes);

/** The factor c that makes the ε of a round-sum set-up (DiaDSP, DPOP) after `horizon` iterations
 *  (the rounds 0..T−1) equal `target`. Fails naming the field unless a target can be reached:
 *  C > 0 and a horizon (GradientBound::canCalibrate), every needed shape > 0, and a finite c
 *  (privacy.noise_x when the noise reaches zero). */
template <class Setup>
Result<double> roundSumFactor(const Setup &setup, const GradientBound &bound, long long horizon,
                              double target, std::initializer_list<NoiseShape> shapes)
{
    if (Status s = bound.canCalibrate(horizon); !s)
        return s.error();
    if (Status s = requireNoiseShapes(shapes); !s)
        return s.error();
    const double factor = roundSumCalibrationFactor(setup, horizon - 1, target);
    if (!std::isfinite(factor))
        return Error::invalid("privacy.noise_x", "reaches zero: no scale gives a finite ε");
    return factor;
}

/** The note of a calibrated run: "calibrated: <scalesGive> = <target> after <horizon>
 *  iterations", e.g. scalesGive = "noise M_k = 0.5·0.99^k gives ε". */
std::string calibrationNote(const std::string &scalesGive, double target, long long horizon);

/** The accountant of a run: make() when the noise is on and C is known; null otherwise, and a
 *  noisy run without C gets the warning "privacy.gradient_bound is 0: <unaccounted>". */
template <class Make>
auto accountantIfBounded(bool noisy, const GradientBound &bound, const std::string &unaccounted,
                         std::vector<std::string> &warnings, Make make) -> decltype(make())
{
    if (noisy && bound.bound() > 0)
        return make();
    if (noisy)
        warnings.push_back("privacy.gradient_bound is 0: " + unaccounted);
    return nullptr;
}

} // namespace dplab::dp
