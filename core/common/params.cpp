// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/params.h"

#include "dplab/common/enumnames.h"
#include "dplab/common/formatnumber.h"
#include "dplab/common/schedule.h"

#include <cmath>

namespace dplab {

const char *graphKindName(GraphKind kind)
{
    return nameIn<GraphKind>({{GraphKind::Undirected, "undirected"},
                              {GraphKind::Directed, "directed"},
                              {GraphKind::Either, "either"}},
                             kind, "either");
}

namespace {

std::string rangeText(const ParamSpec &spec)
{
    std::string lo = spec.minExclusive ? "(" : "[";
    return lo + formatNumber(spec.min) + ", " + formatNumber(spec.max) + "]";
}

bool inRange(const ParamSpec &spec, double v)
{
    if (spec.minExclusive ? !(v > spec.min) : !(v >= spec.min))
        return false;
    return v <= spec.max;
}

const char *typeName(ParamType type)
{
    return nameIn<ParamType>({{ParamType::Real, "real"}, {ParamType::Integer, "integer"},
                              {ParamType::Bool, "bool"}, {ParamType::Choice, "choice"},
                              {ParamType::Schedule, "schedule"}, {ParamType::Text, "text"}},
                             type, "real");
}

// A Real spec without a default is optional: absent or null means "not set" (e.g. no target ε),
// so that no number doubles as "off". Every other spec without a default is required.
bool isOptional(const ParamSpec &spec)
{
    return spec.type == ParamType::Real && spec.defaultValue.is_null();
}

// Validates one scalar value of a spec (not a per-agent list).
Result<Json> resolveScalar(const ParamSpec &spec, const Json &value, const std::string &path)
{
    switch (spec.type) {
    case ParamType::Real: {
        if (!value.is_number())
            return Error::invalid(path, "must be a number");
        const double v = value.get<double>();
        if (!std::isfinite(v))
            return Error::invalid(path, "must be finite");
        if (!inRange(spec, v))
            return Error::invalid(path, "must be in " + rangeText(spec) + ", got " + formatNumber(v)
                                            + (isOptional(spec) ? "; to leave it unset, delete \"" + spec.key + "\" (or write null)"
                                                                : std::string()));
        return Json(v);
    }
    case ParamType::Integer: {
        if (!value.is_number_integer() && !(value.is_number_float() && std::floor(value.get<double>()) == value.get<double>()))
            return Error::invalid(path, "must be a whole number");
        const double v = value.get<double>();
        if (!inRange(spec, v))
            return Error::invalid(path, "must be in " + rangeText(spec) + ", got " + formatNumber(v));
        return Json(static_cast<long long>(v));
    }
    case ParamType::Bool:
        if (!value.is_boolean())
            return Error::invalid(path, "must be true or false");
        return value;
    case ParamType::Choice: {
        if (!value.is_string())
            return Error::invalid(path, "must be a string");
        const auto s = value.get<std::string>();
        for (const auto &c : spec.choices)
            if (c == s)
                return value;
        std::string all;
        for (const auto &c : spec.choices)
            all += (all.empty() ? "" : ", ") + c;
        return Error::invalid(path, "must be one of " + all + ", got \"" + s + "\"");
    }
    case ParamType::Schedule: {
        auto schedule = Schedule::fromJson(value, path);
        if (!schedule)
            return schedule.error();
        // The range applies to the schedule's scale a.
        if (!inRange(spec, schedule->a()))
            return Error::invalid(path, "scale must be in " + rangeText(spec) + ", got "
                                            + formatNumber(schedule->a()));
        return schedule->toJson();
    }
    case ParamType::Text:
        if (!value.is_string())
            return Error::invalid(path, "must be a string");
        return value;
    }
    return Error::internal(path, "unknown parameter type");
}

} // namespace

Result<Json> resolveParams(const std::vector<ParamSpec> &specs, const Json &given,
                           const std::string &path, int agents)
{
    if (!given.is_null() && !given.is_object())
        return Error::invalid(path, "must be an object");
    for (auto it = given.begin(); given.is_object() && it != given.end(); ++it) {
        bool known = false;
        for (const auto &spec : specs)
            known = known || spec.key == it.key();
        if (!known) {
            std::string all;
            for (const auto &spec : specs)
                all += (all.empty() ? "" : ", ") + spec.key;
            return Error::invalid(joinPath(path, it.key()),
                                  "unknown key" + (all.empty() ? std::string(" (no parameters here)")
                                                               : " (expected one of: " + all + ")"));
        }
    }
    Json resolved = Json::object();
    for (const auto &spec : specs) {
        const std::string keyPath = joinPath(path, spec.key);
        const bool present = given.is_object() && given.contains(spec.key);
        if (isOptional(spec) && (!present || given.at(spec.key).is_null())) {
            resolved[spec.key] = nullptr; // not set
            continue;
        }
        if (!present) {
            if (spec.defaultValue.is_null())
                return Error::invalid(keyPath, "is required");
            // Defaults go through the same normalisation as given values (schedules become
            // objects), so a resolved file reads back to itself.
            auto value = resolveScalar(spec, spec.defaultValue, keyPath);
            assert(value.ok() && "resolveParams: a descriptor's default is out of its own range");
            resolved[spec.key] = value.ok() ? value.value() : spec.defaultValue;
            continue;
        }
        const Json &value = given.at(spec.key);
        if (spec.perAgent && value.is_array() && spec.type != ParamType::Schedule) {
            if (value.empty())
                return Error::invalid(keyPath, "per-agent list must not be empty");
            if (agents > 0 && static_cast<int>(value.size()) != agents)
                return Error::invalid(keyPath, "per-agent list has " + std::to_string(value.size())
                                                   + " values for " + std::to_string(agents)
                                                   + " agents");
            Json list = Json::array();
            for (std::size_t i = 0; i < value.size(); ++i) {
                auto item = resolveScalar(spec, value[i], indexPath(keyPath, i));
                if (!item)
                    return item.error();
                list.push_back(*item);
            }
            resolved[spec.key] = list;
            continue;
        }
        auto item = resolveScalar(spec, value, keyPath);
        if (!item)
            return item.error();
        resolved[spec.key] = *item;
    }
    return resolved;
}

Json paramSpecToJson(const ParamSpec &spec)
{
    Json j{{"key", spec.key},          {"label", spec.label},      {"unit", spec.unit},
           {"help", spec.help},        {"type", typeName(spec.type)},
           {"default", spec.defaultValue}, {"log_scale", spec.logScale},
           {"per_agent", spec.perAgent}};
    if (isOptional(spec))
        j["optional"] = true; // absent or null: not set
    if (spec.type == ParamType::Real || spec.type == ParamType::Integer
        || spec.type == ParamType::Schedule) {
        j["min"] = spec.min;
        j["max"] = spec.max;
        j["min_exclusive"] = spec.minExclusive;
    }
    if (spec.type == ParamType::Choice)
        j["choices"] = spec.choices;
    if (!spec.condition.empty())
        j["condition"] = spec.condition;
    return j;
}

Json descriptorToJson(const Descriptor &descriptor)
{
    Json params = Json::array();
    for (const auto &spec : descriptor.params)
        params.push_back(paramSpecToJson(spec));
    return Json{{"id", descriptor.id},
                {"name", descriptor.name},
                {"reference", descriptor.reference},
                {"explanation", descriptor.explanation},
                {"params", params}};
}

double paramReal(const Json &params, const std::string &key)
{
    return params.at(key).get<double>();
}

long long paramInt(const Json &params, const std::string &key)
{
    return params.at(key).get<long long>();
}

bool paramBool(const Json &params, const std::string &key)
{
    return params.at(key).get<bool>();
}

std::string paramText(const Json &params, const std::string &key)
{
    return params.at(key).get<std::string>();
}

Eigen::VectorXd paramPerAgent(const Json &params, const std::string &key, int n)
{
    const Json &value = params.at(key);
    Eigen::VectorXd v(n);
    if (value.is_array()) {
        for (int i = 0; i < n; ++i)
            v[i] = value.at(static_cast<std::size_t>(i) % value.size()).get<double>();
    } else {
        v.setConstant(value.get<double>());
    }
    return v;
}

namespace {

/** The fields every builder sets: key, label, help, type and default. */
ParamSpec specOf(std::string key, std::string label, std::string help, ParamType type, Json def)
{
    ParamSpec spec;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.help = std::move(help);
    spec.type = type;
    spec.defaultValue = std::move(def);
    return spec;
}

} // namespace

ParamSpec realParam(std::string key, std::string label, double def, double min, double max,
                    std::string help, RealRange range)
{
    ParamSpec spec = specOf(std::move(key), std::move(label), std::move(help), ParamType::Real, def);
    spec.min = min;
    spec.max = max;
    spec.minExclusive = range.minExclusive;
    spec.logScale = range.logScale;
    return spec;
}

ParamSpec intParam(std::string key, std::string label, long long def, long long min,
                   long long max, std::string help)
{
    ParamSpec spec = specOf(std::move(key), std::move(label), std::move(help), ParamType::Integer, def);
    spec.min = static_cast<double>(min);
    spec.max = static_cast<double>(max);
    return spec;
}

ParamSpec boolParam(std::string key, std::string label, bool def, std::string help)
{
    return specOf(std::move(key), std::move(label), std::move(help), ParamType::Bool, def);
}

ParamSpec choiceParam(std::string key, std::string label, std::string def,
                      std::vector<std::string> choices, std::string help)
{
    ParamSpec spec = specOf(std::move(key), std::move(label), std::move(help), ParamType::Choice, std::move(def));
    spec.choices = std::move(choices);
    return spec;
}

} // namespace dplab
