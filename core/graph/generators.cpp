// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/graph/generators.h"
#include "dplab/common/registry.h"

#include "dplab/common/formatnumber.h"
#include "dplab/graph/analysis.h"
#include "dplab/graph/weights.h"
#include "dplab/privacy/rng.h"

#include <cmath>
#include <functional>
#include <numbers>
#include <numeric>

namespace dplab {

namespace {

constexpr long long kMaxNodes = 1000;
/** Random generators that must be (strongly) connected redraw at most this many times. */
constexpr int kMaxDraws = 100;

using Builder = std::function<Result<Graph>(const Json &params, const std::string &path)>;

struct Generator {
    Descriptor descriptor;
    Builder build;
};

int nodes(const Json &params)
{
    return static_cast<int>(paramInt(params, "nodes"));
}

Rng graphRng(const Json &params)
{
    return Rng::stream(static_cast<std::uint64_t>(paramInt(params, "seed")), 0, 0, -1,
                       RngPurpose::Graph);
}

// --- Parameter specs ------------------------------------------------------------------------

ParamSpec nodesParam(long long def = 10, long long min = 1)
{
    return intParam("nodes", "Nodes", def, min, kMaxNodes, "Number of agents n.");
}

ParamSpec seedParam()
{
    return intParam("seed", "Seed", 1, 0, 1'000'000'000'000'000LL,
                    "Seed of the graph's random stream; the same seed gives the same graph.");
}

ParamSpec directedParam(bool def, std::string help)
{
    return boolParam("directed", "Directed", def, std::move(help));
}

std::vector<ParamSpec> gridParams()
{
    return {nodesParam(16),
            intParam("rows", "Rows", 0, 0, kMaxNodes,
                     "Rows of the grid; 0 = derived from nodes (and cols)."),
            intParam("cols", "Columns", 0, 0, kMaxNodes,
                     "Columns of the grid; 0 = derived from nodes (and rows).")};
}

// --- Edge set -------------------------------------------------------------------------------

// Edges under construction with O(1) membership (n×n flags), turned into a Graph at the end.
// Same contract as Graph::addEdge: self-loops, out-of-range nodes and duplicates are ignored.
class EdgeSet
{
public:
    EdgeSet(int n, bool directed)
        : mNodes(n), mDirected(directed), mFlags(static_cast<std::size_t>(n) * n, 0),
          mDegree(n, 0)
    {
    }

    bool has(int from, int to) const { return mFlags[index(from, to)] != 0; }
    int degree(int i) const { return mDegree[i]; }

    bool add(int from, int to)
    {
        if (from == to || from < 0 || to < 0 || from >= mNodes || to >= mNodes || has(from, to))
            return false;
        setFlag(from, to, 1);
        return true;
    }

    void remove(int from, int to)
    {
        if (has(from, to))
            setFlag(from, to, 0);
    }

    Graph toGraph() const
    {
        std::vector<Edge> edges;
        for (int i = 0; i < mNodes; ++i)
            for (int j = mDirected ? 0 : i + 1; j < mNodes; ++j)
                if (has(i, j))
                    edges.push_back({i, j});
        return Graph::fromEdges(mNodes, mDirected, std::move(edges));
    }

private:
    std::size_t index(int from, int to) const
    {
        return static_cast<std::size_t>(from) * mNodes + to;
    }

    void setFlag(int from, int to, char value)
    {
        const int delta = value ? 1 : -1;
        mFlags[index(from, to)] = value;
        mDegree[from] += delta;
        if (!mDirected) {
            mFlags[index(to, from)] = value;
            mDegree[to] += delta;
        }
    }

