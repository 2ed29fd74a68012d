// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphdocument.h"

#include "addedgecommand.h"
#include "addnodecommand.h"
#include "movenodescommand.h"
#include "replacegraphcommand.h"

#include "dplab/graph/generators.h"

#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

bool samePositions(const std::vector<NodePosition> &a, const std::vector<NodePosition> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i].x - b[i].x) > 1e-9 || std::abs(a[i].y - b[i].y) > 1e-9)
            return false;
    return true;
}

// The positions the generator itself gives (what "not moved" means when saving).
std::vector<NodePosition> generatedPositions(const Json &generator)
{
    if (generator.is_null())
        return {};
    auto g = generateGraph(generator, "graph.generator");
    if (!g)
        return {};
    return g->hasPositions() ? g->positions() : circularLayout(g->nodeCount());
}

} // namespace

GraphDocument::GraphDocument(QUndoStack *undoStack, QObject *parent)
    : QObject(parent)
    , mUndoStack(undoStack)
{
}

void GraphDocument::load(Graph graph, Json generator)
{
    if (!graph.hasPositions() && graph.nodeCount() > 0)
        graph.setPositions(circularLayout(graph.nodeCount()));
    mGraph = std::move(graph);
    mGenerator = std::move(generator);
    mGeneratedPositions = generatedPositions(mGenerator);
    emit graphReset();
    emit changed();
}

Json GraphDocument::toJson() const
{
    Json positions = Json::array();
    for (const NodePosition &p : mGraph.positions())
        positions.push_back({p.x, p.y});
    if (!mGenerator.is_null()) {
        Json g{{"generator", mGenerator}};
        if (mGraph.hasPositions() && !samePositions(mGraph.positions(), mGeneratedPositions))
            g["positions"] = positions;
        return g;
    }
    Json edges = Json::array();
    for (const Edge &e : mGraph.edges())
        edges.push_back({e.from, e.to});
    Json g{{"directed", mGraph.isDirected()}, {"nodes", mGraph.nodeCount()}, {"edges", edges}};
    if (mGraph.hasPositions())
        g["positions"] = positions;
    return g;
}

void GraphDocument::addNode(NodePosition position)
{
    mUndoStack->push(new AddNodeCommand(this, position));
}

bool GraphDocument::addEdge(int from, int to)
{
    if (from == to || from < 0 || to < 0 || from >= mGraph.nodeCount() || to >= mGraph.nodeCount()
        || mGraph.hasEdge(from, to))
        return false;
    mUndoStack->push(new AddEdgeCommand(this, Edge{from, to}));
    return true;
}

void GraphDocument::moveNodes(const QVector<int> &nodes, const QVector<NodePosition> &from,
                              const QVector<NodePosition> &to)
{
    if (nodes.isEmpty() || from == to)
        return;
    mUndoStack->push(new MoveNodesCommand(this, nodes, from, to));
}

void GraphDocument::deleteElements(const QVector<int> &nodes, const QVector<Edge> &edges)
{
    if (nodes.isEmpty() && edges.isEmpty())
        return;
    Graph g = mGraph;
    for (const Edge &e : edges)
        g.removeEdge(e.from, e.to);
    QVector<int> sorted = nodes;
    std::sort(sorted.begin(), sorted.end(), std::greater<int>());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (int node : sorted)
        if (node >= 0 && node < g.nodeCount())
            g.removeNode(node);
    const QString text = nodes.isEmpty() ? tr("Delete %n edge(s)", nullptr, int(edges.size()))
                                         : tr("Delete %n node(s)", nullptr, int(sorted.size()));
    mUndoStack->push(new ReplaceGraphCommand(this, g, Json(), text));
}

void GraphDocument::replaceGraph(const Graph &graph, const Json &generator, const QString &text)
{
    Graph g = graph;
    if (!g.hasPositions() && g.nodeCount() > 0)
        g.setPositions(circularLayout(g.nodeCount()));
    mUndoStack->push(new ReplaceGraphCommand(this, g, generator, text));
}

void GraphDocument::setDirected(bool directed)
{
    if (directed == mGraph.isDirected())
        return;
    Graph g(mGraph.nodeCount(), directed);
    for (const Edge &e : mGraph.edges()) {
        g.addEdge(e.from, e.to);
        if (directed)
            g.addEdge(e.to, e.from);
    }
    if (mGraph.hasPositions())
        g.setPositions(mGraph.positions());
    mUndoStack->push(new ReplaceGraphCommand(this, g, Json(),
                                             directed ? tr("Make graph directed") : tr("Make graph undirected")));
}

void GraphDocument::setLayout(const std::vector<NodePosition> &positions, const QString &text)
{
    if (static_cast<int>(positions.size()) != mGraph.nodeCount() || mGraph.nodeCount() == 0)
        return;
    QVector<int> nodes;
    QVector<NodePosition> from, to;
    for (int i = 0; i < mGraph.nodeCount(); ++i) {
        nodes.push_back(i);
        from.push_back(mGraph.hasPositions() ? mGraph.positions()[i] : NodePosition{});
        to.push_back(positions[i]);
    }
    if (from == to)
        return;
    auto *command = new MoveNodesCommand(this, nodes, from, to);
    command->setText(text);
    mUndoStack->push(command);
}

int GraphDocument::appendNode(NodePosition position)
{
    if (!mGraph.hasPositions() && mGraph.nodeCount() > 0)
        mGraph.setPositions(circularLayout(mGraph.nodeCount()));
    const int node = mGraph.addNode(position);
    emit nodeAdded(node);
    emit changed();
    return node;
}

void GraphDocument::removeLastNode()
{
    if (mGraph.nodeCount() == 0)
        return;
    const int node = mGraph.nodeCount() - 1;
    // Edges go first so listeners never see an edge with a missing end.
    std::vector<Edge> incident;
    for (const Edge &e : mGraph.edges())
        if (e.from == node || e.to == node)
            incident.push_back(e);
    for (const Edge &e : incident) {
        mGraph.removeEdge(e.from, e.to);
        emit edgeRemoved(e);
    }
    mGraph.removeNode(node);
    emit nodeRemoved(node);
    emit changed();
}

bool GraphDocument::insertEdge(const Edge &edge)
{
    if (!mGraph.addEdge(edge.from, edge.to))
        return false;
    emit edgeAdded(edge);
    emit changed();
    return true;
}

bool GraphDocument::eraseEdge(const Edge &edge)
{
    if (!mGraph.removeEdge(edge.from, edge.to))
        return false;
    emit edgeRemoved(edge);
    emit changed();
    return true;
}

void GraphDocument::setNodePositions(const QVector<int> &nodes, const QVector<NodePosition> &positions)
{
    Q_ASSERT(nodes.size() == positions.size());
    if (!mGraph.hasPositions() && mGraph.nodeCount() > 0)
        mGraph.setPositions(circularLayout(mGraph.nodeCount()));
    for (int k = 0; k < nodes.size(); ++k)
        if (nodes[k] >= 0 && nodes[k] < mGraph.nodeCount())
            mGraph.setPosition(nodes[k], positions[k]);
    emit nodesMoved(nodes);
    emit changed();
}

void GraphDocument::resetGraph(const Graph &graph, const Json &generator)
{
    mGraph = graph;
    if (generator != mGenerator)
        mGeneratedPositions = generatedPositions(generator);
    mGenerator = generator;
    emit graphReset();
    emit changed();
}

void GraphDocument::setGenerator(const Json &generator)
{
    mGenerator = generator;
}

} // namespace dplab
