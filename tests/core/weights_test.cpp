// SPDX-License-Identifier: GPL-3.0-or-later
// Weight schemes, their validation and paper 003's ring W(r, d).
#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"

#include "../common/generatedgraph.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dplab {
namespace {

constexpr double kTol = 1e-12;
const std::string kPath = "graph.weights";

using test::generate;

Eigen::MatrixXd build(const Graph &g, const Json &spec, WeightRole role)
{
    auto w = buildWeights(g, spec, role, kPath);
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().toString());
    return w.ok() ? *w : Eigen::MatrixXd();
}

Error buildError(const Graph &g, const Json &spec, WeightRole role)
{
    auto w = buildWeights(g, spec, role, kPath);
    EXPECT_FALSE(w.ok()) << "expected an error for " << spec.dump();
    return w.ok() ? Error{} : w.error();
}

std::vector<Graph> undirectedGraphs()
{
    return {generate({{"type", "ring"}, {"nodes", 6}}),
            generate({{"type", "star"}, {"nodes", 6}}),
            generate({{"type", "grid"}, {"nodes", 9}}),
            generate({{"type", "complete"}, {"nodes", 5}}),
            generate({{"type", "path"}, {"nodes", 5}}),
            generate({{"type", "erdos-renyi"}, {"nodes", 10}, {"p", 0.3}, {"seed", 3}}),
            generate({{"type", "watts-strogatz"}, {"nodes", 10}, {"k", 4}, {"seed", 3}}),
            generate({{"type", "exponential"}, {"nodes", 8}, {"directed", false}}),
            generate({{"type", "ring"}, {"nodes", 1}})};
}

std::vector<Graph> directedGraphs()
{
    return {generate({{"type", "directed-ring"}, {"nodes", 5}}),
            generate({{"type", "exponential"}, {"nodes", 8}}),
            generate({{"type", "random-strongly-connected"}, {"nodes", 8}, {"seed", 4}}),
            generate({{"type", "erdos-renyi"}, {"nodes", 8}, {"p", 0.3}, {"directed", true}})};
}

void expectRowStochastic(const Eigen::MatrixXd &w)
{
    EXPECT_LT((w.rowwise().sum().array() - 1.0).abs().maxCoeff(), kTol);
}

void expectColumnStochastic(const Eigen::MatrixXd &w)
{
    EXPECT_LT((w.colwise().sum().array() - 1.0).abs().maxCoeff(), kTol);
}

void expectSupportInside(const Graph &g, const Eigen::MatrixXd &w)
{
    EXPECT_GE(w.minCoeff(), 0.0);
    const Eigen::MatrixXd a = g.adjacency();
    for (int i = 0; i < g.nodeCount(); ++i)
        for (int j = 0; j < g.nodeCount(); ++j)
            if (i != j && w(i, j) != 0.0)
                EXPECT_EQ(a(i, j), 1.0) << "(" << i << ", " << j << ")";
}

TEST(Weights, SymmetricSchemesOnUndirectedGraphs)
{
    for (const Graph &g : undirectedGraphs()) {
        for (const char *scheme : {"metropolis", "lazy-metropolis", "max-degree"}) {
            SCOPED_TRACE(std::string(scheme) + " on n = " + std::to_string(g.nodeCount()));
            Eigen::MatrixXd w = build(g, {{"scheme", scheme}}, WeightRole::Doubly);
            ASSERT_EQ(w.rows(), g.nodeCount());
            expectRowStochastic(w);
            expectColumnStochastic(w);
            EXPECT_LT((w - w.transpose()).cwiseAbs().maxCoeff(), kTol);
            expectSupportInside(g, w);
            // Every node keeps a positive self-weight (paper 003 Assumption 4: w_ii > 0).
            EXPECT_GT(w.diagonal().minCoeff(), 0.0);
            if (std::string(scheme) == "lazy-metropolis")
                EXPECT_TRUE(checkPsd(w).ok());
        }
    }
}

