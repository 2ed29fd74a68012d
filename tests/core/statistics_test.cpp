// SPDX-License-Identifier: GPL-3.0-or-later
// Statistics for comparing runs: Student-t quantiles against tabulated values, the confidence
// interval of a hand-worked sample, the signed-rank test's exact p on constructed cases, and the
// seeded paired bootstrap.
#include "dplab/common/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dplab {
namespace {

TEST(Statistics, StudentTQuantilesMatchTables)
{
    // Two-sided 95 % critical values (any statistics table).
    EXPECT_NEAR(studentTQuantile(0.975, 1), 12.706204736, 1e-8);
    EXPECT_NEAR(studentTQuantile(0.975, 4), 2.776445105, 1e-8);
    EXPECT_NEAR(studentTQuantile(0.975, 9), 2.262157163, 1e-8);
    EXPECT_NEAR(studentTQuantile(0.975, 30), 2.042272456, 1e-8);
    EXPECT_NEAR(studentTQuantile(0.025, 4), -2.776445105, 1e-8);
    EXPECT_NEAR(studentTCdf(0.0, 3), 0.5, 1e-15);
    // df = 1 is the Cauchy law: P(T ≤ 1) = 3/4.
    EXPECT_NEAR(studentTCdf(1.0, 1), 0.75, 1e-12);
}

TEST(Statistics, SummaryIsMeanStdAndTInterval)
{
    const SampleSummary s = summarize({1, 2, 3, 4, 5});
    EXPECT_EQ(s.count, 5);
    EXPECT_DOUBLE_EQ(s.mean, 3.0);
    EXPECT_NEAR(s.std, std::sqrt(2.5), 1e-15);
    const double half = 2.776445105 * std::sqrt(2.5) / std::sqrt(5.0);
    EXPECT_NEAR(s.ciLow, 3.0 - half, 1e-8);
    EXPECT_NEAR(s.ciHigh, 3.0 + half, 1e-8);
    // NaN and infinities are not values; one value has no interval.
    const SampleSummary one = summarize({4.0, std::nan(""), INFINITY});
    EXPECT_EQ(one.count, 1);
    EXPECT_DOUBLE_EQ(one.mean, 4.0);
    EXPECT_TRUE(std::isnan(one.ciLow));
    EXPECT_TRUE(std::isnan(summarize({}).mean));
}

TEST(Statistics, SignedRankExactPOnConstructedCases)
{
    // Six positive differences: only the all-positive and all-negative patterns are as extreme.
    SignedRankTest t = wilcoxonSignedRank({1, 2, 3, 4, 5, 6});
    EXPECT_EQ(t.count, 6);
    EXPECT_DOUBLE_EQ(t.wPlus, 21.0);
    EXPECT_TRUE(t.exact);
    EXPECT_NEAR(t.p, 2.0 / 64.0, 1e-15);
    // The smallest one negative: W+ = 20; the patterns with W+ ≥ 20 are those whose negative
    // ranks sum to ≤ 1 ({}, {1}): p = 2 · 2/64.
    t = wilcoxonSignedRank({-1, 2, 3, 4, 5, 6});
    EXPECT_DOUBLE_EQ(t.wPlus, 20.0);
    EXPECT_NEAR(t.p, 4.0 / 64.0, 1e-15);
    // Zeros are dropped; five differences can never reach 0.05.
    t = wilcoxonSignedRank({0, 1, 2, 3, 4, 5});
    EXPECT_EQ(t.count, 5);
    EXPECT_NEAR(t.p, 2.0 / 32.0, 1e-15);
    // Symmetric differences: p = 1.
    EXPECT_NEAR(wilcoxonSignedRank({-3, -1, 1, 3}).p, 1.0, 1e-15);
    EXPECT_DOUBLE_EQ(wilcoxonSignedRank({}).p, 1.0);
    // Ties take mid-ranks: |d| = 1, 1, 2 → ranks 1.5, 1.5, 3.
    t = wilcoxonSignedRank({1, -1, 2});
    EXPECT_DOUBLE_EQ(t.wPlus, 4.5);
    // Patterns over ranks {1.5, 1.5, 3}: W+ ∈ {0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6}; P(W+ ≥ 4.5) = 3/8.
    EXPECT_NEAR(t.p, 2.0 * 3.0 / 8.0, 1e-15);
}

TEST(Statistics, SignedRankNormalApproximationAgreesWithExactForLargeSamples)
{
    std::vector<double> d;
    for (int k = 1; k <= 60; ++k)
        d.push_back((k % 3 == 0 ? -1.0 : 1.0) * k);
    const SignedRankTest large = wilcoxonSignedRank(d);
    EXPECT_FALSE(large.exact);
    d.resize(50);
    const SignedRankTest exact = wilcoxonSignedRank(d);
    EXPECT_TRUE(exact.exact);
    EXPECT_GT(large.p, 0.0);
    EXPECT_LT(large.p, 0.05); // two thirds positive, larger on average: clearly shifted
    EXPECT_LT(exact.p, 0.05);
}

TEST(Statistics, PairedBootstrapIsSeededAndCoversTheMean)
{
    const std::vector<double> d = {0.513, 1.071, 1.49, 0.832, 1.217, 0.905, 1.13, 1.309};
    const BootstrapInterval a = bootstrapMeanInterval(d, 42);
    const BootstrapInterval b = bootstrapMeanInterval(d, 42);
    EXPECT_EQ(a.low, b.low);
    EXPECT_EQ(a.high, b.high);
    const BootstrapInterval c = bootstrapMeanInterval(d, 43);
    EXPECT_NE(a.low, c.low);
    double mean = 0;
    for (double v : d)
        mean += v / d.size();
    EXPECT_LT(a.low, mean);
    EXPECT_GT(a.high, mean);
    EXPECT_GT(a.low, 0.513); // within the sample's range
    EXPECT_LT(a.high, 1.49);
    // A constant difference has a zero-width interval at it.
    const BootstrapInterval constant = bootstrapMeanInterval({2, 2, 2}, 1);
    EXPECT_DOUBLE_EQ(constant.low, 2.0);
    EXPECT_DOUBLE_EQ(constant.high, 2.0);
}

} // namespace
} // namespace dplab
