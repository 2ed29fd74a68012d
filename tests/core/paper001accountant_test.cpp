// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 001's privacy bounds: Theorems 3/6 (eqs. 25/35), Propositions 1/2 (eqs. 24/34),
// calibration and the per-run accountant.
#include "dplab/privacy/paper001accountant.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dplab {
namespace {

// Inputs chosen so that every hand value below is exact in binary floating point:
// d = 4 (√d = 2), M = 2, η = 0.25 (√η = 0.5), s_x = 0.5, s_y = s_v = 2, q = 0.5 (1/q = 2), ω = 4.
Paper001PrivacyInputs handInputs(Paper001Method method)
{
    Paper001PrivacyInputs in;
    in.method = method;
    in.dimension = 4;
    in.stepsize = 0.25;
    in.omega = 4.0;
    in.gradientBound = 2.0;
    in.sx = 0.5;
    in.s2 = 2.0;
    in.q = 0.5;
    return in;
}

TEST(Paper001Theorem, PgtcMatchesHandValuesForK123)
{
    // (25): 4 √d M (√η/s_x + 1/s_y) = 4·2·2·(0.5/0.5 + 1/2) = 24 per unit of Σ q^{-k};
    // Σ_{k=0}^{K} 2^k = 3, 7, 15 for K = 1, 2, 3.
    const auto in = handInputs(Paper001Method::Pgtc);
    EXPECT_DOUBLE_EQ(paper001TheoremPrefactor(in), 24.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 0), 24.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 1), 72.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 2), 168.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 3), 360.0);
}

TEST(Paper001Theorem, PpdcMatchesHandValuesForK123)
{
    // (35): 2 √d M (√η/s_x + 2/(ω s_v)) = 2·2·2·(1 + 2/8) = 10 per unit of Σ q^{-k}.
    const auto in = handInputs(Paper001Method::Ppdc);
    EXPECT_DOUBLE_EQ(paper001TheoremPrefactor(in), 10.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 1), 30.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 2), 70.0);
    EXPECT_DOUBLE_EQ(paper001TheoremEpsilon(in, 3), 150.0);
}

TEST(Paper001Theorem, SpecIllustrativeNumber)
{
    // An illustrative case: d = 10, η = 0.1, s_x = s_y = 0.1, M = 1: prefactor 4√10 (√0.1/0.1 + 10).
    Paper001PrivacyInputs in;
    in.dimension = 10;
    in.stepsize = 0.1;
    in.gradientBound = 1.0;
    in.sx = in.s2 = 0.1;
    in.q = 0.2;
    const double expected = 4.0 * std::sqrt(10.0) * (std::sqrt(0.1) / 0.1 + 10.0);
    EXPECT_NEAR(paper001TheoremPrefactor(in), expected, 1e-12 * expected);
    EXPECT_NEAR(expected, 166.5, 0.05);
}

TEST(Paper001Theorem, GrowsMonotonicallyAndGeometricallyWithRatioOneOverQ)
{
    for (double q : {0.1, 0.2, 0.5, 0.9}) {
        auto in = handInputs(Paper001Method::Pgtc);
        in.q = q;
        double previous = 0.0, previousIncrement = 0.0;
        for (long long K = 0; K <= 30; ++K) {
            const double e = paper001TheoremEpsilon(in, K);
            ASSERT_GT(e, previous) << "q = " << q << ", K = " << K;
            const double increment = e - previous;
            if (K >= 1) // increments are prefactor · q^{-K}: ratio 1/q
                EXPECT_NEAR(increment / previousIncrement, 1.0 / q, 1e-9 / q) << "q = " << q << ", K = " << K;
            previous = e;
            previousIncrement = increment;
        }
    }
}

TEST(Paper001Theorem, GeometricSumEdgeCases)
{
    EXPECT_DOUBLE_EQ(paper001GeometricSum(1.0, 9), 10.0);
    EXPECT_DOUBLE_EQ(paper001GeometricSum(0.5, -1), 0.0);
    EXPECT_TRUE(std::isinf(paper001GeometricSum(0.2, 1000))); // 5^1001 overflows a double
    // Compare the closed form with a direct sum.
    double direct = 0.0;
    for (int k = 0; k <= 25; ++k)
        direct += std::pow(0.7, -k);
    EXPECT_NEAR(paper001GeometricSum(0.7, 25), direct, 1e-12 * direct);
}

