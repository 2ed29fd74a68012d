// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphScene + GraphView: items mirror the document through edits and undo; mouse gestures in
// each mode become document edits (add node, add edge by dragging, move by dragging, delete).
#include "edgeitem.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "graphview.h"
#include "nodeitem.h"

#include "dplab/graph/generators.h"

#include "uitest.h"

#include <QTest>
#include <QUndoStack>

using namespace dplab;

namespace {

Graph triangle(bool directed)
{
    Graph g(3, directed);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    g.setPositions(circularLayout(3));
    return g;
}

int count(GraphScene &scene, int type)
{
    int n = 0;
    for (QGraphicsItem *item : scene.items())
        n += item->type() == type ? 1 : 0;
    return n;
}

} // namespace

class TestGraphScene : public QObject
{
    Q_OBJECT

private slots:
    void mirrorsDocument();
    void parallelArcsForReverseEdges();
    void addNodeByClick();
    void addEdgeByDrag();
    void moveByDragIsOneCommand();
    void deleteSelection();
};

void TestGraphScene::mirrorsDocument()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    GraphScene scene(&doc);
    doc.load(triangle(false), Json());
    QCOMPARE(count(scene, NodeItem::Type), 3);
    QCOMPARE(count(scene, EdgeItem::Type), 2);
    doc.addEdge(2, 0);
    QCOMPARE(count(scene, EdgeItem::Type), 3);
    doc.addNode({2, 2});
    QCOMPARE(count(scene, NodeItem::Type), 4);
    QCOMPARE(scene.nodeItem(3)->pos(), scene.toScene({2, 2}));
    stack.undo();
    stack.undo();
    QCOMPARE(count(scene, NodeItem::Type), 3);
    QCOMPARE(count(scene, EdgeItem::Type), 2);
    doc.deleteElements({0}, {});
    QCOMPARE(count(scene, NodeItem::Type), 2);
    QCOMPARE(count(scene, EdgeItem::Type), 1);
    QCOMPARE(scene.nodeItem(1)->index(), 1);
    stack.undo();
    QCOMPARE(count(scene, NodeItem::Type), 3);
}

void TestGraphScene::parallelArcsForReverseEdges()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    GraphScene scene(&doc);
    doc.load(triangle(true), Json());
    QVERIFY(scene.edgeItem({0, 1}));
    QVERIFY(!scene.edgeItem({1, 0}));
    doc.addEdge(1, 0);
    QVERIFY(scene.edgeItem({1, 0}));
    QCOMPARE(count(scene, EdgeItem::Type), 3);
    Eigen::MatrixXd w = Eigen::MatrixXd::Constant(3, 3, 0.25);
    scene.setWeightMatrices(w, w);
    scene.setShowWeights(true);
    QVERIFY(scene.edgeItem({1, 0})->boundingRect().isValid());
}

void TestGraphScene::addNodeByClick()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    GraphScene scene(&doc);
    GraphView view(&scene);
    view.resize(500, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    doc.load(triangle(false), Json());
    scene.setMode(GraphScene::Mode::AddNode);
    const QPointF where = scene.toScene({0, 0}); // the centre of the circle is empty
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(where));
    QCOMPARE(doc.graph().nodeCount(), 4);
    const NodePosition p = doc.graph().positions()[3];
    QVERIFY(std::hypot(p.x, p.y) < 0.05);
    QCOMPARE(stack.count(), 1);
}

void TestGraphScene::addEdgeByDrag()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    GraphScene scene(&doc);
    GraphView view(&scene);
    view.resize(500, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    doc.load(triangle(true), Json());
    scene.setMode(GraphScene::Mode::AddEdge);
    const QPoint from = view.mapFromScene(scene.nodeItem(2)->pos());
    const QPoint to = view.mapFromScene(scene.nodeItem(0)->pos());
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(view.viewport(), (from + to) / 2);
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, to);
    QVERIFY(doc.graph().hasEdge(2, 0));
    QVERIFY(!doc.graph().hasEdge(0, 2));
    QCOMPARE(stack.count(), 1);
    // Releasing on empty space adds nothing.
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, from);
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(scene.toScene({0, 0})));
    QCOMPARE(stack.count(), 1);
}

void TestGraphScene::moveByDragIsOneCommand()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    GraphScene scene(&doc);
    GraphView view(&scene);
    view.resize(500, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    doc.load(triangle(false), Json());
    const NodePosition before = doc.graph().positions()[1];
    const QPoint start = view.mapFromScene(scene.nodeItem(1)->pos());
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, start);
    for (int k = 1; k <= 5; ++k)
        QTest::mouseMove(view.viewport(), start + QPoint(6 * k, 4 * k));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, start + QPoint(30, 20));
    QCOMPARE(stack.count(), 1);
    const NodePosition after = doc.graph().positions()[1];
    QVERIFY(after.x > before.x);
    QVERIFY(after.y < before.y); // scene y grows down, layout y grows up
    stack.undo();
    QCOMPARE(doc.graph().positions()[1], before);
    QCOMPARE(scene.nodeItem(1)->pos(), scene.toScene(before));
}

void TestGraphScene::deleteSelection()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    GraphScene scene(&doc);
    doc.load(triangle(false), Json());
    scene.edgeItem({1, 2})->setSelected(true);
    scene.deleteSelection();
    QCOMPARE(doc.graph().edgeCount(), std::size_t(1));
    QCOMPARE(count(scene, EdgeItem::Type), 1);
    scene.nodeItem(0)->setSelected(true);
    scene.deleteSelection();
    QCOMPARE(doc.graph().nodeCount(), 2);
    QCOMPARE(doc.graph().edgeCount(), std::size_t(0));
    stack.undo();
    stack.undo();
    QCOMPARE(doc.graph().edgeCount(), std::size_t(2));
}

QTEST_MAIN(TestGraphScene)
#include "tst_graphscene.moc"
