// SPDX-License-Identifier: GPL-3.0-or-later
// Tuning: finds a minimiser known in closed form, candidates are ordinary runs with the
// experiment's seeds, results do not depend on the thread count, comparisons pair repetitions.
#include "dplab/engine/experiment.h"
#include "dplab/engine/reporttuning.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/tuning.h"
#include "dplab/engine/writers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace dplab {
namespace {

Experiment parse(const Json &doc)
{
    auto e = parseExperiment(doc, ".");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return std::move(e.value());
}

/** DGD on four identical quadratics ½ xᵀ diag(1, 3) x (x* = 0), every agent starting at (1, 1):
 *  the agents stay in consensus and x_T = ((1 − α)^T, (1 − 3α)^T), so the final distance to the
 *  optimum is √((1 − α)^{2T} + (1 − 3α)^{2T}), minimised where (1 − α)^{2T−1} = 3 (3α − 1)^{2T−1}:
 *  α* = (1 + c) / (1 + 3c) with c = 3^{1/(2T−1)}. */
Json quadraticDgd(int iterations)
{
    Json agent = {{"A", {{1, 0}, {0, 3}}}, {"b", {0, 0}}};
    return {{"format", "dplab-experiment"},
            {"version", 1},
            {"seed", 5},
            {"iterations", iterations},
            {"repetitions", 1},
            {"graph", {{"generator", {{"type", "ring"}, {"nodes", 4}}}, {"weights", {{"scheme", "metropolis"}}}}},
            {"problem", {{"type", "quadratic"}, {"dimension", 2}, {"agents", {agent, agent, agent, agent}}}},
            {"runs",
             {{{"label", "DGD"},
               {"algorithm", "dgd"},
               {"params", {{"stepsize", 0.1}}},
               {"init", {{"x", {{1, 1}, {1, 1}, {1, 1}, {1, 1}}}}}}}}};
}

Json noisyPushPull()
{
    return Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "seed": 21, "iterations": 80, "repetitions": 3,
      "graph": { "directed": true, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0],[0,2]] },
      "problem": { "type": "quadratic", "dimension": 2,
                   "agents": [ {"A": [[2,0],[0,1]], "b": [1,0]}, {"A": [[1,0],[0,2]], "b": [0,1]},
                               {"A": [[3,1],[1,2]], "b": [1,1]}, {"A": [[1,0],[0,1]], "b": [-1,0]} ] },
      "runs": [ { "label": "noisy", "algorithm": "push-pull", "params": { "stepsize": 0.05 },
                  "privacy": { "noise_theta": 0.1, "noise_y": 0.1, "noise_y_decay": 0.6 } },
                { "label": "noisier", "algorithm": "push-pull", "params": { "stepsize": 0.05 },
                  "privacy": { "noise_theta": 0.3, "noise_y": 0.3, "noise_y_decay": 0.6 } } ]
    })");
}

/** Tuning `parameter` over [lo, hi] (on a log scale when `log`) for the final `metric`. */
TuneOptions tuneOptions(const std::string &parameter, double lo, double hi, bool log, const std::string &metric)
{
    return {.parameter = parameter, .lo = lo, .hi = hi, .logScale = log, .metric = metric};
}

