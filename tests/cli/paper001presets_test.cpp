// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 001's presets, run through dplab-cli at reduced size (fewer iterations, two q values),
// checked against the paper's claims that this setting reproduces (docs/claims.md).
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

/** One run's recorded rows of metrics.csv: column name → values in iteration order. */
using Series = std::map<std::string, std::vector<double>>;

std::map<std::string, Series> readMetrics(const std::filesystem::path &file)
{
    std::istringstream in(readText(file));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> names = csvCells(line);
    std::map<std::string, Series> runs;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = csvCells(line);
        for (std::size_t c = 1; c < cells.size(); ++c)
            runs[cells[0]][names[c]].push_back(cells[c].empty() ? NAN : std::strtod(cells[c].c_str(), nullptr));
    }
    return runs;
}

/** Runs a preset after `edit`, returns the output folder. */
std::filesystem::path runPreset(const TempDir &dir, const std::string &name, const std::function<void(Json &)> &edit)
{
    Json e = Json::parse(readText(preset(name)));
    edit(e);
    writeText(dir / "e.json", e.dump());
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()) + " --quiet");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return dir / "out";
}

/** The value at the recorded iteration k (record_every divides k). */
double at(const Series &s, const std::string &metric, long long k)
{
    const auto &it = s.at("iteration");
    for (std::size_t i = 0; i < it.size(); ++i)
        if (static_cast<long long>(it[i]) == k)
            return s.at(metric)[i];
    ADD_FAILURE() << "iteration " << k << " not recorded";
    return NAN;
}

/** Bits sent when `metric` first falls below `threshold` (+∞ if never). */
double bitsBelow(const Series &s, const std::string &metric, double threshold)
{
    for (std::size_t i = 0; i < s.at(metric).size(); ++i)
        if (s.at(metric)[i] < threshold)
            return s.at("bits")[i];
    return INFINITY;
}

/** Bits sent from which ‖∇f(x̄)‖ stays within `tolerance` (relative) of `target`. */
double bitsToAccuracy(const Series &s, double target, double tolerance)
{
    const auto &g = s.at("gradient_norm");
    std::size_t first = g.size();
    for (std::size_t i = g.size(); i-- > 0;) {
        if (std::abs(g[i] - target) > tolerance * target)
            break;
        first = i;
    }
    return first < g.size() ? s.at("bits")[first] : INFINITY;
}

const std::vector<std::string> kPgtc = {"PGTC-C1", "PGTC-C2", "PGTC-C3"};
const std::vector<std::string> kPpdc = {"PPDC-C1", "PPDC-C2", "PPDC-C3"};

TEST(Paper001Presets, PlResidualsDecayLinearlyAndPgtcMatchesDiaDspAccuracyWithFewerBits)
{
    // Figs. 5-6 on (38), 800 iterations.
    TempDir dir;
    const auto out = runPreset(dir, "paper001-fig5-pl.json", [](Json &e) { e["iterations"] = 800; });
    const auto runs = readMetrics(out / "metrics.csv");
    ASSERT_EQ(runs.size(), 7u);
    for (const auto &[label, s] : runs) {
        // Linear decay: R drops by orders of magnitude and keeps dropping at a geometric pace
        // (R_600 ≤ R_200 / 10), then the run sits at its own limit point (consensus reached).
        EXPECT_LT(at(s, "residual", 200), 1e-2 * at(s, "residual", 0)) << label;
        EXPECT_LT(at(s, "residual", 600), 0.1 * at(s, "residual", 200)) << label;
        EXPECT_LT(s.at("consensus_error").back(), 1e-2) << label;
    }
    // The limit is set by the accumulated noise, not by the compressor: PGTC lands where DiaDSP
    // does (the same ξ_y streams), PPDC at ω = 5 times that (ξ_v is drawn from the same streams,
    // ∇f(x^∞) = −ω v̄ against −Σξ̄_y).
    const double dia = runs.at("DiaDSP").at("gradient_norm").back();
    for (const auto &label : kPgtc)
        EXPECT_NEAR(runs.at(label).at("gradient_norm").back(), dia, 0.01 * dia) << label;
    for (const auto &label : kPpdc)
        EXPECT_NEAR(runs.at(label).at("gradient_norm").back(), 5.0 * dia, 0.05 * dia) << label;
    // Bits to DiaDSP's final accuracy (‖∇f(x̄)‖ within 1 %): fewer for every compressed PGTC.
    const double diaBits = bitsToAccuracy(runs.at("DiaDSP"), dia, 0.01);
    for (const auto &label : kPgtc)
        EXPECT_LT(bitsToAccuracy(runs.at(label), dia, 0.01), diaBits) << label;
    // Bits per iteration: PGTC 2 compressed vectors, PPDC 1, DiaDSP 2 × 320.
    EXPECT_EQ(runs.at("DiaDSP").at("bits").back(), 800.0 * 6 * 2 * 320);
    EXPECT_EQ(runs.at("PGTC-C1").at("bits").back(), 800.0 * 6 * 2 * 2 * (32 + 4));
    EXPECT_EQ(runs.at("PPDC-C3").at("bits").back(), 800.0 * 6 * 1 * (32 + 10));
}

