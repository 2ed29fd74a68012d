// SPDX-License-Identifier: GPL-3.0-or-later
// The paper-003 presets, run through the CLI at reduced size (fewer repetitions, and fewer
// iterations for the steady-state sweeps), seeded: what each shows next to the paper's claims.
#include "clitest.h"

#include <nlohmann/json.hpp>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

/** Runs `name` with its repetitions (and, if > 0, iterations) replaced; returns summary.json. */
Json runReduced(const TempDir &dir, const std::string &name, int repetitions, int iterations = 0)
{
    Json e = Json::parse(readText(preset(name)));
    e["repetitions"] = repetitions;
    if (iterations > 0)
        e["iterations"] = iterations;
    writeText(dir / "e.json", e.dump());
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()) + " --quiet");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return Json::parse(readText(dir / "out" / "summary.json"));
}

const Json &runNamed(const Json &runs, const std::string &label)
{
    for (const auto &run : runs)
        if (run["label"] == label)
            return run;
    ADD_FAILURE() << "no run " << label;
    return runs[0];
}

double finalMean(const Json &run, const std::string &metric)
{
    return run["final"][metric]["mean"].get<double>();
}

/** Mean final distance_to_optimum per sweep point, in sweep order. */
std::vector<double> sweepDistances(const Json &summary)
{
    std::vector<double> out;
    for (const auto &point : summary["points"])
        out.push_back(finalMean(point["runs"][0], "distance_to_optimum"));
    return out;
}

/** The final distances of a sweep preset run with 10 repetitions of 1500 iterations, point by
 *  point, each checked to exceed the one before (`label` names the swept quantity). */
std::vector<double> growingSweepDistances(const std::string &name, const std::string &label)
{
    TempDir dir;
    const auto d = sweepDistances(runReduced(dir, name, 10, 1500));
    for (std::size_t k = 1; k < d.size(); ++k)
        EXPECT_GT(d[k], d[k - 1]) << label << " point " << k;
    return d;
}

const Json &runsOf(const Json &summary)
{
    return summary.contains("points") ? summary["points"][0]["runs"] : summary["runs"];
}

// PINS A DISAGREEMENT WITH PAPER 003 (Fig. 1, claim 6): at equal ε the default DPOP ends more
// accurate than Algorithm 1, even with the reading most favourable to Algorithm 1 that DPLab's
// grid found (x_i(0) = a_i, b_η : b_ξ = 17 : 1; docs/paper003-results.md). Algorithm 1 only beats
// DPOP run with slower schedules, and by ≈ 10 %, not the paper's clear margin.
TEST(Paper003Presets, Fig1AtEqualBudgetDefaultDpopBeatsAlgorithmOneUnlikeThePaper)
{
    TempDir dir;
    const Json s = runReduced(dir, "paper003-fig1-dpop.json", 40);
    const Json &gt = runNamed(runsOf(s), "Algorithm 1 (robust-dp-gt)");
    const Json &dpop = runNamed(runsOf(s), "DPOP");
    const Json &slow = runNamed(runsOf(s), "DPOP (slower schedules)");
    for (const Json *run : {&gt, &dpop, &slow}) {
        EXPECT_EQ((*run)["status"], "ok");
        // The premise: every noise calibrated to the same ε at K = 500.
        EXPECT_NEAR(finalMean(*run, "epsilon"), 1e4, 1e-6);
    }
    // From x(0) = a_i the average starts at x* = mean(a_i): Algorithm 1 ends near it (≈ 0.02 at
    // 500 repetitions) ...
    EXPECT_LT(finalMean(gt, "distance_to_optimum"), 0.05);
    // ... yet the default DPOP ends closer (≈ 0.014), contrary to the paper's Fig. 1.
    EXPECT_LT(finalMean(dpop, "distance_to_optimum"), 0.9 * finalMean(gt, "distance_to_optimum"));
    // The slow DPOP is within a factor 2 of Algorithm 1 either way (measured 0.023 vs 0.021).
    EXPECT_LT(finalMean(slow, "distance_to_optimum"), 2.0 * finalMean(gt, "distance_to_optimum"));
    EXPECT_LT(finalMean(gt, "distance_to_optimum"), 2.0 * finalMean(slow, "distance_to_optimum"));
}

TEST(Paper003Presets, Fig2AlgorithmOneBeatsDiaDspAtEqualBudget)
{
    TempDir dir;
    const Json s = runReduced(dir, "paper003-fig2-diadsp.json", 40);
    const Json &gt = runNamed(runsOf(s), "Algorithm 1 (robust-dp-gt)");
    const Json &dia = runNamed(runsOf(s), "DiaDSP");
    EXPECT_NEAR(finalMean(gt, "epsilon"), 1e5, 1e-5);
    EXPECT_NEAR(finalMean(dia, "epsilon"), 1e5, 1e-5);
    EXPECT_LT(finalMean(gt, "distance_to_optimum"), 0.1);
    EXPECT_LT(finalMean(gt, "distance_to_optimum"), 0.2 * finalMean(dia, "distance_to_optimum"));
}

TEST(Paper003Presets, Fig3ErrorGrowsWithRhoWo)
{
    const auto d = growingSweepDistances("paper003-fig3-rho-wo-sweep.json", "ρ(W_o)");
    ASSERT_EQ(d.size(), 5u);
    // θ ∝ ρ(W_o)² (Theorem 4's proof): the distance roughly doubles from 0.1 to 0.2.
    EXPECT_NEAR(d[1] / d[0], 2.0, 0.3);
}

TEST(Paper003Presets, Fig4ErrorGrowsWithRhoW)
{
    EXPECT_EQ(growingSweepDistances("paper003-fig4-rho-w-sweep.json", "ρ_w").size(), 6u);
}

} // namespace
} // namespace dplab::test
