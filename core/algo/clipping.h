// SPDX-License-Identifier: GPL-3.0-or-later
//
// Gradient clipping, the one form every DP algorithm uses (paper 002 §4.1, paper 003's practical
// relaxation of Assumption 2): each agent's gradient (a row) is scaled down to ‖·‖₂ ≤ C. A bound
// C ≤ 0 means "no bound" and leaves the gradients as they are (the parameters' 0 = off). Private
// to core/algo.
//
// Threading: pure functions.
#pragma once

#include <Eigen/Core>

namespace dplab {

/** g_i ← g_i · C/‖g_i‖₂ for every row with ‖g_i‖₂ > C. C ≤ 0: g unchanged (no clipping). */
inline void clipRows(Eigen::Ref<Eigen::MatrixXd> g, double bound)
{
    if (bound <= 0.0)
        return;
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
        const double norm = g.row(i).norm();
        if (norm > bound)
            g.row(i) *= bound / norm;
    }
}

/** max_i ‖g_i‖₂ (0 for no rows). */
inline double maxRowNorm(const Eigen::Ref<const Eigen::MatrixXd> &g)
{
    return g.rows() == 0 ? 0.0 : g.rowwise().norm().maxCoeff();
}

} // namespace dplab
