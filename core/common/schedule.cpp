// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/schedule.h"

#include <cmath>
#include <sstream>

namespace dplab {

Schedule Schedule::constant(double a)
{
    Schedule s;
    s.mKind = Kind::Constant;
    s.mA = a;
    return s;
}

Schedule Schedule::polynomial(double a, double t0, double p)
{
    Schedule s;
    s.mKind = Kind::Polynomial;
    s.mA = a;
    s.mT0 = t0;
    s.mP = p;
    return s;
}

Schedule Schedule::geometric(double a, double q)
{
    Schedule s;
    s.mKind = Kind::Geometric;
    s.mA = a;
    s.mQ = q;
    return s;
}

namespace {

Result<double> finiteField(const Json &json, const std::string &key, const std::string &path,
                           double def, bool required)
{
    if (!json.contains(key)) {
        if (required)
            return Error::invalid(joinPath(path, key), "is required");
        return def;
    }
    const Json &v = json.at(key);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        return Error::invalid(joinPath(path, key), "must be a finite number");
    return v.get<double>();
}

} // namespace

Result<Schedule> Schedule::fromJson(const Json &json, const std::string &path)
{
    if (json.is_number()) {
        const double a = json.get<double>();
        if (!std::isfinite(a))
            return Error::invalid(path, "must be finite");
        return constant(a);
    }
    if (!json.is_object())
        return Error::invalid(path, "must be a number or a schedule object {\"type\": ...}");
    if (!json.contains("type") || !json.at("type").is_string())
        return Error::invalid(joinPath(path, "type"),
                              "is required: constant, polynomial or geometric");
    const std::string type = json.at("type").get<std::string>();
    const std::vector<std::string> allowed = type == "constant"     ? std::vector<std::string>{"type", "a"}
                                             : type == "polynomial" ? std::vector<std::string>{"type", "a", "t0", "p"}
                                             : type == "geometric"  ? std::vector<std::string>{"type", "a", "q"}
                                                                    : std::vector<std::string>{};
    if (allowed.empty())
        return Error::invalid(joinPath(path, "type"), "must be constant, polynomial or geometric, got \"" + type + "\"");
    for (auto it = json.begin(); it != json.end(); ++it) {
        bool ok = false;
        for (const auto &k : allowed)
            ok = ok || k == it.key();
        if (!ok)
            return Error::invalid(joinPath(path, it.key()), "unknown key for a " + type + " schedule");
    }
    auto a = finiteField(json, "a", path, 0.0, true);
    if (!a)
        return a.error();
    if (type == "constant")
        return constant(*a);
    if (type == "polynomial") {
        auto t0 = finiteField(json, "t0", path, 1.0, false);
        if (!t0)
            return t0.error();
        auto p = finiteField(json, "p", path, 0.0, true);
        if (!p)
            return p.error();
        if (!(*t0 > 0))
            return Error::invalid(joinPath(path, "t0"), "must be > 0 (the schedule is a/(t+t0)^p)");
        return polynomial(*a, *t0, *p);
    }
    auto q = finiteField(json, "q", path, 1.0, true);
    if (!q)
        return q.error();
    if (!(*q > 0))
        return Error::invalid(joinPath(path, "q"), "must be > 0");
    return geometric(*a, *q);
}

Json Schedule::toJson() const
{
    switch (mKind) {
    case Kind::Constant:
        return Json{{"type", "constant"}, {"a", mA}};
    case Kind::Polynomial:
        return Json{{"type", "polynomial"}, {"a", mA}, {"t0", mT0}, {"p", mP}};
    case Kind::Geometric:
        return Json{{"type", "geometric"}, {"a", mA}, {"q", mQ}};
    }
    return Json{};
}

double Schedule::at(long long t) const
{
    switch (mKind) {
    case Kind::Constant:
        return mA;
    case Kind::Polynomial:
        return mA / std::pow(static_cast<double>(t) + mT0, mP);
    case Kind::Geometric:
        return mA * std::pow(mQ, static_cast<double>(t));
    }
    return mA;
}

std::string Schedule::toString() const
{
    std::ostringstream out;
    switch (mKind) {
    case Kind::Constant:
        out << mA;
        break;
    case Kind::Polynomial:
        out << mA << "/(t+" << mT0 << ")^" << mP;
        break;
    case Kind::Geometric:
        out << mA << "·" << mQ << "^t";
        break;
    }
    return out.str();
}

Schedule paramSchedule(const Json &params, const std::string &key)
{
    auto s = Schedule::fromJson(params.at(key), key);
    assert(s.ok() && "paramSchedule: parameter not resolved");
    return s.value();
}

} // namespace dplab