    int mNodes;
    bool mDirected;
    std::vector<char> mFlags;
    std::vector<int> mDegree; ///< out-degree (undirected: degree)
};

// --- Deterministic structures ---------------------------------------------------------------

Graph ring(int n, bool directed)
{
    EdgeSet edges(n, directed);
    for (int i = 0; i < n; ++i)
        edges.add(i, (i + 1) % n);
    return edges.toGraph();
}

Graph pathGraph(int n)
{
    EdgeSet edges(n, false);
    for (int i = 0; i + 1 < n; ++i)
        edges.add(i, i + 1);
    return edges.toGraph();
}

Graph star(int n)
{
    EdgeSet edges(n, false);
    for (int i = 1; i < n; ++i)
        edges.add(0, i);
    return edges.toGraph();
}

Graph complete(int n)
{
    EdgeSet edges(n, false);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            edges.add(i, j);
    return edges.toGraph();
}

// rows × cols from "nodes", "rows", "cols" (0 = derive); see the descriptor text.
Result<std::pair<int, int>> gridShape(const Json &params, const std::string &path)
{
    const int n = nodes(params);
    int rows = static_cast<int>(paramInt(params, "rows"));
    int cols = static_cast<int>(paramInt(params, "cols"));
    if (rows == 0 && cols == 0) {
        rows = static_cast<int>(std::sqrt(static_cast<double>(n)));
        while (n % rows != 0)
            --rows;
        return std::pair{rows, n / rows};
    }
    if (rows == 0 || cols == 0) {
        const int given = rows + cols;
        if (n % given != 0)
            return Error::invalid(joinPath(path, rows ? "rows" : "cols"),
                                  "must divide nodes (" + std::to_string(n) + "), got "
                                      + std::to_string(given));
        return rows ? std::pair{rows, n / rows} : std::pair{n / cols, cols};
    }
    if (rows * cols != n)
        return Error::invalid(joinPath(path, "nodes"),
                              "is " + std::to_string(n) + " but rows × cols = "
                                  + std::to_string(rows * cols)
                                  + "; set nodes to the product or leave rows/cols at 0");
    return std::pair{rows, cols};
}

// Grid edges right and down; `wrap` adds the torus wrap-around edges.
Result<Graph> grid(const Json &params, const std::string &path, bool wrap)
{
    auto shape = gridShape(params, path);
    if (!shape)
        return shape.error();
    const auto [rows, cols] = *shape;
    EdgeSet edges(rows * cols, false);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const int i = r * cols + c;
            if (c + 1 < cols || wrap)
                edges.add(i, r * cols + (c + 1) % cols);
            if (r + 1 < rows || wrap)
                edges.add(i, ((r + 1) % rows) * cols + c);
        }
    }
    return edges.toGraph();
}

// i -> i + 2^k (mod n) for every 2^k < n (BlueFog's ExponentialGraph with base 2).
Graph exponential(int n, bool directed)
{
    EdgeSet edges(n, directed);
    for (int i = 0; i < n; ++i)
        for (long long offset = 1; offset < n; offset *= 2)
            edges.add(i, static_cast<int>((i + offset) % n));
    return edges.toGraph();
}

// --- Random structures ----------------------------------------------------------------------

// Draws with `draw` until the graph is (strongly) connected; errors at `failPath`.
Result<Graph> drawConnected(const std::function<Graph()> &draw, const std::string &failPath,
                            const std::string &hint)
{
    for (int attempt = 0; attempt < kMaxDraws; ++attempt) {
        Graph g = draw();
        if (analyseConnectivity(g).connected)
            return g;
    }
    return Error::invalid(failPath, "no connected graph in " + std::to_string(kMaxDraws)
                                        + " draws; " + hint);
}

Graph erdosRenyiDraw(int n, double p, bool directed, Rng &rng)
{
    EdgeSet edges(n, directed);
    for (int i = 0; i < n; ++i)
        for (int j = directed ? 0 : i + 1; j < n; ++j)
            if (i != j && rng.uniform01() < p)
                edges.add(i, j);
    return edges.toGraph();
}

Result<Graph> erdosRenyi(const Json &params, const std::string &path)
{
    const int n = nodes(params);
    const double p = paramReal(params, "p");
    const bool directed = paramBool(params, "directed");
    const std::string hint = "increase p (connectivity needs p above about ln(n)/n = "
                             + formatNumber(std::log(std::max(n, 2)) / n, 4) + ")";
    if (n > 1 && p == 0.0)
        return Error::invalid(joinPath(path, "p"), "must be > 0 for a connected graph");
    Rng rng = graphRng(params);
    return drawConnected([&] { return erdosRenyiDraw(n, p, directed, rng); },
                         joinPath(path, "p"), hint);
}

