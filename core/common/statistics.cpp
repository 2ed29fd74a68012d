// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/statistics.h"

#include "dplab/privacy/rng.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace dplab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/** Continued fraction of the regularized incomplete beta (modified Lentz). */
double betaContinuedFraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    if (std::fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + aa * d;
        d = std::fabs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = std::fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + aa * d;
        d = std::fabs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = std::fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < 1e-15)
            break;
    }
    return h;
}

/** I_x(a, b). */
double regularizedBeta(double a, double b, double x)
{
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

} // namespace

double studentTCdf(double t, double df)
{
    assert(df > 0 && "studentTCdf: df must be > 0");
    if (std::isnan(t))
        return kNaN;
    if (std::isinf(t))
        return t > 0 ? 1.0 : 0.0;
    const double tail = 0.5 * regularizedBeta(0.5 * df, 0.5, df / (df + t * t)); // P(T > |t|)
    return t >= 0 ? 1.0 - tail : tail;
}

double studentTQuantile(double p, double df)
{
    assert(p > 0 && p < 1 && df > 0 && "studentTQuantile: needs 0 < p < 1 and df > 0");
    if (p == 0.5)
        return 0.0;
    // Bracket, then bisect: the CDF is monotone and cheap.
    double lo = -1.0, hi = 1.0;
    while (studentTCdf(lo, df) > p)
        lo *= 2.0;
    while (studentTCdf(hi, df) < p)
        hi *= 2.0;
    for (int k = 0; k < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo)); ++k) {
        const double mid = 0.5 * (lo + hi);
        (studentTCdf(mid, df) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

SampleSummary summarize(const std::vector<double> &values, double level)
{
    SampleSummary s;
    double sum = 0.0;
    for (double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++s.count;
        }
    if (s.count == 0) {
        s.mean = s.std = s.ciLow = s.ciHigh = kNaN;
        return s;
    }
    s.mean = sum / s.count;
    double sq = 0.0;
    for (double v : values)
        if (std::isfinite(v))
            sq += (v - s.mean) * (v - s.mean);
    s.std = s.count > 1 ? std::sqrt(sq / (s.count - 1)) : 0.0;
    if (s.count < 2) {
        s.ciLow = s.ciHigh = kNaN;
        return s;
    }
    const double half = studentTQuantile(0.5 + 0.5 * level, s.count - 1) * s.std / std::sqrt(double(s.count));
    s.ciLow = s.mean - half;
    s.ciHigh = s.mean + half;
    return s;
}

SignedRankTest wilcoxonSignedRank(const std::vector<double> &differences)
{
    SignedRankTest out;
    std::vector<double> d;
    for (double v : differences)
        if (std::isfinite(v) && v != 0.0)
            d.push_back(v);
    const int n = static_cast<int>(d.size());
    out.count = n;
    if (n == 0)
        return out;
    // Mid-ranks of |d|, doubled so that they are integers.
    std::vector<int> order(n);
    for (int k = 0; k < n; ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return std::fabs(d[a]) < std::fabs(d[b]); });
    std::vector<long long> rank2(n);
    double tieTerm = 0.0;
    for (int k = 0; k < n;) {
        int j = k;
        while (j + 1 < n && std::fabs(d[order[j + 1]]) == std::fabs(d[order[k]]))
            ++j;
        const long long twiceMid = (k + 1) + (j + 1); // 2 · (k+1 + j+1)/2
        for (int m = k; m <= j; ++m)
            rank2[order[m]] = twiceMid;
        const double t = j - k + 1;
        tieTerm += t * t * t - t;
        k = j + 1;
    }
    long long w2 = 0, total2 = 0;
    for (int k = 0; k < n; ++k) {
        total2 += rank2[k];
        if (d[k] > 0)
            w2 += rank2[k];
    }
    out.wPlus = 0.5 * static_cast<double>(w2);
    if (n <= 50) {
        // counts[s]: sign patterns whose doubled positive-rank sum is s, as probabilities.
        std::vector<double> counts(static_cast<std::size_t>(total2) + 1, 0.0);
        counts[0] = 1.0;
        long long reach = 0;
        for (int k = 0; k < n; ++k) {
            for (long long s = reach; s >= 0; --s)
                if (counts[s] != 0.0)
                    counts[s + rank2[k]] += counts[s];
            reach += rank2[k];
            for (auto &c : counts)
                c *= 0.5;
        }
        double below = 0.0, above = 0.0;
        for (long long s = 0; s <= total2; ++s) {
            if (s <= w2)
                below += counts[s];
            if (s >= w2)
                above += counts[s];
        }
        out.p = std::min(1.0, 2.0 * std::min(below, above));
        out.exact = true;
        return out;
    }
    const double mean = n * (n + 1) / 4.0;
    const double var = n * (n + 1) * (2.0 * n + 1) / 24.0 - tieTerm / 48.0;
    const double z = var > 0 ? (std::fabs(out.wPlus - mean) - 0.5) / std::sqrt(var) : 0.0;
    out.p = std::min(1.0, std::erfc(std::max(0.0, z) / std::sqrt(2.0)));
    out.exact = false;
    return out;
}

BootstrapInterval bootstrapMeanInterval(const std::vector<double> &differences, std::uint64_t seed, int resamples,
                                        double level)
{
    std::vector<double> d;
    for (double v : differences)
        if (std::isfinite(v))
            d.push_back(v);
    if (d.empty() || resamples < 1)
        return {kNaN, kNaN};
    Rng rng(seed);
    std::vector<double> means(static_cast<std::size_t>(resamples));
    for (auto &m : means) {
        double sum = 0.0;
        for (std::size_t k = 0; k < d.size(); ++k)
            sum += d[rng.below(d.size())];
        m = sum / static_cast<double>(d.size());
    }
    std::sort(means.begin(), means.end());
    auto at = [&](double q) {
        const double pos = q * (resamples - 1);
        const auto k = static_cast<std::size_t>(std::floor(pos));
        const double f = pos - static_cast<double>(k);
        return k + 1 < means.size() ? means[k] * (1 - f) + means[k + 1] * f : means[k];
    };
    return {at(0.5 - 0.5 * level), at(0.5 + 0.5 * level)};
}

} // namespace dplab
