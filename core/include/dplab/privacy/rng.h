// SPDX-License-Identifier: GPL-3.0-or-later
//
// Deterministic random streams. Every random draw in DPLab comes from a stream derived from
// (experiment seed, run, repetition, agent, purpose), so the same file and seed give the same
// numbers on every machine, at any thread count. The generator is xoshiro256** seeded through
// splitmix64; Laplace and Gaussian draws are computed here from the raw 64-bit output
// (never std::*_distribution, whose results differ between standard libraries).
//
// Threading: an Rng is not thread-safe; give each thread / agent its own stream.
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstdint>

namespace dplab {

/** What a stream is used for; part of the stream key so that purposes never share numbers. */
enum class RngPurpose : std::uint64_t {
    Init = 1,       ///< random initial decisions
    NoiseX = 2,     ///< DP noise on the primal / decision message
    NoiseY = 3,     ///< DP noise on the tracker / dual message
    NoiseZ = 4,     ///< a third noisy message, where an algorithm has one
    Compressor = 5, ///< randomness inside a compressor (dither, rand-k)
    Data = 6,       ///< synthetic data and splits
    Graph = 7,      ///< random graph generators
    Stream = 8,     ///< online data streams (order of samples)
    Other = 9
};

class Rng
{
public:
    /** A generator seeded from one 64-bit value. */
    explicit Rng(std::uint64_t seed = 0);

    /** The stream for (seed, run, repetition, agent, purpose). Agent -1 means "not per agent". */
    static Rng stream(std::uint64_t seed, std::uint64_t run, std::uint64_t repetition,
                      std::int64_t agent, RngPurpose purpose);

    /** Raw 64-bit output of xoshiro256**. */
    std::uint64_t next();
    /** Uniform in the open interval (0, 1), 53 bits. */
    double uniform01();
    /** Uniform in [a, b). */
    double uniform(double a, double b);
    /** Uniform integer in [0, n), unbiased (rejection). REQUIRES: n > 0. */
    std::uint64_t below(std::uint64_t n);
    /** Standard normal (Box–Muller, both values used in turn). */
    double gaussian();
    /** Laplace(0, b): density exp(-|x|/b)/(2b), variance 2b². b = 0 gives 0. */
    double laplace(double b);
    /** Fills v with i.i.d. Laplace(0, b). */
    void fillLaplace(Eigen::Ref<Eigen::VectorXd> v, double b);
    /** Fills v with i.i.d. N(0, sigma²). */
    void fillGaussian(Eigen::Ref<Eigen::VectorXd> v, double sigma);

private:
    std::array<std::uint64_t, 4> mS{};
    double mSpare = 0.0;
    bool mHasSpare = false;
};

/** splitmix64 step: the mixing function used to derive stream keys. */
std::uint64_t splitmix64(std::uint64_t &state);

} // namespace dplab