TEST(Weights, UniformSchemesOnEveryGraph)
{
    std::vector<Graph> graphs = undirectedGraphs();
    for (const Graph &g : directedGraphs())
        graphs.push_back(g);
    for (const Graph &g : graphs) {
        SCOPED_TRACE(std::to_string(g.nodeCount()) + (g.isDirected() ? " directed" : ""));
        Eigen::MatrixXd r = build(g, {{"scheme", "uniform-row"}}, WeightRole::Row);
        Eigen::MatrixXd c = build(g, {{"scheme", "uniform-column"}}, WeightRole::Column);
        expectRowStochastic(r);
        expectColumnStochastic(c);
        expectSupportInside(g, r);
        expectSupportInside(g, c);
        // R(i, j) = 1/(1 + d_in(i)) on in-neighbours; C(i, j) = 1/(1 + d_out(j)).
        for (const Edge &e : g.edges()) {
            EXPECT_DOUBLE_EQ(r(e.to, e.from), 1.0 / (1 + g.inDegree(e.to)));
            EXPECT_DOUBLE_EQ(c(e.to, e.from), 1.0 / (1 + g.outDegree(e.from)));
        }
        // "uniform" follows the role.
        EXPECT_EQ(build(g, {{"scheme", "uniform"}}, WeightRole::Row), r);
        EXPECT_EQ(build(g, {{"scheme", "uniform"}}, WeightRole::Column), c);
    }
}

TEST(Weights, UndirectedSchemesRejectDirectedGraphs)
{
    Graph g = generate({{"type", "directed-ring"}, {"nodes", 4}});
    for (const char *scheme : {"metropolis", "lazy-metropolis", "max-degree", "ring4-family"}) {
        Error e = buildError(g, {{"scheme", scheme}}, WeightRole::Doubly);
        EXPECT_EQ(e.where, "graph.weights.scheme") << scheme;
    }
}

TEST(Weights, MetropolisOnAStarByHand)
{
    // Centre 0 has degree 5, the leaves degree 1: w_0j = 1/(1 + 5), w_jj = 1 − 1/6,
    // w_00 = 1 − 5/6.
    Graph g = generate({{"type", "star"}, {"nodes", 6}});
    Eigen::MatrixXd w = build(g, {{"scheme", "metropolis"}}, WeightRole::Doubly);
    EXPECT_NEAR(w(0, 0), 1.0 / 6.0, kTol);
    for (int j = 1; j < 6; ++j) {
        EXPECT_NEAR(w(0, j), 1.0 / 6.0, kTol);
        EXPECT_NEAR(w(j, j), 5.0 / 6.0, kTol);
    }
    // Max-degree gives the same here (d_max = 5), lazy halves the off-diagonal.
    EXPECT_LT((build(g, {{"scheme", "max-degree"}}, WeightRole::Doubly) - w).norm(), kTol);
    Eigen::MatrixXd lazy = build(g, {{"scheme", "lazy-metropolis"}}, WeightRole::Doubly);
    EXPECT_NEAR(lazy(0, 1), 1.0 / 12.0, kTol);
    EXPECT_NEAR(lazy(1, 1), 11.0 / 12.0, kTol);
}

TEST(Weights, MaxDegreeOnACompleteGraphIsTheAverage)
{
    for (int n : {2, 3, 5, 8}) {
        Graph g = generate({{"type", "complete"}, {"nodes", n}});
        Eigen::MatrixXd w = build(g, {{"scheme", "max-degree"}}, WeightRole::Doubly);
        const Eigen::MatrixXd j = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
        EXPECT_LT((w - j).cwiseAbs().maxCoeff(), kTol) << n;
        EXPECT_NEAR(secondSingularValue(w), 0.0, 1e-12) << n;
    }
}

TEST(Weights, SingleNode)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 1}});
    for (const char *scheme : {"metropolis", "lazy-metropolis", "max-degree", "uniform"}) {
        Eigen::MatrixXd w = build(g, {{"scheme", scheme}}, WeightRole::Doubly);
        ASSERT_EQ(w.rows(), 1);
        EXPECT_DOUBLE_EQ(w(0, 0), 1.0);
    }
    const Json one = {{"scheme", "matrix"}, {"matrix", {{1.0}}}};
    EXPECT_DOUBLE_EQ(build(g, one, WeightRole::Doubly)(0, 0), 1.0);
}

// --- Explicit matrices and validation ----------------------------------------------------------

Json ring4Metropolis()
{
    const double t = 1.0 / 3.0;
    return {{t, t, 0, t}, {t, t, t, 0}, {0, t, t, t}, {t, 0, t, t}};
}

