// SPDX-License-Identifier: GPL-3.0-or-later
//
// Checking Eigen decompositions. Every eigen-decomposition, SVD and factorization in core is
// followed by one of these checks, which names the matrix it was given:
//
//   - where the function can fail on user input (it returns a Result or Status), the failure is
//     an Error naming the matrix, e.g. "weights W: eigen-decomposition did not converge";
//   - elsewhere a failure is a bug or an input the validators missed: NumericalError is thrown
//     with the same text. The runner turns it into an internal error of the run (exit 1 in the
//     CLI, the failure message in the window), never a crash and never a garbage number.
//
// A decomposition in an algorithm's step (a projection) fed NaN or ∞ is different: that is a
// diverging run, and the step returns NaN so that the runner reports the divergence.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/result.h"

#include <Eigen/Core>

#include <stdexcept>
#include <string>
#include <string_view>

namespace dplab {

/** A decomposition failed on a matrix DPLab built itself (an internal error). */
class NumericalError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/** "<matrix>: <routine> did not converge" (or "… failed: the matrix has NaN or infinite
 *  entries", "… failed: the matrix is not positive definite", …). `finite` is false when the
 *  decomposition reported success but its result is not finite (Eigen's closed forms for tiny
 *  matrices do not look at their input). */
std::string decompositionFailure(std::string_view matrix, std::string_view routine,
                                 Eigen::ComputationInfo info, bool finite = true);

/** Throws NumericalError with decompositionFailure(…) unless info is Success and finite holds. */
void requireDecomposed(std::string_view matrix, std::string_view routine,
                       Eigen::ComputationInfo info, bool finite = true);

/** The same check as a Status: Error{code, where, decompositionFailure(…)} on failure. */
Status checkDecomposed(ErrorCode code, std::string_view where, std::string_view matrix,
                       std::string_view routine, Eigen::ComputationInfo info, bool finite = true);

/** Eigen's eigen-solvers and SVDs: info() checked, and the values they return finite. The names
 *  are views, so a check in a step allocates nothing unless it fails. */
template <class Solver>
const Solver &requireEigenvalues(const Solver &solver, std::string_view matrix)
{
    requireDecomposed(matrix, "eigen-decomposition", solver.info(), solver.eigenvalues().allFinite());
    return solver;
}
template <class Svd>
const Svd &requireSingularValues(const Svd &svd, std::string_view matrix)
{
    requireDecomposed(matrix, "singular value decomposition", svd.info(), svd.singularValues().allFinite());
    return svd;
}

} // namespace dplab
