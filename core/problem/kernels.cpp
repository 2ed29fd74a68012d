// SPDX-License-Identifier: GPL-3.0-or-later
//
// The fused logistic kernel (dplab/problem/kernels.h). One source, three compilations: the body is
// an always_inline template, instantiated in a default (SSE2) function, a target("avx2") function
// and an AVX-512 one (DPLAB_TARGET_AVX512); this file is compiled with -ffp-contract=off
// (core/CMakeLists.txt), so no version contracts a·b + c and all give the same bits.
#include "dplab/problem/kernels.h"

#include "dplab/common/simd.h"

#include <Eigen/Core>

#include <algorithm>
#include <cstring>

#pragma GCC diagnostic ignored "-Wpsabi"

namespace dplab::kernels {

namespace {

using simd::V4d;
using simd::V8d;

/** One call's arguments (logisticPass), for the two schedules below. */
struct PassArgs {
    const double *X, *y;
    std::ptrdiff_t rows, cols;
    const double *theta;
    double scale;
    double *grad;
};

/** acc[r] lane l = Σ a[r][j]·θ[j] over the columns j ≡ l (mod 4) below vcols, in order (eight
 *  independent chains). */
DPLAB_SIMD_INLINE void accumulate8(const double *const a[8], const double *theta, std::ptrdiff_t vcols, V4d acc[8])
{
    for (int r = 0; r < 8; ++r)
        acc[r] = simd::splat(0.0);
    for (std::ptrdiff_t j = 0; j < vcols; j += 4) {
        const V4d t = simd::load(theta + j);
        for (int r = 0; r < 8; ++r)
            acc[r] += simd::load(a[r] + j) * t;
    }
}

/** The AVX2 schedule (Blocked): rows are taken in blocks of at most MaxBlock rows and about BlockBytes of
 *  features, so that a block stays in L1 between its two passes. First the block's margins and logistic weights, eight
 *  rows at a time: eight dot products (one four-lane accumulator each, eight independent chains),
 *  their lanes summed for four rows at once through a 4 × 4 transposition, the leftover columns,
 *  then e^x and σ on two vectors of four margins. The groups of a block do not depend on each
 *  other, so the long e^x chains of successive groups overlap in the CPU instead of waiting for
 *  the gradient. Then the block's rows are added to the gradient in row order, a chunk of columns
 *  at a time, each chunk's sums held in registers over all the block's rows. The blocking changes
 *  only the schedule, not a result: each row's dot product, each gradient coordinate's sum (rows
 *  in order) and the loss (rows in order) are the same operations in the same order as row by
 *  row. A group of fewer than eight rows points the missing rows at its first row and ignores
 *  their results. */
constexpr std::ptrdiff_t MaxBlock = 128;
constexpr std::ptrdiff_t BlockBytes = 24 * 1024;

inline std::ptrdiff_t blockRows(std::ptrdiff_t cols)
{
    const std::ptrdiff_t fit = BlockBytes / (8 * std::max<std::ptrdiff_t>(cols, 1));
    return std::clamp<std::ptrdiff_t>(fit & ~std::ptrdiff_t(7), 8, MaxBlock);
}

/** out[l] = lane l of v0, v1, v2, v3 (a 4 × 4 transposition: shuffles, no arithmetic). */
DPLAB_SIMD_INLINE void transpose4(V4d v0, V4d v1, V4d v2, V4d v3, V4d out[4])
{
    const V4d t02 = __builtin_shufflevector(v0, v2, 0, 1, 4, 5), t13 = __builtin_shufflevector(v1, v3, 0, 1, 4, 5);
    const V4d u02 = __builtin_shufflevector(v0, v2, 2, 3, 6, 7), u13 = __builtin_shufflevector(v1, v3, 2, 3, 6, 7);
    out[0] = __builtin_shufflevector(t02, t13, 0, 4, 2, 6);
    out[1] = __builtin_shufflevector(t02, t13, 1, 5, 3, 7);
    out[2] = __builtin_shufflevector(u02, u13, 0, 4, 2, 6);
    out[3] = __builtin_shufflevector(u02, u13, 1, 5, 3, 7);
}

/** The lane sums (l0 + l1) + (l2 + l3) of four accumulators, for the four at once. */
DPLAB_SIMD_INLINE V4d laneSums(V4d acc0, V4d acc1, V4d acc2, V4d acc3)
{
    V4d lane[4];
    transpose4(acc0, acc1, acc2, acc3, lane);
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

/** The margins x_r·θ of eight rows as two vectors (rows 0–3, 4–7): lane l of row r's accumulator
 *  sums the columns j ≡ l (mod 4) in order (eight independent chains); the lanes are summed as
 *  (l0 + l1) + (l2 + l3) (laneSums); then the leftover columns are added in order. */
DPLAB_SIMD_INLINE void margins8(const double *const a[8], const double *theta, std::ptrdiff_t vcols,
                                std::ptrdiff_t cols, V4d z[2])
{
    V4d acc[8];
    accumulate8(a, theta, vcols, acc);
    z[0] = laneSums(acc[0], acc[1], acc[2], acc[3]);
    z[1] = laneSums(acc[4], acc[5], acc[6], acc[7]);
    for (std::ptrdiff_t j = vcols; j < cols; ++j) {
        z[0] += V4d{a[0][j], a[1][j], a[2][j], a[3][j]} * theta[j];
        z[1] += V4d{a[4][j], a[5][j], a[6][j], a[7][j]} * theta[j];
    }
}

/** The SSE2 schedule's margins of eight rows (two vectors): each row's lanes summed as
 *  (l0 + l1) + (l2 + l3) one row at a time, then the leftover columns (the same operations as
 *  margins8; on SSE2 the 4 × 4 transposition costs more than it saves). */
DPLAB_SIMD_INLINE void marginsRows8(const double *const a[8], const double *theta, std::ptrdiff_t vcols,
                                    std::ptrdiff_t cols, V4d z[2])
{
    V4d acc[8];
    accumulate8(a, theta, vcols, acc);
    double sum[8];
    for (int r = 0; r < 8; ++r)
        sum[r] = simd::sum(acc[r]);
    for (std::ptrdiff_t j = vcols; j < cols; ++j)
        for (int r = 0; r < 8; ++r)
            sum[r] += a[r][j] * theta[j];
    z[0] = simd::load(sum);
    z[1] = simd::load(sum + 4);
}

/** The SSE2 schedule's gradient update: grad += Σ c[r] x_r over the group's `present` rows in
 *  order, one vector of columns at a time (a single sum in registers). */
DPLAB_SIMD_INLINE void addGroupRows(const double *const a[8], int present, const double *c, std::ptrdiff_t vcols,
                                    std::ptrdiff_t cols, double *grad)
{
    if (present == 8) {
        V4d cv[8];
        for (int r = 0; r < 8; ++r)
            cv[r] = simd::splat(c[r]);
        for (std::ptrdiff_t j = 0; j < vcols; j += 4) {
            V4d g = simd::load(grad + j);
            for (int r = 0; r < 8; ++r)
                g += cv[r] * simd::load(a[r] + j);
            simd::store(grad + j, g);
        }
        for (std::ptrdiff_t j = vcols; j < cols; ++j) {
            double g = grad[j];
            for (int r = 0; r < 8; ++r)
                g += c[r] * a[r][j];
            grad[j] = g;
        }
        return;
    }
    for (int r = 0; r < present; ++r) {
        const V4d cr = simd::splat(c[r]);
        for (std::ptrdiff_t j = 0; j < vcols; j += 4)
            simd::store(grad + j, simd::load(grad + j) + cr * simd::load(a[r] + j));
        for (std::ptrdiff_t j = vcols; j < cols; ++j)
            grad[j] += c[r] * a[r][j];
    }
}

/** grad[j0, j0 + W NV) (W = 4 or 8 lanes of D), with Half the next four columns, and with Tail the
 *  last cols mod 4 columns (through the row's last four columns, whose other lanes are dropped)
 *  += Σ_r c[r] x_r, rows r < rows in order: each coordinate its own chain, whatever the width. */
template <class D, int NV, bool Half, bool Tail>
DPLAB_SIMD_INLINE void addRowsChunk(const double *X, std::ptrdiff_t cols, std::ptrdiff_t rows, const double *c,
                                    std::ptrdiff_t j0, double *grad)
{
    constexpr int W = sizeof(D) / sizeof(double);
    D g[NV > 0 ? NV : 1];
    for (int v = 0; v < NV; ++v)
        g[v] = simd::loadAs<D>(grad + j0 + W * v);
    const std::ptrdiff_t jh = j0 + W * NV;
    V4d half = Half ? simd::load(grad + jh) : simd::splat(0.0);
    V4d tail = Tail ? simd::load(grad + cols - 4) : simd::splat(0.0);
    const double *a = X;
    for (std::ptrdiff_t r = 0; r < rows; ++r, a += cols) {
        const D cr = simd::splatAs<D>(c[r]);
        for (int v = 0; v < NV; ++v)
            g[v] += cr * simd::loadAs<D>(a + j0 + W * v);
        if constexpr (Half)
            half += simd::splat(c[r]) * simd::load(a + jh);
        if constexpr (Tail)
            tail += simd::splat(c[r]) * simd::load(a + cols - 4);
    }
    for (int v = 0; v < NV; ++v)
        simd::store(grad + j0 + W * v, g[v]);
    if constexpr (Half)
        simd::store(grad + jh, half);
    if constexpr (Tail)
        for (std::ptrdiff_t l = 4 - (cols & 3); l < 4; ++l)
            grad[cols - 4 + l] = tail[l];
}

/** The last chunk: NV (< MaxNV) vectors of columns, then four columns more when `half`, then the
 *  tail when there is one. */
template <class D, int MaxNV, int NV = 0>
DPLAB_SIMD_INLINE void addRowsLast(int nv, bool half, const double *X, std::ptrdiff_t cols, std::ptrdiff_t rows,
                                   const double *c, std::ptrdiff_t j0, double *grad)
{
    if constexpr (NV < MaxNV) {
        if (nv != NV)
            return addRowsLast<D, MaxNV, NV + 1>(nv, half, X, cols, rows, c, j0, grad);
        const bool tail = (cols & 3) != 0;
        if (half && tail)
            addRowsChunk<D, NV, true, true>(X, cols, rows, c, j0, grad);
        else if (half)
            addRowsChunk<D, NV, true, false>(X, cols, rows, c, j0, grad);
        else if (tail)
            addRowsChunk<D, NV, false, true>(X, cols, rows, c, j0, grad);
        else
            addRowsChunk<D, NV, false, false>(X, cols, rows, c, j0, grad);
    }
}

/** grad += Σ_r c[r] x_r over rows r < rows in order (each coordinate its own chain), in chunks of
 *  MaxNV vectors D of columns. */
template <class D, int MaxNV>
DPLAB_SIMD_INLINE void addRowsBody(const double *X, std::ptrdiff_t cols, std::ptrdiff_t rows, const double *c,
                                   double *grad)
{
    if (cols < 4) {
        for (std::ptrdiff_t j = 0; j < cols; ++j) {
            double g = grad[j];
            for (std::ptrdiff_t r = 0; r < rows; ++r)
                g += c[r] * X[r * cols + j];
            grad[j] = g;
        }
        return;
    }
    constexpr std::ptrdiff_t W = sizeof(D) / sizeof(double);
    const std::ptrdiff_t vcols = cols & ~std::ptrdiff_t(3);
    std::ptrdiff_t j0 = 0;
    for (; vcols - j0 >= W * MaxNV; j0 += W * MaxNV)
        addRowsChunk<D, MaxNV, false, false>(X, cols, rows, c, j0, grad);
    addRowsLast<D, MaxNV>(static_cast<int>((vcols - j0) / W), (vcols - j0) % W != 0, X, cols, rows, c, j0, grad);
}

__attribute__((target("avx2"))) void addRowsAvx2(const double *X, std::ptrdiff_t cols, std::ptrdiff_t rows,
                                                 const double *c, double *grad)
{
    addRowsBody<V4d, 8>(X, cols, rows, c, grad);
}

DPLAB_TARGET_AVX512 void addRowsAvx512(const double *X, std::ptrdiff_t cols, std::ptrdiff_t rows, const double *c,
                                       double *grad)
{
    addRowsBody<V8d, 8>(X, cols, rows, c, grad);
}

/** The logistic weights of `lanes` rows (a vector D of four or eight margins z, labels yv):
 *  the correct signs and the loss added to out in row order, the gradient's coefficients
 *  −y σ(−y z) · scale stored to c. Lane by lane the same operations for D = V4d and V8d. */
template <class D, bool WantGrad, bool WantLoss, bool WantCorrect>
DPLAB_SIMD_INLINE void weights(D z, D yv, int lanes, double scale, LogisticPass &out, double *c)
{
    if constexpr (WantCorrect) {
        for (int r = 0; r < lanes; ++r)
            out.correct += (z[r] >= 0.0 ? 1.0 : -1.0) == yv[r];
    }
    const D u = -(yv * z);                             // −y z
    const D e = simd::expNonPositive(-simd::abs(u)); // e^{−|u|}
    if constexpr (WantLoss) {
        // softplus(u) = max(u, 0) + log1p(e^{−|u|}), added in row order
        const D l = (u > 0.0 ? u : simd::splatAs<D>(0.0)) + simd::log1pUnit(e);
        for (int r = 0; r < lanes; ++r)
            out.loss += l[r];
    }
    if constexpr (WantGrad) {
        const D s = (u >= 0.0 ? simd::splatAs<D>(1.0) : e) / (1.0 + e); // σ(u) = σ(−y z)
        simd::store(c, -(yv * s) * scale);
    }
}

/** The three schedules. Blocked (AVX2, AVX-512) takes blocks of rows: the margins (margins8) and
 *  the logistic weights of each group of eight rows, then the block's gradient (addRowsAvx2 /
 *  addRowsAvx512). Wide (AVX-512) first computes the margins of the whole block, then its weights
 *  eight rows a vector — iterations that do not depend on each other, so the CPU overlaps their
 *  e^x and σ chains (with AVX2 that split gained nothing: docs/benchmarks.md, fifth pass).
 *  Otherwise (SSE2) a block is one group of eight rows: margins, weights and gradient in turn. */
template <bool Blocked, bool Wide, bool WantGrad, bool WantLoss, bool WantCorrect>
DPLAB_SIMD_INLINE LogisticPass passBody(const PassArgs &args)
{
    const auto [X, y, rows, cols, theta, scale, grad] = args;
    LogisticPass out;
    const std::ptrdiff_t vcols = cols & ~std::ptrdiff_t(3);
    const std::ptrdiff_t block = Blocked ? blockRows(cols) : 8;
    double c[MaxBlock], zs[MaxBlock], ys[MaxBlock]; // a block's coefficients, margins and labels
    for (std::ptrdiff_t b0 = 0; b0 < rows; b0 += block) {
        const std::ptrdiff_t inBlock = std::min(block, rows - b0);
        for (std::ptrdiff_t g0 = 0; g0 < inBlock; g0 += 8) {
            const std::ptrdiff_t k = b0 + g0;
            const int present = static_cast<int>(std::min<std::ptrdiff_t>(8, inBlock - g0));
            const double *a[8];
            double label[8];
            for (int r = 0; r < 8; ++r) {
                a[r] = X + (k + (r < present ? r : 0)) * cols;
                label[r] = y[k + (r < present ? r : 0)];
            }
            V4d z[2];
            if constexpr (Blocked)
                margins8(a, theta, vcols, cols, z);
            else
                marginsRows8(a, theta, vcols, cols, z);
            if constexpr (Wide) {
                simd::store(zs + g0, z[0]);
                simd::store(zs + g0 + 4, z[1]);
                std::memcpy(ys + g0, label, sizeof label);
                continue;
            }
            for (int h = 0; h < 2; ++h) {
                const V4d yv = present == 8 ? simd::load(y + k + 4 * h) : simd::load(label + 4 * h);
                weights<V4d, WantGrad, WantLoss, WantCorrect>(z[h], yv, std::clamp(present - 4 * h, 0, 4), scale,
                                                              out, c + g0 + 4 * h);
            }
            if constexpr (!Blocked && WantGrad)
                addGroupRows(a, present, c, vcols, cols, grad);
        }
        if constexpr (Wide) {
            // The weights of the whole block, eight rows a vector: the iterations do not depend on
            // each other, so the CPU overlaps their e^x and σ chains.
            for (std::ptrdiff_t g = 0; g < inBlock; g += 8) {
                weights<V8d, WantGrad, WantLoss, WantCorrect>(simd::loadAs<V8d>(zs + g), simd::loadAs<V8d>(ys + g),
                                                              static_cast<int>(std::min<std::ptrdiff_t>(8, inBlock - g)),
                                                              scale, out, c + g);
            }
        }
        if constexpr (Blocked && WantGrad) {
            if constexpr (Wide)
                addRowsAvx512(X + b0 * cols, cols, inBlock, c, grad);
            else
                addRowsAvx2(X + b0 * cols, cols, inBlock, c, grad);
        }
    }
    return out;
}

/** The eight instantiations of passBody for a schedule behind one switch. */
#define DPLAB_LOGISTIC_DISPATCH(BLOCKED, WIDE)                                                     \
    const PassArgs args{X, y, rows, cols, theta, scale, grad};                                     \
    const int key = (grad ? 4 : 0) | (wantLoss ? 2 : 0) | (wantCorrect ? 1 : 0);                   \
    switch (key) {                                                                                 \
    case 0: return passBody<BLOCKED, WIDE, false, false, false>(args);                             \
    case 1: return passBody<BLOCKED, WIDE, false, false, true>(args);                              \
    case 2: return passBody<BLOCKED, WIDE, false, true, false>(args);                              \
    case 3: return passBody<BLOCKED, WIDE, false, true, true>(args);                               \
    case 4: return passBody<BLOCKED, WIDE, true, false, false>(args);                              \
    case 5: return passBody<BLOCKED, WIDE, true, false, true>(args);                               \
    case 6: return passBody<BLOCKED, WIDE, true, true, false>(args);                               \
    default: return passBody<BLOCKED, WIDE, true, true, true>(args);                               \
    }

LogisticPass passSse2(const double *X, const double *y, std::ptrdiff_t rows, std::ptrdiff_t cols,
                      const double *theta, double scale, double *grad, bool wantLoss, bool wantCorrect)
{
    DPLAB_LOGISTIC_DISPATCH(false, false)
}

__attribute__((target("avx2"))) LogisticPass passAvx2(const double *X, const double *y, std::ptrdiff_t rows,
                                                      std::ptrdiff_t cols, const double *theta, double scale,
                                                      double *grad, bool wantLoss, bool wantCorrect)
{
    DPLAB_LOGISTIC_DISPATCH(true, false)
}

DPLAB_TARGET_AVX512 LogisticPass passAvx512(const double *X, const double *y, std::ptrdiff_t rows,
                                            std::ptrdiff_t cols, const double *theta, double scale, double *grad,
                                            bool wantLoss, bool wantCorrect)
{
    DPLAB_LOGISTIC_DISPATCH(true, true)
}

#undef DPLAB_LOGISTIC_DISPATCH

/** Whole vectors D of four or eight lanes, then the last elements through a zero-padded vector
 *  (the same per-lane arithmetic). */
template <class D, typename F>
DPLAB_SIMD_INLINE void elementwise(const double *in, double *out, std::ptrdiff_t size, F f)
{
    constexpr std::ptrdiff_t W = sizeof(D) / sizeof(double);
    std::ptrdiff_t k = 0;
    for (; k + W <= size; k += W)
        simd::store(out + k, f(simd::loadAs<D>(in + k)));
    if (k < size) {
        double pad[W] = {};
        for (std::ptrdiff_t j = k; j < size; ++j)
            pad[j - k] = in[j];
        const D r = f(simd::loadAs<D>(pad));
        for (std::ptrdiff_t j = k; j < size; ++j)
            out[j] = r[j - k];
    }
}

/** e^{−|z|} and log1p elementwise, D wide. */
template <class D>
DPLAB_SIMD_INLINE void expMinusAbsBody(const double *z, double *e, std::ptrdiff_t size)
{
    elementwise<D>(z, e, size, [](D v) __attribute__((always_inline)) { return simd::expNonPositive(-simd::abs(v)); });
}

template <class D>
DPLAB_SIMD_INLINE void log1pBody(double *e, std::ptrdiff_t size)
{
    elementwise<D>(e, e, size, [](D v) __attribute__((always_inline)) { return simd::log1pUnit(v); });
}

void expMinusAbsSse2(const double *z, double *e, std::ptrdiff_t size)
{
    expMinusAbsBody<V4d>(z, e, size);
}

__attribute__((target("avx2"))) void expMinusAbsAvx2(const double *z, double *e, std::ptrdiff_t size)
{
    expMinusAbsBody<V4d>(z, e, size);
}

DPLAB_TARGET_AVX512 void expMinusAbsAvx512(const double *z, double *e, std::ptrdiff_t size)
{
    expMinusAbsBody<V8d>(z, e, size);
}

void log1pSse2(double *e, std::ptrdiff_t size)
{
    log1pBody<V4d>(e, size);
}

__attribute__((target("avx2"))) void log1pAvx2(double *e, std::ptrdiff_t size)
{
    log1pBody<V4d>(e, size);
}

DPLAB_TARGET_AVX512 void log1pAvx512(double *e, std::ptrdiff_t size)
{
    log1pBody<V8d>(e, size);
}

// --- products in Eigen's order --------------------------------------------------------------

typedef double V2d __attribute__((vector_size(16), aligned(8)));

/** Elements of a product block: for one row (D = double) or two adjacent rows (D = V2d, one per
 *  lane) of A starting at a (column stride lda), the terms a_kk·b_kk summed from +0 in order of
 *  kk, or (Split) the even kk below peeledK in one sum and the odd ones in another, the two added,
 *  then the kk from peeledK on; the result +0 + sum (productInEigenOrder). */
template <bool Split, class D>
DPLAB_SIMD_INLINE D productRows(const double *a, std::ptrdiff_t lda, const double *b, std::ptrdiff_t k,
                                std::ptrdiff_t peeledK)
{
    const auto at = [&](std::ptrdiff_t kk) {
        D v;
        std::memcpy(&v, a + kk * lda, sizeof v);
        return v;
    };
    D sum = D{} + 0.0, odd = sum; // +0 in every lane
    std::ptrdiff_t kk = 0;
    if constexpr (Split) {
        for (; kk < peeledK; kk += 2) {
            sum += at(kk) * b[kk];
            odd += at(kk + 1) * b[kk + 1];
        }
        sum += odd;
    }
    for (; kk < k; ++kk)
        sum += at(kk) * b[kk];
    return 0.0 + sum;
}

/** Rows [i, i + 4 NV) of four columns (b[col], out[col]) as NV vectors each: sums from +0 in
 *  order of kk, then +0 + sum. */
template <int NV>
DPLAB_SIMD_INLINE void productVectors(const double *A, std::ptrdiff_t lda, const double *const b[4],
                                      std::ptrdiff_t k, double *const out[4], int columns, std::ptrdiff_t i)
{
    V4d acc[4][NV];
    for (int col = 0; col < 4; ++col)
        for (int v = 0; v < NV; ++v)
            acc[col][v] = simd::splat(0.0);
    for (std::ptrdiff_t kk = 0; kk < k; ++kk) {
        V4d a[NV];
        for (int v = 0; v < NV; ++v)
            a[v] = simd::load(A + kk * lda + i + 4 * v);
        for (int col = 0; col < 4; ++col)
            for (int v = 0; v < NV; ++v)
                acc[col][v] += a[v] * b[col][kk];
    }
    for (int col = 0; col < columns; ++col)
        for (int v = 0; v < NV; ++v)
            simd::store(out[col] + i + 4 * v, 0.0 + acc[col][v]);
}

/** C = A·B, column-major, in the order of Eigen's blocked product for SSE2 (see
 *  productInEigenOrder): row blocks of mc, column blocks of nc; in a block of `rows` rows the
 *  first rows/4·4 are Eigen's two-packet rows (one sum per element), the next up to rows/2·2 its
 *  one-packet rows (split sums in the block's first cols/4·4 columns), the last one its scalar
 *  row. */
DPLAB_SIMD_INLINE void productBody(const double *A, std::ptrdiff_t lda, const double *B, std::ptrdiff_t ldb,
                                   double *C, std::ptrdiff_t ldc, std::ptrdiff_t m, std::ptrdiff_t k,
                                   std::ptrdiff_t n, std::ptrdiff_t mc, std::ptrdiff_t nc)
{
    const std::ptrdiff_t peeledK = k & ~std::ptrdiff_t(7);
    for (std::ptrdiff_t i2 = 0; i2 < m; i2 += mc) {
        const std::ptrdiff_t rows = std::min(mc, m - i2);
        const std::ptrdiff_t twoPacket = i2 + rows / 4 * 4, onePacket = i2 + rows / 2 * 2, end = i2 + rows;
        for (std::ptrdiff_t j2 = 0; j2 < n; j2 += nc) {
            const std::ptrdiff_t cols = std::min(nc, n - j2), panels = j2 + cols / 4 * 4;
            for (std::ptrdiff_t c0 = j2; c0 < j2 + cols; c0 += 4) {
                const int columns = static_cast<int>(std::min<std::ptrdiff_t>(4, j2 + cols - c0));
                const double *b[4];
                double *out[4];
                for (int col = 0; col < 4; ++col) {
                    const std::ptrdiff_t c = c0 + (col < columns ? col : 0);
                    b[col] = B + c * ldb;
                    out[col] = C + c * ldc;
                }
                std::ptrdiff_t i = i2;
                for (; i + 8 <= twoPacket; i += 8)
                    productVectors<2>(A, lda, b, k, out, columns, i);
                if (i < twoPacket)
                    productVectors<1>(A, lda, b, k, out, columns, i);
                for (int col = 0; col < columns && onePacket > twoPacket; ++col) {
                    const V2d pair = c0 + col < panels
                                         ? productRows<true, V2d>(A + twoPacket, lda, b[col], k, peeledK)
                                         : productRows<false, V2d>(A + twoPacket, lda, b[col], k, peeledK);
                    std::memcpy(out[col] + twoPacket, &pair, sizeof pair);
                }
                for (int col = 0; col < columns && end > onePacket; ++col)
                    out[col][onePacket] = productRows<false, double>(A + onePacket, lda, b[col], k, peeledK);
            }
        }
    }
}

void productSse2(const double *A, std::ptrdiff_t lda, const double *B, std::ptrdiff_t ldb, double *C,
                 std::ptrdiff_t ldc, std::ptrdiff_t m, std::ptrdiff_t k, std::ptrdiff_t n, std::ptrdiff_t mc,
                 std::ptrdiff_t nc)
{
    productBody(A, lda, B, ldb, C, ldc, m, k, n, mc, nc);
}

__attribute__((target("avx2"))) void productAvx2(const double *A, std::ptrdiff_t lda, const double *B,
                                                 std::ptrdiff_t ldb, double *C, std::ptrdiff_t ldc, std::ptrdiff_t m,
                                                 std::ptrdiff_t k, std::ptrdiff_t n, std::ptrdiff_t mc,
                                                 std::ptrdiff_t nc)
{
    productBody(A, lda, B, ldb, C, ldc, m, k, n, mc, nc);
}

} // namespace

LogisticPass logisticPass(const double *X, const double *y, std::ptrdiff_t rows, std::ptrdiff_t cols,
                          const double *theta, double scale, double *grad, bool wantLoss,
                          bool wantCorrect, Isa isa)
{
    switch (simd::usableIsa(isa)) {
    case Isa::Avx512: return passAvx512(X, y, rows, cols, theta, scale, grad, wantLoss, wantCorrect);
    case Isa::Avx2: return passAvx2(X, y, rows, cols, theta, scale, grad, wantLoss, wantCorrect);
    default: return passSse2(X, y, rows, cols, theta, scale, grad, wantLoss, wantCorrect);
    }
}

} // namespace dplab::kernels

namespace dplab::kernels {

void expMinusAbs(const double *z, double *e, std::ptrdiff_t size, Isa isa)
{
    switch (simd::usableIsa(isa)) {
    case Isa::Avx512: expMinusAbsAvx512(z, e, size); break;
    case Isa::Avx2: expMinusAbsAvx2(z, e, size); break;
    default: expMinusAbsSse2(z, e, size); break;
    }
}

void log1pUnitInPlace(double *e, std::ptrdiff_t size, Isa isa)
{
    switch (simd::usableIsa(isa)) {
    case Isa::Avx512: log1pAvx512(e, size); break;
    case Isa::Avx2: log1pAvx2(e, size); break;
    default: log1pSse2(e, size); break;
    }
}

bool productInEigenOrder(const double *A, std::ptrdiff_t lda, const double *B, std::ptrdiff_t ldb, double *C,
                         std::ptrdiff_t ldc, std::ptrdiff_t m, std::ptrdiff_t k, std::ptrdiff_t n, Isa isa)
{
    // Eigen's own choice: a coefficient-based product below 20, a matrix-vector product for one
    // row or column, else the blocked product with its cache-dependent block sizes.
    if (m < 2 || n < 2 || k < 1 || k + m + n < 20)
        return false;
    Eigen::Index kc = k, mc = m, nc = n;
    Eigen::internal::computeProductBlockingSizes<double, double, 1, Eigen::Index>(kc, mc, nc, 1);
    if (kc < k)
        return false; // several passes over the depth: not modelled
    if (simd::usableIsa(isa) != Isa::Sse2) // AVX-512 runs the AVX2 version (the same bits)
        productAvx2(A, lda, B, ldb, C, ldc, m, k, n, mc, nc);
    else
        productSse2(A, lda, B, ldb, C, ldc, m, k, n, mc, nc);
    return true;
}

} // namespace dplab::kernels
