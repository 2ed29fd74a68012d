// SPDX-License-Identifier: GPL-3.0-or-later
//
// Four- and eight-lane double vectors (GCC vector extensions) and the elementwise functions the
// hot kernels need (e^x for x ≤ 0, ln x, log1p on [0, 1]), written with +, −, ×, ÷ and bit
// operations only. Every lane is an independent sequence of correctly rounded IEEE operations, so
// a function compiled for SSE2 (a vector split into 128-bit halves), for AVX2 (256-bit registers)
// and for AVX-512 (512-bit registers) gives the same bits lane by lane, provided the file is
// compiled without FMA contraction (-ffp-contract=off: core/CMakeLists.txt) — which is what lets
// the kernels choose the instruction set at run time by CPU and still give the same numbers on
// every x86-64 machine (README "Determinism"). Accuracy: about one ulp (fdlibm's e_exp.c and
// e_log.c polynomials).
//
// Every function here is always_inline: a caller compiled with __attribute__((target("avx2")))
// (or DPLAB_TARGET_AVX512) gets those instructions, a default caller the SSE2 ones, from the same
// source.
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <cstring>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace dplab::simd {

/** The instruction sets the dispatched kernels are compiled for, in increasing order. */
enum class Isa { Sse2, Avx2, Avx512 };

/** True when this CPU (and its OS) can run the AVX2 versions. */
bool cpuHasAvx2();

/** True when this CPU (and its OS) can run the AVX-512 versions (AVX-512 F, DQ, BW and VL). */
bool cpuHasAvx512();

/** The highest level, at most `wanted`, that this CPU can run: what a kernel asked for `wanted`
 *  runs. */
Isa usableIsa(Isa wanted);

/** The version the dispatched kernels use: the highest level the CPU has, unless the environment
 *  variable DPLAB_KERNELS=avx2 or =sse2 caps it at that level (for benchmarks and checks: it
 *  cannot change a result). Computed once, thread-safely. */
Isa activeIsa();

/** "SSE2", "AVX2" or "AVX-512" (for messages). */
const char *isaName(Isa isa);

/** The target attribute of the AVX-512 compilations (GCC: with 512-bit vectors for the loops it
 *  vectorises itself, the noise transform's; clang has no such attribute). */
#if defined(__clang__)
#define DPLAB_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl")))
#else
#define DPLAB_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,prefer-vector-width=512")))
#endif

typedef double V4d __attribute__((vector_size(32), aligned(8)));
typedef std::uint64_t V4u __attribute__((vector_size(32), aligned(8)));
typedef std::int64_t V4i __attribute__((vector_size(32), aligned(8)));
typedef double V8d __attribute__((vector_size(64), aligned(8)));
typedef std::uint64_t V8u __attribute__((vector_size(64), aligned(8)));
typedef std::int64_t V8i __attribute__((vector_size(64), aligned(8)));

#define DPLAB_SIMD_INLINE inline __attribute__((always_inline))

/** A vector D (V4d, V8d) from p[0 .. lanes) (unaligned). */
template <class D>
DPLAB_SIMD_INLINE D loadAs(const double *p)
{
    D v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

DPLAB_SIMD_INLINE V4d load(const double *p)
{
    return loadAs<V4d>(p);
}

/** p[0 .. lanes) = v (unaligned; V4d or V8d). */
template <class D>
DPLAB_SIMD_INLINE void store(double *p, D v)
{
    std::memcpy(p, &v, sizeof v);
}

DPLAB_SIMD_INLINE V4d splat(double x)
{
    return V4d{x, x, x, x};
}

/** x in every lane of a D (V4d or V8d): a broadcast of lane 0, no arithmetic (+0 + x would turn
 *  −0 into +0). */
template <class D>
DPLAB_SIMD_INLINE D splatAs(double x)
{
    const D v{x};
    if constexpr (sizeof(D) == 8 * sizeof(double))
        return __builtin_shufflevector(v, v, 0, 0, 0, 0, 0, 0, 0, 0);
    else
        return __builtin_shufflevector(v, v, 0, 0, 0, 0);
}

DPLAB_SIMD_INLINE V4u bits(V4d x)
{
    return reinterpret_cast<V4u>(x);
}

DPLAB_SIMD_INLINE V4d fromBits(V4u u)
{
    return reinterpret_cast<V4d>(u);
}

DPLAB_SIMD_INLINE V8u bits(V8d x)
{
    return reinterpret_cast<V8u>(x);
}

DPLAB_SIMD_INLINE V8d fromBits(V8u u)
{
    return reinterpret_cast<V8d>(u);
}

/** The eight lanes of lo (0–3) and hi (4–7) as one vector (no arithmetic). */
DPLAB_SIMD_INLINE V8d concat(V4d lo, V4d hi)
{
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

/** The scalar twins of bits/fromBits, so that a kernel written once (logPositive) serves one
 *  lane as well as four. */
DPLAB_SIMD_INLINE std::uint64_t bits(double x)
{
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

DPLAB_SIMD_INLINE double fromBits(std::uint64_t u)
{
    double x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

template <class D>
DPLAB_SIMD_INLINE D abs(D x)
{
    return fromBits(bits(x) & 0x7fffffffffffffffULL);
}

/** e^x for x ≤ 0 (NaN stays NaN; below −746 the result is 0), fdlibm's e_exp.c: x = k ln2 + r,
 *  |r| ≤ ln2/2, k by rounding to nearest (the 1.5·2^52 trick, exact), e^r by its rational
 *  approximation, then 2^k applied as two powers of two so that subnormal results are rounded once
 *  and correctly. Lane by lane the same for D = V4d and V8d. */
template <class D>
DPLAB_SIMD_INLINE D expNonPositive(D x)
{
    using I = decltype(x < x);    // the lanes as signed integers (V4i, V8i)
    using U = decltype(bits(x)); // and unsigned (V4u, V8u)
    constexpr double Ln2Hi = 6.93147180369123816490e-01;
    constexpr double Ln2Lo = 1.90821492927058770002e-10;
    constexpr double InvLn2 = 1.44269504088896338700e+00;
    constexpr double P1 = 1.66666666666666019037e-01;
    constexpr double P2 = -2.77777777770155933842e-03;
    constexpr double P3 = 6.61375632143793436117e-05;
    constexpr double P4 = -1.65339022054652515390e-06;
    constexpr double P5 = 4.13813679705723846039e-08;
    constexpr double Shift = 6755399441055744.0; // 1.5·2^52
    x = x < -746.0 ? splatAs<D>(-746.0) : x;     // NaN compares false and stays
    const D t = x * InvLn2 + Shift;
    const D kd = t - Shift;
    const I k = reinterpret_cast<I>(bits(t) - bits(splatAs<D>(Shift)));
    const D hi = x - kd * Ln2Hi; // exact: Ln2Hi has 32 trailing zero bits, |k| ≤ 1077
    const D lo = kd * Ln2Lo;
    const D r = hi - lo;
    const D rr = r * r;
    const D c = r - rr * (P1 + rr * (P2 + rr * (P3 + rr * (P4 + rr * P5))));
    const D y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    const I k1 = k >> 1; // arithmetic shift: both halves ≥ −539, normal powers of two
    const I k2 = k - k1;
    // Below −746 the product rounds to +0 (e^{−746} < 2^{−1075}): give that +0 through a zero
    // factor, so that saturated lanes (diverging runs, margins of thousands) do not underflow in
    // every multiplication, which costs a microcode assist per operation on some CPUs.
    const U saturated = reinterpret_cast<U>(x <= -746.0);
    const D s1 = fromBits(reinterpret_cast<U>((k1 + 1023) << 52) & ~saturated);
    const D s2 = fromBits(reinterpret_cast<U>((k2 + 1023) << 52));
    return (y * s1) * s2;
}

/** ln x for positive normal x (fdlibm's e_log.c without its branches: x = 2^k m,
 *  m ∈ [√½, √2), ln x = k ln2 + 2 atanh(f/(2 + f)), f = m − 1), for one lane (double: the noise
 *  transform, privacy/noisestream.cpp) or four or eight (V4d, V8d: the kernels) with the same
 *  arithmetic. */
template <class D>
DPLAB_SIMD_INLINE D logPositive(D x)
{
    constexpr double Ln2Hi = 6.93147180369123816490e-01;
    constexpr double Ln2Lo = 1.90821492927058770002e-10;
    constexpr double Lg1 = 6.666666666666735130e-01;
    constexpr double Lg2 = 3.999999999940941908e-01;
    constexpr double Lg3 = 2.857142874366239149e-01;
    constexpr double Lg4 = 2.222219843214978396e-01;
    constexpr double Lg5 = 1.818357216161805012e-01;
    constexpr double Lg6 = 1.531383769920937332e-01;
    constexpr double Lg7 = 1.479819860511658591e-01;
    const auto b = bits(x);
    // The normalisation without branches: i = 2^52 when the mantissa is above ≈ √2, then
    // m = mantissa / 2 (exponent field 0x3fe instead of 0x3ff) and k + 1.
    const auto mantissa = b & 0x000fffffffffffffULL;
    const auto i = (mantissa + 0x00095f6400000000ULL) & 0x0010000000000000ULL;
    const D m = fromBits(mantissa | (i ^ 0x3ff0000000000000ULL));
    // Exponent (+1) as a double, exactly: 2^52 + e (magic-number conversion), minus 2^52 + 1023.
    const D k = fromBits(0x4330000000000000ULL | ((b >> 52) + (i >> 52))) - (4503599627370496.0 + 1023.0);
    const D f = m - 1.0;
    const D s = f / (2.0 + f);
    const D z = s * s;
    const D w = z * z;
    const D t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    const D t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    const D R = t2 + t1;
    const D hfsq = 0.5 * f * f;
    return k * Ln2Hi - ((hfsq - (s * (hfsq + R) + k * Ln2Lo)) - f);
}

/** log1p(e) for e ∈ [0, 1]: with u = fl(1 + e), ln u + (e − (u − 1))/u (u − 1 is exact; the
 *  second term corrects the rounding of 1 + e). D = V4d or V8d. */
template <class D>
DPLAB_SIMD_INLINE D log1pUnit(D e)
{
    const D u = 1.0 + e;
    return logPositive(u) + (e - (u - 1.0)) / u;
}

/** Σ of the four lanes in a fixed order: (v0 + v1) + (v2 + v3). */
DPLAB_SIMD_INLINE double sum(V4d v)
{
    return (v[0] + v[1]) + (v[2] + v[3]);
}

} // namespace dplab::simd

#pragma GCC diagnostic pop
