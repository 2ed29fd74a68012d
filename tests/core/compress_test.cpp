// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compressors: Assumption 5 of paper 001 with each compressor's stated (φ, r), unbiasedness,
// hand-computed messages, bit rules, purity (writes only `out`, deterministic given the Rng)
// and makeCompressor's validation.
#include "dplab/compress/compressor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace dplab {
namespace {

const int kDims[] = {1, 2, 10, 37};

std::shared_ptr<const Compressor> make(const Json &spec)
{
    auto c = makeCompressor(spec, "runs[0].compressor");
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().toString());
    return c.ok() ? *c : nullptr;
}

/** Specs covering every compressor, several parameter values each. */
std::vector<Json> allSpecs()
{
    return {
        Json(nullptr),
        Json{{"type", "identity"}},
        Json{{"type", "top-k"}, {"k", 1}},
        Json{{"type", "top-k"}, {"k", 3}},
        Json{{"type", "rand-k"}, {"k", 1}, {"scaling", "biased"}},
        Json{{"type", "rand-k"}, {"k", 3}, {"scaling", "biased"}},
        Json{{"type", "rand-k"}, {"k", 1}, {"scaling", "unbiased"}},
        Json{{"type", "rand-k"}, {"k", 3}, {"scaling", "unbiased"}},
        Json{{"type", "dithered-quantizer"}, {"b", 1}},
        Json{{"type", "dithered-quantizer"}, {"b", 2}},
        Json{{"type", "dithered-quantizer"}, {"b", 4}},
        Json{{"type", "qsgd"}, {"s", 1}},
        Json{{"type", "qsgd"}, {"s", 3}},
        Json{{"type", "qsgd"}, {"s", 16}},
        Json{{"type", "norm-sign"}},
        Json{{"type", "sign"}},
    };
}

/** Test vectors of dimension d: generic, heavy-tailed, sparse, one-hot, equal magnitudes, nearly
 *  one-hot, huge and tiny scales, integer ties. */
std::vector<Eigen::VectorXd> testVectors(int d, Rng &rng)
{
    std::vector<Eigen::VectorXd> xs;
    Eigen::VectorXd v(d);
    rng.fillGaussian(v, 1.0);
    xs.push_back(v);
    rng.fillLaplace(v, 2.0);
    xs.push_back(v);
    rng.fillGaussian(v, 1.0);
    for (int i = 0; i < d; i += 2)
        v[i] = 0.0;
    if (v.squaredNorm() == 0.0)
        v[0] = -0.7;
    xs.push_back(v);
    v.setZero();
    v[d - 1] = -3.0;
    xs.push_back(v);
    for (int i = 0; i < d; ++i)
        v[i] = (i % 2 == 0) ? 1.5 : -1.5;
    xs.push_back(v);
    v.setConstant(1e-3);
    v[d / 2] = 1.0;
    xs.push_back(v);
    rng.fillGaussian(v, 1e6);
    xs.push_back(v);
    rng.fillGaussian(v, 1e-9);
    xs.push_back(v);
    for (int i = 0; i < d; ++i)
        v[i] = (i % 3) - 1.0 + (i % 2 == 0 ? 1.0 : -1.0);
    if (v.squaredNorm() == 0.0)
        v[0] = 1.0;
    xs.push_back(v);
    return xs;
}

std::string label(const Json &spec, int d)
{
    return spec.dump() + " d=" + std::to_string(d);
}

// --- Assumption 5 ------------------------------------------------------------------------------

TEST(Compress, AssumptionFiveHoldsWithStatedConstants)
{
    Rng data(11);
    Rng draws(12);
    const int kDraws = 2000;
    for (const auto &spec : allSpecs()) {
        auto c = make(spec);
        ASSERT_TRUE(c);
        for (int d : kDims) {
            const double phi = c->phi(d);
            const double r = c->r(d);
            ASSERT_GT(phi, 0.0) << label(spec, d);
            ASSERT_LE(phi, 1.0) << label(spec, d);
            ASSERT_GT(r, 0.0) << label(spec, d);
            Eigen::VectorXd out(d);
            for (const auto &x : testVectors(d, data)) {
                SCOPED_TRACE(label(spec, d) + " x=" + std::to_string(x[0]) + ",...");
                const double norm2 = x.squaredNorm();
                const double bound = (1.0 - phi) * norm2;
                if (!c->isRandom()) {
                    c->compress(x, out, draws);
                    EXPECT_LE((out / r - x).squaredNorm(), bound + 1e-12 * norm2);
                    continue;
                }
                double sum = 0.0;
                double sum2 = 0.0;
                for (int t = 0; t < kDraws; ++t) {
                    c->compress(x, out, draws);
                    const double e = (out / r - x).squaredNorm();
                    sum += e;
                    sum2 += e * e;
                }
                const double mean = sum / kDraws;
                const double sd = std::sqrt(std::max(0.0, sum2 / kDraws - mean * mean));
                EXPECT_LE(mean, bound + 5.0 * sd / std::sqrt(kDraws) + 1e-12 * norm2);
            }
        }
    }
}

