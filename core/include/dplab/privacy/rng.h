// SPDX-License-Identifier: GPL-3.0-or-later
//
// Deterministic random streams. Every random draw in DPLab comes from a stream derived from
// (experiment seed, run, repetition, agent, purpose), so the same file and seed give the same
// numbers on every machine, at any thread count. The generator is xoshiro256** seeded through
// splitmix64; Laplace and Gaussian draws are computed here from the raw 64-bit output
// (never std::*_distribution, whose results differ between standard libraries).
//
// Noise (NoiseStream below) is counter-based: the draw for element e of block t of a stream is a
// pure function of (stream key, t, e), computed in blocks by a branch-free transform that the
// compiler vectorises. See NoiseStream for the exact transform.
//
// Threading: an Rng is not thread-safe; give each thread / agent its own stream. NoiseStream is
// immutable (its draws are const), so it may be shared.
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <cstdint>

namespace dplab {

/** What a stream is used for; its value is part of the stream key, so that purposes of
 *  different value never share numbers. */
enum class RngPurpose : std::uint64_t {
    Init = 1, ///< random initial decisions
    // DP noise, named by the role of what it perturbs. Names of equal value are one stream: a
    // channel with the same role draws the same numbers in every algorithm, so that algorithms
    // compared with each other run under common random numbers (LDP-GT's tracker s and
    // push-pull's y; PPDC's dual v and PGTC's tracker y). One algorithm never uses two names of
    // equal value (docs/extending.md, "Noise").
    DecisionNoise = 2,     ///< the decision's message (x, θ, h)
    TreeNoise = 2,         ///< paper 002's tree-aggregation noise (no noisy decision is sent)
    TrackerNoise = 3,      ///< the gradient tracker's message (y, s)
    DualNoise = 3,         ///< PPDC's dual v (never sent)
    BlockSumNoise = 3,     ///< paper 002's broadcast block sums d
    ThirdMessageNoise = 4, ///< a third noisy message, where an algorithm has one
    Compressor = 5,        ///< randomness inside a compressor (dither, rand-k)
    Data = 6,              ///< synthetic data and splits
    Graph = 7,             ///< random graph generators
    Stream = 8,            ///< online data streams (order of samples)
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

/** Counter-based noise for differential privacy: block t of the stream keyed by
 *  (seed, run, repetition, agent, purpose) — t is the iteration / message number — has as
 *  element e a value that depends on nothing else (not on earlier draws, the thread, the other
 *  agents, or whether earlier blocks were drawn at all).
 *
 *  The transform (fixed; changing it changes every noisy result):
 *   - key K = the same splitmix64 hash of (seed, run, repetition, agent, purpose) as
 *     Rng::stream;  block state  B_t = mix(K ⊕ (t·γ + c)),  γ = 0x9e3779b97f4a7c15,
 *     c = 0x632be59bd9b4e019;  raw word  r_j = mix(B_t + (j+1)·γ)  (splitmix64 output j of
 *     the generator seeded with B_t; mix = splitmix64's finaliser);
 *   - uniform  v(r) = (⌊r / 2^12⌋ + ½)·2^-52 ∈ (0, 1), built exactly from the bits;
 *   - Laplace(0, b), element e:  r = r_e,  x = ±b·(−ln v(r)), the sign − when bit 0 of r is 1
 *     (|x| = −b ln v is exponential with mean b; an independent sign makes it Laplace);
 *   - N(0, σ²), elements 2j and 2j+1 (Box–Muller on r_{2j}, r_{2j+1}):  ρ = √(−2 ln v(r_{2j})),
 *     quadrant q = top two bits of r_{2j+1}, φ = (f − ½)·π/2 with f ∈ [0, 1) the next 52 bits,
 *     θ = qπ/2 + φ (uniform on a full turn);  x_{2j} = σρ cos θ,  x_{2j+1} = σρ sin θ;
 *   - ln, sin and cos are fdlibm's polynomial kernels (e_log.c, k_sin.c, k_cos.c, < 1 ulp),
 *     written out here in plain double arithmetic without branches, compiled without FMA
 *     contraction: a seed gives the same bits on every x86-64 machine and vector width.
 *  Cost: about 2 ns per Laplace element scalar, less vectorised (vs ~22 ns for Rng::laplace). */
class NoiseStream
{
public:
    NoiseStream() = default;
    explicit NoiseStream(std::uint64_t key) : mKey(key) {}
    /** The stream for (seed, run, repetition, agent, purpose): key = Rng::stream's seed hash. */
    static NoiseStream stream(std::uint64_t seed, std::uint64_t run, std::uint64_t repetition,
                              std::int64_t agent, RngPurpose purpose);

    std::uint64_t key() const { return mKey; }
    /** out[e] = Laplace(0, b) element e of block t, e < size. b = 0 gives zeros. */
    void laplace(std::uint64_t t, double b, double *out, std::size_t size) const;
    void laplace(std::uint64_t t, double b, Eigen::Ref<Eigen::VectorXd> out) const
    {
        laplace(t, b, out.data(), static_cast<std::size_t>(out.size()));
    }
    /** out[e] = N(0, σ²) element e of block t. σ = 0 gives zeros. */
    void gaussian(std::uint64_t t, double sigma, double *out, std::size_t size) const;
    void gaussian(std::uint64_t t, double sigma, Eigen::Ref<Eigen::VectorXd> out) const
    {
        gaussian(t, sigma, out.data(), static_cast<std::size_t>(out.size()));
    }
    /** The raw words r_j, j < size, of block t (for tests). */
    void raw(std::uint64_t t, std::uint64_t *out, std::size_t size) const;

private:
    std::uint64_t mKey = 0;
};

/** ln x for x in [2^-1022, ∞), the branch-free fdlibm kernel NoiseStream uses (< 1 ulp). */
double noiseLog(double x);
/** sin and cos of φ, |φ| ≤ π/4, fdlibm's kernels as NoiseStream uses them. */
double noiseSin(double phi);
double noiseCos(double phi);

/** The 64-bit key of (seed, run, repetition, agent, purpose): Rng::stream's seed and
 *  NoiseStream::stream's key. */
std::uint64_t streamKey(std::uint64_t seed, std::uint64_t run, std::uint64_t repetition, std::int64_t agent,
                        RngPurpose purpose);

/** splitmix64 step: the mixing function used to derive stream keys. */
std::uint64_t splitmix64(std::uint64_t &state);

} // namespace dplab
