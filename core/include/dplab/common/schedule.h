// SPDX-License-Identifier: GPL-3.0-or-later
//
// Schedules for step sizes, noise scales and weakening/coupling factors:
//   constant    a
//   polynomial  a / (t + t0)^p
//   geometric   a * q^t
// In JSON a schedule is a number (constant) or {"type": ..., "a": ..., "t0": ..., "p": ...} /
// {"type": "geometric", "a": ..., "q": ...}.
//
// Threading: value type, const methods are thread-safe.
#pragma once

#include "dplab/common/params.h"

#include <string>

namespace dplab {

class Schedule
{
public:
    enum class Kind { Constant, Polynomial, Geometric };

    Schedule() = default;
    static Schedule constant(double a);
    static Schedule polynomial(double a, double t0, double p);
    static Schedule geometric(double a, double q);

    /** Parses a number or a schedule object; errors name `path`. */
    static Result<Schedule> fromJson(const Json &json, const std::string &path);
    Json toJson() const;

    /** The value at iteration t = 0, 1, 2, ... */
    double at(long long t) const;

    Kind kind() const { return mKind; }
    double a() const { return mA; }
    double t0() const { return mT0; }
    double p() const { return mP; }
    double q() const { return mQ; }
    /** "0.1/(t+1)^0.6" etc., for reports and tooltips. */
    std::string toString() const;

private:
    Kind mKind = Kind::Constant;
    double mA = 0.0;
    double mT0 = 1.0;
    double mP = 0.0;
    double mQ = 1.0;
};

/** Reads a resolved Schedule parameter (see resolveParams). */
Schedule paramSchedule(const Json &params, const std::string &key);

} // namespace dplab