TEST(Compress, RandKMeetsAssumptionFiveWithEquality)
{
    // E‖C(x)/r − x‖² = (1 − k/d)‖x‖² exactly for both scalings: the estimate must sit on the
    // bound (within the statistical margin), so the constants are neither wrong nor loose.
    Rng data(21);
    Rng draws(22);
    const int kDraws = 4000;
    for (const char *scaling : {"biased", "unbiased"}) {
        auto c = make(Json{{"type", "rand-k"}, {"k", 3}, {"scaling", scaling}});
        for (int d : {10, 37}) {
            Eigen::VectorXd x(d);
            data.fillGaussian(x, 1.0);
            Eigen::VectorXd out(d);
            double sum = 0.0;
            double sum2 = 0.0;
            for (int t = 0; t < kDraws; ++t) {
                c->compress(x, out, draws);
                const double e = (out / c->r(d) - x).squaredNorm();
                sum += e;
                sum2 += e * e;
            }
            const double mean = sum / kDraws;
            const double se = std::sqrt((sum2 / kDraws - mean * mean) / kDraws);
            EXPECT_NEAR(mean, (1.0 - 3.0 / d) * x.squaredNorm(), 5.0 * se) << scaling << " d=" << d;
        }
    }
}

TEST(Compress, UnbiasedRandKNeedsItsR)
{
    // With r = 1 the unbiased rand-k error is (d/k − 1)‖x‖², larger than ‖x‖² for k < d/2:
    // this is why r = d/k.
    auto c = make(Json{{"type", "rand-k"}, {"k", 2}, {"scaling", "unbiased"}});
    EXPECT_DOUBLE_EQ(c->r(10), 5.0);
    EXPECT_DOUBLE_EQ(c->phi(10), 0.2);
    Rng rng(3);
    Eigen::VectorXd x = Eigen::VectorXd::Ones(10);
    Eigen::VectorXd out(10);
    double sum = 0.0;
    for (int t = 0; t < 1000; ++t) {
        c->compress(x, out, rng);
        sum += (out - x).squaredNorm();
    }
    // Every draw has exactly 2 entries 5 and 8 entries 0: error 2·16 + 8 = 40 = (d/k − 1)·d.
    EXPECT_DOUBLE_EQ(sum / 1000, 40.0);
    EXPECT_GT(sum / 1000, x.squaredNorm());
}

TEST(Compress, DeterministicBoundsAreTightWhereClaimed)
{
    // top-k, equal magnitudes: error (1 − k/d)‖x‖² exactly.
    auto topK = make(Json{{"type", "top-k"}, {"k", 3}});
    Eigen::VectorXd x = Eigen::VectorXd::Constant(10, -2.0);
    Eigen::VectorXd out(10);
    Rng rng(0);
    topK->compress(x, out, rng);
    EXPECT_NEAR((out - x).squaredNorm(), 0.7 * x.squaredNorm(), 1e-12);

    // sign, x = (1, ε, …, ε): error → (1 − 1/d)‖x‖², so φ = 1/d cannot be raised.
    auto sign = make(Json{{"type", "sign"}});
    x.setConstant(1e-7);
    x[4] = 1.0;
    sign->compress(x, out, rng);
    EXPECT_NEAR((out - x).squaredNorm() / x.squaredNorm(), 1.0 - sign->phi(10), 1e-5);
}

TEST(Compress, NormSignIsNotContractiveWithROne)
{
    // Paper 001's compressor note: with r = 1, x = (1, ε, …, ε) gives error ≈ d/4 > ‖x‖² for d > 4, hence
    // r = d/2 (and then the bound holds, checked above).
    auto c = make(Json{{"type", "norm-sign"}});
    const int d = 10;
    Eigen::VectorXd x = Eigen::VectorXd::Constant(d, 1e-6);
    x[0] = 1.0;
    Eigen::VectorXd out(d);
    Rng rng(0);
    c->compress(x, out, rng);
    EXPECT_GT((out - x).squaredNorm(), x.squaredNorm());
    EXPECT_NEAR((out - x).squaredNorm(), d / 4.0, 1e-4);
    EXPECT_LE((out / c->r(d) - x).squaredNorm(), (1.0 - c->phi(d)) * x.squaredNorm());
}

// --- expectations ------------------------------------------------------------------------------

/** Checks E out = factor·x coordinate-wise within 5 standard errors. */
void expectMean(const Compressor &c, const Eigen::VectorXd &x, double factor, Rng &rng, int draws)
{
    const Eigen::Index d = x.size();
    Eigen::VectorXd out(d);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(d);
    Eigen::VectorXd sum2 = Eigen::VectorXd::Zero(d);
    for (int t = 0; t < draws; ++t) {
        c.compress(x, out, rng);
        sum += out;
        sum2 += out.cwiseProduct(out);
    }
    const Eigen::VectorXd mean = sum / draws;
    for (Eigen::Index i = 0; i < d; ++i) {
        const double var = std::max(0.0, sum2[i] / draws - mean[i] * mean[i]);
        const double se = std::sqrt(var / draws);
        EXPECT_NEAR(mean[i], factor * x[i], 5.0 * se + 1e-12 * x.norm())
            << c.toJson().dump() << " coordinate " << i << " of " << d;
    }
}

