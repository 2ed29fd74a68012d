// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/messagescsv.h"

#include "dplab/common/csv.h"
#include "dplab/engine/writers.h"

#include <algorithm>

namespace dplab {

MessageRecording messageRecording(long long iterations)
{
    MessageRecording r;
    r.enabled = iterations > 0;
    r.first = 0;
    r.last = iterations - 1;
    r.every = 1;
    r.repetition = -1; // every repetition
    r.maxRecords = iterations;
    return r;
}

ResourceItem estimateMessageBytes(const Experiment &e, long long iterations, const std::string &path)
{
    const double n = e.graph.nodeCount();
    double d = e.problemSpec.dimension;
    if (d < 1) {
        d = 1;
        for (const auto &h : e.problemSpec.data)
            d = std::max(d, static_cast<double>(h.header.features) + 1.0);
    }
    const double points = e.sweep ? static_cast<double>(e.sweep->values.size()) : 1.0;
    const double jobs = points * static_cast<double>(e.runs.size()) * e.repetitions;
    const double steps = static_cast<double>(std::min(iterations, e.iterations));
    // Per coordinate: clean, noise, sent as doubles, and a CSV row of about 120 characters.
    const double perCoordinate = 3 * 8.0 + 120.0;
    return ResourceItem{"recorded messages", path, jobs * steps * n * 3.0 * std::max(d, n) * perCoordinate};
}

namespace {

std::string receiversText(const Graph &graph, int sender)
{
    std::string out;
    if (sender < 0 || sender >= graph.nodeCount())
        return out;
    for (int j : graph.outNeighbours(sender))
        out += (out.empty() ? "" : " ") + std::to_string(j);
    return out;
}

} // namespace

Result<std::string> messagesCsv(const Experiment &experiment, const ExperimentResult &result)
{
    const bool sweep = experiment.sweep.has_value();
    std::string out = sweep ? "run,repetition,iteration,value,sender,receivers,channel,coordinate,clean,noise,sent,bits\n"
                            : "run,repetition,iteration,sender,receivers,channel,coordinate,clean,noise,sent,bits\n";
    for (std::size_t p = 0; p < result.points.size(); ++p) {
        const PointResult &point = result.points[p];
        bool any = false;
        for (const auto &run : point.runs)
            for (const auto &rep : run.repetitions)
                any = any || !rep.messages.empty();
        if (!any)
            continue;
        // The receivers come from the point's own graph (a sweep may change it).
        std::optional<Experiment> pointExperiment;
        if (sweep) {
            auto e = experimentAtSweepValue(experiment, point.value);
            if (!e)
                return e.error();
            pointExperiment = std::move(*e);
        }
        const Graph &graph = pointExperiment ? pointExperiment->graph : experiment.graph;
        std::vector<std::string> receivers(static_cast<std::size_t>(graph.nodeCount()));
        for (int i = 0; i < graph.nodeCount(); ++i)
            receivers[static_cast<std::size_t>(i)] = receiversText(graph, i);
        const std::string value = sweep ? "," + csvField(point.value.is_string() ? point.value.get<std::string>() : point.value.dump())
                                        : std::string();
        for (const auto &run : point.runs) {
            const std::string label = csvField(run.label);
            for (std::size_t k = 0; k < run.repetitions.size(); ++k) {
                const std::string key = label + "," + std::to_string(k) + ",";
                for (const MessageRecord &record : run.repetitions[k].messages) {
                    const std::string head = key + std::to_string(record.iteration) + value + ",";
                    for (const Message &m : record.messages) {
                        const std::string who = std::to_string(m.sender) + ","
                                                + (m.sender >= 0 && m.sender < graph.nodeCount()
                                                       ? receivers[static_cast<std::size_t>(m.sender)]
                                                       : std::string())
                                                + "," + csvField(m.channel) + ",";
                        const Eigen::Index size = std::max({m.clean.size(), m.noise.size(), m.sent.size()});
                        for (Eigen::Index c = 0; c < size; ++c) {
                            out += head + who + std::to_string(c) + ",";
                            out += (c < m.clean.size() ? formatValue(m.clean[c]) : std::string()) + ",";
                            out += (c < m.noise.size() ? formatValue(m.noise[c]) : std::string()) + ",";
                            out += (c < m.sent.size() ? formatValue(m.sent[c]) : std::string()) + ",";
                            if (c == 0)
                                out += std::to_string(m.bits);
                            out += "\n";
                        }
                    }
                }
            }
        }
    }
    return out;
}

} // namespace dplab
