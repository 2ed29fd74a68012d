// SPDX-License-Identifier: GPL-3.0-or-later
//
// The fused logistic kernel: one pass over a block of samples (rows of a row-major matrix) that
// computes the margins, the logistic weights, the loss and the gradient while each block of rows
// is in cache (L1), so the features are read once per evaluation instead of twice (X θ, then Xᵀ s).
//
// Same bits on every x86-64 machine: the kernel is compiled three times from one source, for SSE2
// (the x86-64 baseline), for AVX2 and for AVX-512, and chosen at run time by CPU
// (`simd::activeIsa`). All versions do the same correctly rounded operations in the same order — a
// fixed order of accumulation (four lanes of four-wide vectors, summed as (l0 + l1) + (l2 + l3),
// then the leftover columns in order), no FMA contraction, e^x and ln x written with basic
// operations (dplab/common/simd.h), only the elementwise work eight lanes wide under AVX-512 — so
// they give identical bytes (tests/core/kernels_test.cpp compares them). The environment variable
// DPLAB_KERNELS=avx2 or =sse2 caps the level (for benchmarks; it cannot change a result).
//
// Threading: pure functions.
#pragma once

#include "dplab/common/simd.h"

#include <cstddef>

namespace dplab::kernels {

using simd::Isa;
using simd::activeIsa;
using simd::cpuHasAvx2;

struct LogisticPass {
    double loss = 0.0;      ///< Σ_k log(1 + e^{−y_k z_k}) (when asked)
    std::ptrdiff_t correct = 0; ///< #{k : sign(z_k) = y_k}, sign(0) = +1 (when asked)
};

/** One pass over rows X[k·cols .. k·cols + cols), k < rows (row-major, contiguous), labels y_k = ±1,
 *  margins z_k = x_k·theta:
 *    - loss (wantLoss): Σ_k softplus(−y_k z_k), summed in row order;
 *    - correct (wantCorrect): the rows with (z_k ≥ 0 ? 1 : −1) = y_k;
 *    - grad (non-null): grad += Σ_k (−y_k σ(−y_k z_k) · scale) x_k, added row by row in order
 *      (grad must hold cols entries; the caller zeroes it).
 *  The dot products sum columns j ≡ l (mod 4) in lane l, the lanes as (l0 + l1) + (l2 + l3), then
 *  the cols mod 4 leftover columns in order. */
LogisticPass logisticPass(const double *X, const double *y, std::ptrdiff_t rows, std::ptrdiff_t cols,
                          const double *theta, double scale, double *grad, bool wantLoss,
                          bool wantCorrect, Isa isa = activeIsa());

/** C = A·B for column-major A (m × k, column stride lda), B (k × n, ldb) and C (m × n, ldc), with
 *  the bits of Eigen's `C.noalias() = A * B` in the portable build (SSE2, no FMA): Eigen's blocked
 *  product sums each element from +0 in order of k, except its one-packet rows (in a block of r
 *  rows the rows from r/4·4 below r/2·2) in full panels of four columns, which sum the even and
 *  the odd k below k − k mod 8 apart, add the two, then the rest; every result is then +0 + sum.
 *  Row and column blocks are Eigen's own (internal::computeProductBlockingSizes). Returns false,
 *  leaving C alone, where Eigen takes another path (k + m + n < 20, one row or column, or a
 *  depth split into several passes): the caller then uses Eigen. Vectorised over four rows of C,
 *  SSE2 or AVX2 with the same bits (tests/core/kernels_test.cpp compares both with Eigen); AVX-512
 *  runs the AVX2 version. */
bool productInEigenOrder(const double *A, std::ptrdiff_t lda, const double *B, std::ptrdiff_t ldb, double *C,
                         std::ptrdiff_t ldc, std::ptrdiff_t m, std::ptrdiff_t k, std::ptrdiff_t n,
                         Isa isa = activeIsa());

/** e[k] = e^{−|z[k]|}, k < size (dplab/common/simd.h's exp; e must not alias z). */
void expMinusAbs(const double *z, double *e, std::ptrdiff_t size, Isa isa = activeIsa());

/** e[k] = log1p(e[k]) for e[k] ∈ [0, 1], k < size. */
void log1pUnitInPlace(double *e, std::ptrdiff_t size, Isa isa = activeIsa());

} // namespace dplab::kernels