TEST(Tuning, FindsTheClosedFormStepOfANoiseFreeQuadratic)
{
    const int T = 20;
    const Experiment e = parse(quadraticDgd(T));
    TuneOptions options = tuneOptions("params.stepsize", 0.05, 0.6, true, "distance_to_optimum");
    auto result = tune(e, options, RunnerOptions{1});
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const double c = std::pow(3.0, 1.0 / (2 * T - 1));
    const double optimum = (1 + c) / (1 + 3 * c);
    const TunedRun &run = result->runs.at(0);
    ASSERT_TRUE(run.tuned);
    const TuneCandidate *best = run.bestCandidate();
    ASSERT_NE(best, nullptr);
    EXPECT_EQ(result->jobs, 20); // default budget: 20 candidates × 1 repetition
    EXPECT_EQ(run.candidates.size(), 20u);
    // The final bracket holds the optimum and the best value is within its width of it.
    EXPECT_LE(run.bracketLow, optimum);
    EXPECT_GE(run.bracketHigh, optimum);
    EXPECT_LE(std::fabs(best->value - optimum), run.bracketHigh - run.bracketLow);
    EXPECT_LT(run.bracketHigh - run.bracketLow, 0.01 * optimum);
    // Its mean is the closed-form distance there (one repetition, no noise).
    const double a = best->value;
    EXPECT_NEAR(best->stats.mean, std::sqrt(std::pow(1 - a, 2 * T) + std::pow(1 - 3 * a, 2 * T)), 1e-12);
    // tuned.json carries the best value and is a valid experiment.
    EXPECT_EQ(result->tuned["runs"][0]["params"]["stepsize"].get<double>(), best->value);
    EXPECT_TRUE(parseExperiment(result->tuned, ".").ok());
}

TEST(Tuning, CandidatesAreOrdinaryRunsWithTheExperimentsSeeds)
{
    const Experiment e = parse(noisyPushPull());
    TuneOptions options = tuneOptions("params.stepsize", 0.01, 0.2, true, "distance_to_optimum");
    options.budget = 2 * 3 * 5; // 5 candidates per run
    auto result = tune(e, options, RunnerOptions{2});
    ASSERT_TRUE(result.ok()) << result.error().toString();
    EXPECT_EQ(result->jobs, 30);
    for (int r = 0; r < 2; ++r) {
        const TuneCandidate *best = result->runs[r].bestCandidate();
        ASSERT_NE(best, nullptr);
        ASSERT_EQ(best->finals.size(), 3u);
        // The same experiment run by the runner at that value gives the same final values.
        Json doc = noisyPushPull();
        doc["runs"][r]["params"]["stepsize"] = best->value;
        const Experiment at = parse(doc);
        auto run = Runner(RunnerOptions{1}).run(at);
        ASSERT_TRUE(run.ok());
        const RunResult &rr = run->points[0].runs[r];
        const auto m = std::find(rr.metricNames.begin(), rr.metricNames.end(), "distance_to_optimum") - rr.metricNames.begin();
        for (int rep = 0; rep < 3; ++rep)
            EXPECT_EQ(rr.repetitions[rep].values.back()[m], best->finals[rep]) << "run " << r << " repetition " << rep;
    }
}

TEST(Tuning, SameSeedSameCsvAtAnyThreadCount)
{
    const Experiment e = parse(noisyPushPull());
    TuneOptions options = tuneOptions("params.stepsize", 0.01, 0.2, true, "consensus_error");
    options.budget = 2 * 3 * 6;
    options.compare = true;
    auto one = tune(e, options, RunnerOptions{1});
    auto two = tune(e, options, RunnerOptions{2});
    auto four = tune(e, options, RunnerOptions{4});
    ASSERT_TRUE(one.ok() && two.ok() && four.ok());
    EXPECT_EQ(tuningCsv(*one), tuningCsv(*two));
    EXPECT_EQ(tuningCsv(*one), tuningCsv(*four));
    EXPECT_EQ(bestJson(*one).dump(), bestJson(*two).dump());
    EXPECT_EQ(comparisonCsv(*one), comparisonCsv(*four));
}

