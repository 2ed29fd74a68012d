// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph: n agents and the edges they communicate over, directed or undirected, with optional
// node positions (kept for the editor and saved with the experiment).
//
// Convention (docs/architecture.md §2, paper 000 Assumption 1): edge (from j, to i) means j SENDS to i, so a
// weight matrix W may have W(i, j) != 0 only when j -> i is an edge (or i == j).
// An undirected edge {i, j} is stored once, as (min, max), and works both ways.
//
// Threading: value type; const methods are thread-safe.
#pragma once

#include <Eigen/Core>

#include <optional>
#include <utility>
#include <vector>

namespace dplab {

struct Edge {
    int from = 0;
    int to = 0;
    bool operator==(const Edge &) const = default;
};

struct NodePosition {
    double x = 0.0;
    double y = 0.0;
    bool operator==(const NodePosition &) const = default;
};

class Graph
{
public:
    Graph() = default;
    Graph(int nodes, bool directed);

    /** A graph with the given edges, for generators that build large edge lists: O(E), where
     *  addEdge costs O(E) per edge. REQUIRES (asserted in debug builds, O(E log E)): no
     *  self-loops, nodes in range, no duplicates, undirected edges stored as (min, max). */
    static Graph fromEdges(int nodes, bool directed, std::vector<Edge> edges);

    int nodeCount() const { return mNodes; }
    bool isDirected() const { return mDirected; }
    std::size_t edgeCount() const { return mEdges.size(); }
    const std::vector<Edge> &edges() const { return mEdges; }

    /** Adds the edge from -> to (undirected: {from, to}). Returns false, changing nothing, for a
     *  self-loop, an out-of-range node or an edge that exists already. */
    bool addEdge(int from, int to);
    bool removeEdge(int from, int to);
    /** True when `from` sends to `to` (undirected: when the two are adjacent). */
    bool hasEdge(int from, int to) const;

    /** Appends a node (at position p if given); returns its index. */
    int addNode(std::optional<NodePosition> p = std::nullopt);
    /** Removes node i and its edges; higher indices shift down by one. */
    void removeNode(int i);

    /** Nodes j with j -> i (undirected: the neighbours), ascending. */
    std::vector<int> inNeighbours(int i) const;
    /** Nodes j with i -> j (undirected: the neighbours), ascending. */
    std::vector<int> outNeighbours(int i) const;
    int inDegree(int i) const;
    int outDegree(int i) const;

    /** A(i, j) = 1 when j -> i (symmetric when undirected). */
    Eigen::MatrixXd adjacency() const;

    bool hasPositions() const { return !mPositions.empty(); }
    const std::vector<NodePosition> &positions() const { return mPositions; }
    /** Sets all positions (size must be nodeCount(), or 0 to clear). */
    void setPositions(std::vector<NodePosition> positions);
    void setPosition(int i, NodePosition p);

    bool operator==(const Graph &) const = default;

private:
    int mNodes = 0;
    bool mDirected = false;
    std::vector<Edge> mEdges;
    std::vector<NodePosition> mPositions;
};

} // namespace dplab
