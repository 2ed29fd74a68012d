// SPDX-License-Identifier: GPL-3.0-or-later
//
// NoiseStream's transform with a chosen instruction set. NoiseStream::laplace and ::gaussian use
// simd::activeIsa() (the highest of SSE2, AVX2, AVX-512 the CPU has); the compilations do the same
// operations element by element without FMA contraction and give the same bits
// (tests/core/noise_test.cpp compares them). For tests and benchmarks.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/simd.h"

#include <cstddef>
#include <cstdint>

namespace dplab {

/** NoiseStream(key).laplace(t, b, out, size), computed by the `isa` version (the next lower level
 *  when the CPU lacks it: simd::usableIsa). */
void noiseLaplace(std::uint64_t key, std::uint64_t t, double b, double *out, std::size_t size, simd::Isa isa);
/** NoiseStream(key).gaussian(t, sigma, out, size), computed by the `isa` version. */
void noiseGaussian(std::uint64_t key, std::uint64_t t, double sigma, double *out, std::size_t size, simd::Isa isa);

} // namespace dplab
