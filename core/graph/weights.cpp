// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/graph/weights.h"

#include "dplab/common/formatnumber.h"
#include "dplab/common/decomposition.h"

#include <Eigen/Dense>

#include <cassert>
#include <cmath>

namespace dplab {

namespace {

std::string entryText(Eigen::Index i, Eigen::Index j)
{
    return "entry (" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

Status fail(std::string message)
{
    return Error::invalid("", std::move(message));
}

// The same error with `where` set to `path`.
Status at(const Status &status, const std::string &path)
{
    if (status.ok())
        return status;
    return Error{status.error().code, path, status.error().message};
}

// --- Schemes --------------------------------------------------------------------------------

Eigen::VectorXd degrees(const Graph &graph)
{
    return graph.adjacency().rowwise().sum();
}

// Fills the diagonal so that every row sums to 1.
void completeRows(Eigen::MatrixXd &w)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        w(i, i) = 1.0 - (w.row(i).sum() - w(i, i));
}

Eigen::MatrixXd metropolis(const Graph &graph)
{
    const Eigen::VectorXd deg = degrees(graph);
    Eigen::MatrixXd w = Eigen::MatrixXd::Zero(graph.nodeCount(), graph.nodeCount());
    for (const Edge &e : graph.edges()) {
        const double v = 1.0 / (1.0 + std::max(deg[e.from], deg[e.to]));
        w(e.from, e.to) = v;
        w(e.to, e.from) = v;
    }
    completeRows(w);
    return w;
}

Eigen::MatrixXd lazyMetropolis(const Graph &graph)
{
    const int n = graph.nodeCount();
    return 0.5 * (Eigen::MatrixXd::Identity(n, n) + metropolis(graph));
}

Eigen::MatrixXd maxDegree(const Graph &graph)
{
    const int n = graph.nodeCount();
    const double dmax = n > 0 ? degrees(graph).maxCoeff() : 0.0;
    Eigen::MatrixXd w = graph.adjacency() / (1.0 + dmax);
    completeRows(w);
    return w;
}

// R(i, j) = 1/(1 + d_in(i)) for j ∈ N_in(i) ∪ {i}.
Eigen::MatrixXd uniformRow(const Graph &graph)
{
    const int n = graph.nodeCount();
    Eigen::MatrixXd a = graph.adjacency() + Eigen::MatrixXd::Identity(n, n);
    const Eigen::VectorXd sums = a.rowwise().sum();
    return sums.cwiseInverse().asDiagonal() * a;
}

// C(i, j) = 1/(1 + d_out(j)) for i ∈ N_out(j) ∪ {j}.
Eigen::MatrixXd uniformColumn(const Graph &graph)
{
    const int n = graph.nodeCount();
    Eigen::MatrixXd a = graph.adjacency() + Eigen::MatrixXd::Identity(n, n);
    const Eigen::RowVectorXd sums = a.colwise().sum();
    return a * sums.cwiseInverse().asDiagonal();
}

Result<Eigen::MatrixXd> explicitMatrix(const Json &given, int n, const std::string &path)
{
    Json rows = given;
    if (given.is_string()) {
        rows = Json::parse(given.get<std::string>(), nullptr, false);
        if (rows.is_discarded())
            return Error::parse(path, "is not a JSON array of rows");
    }
    if (!rows.is_array())
        return Error::invalid(path, "must be an array of rows");
    if (static_cast<int>(rows.size()) != n)
        return Error::invalid(path, "has " + std::to_string(rows.size())
                                        + " rows, the graph has " + std::to_string(n) + " nodes");
    Eigen::MatrixXd w(n, n);
    for (int i = 0; i < n; ++i) {
        const std::string rowPath = indexPath(path, i);
        const Json &row = rows[static_cast<std::size_t>(i)];
        if (!row.is_array() || static_cast<int>(row.size()) != n)
            return Error::invalid(rowPath, "must be a row of " + std::to_string(n) + " numbers");
        for (int j = 0; j < n; ++j) {
            const Json &entry = row[static_cast<std::size_t>(j)];
            if (!entry.is_number())
                return Error::invalid(indexPath(rowPath, j), "must be a number");
            w(i, j) = entry.get<double>();
        }
    }
    return w;
}

Result<Eigen::MatrixXd> ring4Weights(const Graph &graph, const Json &params,
                                     const std::string &path)
{
    if (graph.nodeCount() != 4)
        return Error::invalid(joinPath(path, "scheme"),
                              "ring4-family needs 4 nodes, the graph has "
                                  + std::to_string(graph.nodeCount()));
    auto rd = ring4ParamsFromResolved(params, path);
    if (!rd)
        return rd.error();
    return ring4FamilyMatrix(rd->r, rd->d);
}

Status checkFinite(const Eigen::MatrixXd &w)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            if (!std::isfinite(w(i, j)))
                return fail(entryText(i, j) + " is not finite");
    return {};
}

Status validate(const Graph &graph, const Eigen::MatrixXd &w, WeightRole role)
{
    for (Status s : {checkFinite(w), checkNonnegative(w), checkSupport(graph, w)})
        if (!s)
            return s;
    if (role == WeightRole::Row || role == WeightRole::Doubly)
        if (Status s = checkRowStochastic(w); !s)
            return s;
    if (role == WeightRole::Column || role == WeightRole::Doubly)
        if (Status s = checkColumnStochastic(w); !s)
            return s;
    return {};
}

bool needsUndirected(const std::string &scheme)
{
    return scheme == "metropolis" || scheme == "lazy-metropolis" || scheme == "max-degree"
           || scheme == "ring4-family";
}

Eigen::MatrixXd builtinScheme(const Graph &graph, const std::string &scheme, WeightRole role)
{
    if (scheme == "metropolis")
        return metropolis(graph);
    if (scheme == "lazy-metropolis")
        return lazyMetropolis(graph);
    if (scheme == "max-degree")
        return maxDegree(graph);
    if (scheme == "uniform-column" || (scheme == "uniform" && role == WeightRole::Column))
        return uniformColumn(graph);
    return uniformRow(graph); // "uniform-row", and "uniform" for Row, Doubly, Any
}

Descriptor scheme(std::string id, std::string name, std::string reference,
                  std::string explanation, std::vector<ParamSpec> params = {})
{
    return {std::move(id), std::move(name), std::move(reference), std::move(explanation),
            std::move(params)};
}

ParamSpec matrixParam()
{
    ParamSpec spec;
    spec.key = "matrix";
    spec.label = "Matrix";
    spec.type = ParamType::Text;
    spec.help = "The n×n weight matrix as a JSON array of rows; W(i, j) is what agent i puts "
                "on agent j (nonzero only if j -> i is an edge or i = j).";
    return spec; // default null: required
}

// Parameters of `spec` other than "scheme", resolved against the scheme's specs.
Result<Json> schemeParams(const Descriptor &d, const Json &spec, const std::string &path)
{
    Json given = spec;
    given.erase("scheme");
    return resolveParams(d.params, given, path);
}

} // namespace

