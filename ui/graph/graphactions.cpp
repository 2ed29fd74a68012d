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
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QMessageBox>
#include <QUndoStack>

namespace dplab {

GraphActions::GraphActions(ExperimentDocument *document, GraphScene *scene, GraphView *view,
                           InspectorWidget *inspector, QWidget *window)
    : QObject(window)
    , mDocument(document)
    , mScene(scene)
    , mView(view)
    , mWindow(window)
{
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
    const Graph &g = mDocument->graphDocument()->graph();
    auto positions = forceDirectedLayout(g, g.positions());
    mDocument->graphDocument()->setLayout(positions, tr("Force-directed layout"));
    mView->fitGraph();
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
