// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph and weight-matrix analysis: connectivity and the spectral facts the inspector, the CLI
// `graph` command, the report and the theorem-condition warnings show.
//
// Threading: pure functions. Cost: the spectral functions are dense O(n³) (Eigen's
// SelfAdjointEigenSolver / EigenSolver / JacobiSVD); fine for the graphs DPLab draws (n ≲ 1000).
#pragma once

#include "dplab/graph/graph.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace dplab {

struct Connectivity {
    bool connected = false; ///< undirected: connected; directed: strongly connected
    /** When not connected: every node outside node 0's (strongly) connected component, i.e.
     *  the nodes that cannot be reached from node 0 and, directed, the nodes that cannot reach
     *  node 0, ascending. Empty when connected. */
    std::vector<int> offending;
    /** Names both causes, e.g. "node 5 cannot be reached from node 0; nodes 1, 5 cannot reach
     *  node 0". */
    std::string message;
};

Connectivity analyseConnectivity(const Graph &graph);

/** Largest |eigenvalue| of a square matrix. */
double spectralRadius(const Eigen::MatrixXd &m);
/** The same, with a failed decomposition reported as an internal error naming `name`; m counts
 *  as symmetric (and gets the symmetric solver) when it equals its transpose within the relative
 *  `symmetryTolerance` (0: exactly). */
double spectralRadius(const Eigen::MatrixXd &m, const char *name, double symmetryTolerance);
/** Singular values, descending. */
Eigen::VectorXd singularValues(const Eigen::MatrixXd &m);
/** σ₂: the second largest singular value. */
double secondSingularValue(const Eigen::MatrixXd &w);
/** 1 − σ₂. */
double spectralGap(const Eigen::MatrixXd &w);
/** ρ(W − 11ᵀ/n): the consensus contraction rate of a doubly stochastic W. */
double consensusRate(const Eigen::MatrixXd &w);
/** Left Perron vector u of a row-stochastic R (uᵀR = uᵀ, u > 0), normalised to Σu = 1. */
Eigen::VectorXd leftPerronVector(const Eigen::MatrixXd &r);
/** Right Perron vector ω of a column-stochastic C (Cω = ω, ω > 0), normalised to Σω = 1. */
Eigen::VectorXd rightPerronVector(const Eigen::MatrixXd &c);

/** Summary of one weight matrix for inspectors and reports. */
struct WeightFacts {
    bool rowStochastic = false;
    bool columnStochastic = false;
    bool symmetric = false;
    bool psd = false; ///< only meaningful when symmetric
    double spectralRadius = 0.0;
    double sigma2 = 0.0;
    double spectralGap = 0.0;
    double consensusRate = 0.0;
};

WeightFacts analyseWeights(const Eigen::MatrixXd &w, double tol = 1e-9);

} // namespace dplab
