// SPDX-License-Identifier: GPL-3.0-or-later
//
// NoiseStream: counter-based Laplace / Gaussian blocks (see rng.h for the transform).
// Everything here is plain double and 64-bit integer arithmetic without branches or calls in the
// element loops, so the compiler vectorises them; this file is compiled with
// -ffp-contract=off -fno-math-errno (core/CMakeLists.txt) so that no build contracts a*b+c into an FMA and the
// numbers are the same on every machine and vector width.
#include "dplab/privacy/rng.h"

#include "dplab/common/simd.h"
#include "dplab/privacy/noisekernels.h"

#include <bit>
#include <cmath>
#include <algorithm>
#include <cstring>
#include <vector>

namespace dplab {

namespace {

constexpr std::uint64_t Gamma = 0x9e3779b97f4a7c15ULL;
constexpr std::uint64_t BlockConstant = 0x632be59bd9b4e019ULL;

[[gnu::always_inline]] inline std::uint64_t mix(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

[[gnu::always_inline]] inline std::uint64_t blockState(std::uint64_t key, std::uint64_t t)
{
    return mix(key ^ (t * Gamma + BlockConstant));
}

[[gnu::always_inline]] inline double fromBits(std::uint64_t u)
{
    return std::bit_cast<double>(u);
}

[[gnu::always_inline]] inline std::uint64_t toBits(double x)
{
    return std::bit_cast<std::uint64_t>(x);
}

/** (⌊r / 2^12⌋ + ½)·2^-52: [1, 2) from the top 52 bits, minus (1 − 2^-53) — exact (Sterbenz). */
[[gnu::always_inline]] inline double openUniform(std::uint64_t r)
{
    return fromBits((r >> 12) | 0x3ff0000000000000ULL) - (1.0 - 0x1.0p-53);
}

// fdlibm k_sin.c / k_cos.c
constexpr double S1 = -1.66666666666666324348e-01;
constexpr double S2 = 8.33333333332248946124e-03;
constexpr double S3 = -1.98412698298579493134e-04;
constexpr double S4 = 2.75573137070700676789e-06;
constexpr double S5 = -2.50507602534068634195e-08;
constexpr double S6 = 1.58969099521155010221e-10;
constexpr double C1 = 4.16666666666666019037e-02;
constexpr double C2 = -1.38888888888741095749e-03;
constexpr double C3 = 2.48015872894767294178e-05;
constexpr double C4 = -2.75573143513906633035e-07;
constexpr double C5 = 2.08757232129817482790e-09;
constexpr double C6 = -1.13596475577881948265e-11;

[[gnu::always_inline]] inline double sinKernel(double x)
{
    const double z = x * x;
    const double v = z * x;
    const double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    return x + v * (S1 + z * r);
}

[[gnu::always_inline]] inline double cosKernel(double x)
{
    const double z = x * x;
    const double r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    const double hz = 0.5 * z;
    const double w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + z * r);
}

} // namespace

double noiseLog(double x)
{
    return simd::logPositive(x);
}

double noiseSin(double phi)
{
    return sinKernel(phi);
}

double noiseCos(double phi)
{
    return cosKernel(phi);
}

void NoiseStream::raw(std::uint64_t t, std::uint64_t *out, std::size_t size) const
{
    const std::uint64_t base = blockState(mKey, t);
    for (std::size_t j = 0; j < size; ++j)
        out[j] = mix(base + (j + 1) * Gamma);
}

namespace {

/** The raw words r_j, j < size, of block t: the integer pass (64-bit multiplies), kept apart from
 *  the floating-point pass, which the compiler vectorises. */
[[gnu::always_inline]] inline void fillRaw(std::uint64_t key, std::uint64_t t, std::uint64_t *raw, std::size_t size)
{
    const std::uint64_t base = blockState(key, t);
    for (std::size_t j = 0; j < size; ++j)
        raw[j] = mix(base + (j + 1) * Gamma);
}

[[gnu::always_inline]] inline void laplaceBody(const std::uint64_t *raw, double b, double *out, std::size_t size)
{
    for (std::size_t e = 0; e < size; ++e) {
        const std::uint64_t r = raw[e];
        const double magnitude = b * -simd::logPositive(openUniform(r)); // > 0: v < 1
        out[e] = fromBits(toBits(magnitude) ^ (r << 63));
    }
}

[[gnu::always_inline]] inline void gaussianBody(const std::uint64_t *raw, double sigma, double *out, std::size_t size)
{
    constexpr double HalfPi = 1.57079632679489661923;
    auto pair = [&](std::size_t j, double &even, double &odd) __attribute__((always_inline)) {
        const std::uint64_t r1 = raw[2 * j];
        const std::uint64_t r2 = raw[2 * j + 1];
        const double radius = sigma * std::sqrt(-2.0 * simd::logPositive(openUniform(r1)));
        const double f = fromBits(((r2 << 2) >> 12) | 0x3ff0000000000000ULL) - 1.0; // [0, 1)
        const double phi = (f - 0.5) * HalfPi;
        const double c = cosKernel(phi);
        const double s = sinKernel(phi);
        // θ = qπ/2 + φ, q = 2·b1 + b0 (the top two bits of r2): rotating (cos φ, sin φ) by q
        // quarter turns gives q=0 (c, s), 1 (−s, c), 2 (−c, −s), 3 (s, −c): swap when b0, negate
        // the cosine when b0 ⊕ b1 and the sine when b1 — as bit operations (no branches).
        const std::uint64_t b1 = r2 >> 63, b0 = (r2 >> 62) & 1;
        const std::uint64_t swap = 0 - b0; // all ones when b0
        const std::uint64_t cb = toBits(c), sb = toBits(s);
        const double cosTheta = fromBits(((cb & ~swap) | (sb & swap)) ^ ((b0 ^ b1) << 63));
        const double sinTheta = fromBits(((sb & ~swap) | (cb & swap)) ^ (b1 << 63));
        even = radius * cosTheta;
        odd = radius * sinTheta;
    };
    const std::size_t full = size / 2;
    for (std::size_t j = 0; j < full; ++j)
        pair(j, out[2 * j], out[2 * j + 1]);
    if (size % 2 == 1) {
        double unused;
        pair(full, out[size - 1], unused);
    }
}

// One source, three compilations, chosen at run time by CPU (dplab/common/simd.h): every operation
// above is a correctly rounded IEEE operation or an integer one, element by element, and this
// file is compiled without FMA contraction, so the SSE2, the AVX2 and the AVX-512 versions give
// the same bits (tests/core/noise_test.cpp compares them).
void fillRawSse2(std::uint64_t key, std::uint64_t t, std::uint64_t *raw, std::size_t size)
{
    fillRaw(key, t, raw, size);
}
void laplaceSse2(const std::uint64_t *raw, double b, double *out, std::size_t size)
{
    laplaceBody(raw, b, out, size);
}
void gaussianSse2(const std::uint64_t *raw, double sigma, double *out, std::size_t size)
{
    gaussianBody(raw, sigma, out, size);
}
__attribute__((target("avx2"))) void fillRawAvx2(std::uint64_t key, std::uint64_t t, std::uint64_t *raw, std::size_t size)
{
    fillRaw(key, t, raw, size);
}
__attribute__((target("avx2"))) void laplaceAvx2(const std::uint64_t *raw, double b, double *out, std::size_t size)
{
    laplaceBody(raw, b, out, size);
}
__attribute__((target("avx2"))) void gaussianAvx2(const std::uint64_t *raw, double sigma, double *out, std::size_t size)
{
    gaussianBody(raw, sigma, out, size);
}
DPLAB_TARGET_AVX512 void fillRawAvx512(std::uint64_t key, std::uint64_t t, std::uint64_t *raw, std::size_t size)
{
    fillRaw(key, t, raw, size);
}
DPLAB_TARGET_AVX512 void laplaceAvx512(const std::uint64_t *raw, double b, double *out, std::size_t size)
{
    laplaceBody(raw, b, out, size);
}
DPLAB_TARGET_AVX512 void gaussianAvx512(const std::uint64_t *raw, double sigma, double *out, std::size_t size)
{
    gaussianBody(raw, sigma, out, size);
}

std::uint64_t *rawWords(std::uint64_t key, std::uint64_t t, std::size_t size, simd::Isa isa)
{
    thread_local std::vector<std::uint64_t> buffer;
    if (buffer.size() < size)
        buffer.resize(std::max<std::size_t>(size, 2 * buffer.size()));
    std::uint64_t *raw = buffer.data();
    switch (isa) {
    case simd::Isa::Avx512: fillRawAvx512(key, t, raw, size); break;
    case simd::Isa::Avx2: fillRawAvx2(key, t, raw, size); break;
    default: fillRawSse2(key, t, raw, size); break;
    }
    return raw;
}

/** A kernel turning raw words into `size` numbers of the given scale. */
using Transform = void (*)(const std::uint64_t *raw, double scale, double *out, std::size_t size);

/** The versions of one transform, by instruction set. */
struct Transforms {
    Transform sse2, avx2, avx512;
};

/** Block t of the stream `key` as `size` numbers of the given scale: zeros (no words drawn) when
 *  the scale is 0, otherwise `words` raw words through the kernel of the highest usable level up
 *  to `isa`. */
void transformBlock(std::uint64_t key, std::uint64_t t, double scale, double *out, std::size_t size,
                    std::size_t words, simd::Isa isa, const Transforms &kernels)
{
    if (scale == 0.0) {
        std::memset(out, 0, size * sizeof(double));
        return;
    }
    isa = simd::usableIsa(isa);
    const std::uint64_t *raw = rawWords(key, t, words, isa);
    const Transform kernel = isa == simd::Isa::Avx512 ? kernels.avx512
                             : isa == simd::Isa::Avx2 ? kernels.avx2
                                                      : kernels.sse2;
    kernel(raw, scale, out, size);
}

} // namespace

void NoiseStream::laplace(std::uint64_t t, double b, double *out, std::size_t size) const
{
    noiseLaplace(mKey, t, b, out, size, simd::activeIsa());
}

void noiseLaplace(std::uint64_t key, std::uint64_t t, double b, double *out, std::size_t size, simd::Isa isa)
{
    transformBlock(key, t, b, out, size, size, isa, {laplaceSse2, laplaceAvx2, laplaceAvx512});
}

void NoiseStream::gaussian(std::uint64_t t, double sigma, double *out, std::size_t size) const
{
    noiseGaussian(mKey, t, sigma, out, size, simd::activeIsa());
}

void noiseGaussian(std::uint64_t key, std::uint64_t t, double sigma, double *out, std::size_t size, simd::Isa isa)
{
    // Box–Muller: two words per pair of numbers.
    transformBlock(key, t, sigma, out, size, 2 * ((size + 1) / 2), isa, {gaussianSse2, gaussianAvx2, gaussianAvx512});
}

} // namespace dplab