TEST(Tuning, ComparePairsTheRepetitionsOfTheTunedRuns)
{
    Json doc = noisyPushPull();
    doc["repetitions"] = 6;
    const Experiment e = parse(doc);
    TuneOptions options = tuneOptions("params.stepsize", 0.02, 0.1, false, "distance_to_optimum");
    options.budget = 2 * 6 * 3;
    options.compare = true;
    auto result = tune(e, options, RunnerOptions{2});
    ASSERT_TRUE(result.ok()) << result.error().toString();
    ASSERT_EQ(result->comparisons.size(), 1u);
    const PairComparison &pc = result->comparisons[0];
    EXPECT_EQ(pc.repetitions, 6);
    const TuneCandidate &a = *result->runs[0].bestCandidate();
    const TuneCandidate &b = *result->runs[1].bestCandidate();
    double mean = 0;
    std::vector<double> diff;
    for (int k = 0; k < 6; ++k) {
        diff.push_back(a.finals[k] - b.finals[k]);
        mean += diff.back() / 6;
    }
    EXPECT_NEAR(pc.meanDifference, mean, 1e-15);
    EXPECT_EQ(pc.wilcoxon.p, wilcoxonSignedRank(diff).p);
    EXPECT_EQ(pc.significant, pc.wilcoxon.p < 0.05);
    EXPECT_LE(pc.bootstrap.low, pc.meanDifference);
    EXPECT_GE(pc.bootstrap.high, pc.meanDifference);
    EXPECT_NE(comparisonCsv(*result).find("run_a,run_b,mean_difference"), std::string::npos);
}

TEST(Tuning, TheReportsCompareTunedSectionComesFromBestJson)
{
    Json doc = noisyPushPull();
    doc["repetitions"] = 6;
    const Experiment e = parse(doc);
    TuneOptions options;
    options.parameter = "params.stepsize";
    options.lo = 0.02;
    options.hi = 0.1;
    options.metric = "distance_to_optimum";
    options.budget = 2 * 6 * 3;
    options.compare = true;
    auto result = tune(e, options, RunnerOptions{2});
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const Json best = bestJson(*result);
    auto blocks = compareTunedBlocks(best);
    ASSERT_TRUE(blocks.ok()) << blocks.error().toString();
    ASSERT_EQ(blocks->size(), 4u); // heading, sentence, runs, pairs
    EXPECT_EQ((*blocks)[0].plainText(), "Compare tuned");
    const ReportBlock &runs = (*blocks)[2];
    ASSERT_EQ(runs.rows.size(), 2u);
    EXPECT_EQ(runs.rows[0][0], "noisy"); // the experiment's order, not best.json's key order
    EXPECT_EQ(runs.rows[0][1], formatSignificant(result->runs[0].bestCandidate()->value, 6));
    EXPECT_EQ(runs.rows[0][3], "6");
    const ReportBlock &pairs = (*blocks)[3];
    ASSERT_EQ(pairs.rows.size(), 1u);
    EXPECT_EQ(pairs.rows[0][0], "noisy − noisier");
    EXPECT_EQ(pairs.rows[0][3], formatSignificant(result->comparisons[0].wilcoxon.p, 6));
    EXPECT_EQ(pairs.rows[0][5].find("better") != std::string::npos, result->comparisons[0].significant);

    // It goes after the final values, before the next section.
    std::vector<ReportBlock> report(3);
    report[0].kind = report[2].kind = ReportBlock::Kind::Heading;
    report[0].text = {{"Final values"}};
    report[2].text = {{"Warnings"}};
    insertCompareTuned(report, *blocks);
    ASSERT_EQ(report.size(), 7u);
    EXPECT_EQ(report[2].plainText(), "Compare tuned");
    EXPECT_EQ(report[6].plainText(), "Warnings");

    // A tuning without --compare adds nothing; a malformed one names the key.
    Json plain = best;
    plain.erase("comparisons");
    EXPECT_TRUE(compareTunedBlocks(plain)->empty());
    Json bad = best;
    bad["comparisons"] = 3;
    ASSERT_FALSE(compareTunedBlocks(bad).ok());
    EXPECT_EQ(compareTunedBlocks(bad).error().where, "best.json: comparisons");
}