TEST(Weights, ExplicitMatrixIsTakenAsGiven)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    Eigen::MatrixXd w = build(g, {{"scheme", "matrix"}, {"matrix", ring4Metropolis()}},
                              WeightRole::Doubly);
    EXPECT_LT((w - build(g, {{"scheme", "metropolis"}}, WeightRole::Doubly)).norm(), kTol);
    // The same matrix given as a JSON string (e.g. from a text field).
    Eigen::MatrixXd fromText = build(
        g, {{"scheme", "matrix"}, {"matrix", ring4Metropolis().dump()}}, WeightRole::Doubly);
    EXPECT_EQ(fromText, w);
}

TEST(Weights, RowSumErrorNamesTheRow)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    Json m = ring4Metropolis();
    m[2][2] = 1.0 / 3.0 - 0.1; // row 2 sums to 0.9 (and column 2 too)
    Error e = buildError(g, {{"scheme", "matrix"}, {"matrix", m}}, WeightRole::Doubly);
    EXPECT_EQ(e.where, "graph.weights.matrix");
    EXPECT_EQ(e.message, "row 2 sums to 0.9, not 1");
    Error col = buildError(g, {{"scheme", "matrix"}, {"matrix", m}}, WeightRole::Column);
    EXPECT_EQ(col.message, "column 2 sums to 0.9, not 1");
    const Json spec = {{"scheme", "matrix"}, {"matrix", m}};
    EXPECT_TRUE(buildWeights(g, spec, WeightRole::Any, kPath).ok());
}

TEST(Weights, RoleDecidesWhichSumsAreChecked)
{
    // Uniform-row on a star is row- but not column-stochastic.
    Graph g = generate({{"type", "star"}, {"nodes", 4}});
    EXPECT_TRUE(buildWeights(g, {{"scheme", "uniform-row"}}, WeightRole::Row, kPath).ok());
    Error e = buildError(g, {{"scheme", "uniform-row"}}, WeightRole::Doubly);
    EXPECT_EQ(e.where, "graph.weights");
    EXPECT_EQ(e.message.rfind("column 0 sums to", 0), 0u) << e.message;
    Error c = buildError(g, {{"scheme", "uniform-column"}}, WeightRole::Row);
    EXPECT_EQ(c.message.rfind("row 0 sums to", 0), 0u) << c.message;
}

