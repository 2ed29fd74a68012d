// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the graph importers. The first byte picks the format — edge-list CSV, Graphviz
// DOT (the GUI's Import), or a JSON graph object with weights as an experiment holds it — and the
// rest is the text. Imported graphs are checked for connectivity and given Metropolis weights.
#include "fuzzcommon.h"

#include "graphio.h"

#include "dplab/common/files.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace dplab;
    fuzz::limitMemory();
    if (size < 1)
        return 0;
    const int mode = data[0] % 3;
    const std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
    Result<Graph> graph = Error::invalid("", "none");
    if (mode == 0) {
        graph = graphFromEdgeListCsv(text, "fuzz.csv", data[0] & 0x80);
    } else if (mode == 1) {
        graph = graphFromDot(text, "fuzz.dot");
    } else {
        auto doc = parseJson(text, "fuzz.json");
        if (!doc)
            return 0;
        graph = generateGraph(*doc, "graph.generator");
        if (graph && graph->nodeCount() <= 200 && doc->is_object() && doc->contains("weights")) {
            const WeightRole role = graph->isDirected() ? WeightRole::Row : WeightRole::Doubly;
            auto w = buildWeights(*graph, doc->at("weights"), role, "graph.weights");
            if (w)
                (void)analyseWeights(*w);
        }
    }
    if (!graph || graph->nodeCount() > 2000)
        return 0;
    (void)analyseConnectivity(*graph);
    if (graph->nodeCount() <= 200 && !graph->isDirected())
        (void)buildWeights(*graph, Json{{"scheme", "metropolis"}}, WeightRole::Doubly, "w");
    return 0;
}
