// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphDocument: the editable communication graph of an experiment. It wraps the core Graph
// (topology lives in core), remembers the generator the graph came from (so a
// generated graph is saved as its generator and can be swept), and emits fine-grained signals
// that GraphScene, the inspector and the experiment panel subscribe to.
//
// Edits come in two layers, as in Tiled's MapDocument: the public edit functions (addNode,
// addEdge, deleteElements, ...) each push one QUndoCommand onto the shared undo stack; the
// primitive functions (appendNode, insertEdge, ...) are what those commands call in redo()/undo()
// and are the only functions that change the graph.
//
// Threading: GUI thread only.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <QObject>
#include <QVector>

class QUndoStack;

namespace dplab {

class GraphDocument : public QObject
{
    Q_OBJECT

public:
    /** The document does not own `undoStack` (the ExperimentDocument does). */
    explicit GraphDocument(QUndoStack *undoStack, QObject *parent = nullptr);

    const Graph &graph() const { return mGraph; }
    /** The generator spec ({"type": ..., ...}) the graph came from; null once its topology was
     *  edited by hand. */
    const Json &generator() const { return mGenerator; }
    QUndoStack *undoStack() const { return mUndoStack; }

    /** Replaces the graph without an undo command (opening a file). Missing positions are
     *  filled with a circular layout. */
    void load(Graph graph, Json generator);

    /** The experiment's "graph" object without "weights": the generator (plus positions when
     *  they were moved) or directed/nodes/edges/positions. */
    Json toJson() const;

    // --- Edits: each pushes one undo command (nothing when the edit is a no-op) -----------

    void addNode(NodePosition position);
    /** Adds from -> to; returns false (pushing nothing) for a self-loop or an existing edge. */
    bool addEdge(int from, int to);
    void moveNodes(const QVector<int> &nodes, const QVector<NodePosition> &from,
                   const QVector<NodePosition> &to);
    /** Deletes the given edges and nodes (and the nodes' edges) in one command. */
    void deleteElements(const QVector<int> &nodes, const QVector<Edge> &edges);
    /** Replaces the whole graph (generator dialog, import) in one command. */
    void replaceGraph(const Graph &graph, const Json &generator, const QString &text);
    /** Switches between directed and undirected: an undirected edge becomes both directed
     *  edges; directed edges become their undirected pairs. */
    void setDirected(bool directed);
    /** Moves every node (layouts) in one command. */
    void setLayout(const std::vector<NodePosition> &positions, const QString &text);

    // --- Primitives for the undo commands (emit the signals, push nothing) ---------------

    int appendNode(NodePosition position);
    void removeLastNode();
    bool insertEdge(const Edge &edge);
    bool eraseEdge(const Edge &edge);
    void setNodePositions(const QVector<int> &nodes, const QVector<NodePosition> &positions);
    void resetGraph(const Graph &graph, const Json &generator);
    void setGenerator(const Json &generator);

signals:
    void nodeAdded(int node);
    /** The last node was removed (only the last one: other removals reset the graph). */
    void nodeRemoved(int node);
    void edgeAdded(const dplab::Edge &edge);
    void edgeRemoved(const dplab::Edge &edge);
    void nodesMoved(const QVector<int> &nodes);
    /** Everything may have changed: rebuild. */
    void graphReset();
    /** After every change of any kind (inspector, modified state). */
    void changed();

private:
    Graph mGraph;
    Json mGenerator;
    std::vector<NodePosition> mGeneratedPositions; ///< what the generator placed
    QUndoStack *mUndoStack;
};

} // namespace dplab
