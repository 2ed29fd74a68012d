// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphActions: the commands of the graph editor as QActions (Edit ▸ Delete/Select All, View ▸
// zoom/fit/weights, Graph ▸ modes, Directed, Generate, layouts, weight matrix, File ▸ import and
// export of the graph), and the editor's context menus: on a node (delete, properties), on an edge
// (delete, edit its weight in the weight matrix) and on empty space (add node, fit). Each edit
// goes through the GraphDocument (one undo step); MainWindow only places the actions in menus
// and toolbars.
//
// Threading: GUI thread; the force-directed layout (O(300 · n²)) is computed on a worker thread
// from a copy of the graph and applied back on the GUI thread.
#pragma once

#include <QObject>

#include "dplab/graph/graph.h"

#include <QPointF>

#include <mutex>
#include <vector>

class QAction;
class QActionGroup;
class QDialog;
class QMenu;
class QThread;
class QWidget;

namespace dplab {

class ExperimentDocument;
class GraphScene;
class GraphView;
class InspectorWidget;

class GraphActions : public QObject
{
    Q_OBJECT

public:
    /** `window` parents the dialogs. */
    GraphActions(ExperimentDocument *document, GraphScene *scene, GraphView *view, InspectorWidget *inspector,
                 QWidget *window);
    /** Waits for a force-directed layout still being computed. */
    ~GraphActions() override;

    QAction *deleteAction() const { return mDeleteAction; }
    QAction *selectAllAction() const { return mSelectAllAction; }
    QAction *zoomInAction() const { return mZoomInAction; }
    QAction *zoomOutAction() const { return mZoomOutAction; }
    QAction *fitAction() const { return mFitAction; }
    QAction *showWeightsAction() const { return mShowWeightsAction; }
    QActionGroup *modeGroup() const { return mModeGroup; }
    QAction *directedAction() const { return mDirectedAction; }
    QAction *generateAction() const { return mGenerateAction; }
    QAction *circularAction() const { return mCircularAction; }
    QAction *forceAction() const { return mForceAction; }
    QAction *matrixAction() const { return mMatrixAction; }
    QAction *importAction() const { return mImportAction; }
    QAction *exportAction() const { return mExportAction; }
    QAction *exportPictureAction() const { return mExportPictureAction; }

    /** The context menu for a node (node ≥ 0), an edge (edge.from ≥ 0) or empty space at
     *  `scenePos`; the caller owns it. */
    QMenu *createContextMenu(int node, const Edge &edge, const QPointF &scenePos);
    /** The properties of a node: its position (editable, one undo step on OK), degrees and
     *  neighbours. Deleted when closed. */
    QDialog *createNodeProperties(int node);

public slots:
    void showContextMenu(int node, const dplab::Edge &edge, const QPoint &screenPos, const QPointF &scenePos);
    void generateGraph();
    void applyCircularLayout();
    void applyForceLayout();
    void importGraph();
    void exportGraph();
    void exportGraphPicture();

signals:
    /** A message for the status bar. */
    void message(const QString &text, int timeoutMs);
    /** The force-directed layout (computed on a worker thread) was applied. */
    void layoutApplied();

private:
    ExperimentDocument *mDocument;
    GraphScene *mScene;
    GraphView *mView;
    InspectorWidget *mInspector;
    QWidget *mWindow;

    QAction *mDeleteAction, *mSelectAllAction;
    QAction *mZoomInAction, *mZoomOutAction, *mFitAction, *mShowWeightsAction;
    QActionGroup *mModeGroup;
    QAction *mSelectModeAction, *mAddNodeModeAction, *mAddEdgeModeAction;
    QAction *mDirectedAction, *mGenerateAction, *mCircularAction, *mForceAction, *mMatrixAction;
    QAction *mImportAction, *mExportAction, *mExportPictureAction;

    // The force-directed layout runs on mLayoutThread; its result is handed over under the mutex.
    QThread *mLayoutThread = nullptr;
    std::mutex mLayoutMutex;
    std::vector<NodePosition> mLayoutResult;
    quint64 mGraphRevision = 0; ///< counts graph changes, to drop a layout of an older graph
};

} // namespace dplab
