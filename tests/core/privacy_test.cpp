// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/accountant.h"
#include "dplab/privacy/rng.h"
#include "dplab/common/schedule.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dplab {
namespace {

TEST(Rng, GoldenValuesPinTheStream)
{
    // Pins the generator: a change here changes every experiment's numbers.
    Rng rng(42);
    EXPECT_EQ(rng.next(), 1546998764402558742ULL);
    EXPECT_EQ(rng.next(), 6990951692964543102ULL);
    EXPECT_EQ(rng.next(), 12544586762248559009ULL);
    Rng golden = Rng::stream(7, 0, 0, 3, RngPurpose::DecisionNoise);
    EXPECT_DOUBLE_EQ(golden.laplace(1.0), 0.43246374635001861);
    EXPECT_DOUBLE_EQ(golden.gaussian(), -0.15962956717238946);
    EXPECT_DOUBLE_EQ(golden.uniform01(), 0.93462118761832058);
    Rng s = Rng::stream(7, 0, 0, 3, RngPurpose::DecisionNoise);
    Rng t = Rng::stream(7, 0, 0, 3, RngPurpose::DecisionNoise);
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(s.next(), t.next());
}

TEST(Rng, StreamsDifferByEveryKeyPart)
{
    const std::uint64_t base = Rng::stream(1, 2, 3, 4, RngPurpose::DecisionNoise).next();
    EXPECT_NE(base, Rng::stream(9, 2, 3, 4, RngPurpose::DecisionNoise).next());
    EXPECT_NE(base, Rng::stream(1, 9, 3, 4, RngPurpose::DecisionNoise).next());
    EXPECT_NE(base, Rng::stream(1, 2, 9, 4, RngPurpose::DecisionNoise).next());
    EXPECT_NE(base, Rng::stream(1, 2, 3, 9, RngPurpose::DecisionNoise).next());
    EXPECT_NE(base, Rng::stream(1, 2, 3, 4, RngPurpose::TrackerNoise).next());
}

TEST(Rng, UniformIsInOpenUnitInterval)
{
    Rng rng(3);
    for (int i = 0; i < 100000; ++i) {
        const double u = rng.uniform01();
        ASSERT_GT(u, 0.0);
        ASSERT_LT(u, 1.0);
    }
}

TEST(Rng, LaplaceMeanAndVarianceWithinFourSigma)
{
    Rng rng(11);
    const int n = 200000;
    const double b = 1.5;
    double sum = 0, sumSq = 0;
    for (int i = 0; i < n; ++i) {
        const double x = rng.laplace(b);
        sum += x;
        sumSq += x * x;
    }
    const double mean = sum / n;
    const double var = sumSq / n - mean * mean;
    const double trueVar = 2 * b * b;
    EXPECT_NEAR(mean, 0.0, 4 * std::sqrt(trueVar / n));
    // Var of x² for Laplace: E x⁴ − (E x²)² = 24b⁴ − 4b⁴ = 20b⁴.
    EXPECT_NEAR(var, trueVar, 4 * std::sqrt(20 * std::pow(b, 4) / n));
}

TEST(Rng, GaussianMeanAndVarianceWithinFourSigma)
{
    Rng rng(12);
    const int n = 200000;
    double sum = 0, sumSq = 0;
    for (int i = 0; i < n; ++i) {
        const double x = rng.gaussian();
        sum += x;
        sumSq += x * x;
    }
    EXPECT_NEAR(sum / n, 0.0, 4 / std::sqrt(double(n)));
    EXPECT_NEAR(sumSq / n, 1.0, 4 * std::sqrt(2.0 / n));
}

TEST(Rng, BelowIsUniformOverSmallRange)
{
    Rng rng(5);
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < 30000; ++i)
        ++counts[rng.below(3)];
    for (int c : counts)
        EXPECT_NEAR(c, 10000, 4 * std::sqrt(30000 * (1.0 / 3) * (2.0 / 3)));
}

TEST(Schedule, ValuesMatchHandComputed)
{
    EXPECT_DOUBLE_EQ(Schedule::constant(0.3).at(100), 0.3);
    EXPECT_DOUBLE_EQ(Schedule::polynomial(2.0, 1.0, 1.1).at(0), 2.0);
    EXPECT_DOUBLE_EQ(Schedule::polynomial(2.0, 1.0, 1.0).at(3), 0.5);
    EXPECT_DOUBLE_EQ(Schedule::geometric(5.0, 0.5).at(3), 0.625);
}

TEST(Schedule, JsonRoundTripAndErrors)
{
    auto s = Schedule::fromJson(Json{{"type", "polynomial"}, {"a", 0.1}, {"t0", 1}, {"p", 0.6}}, "x");
    ASSERT_TRUE(s.ok());
    auto again = Schedule::fromJson(s->toJson(), "x");
    ASSERT_TRUE(again.ok());
    EXPECT_DOUBLE_EQ(again->at(7), s->at(7));
    auto bad = Schedule::fromJson(Json{{"type", "weird"}, {"a", 1}}, "runs[0].params.step");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "runs[0].params.step.type");
    auto missing = Schedule::fromJson(Json{{"type", "geometric"}, {"a", 1}}, "p");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().where, "p.q");
}

TEST(Accountant, BasicCompositionSumsSensitivityOverScale)
{
    BasicCompositionAccountant acc(2);
    Eigen::VectorXd delta(2), b(2);
    delta << 1.0, 2.0;
    b << 0.5, 4.0;
    acc.add(delta, b);
    acc.add(delta, b);
    EXPECT_DOUBLE_EQ(acc.epsilon()[0], 4.0);
    EXPECT_DOUBLE_EQ(acc.epsilon()[1], 1.0);
}

} // namespace
} // namespace dplab
