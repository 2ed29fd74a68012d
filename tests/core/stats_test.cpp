// SPDX-License-Identifier: GPL-3.0-or-later
// meanStd: a constant has std exactly 0 at any magnitude, nothing overflows, NaN is skipped, and
// the final-values writer (final_values.csv, summary.json) uses it.
#include "dplab/common/stats.h"
#include "dplab/engine/writers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace dplab {
namespace {

TEST(MeanStd, ConstantHasStdExactlyZeroAtAnyMagnitude)
{
    // Three repetitions with ε = 1.238e225 printed "± inf": the naive squared deviations overflow.
    for (double c : {1.238e225, -1.238e225, 1.7e308, 0.1, 1e-300, 5e-324, 0.0, 3.0}) {
        for (std::size_t n : {1u, 2u, 3u, 7u}) {
            const std::vector<double> v(n, c);
            const MeanStd s = meanStd(v.data(), v.size());
            EXPECT_EQ(s.count, int(n));
            EXPECT_EQ(s.mean, c) << c << " × " << n;
            EXPECT_EQ(s.std, 0.0) << c << " × " << n;
        }
    }
}

TEST(MeanStd, MatchesTheDefinitionAndNeverOverflows)
{
    const std::vector<double> v = {1.0, 2.0, 4.0, std::nan(""), 9.0};
    const MeanStd s = meanStd(v.data(), v.size());
    EXPECT_EQ(s.count, 4);
    EXPECT_DOUBLE_EQ(s.mean, 4.0);
    EXPECT_DOUBLE_EQ(s.std, std::sqrt((9.0 + 4.0 + 0.0 + 25.0) / 3.0));
    // Scaled by 1e300 the same numbers: finite, and the same relative result.
    std::vector<double> big;
    for (double x : {1.0, 2.0, 4.0, 9.0})
        big.push_back(x * 1e300);
    const MeanStd b = meanStd(big.data(), big.size());
    EXPECT_TRUE(std::isfinite(b.mean) && std::isfinite(b.std));
    EXPECT_NEAR(b.mean / 1e300, 4.0, 1e-12);
    EXPECT_NEAR(b.std / 1e300, s.std, 1e-12);
    // Near the largest double a naive sum (m + m/2) and squared deviation overflow.
    const double m = std::numeric_limits<double>::max();
    const std::vector<double> extremes = {m, m / 2, -m / 2};
    const MeanStd e = meanStd(extremes.data(), extremes.size());
    EXPECT_NEAR(e.mean / m, 1.0 / 3.0, 1e-12);
    EXPECT_TRUE(std::isfinite(e.std));
    EXPECT_NEAR(e.std / m, std::sqrt(42.0 / 72.0), 1e-12);
}

TEST(MeanStd, AbsentAndInfiniteValues)
{
    const std::vector<double> none = {std::nan(""), std::nan("")};
    EXPECT_EQ(meanStd(none.data(), none.size()).count, 0);
    EXPECT_TRUE(std::isnan(meanStd(none.data(), none.size()).mean));
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> diverged = {1.0, inf};
    EXPECT_EQ(meanStd(diverged.data(), diverged.size()).mean, inf);
    EXPECT_TRUE(std::isnan(meanStd(diverged.data(), diverged.size()).std));
    const std::vector<double> strided = {1.0, 100.0, 3.0, 100.0};
    EXPECT_DOUBLE_EQ(meanStd(strided.data(), 2, 2).mean, 2.0);
}

TEST(MeanStd, FinalValuesOfAConstantHaveStdZero)
{
    RunResult run;
    run.label = "r";
    run.metricNames = {"epsilon"};
    for (int k = 0; k < 3; ++k) {
        RepetitionResult rep;
        rep.iterations = {0, 300};
        rep.values = {{0.0}, {1.238e225}};
        run.repetitions.push_back(rep);
    }
    const MetricStats s = finalMetricStats(run, 0);
    EXPECT_EQ(s.count, 3);
    EXPECT_EQ(s.mean, 1.238e225);
    EXPECT_EQ(s.std, 0.0);
}

} // namespace
} // namespace dplab
