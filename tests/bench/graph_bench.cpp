// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph editor benchmarks (issue 29): an Erdős–Rényi graph of 1000 nodes and p = 0.3
// (≈150 000 edges) loaded into the editor and painted once ("drawn"), one zoom step and its
// repaint, and one undo/redo of a graph replacement with its repaint. Each with the dense
// layer (the default past GraphScene::kDenseEdges edges) and, for comparison, with one
// EdgeItem per edge (the editor before the layer; slow: one iteration).
//
// Runs headless (QT_QPA_PLATFORM=offscreen unless set); the view is 1200 × 900.
#include "graphdocument.h"
#include "graphscene.h"
#include "graphview.h"

#include "dplab/graph/generators.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QUndoStack>

#include <limits>
#include <memory>

namespace dplab {
namespace {

const Graph &denseGraph()
{
    static const Graph g = [] {
        auto graph = generateGraph(Json{{"type", "erdos-renyi"}, {"nodes", 1000}, {"p", 0.3}, {"seed", 7}},
                                   "graph.generator");
        Graph result = graph.value();
        if (!result.hasPositions())
            result.setPositions(circularLayout(result.nodeCount()));
        return result;
    }();
    return g;
}

struct Editor {
    explicit Editor(bool layer)
        : document(&stack)
        , scene(&document)
        , view(&scene)
    {
        scene.setDenseThreshold(layer ? GraphScene::kDenseEdges : std::numeric_limits<int>::max());
        view.resize(1200, 900);
        view.show();
        QApplication::processEvents();
    }
    void paint()
    {
        view.viewport()->repaint();
        QApplication::processEvents();
    }
    QUndoStack stack;
    GraphDocument document;
    GraphScene scene;
    GraphView view;
};

void BM_DenseGraphDrawn(benchmark::State &state)
{
    const Graph &g = denseGraph();
    for (auto _ : state) {
        state.PauseTiming();
        auto editor = std::make_unique<Editor>(state.range(0) != 0);
        state.ResumeTiming();
        editor->document.load(g, Json());
        editor->view.fitGraph();
        editor->paint();
        state.PauseTiming();
        editor.reset();
        state.ResumeTiming();
    }
    state.counters["edges"] = static_cast<double>(g.edgeCount());
}

void BM_DenseGraphZoom(benchmark::State &state)
{
    Editor editor(state.range(0) != 0);
    editor.document.load(denseGraph(), Json());
    editor.view.fitGraph();
    editor.paint();
    bool in = true;
    for (auto _ : state) { // one wheel step in or out, and the repaint it causes
        if (in)
            editor.view.zoomIn();
        else
            editor.view.zoomOut();
        in = !in;
        editor.paint();
    }
}

void BM_DenseGraphUndo(benchmark::State &state)
{
    Editor editor(state.range(0) != 0);
    Graph ring(6, false);
    for (int i = 0; i < 6; ++i)
        ring.addEdge(i, (i + 1) % 6);
    editor.document.load(ring, Json());
    editor.document.replaceGraph(denseGraph(), Json(), QStringLiteral("Generate"));
    editor.paint();
    bool undo = true;
    for (auto _ : state) { // undo back to the ring or redo the dense graph, and repaint
        if (undo)
            editor.stack.undo();
        else
            editor.stack.redo();
        undo = !undo;
        editor.paint();
    }
}

// Arg 1: the dense layer; arg 0: one EdgeItem per edge.
BENCHMARK(BM_DenseGraphDrawn)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DenseGraphDrawn)->Arg(0)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DenseGraphZoom)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DenseGraphZoom)->Arg(0)->Iterations(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DenseGraphUndo)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DenseGraphUndo)->Arg(0)->Iterations(2)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
} // namespace dplab

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
