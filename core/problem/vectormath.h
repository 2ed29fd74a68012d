// SPDX-License-Identifier: GPL-3.0-or-later
//
// Elementwise logistic functions shared by the logistic objectives (core/problem), on whole
// blocks so that they vectorise where that pays. Eigen 3.4 vectorises exp and log for doubles but
// not log1p or select; measured on the development machine, Eigen's packet exp costs 2.5 ns with
// AVX2 and 7.9 ns with SSE2 against libm's 9.6–11 ns, and on diverging runs (margins of
// thousands, results near the subnormal range) the SSE2 version was slower than libm. So the
// AVX2 build (DPLAB_NATIVE=ON on such a machine) uses Eigen's packets and the portable build
// libm, element by element. Nothing overflows: only e^{−|z|} ∈ (0, 1] is ever formed.
//
// Threading: pure functions.
#pragma once

#include <Eigen/Core>

#include <cmath>

namespace dplab::vectormath {

/** log1p(e) for e ∈ [0, 1]: with u = fl(1 + e), log(u) + (e − (u − 1))/u is log1p(e) to about an
 *  ulp (u − 1 is exact for u ∈ [1, 2], and the second term corrects the rounding of 1 + e); for
 *  e below half an ulp of 1 it gives 0 + e/1 = e. */
template <typename Array>
auto log1pSmall(const Array &e)
{
    const auto u = 1.0 + e;
    return u.log() + (e - (u - 1.0)) / u;
}

/** e ← e^{−|z|} (e must not alias z). */
inline void expMinusAbs(const Eigen::Ref<const Eigen::ArrayXd> &z, Eigen::Ref<Eigen::ArrayXd> e)
{
#if defined(__AVX2__)
    e = (-z.abs()).exp();
#else
    for (Eigen::Index k = 0; k < z.size(); ++k)
        e[k] = std::exp(-std::abs(z[k]));
#endif
}

/** e ← log1p(e) for e ∈ [0, 1]. */
inline void log1pInPlace(Eigen::Ref<Eigen::ArrayXd> e)
{
#if defined(__AVX2__)
    e = log1pSmall(e);
#else
    for (Eigen::Index k = 0; k < e.size(); ++k)
        e[k] = std::log1p(e[k]);
#endif
}

/** s ← σ(z) = 1/(1 + e^{−z}) and e ← e^{−|z|}, elementwise (s and e must not alias z):
 *  σ = (z ≥ 0 ? 1 : e)/(1 + e), a loop the compiler vectorises with a blend. */
inline void sigmoid(const Eigen::Ref<const Eigen::ArrayXd> &z, Eigen::Ref<Eigen::ArrayXd> s,
                    Eigen::Ref<Eigen::ArrayXd> e)
{
    expMinusAbs(z, e);
    const Eigen::Index n = z.size();
    const double *zp = z.data();
    const double *ep = e.data();
    double *sp = s.data();
    for (Eigen::Index k = 0; k < n; ++k)
        sp[k] = (zp[k] >= 0.0 ? 1.0 : ep[k]) / (1.0 + ep[k]);
}

/** z ← softplus(z) = log(1 + e^z) = max(z, 0) + log1p(e^{−|z|}); e is scratch of z's size. */
inline void softplusInPlace(Eigen::Ref<Eigen::ArrayXd> z, Eigen::Ref<Eigen::ArrayXd> e)
{
    expMinusAbs(z, e);
    log1pInPlace(e);
    z = z.max(0.0) + e;
}

/** σ(z) = 1/(1 + e^{−z}) of one number, without overflow (σ(−z) = 1 − σ(z) is sigmoid(−z)). */
inline double sigmoid(double z)
{
    if (z >= 0)
        return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

} // namespace dplab::vectormath