TEST(Paper001Theorem, PpdcIsMorePrivateThanPgtcWhenSvEqualsSyAndOmegaAboveOne)
{
    // Remark 7: 2(a + 2b/ω) ≤ 4(a + b) for a = √η/s_x, b = 1/s_y = 1/s_v, ω > 1.
    for (double omega : {1.01, 2.0, 5.0, 50.0})
        for (double eta : {0.001, 0.1, 0.9})
            for (double sx : {0.05, 1.0, 20.0})
                for (double s : {0.05, 1.0, 20.0}) {
                    auto pgtc = handInputs(Paper001Method::Pgtc);
                    pgtc.stepsize = eta;
                    pgtc.sx = sx;
                    pgtc.s2 = s;
                    auto ppdc = pgtc;
                    ppdc.method = Paper001Method::Ppdc;
                    ppdc.omega = omega;
                    for (long long K : {0LL, 3LL, 20LL})
                        EXPECT_LE(paper001TheoremEpsilon(ppdc, K), paper001TheoremEpsilon(pgtc, K));
                }
}

TEST(Paper001Proposition, MatchesHandValues)
{
    // η = 0.25, L_f = 1: threshold (0.25 + √(0.0625 + 1))/2 ≈ 0.6404; q = 0.8 gives the denominator
    // q² − ηL − qηL = 0.64 − 0.25 − 0.2 = 0.19. With δ = 1.9:
    //   PGTC τ = η/s_x + 1/s_y = 0.5 + 0.5 = 1      → ε = 1 · 0.64 · 1.9 / 0.19 = 6.4
    //   PPDC τ = 1/s_x + 1/(η s_v) = 2 + 2 = 4      → ε = 25.6
    auto in = handInputs(Paper001Method::Pgtc);
    in.smoothness = 1.0;
    in.delta = 1.9;
    in.q = 0.8;
    ASSERT_TRUE(paper001PropositionViolation(in).empty()) << paper001PropositionViolation(in);
    EXPECT_NEAR(*paper001PropositionEpsilon(in), 6.4, 1e-12);
    in.method = Paper001Method::Ppdc;
    EXPECT_NEAR(*paper001PropositionEpsilon(in), 25.6, 1e-12);
}

TEST(Paper001Proposition, SpecIllustrativeNumbers)
{
    // Spec: η = 0.1, L_f ≈ 0.376, s = 0.1: threshold ≈ 0.214, ε ≈ 36.8δ at q = 0.26, 14.2δ at 0.5.
    Paper001PrivacyInputs in;
    in.stepsize = 0.1;
    in.smoothness = 0.376;
    in.sx = in.s2 = 0.1;
    in.delta = 1.0;
    EXPECT_NEAR(paper001PropositionThreshold(0.1, 0.376), 0.214, 5e-4);
    in.q = 0.26;
    EXPECT_NEAR(*paper001PropositionEpsilon(in), 36.8, 0.05);
    in.q = 0.5;
    EXPECT_NEAR(*paper001PropositionEpsilon(in), 14.2, 0.05);
}

TEST(Paper001Proposition, ThresholdIsTheRootOfTheDenominator)
{
    for (double a : {0.01, 0.1, 0.4}) {
        const double t = paper001PropositionThreshold(a, 1.0);
        EXPECT_NEAR(t * t - a - t * a, 0.0, 1e-14);
    }
}

TEST(Paper001Proposition, UnavailableWhenConditionsFail)
{
    auto in = handInputs(Paper001Method::Pgtc);
    in.smoothness = 1.0;
    in.q = 0.6; // below the threshold ≈ 0.6404
    EXPECT_FALSE(paper001PropositionEpsilon(in).has_value());
    EXPECT_NE(paper001PropositionViolation(in).find("q in"), std::string::npos);
    in.q = 0.8;
    in.stepsize = 0.5; // η < 1/(2 L_f) = 0.5 fails
    EXPECT_FALSE(paper001PropositionEpsilon(in).has_value());
    in.stepsize = 0.25;
    in.smoothness = 0.0; // unknown L_f
    EXPECT_FALSE(paper001PropositionEpsilon(in).has_value());
}

