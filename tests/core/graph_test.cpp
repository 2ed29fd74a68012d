// SPDX-License-Identifier: GPL-3.0-or-later
// Graph generators and connectivity.
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"

#include "../common/generatedgraph.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace dplab {
namespace {

using test::generate;

Error generateError(const Json &spec)
{
    auto g = generateGraph(spec, "graph.generator");
    EXPECT_FALSE(g.ok()) << "expected an error for " << spec.dump();
    return g.ok() ? Error{} : g.error();
}

struct CountCase {
    Json spec;
    int nodes;
    std::size_t edges;
    bool directed;
};

// Edge counts from the structure: ring n, path n−1, star n−1, K_n n(n−1)/2,
// grid rows(cols−1)+cols(rows−1), torus (rows, cols ≥ 3) 2n, exponential directed n⌈log₂n⌉.
TEST(Generators, NodeAndEdgeCounts)
{
    const std::vector<CountCase> cases = {
        {{{"type", "ring"}, {"nodes", 7}}, 7, 7, false},
        {{{"type", "ring"}, {"nodes", 2}}, 2, 1, false},
        {{{"type", "ring"}, {"nodes", 1}}, 1, 0, false},
        {{{"type", "directed-ring"}, {"nodes", 7}}, 7, 7, true},
        {{{"type", "directed-ring"}, {"nodes", 2}}, 2, 2, true},
        {{{"type", "path"}, {"nodes", 7}}, 7, 6, false},
        {{{"type", "star"}, {"nodes", 7}}, 7, 6, false},
        {{{"type", "complete"}, {"nodes", 6}}, 6, 15, false},
        {{{"type", "grid"}, {"nodes", 12}, {"rows", 3}, {"cols", 4}}, 12, 3 * 3 + 4 * 2, false},
        {{{"type", "grid"}, {"nodes", 12}}, 12, 3 * 3 + 4 * 2, false},   // auto 3 × 4
        {{{"type", "grid"}, {"nodes", 12}, {"cols", 6}}, 12, 2 * 5 + 6 * 1, false},
        {{{"type", "grid"}, {"nodes", 7}}, 7, 6, false},                 // prime: 1 × 7
        {{{"type", "torus"}, {"nodes", 12}, {"rows", 3}}, 12, 24, false},
        {{{"type", "torus"}, {"nodes", 16}}, 16, 32, false},
        {{{"type", "watts-strogatz"}, {"nodes", 12}, {"k", 4}, {"beta", 0.3}}, 12, 24, false},
        {{{"type", "watts-strogatz"}, {"nodes", 9}, {"k", 2}, {"beta", 0.0}}, 9, 9, false},
        {{{"type", "exponential"}, {"nodes", 8}}, 8, 8 * 3, true},
        {{{"type", "exponential"}, {"nodes", 5}}, 5, 5 * 3, true},
        {{{"type", "random-strongly-connected"}, {"nodes", 10}, {"p", 0.0}}, 10, 10, true},
        {{{"type", "ring4-family"}}, 4, 4, false},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.spec.dump());
        Graph g = generate(c.spec);
        EXPECT_EQ(g.nodeCount(), c.nodes);
        EXPECT_EQ(g.edgeCount(), c.edges);
        EXPECT_EQ(g.isDirected(), c.directed);
        EXPECT_TRUE(analyseConnectivity(g).connected);
    }
}

TEST(Generators, ExponentialUndirectedHasTheSymmetrisedPairs)
{
    for (int n : {2, 5, 8, 12}) {
        Graph g = generate({{"type", "exponential"}, {"nodes", n}, {"directed", false}});
        std::set<std::pair<int, int>> pairs;
        for (int i = 0; i < n; ++i)
            for (int offset = 1; offset < n; offset *= 2) {
                const int j = (i + offset) % n;
                pairs.insert({std::min(i, j), std::max(i, j)});
            }
        EXPECT_FALSE(g.isDirected());
        EXPECT_EQ(g.edgeCount(), pairs.size()) << "n = " << n;
        for (auto [i, j] : pairs)
            EXPECT_TRUE(g.hasEdge(i, j));
    }
}

TEST(Generators, StructuresHaveTheRightEdges)
{
    Graph dring = generate({{"type", "directed-ring"}, {"nodes", 5}});
    for (int i = 0; i < 5; ++i) {
        EXPECT_TRUE(dring.hasEdge(i, (i + 1) % 5));
        EXPECT_FALSE(dring.hasEdge((i + 1) % 5, i));
    }
    Graph star = generate({{"type", "star"}, {"nodes", 5}});
    EXPECT_EQ(star.outDegree(0), 4);
    Graph torus = generate({{"type", "torus"}, {"nodes", 12}, {"rows", 3}});
    for (int i = 0; i < 12; ++i)
        EXPECT_EQ(torus.outDegree(i), 4);
    Graph ws = generate({{"type", "watts-strogatz"}, {"nodes", 10}, {"k", 4}, {"beta", 0.0}});
    for (int i = 0; i < 10; ++i) // β = 0: the ring lattice itself
        EXPECT_TRUE(ws.hasEdge(i, (i + 1) % 10) && ws.hasEdge(i, (i + 2) % 10));
}