TEST(Tuning, ProgressAfterEveryRoundAndCancellationKeepsWhatWasEvaluated)
{
    const Experiment e = parse(noisyPushPull());
    TuneOptions options = tuneOptions("params.stepsize", 0.01, 0.2, true, "distance_to_optimum");
    std::vector<TuneProgress> seen;
    auto all = tune(e, options, RunnerOptions{2}, nullptr, nullptr, [&](const TuneProgress &p) { seen.push_back(p); });
    ASSERT_TRUE(all.ok());
    ASSERT_GE(seen.size(), 3u);
    EXPECT_EQ(seen.front().candidates.size(), 2u * 8u); // the grid of both runs
    EXPECT_EQ(seen.back().jobs, all->jobs);
    EXPECT_EQ(all->jobs, all->budget);
    std::size_t candidates = 0;
    for (const auto &p : seen)
        candidates += p.candidates.size();
    EXPECT_EQ(candidates, all->runs[0].candidates.size() + all->runs[1].candidates.size());

    // Cancelled after the first round: the grid is kept, nothing more runs.
    RunControl control;
    auto cut = tune(e, options, RunnerOptions{2}, nullptr, &control, [&](const TuneProgress &) { control.cancel(); });
    ASSERT_TRUE(cut.ok());
    EXPECT_TRUE(cut->cancelled);
    EXPECT_EQ(cut->jobs, 2 * 8 * 3);
    EXPECT_EQ(cut->runs[0].candidates.size(), 8u);
}

TEST(Tuning, AnExperimentWideIntegerIsSearchedOnIntegersAndAnEdgeIsFlagged)
{
    // More iterations only help a noise-free run: the best is the upper end, which is flagged.
    const Experiment e = parse(quadraticDgd(20));
    TuneOptions options = tuneOptions("iterations", 5, 12, false, "distance_to_optimum");
    auto result = tune(e, options, RunnerOptions{1});
    ASSERT_TRUE(result.ok()) << result.error().toString();
    EXPECT_TRUE(result->integer);
    const TunedRun &run = result->runs[0];
    std::set<double> values;
    for (const auto &c : run.candidates) {
        EXPECT_EQ(c.value, std::round(c.value));
        EXPECT_TRUE(values.insert(c.value).second) << "evaluated twice: " << c.value;
    }
    EXPECT_LE(run.candidates.size(), 8u); // 5 … 12: at most 8 different values
    EXPECT_LE(result->jobs, result->budget);
    EXPECT_EQ(run.bestCandidate()->value, 12.0);
    EXPECT_EQ(result->tuned["iterations"], 12);
    ASSERT_FALSE(result->notes.empty());
    EXPECT_NE(result->notes.front().find("upper end of the range"), std::string::npos);
}

TEST(Tuning, BadOptionsNameTheOption)
{
    const Experiment e = parse(noisyPushPull());
    auto check = [&](TuneOptions o) { return checkTuneOptions(e, o); };
    TuneOptions good;
    good.parameter = "params.stepsize";
    good.lo = 0.01;
    good.hi = 0.1;
    good.metric = "distance_to_optimum";
    EXPECT_TRUE(check(good).ok());
    auto fails = [&](TuneOptions o, const std::string &where) {
        const Status s = check(o);
        ASSERT_FALSE(s.ok()) << where;
        EXPECT_EQ(s.error().where, where) << s.error().toString();
    };
    TuneOptions o = good;
    o.parameter = "params.stepsiz";
    fails(o, "--param");
    o.parameter = "runs[5].params.stepsize";
    fails(o, "--param");
    o.parameter = "problem.type"; // a string
    fails(o, "--param");
    o = good;
    o.lo = 0.1;
    fails(o, "--range");
    o.lo = 0.2;
    fails(o, "--range");
    o = good;
    o.lo = 0;
    o.logScale = true;
    fails(o, "--range");
    o = good;
    o.metric = "accuracy";
    fails(o, "--metric");
    o = good;
    o.budget = 5; // 2 runs × 3 repetitions × 3 candidates = 18 at least
    fails(o, "--budget");
    o = good;
    o.parameter = "runs[0].params.stepsize";
    o.compare = true;
    fails(o, "--compare");
}

} // namespace
} // namespace dplab