const std::vector<Descriptor> &weightSchemeDescriptors()
{
    static const std::vector<Descriptor> descriptors = {
        scheme("metropolis", "Metropolis–Hastings", "",
               "w_ij = 1/(1 + max(d_i, d_j)) on each edge, w_ii = 1 − Σ_j w_ij. Symmetric and "
               "doubly stochastic; needs an undirected graph."),
        scheme("lazy-metropolis", "Lazy Metropolis", "paper 002",
               "(I + W_MH)/2: symmetric, doubly stochastic and positive semidefinite; needs an "
               "undirected graph."),
        scheme("max-degree", "Maximum degree", "",
               "w_ij = 1/(1 + d_max) on each edge, w_ii = 1 − d_i/(1 + d_max). Symmetric and "
               "doubly stochastic; needs an undirected graph."),
        scheme("uniform-row", "Uniform row-stochastic (in-neighbours)", "",
               "R(i, j) = 1/(1 + d_in(i)) for each in-neighbour j of i and for j = i. "
               "Row-stochastic on any graph (on an undirected graph: the neighbours)."),
        scheme("uniform-column", "Uniform column-stochastic (out-neighbours)", "",
               "C(i, j) = 1/(1 + d_out(j)) for each out-neighbour i of j and for i = j. "
               "Column-stochastic on any graph."),
        scheme("uniform", "Uniform (row or column by role)", "",
               "uniform-row where a row-stochastic matrix is asked for (and for W), "
               "uniform-column where a column-stochastic matrix is asked for."),
        scheme("matrix", "Explicit matrix", "",
               "A matrix given entry by entry; it is checked for finiteness, nonnegativity, "
               "support inside the graph and the stochasticity the algorithm needs.",
               {matrixParam()}),
        scheme("ring4-family", "Paper 003 ring W(r, d)", "paper 003 eq. (37)",
               "The 4-agent ring matrix of paper 003 eq. (37), tuned by ρ(W_o) = r and "
               "ρ_w = 1 − 2r·min(d, 1 − d) (the paper's printed 1 − r(1 − d) is a misprint). "
               "Needs the undirected ring 0-1-2-3-0.",
               ring4FamilyParamSpecs()),
    };
    return descriptors;
}

