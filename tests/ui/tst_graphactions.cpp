// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphActions: the editor's context menus. A right click on a node or an edge asks for a menu
// about that item (which becomes the selection); the node menu deletes the node and edits its
// properties, the edge menu deletes the edge and opens its weight; each is one undo step.
#include "edgeitem.h"
#include "experimentdocument.h"
#include "forcelayout.h"
#include "graphactions.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "graphview.h"
#include "inspectorwidget.h"
#include "nodeitem.h"
#include "presetlibrary.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace dplab;

namespace {

struct Editor {
    Editor()
    {
        Json file;
        QString error;
        PresetLibrary::read(PresetLibrary::defaultPreset(), &file, &error);
        loaded = document.loadJson(file, PresetLibrary::baseDir(), QString(), &error);
        scene = new GraphScene(document.graphDocument(), &window);
        view = new GraphView(scene, &window);
        inspector = new InspectorWidget(&document, &window);
        actions = new GraphActions(&document, scene, view, inspector, &window);
        view->resize(800, 600);
        view->fitGraph();
    }
    QAction *find(QMenu *menu, const QString &name)
    {
        for (QAction *a : menu->actions())
            if (a->objectName() == name)
                return a;
        return nullptr;
    }
    ExperimentDocument document;
    QWidget window;
    GraphScene *scene;
    GraphView *view;
    InspectorWidget *inspector;
    GraphActions *actions;
    bool loaded = false;
};

} // namespace

class TestGraphActions : public QObject
{
    Q_OBJECT

private slots:
    void rightClickAsksForTheItemsMenu();
    void nodeMenuDeletesTheNode();
    void edgeMenuDeletesTheEdge();
    void emptySpaceMenuAddsANode();
    void nodePropertiesMoveTheNode();
    void forceLayoutOffTheGuiThread();
};

void TestGraphActions::rightClickAsksForTheItemsMenu()
{
    // There was no context menu on nodes or edges.
    Editor e;
    QVERIFY(e.loaded);
    e.window.resize(900, 700);
    e.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e.window));
    QSignalSpy asked(e.scene, &GraphScene::contextMenuRequested);
    auto rightClick = [&](const QPointF &scenePos) {
        const QPoint at = e.view->mapFromScene(scenePos);
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, e.view->viewport()->mapToGlobal(at));
        QApplication::sendEvent(e.view->viewport(), &event);
        for (QWidget *w : QApplication::topLevelWidgets()) // the popup the action opened
            if (auto *menu = qobject_cast<QMenu *>(w); menu && menu->isVisible())
                menu->close();
    };
    rightClick(e.scene->nodeItem(3)->pos());
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked[0][0].toInt(), 3);
    QCOMPARE(e.scene->selectedNodes(), QVector<int>{3});
    EdgeItem *edge = e.scene->edgeItem(Edge{0, 1});
    QVERIFY(edge);
    rightClick(edge->mapToScene(edge->shape().boundingRect().center()));
    QCOMPARE(asked.size(), 2);
    QCOMPARE(asked[1][0].toInt(), -1);
    const Edge got = asked[1][1].value<Edge>();
    QCOMPARE(got.from, 0);
    QCOMPARE(got.to, 1);
    QVERIFY(e.scene->selectedNodes().isEmpty());
}

void TestGraphActions::nodeMenuDeletesTheNode()
{
    Editor e;
    QVERIFY(e.loaded);
    std::unique_ptr<QMenu> menu(e.actions->createContextMenu(2, Edge{-1, -1}, QPointF()));
    QAction *remove = e.find(menu.get(), QStringLiteral("deleteNode"));
    QVERIFY(remove && e.find(menu.get(), QStringLiteral("nodeProperties")));
    QVERIFY(remove->text().contains(QLatin1String("2")));
    remove->trigger();
    QCOMPARE(e.document.graphDocument()->graph().nodeCount(), 5);
    e.document.undoStack()->undo();
    QCOMPARE(e.document.graphDocument()->graph().nodeCount(), 6);
}

