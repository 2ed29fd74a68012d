// SPDX-License-Identifier: GPL-3.0-or-later
//
// The sparse mixing kernel (dplab/algo/mixkernel.h). One source, two compilations: the body is an
// always_inline template, instantiated in a default (SSE2) function and in a target("avx2")
// function; this file is compiled with -ffp-contract=off (core/CMakeLists.txt), so neither
// version contracts a·b + c and both give the same bits as Eigen's scalar loop.
#include "dplab/algo/mixkernel.h"

#include <algorithm>
#include <vector>

#pragma GCC diagnostic ignored "-Wpsabi"

namespace dplab::kernels {

namespace {

using simd::V4d;

/** Columns per pass over the sparse rows: four vectors of four lanes, held in registers (eight
 *  halves under SSE2, four registers under AVX2). */
constexpr int ChunkVectors = 4;

/** One pass over the rows for the columns c0 .. c0 + 4·Vectors − 1 (lanes past `cols` are
 *  computed on the zero padding of `rows` and not stored). Each lane is its own chain, in
 *  Eigen's order: +0, plus each non-zero's product in storage order, then plus diag_i · own(i, c).
 *  `rows` is sent transposed: row j at rows + j·pitch, contiguous. */
template <int Vectors>
DPLAB_SIMD_INLINE void mixChunk(const SparseRows &w, const double *diag, ColumnBlock own, const double *rows,
                                std::ptrdiff_t pitch, std::ptrdiff_t c0, std::ptrdiff_t cols, double *out,
                                std::ptrdiff_t outStride)
{
    const int lanes = static_cast<int>(std::min<std::ptrdiff_t>(4 * Vectors, cols - c0));
    for (std::ptrdiff_t i = 0; i < w.n; ++i) {
        V4d acc[Vectors];
        for (int v = 0; v < Vectors; ++v)
            acc[v] = simd::splat(0.0);
        for (int k = w.outer[i]; k < w.outer[i + 1]; ++k) {
            const V4d a = simd::splat(w.value[k]);
            const double *x = rows + w.index[k] * pitch + c0;
            for (int v = 0; v < Vectors; ++v)
                acc[v] += a * simd::load(x + 4 * v);
        }
        const V4d d = simd::splat(diag[i]);
        if (lanes == 4 * Vectors) {
            for (int v = 0; v < Vectors; ++v) {
                const double *o = own.data + i + (c0 + 4 * v) * own.stride;
                const V4d r = acc[v] + d * V4d{o[0], o[own.stride], o[2 * own.stride], o[3 * own.stride]};
                double *x = out + i + (c0 + 4 * v) * outStride;
                x[0] = r[0];
                x[outStride] = r[1];
                x[2 * outStride] = r[2];
                x[3 * outStride] = r[3];
            }
            continue;
        }
        double mixed[4 * Vectors], ownRow[4 * Vectors] = {};
        for (int l = 0; l < lanes; ++l)
            ownRow[l] = own.data[i + (c0 + l) * own.stride];
        for (int v = 0; v < Vectors; ++v)
            simd::store(mixed + 4 * v, acc[v] + d * simd::load(ownRow + 4 * v));
        for (int l = 0; l < lanes; ++l)
            out[i + (c0 + l) * outStride] = mixed[l];
    }
}

/** sent (n × cols, column-major) into rows of `pitch` doubles (cols rounded up to four, the
 *  padding zero), so that the columns of a chunk are one contiguous load per vector. */
DPLAB_SIMD_INLINE void transpose(ColumnBlock sent, std::ptrdiff_t n, std::ptrdiff_t cols, double *rows,
                                 std::ptrdiff_t pitch)
{
    // Row by row: the writes are contiguous, the reads take one element from each column, whose
    // cache lines stay in L1 for the next rows.
    for (std::ptrdiff_t j = 0; j < n; ++j) {
        double *row = rows + j * pitch;
        for (std::ptrdiff_t c = 0; c < cols; ++c)
            row[c] = sent.data[j + c * sent.stride];
        for (std::ptrdiff_t c = cols; c < pitch; ++c)
            row[c] = 0.0;
    }
}

DPLAB_SIMD_INLINE void mixBody(const SparseRows &w, const double *diag, ColumnBlock own, ColumnBlock sent,
                               std::ptrdiff_t cols, double *out, std::ptrdiff_t outStride)
{
    const std::ptrdiff_t pitch = (cols + 3) & ~std::ptrdiff_t(3);
    thread_local std::vector<double> rows; // grows to the largest n × pitch, then is reused
    if (rows.size() < static_cast<std::size_t>(w.n * pitch))
        rows.resize(static_cast<std::size_t>(w.n * pitch));
    transpose(sent, w.n, cols, rows.data(), pitch);
    for (std::ptrdiff_t c0 = 0; c0 < cols; c0 += 4 * ChunkVectors) {
        switch (std::min<std::ptrdiff_t>(ChunkVectors, (cols - c0 + 3) / 4)) {
        case 1: mixChunk<1>(w, diag, own, rows.data(), pitch, c0, cols, out, outStride); break;
        case 2: mixChunk<2>(w, diag, own, rows.data(), pitch, c0, cols, out, outStride); break;
        case 3: mixChunk<3>(w, diag, own, rows.data(), pitch, c0, cols, out, outStride); break;
        default: mixChunk<ChunkVectors>(w, diag, own, rows.data(), pitch, c0, cols, out, outStride); break;
        }
    }
}

void mixSse2(const SparseRows &w, const double *diag, ColumnBlock own, ColumnBlock sent, std::ptrdiff_t cols,
             double *out, std::ptrdiff_t outStride)
{
    mixBody(w, diag, own, sent, cols, out, outStride);
}

__attribute__((target("avx2"))) void mixAvx2(const SparseRows &w, const double *diag, ColumnBlock own,
                                             ColumnBlock sent, std::ptrdiff_t cols, double *out,
                                             std::ptrdiff_t outStride)
{
    mixBody(w, diag, own, sent, cols, out, outStride);
}

} // namespace

void sparseMix(const SparseRows &w, const double *diag, ColumnBlock own, ColumnBlock sent, std::ptrdiff_t cols,
               double *out, std::ptrdiff_t outStride, simd::Isa isa)
{
    if (simd::usableIsa(isa) != simd::Isa::Sse2) // AVX-512 runs the AVX2 version (the same bits)
        mixAvx2(w, diag, own, sent, cols, out, outStride);
    else
        mixSse2(w, diag, own, sent, cols, out, outStride);
}

} // namespace dplab::kernels
