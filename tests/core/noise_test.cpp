// SPDX-License-Identifier: GPL-3.0-or-later
// The counter-based noise sampler (NoiseStream, rng.h): its kernels against the C library, the
// documented transform recomputed independently, its laws, and the property the runner relies
// on: the noise of one (agent, iteration) is a function of the key and the iteration only — not
// of the thread count, of the other agents, or of what was drawn before.
#include "dplab/algo/mixing.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/privacy/noisekernels.h"
#include "dplab/privacy/rng.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

namespace dplab {
namespace {

/** Distance in units in the last place between two finite doubles of the same sign. */
double ulps(double a, double b)
{
    if (a == b)
        return 0.0;
    return std::abs(a - b) / std::abs(std::nextafter(b, 2 * b + 1) - b);
}

TEST(NoiseKernels, LogSinCosAgreeWithTheCLibraryWithinTwoUlps)
{
    Rng rng(5);
    double worstLog = 0, worstSin = 0, worstCos = 0;
    for (int i = 0; i < 200000; ++i) {
        // log over (0, 1] (what the sampler feeds it) and a few decades above.
        const double x = i % 2 == 0 ? rng.uniform01() : std::exp(rng.uniform(-700.0, 700.0));
        worstLog = std::max(worstLog, ulps(noiseLog(x), std::log(x)));
        const double phi = rng.uniform(-std::numbers::pi / 4, std::numbers::pi / 4);
        worstSin = std::max(worstSin, ulps(noiseSin(phi), std::sin(phi)));
        worstCos = std::max(worstCos, ulps(noiseCos(phi), std::cos(phi)));
    }
    EXPECT_LE(worstLog, 2.0);
    EXPECT_LE(worstSin, 2.0);
    EXPECT_LE(worstCos, 2.0);
    EXPECT_EQ(noiseLog(1.0), 0.0);
    EXPECT_NEAR(noiseLog(0x1.0p-53), -53 * std::numbers::ln2, 1e-13);
}

/** The transform of rng.h written out independently (C library log/sin/cos). */
std::uint64_t mixRef(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t rawRef(std::uint64_t key, std::uint64_t t, std::uint64_t j)
{
    const std::uint64_t gamma = 0x9e3779b97f4a7c15ULL;
    const std::uint64_t base = mixRef(key ^ (t * gamma + 0x632be59bd9b4e019ULL));
    return mixRef(base + (j + 1) * gamma);
}

double uniformRef(std::uint64_t r)
{
    return (static_cast<double>(r >> 12) + 0.5) * 0x1.0p-52;
}

TEST(NoiseStream, FollowsTheDocumentedTransform)
{
    const NoiseStream noise = NoiseStream::stream(7, 0, 0, 3, RngPurpose::DecisionNoise);
    EXPECT_EQ(noise.key(), streamKey(7, 0, 0, 3, RngPurpose::DecisionNoise));
    const std::size_t size = 37;
    for (std::uint64_t t : {0ULL, 1ULL, 12345ULL}) {
        std::vector<std::uint64_t> raw(size);
        noise.raw(t, raw.data(), size);
        std::vector<double> lap(size), gau(size);
        noise.laplace(t, 0.7, lap.data(), size);
        noise.gaussian(t, 1.3, gau.data(), size);
        for (std::size_t e = 0; e < size; ++e) {
            const std::uint64_t r = rawRef(noise.key(), t, e);
            ASSERT_EQ(raw[e], r) << "t " << t << " element " << e;
            const double magnitude = -0.7 * std::log(uniformRef(r));
            const double expected = (r & 1) ? -magnitude : magnitude;
            EXPECT_LE(ulps(lap[e], expected), 4.0) << lap[e] << " vs " << expected;
        }
        for (std::size_t j = 0; 2 * j < size; ++j) {
            const std::uint64_t r1 = rawRef(noise.key(), t, 2 * j), r2 = rawRef(noise.key(), t, 2 * j + 1);
            const double rho = 1.3 * std::sqrt(-2.0 * std::log(uniformRef(r1)));
            const double f = static_cast<double>((r2 << 2) >> 12) * 0x1.0p-52;
            const double theta = static_cast<double>(r2 >> 62) * std::numbers::pi / 2
                                 + (f - 0.5) * std::numbers::pi / 2;
            EXPECT_NEAR(gau[2 * j], rho * std::cos(theta), 1e-14 * (1 + rho));
            if (2 * j + 1 < size)
                EXPECT_NEAR(gau[2 * j + 1], rho * std::sin(theta), 1e-14 * (1 + rho));
        }
    }
}

TEST(NoiseStream, GoldenValuesPinTheSampler)
{
    // Pins the sampler (a change here changes every noisy experiment). The integers are exact;
    // the doubles are compared within 4 ulps (they are computed without FMA contraction, so
    // they agree across builds, but the test does not rely on that).
    const NoiseStream noise = NoiseStream::stream(7, 0, 0, 3, RngPurpose::DecisionNoise);
    std::uint64_t raw[3];
    noise.raw(5, raw, 3);
    EXPECT_EQ(raw[0], 11470407107015503035ULL);
    EXPECT_EQ(raw[1], 11795182176547605688ULL);
    EXPECT_EQ(raw[2], 17522439822924287456ULL);
    double lap[3], gau[3];
    noise.laplace(5, 1.0, lap, 3);
    noise.gaussian(5, 1.0, gau, 3);
    EXPECT_DOUBLE_EQ(lap[0], -0.47511745823126417);
    EXPECT_DOUBLE_EQ(lap[1], 0.4471967239682495);
    EXPECT_DOUBLE_EQ(lap[2], 0.051405546831776811);
    EXPECT_DOUBLE_EQ(gau[0], -0.97080265555576295);
    EXPECT_DOUBLE_EQ(gau[1], -0.08818798346944462);
    EXPECT_DOUBLE_EQ(gau[2], 0.057864846925805624);
}

TEST(NoiseStream, ElementsArePureFunctionsOfBlockAndIndex)
{
    const NoiseStream noise(0x1234);
    std::vector<double> a(50), b(20), c(50);
    noise.laplace(9, 2.0, a.data(), a.size());
    noise.laplace(3, 2.0, c.data(), c.size()); // another block drawn in between changes nothing
    noise.laplace(9, 2.0, b.data(), b.size());
    for (std::size_t e = 0; e < b.size(); ++e)
        EXPECT_EQ(a[e], b[e]);
    EXPECT_NE(a[0], c[0]);
    // The scale multiplies one exact draw: doubling it doubles every value exactly.
    noise.laplace(9, 4.0, c.data(), c.size());
    for (std::size_t e = 0; e < a.size(); ++e)
        EXPECT_EQ(c[e], 2 * a[e]);
    // Gaussian prefixes, odd and even lengths.
    std::vector<double> g(51), h(7);
    noise.gaussian(9, 1.0, g.data(), g.size());
    noise.gaussian(9, 1.0, h.data(), h.size());
    for (std::size_t e = 0; e < h.size(); ++e)
        EXPECT_EQ(g[e], h[e]);
    noise.laplace(9, 0.0, c.data(), c.size());
    EXPECT_TRUE(std::all_of(c.begin(), c.end(), [](double v) { return v == 0.0; }));
}

TEST(NoiseStream, LaplaceAndGaussianLaws)
{
    const NoiseStream noise(77);
    const std::size_t n = 400000;
    std::vector<double> x(n);
    const double b = 1.5;
    noise.laplace(0, b, x.data(), n);
    double sum = 0, sumSq = 0, sumAbs = 0;
    std::size_t beyond = 0;
    for (double v : x) {
        sum += v;
        sumSq += v * v;
        sumAbs += std::abs(v);
        beyond += std::abs(v) > b * std::log(10.0); // P = 1/10
    }
    const double var = 2 * b * b;
    EXPECT_NEAR(sum / n, 0.0, 4 * std::sqrt(var / n));
    EXPECT_NEAR(sumSq / n, var, 0.02 * var);
    EXPECT_NEAR(sumAbs / n, b, 4 * b / std::sqrt(static_cast<double>(n)));
    EXPECT_NEAR(static_cast<double>(beyond) / n, 0.1, 4 * std::sqrt(0.09 / n));

    noise.gaussian(1, 2.0, x.data(), n);
    sum = sumSq = 0;
    double fourth = 0;
    std::size_t within = 0;
    for (double v : x) {
        sum += v;
        sumSq += v * v;
        fourth += v * v * v * v;
        within += std::abs(v) < 2.0; // P(|Z| < 1) = 0.682689
    }
    EXPECT_NEAR(sum / n, 0.0, 4 * 2.0 / std::sqrt(static_cast<double>(n)));
    EXPECT_NEAR(sumSq / n, 4.0, 0.02 * 4.0);
    EXPECT_NEAR(fourth / n / 16.0, 3.0, 0.1); // kurtosis of a normal
    EXPECT_NEAR(static_cast<double>(within) / n, 0.682689, 4 * std::sqrt(0.22 / n));
    // Neighbouring elements (the Box–Muller pair) are uncorrelated.
    double cross = 0;
    for (std::size_t j = 0; j + 1 < n; j += 2)
        cross += x[j] * x[j + 1];
    EXPECT_NEAR(cross / (n / 2) / 4.0, 0.0, 4 / std::sqrt(n / 2.0));
}

TEST(NoiseStream, AgentNoiseDoesNotDependOnHowManyAgentsExist)
{
    const NoiseSource source{11, 2, 3};
    const auto identity = makeCompressor(Json{{"type", "identity"}}, "compressor").value();
    const int d = 9;
    auto noiseOf = [&](int n, NoiseLaw law) {
        Broadcast channel("x", n, d, source, RngPurpose::DecisionNoise, identity, law);
        const Eigen::MatrixXd clean = Eigen::MatrixXd::Zero(n, d);
        Eigen::VectorXd scale = Eigen::VectorXd::Constant(n, 0.5);
        std::vector<Eigen::MatrixXd> rows;
        for (int t = 0; t < 3; ++t) {
            channel.send(clean, scale);
            rows.push_back(channel.noise());
        }
        return rows;
    };
    for (NoiseLaw law : {NoiseLaw::Laplace, NoiseLaw::Gaussian}) {
        const auto small = noiseOf(3, law);
        const auto large = noiseOf(40, law);
        for (int t = 0; t < 3; ++t) {
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < d; ++k)
                    EXPECT_EQ(small[t](i, k), large[t](i, k)) << "t " << t << " agent " << i;
            EXPECT_NE(small[t](0, 0), small[t](1, 0));
        }
        EXPECT_NE(small[0](0, 0), small[1](0, 0));
        // And it is block t of the agent's stream.
        Eigen::VectorXd expected(d);
        const NoiseStream stream = source.noiseStream(2, RngPurpose::DecisionNoise);
        if (law == NoiseLaw::Laplace)
            stream.laplace(1, 0.5, expected);
        else
            stream.gaussian(1, 0.5, expected);
        for (int k = 0; k < d; ++k)
            EXPECT_EQ(small[1](2, k), expected[k]);
    }
}

TEST(NoiseStream, RunnerNoiseDoesNotDependOnThreadCount)
{
    const Json doc = Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "name": "noise threads", "seed": 3,
      "iterations": 60, "repetitions": 5, "record_every": 1,
      "graph": { "generator": { "type": "ring", "nodes": 6 }, "weights": { "scheme": "metropolis" } },
      "problem": { "type": "logistic", "data": { "source": "bundled", "name": "breast-cancer" }, "lambda": 0.1 },
      "runs": [ { "label": "gt", "algorithm": "gradient-tracking", "params": { "stepsize": 0.05 },
                  "privacy": { "noise_x": 0.3, "noise_y": 0.3 } },
                { "label": "gt-small", "algorithm": "gradient-tracking", "params": { "stepsize": 0.05 },
                  "privacy": { "noise_x": 0.1, "noise_y": 0.1 }, "init": { "type": "random" } } ]
    })");
    auto e = parseExperiment(doc, ".");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    std::vector<std::vector<std::vector<double>>> reference;
    for (int threads : {1, 2, 5}) {
        RunnerOptions options;
        options.threads = threads;
        auto result = Runner(options).run(*e);
        ASSERT_TRUE(result.ok());
        std::vector<std::vector<std::vector<double>>> values;
        for (const auto &run : result->points[0].runs)
            for (const auto &rep : run.repetitions)
                values.push_back(rep.values);
        if (reference.empty())
            reference = values;
        else
            EXPECT_EQ(values, reference) << threads << " threads";
    }
}

