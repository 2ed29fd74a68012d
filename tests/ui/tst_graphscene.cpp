// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphScene + GraphView: items mirror the document through edits and undo; mouse gestures in
// each mode become document edits (add node, add edge by dragging, move by dragging, delete).
#include "edgeitem.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "graphview.h"
#include "forcelayout.h"
#include "nodeitem.h"

#include "dplab/graph/generators.h"

#include "presettest.h"
#include "uitest.h"

#include <QLabel>
#include <QLocale>
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

/** 0 — 1 — 2 — 3, undirected, without positions. */
Graph path4()
{
    Graph g(4, false);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    g.addEdge(2, 3);
    return g;
}

/** A graph document with its undo stack and its scene (no view). */
struct Canvas {
    QUndoStack stack;
    GraphDocument doc{&stack};
    GraphScene scene{&doc};
};

/** Shows `view` at 500×400, then loads `graph` into `doc`; false when the view is not exposed. */
bool showLoaded(GraphView &view, GraphDocument &doc, const Graph &graph)
{
    if (!shown(view, 500, 400))
        return false;
    doc.load(graph, Json());
    return true;
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
    void forceLayoutDoesNotOverlap_data();
    void forceLayoutDoesNotOverlap();
    void fitEnlargesSmallDrawing();
    void weightLabelsDoNotOverlap();
    void editsDoNotRefitTheView();
    void denseGraphIsOneLayer();
};

void TestGraphScene::mirrorsDocument()
{
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
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
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
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
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    GraphView view(&scene);
    QVERIFY(showLoaded(view, doc, triangle(false)));
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
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    GraphView view(&scene);
    QVERIFY(showLoaded(view, doc, triangle(true)));
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
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    GraphView view(&scene);
    QVERIFY(showLoaded(view, doc, triangle(false)));
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
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
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

void TestGraphScene::forceLayoutDoesNotOverlap_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("nodes");
    for (const auto &[type, n] : {std::pair{"ring", 16}, {"star", 12}, {"complete", 10}, {"grid", 25},
                                  {"erdos-renyi", 20}})
        QTest::newRow(type) << QString::fromLatin1(type) << n;
}

void TestGraphScene::forceLayoutDoesNotOverlap()
{
    // The force-directed layout drew nodes on top of each other (dense parts collapse; the
    // scene keeps its scale across a layout change).
    QFETCH(QString, type);
    QFETCH(int, nodes);
    Json spec{{"type", type.toStdString()}, {"nodes", nodes}};
    if (type == QLatin1String("erdos-renyi"))
        spec["p"] = 0.3;
    auto graph = generateGraph(spec, "graph.generator");
    QVERIFY2(graph.ok(), graph.ok() ? "" : graph.error().toString().c_str());
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    doc.load(*graph, Json());
    const Graph &g = doc.graph();
    doc.setLayout(forceDirectedLayout(g, g.positions()), QStringLiteral("force"));
    for (int i = 0; i < g.nodeCount(); ++i)
        for (int j = i + 1; j < g.nodeCount(); ++j) {
            const QLineF d(scene.nodeItem(i)->pos(), scene.nodeItem(j)->pos());
            QVERIFY2(d.length() >= 2 * NodeItem::Radius,
                     qPrintable(QStringLiteral("nodes %1 and %2 are %3 apart").arg(i).arg(j).arg(d.length())));
        }
}

void TestGraphScene::fitEnlargesSmallDrawing()
{
    // Fit Graph did not enlarge a small drawing (it stopped at 2.5×).
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    Graph g = path4();
    doc.load(g, Json());
    // A four-node path: a drawing ~250 scene units wide, small in a large view.
    GraphView view(&scene);
    QVERIFY(shown(view, 1600, 1200));
    view.fitGraph();
    const QRectF drawn = view.mapFromScene(scene.itemsBoundingRect()).boundingRect();
    QVERIFY2(drawn.width() >= 0.5 * view.viewport()->width() || drawn.height() >= 0.5 * view.viewport()->height(),
             qPrintable(QStringLiteral("drawing %1×%2 in a %3×%4 view")
                            .arg(drawn.width()).arg(drawn.height()).arg(view.viewport()->width()).arg(view.viewport()->height())));
}

void TestGraphScene::weightLabelsDoNotOverlap()
{
    // Edge-weight labels on a dense graph piled up unreadably.
    auto graph = generateGraph(Json{{"type", "complete"}, {"nodes", 10}}, "graph.generator");
    QVERIFY(graph.ok());
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    doc.load(*graph, Json());
    const int n = doc.graph().nodeCount();
    scene.setWeightMatrices(Eigen::MatrixXd::Constant(n, n, 1.0 / n), Eigen::MatrixXd());
    scene.setShowWeights(true);
    auto visibleLabels = [&] {
        QVector<QRectF> rects;
        for (const Edge &e : doc.graph().edges())
            if (EdgeItem *item = scene.edgeItem(e); item && item->isLabelVisible())
                rects << item->labelSceneRect();
        return rects;
    };
    const QVector<QRectF> rects = visibleLabels();
    QVERIFY(!rects.isEmpty());
    for (int a = 0; a < rects.size(); ++a)
        for (int b = a + 1; b < rects.size(); ++b)
            QVERIFY(!rects[a].intersects(rects[b]));
    // Selecting a node shows its edges' weights first.
    scene.nodeItem(0)->setSelected(true);
    auto shownAroundNode0 = [&] {
        int shown = 0;
        for (const Edge &e : doc.graph().edges())
            if ((e.from == 0 || e.to == 0) && scene.edgeItem(e)->isLabelVisible())
                ++shown;
        return shown;
    };
    QTRY_VERIFY2(shownAroundNode0() >= (n - 1) / 2, qPrintable(QString::number(shownAroundNode0())));
}