TEST(Generators, RandomGraphsAreConnectedForManySeeds)
{
    for (int seed = 0; seed < 20; ++seed) {
        SCOPED_TRACE(seed);
        Graph er = generate({{"type", "erdos-renyi"}, {"nodes", 15}, {"p", 0.2}, {"seed", seed}});
        EXPECT_FALSE(er.isDirected());
        EXPECT_TRUE(analyseConnectivity(er).connected);
        Graph der = generate({{"type", "erdos-renyi"}, {"nodes", 15}, {"p", 0.2},
                              {"directed", true}, {"seed", seed}});
        EXPECT_TRUE(der.isDirected());
        EXPECT_TRUE(analyseConnectivity(der).connected);
        Graph ws = generate({{"type", "watts-strogatz"}, {"nodes", 15}, {"k", 2}, {"beta", 0.5},
                             {"seed", seed}});
        EXPECT_EQ(ws.edgeCount(), 15u);
        EXPECT_TRUE(analyseConnectivity(ws).connected);
        Graph rsc = generate({{"type", "random-strongly-connected"}, {"nodes", 15}, {"p", 0.1},
                              {"seed", seed}});
        EXPECT_GE(rsc.edgeCount(), 15u);
        EXPECT_TRUE(analyseConnectivity(rsc).connected);
    }
}

TEST(Generators, SameSeedSameGraphOtherSeedOtherGraph)
{
    for (const char *type : {"erdos-renyi", "watts-strogatz", "random-strongly-connected"}) {
        SCOPED_TRACE(type);
        const Json a{{"type", type}, {"nodes", 12}, {"seed", 5}};
        const Json b{{"type", type}, {"nodes", 12}, {"seed", 6}};
        EXPECT_EQ(generate(a), generate(a));
        EXPECT_NE(generate(a), generate(b));
    }
}

TEST(Generators, EveryDescriptorGeneratesAConnectedGraphFromDefaults)
{
    ASSERT_GE(generatorDescriptors().size(), 12u);
    for (const Descriptor &d : generatorDescriptors()) {
        SCOPED_TRACE(d.id);
        EXPECT_EQ(findGenerator(d.id), &d);
        EXPECT_FALSE(d.name.empty());
        EXPECT_FALSE(d.explanation.empty());
        bool hasNodes = false;
        for (const ParamSpec &p : d.params) {
            hasNodes = hasNodes || p.key == "nodes";
            EXPECT_FALSE(p.help.empty()) << p.key;
        }
        EXPECT_TRUE(hasNodes);
        Graph g = generate({{"type", d.id}});
        EXPECT_GT(g.nodeCount(), 0);
        EXPECT_TRUE(analyseConnectivity(g).connected);
    }
    EXPECT_EQ(findGenerator("no-such-generator"), nullptr);
}

TEST(Generators, RandomGeneratorsHaveASeed)
{
    for (const char *id : {"erdos-renyi", "watts-strogatz", "random-strongly-connected"}) {
        const Descriptor *d = findGenerator(id);
        ASSERT_NE(d, nullptr) << id;
        bool hasSeed = false;
        for (const ParamSpec &p : d->params)
            hasSeed = hasSeed || p.key == "seed";
        EXPECT_TRUE(hasSeed) << id;
    }
}

TEST(Generators, LargeGraphsAtTheNodeLimit)
{
    // Guards against quadratic edge insertion: 499 500 edges must stay cheap.
    Graph k = generate({{"type", "complete"}, {"nodes", 1000}});
    EXPECT_EQ(k.edgeCount(), 1000u * 999u / 2u);
    Graph er = generate({{"type", "erdos-renyi"}, {"nodes", 1000}, {"p", 0.02},
                         {"directed", true}});
    EXPECT_TRUE(analyseConnectivity(er).connected);
    Graph ws = generate({{"type", "watts-strogatz"}, {"nodes", 1000}, {"k", 6}, {"beta", 0.5}});
    EXPECT_EQ(ws.edgeCount(), 3000u);
}

TEST(Generators, CircularPositions)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 6}});
    ASSERT_EQ(g.positions().size(), 6u);
    EXPECT_NEAR(g.positions()[0].x, 0.0, 1e-15);
    EXPECT_NEAR(g.positions()[0].y, 1.0, 1e-15);
    // Counter-clockwise: node 1 is 60° further, to the left of the top.
    EXPECT_NEAR(g.positions()[1].x, -std::sqrt(3.0) / 2.0, 1e-15);
    for (const NodePosition &p : g.positions())
        EXPECT_NEAR(p.x * p.x + p.y * p.y, 1.0, 1e-14);
    EXPECT_TRUE(circularLayout(0).empty());
}

