// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/paper003theory.h"
#include "dplab/common/decomposition.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <cmath>
#include <limits>

namespace dplab {

Paper003SteadyState paper003SteadyState(const Paper003Constants &c, double alpha)
{
    const double n = c.n, L = c.L, mu = c.mu, dI2 = n - 1.0, tw = 1.0 - c.rhoW * c.rhoW;
    const double half = (1 + c.rhoW * c.rhoW) / 2, se = c.sigmaEta2, sx = c.sigmaXi2;
    Paper003SteadyState out;
    out.A << 1 - alpha * mu, 2 * alpha * L * L / (mu * n), 0,
        0, half, 2 * alpha * alpha / tw,
        32 * n * alpha * alpha * std::pow(L, 4) * dI2 / tw, 64 * dI2 * L * L / tw,
        half + 16 * alpha * alpha * L * L * dI2 / tw;
    out.B << alpha * alpha * se + sx, n * dI2 * sx, 24 * n * dI2 * se / tw + 4 * n * L * L * dI2 * sx / tw;
    out.B *= c.rhoWo * c.rhoWo;
    if (out.A.array().isInf().any() && !out.A.array().isNaN().any()) {
        // ρ_w = 1 (1 − ρ_w² = 0): the recursion has no steady state. NaN (constants that are
        // not numbers) goes on to the eigen-decomposition, which names A in its error.
        out.rhoA = std::numeric_limits<double>::infinity();
        out.theta = std::numeric_limits<double>::infinity();
        return out;
    }
    const Eigen::EigenSolver<Eigen::Matrix3d> eig(out.A, false);
    out.rhoA = requireEigenvalues(eig, "paper 003 steady-state matrix A")
                   .eigenvalues()
                   .cwiseAbs()
                   .maxCoeff();
    if (out.rhoA < 1) {
        // ρ(A) < 1 makes I − A invertible; the condition check catches rounding near ρ(A) = 1.
        const Eigen::PartialPivLU<Eigen::Matrix3d> lu(Eigen::Matrix3d::Identity() - out.A);
        requireDecomposed("paper 003 matrix I − A", "LU factorization",
                          lu.rcond() > 1e-14 ? Eigen::Success : Eigen::NumericalIssue);
        const Eigen::Vector3d z = lu.solve(out.B);
        out.theta = 2 * n * z[0] + 2 * z[1];
    } else {
        out.theta = std::numeric_limits<double>::infinity();
    }
    return out;
}

std::array<double, 3> paper003Theorem3StepBounds(const Paper003Constants &c)
{
    const double L = c.L, mu = c.mu, dI2 = c.n - 1.0, tw = 1.0 - c.rhoW * c.rhoW;
    const double d1 = 128 * std::pow(L, 6) * dI2 / (mu * tw * tw);
    const double d2 = 8 * mu * L * L * dI2 + 128 * mu * dI2 * L * L / (tw * tw);
    const double d3 = mu * tw * tw / 4;
    return {1 / (mu + L), tw / (4 * std::sqrt(2.0) * std::sqrt(dI2) * L),
            std::sqrt(2 * d3 / (d2 + std::sqrt(d2 * d2 + 4 * d1 * d3)))};
}

double paper003Theorem4StepBound(const Paper003Constants &c)
{
    return (1.0 - c.rhoW * c.rhoW) / (8 * std::sqrt(c.n - 1.0) * c.L);
}

} // namespace dplab
