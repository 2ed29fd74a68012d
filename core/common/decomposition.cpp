// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/decomposition.h"

#include "dplab/common/checkedsolve.h"

#include <Eigen/Cholesky>

namespace dplab {

std::string decompositionFailure(std::string_view matrix, std::string_view routine,
                                 Eigen::ComputationInfo info, bool finite)
{
    std::string why;
    switch (info) {
    case Eigen::Success:
        why = finite ? " succeeded" : " failed: the matrix has NaN or infinite entries";
        break;
    case Eigen::NoConvergence:
        why = " did not converge";
        break;
    case Eigen::InvalidInput:
        why = " failed: the matrix has NaN or infinite entries";
        break;
    case Eigen::NumericalIssue:
        why = routine == "Cholesky factorization" || routine == "LDLT factorization"
                  ? " failed: the matrix is not positive definite"
                  : " failed: the matrix is singular or ill-conditioned";
        break;
    }
    return std::string(matrix) + ": " + std::string(routine) + why;
}

void requireDecomposed(std::string_view matrix, std::string_view routine,
                       Eigen::ComputationInfo info, bool finite)
{
    if (info != Eigen::Success || !finite)
        throw NumericalError(decompositionFailure(matrix, routine, info, finite));
}

Status checkDecomposed(ErrorCode code, std::string_view where, std::string_view matrix,
                       std::string_view routine, Eigen::ComputationInfo info, bool finite)
{
    if (info == Eigen::Success && finite)
        return {};
    return Error{code, std::string(where), decompositionFailure(matrix, routine, info, finite)};
}

Eigen::VectorXd choleskySolve(const Eigen::MatrixXd &A, const Eigen::VectorXd &b, std::string_view matrix)
{
    const Eigen::LLT<Eigen::MatrixXd> llt(A);
    requireDecomposed(matrix, "Cholesky factorization", llt.info());
    Eigen::VectorXd x = llt.solve(b);
    requireDecomposed(matrix, "Cholesky factorization", Eigen::Success, x.allFinite());
    return x;
}

} // namespace dplab
