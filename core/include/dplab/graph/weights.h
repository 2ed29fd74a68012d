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
//                      (the matrix may also be given as a string holding that JSON array)
//   ring4-family       paper 003's 4-agent ring W(r, d) of eq. (37), needs 4 nodes and the ring
//                      0-1-2-3-0; parameters as the "ring4-family" generator (see below)
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

// --- Paper 003's 4-agent ring W(r, d), eq. (37) ----------------------------------------------
//
//        [ 1−r     rd      0       r(1−d)
//   W =    rd      1−r     r(1−d)  0
//          0       r(1−d)  1−r     rd
//          r(1−d)  0       rd      1−r    ],   0 < d < 1, 0 < r ≤ 0.5.
//
// Its eigenvalues are 1, 1−2r, 1−2rd and 1−2r(1−d). W_o (W with its diagonal set to zero) has
// eigenvalues ±r and ±r(1−2d), so ρ(W_o) = r, and ρ_w = ρ(W − 11ᵀ/4) = 1 − 2r·min(d, 1−d).
// The paper prints ρ_w = 1 − r(1−d), which is a misprint (spec paper 003 §6.3, §8.6): r = 0.3,
// d = 2/3 gives ρ_w = 0.8, not 0.9. DPLab uses the corrected relation.

struct Ring4Params {
    double r = 0.3; ///< off-diagonal mass 1 − w_ii = ρ(W_o)
    double d = 0.5; ///< split of r between the two neighbours (0 < d < 1)
};

/** W(r, d) of paper 003 eq. (37). REQUIRES: 0 ≤ r ≤ 1, 0 ≤ d ≤ 1 (doubly stochastic then). */
Eigen::MatrixXd ring4FamilyMatrix(double r, double d);

/** (r, d) with ρ(W_o) = rhoWo and ρ_w = rhoW under the corrected relation:
 *  r = rhoWo, d = (1 − rhoW)/(2r) ∈ (0, 1/2]. Needs 0 < rhoWo ≤ 0.5 and 1 − rhoWo ≤ rhoW < 1;
 *  otherwise an error whose `where` is the offending key ("rho_wo" or "rho_w"). */
Result<Ring4Params> ring4ParamsFromTargets(double rhoWo, double rhoW);

/** The parameters shared by the "ring4-family" generator and weight scheme:
 *  "parametrisation" ("targets" | "r-d", default "targets"), "rho_wo" (0.3), "rho_w" (0.9),
 *  "r" (0.3), "d" (1/6). With "targets" only rho_wo and rho_w are read; with "r-d" only r, d. */
std::vector<ParamSpec> ring4FamilyParamSpecs();

/** (r, d) from an object already resolved against ring4FamilyParamSpecs(); errors name
 *  `path` + the key at fault (e.g. "graph.generator.rho_w: must be in [0.7, 1) ..."). */
Result<Ring4Params> ring4ParamsFromResolved(const Json &params, const std::string &path);

} // namespace dplab
