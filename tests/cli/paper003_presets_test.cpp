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

const Json &runsOf(const Json &summary)
{
    return summary.contains("points") ? summary["points"][0]["runs"] : summary["runs"];
}

TEST(Paper003Presets, Fig1EqualBudgetAgainstDpop)
{
    TempDir dir;
    const Json s = runReduced(dir, "paper003-fig1-dpop.json", 40);
    const Json &gt = runNamed(runsOf(s), "Algorithm 1 (robust-dp-gt)");
    const Json &dpop = runNamed(runsOf(s), "DPOP");
    EXPECT_EQ(gt["status"], "ok");
    EXPECT_EQ(dpop["status"], "ok");
    // The premise: both noises calibrated to the same ε at K = 500.
    EXPECT_NEAR(finalMean(gt, "epsilon"), 1e4, 1e-6);
    EXPECT_NEAR(finalMean(dpop, "epsilon"), 1e4, 1e-6);
    // Both make progress from x = 0 (initial distance ≈ 0.7)...
    EXPECT_LT(finalMean(gt, "distance_to_optimum"), 0.4);
    // ...but, contrary to the paper's Fig. 1, DPOP ends far more accurate in this setting: the
    // Fig. 1 schedule γ_k = 2/(1+k)^1.1 is summable (see the preset's description). This pins
    // DPLab's finding; if it flips, revisit the report.
    EXPECT_LT(finalMean(dpop, "distance_to_optimum"), 0.2 * finalMean(gt, "distance_to_optimum"));
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
    TempDir dir;
    const Json s = runReduced(dir, "paper003-fig3-rho-wo-sweep.json", 10, 1500);
    const auto d = sweepDistances(s);
    ASSERT_EQ(d.size(), 5u);
    for (std::size_t k = 1; k < d.size(); ++k)
        EXPECT_GT(d[k], d[k - 1]) << "ρ(W_o) point " << k;
    // θ ∝ ρ(W_o)² (Theorem 4's proof): the distance roughly doubles from 0.1 to 0.2.
    EXPECT_NEAR(d[1] / d[0], 2.0, 0.3);
}

TEST(Paper003Presets, Fig4ErrorGrowsWithRhoW)
{
    TempDir dir;
    const Json s = runReduced(dir, "paper003-fig4-rho-w-sweep.json", 10, 1500);
    const auto d = sweepDistances(s);
    ASSERT_EQ(d.size(), 6u);
    for (std::size_t k = 1; k < d.size(); ++k)
        EXPECT_GT(d[k], d[k - 1]) << "ρ_w point " << k;
}

} // namespace
} // namespace dplab::test
