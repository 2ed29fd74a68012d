// SPDX-License-Identifier: GPL-3.0-or-later
//
// Inspection: the facts the graph inspector shows, computed from core (connectivity, the weight
// matrices a run mixes with, their verdicts and spectral facts, Perron vectors). A plain value
// computed by a pure function, so tests check the verdicts without a widget.
//
// Threading: pure function; cost O(n³) per analysed matrix (dense eigen/singular values).
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/graph/analysis.h"

#include <Eigen/Core>

#include <QString>
#include <QVector>

namespace dplab {

/** One weight matrix a run mixes with. */
struct MatrixReport {
    QString name;   ///< "W", "R" or "C"
    QString role;   ///< "doubly stochastic", "row-stochastic", "column-stochastic"
    QString scheme; ///< the scheme id ("metropolis", "uniform", "matrix", ...)
    QString error;  ///< why the matrix could not be built or fails its role ("" = fine)
    Eigen::MatrixXd matrix;    ///< empty when it could not be built
    bool analysed = false;     ///< spectral facts computed (skipped for very large graphs)
    WeightFacts facts;
    QString perronName;        ///< "left Perron vector u" / "right Perron vector ω" / ""
    Eigen::VectorXd perron;    ///< empty when none
};

struct Inspection {
    int nodes = 0;
    int edges = 0;
    bool directed = false;
    Connectivity connectivity;
    int minInDegree = 0, maxInDegree = 0, minOutDegree = 0, maxOutDegree = 0;
    QVector<MatrixReport> matrices;
};

/** Largest n for which the inspector computes spectra automatically. */
inline constexpr int kInspectorSpectrumLimit = 400;

/** Inspects `graph` with the weight specification `weights` (a run's weights object) for an
 *  algorithm that mixes as `needs` says. Spectral facts only when n ≤ spectrumLimit. */
Inspection inspectGraph(const Graph &graph, const Json &weights, WeightNeeds needs,
                        int spectrumLimit = kInspectorSpectrumLimit);

} // namespace dplab