TEST(Compress, UnbiasedCompressorsAreUnbiased)
{
    Rng data(31);
    Rng draws(32);
    const int kDraws = 20000;
    for (int d : {2, 10, 37}) {
        Eigen::VectorXd x(d);
        data.fillGaussian(x, 1.0);
        x[0] = 0.0; // a zero coordinate stays exactly zero
        expectMean(*make(Json{{"type", "rand-k"}, {"k", 3}, {"scaling", "unbiased"}}), x, 1.0,
                   draws, kDraws);
        expectMean(*make(Json{{"type", "qsgd"}, {"s", 1}}), x, 1.0, draws, kDraws);
        expectMean(*make(Json{{"type", "qsgd"}, {"s", 5}}), x, 1.0, draws, kDraws);
        // The biased ones have known means: (k/d)·x and x/ξ.
        const double kept = std::min(3, d);
        expectMean(*make(Json{{"type", "rand-k"}, {"k", 3}, {"scaling", "biased"}}), x, kept / d,
                   draws, kDraws);
        auto c2 = make(Json{{"type", "dithered-quantizer"}, {"b", 2}});
        expectMean(*c2, x, c2->phi(d), draws, kDraws); // phi = 1/ξ
    }
}

TEST(Compress, LevelQuantizerErrorMatchesClosedForm)
{
    // s-level stochastic rounding: E‖Q(x) − x‖² = (‖x‖²/s²) Σ p_i(1 − p_i), p_i = frac(s|x_i|/‖x‖).
    // C2 = Q/ξ: E‖C2 − x‖² = (‖x‖² + V)/ξ² − 2‖x‖²/ξ + ‖x‖².
    Rng data(41);
    Rng draws(42);
    const int kDraws = 20000;
    const int d = 10;
    Eigen::VectorXd x(d);
    data.fillGaussian(x, 1.0);
    const double n2 = x.squaredNorm();
    for (long long s : {1LL, 2LL, 7LL}) {
        double pq = 0.0;
        for (int i = 0; i < d; ++i) {
            const double a = s * std::abs(x[i]) / std::sqrt(n2);
            const double p = a - std::floor(a);
            pq += p * (1.0 - p);
        }
        const double variance = n2 / double(s * s) * pq;
        auto q = make(Json{{"type", "qsgd"}, {"s", s}});
        Eigen::VectorXd out(d);
        double sum = 0.0, sum2 = 0.0;
        for (int t = 0; t < kDraws; ++t) {
            q->compress(x, out, draws);
            const double e = (out - x).squaredNorm();
            sum += e;
            sum2 += e * e;
        }
        double mean = sum / kDraws;
        double se = std::sqrt((sum2 / kDraws - mean * mean) / kDraws);
        EXPECT_NEAR(mean, variance, 5.0 * se) << "qsgd s=" << s;
        EXPECT_LE(variance, (q->r(d) - 1.0) * n2); // the stated ω bounds the exact variance

        if (s == 2) { // b = 2
            auto c2 = make(Json{{"type", "dithered-quantizer"}, {"b", 2}});
            const double xi = 1.0 / c2->phi(d);
            EXPECT_NEAR(xi, 1.0 + std::min(d / 4.0, std::sqrt(double(d)) / 2.0), 1e-15);
            sum = sum2 = 0.0;
            for (int t = 0; t < kDraws; ++t) {
                c2->compress(x, out, draws);
                const double e = (out - x).squaredNorm();
                sum += e;
                sum2 += e * e;
            }
            mean = sum / kDraws;
            se = std::sqrt((sum2 / kDraws - mean * mean) / kDraws);
            EXPECT_NEAR(mean, (n2 + variance) / (xi * xi) - 2.0 * n2 / xi + n2, 5.0 * se);
        }
    }
}

TEST(Compress, RandKKeepsKUniformlyChosenCoordinates)
{
    auto c = make(Json{{"type", "rand-k"}, {"k", 3}, {"scaling", "biased"}});
    const int d = 10;
    const int kDraws = 20000;
    Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(d, 1.0, 10.0);
    Eigen::VectorXd out(d);
    Eigen::VectorXd hits = Eigen::VectorXd::Zero(d);
    Rng rng(51);
    for (int t = 0; t < kDraws; ++t) {
        c->compress(x, out, rng);
        int kept = 0;
        for (int i = 0; i < d; ++i) {
            if (out[i] != 0.0) {
                EXPECT_EQ(out[i], x[i]);
                ++kept;
                hits[i] += 1.0;
            }
        }
        ASSERT_EQ(kept, 3);
    }
    const double p = 0.3;
    const double sd = std::sqrt(kDraws * p * (1.0 - p));
    for (int i = 0; i < d; ++i)
        EXPECT_NEAR(hits[i], kDraws * p, 5.0 * sd) << "coordinate " << i;
}

// --- hand-computed cases -------------------------------------------------------------------------

