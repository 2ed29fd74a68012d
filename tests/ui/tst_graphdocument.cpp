// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphDocument: every edit is one undo step, undo/redo restore the exact graph, the generator
// is kept while only positions change and dropped (restorably) by topology edits.
#include "graphdocument.h"

#include "dplab/graph/generators.h"

#include <QSignalSpy>
#include "uitest.h"

#include <QTest>
#include <QUndoStack>

using namespace dplab;

class TestGraphDocument : public QObject
{
    Q_OBJECT

private slots:
    void addNodeAndEdgeUndoRedo();
    void addEdgeRejectsLoopsAndDuplicates();
    void deleteReindexesAndUndoRestores();
    void moveNodesUndo();
    void generatorKeptForMovesDroppedForTopology();
    void setDirectedConvertsEdges_data();
    void setDirectedConvertsEdges();
    void layoutIsOneStep();
};

void TestGraphDocument::addNodeAndEdgeUndoRedo()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    doc.load(Graph(2, false), Json());
    QSignalSpy added(&doc, &GraphDocument::nodeAdded);
    QSignalSpy changed(&doc, &GraphDocument::changed);
    doc.addNode({0.5, 0.5});
    QCOMPARE(doc.graph().nodeCount(), 3);
    QCOMPARE(added.count(), 1);
    QCOMPARE(added.first().first().toInt(), 2);
    QVERIFY(doc.addEdge(2, 0));
    QVERIFY(doc.graph().hasEdge(0, 2));
    QCOMPARE(stack.count(), 2);
    QVERIFY(changed.count() >= 2);

    stack.undo();
    QVERIFY(!doc.graph().hasEdge(0, 2));
    stack.undo();
    QCOMPARE(doc.graph().nodeCount(), 2);
    stack.redo();
    stack.redo();
    QCOMPARE(doc.graph().nodeCount(), 3);
    QVERIFY(doc.graph().hasEdge(2, 0));
    QCOMPARE(doc.graph().positions()[2], (NodePosition{0.5, 0.5}));
}

void TestGraphDocument::addEdgeRejectsLoopsAndDuplicates()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    Graph g(3, true);
    g.addEdge(0, 1);
    doc.load(g, Json());
    QVERIFY(!doc.addEdge(1, 1));
    QVERIFY(!doc.addEdge(0, 1));
    QVERIFY(!doc.addEdge(0, 7));
    QCOMPARE(stack.count(), 0);
    QVERIFY(doc.addEdge(1, 0)); // the reverse arc is a different edge in a digraph
    QCOMPARE(doc.graph().edgeCount(), std::size_t(2));
}

void TestGraphDocument::deleteReindexesAndUndoRestores()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    Graph g(4, false);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    g.addEdge(2, 3);
    g.addEdge(3, 0);
    g.setPositions(circularLayout(4));
    doc.load(g, Json());
    const Graph before = doc.graph();
    doc.deleteElements({1}, {Edge{2, 3}});
    QCOMPARE(stack.count(), 1);
    // Node 1 removed: old 2, 3 become 1, 2; remaining edge 3-0 becomes 2-0.
    QCOMPARE(doc.graph().nodeCount(), 3);
    QCOMPARE(doc.graph().edgeCount(), std::size_t(1));
    QVERIFY(doc.graph().hasEdge(0, 2));
    QCOMPARE(doc.graph().positions()[1], before.positions()[2]);
    stack.undo();
    QVERIFY(doc.graph() == before);
}

void TestGraphDocument::moveNodesUndo()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    Graph g(2, false);
    g.addEdge(0, 1);
    g.setPositions({{0, 0}, {1, 0}});
    doc.load(g, Json());
    QSignalSpy moved(&doc, &GraphDocument::nodesMoved);
    doc.moveNodes({1}, {{1, 0}}, {{2, 3}});
    QCOMPARE(moved.count(), 1);
    QCOMPARE(doc.graph().positions()[1], (NodePosition{2, 3}));
    doc.moveNodes({1}, {{2, 3}}, {{2, 3}}); // no-op: nothing pushed
    QCOMPARE(stack.count(), 1);
    stack.undo();
    QCOMPARE(doc.graph().positions()[1], (NodePosition{1, 0}));
}

void TestGraphDocument::generatorKeptForMovesDroppedForTopology()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    const Json spec{{"type", "ring"}, {"nodes", 5}};
    auto ring = generateGraph(spec, "graph.generator");
    QVERIFY(ring.ok());
    doc.load(*ring, spec);
    QCOMPARE(js(doc.toJson()), js(Json{{"generator", spec}}));

    const NodePosition old = doc.graph().positions()[0];
    doc.moveNodes({0}, {old}, {{5, 5}});
    QCOMPARE(js(doc.toJson().at("generator")), js(spec));
    QVERIFY(doc.toJson().contains("positions")); // moved: positions are saved with it
    stack.undo();
    QVERIFY(!doc.toJson().contains("positions"));

    doc.addNode({0, 0});
    QVERIFY(doc.generator().is_null());
    const Json explicitGraph = doc.toJson();
    QCOMPARE(explicitGraph.at("nodes").get<int>(), 6);
    QCOMPARE(explicitGraph.at("edges").size(), std::size_t(5));
    QCOMPARE(explicitGraph.at("directed").get<bool>(), false);
    stack.undo();
    QCOMPARE(js(doc.generator()), js(spec));
}

void TestGraphDocument::setDirectedConvertsEdges_data()
{
    QTest::addColumn<bool>("startDirected");
    QTest::addColumn<int>("expectedEdges");
    QTest::newRow("undirected → directed doubles the edges") << false << 6;
    QTest::newRow("directed → undirected merges arcs") << true << 2;
}

void TestGraphDocument::setDirectedConvertsEdges()
{
    QFETCH(bool, startDirected);
    QFETCH(int, expectedEdges);
    QUndoStack stack;
    GraphDocument doc(&stack);
    Graph g(3, startDirected);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    if (startDirected) {
        g.addEdge(1, 0); // merges with 0 -> 1
    } else {
        g.addEdge(2, 0);
    }
    doc.load(g, Json());
    const Graph before = doc.graph();
    doc.setDirected(!startDirected);
    QCOMPARE(doc.graph().isDirected(), !startDirected);
    QCOMPARE(int(doc.graph().edgeCount()), expectedEdges);
    stack.undo();
    QVERIFY(doc.graph() == before);
}

void TestGraphDocument::layoutIsOneStep()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    Graph g(4, false);
    g.setPositions({{0, 0}, {0, 0}, {1, 1}, {2, 2}});
    doc.load(g, Json());
    doc.setLayout(circularLayout(4), QStringLiteral("Circular layout"));
    QCOMPARE(stack.count(), 1);
    QCOMPARE(stack.text(0), QStringLiteral("Circular layout"));
    QCOMPARE(doc.graph().positions(), circularLayout(4));
    stack.undo();
    QCOMPARE(doc.graph().positions()[3], (NodePosition{2, 2}));
}

QTEST_MAIN(TestGraphDocument)
#include "tst_graphdocument.moc"
