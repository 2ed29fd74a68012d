// SPDX-License-Identifier: GPL-3.0-or-later
//
// A linear solve by a checked factorization (dplab/common/decomposition.h): the closed-form
// optima of the quadratic and least-squares problems go through it, so the check that guards
// them can be fed a failing matrix directly (tests/core/decomposition_test.cpp) although no
// problem reaches it (see LeastSquaresProblem::closedFormOptimum).
//
// Threading: pure function.
#pragma once

#include <Eigen/Core>

#include <string_view>

namespace dplab {

/** x = A⁻¹b by a Cholesky factorization (Eigen::LLT) of a symmetric A its caller has already
 *  found positive definite. Throws NumericalError naming `matrix` when the factorization fails
 *  anyway, or gives a non-finite x (Eigen's LLT does not look for NaN). */
Eigen::VectorXd choleskySolve(const Eigen::MatrixXd &A, const Eigen::VectorXd &b, std::string_view matrix);

} // namespace dplab
