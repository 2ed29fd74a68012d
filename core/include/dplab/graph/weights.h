// SPDX-License-Identifier: GPL-3.0-or-later
//
// Weight (mixing) matrices on a graph and their validation.
// Convention: W(i, j) != 0 only if j -> i is an edge or i == j (agent i mixes what j sends).
//
// Schemes (JSON {"scheme": id, ...}):
//   metropolis         Metropolis–Hastings, undirected: w_ij = 1/(1+max(d_i,d_j)), w_ii = 1-Σ
//                      (symmetric, doubly stochastic)
//   lazy-metropolis    (I + W_MH)/2: symmetric, doubly stochastic, PSD (paper 002)
//   max-degree         w_ij = 1/(1+d_max), w_ii = 1-d_i/(1+d_max) (undirected)
//   uniform-row        R(i,j) = 1/(1+d_in(i)) over in-neighbours and itself: row-stochastic
//   uniform-column     C(i,j) = 1/(1+d_out(j)) over j's out-neighbours and j: column-stochastic
//   uniform            "uniform-row" where a row matrix is asked for, "uniform-column" for a
//                      column matrix (so {"row":{"scheme":"uniform"},"column":{...}} works)
//   matrix             an explicit matrix: {"scheme": "matrix", "matrix": [[...], ...]}
//
// Threading: pure functions.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <Eigen/Core>

namespace dplab {

/** What property a matrix is asked to have; decides the meaning of "uniform" and which
 *  validation runs on an explicit matrix. */
enum class WeightRole {
    Doubly,  ///< W of an undirected algorithm: row- and column-stochastic (symmetry not required)
    Row,     ///< R: row-stochastic
    Column,  ///< C: column-stochastic
    Any      ///< only support and finiteness are checked
};

const std::vector<Descriptor> &weightSchemeDescriptors();

/** Builds the weight matrix described by `spec` on `graph` and validates it for `role`:
 *  support inside the graph (plus diagonal), nonnegative entries, finite, and the stochasticity
 *  the role asks for. Errors name `path` and the row/column at fault, e.g.
 *  "graph.weights.matrix: row 2 sums to 0.9, not 1". */
Result<Eigen::MatrixXd> buildWeights(const Graph &graph, const Json &spec, WeightRole role,
                                     const std::string &path);

// Property checks; each names the first row/column that fails. tol is absolute.
Status checkRowStochastic(const Eigen::MatrixXd &w, double tol = 1e-9);
Status checkColumnStochastic(const Eigen::MatrixXd &w, double tol = 1e-9);
Status checkSymmetric(const Eigen::MatrixXd &w, double tol = 1e-9);
Status checkPsd(const Eigen::MatrixXd &w, double tol = 1e-9);
Status checkNonnegative(const Eigen::MatrixXd &w);
/** W(i, j) != 0 with i != j requires the edge j -> i. */
Status checkSupport(const Graph &graph, const Eigen::MatrixXd &w);

} // namespace dplab
