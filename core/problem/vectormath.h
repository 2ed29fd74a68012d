// SPDX-License-Identifier: GPL-3.0-or-later
//
// Elementwise logistic functions shared by the logistic objectives (core/problem), on whole
// blocks. e^{−|z|} and log1p come from the dispatched kernels (dplab/problem/kernels.h: fdlibm's
// polynomials written with basic operations, SSE2 or AVX2 by CPU, the same bits either way and in
// the -DDPLAB_NATIVE=ON build), about 1–2 ns an element with AVX2 against libm's 10 ns.
// Nothing overflows: only e^{−|z|} ∈ (0, 1] is ever formed.
//
// Threading: pure functions.
#pragma once

#include "dplab/problem/kernels.h"

#include <Eigen/Core>

namespace dplab::vectormath {

/** e ← e^{−|z|} (e must not alias z). */
inline void expMinusAbs(const Eigen::Ref<const Eigen::ArrayXd> &z, Eigen::Ref<Eigen::ArrayXd> e)
{
    kernels::expMinusAbs(z.data(), e.data(), z.size());
}

/** e ← log1p(e) for e ∈ [0, 1]. */
inline void log1pInPlace(Eigen::Ref<Eigen::ArrayXd> e)
{
    kernels::log1pUnitInPlace(e.data(), e.size());
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

} // namespace dplab::vectormath