TEST(Paper001Calibration, InvertsBothBounds)
{
    auto in = handInputs(Paper001Method::Pgtc);
    in.smoothness = 1.0;
    in.q = 0.8;
    for (auto method : {Paper001Method::Pgtc, Paper001Method::Ppdc}) {
        in.method = method;
        for (double target : {0.5, 1.0, 10.0}) {
            for (long long K : {0LL, 5LL, 40LL}) {
                const auto s = paper001CalibrateNoiseScale(in, Paper001Bound::FiniteHorizon, target, K);
                ASSERT_TRUE(s.has_value());
                auto calibrated = in;
                calibrated.sx = calibrated.s2 = *s;
                EXPECT_NEAR(paper001TheoremEpsilon(calibrated, K), target, 1e-12 * target);
            }
            const auto s = paper001CalibrateNoiseScale(in, Paper001Bound::InfiniteHorizon, target, 0);
            ASSERT_TRUE(s.has_value());
            auto calibrated = in;
            calibrated.sx = calibrated.s2 = *s;
            EXPECT_NEAR(*paper001PropositionEpsilon(calibrated), target, 1e-12 * target);
        }
    }
    // A smaller budget needs more noise; ε ∝ 1/s.
    const double s1 = *paper001CalibrateNoiseScale(in, Paper001Bound::FiniteHorizon, 1.0, 10);
    const double s2 = *paper001CalibrateNoiseScale(in, Paper001Bound::FiniteHorizon, 2.0, 10);
    EXPECT_NEAR(s1 / s2, 2.0, 1e-12);
    EXPECT_FALSE(paper001CalibrateNoiseScale(in, Paper001Bound::FiniteHorizon, 0.0, 10).has_value());
    in.q = 0.5; // proposition conditions fail
    EXPECT_FALSE(paper001CalibrateNoiseScale(in, Paper001Bound::InfiniteHorizon, 1.0, 0).has_value());
}

TEST(Paper001Accountant, ChargesTheReleasesMadeSoFar)
{
    // Two agents with different s and q; after t iterations ε_i = (25) with K = t − 1.
    auto a = handInputs(Paper001Method::Pgtc);
    auto b = a;
    b.q = 0.25;
    b.sx = 1.0;
    Paper001Accountant acc(Paper001Bound::FiniteHorizon, {a, b});
    EXPECT_EQ(acc.epsilon().size(), 2);
    EXPECT_EQ(acc.epsilon().maxCoeff(), 0.0);
    EXPECT_NE(acc.name().find("Theorem 3"), std::string::npos);
    double previous = 0.0;
    for (long long t = 1; t <= 12; ++t) {
        acc.advance();
        EXPECT_EQ(acc.iterations(), t);
        EXPECT_NEAR(acc.epsilon()[0], paper001TheoremEpsilon(a, t - 1), 1e-12 * paper001TheoremEpsilon(a, t - 1));
        EXPECT_NEAR(acc.epsilon()[1], paper001TheoremEpsilon(b, t - 1), 1e-12 * paper001TheoremEpsilon(b, t - 1));
        EXPECT_GT(acc.epsilon()[0], previous);
        previous = acc.epsilon()[0];
    }
    // Hand check of agent 0 after 3 iterations: K = 2 → 168 (see PgtcMatchesHandValuesForK123).
    Paper001Accountant three(Paper001Bound::FiniteHorizon, {a});
    for (int t = 0; t < 3; ++t)
        three.advance();
    EXPECT_DOUBLE_EQ(three.epsilon()[0], 168.0);
}

TEST(Paper001Accountant, InfiniteHorizonIsConstant)
{
    auto in = handInputs(Paper001Method::Ppdc);
    in.smoothness = 1.0;
    in.delta = 1.9;
    in.q = 0.8;
    Paper001Accountant acc(Paper001Bound::InfiniteHorizon, {in});
    EXPECT_NE(acc.name().find("Proposition 2"), std::string::npos);
    for (int t = 0; t < 5; ++t) {
        acc.advance();
        EXPECT_NEAR(acc.epsilon()[0], 25.6, 1e-12);
    }
    EXPECT_FALSE(acc.assumptions().empty());
}

} // namespace
} // namespace dplab
