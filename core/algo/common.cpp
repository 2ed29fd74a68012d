// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/builtin.h"

namespace dplab {

ParamSpec stepsizeParam(double def, const std::string &help)
{
    ParamSpec spec;
    spec.key = "stepsize";
    spec.label = "Step size";
    spec.help = help;
    spec.type = ParamType::Schedule;
    spec.defaultValue = def;
    spec.min = 0.0;
    spec.minExclusive = true;
    spec.max = 1e6;
    spec.logScale = true;
    return spec;
}

ParamSpec noiseScaleParam(const std::string &key, const std::string &label, const std::string &help)
{
    ParamSpec spec;
    spec.key = key;
    spec.label = label;
    spec.help = help;
    spec.type = ParamType::Schedule;
    spec.defaultValue = 0.0;
    spec.min = 0.0;
    spec.max = 1e9;
    spec.logScale = true;
    return spec;
}

ParamSpec perAgentNoiseParam(const std::string &key, const std::string &label, const std::string &help)
{
    auto spec = realParam(key, label, 0.0, 0.0, 1e9, help, {.logScale = true});
    spec.perAgent = true;
    return spec;
}

ParamSpec perAgentDecayParam(const std::string &key, const std::string &label, double def,
                             const std::string &help)
{
    auto spec = realParam(key, label, def, 0.0, 10.0, help);
    spec.perAgent = true;
    return spec;
}

} // namespace dplab