TEST(Compress, TopKPicksLargestMagnitudesTiesToLowestIndex)
{
    Rng rng(0);
    Eigen::VectorXd x(6);
    x << 1.0, -3.0, 3.0, 2.0, -3.0, 0.5;
    Eigen::VectorXd out(6);
    Eigen::VectorXd expected(6);

    auto k2 = make(Json{{"type", "top-k"}, {"k", 2}});
    k2->compress(x, out, rng);
    expected << 0.0, -3.0, 3.0, 0.0, 0.0, 0.0; // |x| = 3 at 1, 2, 4: the lowest two
    EXPECT_EQ(out, expected);

    auto k3 = make(Json{{"type", "top-k"}, {"k", 3}});
    k3->compress(x, out, rng);
    expected << 0.0, -3.0, 3.0, 0.0, -3.0, 0.0;
    EXPECT_EQ(out, expected);

    auto k4 = make(Json{{"type", "top-k"}, {"k", 4}});
    k4->compress(x, out, rng);
    expected << 0.0, -3.0, 3.0, 2.0, -3.0, 0.0;
    EXPECT_EQ(out, expected);

    auto k1 = make(Json{{"type", "top-k"}, {"k", 1}});
    Eigen::VectorXd same = Eigen::VectorXd::Constant(4, 2.0);
    Eigen::VectorXd out4(4);
    k1->compress(same, out4, rng);
    EXPECT_EQ(out4, Eigen::Vector4d(2.0, 0.0, 0.0, 0.0));
}

/** The top-k of the order "larger |x_i| first (NaN as +∞), then lower index", by sorting all
 *  indices: the definition the compressor's selection must reproduce byte for byte. */
Eigen::VectorXd topKBySorting(const Eigen::VectorXd &x, Eigen::Index k)
{
    std::vector<Eigen::Index> order(static_cast<std::size_t>(x.size()));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    const auto magnitude = [&](Eigen::Index i) {
        return std::isnan(x[i]) ? std::numeric_limits<double>::infinity() : std::abs(x[i]);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](Eigen::Index a, Eigen::Index b) { return magnitude(a) > magnitude(b); });
    Eigen::VectorXd out = Eigen::VectorXd::Zero(x.size());
    for (Eigen::Index j = 0; j < std::min(k, x.size()); ++j)
        out[order[static_cast<std::size_t>(j)]] = x[order[static_cast<std::size_t>(j)]];
    return out;
}

TEST(Compress, TopKGivesTheBytesOfTheSortedOrderWithTiesZerosAndNaN)
{
    std::mt19937_64 gen(42);
    std::uniform_int_distribution<int> pick(0, 9);
    std::normal_distribution<double> normal(0.0, 1.0);
    const double special[] = {0.0, -0.0, 1.0, -1.0, 2.5, -2.5, std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::denorm_min()};
    Rng rng(0);
    for (int d : {1, 2, 5, 10, 33, 112, 1000}) {
        for (int trial = 0; trial < 20; ++trial) {
            Eigen::VectorXd x(d);
            for (int i = 0; i < d; ++i) // many ties, signed zeros, ±∞ and NaN, or plain numbers
                x[i] = trial % 3 == 0 ? normal(gen) : special[pick(gen) % (trial % 3 == 1 ? 6 : 10)];
            for (int k : {1, 2, d / 10 + 1, d / 2 + 1, d - 1}) {
                if (k < 1)
                    continue;
                const auto topK = make(Json{{"type", "top-k"}, {"k", k}});
                const Eigen::VectorXd want = topKBySorting(x, k);
                Eigen::VectorXd got(d);
                topK->compress(x, got, rng);
                Eigen::VectorXd inPlace = x; // out may alias x
                topK->compress(inPlace, inPlace, rng);
                SCOPED_TRACE(testing::Message() << "d " << d << ", k " << k << ", trial " << trial);
                ASSERT_EQ(std::memcmp(got.data(), want.data(), sizeof(double) * static_cast<std::size_t>(d)), 0);
                ASSERT_EQ(std::memcmp(inPlace.data(), want.data(), sizeof(double) * static_cast<std::size_t>(d)), 0);
            }
        }
    }
}