TEST(Weights, SupportViolationNamesTheEntry)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    Json m = {{0.5, 0.2, 0.3, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    Error e = buildError(g, {{"scheme", "matrix"}, {"matrix", m}}, WeightRole::Any);
    EXPECT_EQ(e.where, "graph.weights.matrix");
    EXPECT_EQ(e.message, "entry (0, 2) is nonzero but 2 -> 0 is not an edge");

    Graph d = generate({{"type", "directed-ring"}, {"nodes", 3}}); // 0 -> 1 -> 2 -> 0
    Json wrongWay = {{0.5, 0.5, 0}, {0, 1, 0}, {0, 0, 1}};         // needs 1 -> 0
    EXPECT_EQ(buildError(d, {{"scheme", "matrix"}, {"matrix", wrongWay}}, WeightRole::Row).message,
              "entry (0, 1) is nonzero but 1 -> 0 is not an edge");
}

TEST(Weights, ShapeAndEntryErrors)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    auto err = [&](const Json &matrix) {
        return buildError(g, {{"scheme", "matrix"}, {"matrix", matrix}}, WeightRole::Any);
    };
    Error rows = err(Json{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    EXPECT_EQ(rows.where, "graph.weights.matrix");
    EXPECT_EQ(rows.message, "has 3 rows, the graph has 4 nodes");
    EXPECT_EQ(err(Json{{1, 0, 0, 0}, {0, 1, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}).where,
              "graph.weights.matrix[1]");
    EXPECT_EQ(err(Json{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, "x", 0}, {0, 0, 0, 1}}).where,
              "graph.weights.matrix[2][2]");
    EXPECT_EQ(err(Json("[[1, 0")).where, "graph.weights.matrix");
    EXPECT_EQ(err(Json(3.0)).where, "graph.weights.matrix");

    Json nan = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    nan[1][1] = std::numeric_limits<double>::quiet_NaN();
    Error e = err(nan);
    EXPECT_EQ(e.where, "graph.weights.matrix");
    EXPECT_EQ(e.message, "entry (1, 1) is not finite");

    Json negative = {{1.2, -0.2, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    EXPECT_EQ(err(negative).message, "entry (0, 1) is negative (-0.2)");

    Error missing = buildError(g, {{"scheme", "matrix"}}, WeightRole::Any);
    EXPECT_EQ(missing.where, "graph.weights.matrix");
}

TEST(Weights, SpecErrorsNameThePath)
{
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    EXPECT_EQ(buildError(g, {{"scheme", "metropolos"}}, WeightRole::Doubly).where,
              "graph.weights.scheme");
    EXPECT_EQ(buildError(g, Json::object(), WeightRole::Doubly).where, "graph.weights.scheme");
    EXPECT_EQ(buildError(g, Json("metropolis"), WeightRole::Doubly).where, "graph.weights");
    EXPECT_EQ(buildError(g, {{"scheme", "metropolis"}, {"alpha", 1}}, WeightRole::Doubly).where,
              "graph.weights.alpha");
    EXPECT_EQ(buildError(g, {{"scheme", "matrix"}, {"matrix", ring4Metropolis()}, {"x", 1}},
                         WeightRole::Doubly)
                  .where,
              "graph.weights.x");
}

TEST(Weights, PropertyChecksNameTheirFailure)
{
    Eigen::MatrixXd m(2, 2);
    m << 0.5, 0.5, 0.2, 0.8;
    EXPECT_TRUE(checkRowStochastic(m).ok());
    EXPECT_EQ(checkColumnStochastic(m).error().message, "column 0 sums to 0.7, not 1");
    EXPECT_NE(checkSymmetric(m).error().message.find("entry (0, 1)"), std::string::npos);
    EXPECT_FALSE(checkPsd(m).ok()); // not symmetric
    // Metropolis on the 4-ring has eigenvalue −1/3: not PSD; lazy Metropolis is.
    Graph g = generate({{"type", "ring"}, {"nodes", 4}});
    EXPECT_FALSE(checkPsd(build(g, {{"scheme", "metropolis"}}, WeightRole::Doubly)).ok());
    EXPECT_TRUE(checkPsd(build(g, {{"scheme", "lazy-metropolis"}}, WeightRole::Doubly)).ok());
}

TEST(Weights, EveryDescriptorIsDocumented)
{
    std::vector<std::string> ids;
    for (const Descriptor &d : weightSchemeDescriptors()) {
        ids.push_back(d.id);
        EXPECT_FALSE(d.name.empty()) << d.id;
        EXPECT_FALSE(d.explanation.empty()) << d.id;
    }
    for (const char *id : {"metropolis", "lazy-metropolis", "max-degree", "uniform-row",
                           "uniform-column", "uniform", "matrix", "ring4-family"})
        EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

// --- Paper 003 ring W(r, d) --------------------------------------------------------------------

Eigen::MatrixXd offDiagonal(Eigen::MatrixXd w)
{
    w.diagonal().setZero();
    return w;
}

TEST(Ring4Family, TargetsAreMet)
{
    Graph g = generate({{"type", "ring4-family"}});
    // Fig. 3 sweeps ρ(W_o) at ρ_w = 0.9; Fig. 4 sweeps ρ_w at ρ(W_o) = 0.3.
    const std::vector<std::pair<double, double>> targets = {
        {0.1, 0.9}, {0.2, 0.9}, {0.3, 0.9}, {0.4, 0.9}, {0.5, 0.9},
        {0.3, 0.7}, {0.3, 0.75}, {0.3, 0.8}, {0.3, 0.95}, {0.3, 0.99}};
    for (auto [rhoWo, rhoW] : targets) {
        SCOPED_TRACE(std::to_string(rhoWo) + ", " + std::to_string(rhoW));
        Eigen::MatrixXd w = build(g, {{"scheme", "ring4-family"}, {"rho_wo", rhoWo},
                                      {"rho_w", rhoW}},
                                  WeightRole::Doubly);
        expectRowStochastic(w);
        expectColumnStochastic(w);
        EXPECT_LT((w - w.transpose()).cwiseAbs().maxCoeff(), kTol);
        EXPECT_NEAR(spectralRadius(offDiagonal(w)), rhoWo, 1e-12);
        EXPECT_NEAR(consensusRate(w), rhoW, 1e-12);
        EXPECT_GT(w.diagonal().minCoeff(), 0.0);
    }
}

TEST(Ring4Family, EigenvaluesMatchTheClosedForm)
{
    // W = (1−r)I + W_o; the eigenvalues are 1, 1−2r, 1−2rd, 1−2r(1−d).
    for (double r : {0.1, 0.3, 0.5}) {
        for (double d : {0.1, 0.5, 2.0 / 3.0, 0.9}) {
            Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(ring4FamilyMatrix(r, d));
            Eigen::Vector4d expected(1.0, 1 - 2 * r, 1 - 2 * r * d, 1 - 2 * r * (1 - d));
            std::sort(expected.data(), expected.data() + 4);
            EXPECT_LT((solver.eigenvalues() - expected).cwiseAbs().maxCoeff(), 1e-12);
            EXPECT_NEAR(consensusRate(ring4FamilyMatrix(r, d)),
                        1 - 2 * r * std::min(d, 1 - d), 1e-12);
        }
    }
}

TEST(Ring4Family, PaperFormulaIsAMisprint)
{
    // r = 0.3, d = 2/3: the paper's 1 − r(1 − d) = 0.9, the true ρ_w is 1 − 2·0.3·(1/3) = 0.8.
    Graph g = generate({{"type", "ring4-family"}});
    Eigen::MatrixXd w = build(g, {{"scheme", "ring4-family"}, {"parametrisation", "r-d"},
                                  {"r", 0.3}, {"d", 2.0 / 3.0}},
                              WeightRole::Doubly);
    EXPECT_LT((w - ring4FamilyMatrix(0.3, 2.0 / 3.0)).norm(), kTol);
    EXPECT_NEAR(consensusRate(w), 0.8, 1e-12);
    EXPECT_GT(std::abs(consensusRate(w) - (1 - 0.3 * (1 - 2.0 / 3.0))), 0.05);
}

TEST(Ring4Family, ParamsFromTargets)
{
    auto p = ring4ParamsFromTargets(0.3, 0.9);
    ASSERT_TRUE(p.ok());
    EXPECT_DOUBLE_EQ(p->r, 0.3);
    EXPECT_NEAR(p->d, 1.0 / 6.0, 1e-15); // (1 − 0.9)/(2·0.3)
    EXPECT_EQ(ring4ParamsFromTargets(0.3, 0.6).error().where, "rho_w");   // below 1 − r
    EXPECT_EQ(ring4ParamsFromTargets(0.3, 1.0).error().where, "rho_w");   // d = 0: disconnected
    EXPECT_EQ(ring4ParamsFromTargets(0.6, 0.9).error().where, "rho_wo");  // r > 0.5
    EXPECT_EQ(ring4ParamsFromTargets(0.0, 0.9).error().where, "rho_wo");
    EXPECT_TRUE(ring4ParamsFromTargets(0.3, 0.7).ok()); // d = 1/2, the boundary
}

TEST(Ring4Family, SchemeErrors)
{
    Graph ring4 = generate({{"type", "ring4-family"}});
    EXPECT_EQ(buildError(ring4, {{"scheme", "ring4-family"}, {"rho_w", 0.5}}, WeightRole::Doubly)
                  .where,
              "graph.weights.rho_w");
    EXPECT_EQ(buildError(ring4, {{"scheme", "ring4-family"}, {"parametrisation", "r-d"},
                                 {"d", 1.0}},
                         WeightRole::Doubly)
                  .where,
              "graph.weights.d");
    Graph five = generate({{"type", "ring"}, {"nodes", 5}});
    EXPECT_EQ(buildError(five, {{"scheme", "ring4-family"}}, WeightRole::Doubly).where,
              "graph.weights.scheme");
    Graph path4 = generate({{"type", "path"}, {"nodes", 4}}); // lacks the edge 3-0
    Error e = buildError(path4, {{"scheme", "ring4-family"}}, WeightRole::Doubly);
    EXPECT_EQ(e.where, "graph.weights");
    EXPECT_NE(e.message.find("is not an edge"), std::string::npos) << e.message;
}

} // namespace
} // namespace dplab
