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

/** Rows are taken eight at a time: eight dot products (one four-lane accumulator each, so eight
 *  independent chains), the eight logistic weights as two vectors, then the eight rows added to
 *  the gradient while they are still in L1. A group of fewer than eight rows points the missing
 *  rows at its first row and ignores their results. The group size changes only the schedule,
 *  not a result: each row's dot product, each gradient coordinate's sum (rows in order) and the
 *  loss (rows in order) are the same operations in the same order for any group size. */
constexpr int Group = 8;

template <bool WantGrad, bool WantLoss, bool WantCorrect>
DPLAB_SIMD_INLINE LogisticPass passBody(const double *X, const double *y, std::ptrdiff_t rows,
                                        std::ptrdiff_t cols, const double *theta, double scale,
                                        double *grad)
{
    LogisticPass out;
    const std::ptrdiff_t vcols = cols & ~std::ptrdiff_t(3);
    for (std::ptrdiff_t k0 = 0; k0 < rows; k0 += Group) {
        const int present = static_cast<int>(std::min<std::ptrdiff_t>(Group, rows - k0));
        const double *a[Group];
        double label[Group];
        for (int r = 0; r < Group; ++r) {
            const int row = r < present ? r : 0;
            a[r] = X + (k0 + row) * cols;
            label[r] = y[k0 + row];
        }
        V4d acc[Group];
        for (int r = 0; r < Group; ++r)
            acc[r] = simd::splat(0.0);
        for (std::ptrdiff_t j = 0; j < vcols; j += 4) {
            const V4d t = simd::load(theta + j);
            for (int r = 0; r < Group; ++r)
                acc[r] += simd::load(a[r] + j) * t;
        }
        double z[Group];
        for (int r = 0; r < Group; ++r)
            z[r] = simd::sum(acc[r]);
        for (std::ptrdiff_t j = vcols; j < cols; ++j)
            for (int r = 0; r < Group; ++r)
                z[r] += a[r][j] * theta[j];
        if constexpr (WantCorrect) {
            for (int r = 0; r < present; ++r)
                out.correct += (z[r] >= 0.0 ? 1.0 : -1.0) == label[r];
        }
        double c[Group];
        for (int h = 0; h < Group; h += 4) {
            const V4d yv = simd::load(label + h);
            const V4d u = -(yv * simd::load(z + h));            // −y z
            const V4d e = simd::expNonPositive(-simd::abs(u)); // e^{−|u|}
            if constexpr (WantLoss) {
                // softplus(u) = max(u, 0) + log1p(e^{−|u|}), added in row order
                const V4d l = (u > 0.0 ? u : simd::splat(0.0)) + simd::log1pUnit(e);
                for (int r = h; r < std::min(present, h + 4); ++r)
                    out.loss += l[r - h];
            }
            if constexpr (WantGrad) {
                const V4d s = (u >= 0.0 ? simd::splat(1.0) : e) / (1.0 + e); // σ(u) = σ(−y z)
                simd::store(c + h, -(yv * s) * scale);
            }
        }
        if constexpr (WantGrad) {
            if (present == Group) {
                V4d cv[Group];
                for (int r = 0; r < Group; ++r)
                    cv[r] = simd::splat(c[r]);
                for (std::ptrdiff_t j = 0; j < vcols; j += 4) {
                    V4d g = simd::load(grad + j);
                    for (int r = 0; r < Group; ++r)
                        g += cv[r] * simd::load(a[r] + j);
                    simd::store(grad + j, g);
                }
                for (std::ptrdiff_t j = vcols; j < cols; ++j) {
                    double g = grad[j];
                    for (int r = 0; r < Group; ++r)
                        g += c[r] * a[r][j];
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