// Problem (38), bits to reach R < 1e-8 (Figs. 5–6; claims 4 and 3). PINS A DISAGREEMENT WITH
// PAPER 001 at the preset's Table I γ (0.2, 0.2, 0.1): DiaDSP (η = 0.05, the largest step that
// does not oscillate with this W) needs FEWER bits than every compressed PGTC, and PPDC-C1 needs
// fewer iterations than PGTC-C1 — the paper says the opposite. At γ = 0.5 both claims hold
// (docs/paper001-results.md §1: the sweep over W, γ and DiaDSP's η). R is measured against each
// run's own last iterate; a run that only gets there at the last recorded iteration never did.
TEST(Paper001Presets, PlBitsToResidualDependOnGammaTableOneLosesToDiaDspUnlikeThePaperHalfWins)
{
    auto bitsTo = [](const Series &s) {
        const double b = bitsBelow(s, "residual", 1e-8);
        return b < s.at("bits").back() ? b : INFINITY;
    };
    auto iterationsTo = [](const Series &s) -> double {
        const auto &r = s.at("residual");
        for (std::size_t i = 0; i + 1 < r.size(); ++i)
            if (r[i] < 1e-8)
                return s.at("iteration")[i];
        return INFINITY;
    };
    {
        TempDir dir;
        const auto runs = readMetrics(runPreset(dir, "paper001-fig5-pl.json", [](Json &) {}) / "metrics.csv");
        const double dia = bitsTo(runs.at("DiaDSP"));
        ASSERT_LT(dia, INFINITY);
        for (const auto &label : kPgtc)
            EXPECT_GT(bitsTo(runs.at(label)), dia) << label << " (the paper: fewer bits than DiaDSP)";
        EXPECT_LT(iterationsTo(runs.at("PPDC-C1")), iterationsTo(runs.at("PGTC-C1"))) << "(the paper: PPDC slower)";
    }
    // At γ = 0.5 the bit counts depend on the noise draws (norm-sign most: 231 k to 640 k bits over
    // seeds 1–5), so the claim is checked on the median over five seeds.
    std::map<std::string, std::vector<double>> bits, iterations;
    for (int seed = 1; seed <= 5; ++seed) {
        TempDir dir;
        const auto runs = readMetrics(runPreset(dir, "paper001-fig5-pl.json", [seed](Json &e) {
                                          e["seed"] = seed;
                                          for (int i = 0; i < 3; ++i)
                                              e["runs"][i]["params"]["gamma"] = 0.5;
                                      }) / "metrics.csv");
        for (const auto &[label, series] : runs) {
            bits[label].push_back(bitsTo(series));
            iterations[label].push_back(iterationsTo(series));
        }
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double dia = median(bits.at("DiaDSP"));
    for (const auto &label : kPgtc)
        EXPECT_LT(median(bits.at(label)), dia) << label;
    for (const auto &ppdc : kPpdc)
        for (const auto &pgtc : kPgtc)
            EXPECT_GT(median(iterations.at(ppdc)), median(iterations.at(pgtc))) << ppdc << " vs " << pgtc;
}

TEST(Paper001Presets, LogisticPgtcNeedsFewerBitsThanDiaDsp)
{
    // Figs. 2-3 on (37), 1000 iterations: every PGTC variant reaches R < 1e-8 with fewer bits.
    TempDir dir;
    const auto out = runPreset(dir, "paper001-fig2-nonconvex-logistic.json", [](Json &e) { e["iterations"] = 1000; });
    const auto runs = readMetrics(out / "metrics.csv");
    const double diaBits = bitsBelow(runs.at("DiaDSP"), "residual", 1e-8);
    EXPECT_LT(diaBits, INFINITY);
    for (const auto &label : kPgtc) {
        EXPECT_LT(bitsBelow(runs.at(label), "residual", 1e-8), diaBits) << label;
        EXPECT_LT(at(runs.at(label), "residual", 600), 1e-3 * at(runs.at(label), "residual", 200)) << label;
    }
    // ε of Theorem 3 with M from the problem: positive and growing.
    const auto &eps = runs.at("PGTC-C1").at("epsilon");
    EXPECT_GT(eps[1], 0.0);
    EXPECT_GT(eps[2], eps[1]);
}

/** gradient_norm mean per (q, run) from sweep.csv. */
std::map<double, std::map<std::string, double>> readSweep(const std::filesystem::path &file)
{
    std::istringstream in(readText(file));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> names = csvCells(line);
    const auto column = std::find(names.begin(), names.end(), "gradient_norm_mean") - names.begin();
    std::map<double, std::map<std::string, double>> out;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = csvCells(line);
        out[std::strtod(cells[1].c_str(), nullptr)][cells[2]] = std::strtod(cells[column].c_str(), nullptr);
    }
    return out;
}

