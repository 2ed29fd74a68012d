// SPDX-License-Identifier: GPL-3.0-or-later
//
// Eigen matrices and vectors as JSON arrays (a matrix: one array per row), for the outputs that
// show them: a problem's facts, `dplab-cli graph --json`.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/params.h"

#include <Eigen/Core>

namespace dplab {

/** [[m(0,0), m(0,1), ...], [m(1,0), ...], ...]. */
Json matrixToJson(const Eigen::MatrixXd &m);

/** [v(0), v(1), ...]. */
Json vectorToJson(const Eigen::VectorXd &v);

} // namespace dplab