// Ring lattice with k/2 neighbours per side; each lattice edge (i, i+j) is rewired with
// probability beta to (i, w), w uniform among the nodes not yet adjacent to i (networkx order).
Graph wattsStrogatzDraw(int n, int k, double beta, Rng &rng)
{
    EdgeSet edges(n, false);
    for (int i = 0; i < n; ++i)
        for (int j = 1; j <= k / 2; ++j)
            edges.add(i, (i + j) % n);
    for (int j = 1; j <= k / 2; ++j) {
        for (int i = 0; i < n; ++i) {
            if (!(rng.uniform01() < beta) || edges.degree(i) >= n - 1)
                continue;
            int w = static_cast<int>(rng.below(static_cast<std::uint64_t>(n)));
            while (w == i || edges.has(i, w))
                w = static_cast<int>(rng.below(static_cast<std::uint64_t>(n)));
            edges.remove(i, (i + j) % n);
            edges.add(i, w);
        }
    }
    return edges.toGraph();
}

Result<Graph> wattsStrogatz(const Json &params, const std::string &path)
{
    const int n = nodes(params);
    const int k = static_cast<int>(paramInt(params, "k"));
    if (k % 2 != 0)
        return Error::invalid(joinPath(path, "k"), "must be even, got " + std::to_string(k));
    if (k >= n)
        return Error::invalid(joinPath(path, "k"), "must be less than nodes ("
                                                       + std::to_string(n) + "), got "
                                                       + std::to_string(k));
    const double beta = paramReal(params, "beta");
    Rng rng = graphRng(params);
    return drawConnected([&] { return wattsStrogatzDraw(n, k, beta, rng); },
                         joinPath(path, "beta"), "decrease beta or increase k");
}

// A random Hamiltonian cycle (Fisher–Yates permutation) plus each other arc with probability p.
Result<Graph> randomStronglyConnected(const Json &params, const std::string &)
{
    const int n = nodes(params);
    const double p = paramReal(params, "p");
    Rng rng = graphRng(params);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (int i = n - 1; i > 0; --i)
        std::swap(order[i], order[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    EdgeSet edges(n, true);
    for (int i = 0; i < n; ++i)
        edges.add(order[i], order[(i + 1) % n]);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j && rng.uniform01() < p)
                edges.add(i, j);
    return edges.toGraph();
}

Result<Graph> ring4Family(const Json &params, const std::string &path)
{
    auto rd = ring4ParamsFromResolved(params, path);
    if (!rd)
        return rd.error();
    return ring(4, false);
}

// --- Registry -------------------------------------------------------------------------------

Generator entry(std::string id, std::string name, std::string explanation,
                std::vector<ParamSpec> params, Builder build, std::string reference = "")
{
    return {{std::move(id), std::move(name), std::move(reference), std::move(explanation),
             std::move(params)},
            std::move(build)};
}

std::vector<ParamSpec> ring4GeneratorParams()
{
    std::vector<ParamSpec> params{nodesParam(4, 4)};
    params.back().max = 4;
    params.back().help = "Fixed at 4 (the structure of eq. (37)).";
    for (ParamSpec &spec : ring4FamilyParamSpecs())
        params.push_back(std::move(spec));
    return params;
}

const std::vector<Generator> &generators()
{
    static const std::vector<Generator> list = {
        entry("ring", "Ring", "Undirected cycle 0-1-…-(n−1)-0.", {nodesParam()},
              [](const Json &p, const std::string &) -> Result<Graph> {
                  return ring(nodes(p), false);
              }),
        entry("directed-ring", "Directed ring", "Uni-directional cycle i -> i+1 (mod n).",
              {nodesParam()},
              [](const Json &p, const std::string &) -> Result<Graph> {
                  return ring(nodes(p), true);
              }),
        entry("path", "Path", "Undirected path 0-1-…-(n−1).", {nodesParam()},
              [](const Json &p, const std::string &) -> Result<Graph> {
                  return pathGraph(nodes(p));
              }),
        entry("star", "Star", "Node 0 joined to every other node (undirected).", {nodesParam()},
              [](const Json &p, const std::string &) -> Result<Graph> { return star(nodes(p)); }),
        entry("complete", "Complete", "Every pair of nodes joined (undirected).",
              {nodesParam(6)},
              [](const Json &p, const std::string &) -> Result<Graph> {
                  return complete(nodes(p));
              }),
        entry("grid", "2-D grid",
              "rows × cols lattice, node r·cols + c. n = rows × cols: with rows = cols = 0 the "
              "shape is the most square factorisation of nodes (a prime n gives a 1 × n path); "
              "with one of them 0 the other is nodes divided by it; with both given, nodes must "
              "equal their product.",
              gridParams(),
              [](const Json &p, const std::string &path) { return grid(p, path, false); }),
        entry("torus", "2-D torus",
              "The 2-D grid with wrap-around edges (rows and cols as for \"grid\"); "
              "each node has 4 neighbours when rows, cols ≥ 3.",
              gridParams(),
              [](const Json &p, const std::string &path) { return grid(p, path, true); }),
        entry("erdos-renyi", "Erdős–Rényi",
              "Each pair (directed: each ordered pair) is an edge with probability p; redrawn "
              "from the same stream until connected (directed: strongly connected), at most "
              "100 times.",
              {nodesParam(),
               realParam("p", "Edge probability", 0.3, 0.0, 1.0, "Probability of each edge."),
               directedParam(false, "Draw arcs independently and require strong connectivity."),
               seedParam()},
              erdosRenyi),
        entry("watts-strogatz", "Watts–Strogatz",
              "Ring lattice with k/2 neighbours on each side; every lattice edge is rewired to "
              "a random new endpoint with probability beta. Redrawn until connected.",
              {nodesParam(), intParam("k", "Neighbours k", 4, 2, kMaxNodes - 1,
                                      "Lattice degree (even, less than nodes)."),
               realParam("beta", "Rewiring β", 0.2, 0.0, 1.0, "Rewiring probability."),
               seedParam()},
              wattsStrogatz),
        entry("exponential", "Exponential",
              "Node i sends to i + 2^k (mod n) for every 2^k < n (BlueFog's exponential graph; "
              "each node has ⌈log₂ n⌉ out-neighbours). Undirected variant: the same pairs.",
              {nodesParam(8),
               directedParam(true, "Directed arcs i -> i + 2^k; off: undirected edges.")},
              [](const Json &p, const std::string &) -> Result<Graph> {
                  return exponential(nodes(p), paramBool(p, "directed"));
              }),
        entry("random-strongly-connected", "Random strongly connected",
              "A random Hamiltonian cycle (so strongly connected) plus each other arc with "
              "probability p.",
              {nodesParam(),
               realParam("p", "Extra arc probability", 0.1, 0.0, 1.0,
                         "Probability of each arc not on the cycle."),
               seedParam()},
              randomStronglyConnected),
        entry("ring4-family", "Paper 003 ring W(r, d)",
              "The undirected 4-ring of paper 003 eq. (37). Its parameters are the targets "
              "ρ(W_o), ρ_w (or r, d); use the \"ring4-family\" weight scheme with the same "
              "parameters to get W(r, d).",
              ring4GeneratorParams(), ring4Family, "paper 003 eq. (37)"),
    };
    return list;
}

const Generator *findEntry(const std::string &id)
{
    for (const auto &g : generators())
        if (g.descriptor.id == id)
            return &g;
    return nullptr;
}

} // namespace

