// SPDX-License-Identifier: GPL-3.0-or-later
//
// The fused logistic kernel (dplab/problem/kernels.h). One source, two compilations: the body is an
// always_inline template, instantiated in a default (SSE2) function and in a target("avx2")
// function; this file is compiled with -ffp-contract=off (core/CMakeLists.txt), so neither
// version contracts a·b + c and both give the same bits.
#include "dplab/problem/kernels.h"

#include "dplab/common/simd.h"

#include <algorithm>

#pragma GCC diagnostic ignored "-Wpsabi"

namespace dplab::kernels {

namespace {

using simd::V4d;

/** Rows are taken four at a time: four dot products (one four-lane accumulator each, so four
 *  independent chains), the four logistic weights as one vector, then the four rows added to the
 *  gradient while they are still in L1. A group of fewer than four rows points the missing rows at
 *  its first row and ignores their results. */
template <bool WantGrad, bool WantLoss, bool WantCorrect>
DPLAB_SIMD_INLINE LogisticPass passBody(const double *X, const double *y, std::ptrdiff_t rows,
                                        std::ptrdiff_t cols, const double *theta, double scale,
                                        double *grad)
{
    LogisticPass out;
    const std::ptrdiff_t vcols = cols & ~std::ptrdiff_t(3);
    for (std::ptrdiff_t k0 = 0; k0 < rows; k0 += 4) {
        const int present = static_cast<int>(std::min<std::ptrdiff_t>(4, rows - k0));
        const double *a[4];
        double label[4];
        for (int r = 0; r < 4; ++r) {
            const int row = r < present ? r : 0;
            a[r] = X + (k0 + row) * cols;
            label[r] = y[k0 + row];
        }
        V4d acc0 = simd::splat(0.0), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (std::ptrdiff_t j = 0; j < vcols; j += 4) {
            const V4d t = simd::load(theta + j);
            acc0 += simd::load(a[0] + j) * t;
            acc1 += simd::load(a[1] + j) * t;
            acc2 += simd::load(a[2] + j) * t;
            acc3 += simd::load(a[3] + j) * t;
        }
        double z[4] = {simd::sum(acc0), simd::sum(acc1), simd::sum(acc2), simd::sum(acc3)};
        for (std::ptrdiff_t j = vcols; j < cols; ++j)
            for (int r = 0; r < 4; ++r)
                z[r] += a[r][j] * theta[j];
        if constexpr (WantCorrect) {
            for (int r = 0; r < present; ++r)
                out.correct += (z[r] >= 0.0 ? 1.0 : -1.0) == label[r];
        }
        const V4d yv = simd::load(label);
        const V4d u = -(yv * simd::load(z));             // −y z
        const V4d e = simd::expNonPositive(-simd::abs(u)); // e^{−|u|}
        if constexpr (WantLoss) {
            // softplus(u) = max(u, 0) + log1p(e^{−|u|}), added in row order
            const V4d l = (u > 0.0 ? u : simd::splat(0.0)) + simd::log1pUnit(e);
            for (int r = 0; r < present; ++r)
                out.loss += l[r];
        }
        if constexpr (WantGrad) {
            const V4d s = (u >= 0.0 ? simd::splat(1.0) : e) / (1.0 + e); // σ(u) = σ(−y z)
            const V4d c = -(yv * s) * scale;
            if (present == 4) {
                const V4d c0 = simd::splat(c[0]), c1 = simd::splat(c[1]), c2 = simd::splat(c[2]),
                          c3 = simd::splat(c[3]);
                for (std::ptrdiff_t j = 0; j < vcols; j += 4) {
                    V4d g = simd::load(grad + j);
                    g += c0 * simd::load(a[0] + j);
                    g += c1 * simd::load(a[1] + j);
                    g += c2 * simd::load(a[2] + j);
                    g += c3 * simd::load(a[3] + j);
                    simd::store(grad + j, g);
                }
                for (std::ptrdiff_t j = vcols; j < cols; ++j) {
                    double g = grad[j];
                    g += c[0] * a[0][j];
                    g += c[1] * a[1][j];
                    g += c[2] * a[2][j];
                    g += c[3] * a[3][j];
                    grad[j] = g;
                }
            } else {
                for (int r = 0; r < present; ++r) {
                    const V4d cr = simd::splat(c[r]);
                    for (std::ptrdiff_t j = 0; j < vcols; j += 4)
                        simd::store(grad + j, simd::load(grad + j) + cr * simd::load(a[r] + j));
                    for (std::ptrdiff_t j = vcols; j < cols; ++j)
                        grad[j] += c[r] * a[r][j];
                }
            }
        }
    }
    return out;
}

/** The eight instantiations behind one switch; F is the instruction set's copy of passBody. */
#define DPLAB_LOGISTIC_DISPATCH                                                                    \
    const int key = (grad ? 4 : 0) | (wantLoss ? 2 : 0) | (wantCorrect ? 1 : 0);                   \
    switch (key) {                                                                                 \
    case 0: return passBody<false, false, false>(X, y, rows, cols, theta, scale, grad);           \
    case 1: return passBody<false, false, true>(X, y, rows, cols, theta, scale, grad);            \
    case 2: return passBody<false, true, false>(X, y, rows, cols, theta, scale, grad);            \
    case 3: return passBody<false, true, true>(X, y, rows, cols, theta, scale, grad);             \
    case 4: return passBody<true, false, false>(X, y, rows, cols, theta, scale, grad);            \
    case 5: return passBody<true, false, true>(X, y, rows, cols, theta, scale, grad);             \
    case 6: return passBody<true, true, false>(X, y, rows, cols, theta, scale, grad);             \
    default: return passBody<true, true, true>(X, y, rows, cols, theta, scale, grad);             \
    }

LogisticPass passSse2(const double *X, const double *y, std::ptrdiff_t rows, std::ptrdiff_t cols,
                      const double *theta, double scale, double *grad, bool wantLoss, bool wantCorrect)
{
    DPLAB_LOGISTIC_DISPATCH
}

__attribute__((target("avx2"))) LogisticPass passAvx2(const double *X, const double *y, std::ptrdiff_t rows,
                                                      std::ptrdiff_t cols, const double *theta, double scale,
                                                      double *grad, bool wantLoss, bool wantCorrect)
{
    DPLAB_LOGISTIC_DISPATCH
}

#undef DPLAB_LOGISTIC_DISPATCH

/** Whole vectors of four, then the last 1–3 elements through a padded vector (the same
 *  per-lane arithmetic). */
template <typename F>
DPLAB_SIMD_INLINE void elementwise(const double *in, double *out, std::ptrdiff_t size, F f)
{
    std::ptrdiff_t k = 0;
    for (; k + 4 <= size; k += 4)
        simd::store(out + k, f(simd::load(in + k)));
    if (k < size) {
        double pad[4] = {0.0, 0.0, 0.0, 0.0};
        for (std::ptrdiff_t j = k; j < size; ++j)
            pad[j - k] = in[j];
        const V4d r = f(simd::load(pad));
        for (std::ptrdiff_t j = k; j < size; ++j)
            out[j] = r[j - k];
    }
}

void expMinusAbsSse2(const double *z, double *e, std::ptrdiff_t size)
{
    elementwise(z, e, size, [](V4d v) __attribute__((always_inline)) { return simd::expNonPositive(-simd::abs(v)); });
}

__attribute__((target("avx2"))) void expMinusAbsAvx2(const double *z, double *e, std::ptrdiff_t size)
{
    elementwise(z, e, size, [](V4d v) __attribute__((always_inline)) { return simd::expNonPositive(-simd::abs(v)); });
}

void log1pSse2(double *e, std::ptrdiff_t size)
{
    elementwise(e, e, size, [](V4d v) __attribute__((always_inline)) { return simd::log1pUnit(v); });
}

__attribute__((target("avx2"))) void log1pAvx2(double *e, std::ptrdiff_t size)
{
    elementwise(e, e, size, [](V4d v) __attribute__((always_inline)) { return simd::log1pUnit(v); });
}

} // namespace

LogisticPass logisticPass(const double *X, const double *y, std::ptrdiff_t rows, std::ptrdiff_t cols,
                          const double *theta, double scale, double *grad, bool wantLoss,
                          bool wantCorrect, Isa isa)
{
    if (isa == Isa::Avx2 && cpuHasAvx2())
        return passAvx2(X, y, rows, cols, theta, scale, grad, wantLoss, wantCorrect);
    return passSse2(X, y, rows, cols, theta, scale, grad, wantLoss, wantCorrect);
}

} // namespace dplab::kernels

namespace dplab::kernels {

void expMinusAbs(const double *z, double *e, std::ptrdiff_t size, Isa isa)
{
    if (isa == Isa::Avx2 && cpuHasAvx2())
        expMinusAbsAvx2(z, e, size);
    else
        expMinusAbsSse2(z, e, size);
}

void log1pUnitInPlace(double *e, std::ptrdiff_t size, Isa isa)
{
    if (isa == Isa::Avx2 && cpuHasAvx2())
        log1pAvx2(e, size);
    else
        log1pSse2(e, size);
}

} // namespace dplab::kernels
