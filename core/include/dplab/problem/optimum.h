// SPDX-License-Identifier: GPL-3.0-or-later
//
// Centralised noise-free solvers for the reference optimum x*, F* of a static problem:
// Newton's method with a backtracking line search (when ∇²F is available) and L-BFGS.
// solveReference (problem.h) picks closed form, then Newton, then L-BFGS.
//
// Both line searches accept a step by the Armijo condition F(x + tp) ≤ F(x) + 1e-4·t·∇Fᵀp, or,
// once F no longer changes above rounding (|ΔF| ≤ 1e-12·max(1, |F|)), by a decrease of ‖∇F‖:
// this lets them reach ‖∇F‖ ≤ 1e-10, where F itself is flat to machine precision.
//
// Threading: pure functions of a const Problem.
#pragma once

#include "dplab/problem/problem.h"

namespace dplab {

struct SolverOptions {
    /** Stop when ‖∇F(x)‖ ≤ tolerance. Default: 1e-10. */
    double tolerance = 1e-10;
    /** Iteration limit; 0 = the method's default (Newton 200, L-BFGS 20000). */
    int maxIterations = 0;
    /** L-BFGS history length m. Default: 10. */
    int memory = 10;
};

/** Newton's method from x0: solves ∇²F p = −∇F (Cholesky; a diagonal shift is added when ∇²F
 *  is not positive definite), then backtracks. Error (Internal) when the tolerance is not
 *  reached within the iteration limit or the problem has no Hessian. Cost per iteration: one
 *  Hessian, one d×d Cholesky, a few F evaluations. */
Result<Reference> solveNewton(const Problem &problem, const Eigen::VectorXd &x0,
                              const SolverOptions &options = {});

/** L-BFGS from x0 with the two-loop recursion (initial scaling sᵀy/yᵀy), memory m, and a
 *  backtracking line search; pairs with sᵀy ≤ 1e-12‖s‖‖y‖ are skipped. Error (Internal) when the
 *  tolerance is not reached within the iteration limit. Cost per iteration: O(m·d) plus F and
 *  ∇F evaluations. */
Result<Reference> solveLbfgs(const Problem &problem, const Eigen::VectorXd &x0,
                             const SolverOptions &options = {});

} // namespace dplab