TEST(Compress, DitheredQuantizerHandCase)
{
    // x = (3, −4, 0), ‖x‖ = 5, d = 3, b = 2: s = 2, ξ = 1 + min(3/4, √3/2) = 1.75,
    // a = s|x|/‖x‖ = (1.2, 1.6, 0); ℓ_0 = ⌊1.2 + u_0⌋ = 2 iff u_0 ≥ 0.8, ℓ_1 = 2 iff u_1 ≥ 0.4,
    // ℓ_2 = 0; C2(x) = (5/1.75)·sign(x)·ℓ/2. The dither u is read from a copy of the Rng
    // (the compressor draws u_0, u_1, u_2 in order).
    auto c = make(Json{{"type", "dithered-quantizer"}, {"b", 2}});
    EXPECT_DOUBLE_EQ(c->phi(3), 1.0 / 1.75);
    const Eigen::Vector3d x(3.0, -4.0, 0.0);
    Eigen::VectorXd out(3);
    Rng rng(61);
    int seen[2][3] = {};
    for (int t = 0; t < 200; ++t) {
        Rng copy = rng;
        const double u0 = copy.uniform01();
        const double u1 = copy.uniform01();
        copy.uniform01();
        const int l0 = u0 >= 0.8 ? 2 : 1;
        const int l1 = u1 >= 0.4 ? 2 : 1;
        c->compress(x, out, rng);
        EXPECT_DOUBLE_EQ(out[0], 5.0 / 1.75 * l0 / 2.0);
        EXPECT_DOUBLE_EQ(out[1], -5.0 / 1.75 * l1 / 2.0);
        EXPECT_EQ(out[2], 0.0);
        EXPECT_EQ(rng.next(), copy.next()); // exactly d = 3 draws
        ++seen[0][l0];
        ++seen[1][l1];
    }
    // Both rounding directions occurred for both coordinates (the test exercises both branches).
    EXPECT_GT(seen[0][1], 0);
    EXPECT_GT(seen[0][2], 0);
    EXPECT_GT(seen[1][1], 0);
    EXPECT_GT(seen[1][2], 0);
}

TEST(Compress, QsgdHandCaseAndRelationToC2)
{
    // s = 1, x = (3, −4): a = (0.6, 0.8), ℓ_0 = 1 iff u_0 ≥ 0.4, ℓ_1 = 1 iff u_1 ≥ 0.2,
    // Q(x) = 5·sign(x)·ℓ.
    auto q = make(Json{{"type", "qsgd"}, {"s", 1}});
    const Eigen::Vector2d x(3.0, -4.0);
    Eigen::VectorXd out(2);
    Rng rng(71);
    for (int t = 0; t < 50; ++t) {
        Rng copy = rng;
        const double u0 = copy.uniform01();
        const double u1 = copy.uniform01();
        q->compress(x, out, rng);
        EXPECT_EQ(out[0], u0 >= 0.4 ? 5.0 : 0.0);
        EXPECT_EQ(out[1], u1 >= 0.2 ? -5.0 : 0.0);
    }
    // qsgd with s = 2^{b−1} is ξ·C2 for the same dither, and shares its ξ: r_qsgd = 1/φ_C2.
    Rng data(72);
    for (int b : {1, 2, 3, 5}) {
        auto c2 = make(Json{{"type", "dithered-quantizer"}, {"b", b}});
        auto qs = make(Json{{"type", "qsgd"}, {"s", 1 << (b - 1)}});
        for (int d : kDims) {
            EXPECT_NEAR(qs->r(d), 1.0 / c2->phi(d), 1e-14);
            EXPECT_NEAR(qs->phi(d), c2->phi(d), 1e-14);
            Eigen::VectorXd v(d), a(d), bq(d);
            data.fillGaussian(v, 1.0);
            Rng r1(b * 100 + d);
            Rng r2 = r1;
            c2->compress(v, a, r1);
            qs->compress(v, bq, r2);
            EXPECT_LE((a / c2->phi(d) - bq).norm(), 1e-12 * v.norm()) << "b=" << b << " d=" << d;
        }
    }
}

TEST(Compress, NormSignAndSignHandCases)
{
    Rng rng(0);
    Eigen::Vector4d x(0.5, -2.0, 0.0, 1.0);
    Eigen::VectorXd out(4);
    // C3: ‖x‖_∞ = 2, so C3(x) = 1·sign(x) = (1, −1, 0, 1).
    auto c3 = make(Json{{"type", "norm-sign"}});
    c3->compress(x, out, rng);
    EXPECT_EQ(out, Eigen::Vector4d(1.0, -1.0, 0.0, 1.0));
    // (φ, r) = (1/16, 2): C3/r = (0.5, −0.5, 0, 0.5), error 0 + 1.5² + 0 + 0.5² = 2.5, within
    // the bound (15/16)·‖x‖² = (15/16)·5.25.
    EXPECT_DOUBLE_EQ(c3->phi(4), 1.0 / 16.0);
    EXPECT_DOUBLE_EQ(c3->r(4), 2.0);
    EXPECT_DOUBLE_EQ((out / c3->r(4) - x).squaredNorm(), 2.5);
    EXPECT_LE(2.5, (1.0 - c3->phi(4)) * x.squaredNorm());
    // Scaled sign: ‖x‖₁/d = 3.5/4 = 0.875.
    auto sign = make(Json{{"type", "sign"}});
    sign->compress(x, out, rng);
    EXPECT_EQ(out, Eigen::Vector4d(0.875, -0.875, 0.0, 0.875));
    EXPECT_DOUBLE_EQ(sign->phi(4), 0.25);
    EXPECT_DOUBLE_EQ(sign->r(4), 1.0);
    // d = 1: C3/r = x exactly with φ = 1.
    Eigen::VectorXd one(1);
    one << -7.0;
    Eigen::VectorXd out1(1);
    c3->compress(one, out1, rng);
    EXPECT_EQ(out1[0] / c3->r(1), -7.0);
    EXPECT_EQ(c3->phi(1), 1.0);
}