Result<Eigen::MatrixXd> buildWeights(const Graph &graph, const Json &spec, WeightRole role,
                                     const std::string &path)
{
    if (!spec.is_object())
        return Error::invalid(path, "must be an object with a \"scheme\"");
    const std::string schemePath = joinPath(path, "scheme");
    if (!spec.contains("scheme") || !spec["scheme"].is_string())
        return Error::invalid(schemePath, "is required (a string)");
    const std::string id = spec["scheme"].get<std::string>();
    const Descriptor *descriptor = nullptr;
    std::string known;
    for (const auto &d : weightSchemeDescriptors()) {
        known += (known.empty() ? "" : ", ") + d.id;
        descriptor = d.id == id ? &d : descriptor;
    }
    if (!descriptor)
        return Error::notFound(schemePath, "unknown weight scheme \"" + id
                                               + "\" (expected one of: " + known + ")");
    if (graph.isDirected() && needsUndirected(id))
        return Error::invalid(schemePath, id + " needs an undirected graph; use uniform-row / "
                                               "uniform-column or an explicit matrix");
    const bool isMatrix = id == "matrix";
    Json given = spec;
    if (isMatrix) // the matrix itself is parsed by explicitMatrix; here only unknown keys count
        given["matrix"] = "";
    auto params = schemeParams(*descriptor, given, path);
    if (!params)
        return params.error();

    const std::string matrixPath = joinPath(path, "matrix");
    Result<Eigen::MatrixXd> w = Eigen::MatrixXd();
    if (isMatrix)
        w = explicitMatrix(spec.contains("matrix") ? spec["matrix"] : Json(), graph.nodeCount(),
                           matrixPath);
    else if (id == "ring4-family")
        w = ring4Weights(graph, *params, path);
    else
        w = builtinScheme(graph, id, role);
    if (!w)
        return w.error();
    if (Status s = validate(graph, *w, role); !s)
        return at(s, isMatrix ? matrixPath : path).error();
    return w;
}

// --- Property checks ------------------------------------------------------------------------

Status checkRowStochastic(const Eigen::MatrixXd &w, double tol)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        const double sum = w.row(i).sum();
        if (!(std::abs(sum - 1.0) <= tol))
            return fail("row " + std::to_string(i) + " sums to " + formatNumber(sum, 10)
                        + ", not 1");
    }
    return {};
}

Status checkColumnStochastic(const Eigen::MatrixXd &w, double tol)
{
    for (Eigen::Index j = 0; j < w.cols(); ++j) {
        const double sum = w.col(j).sum();
        if (!(std::abs(sum - 1.0) <= tol))
            return fail("column " + std::to_string(j) + " sums to " + formatNumber(sum, 10)
                        + ", not 1");
    }
    return {};
}

Status checkSymmetric(const Eigen::MatrixXd &w, double tol)
{
    if (w.rows() != w.cols())
        return fail("is not square");
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = i + 1; j < w.cols(); ++j)
            if (!(std::abs(w(i, j) - w(j, i)) <= tol))
                return fail("is not symmetric: " + entryText(i, j) + " = "
                            + formatNumber(w(i, j), 10)
                            + " but " + entryText(j, i) + " = " + formatNumber(w(j, i), 10));
    return {};
}

Status checkPsd(const Eigen::MatrixXd &w, double tol)
{
    if (Status s = checkSymmetric(w, tol); !s)
        return s;
    if (w.size() == 0)
        return {};
    const Eigen::MatrixXd sym = 0.5 * (w + w.transpose());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(sym, Eigen::EigenvaluesOnly);
    if (solver.info() != Eigen::Success || !solver.eigenvalues().allFinite())
        return fail(decompositionFailure("its symmetric part", "eigen-decomposition", solver.info(),
                                         solver.eigenvalues().allFinite()));
    const double smallest = solver.eigenvalues().minCoeff();
    if (!(smallest >= -tol))
        return fail("is not positive semidefinite: smallest eigenvalue is "
                    + formatNumber(smallest, 10));
    return {};
}

