// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 002's gossip teaching preset shows what it promises, through the CLI. (The paper-002
// figure presets take minutes; their outcomes are recorded in the issue note, and the claims they
// illustrate are unit-tested at reduced size in tests/core/multiclass_test.cpp.)
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

TEST(Paper002Presets, AcceleratedGossipWinsOnTheRingNotOnTheCompleteGraph)
{
    TempDir dir;
    const auto r = runCli("run " + quote(preset("paper002-teaching-gossip.json")) + " --out " + quote(dir.path().string())
                          + " --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json s = Json::parse(readText(dir / "summary.json"));
    ASSERT_EQ(s["points"].size(), 2u);
    const Json &ring = s["points"][0];
    const Json &complete = s["points"][1];
    EXPECT_EQ(ring["value"]["type"], "ring");
    const double ringPlain = finalMean(ring, "Plain gossip", "consensus_error");
    const double ringPaper = finalMean(ring, "Accelerated (paper θ)", "consensus_error");
    const double ringChebyshev = finalMean(ring, "Accelerated (Chebyshev θ*)", "consensus_error");
    EXPECT_LT(ringPaper, 1e-6 * ringPlain);
    EXPECT_LT(ringChebyshev, ringPaper);
    // Complete graph, σ₂ = 1/2: everyone reaches the average to rounding; plain needs no momentum.
    EXPECT_LT(finalMean(complete, "Plain gossip", "consensus_error"), 1e-25);
    EXPECT_LT(finalMean(complete, "Accelerated (paper θ)", "consensus_error"), 1e-25);
}

// A small online multiclass experiment (synthetic Gaussian classes, q = 4, p = 3, n = 9 on the
// complete graph, T = epochs·samples rounds) for the metrics paper 002 reports.
Json smallOnlineExperiment(const std::string &algorithm, const Json &params, int samples, int epochs)
{
    return Json{{"format", "dplab-experiment"},
                {"version", 1},
                {"name", "paper-002 metrics"},
                {"seed", 7},
                {"iterations", epochs * samples},
                {"repetitions", 2},
                {"record_every", samples},
                {"graph", {{"generator", {{"type", "complete"}, {"nodes", 9}}}, {"weights", {{"scheme", "lazy-metropolis"}}}}},
                {"problem",
                 {{"type", "online-multiclass"},
                  {"radius", 10},
                  {"epochs", epochs},
                  {"reference_iterations", 300},
                  {"data",
                   {{"source", "synthetic"}, {"samples", samples}, {"dimension", 3}, {"classes", 4}, {"separation", 1.0}}}}},
                {"runs", Json::array({Json{{"label", algorithm},
                                           {"algorithm", algorithm},
                                           {"params", params},
                                           {"privacy", {{"epsilon", 10}}}}})}};
}

Json runSmall(const std::string &algorithm, const Json &params, int samples, int epochs, TempDir &dir)
{
    writeText(dir / "experiment.json", smallOnlineExperiment(algorithm, params, samples, epochs).dump(2));
    const auto r = runCli("run " + quote((dir / "experiment.json").string()) + " --out "
                          + quote((dir / "out").string()) + " --threads 1 --quiet");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return Json::parse(readText(dir / "out" / "summary.json"));
}

TEST(Paper002Metrics, SummaryHasAverageLossRegretEpsilonAndWallTime)
{
    // The metrics: average_loss AL(T), regret against the best fixed decision in hindsight
    // (summary.json's reference.value is that decision's loss per example, (1/(nT)) Σ_τ Σ_j f_{τ,j}),
    // ε (never above the target) and the wall time of every run and repetition. T = 10000 rounds:
    // long enough that PD-OCG's eq. (10) gossip count L' ≈ 85 fits in its block L = √T = 100.
    for (const auto &[algorithm, params] :
         {std::pair<std::string, Json>{"pd-ogd", Json{{"clip", 1}}},
          std::pair<std::string, Json>{"pd-ftgl", Json{{"clip", 1}, {"h_scale", 0.3}}},
          std::pair<std::string, Json>{"pd-ocg", Json{{"clip", 1}, {"h_scale", 0.3}}}}) {
        SCOPED_TRACE(algorithm);
        TempDir dir;
        const Json s = runSmall(algorithm, params, 1000, 10, dir);
        ASSERT_TRUE(s.contains("reference"));
        const double hindsight = s["reference"]["value"].get<double>();
        // The best X in K is no worse than X = 0, whose loss is ln q.
        EXPECT_LE(hindsight, std::log(4.0) + 1e-12);
        const Json &run = s["runs"][0];
        ASSERT_EQ(run["final"]["average_loss"]["values"].size(), 2u);
        ASSERT_EQ(run["final"]["regret"]["values"].size(), 2u);
        for (int k = 0; k < 2; ++k) {
            const double al = run["final"]["average_loss"]["values"][k].get<double>();
            const double regret = run["final"]["regret"]["values"][k].get<double>();
            // R_T averaged over learners = Σ_τ (1/n)Σ_i f_τ(x_i(τ)) − Σ_τ f_τ(x*) = nT·(AL(T) − value*).
            EXPECT_NEAR(regret, 9.0 * 10000.0 * (al - hindsight), 1e-9 * std::max(1.0, std::abs(regret)));
            EXPECT_LE(run["final"]["epsilon"]["values"][k].get<double>(), 10.0 * (1 + 1e-12));
            EXPECT_GE(run["repetitions"][k]["wall_time_seconds"].get<double>(), 0.0);
        }
        EXPECT_GT(run["final"]["epsilon"]["mean"].get<double>(), 0.0);
        for (const auto &w : run["warnings"])
            EXPECT_EQ(w.get<std::string>().find("exceeds the target"), std::string::npos) << w;
        const double wall = run["wall_time_seconds"].get<double>();
        EXPECT_GT(wall, 0.0);
        EXPECT_NEAR(wall,
                    run["repetitions"][0]["wall_time_seconds"].get<double>()
                        + run["repetitions"][1]["wall_time_seconds"].get<double>(),
                    1e-9);
    }
}

TEST(Paper002Metrics, AverageLossOfTheZeroDecisionIsLogQ)
{
    // T = 60 rounds is shorter than two PD-FTGL blocks (L ≥ 56 on this graph), so every learner
    // plays X = 0 throughout: each example's loss is ln(1 + (q − 1)·e⁰) = ln q, hence AL(T) = ln 4,
    // and the regret is nT·(ln 4 − value*).
    TempDir dir;
    const Json s = runSmall("pd-ftgl", Json{{"clip", 1}, {"h_scale", 0.3}}, 60, 1, dir);
    const Json &run = s["runs"][0];
    EXPECT_NEAR(run["final"]["average_loss"]["mean"].get<double>(), std::log(4.0), 1e-12);
    EXPECT_NEAR(run["final"]["regret"]["mean"].get<double>(),
                9.0 * 60.0 * (std::log(4.0) - s["reference"]["value"].get<double>()), 1e-9);
    EXPECT_NEAR(run["final"]["average_loss"]["std"].get<double>(), 0.0, 1e-12);
    EXPECT_EQ(run["final"]["epsilon"]["mean"].get<double>(), 0.0); // no block sum was released
}

TEST(Paper002Metrics, TooShortAHorizonForPdOcgsGossipIsReportedNotHidden)
{
    // T = 60: PD-OCG's block L = √T ≈ 8 is shorter than eq. (10)'s L' ≈ 56, so the gossip is
    // capped at L steps and misses Lemma D.3's accuracy. The paper's noise then does not give ε:
    // the accountant charges the larger sensitivity (its total exceeds the target) and the run
    // says so in its warnings (cap at L and warn: docs/paper002.md).
    TempDir dir;
    const Json s = runSmall("pd-ocg", Json{{"clip", 1}, {"h_scale", 0.3}}, 60, 1, dir);
    const Json &run = s["runs"][0];
    EXPECT_GT(run["final"]["epsilon"]["mean"].get<double>(), 10.0);
    bool capped = false, exceeds = false;
    for (const auto &w : run["warnings"]) {
        capped = capped || w.get<std::string>().find("capped at L") != std::string::npos;
        exceeds = exceeds || w.get<std::string>().find("exceeds the target") != std::string::npos;
    }
    EXPECT_TRUE(capped) << run["warnings"].dump();
    EXPECT_TRUE(exceeds) << run["warnings"].dump();
}

} // namespace
} // namespace dplab::test