TEST(Generators, ErrorsNameThePath)
{
    EXPECT_EQ(generateError({{"type", "ring"}, {"nodez", 4}}).where, "graph.generator.nodez");
    EXPECT_EQ(generateError({{"type", "ringg"}}).where, "graph.generator.type");
    EXPECT_EQ(generateError({{"nodes", 4}}).where, "graph.generator.type");
    EXPECT_EQ(generateError(Json::array()).where, "graph.generator");
    EXPECT_EQ(generateError({{"type", "ring"}, {"nodes", 0}}).where, "graph.generator.nodes");
    EXPECT_EQ(generateError({{"type", "erdos-renyi"}, {"p", 1.5}}).where, "graph.generator.p");
    EXPECT_EQ(generateError({{"type", "grid"}, {"nodes", 12}, {"rows", 3}, {"cols", 5}}).where,
              "graph.generator.nodes");
    EXPECT_EQ(generateError({{"type", "grid"}, {"nodes", 12}, {"rows", 5}}).where,
              "graph.generator.rows");
    EXPECT_EQ(generateError({{"type", "watts-strogatz"}, {"k", 3}}).where, "graph.generator.k");
    EXPECT_EQ(generateError({{"type", "watts-strogatz"}, {"nodes", 4}, {"k", 4}}).where,
              "graph.generator.k");
    EXPECT_EQ(generateError({{"type", "ring4-family"}, {"rho_wo", 0.3}, {"rho_w", 0.6}}).where,
              "graph.generator.rho_w");
    EXPECT_EQ(generateError({{"type", "ring4-family"}, {"nodes", 5}}).where,
              "graph.generator.nodes");
}

TEST(Generators, SparseErdosRenyiGivesUpWithAClearError)
{
    Error e = generateError({{"type", "erdos-renyi"}, {"nodes", 40}, {"p", 0.005}});
    EXPECT_EQ(e.where, "graph.generator.p");
    EXPECT_NE(e.message.find("no connected graph"), std::string::npos) << e.message;
    EXPECT_EQ(generateError({{"type", "erdos-renyi"}, {"nodes", 3}, {"p", 0.0}}).where,
              "graph.generator.p");
}

TEST(Connectivity, UndirectedFailureListsTheUnreachedNodes)
{
    Graph g(5, false);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    g.addEdge(3, 4);
    Connectivity c = analyseConnectivity(g);
    EXPECT_FALSE(c.connected);
    EXPECT_EQ(c.offending, (std::vector<int>{3, 4}));
    EXPECT_EQ(c.message, "nodes 3, 4 cannot be reached from node 0");
}

TEST(Connectivity, DirectedNeedsStrongConnectivity)
{
    Graph g(4, true);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    g.addEdge(2, 0);
    g.addEdge(0, 3); // 3 is reached but never sends back
    Connectivity c = analyseConnectivity(g);
    EXPECT_FALSE(c.connected);
    EXPECT_EQ(c.offending, (std::vector<int>{3}));
    EXPECT_EQ(c.message, "node 3 cannot reach node 0");

    g.addEdge(3, 1);
    EXPECT_TRUE(analyseConnectivity(g).connected);
    EXPECT_TRUE(analyseConnectivity(g).offending.empty());

    Graph sink(3, true); // 1 -> 0 only: 1 and 2 cannot be reached from 0
    sink.addEdge(1, 0);
    EXPECT_EQ(analyseConnectivity(sink).offending, (std::vector<int>{1, 2}));
}

TEST(Connectivity, DirectedFailureFlagsEveryCause)
{
    // 3 cannot be reached from 0 and 2 cannot reach 0: both are flagged and both causes named
    // (only 3 was, before).
    const Graph g = Graph::fromEdges(4, true, {{0, 1}, {1, 0}, {0, 2}, {3, 0}});
    const Connectivity c = analyseConnectivity(g);
    EXPECT_FALSE(c.connected);
    EXPECT_EQ(c.offending, (std::vector<int>{2, 3}));
    EXPECT_EQ(c.message, "node 3 cannot be reached from node 0; node 2 cannot reach node 0");
}

TEST(Connectivity, TrivialGraphsAreConnected)
{
    EXPECT_TRUE(analyseConnectivity(Graph(1, false)).connected);
    EXPECT_TRUE(analyseConnectivity(Graph(1, true)).connected);
    EXPECT_TRUE(analyseConnectivity(Graph(0, true)).connected);
    EXPECT_FALSE(analyseConnectivity(Graph(2, false)).connected);
}

} // namespace
} // namespace dplab