void TestGraphActions::edgeMenuDeletesTheEdge()
{
    Editor e;
    QVERIFY(e.loaded);
    e.inspector->refresh();
    std::unique_ptr<QMenu> menu(e.actions->createContextMenu(-1, Edge{5, 0}, QPointF()));
    QAction *remove = e.find(menu.get(), QStringLiteral("deleteEdge"));
    QAction *weight = e.find(menu.get(), QStringLiteral("editWeight"));
    QVERIFY(remove && weight);
    QVERIFY(weight->isEnabled());
    remove->trigger();
    QVERIFY(!e.document.graphDocument()->graph().hasEdge(5, 0));
    QCOMPARE(e.document.graphDocument()->graph().edgeCount(), std::size_t(8));
    e.document.undoStack()->undo();
    QVERIFY(e.document.graphDocument()->graph().hasEdge(5, 0));
}

void TestGraphActions::emptySpaceMenuAddsANode()
{
    Editor e;
    QVERIFY(e.loaded);
    const QPointF at = e.scene->toScene({3, 3});
    std::unique_ptr<QMenu> menu(e.actions->createContextMenu(-1, Edge{-1, -1}, at));
    QAction *add = e.find(menu.get(), QStringLiteral("addNodeHere"));
    QVERIFY(add);
    add->trigger();
    const Graph &g = e.document.graphDocument()->graph();
    QCOMPARE(g.nodeCount(), 7);
    QVERIFY(std::abs(g.positions()[6].x - 3) < 1e-9 && std::abs(g.positions()[6].y - 3) < 1e-9);
}

void TestGraphActions::nodePropertiesMoveTheNode()
{
    Editor e;
    QVERIFY(e.loaded);
    const NodePosition before = e.document.graphDocument()->graph().positions()[1];
    QDialog *dialog = e.actions->createNodeProperties(1);
    QVERIFY(dialog);
    dialog->findChild<QDoubleSpinBox *>(QStringLiteral("x"))->setValue(2.5);
    dialog->findChild<QDoubleSpinBox *>(QStringLiteral("y"))->setValue(-1.25);
    dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    const NodePosition after = e.document.graphDocument()->graph().positions()[1];
    QCOMPARE(after.x, 2.5);
    QCOMPARE(after.y, -1.25);
    QCOMPARE(e.scene->nodeItem(1)->pos(), e.scene->toScene({2.5, -1.25}));
    e.document.undoStack()->undo();
    QCOMPARE(e.document.graphDocument()->graph().positions()[1].x, before.x);
}

void TestGraphActions::forceLayoutOffTheGuiThread()
{
    // The layout froze the window for seconds on large graphs: it now runs on a worker thread
    // and gives exactly what the inline call gives.
    Editor e;
    QVERIFY(e.loaded);
    const Graph g = e.document.graphDocument()->graph();
    const std::vector<NodePosition> expected = forceDirectedLayout(g, g.positions());
    QSignalSpy applied(e.actions, &GraphActions::layoutApplied);
    e.actions->applyForceLayout();
    QVERIFY(!e.actions->forceAction()->isEnabled()); // busy
    QVERIFY(applied.wait(20000));
    QVERIFY(e.actions->forceAction()->isEnabled());
    const auto &got = e.document.graphDocument()->graph().positions();
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].x, expected[i].x);
        QCOMPARE(got[i].y, expected[i].y);
    }
    e.document.undoStack()->undo();
    QCOMPARE(e.document.graphDocument()->graph().positions()[0].x, g.positions()[0].x);

    // An edit before the result arrives: the stale layout is dropped.
    const int steps = e.document.undoStack()->index();
    e.actions->applyForceLayout();
    e.document.graphDocument()->addNode({5, 5});
    QTRY_VERIFY_WITH_TIMEOUT(e.actions->forceAction()->isEnabled(), 20000);
    QCOMPARE(applied.size(), 1);
    QCOMPARE(e.document.undoStack()->index(), steps + 1); // the added node only
}

QTEST_MAIN(TestGraphActions)
#include "tst_graphactions.moc"
