// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/rng.h"

#include <cmath>
#include <numbers>

namespace dplab {

std::uint64_t splitmix64(std::uint64_t &state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

namespace {

std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

} // namespace

Rng::Rng(std::uint64_t seed)
{
    std::uint64_t state = seed;
    for (auto &word : mS)
        word = splitmix64(state);
}

std::uint64_t streamKey(std::uint64_t seed, std::uint64_t run, std::uint64_t repetition, std::int64_t agent,
                        RngPurpose purpose)
{
    // Hash the key tuple by feeding each part through splitmix64 in turn.
    std::uint64_t state = seed;
    std::uint64_t h = splitmix64(state);
    for (std::uint64_t part : {run, repetition, static_cast<std::uint64_t>(agent),
                               static_cast<std::uint64_t>(purpose)}) {
        state = h ^ (part + 0x632be59bd9b4e019ULL);
        h = splitmix64(state);
    }
    return h;
}

Rng Rng::stream(std::uint64_t seed, std::uint64_t run, std::uint64_t repetition,
                std::int64_t agent, RngPurpose purpose)
{
    return Rng(streamKey(seed, run, repetition, agent, purpose));
}

NoiseStream NoiseStream::stream(std::uint64_t seed, std::uint64_t run, std::uint64_t repetition,
                                std::int64_t agent, RngPurpose purpose)
{
    return NoiseStream(streamKey(seed, run, repetition, agent, purpose));
}

std::uint64_t Rng::next()
{
    const std::uint64_t result = rotl(mS[1] * 5, 7) * 9;
    const std::uint64_t t = mS[1] << 17;
    mS[2] ^= mS[0];
    mS[3] ^= mS[1];
    mS[1] ^= mS[2];
    mS[0] ^= mS[3];
    mS[2] ^= t;
    mS[3] = rotl(mS[3], 45);
    return result;
}

double Rng::uniform01()
{
    // 53 random bits, shifted by half an ulp so that 0 is never returned.
    return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53;
}

double Rng::uniform(double a, double b)
{
    return a + (b - a) * ((static_cast<double>(next() >> 11)) * 0x1.0p-53);
}

std::uint64_t Rng::below(std::uint64_t n)
{
    const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % n);
    std::uint64_t x;
    do {
        x = next();
    } while (x >= limit);
    return x % n;
}

double Rng::gaussian()
{
    if (mHasSpare) {
        mHasSpare = false;
        return mSpare;
    }
    const double u1 = uniform01();
    const double u2 = uniform01();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * std::numbers::pi * u2;
    mSpare = r * std::sin(angle);
    mHasSpare = true;
    return r * std::cos(angle);
}

double Rng::laplace(double b)
{
    // Inverse CDF on u ∈ (-1/2, 1/2): x = -b sgn(u) ln(1 - 2|u|).
    const double u = uniform01() - 0.5;
    if (b == 0.0)
        return 0.0;
    return u < 0 ? b * std::log1p(2.0 * u) : -b * std::log1p(-2.0 * u);
}

void Rng::fillLaplace(Eigen::Ref<Eigen::VectorXd> v, double b)
{
    for (Eigen::Index i = 0; i < v.size(); ++i)
        v[i] = laplace(b);
}

void Rng::fillGaussian(Eigen::Ref<Eigen::VectorXd> v, double sigma)
{
    for (Eigen::Index i = 0; i < v.size(); ++i)
        v[i] = sigma * gaussian();
}

} // namespace dplab
