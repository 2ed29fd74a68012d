// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphScene: the QGraphicsScene of the graph editor. Items mirror the GraphDocument; user
// gestures become document edits (which push undo commands), never direct item changes:
//   Select  — click / rubber band to select, drag to move (one MoveNodesCommand per drag);
//   AddNode — click on empty space adds a node there;
//   AddEdge — press on a node, drag a line, release on another node (Diagram Scene style).
// Positions are stored in the document in layout units; the scene draws them scaled.
//
// Threading: GUI thread.
#pragma once

#include "dplab/graph/graph.h"

#include <Eigen/Core>

#include <QGraphicsScene>
#include <QHash>
#include <QVector>

#include <vector>

class QGraphicsLineItem;

namespace dplab {

class EdgeItem;
class GraphDocument;
class NodeItem;

class GraphScene : public QGraphicsScene
{
    Q_OBJECT

public:
    enum class Mode { Select, AddNode, AddEdge };

    explicit GraphScene(GraphDocument *document, QObject *parent = nullptr);
    ~GraphScene() override;

    Mode mode() const { return mMode; }
    void setMode(Mode mode);

    NodeItem *nodeItem(int index) const;
    EdgeItem *edgeItem(const Edge &edge) const;
    int edgeItemCount() const { return static_cast<int>(mEdges.size()); }

    QVector<int> selectedNodes() const;
    QVector<Edge> selectedEdges() const;
    /** Deletes the selected nodes and edges through the document (one undo command). */
    void deleteSelection();

    /** Nodes drawn as offending (not connected / not reachable); others are normal. */
    void setHighlightedNodes(const std::vector<int> &nodes);
    /** Weight labels: for an edge j -> i, primary(i, j), and "primary | secondary" when a
     *  secondary matrix is given (R and C of push-pull). Empty matrices clear the labels. */
    void setWeightMatrices(const Eigen::MatrixXd &primary, const Eigen::MatrixXd &secondary);
    void setShowWeights(bool show);
    bool showWeights() const { return mShowWeights; }
    /** Per-node captions (e.g. Perron entries); empty clears. */
    void setNodeCaptions(const QStringList &captions);

    /** Scene position of a document position, and back. */
    QPointF toScene(const NodePosition &p) const;
    NodePosition fromScene(const QPointF &p) const;

signals:
    void modeChanged(dplab::GraphScene::Mode mode);
    /** The items were rebuilt (a new graph): views may want to fit it. */
    void rebuilt();

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;

private:
    void rebuild();
    void deleteItems();
    void onNodeAdded(int node);
    void onNodeRemoved(int node);
    void onEdgeAdded(const Edge &edge);
    void onEdgeRemoved(const Edge &edge);
    void onNodesMoved(const QVector<int> &nodes);
    void createEdgeItem(const Edge &edge);
    void updateParallel(const Edge &edge);
    void updateLabels();
    void placeLabels();

public:
    /** Draws nodes `scale` times their size (labels stay legible when the view zooms out). */
    void setNodeScale(qreal scale);
    qreal nodeScale() const { return mNodeScale; }

private:
    NodeItem *nodeAt(const QPointF &scenePos) const;
    void chooseScale();

    GraphDocument *mDocument;
    Mode mMode = Mode::Select;
    double mScale = 90.0; ///< scene pixels per layout unit
    qreal mNodeScale = 1.0;
    std::vector<NodeItem *> mNodes;
    QHash<quint64, EdgeItem *> mEdges; ///< key (from << 32 | to) as stored in the Graph
    std::vector<int> mHighlighted;
    Eigen::MatrixXd mPrimary;
    Eigen::MatrixXd mSecondary;
    bool mShowWeights = false;
    QStringList mCaptions;

    // gestures
    QGraphicsLineItem *mRubberLine = nullptr;
    NodeItem *mEdgeStart = nullptr;
    QVector<int> mDragNodes;
    QVector<NodePosition> mDragFrom;
};

} // namespace dplab