TEST(NoiseStream, EveryLevelGivesTheBytesOfTheSse2Transform)
{
    if (simd::usableIsa(simd::Isa::Avx2) == simd::Isa::Sse2)
        GTEST_SKIP() << "this CPU has no AVX2: only the SSE2 version can run here";
    const NoiseStream noise = NoiseStream::stream(2026, 1, 2, 5, RngPurpose::DecisionNoise);
    for (simd::Isa isa : {simd::Isa::Avx2, simd::Isa::Avx512}) {
        if (simd::usableIsa(isa) != isa)
            continue; // this CPU has no AVX-512
        for (std::size_t size : {1u, 2u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 64u, 1001u}) {
            for (std::uint64_t t : {0ull, 1ull, 123456789ull}) {
                SCOPED_TRACE(testing::Message() << simd::isaName(isa) << ", size " << size << ", t " << t);
                std::vector<double> a(size), b(size);
                noiseLaplace(noise.key(), t, 0.7, a.data(), size, simd::Isa::Sse2);
                noiseLaplace(noise.key(), t, 0.7, b.data(), size, isa);
                ASSERT_EQ(std::memcmp(a.data(), b.data(), size * sizeof(double)), 0) << "laplace";
                noiseGaussian(noise.key(), t, 1.3, a.data(), size, simd::Isa::Sse2);
                noiseGaussian(noise.key(), t, 1.3, b.data(), size, isa);
                ASSERT_EQ(std::memcmp(a.data(), b.data(), size * sizeof(double)), 0) << "gaussian";
            }
        }
    }
}

} // namespace
} // namespace dplab
