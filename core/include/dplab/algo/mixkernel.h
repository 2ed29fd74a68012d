// SPDX-License-Identifier: GPL-3.0-or-later
//
// The sparse mixing kernel behind Mixer::mix for sparse graphs:
//     out(i, c) = (Σ_k W_i,col_k · sent(col_k, c)) + diag_i · own(i, c)
// with the off-diagonal part of W in compressed row storage. It gives the same bytes as Eigen's
// sparse × dense product followed by `out += diag.asDiagonal() * own` (the code it replaces): each
// output element is summed over its row's non-zeros in increasing column order, starting from +0,
// then the diagonal term is added last. Only the schedule differs: Eigen takes one output column
// at a time, each element one chain of dependent additions over values gathered from a column;
// here `sent` is first copied into rows (a thread-local buffer that grows to the largest n × d
// and is then reused), and sixteen columns share a pass over a row's non-zeros, sixteen
// independent chains fed by contiguous four-lane loads.
//
// Same bits on every x86-64 machine, like dplab/problem/kernels.h: one source compiled for SSE2
// and for target("avx2"), no FMA contraction (core/CMakeLists.txt), chosen at run time by CPU
// (`simd::activeIsa`; DPLAB_KERNELS=sse2 forces SSE2; AVX-512 runs the AVX2 version).
// tests/core/mixkernel_test.cpp compares the versions and Eigen's product byte for byte.
// Mixer::mix calls it on CPUs with AVX2 only: the SSE2 version is no faster than Eigen's scalar
// loop, which gives the same bytes.
//
// Threading: safe from any number of threads (the buffer is per thread); allocates only while
// the buffer grows.
#pragma once

#include "dplab/common/simd.h"

#include <cstddef>

namespace dplab::kernels {

/** A row-compressed n × n matrix (Eigen's compressed SparseMatrix<double, RowMajor>): row i's
 *  non-zeros are value[k], column index[k] for k in [outer[i], outer[i + 1]), columns increasing. */
struct SparseRows {
    std::ptrdiff_t n = 0;
    const int *outer = nullptr;
    const int *index = nullptr;
    const double *value = nullptr;
};

/** A column-major block: element (i, c) at data[i + c · stride]. */
struct ColumnBlock {
    const double *data = nullptr;
    std::ptrdiff_t stride = 0;
};

/** out(i, c) = (0 + Σ_k value_k · sent(index_k, c)) + diag[i] · own(i, c) for i < w.n, c < cols,
 *  the sum over row i's non-zeros in storage order. out (column-major, outStride) must not alias
 *  own or sent. */
void sparseMix(const SparseRows &w, const double *diag, ColumnBlock own, ColumnBlock sent, std::ptrdiff_t cols,
               double *out, std::ptrdiff_t outStride, simd::Isa isa = simd::activeIsa());

} // namespace dplab::kernels