TEST(Compress, PaperConstants)
{
    // Paper 001's set-up: d = 10, k = 2, b = 2 (its compressor examples).
    EXPECT_DOUBLE_EQ(make(Json{{"type", "top-k"}, {"k", 2}})->phi(10), 0.2);
    EXPECT_DOUBLE_EQ(make(Json{{"type", "top-k"}, {"k", 2}})->r(10), 1.0);
    auto c2 = make(Json{{"type", "dithered-quantizer"}, {"b", 2}});
    EXPECT_NEAR(1.0 / c2->phi(10), 2.5811, 1e-4);
    EXPECT_NEAR(c2->phi(10), 0.387, 1e-3);
    EXPECT_DOUBLE_EQ(c2->r(10), 1.0);
    auto c3 = make(Json{{"type", "norm-sign"}});
    EXPECT_DOUBLE_EQ(c3->phi(10), 0.01);
    EXPECT_DOUBLE_EQ(c3->r(10), 5.0);
}

// --- bits --------------------------------------------------------------------------------------

std::uint64_t ceilLog2(std::uint64_t n)
{
    std::uint64_t bits = 0;
    while ((std::uint64_t(1) << bits) < n)
        ++bits;
    return bits;
}

/** The documented bit rule of each compressor, written independently of the implementation. */
std::uint64_t documentedBits(const Json &spec, std::uint64_t d)
{
    const std::string type = spec.is_null() ? "identity" : spec.at("type").get<std::string>();
    if (type == "identity")
        return 32 * d;
    if (type == "top-k" || type == "rand-k") {
        const std::uint64_t k = std::min<std::uint64_t>(spec.at("k").get<std::uint64_t>(), d);
        return std::min(k * (32 + ceilLog2(d)), 32 * d);
    }
    if (type == "dithered-quantizer")
        return 32 + d * (spec.at("b").get<std::uint64_t>() + 1);
    if (type == "qsgd")
        return 32 + d * (1 + ceilLog2(spec.at("s").get<std::uint64_t>() + 1));
    return 32 + d; // norm-sign, sign
}

TEST(Compress, BitsFollowTheDocumentedRules)
{
    Rng data(81);
    Rng rng(82);
    std::vector<Json> specs = allSpecs();
    specs.push_back(Json{{"type", "top-k"}, {"k", 9}});
    specs.push_back(Json{{"type", "top-k"}, {"k", 50}});
    specs.push_back(Json{{"type", "rand-k"}, {"k", 40}});
    specs.push_back(Json{{"type", "dithered-quantizer"}, {"b", 30}});
    specs.push_back(Json{{"type", "qsgd"}, {"s", 4}});
    for (const auto &spec : specs) {
        auto c = make(spec);
        for (int d : {1, 2, 3, 10, 37, 784}) {
            Eigen::VectorXd x(d), out(d);
            data.fillGaussian(x, 1.0);
            const std::uint64_t expected = documentedBits(spec, d);
            EXPECT_EQ(c->compress(x, out, rng), expected) << label(spec, d);
            // The count does not depend on the values.
            x.setZero();
            EXPECT_EQ(c->compress(x, out, rng), expected) << label(spec, d) << " zero vector";
        }
    }
    // Worked numbers.
    Eigen::VectorXd x = Eigen::VectorXd::Ones(10), out(10);
    EXPECT_EQ(make(Json{{"type", "top-k"}, {"k", 2}})->compress(x, out, rng), 72u); // 2·(32+4)
    EXPECT_EQ(make(Json{{"type", "top-k"}, {"k", 9}})->compress(x, out, rng), 320u); // dense
    EXPECT_EQ(make(Json{{"type", "dithered-quantizer"}, {"b", 2}})->compress(x, out, rng), 62u);
    EXPECT_EQ(make(Json{{"type", "dithered-quantizer"}, {"b", 1}})->compress(x, out, rng), 52u);
    EXPECT_EQ(make(Json{{"type", "qsgd"}, {"s", 3}})->compress(x, out, rng), 62u);
    EXPECT_EQ(make(Json{{"type", "qsgd"}, {"s", 4}})->compress(x, out, rng), 72u);
    EXPECT_EQ(make(Json{{"type", "norm-sign"}})->compress(x, out, rng), 42u);
    EXPECT_EQ(make(Json{{"type", "identity"}})->compress(x, out, rng), fullVectorBits(10));
    Eigen::VectorXd x37 = Eigen::VectorXd::Ones(37), out37(37);
    EXPECT_EQ(make(Json{{"type", "rand-k"}, {"k", 5}})->compress(x37, out37, rng), 190u); // 5·38
}

// --- purity, determinism, zero -----------------------------------------------------------------

TEST(Compress, ZeroMapsToZero)
{
    Rng rng(91);
    for (const auto &spec : allSpecs()) {
        auto c = make(spec);
        for (int d : kDims) {
            const Eigen::VectorXd zero = Eigen::VectorXd::Zero(d);
            Eigen::VectorXd out(d);
            out.setConstant(std::numeric_limits<double>::quiet_NaN());
            c->compress(zero, out, rng);
            EXPECT_EQ(out, zero) << label(spec, d);
        }
    }
}

