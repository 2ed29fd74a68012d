// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/graph/graph.h"

#include <algorithm>
#include <cassert>

namespace dplab {

Graph::Graph(int nodes, bool directed) : mNodes(nodes), mDirected(directed)
{
    assert(nodes >= 0 && "Graph: negative node count");
}

Graph Graph::fromEdges(int nodes, bool directed, std::vector<Edge> edges)
{
    Graph g(nodes, directed);
#ifndef NDEBUG
    for (const Edge &e : edges)
        assert(e.from != e.to && e.from >= 0 && e.to >= 0 && e.from < nodes && e.to < nodes
               && (directed || e.from < e.to) && "Graph::fromEdges: invalid edge");
    auto sorted = edges;
    auto less = [](const Edge &a, const Edge &b) {
        return a.from != b.from ? a.from < b.from : a.to < b.to;
    };
    std::sort(sorted.begin(), sorted.end(), less);
    assert(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()
           && "Graph::fromEdges: duplicate edge");
#endif
    g.mEdges = std::move(edges);
    return g;
}

bool Graph::addEdge(int from, int to)
{
    if (from == to || from < 0 || to < 0 || from >= mNodes || to >= mNodes)
        return false;
    if (hasEdge(from, to))
        return false;
    if (!mDirected && from > to)
        std::swap(from, to);
    mEdges.push_back({from, to});
    return true;
}

bool Graph::removeEdge(int from, int to)
{
    if (!mDirected && from > to)
        std::swap(from, to);
    auto it = std::find(mEdges.begin(), mEdges.end(), Edge{from, to});
    if (it == mEdges.end())
        return false;
    mEdges.erase(it);
    return true;
}

bool Graph::hasEdge(int from, int to) const
{
    if (!mDirected && from > to)
        std::swap(from, to);
    return std::find(mEdges.begin(), mEdges.end(), Edge{from, to}) != mEdges.end();
}

int Graph::addNode(std::optional<NodePosition> p)
{
    if (p) {
        mPositions.resize(mNodes);
        mPositions.push_back(*p);
    } else if (!mPositions.empty()) {
        mPositions.push_back({});
    }
    return mNodes++;
}

void Graph::removeNode(int i)
{
    assert(i >= 0 && i < mNodes && "Graph::removeNode: index out of range");
    std::vector<Edge> kept;
    for (Edge e : mEdges) {
        if (e.from == i || e.to == i)
            continue;
        if (e.from > i)
            --e.from;
        if (e.to > i)
            --e.to;
        kept.push_back(e);
    }
    mEdges = std::move(kept);
    if (!mPositions.empty())
        mPositions.erase(mPositions.begin() + i);
    --mNodes;
}

namespace {

enum class Direction { In, Out };

/** The sorted in-neighbours (edges j → i) or out-neighbours (edges i → j) of i; on an undirected
 *  graph both ends of an edge are neighbours of each other. */
std::vector<int> neighboursAlong(const std::vector<Edge> &edges, bool directed, int i, Direction direction)
{
    const bool incoming = direction == Direction::In;
    std::vector<int> result;
    for (const Edge &e : edges) {
        const int near = incoming ? e.to : e.from;
        const int far = incoming ? e.from : e.to;
        if (near == i)
            result.push_back(far);
        else if (!directed && far == i)
            result.push_back(near);
    }
    std::sort(result.begin(), result.end());
    return result;
}

} // namespace

std::vector<int> Graph::inNeighbours(int i) const
{
    return neighboursAlong(mEdges, mDirected, i, Direction::In);
}

std::vector<int> Graph::outNeighbours(int i) const
{
    return neighboursAlong(mEdges, mDirected, i, Direction::Out);
}

int Graph::inDegree(int i) const
{
    return static_cast<int>(inNeighbours(i).size());
}

int Graph::outDegree(int i) const
{
    return static_cast<int>(outNeighbours(i).size());
}

Eigen::MatrixXd Graph::adjacency() const
{
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(mNodes, mNodes);
    for (const Edge &e : mEdges) {
        a(e.to, e.from) = 1.0;
        if (!mDirected)
            a(e.from, e.to) = 1.0;
    }
    return a;
}

void Graph::setPositions(std::vector<NodePosition> positions)
{
    assert((positions.empty() || static_cast<int>(positions.size()) == mNodes)
           && "Graph::setPositions: one position per node");
    mPositions = std::move(positions);
}

void Graph::setPosition(int i, NodePosition p)
{
    assert(i >= 0 && i < mNodes && "Graph::setPosition: index out of range");
    mPositions.resize(mNodes);
    mPositions[i] = p;
}

} // namespace dplab