void reduceSweep(Json &e)
{
    e["iterations"] = 1000;
    e["record_every"] = 1000;
    e["sweep"]["values"] = Json::array({0.18, 0.9});
}

TEST(Paper001Presets, PlAccuracyGrowsWithQAndPpdcIsAboutOmegaTimesWorse)
{
    // Fig. 7 on (38), s = 5, q ∈ {0.18, 0.9}, 3 repetitions.
    TempDir dir;
    const auto out = runPreset(dir, "paper001-fig7-q-sweep.json", reduceSweep);
    auto g = readSweep(out / "sweep.csv");
    for (double q : {0.18, 0.9}) {
        // Spec: RMS ‖∇f(x^∞)‖ ≈ √(2 d s² / (n (1 − q²))) = 9.28 (q = 0.18), 20.9 (q = 0.9) for
        // PGTC and DiaDSP; 3 repetitions give the mean within a factor 2 of it.
        const double expected = std::sqrt(2.0 * 10 * 25 / (6 * (1 - q * q)));
        for (const auto &label : kPgtc) {
            EXPECT_GT(g[q][label], 0.5 * expected) << label << " q " << q;
            EXPECT_LT(g[q][label], 1.5 * expected) << label << " q " << q;
            EXPECT_NEAR(g[q][label], g[q]["DiaDSP"], 0.05 * g[q]["DiaDSP"]) << label << " q " << q;
        }
        for (const auto &label : kPpdc)
            EXPECT_GT(g[q][label], 3.0 * g[q]["PGTC-C1"]) << label << " q " << q;
        // Claim 9: Corollary 1's neighbourhood 8 d s̄²/(1 − q̄²) (the limit of its time average as
        // T → ∞, where the O(1/T) term is gone) bounds PGTC's squared accuracy with room to
        // spare: it is 4n = 24 times the expected limit 2 d s²/(n(1 − q²)).
        const double corollary1 = 8.0 * 10 * 25 / (1 - q * q);
        for (const auto &label : kPgtc)
            EXPECT_LT(g[q][label] * g[q][label], corollary1) << label << " q " << q;
        // Corollary 3's 2 d κ̌₁ s̄_v²/(1 − q̄²) has κ̌₁ = κ̄₃κ₁₂/n from constants the paper does not
        // give (only n κ̌₁ > 9): the smallest admissible value, 9/n, gives 18 d s²/(n(1 − q²)),
        // BELOW PPDC's measured ≈ ω² · 2 d s²/(n(1 − q²)) = 50 d s²/(n(1 − q²)); so the bound
        // only holds for κ̌₁ ≳ 25/n, which the paper gives no way to compute.
        const double corollary3AtSmallestKappa = 2.0 * 10 * (9.0 / 6) * 25 / (1 - q * q);
        for (const auto &label : kPpdc)
            EXPECT_GT(g[q][label] * g[q][label], corollary3AtSmallestKappa) << label << " q " << q;
    }
    for (const auto &[label, value] : g[0.9])
        EXPECT_GT(value, g[0.18][label]) << label;
}

TEST(Paper001Presets, LogisticAccuracyGrowsWithQAndPpdcIsWorse)
{
    // Fig. 4 on (37), s = 0.1. PPDC's ‖∇f‖ saturates near the logistic loss's gradient bound.
    TempDir dir;
    const auto out = runPreset(dir, "paper001-fig4-q-sweep.json", reduceSweep);
    auto g = readSweep(out / "sweep.csv");
    for (const auto &label : kPgtc) {
        EXPECT_GT(g[0.9][label], 2.0 * g[0.18][label]) << label;
        EXPECT_NEAR(g[0.18][label], g[0.18]["DiaDSP"], 0.05 * g[0.18]["DiaDSP"]) << label;
    }
    for (double q : {0.18, 0.9})
        for (const auto &label : kPpdc)
            EXPECT_GT(g[q][label], g[q]["PGTC-C1"]) << label << " q " << q;
}

} // namespace
} // namespace dplab::test
