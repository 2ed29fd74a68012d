// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphScene: the QGraphicsScene of the graph editor. Items mirror the GraphDocument; user
// gestures become document edits (which push undo commands), never direct item changes:
//   Select  — click / rubber band to select, drag to move (one MoveNodesCommand per drag);
//   AddNode — click on empty space adds a node there;
//   AddEdge — press on a node, drag a line, release on another node (Diagram Scene style).
// Positions are stored in the document in layout units; the scene draws them scaled.
//
// Level of detail: a graph with more than kDenseEdges edges (an Erdős–Rényi graph of 1000 nodes
// and p = 0.3 has 150 000) is drawn without one EdgeItem per edge: a single layer item paints the
// edges as one batch of thin translucent lines into a cached picture, thinned to at most
// kMaxDrawnEdges (a deterministic, evenly spread subset), without arrowheads or weight labels.
// Nodes stay NodeItems (select, move, delete, context menu); edges are edited through the
// document or the weight matrix.
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
class EdgeLayerItem;
class GraphDocument;
class NodeItem;

class GraphScene : public QGraphicsScene
{
    Q_OBJECT

public:
    enum class Mode { Select, AddNode, AddEdge };
    /** More edges than this: one layer item draws them all (see above). */
    static constexpr int kDenseEdges = 2000;
    /** At most this many edges are drawn in the dense layer. */
    static constexpr int kMaxDrawnEdges = 40000;

    explicit GraphScene(GraphDocument *document, QObject *parent = nullptr);
    ~GraphScene() override;

    Mode mode() const { return mMode; }
    void setMode(Mode mode);

    NodeItem *nodeItem(int index) const;
    EdgeItem *edgeItem(const Edge &edge) const;
    int edgeItemCount() const { return static_cast<int>(mEdges.size()); }
    /** Whether the edges are drawn by the dense layer (no EdgeItems). */
    bool isDense() const { return mLayer != nullptr; }
    /** Edges the dense layer draws (0 when not dense). */
    int drawnEdgeCount() const;
    /** Edges of the dense layer's graph, drawn or not (0 when not dense). */
    int totalEdgeCount() const;
    /** Draw with the dense layer past `edges` edges (default kDenseEdges; benchmarks compare);
     *  takes effect at the next rebuild. */
    void setDenseThreshold(int edges) { mDenseThreshold = edges; }
    /** Called by a NodeItem that moved: edges follow. */
    void nodeItemMoved(NodeItem *node);

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
    /** The items were rebuilt (a new graph). */
    void rebuilt();
    /** An edit changed the edges of the dense layer. */
    void denseEdgesChanged();
    /** Right click (or the menu key) on a node, on an edge (node −1), or on empty space (node
     *  −1, edge {−1, −1}); the item under the cursor was made the selection. */
    void contextMenuRequested(int node, const dplab::Edge &edge, const QPoint &screenPos,
                              const QPointF &scenePos);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent *event) override;

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
    EdgeLayerItem *mLayer = nullptr;   ///< dense graphs: all edges in one item, mEdges empty
    int mDenseThreshold = kDenseEdges;
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