const std::vector<Descriptor> &generatorDescriptors()
{
    static const std::vector<Descriptor> descriptors = descriptorsOf(generators());
    return descriptors;
}

const Descriptor *findGenerator(const std::string &id)
{
    return findById(generatorDescriptors(), id);
}

Result<Graph> generateGraph(const Json &spec, const std::string &path)
{
    if (!spec.is_object())
        return Error::invalid(path, "must be an object with a \"type\"");
    const std::string typePath = joinPath(path, "type");
    if (!spec.contains("type") || !spec["type"].is_string())
        return Error::invalid(typePath, "is required (a string)");
    const std::string id = spec["type"].get<std::string>();
    const Generator *generator = findEntry(id);
    if (!generator) {
        std::string known;
        for (const auto &g : generators())
            known += (known.empty() ? "" : ", ") + g.descriptor.id;
        return Error::notFound(typePath,
                               "unknown generator \"" + id + "\" (expected one of: " + known + ")");
    }
    Json given = spec;
    given.erase("type");
    auto params = resolveParams(generator->descriptor.params, given, path);
    if (!params)
        return params.error();
    auto graph = generator->build(*params, path);
    if (graph)
        graph->setPositions(circularLayout(graph->nodeCount()));
    return graph;
}

std::vector<NodePosition> circularLayout(int n)
{
    std::vector<NodePosition> positions(static_cast<std::size_t>(std::max(n, 0)));
    for (int i = 0; i < n; ++i) {
        const double angle = std::numbers::pi / 2.0 + 2.0 * std::numbers::pi * i / n;
        positions[i] = {std::cos(angle), std::sin(angle)};
    }
    return positions;
}

} // namespace dplab