TEST(Compress, WritesOnlyOutAndIsDeterministicGivenTheRng)
{
    Rng data(101);
    const double sentinel = -12345.0;
    for (const auto &spec : allSpecs()) {
        auto c = make(spec);
        for (int d : kDims) {
            SCOPED_TRACE(label(spec, d));
            Eigen::VectorXd x(d);
            data.fillGaussian(x, 1.0);
            const Eigen::VectorXd xCopy = x;
            Eigen::VectorXd buffer = Eigen::VectorXd::Constant(d + 2, sentinel);
            Rng rng(7 + d);
            Rng twin = rng;
            c->compress(x, buffer.segment(1, d), rng);
            EXPECT_EQ(x, xCopy);
            EXPECT_EQ(buffer[0], sentinel);
            EXPECT_EQ(buffer[d + 1], sentinel);

            Eigen::VectorXd again(d);
            c->compress(x, again, twin);
            EXPECT_EQ(again, buffer.segment(1, d));
            EXPECT_EQ(rng.next(), twin.next()); // same state afterwards

            // In place (out aliases x) gives the same message.
            Rng third(7 + d);
            Eigen::VectorXd inPlace = x;
            c->compress(inPlace, inPlace, third);
            EXPECT_EQ(inPlace, again);
        }
    }
}

TEST(Compress, DeterministicCompressorsDrawNothingAndLevelQuantizersDrawD)
{
    Rng data(111);
    for (const auto &spec : allSpecs()) {
        auto c = make(spec);
        const std::string type = spec.is_null() ? "identity" : spec.at("type").get<std::string>();
        for (int d : kDims) {
            Eigen::VectorXd x(d), out(d);
            data.fillGaussian(x, 1.0);
            Rng rng(5);
            Rng reference(5);
            c->compress(x, out, rng);
            if (!c->isRandom()) {
                EXPECT_EQ(rng.next(), reference.next()) << label(spec, d);
            } else if (type == "dithered-quantizer" || type == "qsgd") {
                for (int i = 0; i < d; ++i)
                    reference.uniform01();
                EXPECT_EQ(rng.next(), reference.next()) << label(spec, d);
            }
        }
    }
}

TEST(Compress, LargeBudgetsApproximateIdentity)
{
    Rng data(121);
    Rng rng(122);
    for (int d : kDims) {
        Eigen::VectorXd x(d), out(d);
        data.fillGaussian(x, 1.0);
        for (const Json &spec : {Json{{"type", "top-k"}, {"k", d}},
                                 Json{{"type", "top-k"}, {"k", d + 5}},
                                 Json{{"type", "rand-k"}, {"k", d}, {"scaling", "biased"}},
                                 Json{{"type", "rand-k"}, {"k", d + 5}, {"scaling", "unbiased"}}}) {
            auto c = make(spec);
            Rng before = rng;
            EXPECT_EQ(c->compress(x, out, rng), fullVectorBits(d)) << label(spec, d);
            EXPECT_EQ(out, x) << label(spec, d);
            EXPECT_EQ(c->phi(d), 1.0);
            EXPECT_EQ(c->r(d), 1.0);
            EXPECT_EQ(rng.next(), before.next()); // no draws when everything is kept
        }
        for (const Json &spec : {Json{{"type", "dithered-quantizer"}, {"b", 30}},
                                 Json{{"type", "qsgd"}, {"s", 1 << 30}}}) {
            auto c = make(spec);
            c->compress(x, out, rng);
            EXPECT_LE((out - x).norm(), 1e-7 * x.norm()) << label(spec, d);
            EXPECT_GT(c->phi(d), 1.0 - 1e-7);
        }
    }
}

TEST(Compress, NonFiniteInputStaysVisible)
{
    // A diverged state must not be silently compressed to finite numbers (the runner detects
    // divergence on what is sent). No undefined behaviour either (top-k sorts NaN safely).
    Rng rng(131);
    Eigen::VectorXd x(5);
    x << 1.0, std::numeric_limits<double>::quiet_NaN(), -2.0, 0.5, 3.0;
    Eigen::VectorXd out(5);
    for (const auto &spec : allSpecs()) {
        auto c = make(spec);
        c->compress(x, out, rng);
        const std::string type = spec.is_null() ? "identity" : spec.at("type").get<std::string>();
        if (type == "rand-k")
            continue; // may drop the NaN coordinate
        EXPECT_FALSE(out.allFinite()) << spec.dump();
    }
}

// --- registry and validation -------------------------------------------------------------------