Status checkNonnegative(const Eigen::MatrixXd &w)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            if (!(w(i, j) >= 0.0))
                return fail(entryText(i, j) + " is negative (" + formatNumber(w(i, j), 10) + ")");
    return {};
}

Status checkSupport(const Graph &graph, const Eigen::MatrixXd &w)
{
    const int n = graph.nodeCount();
    if (w.rows() != n || w.cols() != n)
        return fail("is " + std::to_string(w.rows()) + "×" + std::to_string(w.cols())
                    + ", the graph has " + std::to_string(n) + " nodes");
    const Eigen::MatrixXd a = graph.adjacency();
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j && w(i, j) != 0.0 && a(i, j) == 0.0)
                return fail(entryText(i, j) + " is nonzero but " + std::to_string(j) + " -> "
                            + std::to_string(i) + " is not an edge");
    return {};
}

// --- Paper 003 ring ---------------------------------------------------------------------------

Eigen::MatrixXd ring4FamilyMatrix(double r, double d)
{
    assert(r >= 0.0 && r <= 1.0 && d >= 0.0 && d <= 1.0 && "ring4FamilyMatrix: r, d in [0, 1]");
    const double a = r * d;
    const double b = r * (1.0 - d);
    const double c = 1.0 - r;
    Eigen::MatrixXd w(4, 4);
    w << c, a, 0, b,
         a, c, b, 0,
         0, b, c, a,
         b, 0, a, c;
    return w;
}

Result<Ring4Params> ring4ParamsFromTargets(double rhoWo, double rhoW)
{
    if (!(rhoWo > 0.0 && rhoWo <= 0.5))
        return Error::invalid("rho_wo", "must be in (0, 0.5], got " + formatNumber(rhoWo, 10));
    if (!(rhoW >= 1.0 - rhoWo && rhoW < 1.0))
        return Error::invalid("rho_w", "must be in [1 − rho_wo, 1) = ["
                                           + formatNumber(1.0 - rhoWo, 10)
                                           + ", 1) so that d = (1 − ρ_w)/(2ρ(W_o)) ≤ 1/2, got "
                                           + formatNumber(rhoW, 10));
    return Ring4Params{rhoWo, (1.0 - rhoW) / (2.0 * rhoWo)};
}

std::vector<ParamSpec> ring4FamilyParamSpecs()
{
    return {
        choiceParam("parametrisation", "Given by", "targets", {"targets", "r-d"},
                    "\"targets\": choose ρ(W_o) and ρ_w, and DPLab solves for (r, d); "
                    "\"r-d\": give r and d of eq. (37) directly."),
        realParam("rho_wo", "ρ(W_o)", 0.3, 0.0, 0.5,
                  "Target spectral radius of W with its diagonal zeroed (= r). Used with "
                  "\"targets\".", {.minExclusive = true}),
        realParam("rho_w", "ρ_w", 0.9, 0.0, 1.0,
                  "Target ρ(W − 11ᵀ/n); must lie in [1 − ρ(W_o), 1). Used with \"targets\"."),
        realParam("r", "r", 0.3, 0.0, 0.5,
                  "Off-diagonal mass of each row of W (eq. (37)); ρ(W_o) = r. Used with \"r-d\".",
                  {.minExclusive = true}),
        realParam("d", "d", 1.0 / 6.0, 0.0, 1.0,
                  "Split of r between the two neighbours (0 < d < 1); ρ_w = 1 − 2r·min(d, 1−d). "
                  "Used with \"r-d\".", {.minExclusive = true}),
    };
}

Result<Ring4Params> ring4ParamsFromResolved(const Json &params, const std::string &path)
{
    if (paramText(params, "parametrisation") == "r-d") {
        const double d = paramReal(params, "d");
        if (!(d < 1.0))
            return Error::invalid(joinPath(path, "d"), "must be in (0, 1), got 1");
        return Ring4Params{paramReal(params, "r"), d};
    }
    auto rd = ring4ParamsFromTargets(paramReal(params, "rho_wo"), paramReal(params, "rho_w"));
    if (!rd)
        return Error::invalid(joinPath(path, rd.error().where), rd.error().message);
    return rd;
}

} // namespace dplab