void TestGraphScene::editsDoNotRefitTheView()
{
    // Deleting a node, adding an edge, toggling Directed and undoing re-fitted the view, so the
    // nodes jumped between clicks. Now only Fit Graph (and opening, generating) frames the graph.
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    Graph g = path4();
    g.setPositions({{0, 0}, {1, 0}, {2, 0.5}, {6, 3}}); // node 3 far out: deleting it shrinks the bounds
    doc.load(g, Json());
    GraphView view(&scene);
    QVERIFY(shown(view, 800, 600));
    view.fitGraph();
    const QPoint before = view.mapFromScene(scene.nodeItem(0)->pos());
    auto unmoved = [&] { return (view.mapFromScene(scene.nodeItem(0)->pos()) - before).manhattanLength() <= 1; };
    doc.deleteElements({3}, {});
    QVERIFY2(unmoved(), "deleting a node re-fitted the view");
    doc.addEdge(0, 2);
    QVERIFY2(unmoved(), "adding an edge re-fitted the view");
    doc.setDirected(true);
    QVERIFY2(unmoved(), "Directed re-fitted the view");
    stack.undo();
    stack.undo();
    stack.undo();
    QVERIFY2(unmoved(), "undo re-fitted the view");
    // A resize (the inspector re-wrapping beside the editor) keeps the frame that was fitted.
    view.resize(800, 601);
    QCoreApplication::processEvents();
    doc.deleteElements({3}, {});
    view.resize(800, 600);
    QCoreApplication::processEvents();
    QVERIFY2(unmoved(), "a resize after an edit fitted the edited graph");
    // Fit Graph on request frames the graph as it is now.
    view.fitGraph();
    QVERIFY(!unmoved());
}

void TestGraphScene::denseGraphIsOneLayer()
{
    // An Erdős–Rényi graph of 1000 nodes and p = 0.3 made 150 000 EdgeItems: ~12 s to build,
    // seconds per zoom, and a black disk. Past kDenseEdges one layer draws a density picture.
    auto graph = generateGraph(Json{{"type", "erdos-renyi"}, {"nodes", 1000}, {"p", 0.3}, {"seed", 7}},
                               "graph.generator");
    QVERIFY(graph.ok());
    QVERIFY(graph->edgeCount() > 140000);
    Canvas canvas;
    auto &[stack, doc, scene] = canvas;
    doc.load(triangle(false), Json());
    QVERIFY(!scene.isDense());
    doc.replaceGraph(*graph, Json(), QStringLiteral("Generate"));
    QVERIFY(scene.isDense());
    QCOMPARE(scene.edgeItemCount(), 0);
    QCOMPARE(count(scene, NodeItem::Type), 1000);
    QCOMPARE(scene.totalEdgeCount(), int(graph->edgeCount()));
    QCOMPARE(scene.drawnEdgeCount(), GraphScene::kMaxDrawnEdges);

    GraphView view(&scene);
    QVERIFY(shown(view, 900, 700));
    view.fitGraph();
    auto *note = view.findChild<QLabel *>(QStringLiteral("denseNote"));
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(QLocale().toString(GraphScene::kMaxDrawnEdges)), qPrintable(note->text()));
    // The picture: edges everywhere inside the circle of nodes, but grey, not black.
    const QImage shot = view.viewport()->grab().toImage();
    const QPoint centre = view.mapFromScene(scene.itemsBoundingRect().center());
    int inked = 0, black = 0, total = 0;
    for (int y = centre.y() - 100; y <= centre.y() + 100; y += 4)
        for (int x = centre.x() - 100; x <= centre.x() + 100; x += 4) {
            const int grey = qGray(shot.pixel(x, y));
            ++total;
            inked += grey < 235;
            black += grey < 90;
        }
    QVERIFY2(inked > total / 2, qPrintable(QStringLiteral("%1 of %2 inked").arg(inked).arg(total)));
    QVERIFY2(black < total / 20, qPrintable(QStringLiteral("%1 of %2 nearly black").arg(black).arg(total)));

    // Undo goes back to items; nodes still move and select in the dense graph.
    stack.undo();
    QVERIFY(!scene.isDense());
    QCOMPARE(scene.edgeItemCount(), 2);
    QVERIFY(!note->isVisible());
    stack.redo();
    QVERIFY(scene.isDense());
    scene.nodeItem(5)->setSelected(true);
    QCOMPARE(scene.selectedNodes(), QVector<int>{5});
    scene.deleteSelection();
    QCOMPARE(count(scene, NodeItem::Type), 999);
    QVERIFY(scene.isDense());
}

QTEST_MAIN(TestGraphScene)
#include "tst_graphscene.moc"
