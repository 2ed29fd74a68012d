// SPDX-License-Identifier: GPL-3.0-or-later
#include "inspection.h"

#include "textconvert.h"

#include "dplab/common/decomposition.h"
#include "dplab/graph/weights.h"

#include <algorithm>

namespace dplab {

namespace {

MatrixReport buildReport(const Graph &graph, const Json &spec, WeightRole role, const QString &name,
                         const std::string &path, int spectrumLimit)
{
    MatrixReport report;
    report.name = name;
    report.role = role == WeightRole::Row      ? QStringLiteral("row-stochastic")
                  : role == WeightRole::Column ? QStringLiteral("column-stochastic")
                                               : QStringLiteral("doubly stochastic");
    report.scheme = spec.is_object() ? toQString(spec.value("scheme", std::string("?"))) : QStringLiteral("?");
    if (graph.nodeCount() == 0) {
        report.error = QStringLiteral("the graph has no nodes");
        return report;
    }
    auto w = buildWeights(graph, spec, role, path);
    if (!w) {
        report.error = toQString(w.error().toString());
        // Still show the facts of the matrix the scheme gives without the role check, when
        // the failure is the role's (e.g. Metropolis weights on a directed graph).
        auto any = buildWeights(graph, spec, WeightRole::Any, path);
        if (!any)
            return report;
        report.matrix = std::move(any.value());
    } else {
        report.matrix = std::move(w.value());
    }
    if (graph.nodeCount() <= spectrumLimit) {
        try {
            report.facts = analyseWeights(report.matrix);
            report.analysed = true;
            if (report.error.isEmpty() && role == WeightRole::Row) {
                report.perronName = QStringLiteral("left Perron vector u (uᵀR = uᵀ)");
                report.perron = leftPerronVector(report.matrix);
            } else if (report.error.isEmpty() && role == WeightRole::Column) {
                report.perronName = QStringLiteral("right Perron vector ω (Cω = ω)");
                report.perron = rightPerronVector(report.matrix);
            }
        } catch (const NumericalError &e) { // a decomposition failed: say so, do not abort
            report.analysed = false;
            report.perronName.clear();
            report.error = QStringLiteral("internal error: ") + toQString(e.what());
        }
    }
    return report;
}

} // namespace

Inspection inspectGraph(const Graph &graph, const Json &weights, WeightNeeds needs, int spectrumLimit)
{
    Inspection in;
    in.nodes = graph.nodeCount();
    in.edges = static_cast<int>(graph.edgeCount());
    in.directed = graph.isDirected();
    if (in.nodes > 0) {
        in.connectivity = analyseConnectivity(graph);
        in.minInDegree = in.minOutDegree = in.nodes;
        for (int i = 0; i < in.nodes; ++i) {
            in.minInDegree = std::min(in.minInDegree, graph.inDegree(i));
            in.maxInDegree = std::max(in.maxInDegree, graph.inDegree(i));
            in.minOutDegree = std::min(in.minOutDegree, graph.outDegree(i));
            in.maxOutDegree = std::max(in.maxOutDegree, graph.outDegree(i));
        }
    } else {
        in.connectivity.connected = false;
        in.connectivity.message = "the graph has no nodes";
    }
    const bool split = weights.is_object() && (weights.contains("row") || weights.contains("column"));
    if (needs == WeightNeeds::Doubly) {
        if (split) {
            MatrixReport bad;
            bad.name = QStringLiteral("W");
            bad.role = QStringLiteral("doubly stochastic");
            bad.error = QStringLiteral("this algorithm mixes with one doubly stochastic W: give a scheme, "
                                       "not row/column matrices");
            in.matrices.push_back(bad);
        } else {
            in.matrices.push_back(buildReport(graph, weights, WeightRole::Doubly, QStringLiteral("W"), "weights",
                                              spectrumLimit));
        }
    } else {
        const Json row = split ? weights.value("row", Json{{"scheme", "uniform"}}) : weights;
        const Json column = split ? weights.value("column", Json{{"scheme", "uniform"}}) : weights;
        in.matrices.push_back(buildReport(graph, row, WeightRole::Row, QStringLiteral("R"),
                                          split ? "weights.row" : "weights", spectrumLimit));
        in.matrices.push_back(buildReport(graph, column, WeightRole::Column, QStringLiteral("C"),
                                          split ? "weights.column" : "weights", spectrumLimit));
    }
    return in;
}

} // namespace dplab
