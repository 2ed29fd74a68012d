// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/builtin.h"

namespace dplab {

const Eigen::MatrixXd *namedState(const std::string &name,
                                  std::initializer_list<std::pair<const char *, const Eigen::MatrixXd *>> states)
{
    for (const auto &[key, matrix] : states)
        if (name == key)
            return matrix;
    return nullptr;
}

AlgorithmDescriptor algorithmDescriptor(std::string id, std::string name, std::string reference,
                                        std::string explanation, GraphKind graphs,
                                        WeightNeeds weights,
                                        std::function<std::unique_ptr<Algorithm>()> create)
{
    AlgorithmDescriptor d;
    d.id = std::move(id);
    d.name = std::move(name);
    d.reference = std::move(reference);
    d.explanation = std::move(explanation);
    d.graphKind = graphs;
    d.weights = weights;
    d.create = std::move(create);
    return d;
}

TheoryRate powerRate(std::string metric, double exponent, std::string label, std::string citation)
{
    TheoryRate rate;
    rate.kind = TheoryRate::Kind::Power;
    rate.metric = std::move(metric);
    rate.exponent = exponent;
    rate.label = std::move(label);
    rate.citation = std::move(citation);
    return rate;
}

ParamSpec scheduleParam(std::string key, std::string label, Json def, double min, double max,
                        std::string help, RealRange range)
{
    ParamSpec spec = realParam(std::move(key), std::move(label), 0.0, min, max, std::move(help), range);
    spec.type = ParamType::Schedule;
    spec.defaultValue = std::move(def);
    return spec;
}

ParamSpec stepsizeParam(double def, const std::string &help)
{
    return scheduleParam("stepsize", "Step size", def, 0.0, 1e6, help,
                         {.minExclusive = true, .logScale = true});
}

ParamSpec noiseScaleParam(const std::string &key, const std::string &label, const std::string &help)
{
    return scheduleParam(key, label, 0.0, 0.0, 1e9, help, {.logScale = true});
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
