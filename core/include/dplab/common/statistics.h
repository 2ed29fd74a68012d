// SPDX-License-Identifier: GPL-3.0-or-later
//
// Small-sample statistics for comparing runs over repetitions (tuning, compare tuned, the report,
// docs scripts): the mean with its Student-t confidence interval, and two paired comparisons over
// common seeds — the Wilcoxon signed-rank test (exact distribution up to 50 non-zero differences,
// ties by mid-ranks; normal approximation with tie correction beyond) and a paired bootstrap
// interval of the mean difference drawn from a seeded generator (the same seed gives the same
// interval). Definitions and when to use which: docs/tuning.md.
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <vector>

namespace dplab {

/** Mean, sample standard deviation (n − 1) and the confidence interval of the mean
 *  mean ± t_{(1+level)/2, n−1} · std / √n of the finite values. With fewer than two values the
 *  interval is NaN (undefined), with none the mean too. */
struct SampleSummary {
    int count = 0;
    double mean = 0.0;
    double std = 0.0;
    double ciLow = 0.0;
    double ciHigh = 0.0;
};
SampleSummary summarize(const std::vector<double> &values, double level = 0.95);

/** P(T ≤ t) for Student's t with `df` > 0 degrees of freedom (regularized incomplete beta). */
double studentTCdf(double t, double df);
/** The p-quantile of Student's t with `df` > 0 degrees of freedom, 0 < p < 1 (to 1e-12). */
double studentTQuantile(double p, double df);

/** The Wilcoxon signed-rank test of "the differences are symmetric about 0", two-sided. Zero
 *  differences are dropped (Wilcoxon's convention); `count` is the number left. `wPlus` is the
 *  sum of the ranks of the positive differences. `p` is exact (the distribution of W+ over every
 *  sign pattern, mid-ranks for ties) for count ≤ 50, else the normal approximation with the tie
 *  correction. With count 0, p = 1. Note: with n non-zero differences the smallest exact
 *  two-sided p is 2 / 2^n, so fewer than 6 can never reach p < 0.05. */
struct SignedRankTest {
    int count = 0;
    double wPlus = 0.0;
    double p = 1.0;
    bool exact = true;
};
SignedRankTest wilcoxonSignedRank(const std::vector<double> &differences);

/** Percentile interval of the mean of `differences` over `resamples` paired bootstrap resamples
 *  (indices drawn with replacement from xoshiro256** seeded with `seed`). NaN with no values. */
struct BootstrapInterval {
    double low = 0.0;
    double high = 0.0;
};
BootstrapInterval bootstrapMeanInterval(const std::vector<double> &differences, std::uint64_t seed,
                                        int resamples = 10000, double level = 0.95);

} // namespace dplab
