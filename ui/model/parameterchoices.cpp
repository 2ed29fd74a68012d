// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameterchoices.h"

#include "textconvert.h"

#include "dplab/algo/algorithm.h"

#include <cmath>
#include <limits>
#include <map>

namespace dplab {

namespace {

/** The number a numeric value holds: a number, or a constant schedule's `a`; NaN otherwise. */
double numberIn(const Json &value)
{
    if (value.is_number())
        return value.get<double>();
    if (value.is_object() && value.value("type", std::string()) == "constant" && value.contains("a")
        && value.at("a").is_number())
        return value.at("a").get<double>();
    return std::numeric_limits<double>::quiet_NaN();
}

void addSpecs(QVector<ParameterChoice> &out, int run, const QString &runLabel, const Json &given,
              const std::vector<ParamSpec> &specs, const std::string &section)
{
    for (const ParamSpec &spec : specs) {
        if (spec.type != ParamType::Real && spec.type != ParamType::Integer && spec.type != ParamType::Schedule)
            continue;
        const Json value = given.is_object() && given.contains(spec.key) ? given.at(spec.key) : spec.defaultValue;
        // A schedule that is not constant has several numbers: its scale `a` is offered (the
        // descriptor's range applies to it).
        const bool scheduleScale = spec.type == ParamType::Schedule && value.is_object()
                                   && value.value("type", std::string()) != "constant" && value.contains("a")
                                   && value.at("a").is_number();
        if (spec.type == ParamType::Schedule && !value.is_null() && !scheduleScale && !std::isfinite(numberIn(value)))
            continue;
        // A per-agent list is not one number either.
        if (value.is_array())
            continue;
        ParameterChoice c;
        c.run = run;
        c.key = section + "." + spec.key + (scheduleScale ? ".a" : "");
        c.label = toQString(spec.label)
                  + (scheduleScale ? QStringLiteral(", scale a of the %1 schedule").arg(toQString(value.value("type", std::string())))
                                   : QString());
        c.unit = toQString(spec.unit);
        c.runLabel = runLabel;
        c.min = spec.min;
        c.max = spec.max;
        c.minExclusive = spec.minExclusive;
        c.integer = spec.type == ParamType::Integer;
        c.logScale = spec.logScale;
        c.value = scheduleScale ? value.at("a").get<double>() : numberIn(value);
        out.push_back(c);
    }
}

QString number(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace

std::string ParameterChoice::path() const
{
    return (run < 0 ? std::string("runs[*].") : "runs[" + std::to_string(run) + "].") + key;
}

QString ParameterChoice::title() const
{
    return QStringLiteral("%1 (%2) — %3").arg(label, toQString(key), runLabel);
}

QString ParameterChoice::rangeText() const
{
    const bool hasMin = min > -1e299, hasMax = max < 1e299;
    QString text;
    if (hasMin && hasMax)
        text = QStringLiteral("%1%2 … %3").arg(minExclusive ? QStringLiteral("> ") : QString(), number(min), number(max));
    else if (hasMin)
        text = QStringLiteral("%1 %2").arg(minExclusive ? QStringLiteral(">") : QStringLiteral("≥"), number(min));
    else if (hasMax)
        text = QStringLiteral("≤ %1").arg(number(max));
    else
        text = QStringLiteral("any");
    if (integer)
        text += QStringLiteral(", whole numbers");
    if (!unit.isEmpty())
        text += QStringLiteral(" (%1)").arg(unit);
    return text;
}

bool ParameterChoice::accepts(double v) const
{
    if (!std::isfinite(v) || v > max || v < min || (minExclusive && v <= min))
        return false;
    return !integer || v == std::floor(v);
}

QVector<ParameterChoice> numericParameters(const Json &document)
{
    QVector<ParameterChoice> perRun;
    const Json runs = document.is_object() ? document.value("runs", Json::array()) : Json::array();
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const Json &run = runs[r];
        const AlgorithmDescriptor *algorithm = run.is_object() ? findAlgorithm(run.value("algorithm", std::string())) : nullptr;
        if (!algorithm)
            continue;
        const QString label = toQString(run.value("label", std::string()));
        addSpecs(perRun, static_cast<int>(r), label, run.value("params", Json::object()), algorithm->params, "params");
        addSpecs(perRun, static_cast<int>(r), label, run.value("privacy", Json::object()), algorithm->privacyParams,
                 "privacy");
    }
    // Keys every run has, once for all (first run's range and value; the widest range would
    // promise values some run refuses, so the intersection is kept).
    QVector<ParameterChoice> shared;
    if (runs.size() > 1) {
        for (const ParameterChoice &c : perRun) {
            if (c.run != 0)
                continue;
            ParameterChoice all = c;
            int count = 0;
            for (const ParameterChoice &o : perRun)
                if (o.key == c.key) {
                    ++count;
                    all.min = std::max(all.min, o.min);
                    all.max = std::min(all.max, o.max);
                    all.minExclusive = all.minExclusive || o.minExclusive;
                    all.integer = all.integer && o.integer;
                }
            if (count != static_cast<int>(runs.size()))
                continue;
            all.run = -1;
            all.runLabel = QStringLiteral("every run");
            shared.push_back(all);
        }
    }
    return shared + perRun;
}

} // namespace dplab