TEST(Compress, DescriptorsAreCompleteAndBuildWithDefaults)
{
    const auto &descriptors = compressorDescriptors();
    std::set<std::string> ids;
    for (const auto &desc : descriptors) {
        SCOPED_TRACE(desc.id);
        EXPECT_TRUE(ids.insert(desc.id).second) << "duplicate id";
        EXPECT_FALSE(desc.name.empty());
        EXPECT_FALSE(desc.explanation.empty());
        // The help reads as prose: no source identifier left by a rename ("phi = k/desc").
        const std::regex identifier("\\bdesc\\b");
        EXPECT_FALSE(std::regex_search(desc.explanation, identifier)) << desc.explanation;
        for (const auto &p : desc.params) {
            EXPECT_FALSE(p.help.empty()) << p.key;
            EXPECT_FALSE(std::regex_search(p.help, identifier)) << p.key << ": " << p.help;
            EXPECT_FALSE(p.label.empty()) << p.key;
            ASSERT_FALSE(p.defaultValue.is_null()) << p.key;
            if (p.type == ParamType::Integer || p.type == ParamType::Real) {
                EXPECT_GE(p.defaultValue.get<double>(), p.min) << p.key;
                EXPECT_LE(p.defaultValue.get<double>(), p.max) << p.key;
            }
        }
        auto c = makeCompressor(Json{{"type", desc.id}}, "c");
        ASSERT_TRUE(c.ok()) << c.error().toString();
        EXPECT_EQ((*c)->id(), desc.id);
        const Json resolved = (*c)->toJson();
        EXPECT_EQ(resolved.at("type"), desc.id);
        EXPECT_EQ(resolved.size(), desc.params.size() + 1);
        for (const auto &p : desc.params)
            EXPECT_EQ(resolved.at(p.key), p.defaultValue) << p.key;
        // Round trip: the resolved spec builds the same compressor.
        auto again = makeCompressor(resolved, "c");
        ASSERT_TRUE(again.ok());
        EXPECT_EQ((*again)->toJson(), resolved);
    }
    EXPECT_EQ(ids, (std::set<std::string>{"identity", "top-k", "rand-k", "dithered-quantizer",
                                          "qsgd", "norm-sign", "sign"}));
}

TEST(Compress, MakeCompressorResolvesAndFlags)
{
    auto none = makeCompressor(Json(), "runs[0].compressor");
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE((*none)->isIdentity());
    EXPECT_EQ((*none)->toJson(), Json({{"type", "identity"}}));

    auto randK = make(Json{{"type", "rand-k"}, {"k", 4}});
    EXPECT_EQ(randK->toJson(), Json({{"type", "rand-k"}, {"k", 4}, {"scaling", "unbiased"}}));

    const std::pair<const char *, bool> random[] = {
        {"identity", false}, {"top-k", false}, {"rand-k", true}, {"dithered-quantizer", true},
        {"qsgd", true},      {"norm-sign", false}, {"sign", false}};
    for (const auto &[id, isRandom] : random) {
        auto c = make(Json{{"type", id}});
        EXPECT_EQ(c->isRandom(), isRandom) << id;
        EXPECT_EQ(c->isIdentity(), std::string(id) == "identity") << id;
    }
}

TEST(Compress, MakeCompressorErrorsNameThePath)
{
    const std::string path = "runs[0].compressor";
    struct Case {
        Json spec;
        std::string where;
        std::string messageStart;
    };
    const Case cases[] = {
        {Json{{"type", "top-k"}, {"k", 0}}, path + ".k", "must be in [1, "},
        {Json{{"type", "rand-k"}, {"k", -3}}, path + ".k", "must be in [1, "},
        {Json{{"type", "top-k"}, {"k", 2.5}}, path + ".k", "must be a whole number"},
        {Json{{"type", "top-k"}, {"kk", 2}}, path + ".kk", "unknown key"},
        {Json{{"type", "identity"}, {"k", 2}}, path + ".k", "unknown key"},
        {Json{{"type", "rand-k"}, {"scaling", "both"}}, path + ".scaling", "must be one of"},
        {Json{{"type", "dithered-quantizer"}, {"b", 0}}, path + ".b", "must be in [1, "},
        {Json{{"type", "dithered-quantizer"}, {"b", 31}}, path + ".b", "must be in [1, "},
        {Json{{"type", "qsgd"}, {"s", "many"}}, path + ".s", "must be a whole number"},
        {Json{{"type", "topk"}}, path + ".type", "unknown compressor \"topk\""},
        {Json{{"type", 3}}, path + ".type", "must be a string"},
        {Json{{"k", 2}}, path + ".type", "is required"},
        {Json::array({1, 2}), path, "must be an object"},
        {Json("top-k"), path, "must be an object"},
    };
    for (const auto &c : cases) {
        auto result = makeCompressor(c.spec, path);
        ASSERT_FALSE(result.ok()) << c.spec.dump();
        EXPECT_EQ(result.error().where, c.where) << c.spec.dump();
        EXPECT_EQ(result.error().message.rfind(c.messageStart, 0), 0u)
            << c.spec.dump() << " -> " << result.error().toString();
    }
    auto unknown = makeCompressor(Json{{"type", "gzip"}}, path);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().code, ErrorCode::NotFound);
    EXPECT_NE(unknown.error().message.find("top-k"), std::string::npos); // lists the known ids
}

} // namespace
} // namespace dplab
