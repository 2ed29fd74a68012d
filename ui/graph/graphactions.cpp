// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphactions.h"

#include "experimentdocument.h"
#include "exporter.h"
#include "forcelayout.h"
#include "generatordialog.h"
#include "graphdocument.h"
#include "graphio.h"
#include "graphscene.h"
#include "graphview.h"
#include "inspectorwidget.h"
#include "rememberedfolder.h"
#include "textconvert.h"

#include "dplab/common/files.h"
#include "dplab/graph/generators.h"

#include <QAction>
#include <QActionGroup>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGuiApplication>
#include <QThread>
#include <QMessageBox>
#include <QUndoStack>

#include <algorithm>

namespace dplab {

GraphActions::GraphActions(ExperimentDocument *document, GraphScene *scene, GraphView *view,
                           InspectorWidget *inspector, QWidget *window)
    : QObject(window)
    , mDocument(document)
    , mScene(scene)
    , mView(view)
    , mInspector(inspector)
    , mWindow(window)
{
    connect(mScene, &GraphScene::contextMenuRequested, this, &GraphActions::showContextMenu);
    connect(mDocument->graphDocument(), &GraphDocument::changed, this, [this] { ++mGraphRevision; });
    mDeleteAction = new QAction(tr("&Delete"), this);
    mDeleteAction->setShortcut(QKeySequence::Delete);
    mDeleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    mView->addAction(mDeleteAction);
    connect(mDeleteAction, &QAction::triggered, mScene, &GraphScene::deleteSelection);
    mSelectAllAction = new QAction(tr("Select &All"), this);
    mSelectAllAction->setShortcut(QKeySequence::SelectAll);
    mSelectAllAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    mView->addAction(mSelectAllAction);
    connect(mSelectAllAction, &QAction::triggered, this, [this] {
        for (QGraphicsItem *item : mScene->items())
            if (item->flags() & QGraphicsItem::ItemIsSelectable)
                item->setSelected(true);
    });

    mZoomInAction = new QAction(tr("Zoom &In"), this);
    mZoomInAction->setShortcut(QKeySequence::ZoomIn);
    connect(mZoomInAction, &QAction::triggered, mView, &GraphView::zoomIn);
    mZoomOutAction = new QAction(tr("Zoom &Out"), this);
    mZoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(mZoomOutAction, &QAction::triggered, mView, &GraphView::zoomOut);
    mFitAction = new QAction(tr("&Fit Graph"), this);
    mFitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(mFitAction, &QAction::triggered, mView, &GraphView::fitGraph);
    mShowWeightsAction = new QAction(tr("Show &Weights"), this);
    mShowWeightsAction->setCheckable(true);
    mShowWeightsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    mShowWeightsAction->setToolTip(tr("Show the mixing weight(s) of the selected run on every edge"));
    connect(mShowWeightsAction, &QAction::toggled, mScene, &GraphScene::setShowWeights);

    mModeGroup = new QActionGroup(this);
    mSelectModeAction = new QAction(tr("&Select / Move"), mModeGroup);
    mSelectModeAction->setShortcut(QKeySequence(Qt::Key_S));
    mSelectModeAction->setToolTip(tr("Select and move nodes and edges; drag on empty space for a rubber band (S)"));
    mAddNodeModeAction = new QAction(tr("Add &Node"), mModeGroup);
    mAddNodeModeAction->setShortcut(QKeySequence(Qt::Key_N));
    mAddNodeModeAction->setToolTip(tr("Click on empty space to add an agent (N)"));
    mAddEdgeModeAction = new QAction(tr("Add &Edge"), mModeGroup);
    mAddEdgeModeAction->setShortcut(QKeySequence(Qt::Key_E));
    mAddEdgeModeAction->setToolTip(tr("Drag from one node to another to add an edge (E)"));
    for (QAction *a : mModeGroup->actions()) {
        a->setCheckable(true);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        mView->addAction(a);
    }
    mSelectModeAction->setChecked(true);
    connect(mSelectModeAction, &QAction::triggered, this, [this] { mScene->setMode(GraphScene::Mode::Select); });
    connect(mAddNodeModeAction, &QAction::triggered, this, [this] { mScene->setMode(GraphScene::Mode::AddNode); });
    connect(mAddEdgeModeAction, &QAction::triggered, this, [this] { mScene->setMode(GraphScene::Mode::AddEdge); });

    mDirectedAction = new QAction(tr("&Directed"), this);
    mDirectedAction->setCheckable(true);
    mDirectedAction->setToolTip(tr("Directed graph: an edge j → i means j sends to i"));
    connect(mDirectedAction, &QAction::triggered, this, [this](bool directed) {
        QUndoStack *stack = mDocument->undoStack();
        stack->beginMacro(directed ? tr("Make graph directed") : tr("Make graph undirected"));
        mDocument->graphDocument()->setDirected(directed);
        mDocument->setValue("/graph/weights", Json(), tr("Default weights"));
        stack->endMacro();
    });
    connect(mDocument->graphDocument(), &GraphDocument::changed, this, [this] {
        mDirectedAction->setChecked(mDocument->graphDocument()->graph().isDirected());
    });
    mGenerateAction = new QAction(tr("&Generate…"), this);
    mGenerateAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    mGenerateAction->setToolTip(tr("Replace the graph by a generated one (ring, grid, Erdős–Rényi, …)"));
    connect(mGenerateAction, &QAction::triggered, this, &GraphActions::generateGraph);
    mCircularAction = new QAction(tr("&Circular Layout"), this);
    connect(mCircularAction, &QAction::triggered, this, &GraphActions::applyCircularLayout);
    mForceAction = new QAction(tr("&Force-Directed Layout"), this);
    connect(mForceAction, &QAction::triggered, this, &GraphActions::applyForceLayout);
    mMatrixAction = new QAction(tr("Weight &Matrix…"), this);
    connect(mMatrixAction, &QAction::triggered, inspector, &InspectorWidget::showMatrixDialog);

    mImportAction = new QAction(tr("&Import Graph…"), this);
    connect(mImportAction, &QAction::triggered, this, &GraphActions::importGraph);
    mExportAction = new QAction(tr("&Export Graph…"), this);
    connect(mExportAction, &QAction::triggered, this, &GraphActions::exportGraph);
    mExportPictureAction = new QAction(tr("Export Graph &Picture…"), this);
    mExportPictureAction->setToolTip(tr("Save the graph as drawn in the editor (PNG, SVG or PDF)"));
    connect(mExportPictureAction, &QAction::triggered, this, &GraphActions::exportGraphPicture);
}

QMenu *GraphActions::createContextMenu(int node, const Edge &edge, const QPointF &scenePos)
{
    auto *menu = new QMenu(mWindow);
    GraphDocument *graph = mDocument->graphDocument();
    const bool directed = graph->graph().isDirected();
    if (node >= 0 && node < graph->graph().nodeCount()) {
        const QVector<int> selected = mScene->selectedNodes();
        const bool many = selected.size() > 1 && selected.contains(node);
        QAction *remove = menu->addAction(many ? tr("Delete %n nodes", nullptr, int(selected.size()))
                                               : tr("Delete node %1").arg(node));
        remove->setObjectName(QStringLiteral("deleteNode"));
        connect(remove, &QAction::triggered, this, [this, graph, node, many, selected] {
            if (many)
                mScene->deleteSelection();
            else
                graph->deleteElements({node}, {});
        });
        QAction *properties = menu->addAction(tr("Properties of node %1…").arg(node));
        properties->setObjectName(QStringLiteral("nodeProperties"));
        connect(properties, &QAction::triggered, this, [this, node] {
            if (QDialog *dialog = createNodeProperties(node))
                dialog->exec();
        });
    } else if (edge.from >= 0 && graph->graph().hasEdge(edge.from, edge.to)) {
        const QString name = directed ? tr("%1 → %2").arg(edge.from).arg(edge.to)
                                      : tr("%1 — %2").arg(edge.from).arg(edge.to);
        QAction *remove = menu->addAction(tr("Delete edge %1").arg(name));
        remove->setObjectName(QStringLiteral("deleteEdge"));
        connect(remove, &QAction::triggered, this, [graph, edge] { graph->deleteElements({}, {edge}); });
        QAction *weight = menu->addAction(tr("Edit weight of %1…").arg(name));
        weight->setObjectName(QStringLiteral("editWeight"));
        weight->setToolTip(tr("The weight matrix with the entry of this edge selected"));
        weight->setEnabled(!mInspector->inspection().matrices.isEmpty());
        connect(weight, &QAction::triggered, this, [this, edge] { mInspector->showMatrixDialogForEdge(edge.from, edge.to); });
        if (!directed) { // an undirected edge carries two entries, W(i, j) and W(j, i)
            QAction *back = menu->addAction(tr("Edit weight of %1 → %2…").arg(edge.to).arg(edge.from));
            back->setEnabled(weight->isEnabled());
            connect(back, &QAction::triggered, this, [this, edge] { mInspector->showMatrixDialogForEdge(edge.to, edge.from); });
        }
    } else {
        QAction *add = menu->addAction(tr("Add node here"));
        add->setObjectName(QStringLiteral("addNodeHere"));
        connect(add, &QAction::triggered, this, [this, graph, scenePos] { graph->addNode(mScene->fromScene(scenePos)); });
        menu->addAction(mFitAction);
        menu->addAction(mMatrixAction);
    }
    return menu;
}

void GraphActions::showContextMenu(int node, const Edge &edge, const QPoint &screenPos, const QPointF &scenePos)
{
    QMenu *menu = createContextMenu(node, edge, scenePos);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(screenPos);
}

QDialog *GraphActions::createNodeProperties(int node)
{
    const Graph &g = mDocument->graphDocument()->graph();
    if (node < 0 || node >= g.nodeCount())
        return nullptr;
    auto *dialog = new QDialog(mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Node %1").arg(node));
    auto *form = new QFormLayout(dialog);
    const NodePosition at = g.hasPositions() ? g.positions()[node] : NodePosition{};
    auto coordinate = [dialog](double value, const QString &name) {
        auto *box = new QDoubleSpinBox(dialog);
        box->setObjectName(name);
        box->setRange(-1e6, 1e6);
        box->setDecimals(4);
        box->setSingleStep(0.1);
        box->setValue(value);
        return box;
    };
    QDoubleSpinBox *x = coordinate(at.x, QStringLiteral("x"));
    QDoubleSpinBox *y = coordinate(at.y, QStringLiteral("y"));
    form->addRow(tr("x (layout units)"), x);
    form->addRow(tr("y (layout units)"), y);
    QStringList in, out;
    for (const Edge &e : g.edges()) {
        if (e.to == node)
            in << QString::number(e.from);
        if (e.from == node)
            out << QString::number(e.to);
    }
    if (!g.isDirected()) { // undirected edges are stored once, {min, max}
        in += out;
        out = in;
    }
    std::sort(in.begin(), in.end(), [](const QString &a, const QString &b) { return a.toInt() < b.toInt(); });
    std::sort(out.begin(), out.end(), [](const QString &a, const QString &b) { return a.toInt() < b.toInt(); });
    auto list = [](const QStringList &nodes) {
        return nodes.isEmpty() ? QObject::tr("none")
                               : (nodes.size() > 30 ? (nodes.mid(0, 30).join(QStringLiteral(", ")) + QStringLiteral(", …"))
                                                    : nodes.join(QStringLiteral(", ")));
    };
    auto label = [dialog](const QString &text) {
        auto *l = new QLabel(text, dialog);
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return l;
    };
    if (g.isDirected()) {
        form->addRow(tr("receives from (%1)").arg(in.size()), label(list(in)));
        form->addRow(tr("sends to (%1)").arg(out.size()), label(list(out)));
    } else {
        form->addRow(tr("neighbours (%1)").arg(in.size()), label(list(in)));
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, node, at, x, y] {
        GraphDocument *graph = mDocument->graphDocument();
        if (node < graph->graph().nodeCount() && (x->value() != at.x || y->value() != at.y))
            graph->moveNodes({node}, {at}, {NodePosition{x->value(), y->value()}});
        dialog->accept();
    });
    return dialog;
}

void GraphActions::generateGraph()
{
    GeneratorDialog dialog(mWindow);
    const Json generator = mDocument->graphDocument()->generator();
    if (!generator.is_null())
        dialog.setSpec(generator);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const Json spec = dialog.spec();
    auto graph = dplab::generateGraph(spec, "graph.generator");
    if (!graph) {
        QMessageBox::warning(mWindow, tr("Generate graph"), toQString(graph.error().toString()));
        return;
    }
    const bool kindChanged = graph->isDirected() != mDocument->graphDocument()->graph().isDirected();
    QUndoStack *stack = mDocument->undoStack();
    stack->beginMacro(tr("Generate %1").arg(toQString(spec.value("type", std::string()))));
    mDocument->graphDocument()->replaceGraph(*graph, spec, tr("Generate graph"));
    if (kindChanged)
        mDocument->setValue("/graph/weights", Json(), tr("Default weights"));
    stack->endMacro();
    mView->fitGraph();
}

void GraphActions::applyCircularLayout()
{
    const int n = mDocument->graphDocument()->graph().nodeCount();
    mDocument->graphDocument()->setLayout(circularLayout(n), tr("Circular layout"));
    mView->fitGraph();
}

void GraphActions::applyForceLayout()
{
    // O(300 · n²): seconds for 1000 nodes. Computed on a worker thread (a pure function of a
    // copy of the graph, so the result is the same as inline) with a busy cursor; applied as
    // one undo step if the graph did not change meanwhile.
    if (mLayoutThread)
        return;
    const Graph g = mDocument->graphDocument()->graph();
    if (g.nodeCount() == 0)
        return;
    const quint64 revision = mGraphRevision;
    mLayoutThread = QThread::create([this, g] {
        auto positions = forceDirectedLayout(g, g.positions());
        const std::lock_guard<std::mutex> lock(mLayoutMutex);
        mLayoutResult = std::move(positions);
    });
    connect(mLayoutThread, &QThread::finished, this, [this, revision] {
        mLayoutThread->wait();
        delete mLayoutThread;
        mLayoutThread = nullptr;
        std::vector<NodePosition> positions;
        {
            const std::lock_guard<std::mutex> lock(mLayoutMutex);
            positions.swap(mLayoutResult);
        }
        QGuiApplication::restoreOverrideCursor();
        mForceAction->setEnabled(true);
        if (revision != mGraphRevision) {
            emit message(tr("The graph changed during the layout: not applied"), 4000);
            return;
        }
        mDocument->graphDocument()->setLayout(positions, tr("Force-directed layout"));
        mView->fitGraph();
        emit layoutApplied();
    });
    mForceAction->setEnabled(false);
    QGuiApplication::setOverrideCursor(Qt::BusyCursor);
    emit message(tr("Computing the force-directed layout…"), 0);
    mLayoutThread->start();
}

GraphActions::~GraphActions()
{
    if (mLayoutThread) {
        mLayoutThread->wait();
        delete mLayoutThread;
        QGuiApplication::restoreOverrideCursor();
    }
}

void GraphActions::importGraph()
{
    const QString path = QFileDialog::getOpenFileName(mWindow, tr("Import graph"), rememberedFolder(QStringLiteral("graph")),
                                                      tr("Graphs (*.csv *.dot *.gv);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("graph"), path);
    auto text = readFile(toStdString(path));
    if (!text) {
        QMessageBox::warning(mWindow, tr("Import graph"), toQString(text.error().toString()));
        return;
    }
    const std::string name = toStdString(QFileInfo(path).fileName());
    const QString suffix = QFileInfo(path).suffix().toLower();
    auto graph = suffix == QLatin1String("csv")
                     ? graphFromEdgeListCsv(*text, name, mDocument->graphDocument()->graph().isDirected())
                     : graphFromDot(*text, name);
    if (!graph) {
        QMessageBox::warning(mWindow, tr("Import graph"), toQString(graph.error().toString()));
        return;
    }
    mDocument->graphDocument()->replaceGraph(*graph, Json(), tr("Import %1").arg(QFileInfo(path).fileName()));
    mView->fitGraph();
}

void GraphActions::exportGraph()
{
    QString selected;
    QString path = QFileDialog::getSaveFileName(mWindow, tr("Export graph"),
                                                QDir(rememberedFolder(QStringLiteral("graph"))).filePath(QStringLiteral("graph.csv")),
                                                tr("Edge list (*.csv);;Graphviz DOT (*.dot)"), &selected);
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("graph"), path);
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("dot")) ? QStringLiteral(".dot") : QStringLiteral(".csv");
    const Graph &g = mDocument->graphDocument()->graph();
    const std::string text = QFileInfo(path).suffix().toLower() == QLatin1String("csv") ? graphToEdgeListCsv(g)
                                                                                         : graphToDot(g);
    if (Status s = writeFileAtomic(toStdString(path), text); !s)
        QMessageBox::warning(mWindow, tr("Export graph"), toQString(s.error().toString()));
    else
        emit message(tr("Exported %1").arg(QFileInfo(path).fileName()), 4000);
}

void GraphActions::exportGraphPicture()
{
    QString path;
    int dpi = 0;
    if (!askPlotExportPath(mWindow, tr("Export graph picture"), QStringLiteral("graph.png"), &path, &dpi))
        return;
    QString error;
    if (!exportScene(mScene, path, QSize(), dpi, &error))
        QMessageBox::warning(mWindow, tr("Export graph picture"), error);
    else
        emit message(tr("Exported %1").arg(QFileInfo(path).fileName()), 4000);
}

} // namespace dplab
