// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/graph/analysis.h"

#include "dplab/common/decomposition.h"
#include "dplab/graph/weights.h"

#include <Eigen/Dense>

#include <cassert>
#include <deque>

namespace dplab {

namespace {

// A weight matrix counts as symmetric within round-off (a Metropolis W built in floating point)
// for the consensus rate: the symmetric eigensolver is the right one for it.
constexpr double kConsensusSymmetryTolerance = 1e-12;

using AdjacencyList = std::vector<std::vector<int>>;

// out[i] = nodes i sends to; in[i] = nodes that send to i (equal when undirected).
void buildLists(const Graph &graph, AdjacencyList &out, AdjacencyList &in)
{
    const int n = graph.nodeCount();
    out.assign(n, {});
    in.assign(n, {});
    for (const Edge &e : graph.edges()) {
        out[e.from].push_back(e.to);
        in[e.to].push_back(e.from);
        if (!graph.isDirected()) {
            out[e.to].push_back(e.from);
            in[e.from].push_back(e.to);
        }
    }
}

// Nodes NOT reached from `start` following `lists`, ascending.
std::vector<int> unreached(const AdjacencyList &lists, int start)
{
    std::vector<bool> seen(lists.size(), false);
    std::deque<int> queue{start};
    seen[start] = true;
    while (!queue.empty()) {
        const int i = queue.front();
        queue.pop_front();
        for (int j : lists[i]) {
            if (!seen[j]) {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    std::vector<int> result;
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (!seen[i])
            result.push_back(static_cast<int>(i));
    return result;
}

std::string nodeList(const std::vector<int> &nodes)
{
    std::string text = nodes.size() == 1 ? "node " : "nodes ";
    for (std::size_t k = 0; k < nodes.size(); ++k)
        text += (k ? ", " : "") + std::to_string(nodes[k]);
    return text;
}

// Solves (M − I) v = 0 with Σv = 1 in the least-squares sense; the solution is unique when
// the eigenvalue 1 of M is simple (irreducible stochastic M). `name` names M in the
// NumericalError thrown when the decomposition fails (NaN or ∞ entries).
Eigen::VectorXd fixedPointSummingToOne(const Eigen::MatrixXd &m, const char *name)
{
    const Eigen::Index n = m.rows();
    Eigen::MatrixXd a(n + 1, n);
    a.topRows(n) = m - Eigen::MatrixXd::Identity(n, n);
    a.row(n).setOnes();
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n + 1);
    b[n] = 1.0;
    const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a);
    Eigen::VectorXd v = cod.solve(b);
    requireDecomposed(name, "complete orthogonal decomposition", cod.info(),
                      v.allFinite() && v.sum() != 0.0);
    return v / v.sum();
}

// The spectral routines below check every decomposition and throw NumericalError naming the
// matrix when one fails (a weight matrix that passed validation is finite, so this is an
// internal error).
} // namespace

Connectivity analyseConnectivity(const Graph &graph)
{
    Connectivity result;
    if (graph.nodeCount() <= 1) {
        result.connected = true;
        return result;
    }
    AdjacencyList out, in;
    buildLists(graph, out, in);
    // Every cause at once: the nodes node 0 cannot reach and, directed, the nodes that cannot
    // reach node 0 (a node can be both; it is listed once).
    const std::vector<int> notReached = unreached(out, 0);
    const std::vector<int> notReaching = graph.isDirected() ? unreached(in, 0) : std::vector<int>{};
    if (!notReached.empty() || !notReaching.empty()) {
        std::vector<bool> flagged(graph.nodeCount(), false);
        for (int i : notReached)
            flagged[i] = true;
        for (int i : notReaching)
            flagged[i] = true;
        for (int i = 0; i < graph.nodeCount(); ++i)
            if (flagged[i])
                result.offending.push_back(i);
        if (!notReached.empty())
            result.message = nodeList(notReached) + " cannot be reached from node 0";
        if (!notReaching.empty())
            result.message += (result.message.empty() ? "" : "; ") + nodeList(notReaching) + " cannot reach node 0";
        return result;
    }
    result.connected = true;
    return result;
}

double spectralRadius(const Eigen::MatrixXd &m, const char *name, double symmetryTolerance)
{
    assert(m.rows() == m.cols() && "spectralRadius: matrix must be square");
    if (m.size() == 0)
        return 0.0;
    const bool symmetric = symmetryTolerance > 0.0 ? m.isApprox(m.transpose(), symmetryTolerance)
                                                   : m == m.transpose();
    if (symmetric) {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(m, Eigen::EigenvaluesOnly);
        return requireEigenvalues(solver, name).eigenvalues().cwiseAbs().maxCoeff();
    }
    Eigen::EigenSolver<Eigen::MatrixXd> solver(m, false);
    return requireEigenvalues(solver, name).eigenvalues().cwiseAbs().maxCoeff();
}

double spectralRadius(const Eigen::MatrixXd &m)
{
    return spectralRadius(m, "weight matrix", 0.0);
}

Eigen::VectorXd singularValues(const Eigen::MatrixXd &m)
{
    if (m.size() == 0)
        return Eigen::VectorXd();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(m);
    return requireSingularValues(svd, "weight matrix").singularValues();
}

double secondSingularValue(const Eigen::MatrixXd &w)
{
    const Eigen::VectorXd s = singularValues(w);
    return s.size() >= 2 ? s[1] : 0.0;
}

double spectralGap(const Eigen::MatrixXd &w)
{
    return 1.0 - secondSingularValue(w);
}

// ρ_w of the inspector, the report and paper 003's theory alike: one implementation. A W − 11ᵀ/n
// symmetric within a relative 1e-12 (round-off) takes the symmetric eigensolver, any other the
// general one.
double consensusRate(const Eigen::MatrixXd &w)
{
    assert(w.rows() == w.cols() && "consensusRate: matrix must be square");
    const Eigen::Index n = w.rows();
    if (n == 0)
        return 0.0;
    return spectralRadius(w - Eigen::MatrixXd::Constant(n, n, 1.0 / static_cast<double>(n)),
                          "weights W − 11ᵀ/n", kConsensusSymmetryTolerance);
}

Eigen::VectorXd leftPerronVector(const Eigen::MatrixXd &r)
{
    assert(r.rows() == r.cols() && "leftPerronVector: matrix must be square");
    return fixedPointSummingToOne(r.transpose(), "weights R (left Perron vector)");
}

Eigen::VectorXd rightPerronVector(const Eigen::MatrixXd &c)
{
    assert(c.rows() == c.cols() && "rightPerronVector: matrix must be square");
    return fixedPointSummingToOne(c, "weights C (right Perron vector)");
}

WeightFacts analyseWeights(const Eigen::MatrixXd &w, double tol)
{
    WeightFacts facts;
    facts.rowStochastic = checkRowStochastic(w, tol).ok();
    facts.columnStochastic = checkColumnStochastic(w, tol).ok();
    facts.symmetric = checkSymmetric(w, tol).ok();
    facts.psd = facts.symmetric && checkPsd(w, tol).ok();
    facts.spectralRadius = spectralRadius(w);
    facts.sigma2 = secondSingularValue(w);
    facts.spectralGap = 1.0 - facts.sigma2;
    facts.consensusRate = consensusRate(w);
    return facts;
}

} // namespace dplab
