// SPDX-License-Identifier: GPL-3.0-or-later
// Experiment parsing, the Runner (determinism, cancel, pause/step, divergence) and metrics.
#include "dplab/engine/experiment.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/runlabel.h"
#include "dplab/algo/algorithm.h"
#include "dplab/engine/writers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

namespace dplab {
namespace {

Json experimentJson()
{
    return Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "name": "engine test", "seed": 21,
      "iterations": 200, "repetitions": 4, "record_every": 10,
      "graph": { "directed": true, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0],[0,2]] },
      "problem": { "type": "quadratic", "dimension": 2,
                   "agents": [ {"A": [[2,0],[0,1]], "b": [1,0]}, {"A": [[1,0],[0,2]], "b": [0,1]},
                               {"A": [[3,1],[1,2]], "b": [1,1]}, {"A": [[1,0],[0,1]], "b": [-1,0]} ] },
      "runs": [ { "label": "clean", "algorithm": "push-pull", "params": { "stepsize": 0.05 } },
                { "label": "noisy", "algorithm": "push-pull", "params": { "stepsize": 0.05 },
                  "privacy": { "noise_theta": 0.1, "noise_y": 0.1, "noise_y_decay": 0.6 },
                  "init": { "type": "random" } } ]
    })");
}

Experiment parse(const Json &doc)
{
    auto e = parseExperiment(doc, ".");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return std::move(e.value());
}

/** One private robust-dp-gt run ("dp") on a 4-agent path and a 2-d rendezvous problem;
 *  `settings` adds the name, seed, iterations, repetitions and record_every. */
Experiment privateRendezvous(const Json &settings)
{
    Json doc = Json::parse(R"({
      "format": "dplab-experiment", "version": 1,
      "graph": { "generator": { "type": "path", "nodes": 4 }, "weights": { "scheme": "metropolis" } },
      "problem": { "type": "rendezvous", "dimension": 2, "low": 0, "high": 1 },
      "runs": [ { "label": "dp", "algorithm": "robust-dp-gt", "params": { "alpha": 0.1, "gamma": 1 },
                  "privacy": { "noise_s": 1, "noise_x": 1, "gradient_bound": 3, "clip": true } } ]
    })");
    doc.update(settings);
    return parse(doc);
}

TEST(Experiment, DefaultsAreResolvedAndRoundTrip)
{
    const Experiment e = parse(experimentJson());
    EXPECT_EQ(e.runs.size(), 2u);
    // Directed graph without weights: uniform row / column.
    EXPECT_EQ(e.runs[0].R.rows(), 4);
    EXPECT_LE((e.runs[0].R.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
    EXPECT_LE((e.runs[0].C.colwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
    EXPECT_EQ(e.resolved["runs"][0]["init"]["type"], "zeros");
    EXPECT_EQ(e.resolved["runs"][0]["compressor"]["type"], "identity");
    const Experiment again = parse(e.resolved);
    EXPECT_EQ(again.resolved, e.resolved);
}

std::vector<std::vector<std::vector<double>>> allValues(const ExperimentResult &r)
{
    std::vector<std::vector<std::vector<double>>> out;
    for (const auto &p : r.points)
        for (const auto &run : p.runs)
            for (const auto &rep : run.repetitions)
                out.push_back(rep.values);
    return out;
}

TEST(Experiment, AbsentRecordEveryStaysAbsentSoTheCadenceFollowsTheIterations)
{
    Json doc = experimentJson();
    doc.erase("record_every");
    doc["iterations"] = 10000;
    const Experiment e = parse(doc);
    EXPECT_EQ(e.recordEvery, 5); // at most kDefaultRecordedPoints = 2000 recorded iterations
    EXPECT_FALSE(e.resolved.contains("record_every"));
    // A sweep point (or any edit of the iterations) gets its own default cadence.
    doc["sweep"] = Json{{"parameter", "iterations"}, {"values", {4000, 20000}}};
    const Experiment swept = parse(doc);
    auto point = experimentAtSweepValue(swept, 20000);
    ASSERT_TRUE(point.ok()) << point.error().toString();
    EXPECT_EQ(point->recordEvery, 10);
    // An explicit record_every is kept.
    doc.erase("sweep");
    doc["record_every"] = 7;
    EXPECT_EQ(parse(doc).resolved.at("record_every"), 7);
}

TEST(Experiment, LabelsAreAnyTextButControlCharacters)
{
    for (const std::string label : {"A, B", "say \"hi\"", "日本語 🚀", "x;y|z", "שלום"}) {
        Json doc = experimentJson();
        doc["runs"][0]["label"] = label;
        EXPECT_TRUE(parseExperiment(doc, ".").ok()) << label;
        EXPECT_EQ(runLabelProblem(label), "") << label;
    }
    for (const std::string label : {std::string(), std::string("a\nb"), std::string("tab\there"), std::string("nul\0x", 5),
                                    std::string("del\x7f"), std::string("c1\xc2\x85")}) {
        Json doc = experimentJson();
        doc["runs"][0]["label"] = label;
        const auto e = parseExperiment(doc, ".");
        ASSERT_FALSE(e.ok()) << label;
        EXPECT_NE(e.error().toString().find("runs[0].label"), std::string::npos) << e.error().toString();
    }
}

TEST(Experiment, DefaultRunLabelsAreValidAndShortForEveryAlgorithm)
{
    std::set<std::string> seen;
    for (const AlgorithmDescriptor &a : algorithmRegistry()) {
        const std::string label = defaultRunLabel(a);
        EXPECT_EQ(runLabelProblem(label), "") << a.id << ": " << label;
        EXPECT_LE(label.size(), 4 * kDefaultRunLabelMax) << a.id;
        std::size_t chars = 0;
        for (char c : label)
            chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        EXPECT_LE(chars, kDefaultRunLabelMax) << a.id << ": " << label;
        EXPECT_EQ(label.find_first_of("(),"), std::string::npos) << a.id << ": " << label;
        EXPECT_TRUE(seen.insert(label).second) << "two algorithms share the default label " << label;
        // The validator accepts it as the label of a run.
        Json doc = experimentJson();
        doc["runs"][0]["label"] = label;
        EXPECT_TRUE(parseExperiment(doc, ".").ok()) << a.id << ": " << label;
    }
    AlgorithmDescriptor made;
    made.id = "x";
    made.name = "An extraordinarily long algorithm name that goes on and on (with, commas)";
    EXPECT_EQ(defaultRunLabel(made), "An extraordinarily long");
    made.name = "\"quoted\" name";
    EXPECT_EQ(defaultRunLabel(made), "\"quoted\" name");
    made.name = "(";
    EXPECT_EQ(defaultRunLabel(made), "x");
}

TEST(Runner, OptimalityGapRecordsRoundOffAsZero)
{
    // A converged run printed gaps such as −5.55e-18: F(x̄) − F* below the round-off of F.
    Json doc = experimentJson();
    doc["iterations"] = 3000;
    doc["repetitions"] = 1;
    const Experiment e = parse(doc);
    auto r = Runner().run(e);
    ASSERT_TRUE(r.ok());
    const double fStar = r->points[0].reference->value;
    const double roundOff = 64 * std::numeric_limits<double>::epsilon() * std::fabs(fStar);
    const auto &run = r->points[0].runs[0];
    ASSERT_EQ(run.metricNames[2], "optimality_gap");
    int zeros = 0;
    for (const auto &row : run.repetitions[0].values) {
        const double gap = row[2];
        EXPECT_TRUE(gap == 0.0 || std::fabs(gap) > roundOff) << gap;
        EXPECT_FALSE(std::signbit(gap) && gap == 0.0);
        zeros += gap == 0.0;
    }
    EXPECT_GT(zeros, 0); // converged to the reference within round-off
}

TEST(Runner, ResultsDoNotDependOnThreadCount)
{
    const Experiment e = parse(experimentJson());
    auto one = Runner({.threads = 1}).run(e);
    auto two = Runner({.threads = 2}).run(e);
    auto four = Runner({.threads = 4}).run(e);
    ASSERT_TRUE(one.ok() && two.ok() && four.ok());
    EXPECT_EQ(allValues(*one), allValues(*two));
    EXPECT_EQ(allValues(*one), allValues(*four));
    // Repetitions of the noisy run differ (their noise streams differ), the clean ones do not.
    const auto &noisy = one->points[0].runs[1].repetitions;
    EXPECT_NE(noisy[0].values, noisy[1].values);
    const auto &clean = one->points[0].runs[0].repetitions;
    EXPECT_EQ(clean[0].values, clean[1].values);
}

TEST(Runner, MetricsAtTheMeanOnAHelperThreadGiveTheSameRowsAndBatches)
{
    // One job and two or more threads: the metrics at x̄ (here F and ∇F of a quadratic) are
    // evaluated on a helper thread while the job steps on, and each row goes out one record late.
    // The rows, their order, ε per agent and the streamed batches are those of one thread.
    const Experiment e = privateRendezvous(
        {{"name", "helper"}, {"seed", 5}, {"iterations", 150}, {"repetitions", 1}, {"record_every", 1}});
    struct Collect : RunObserver {
        std::vector<long long> iterations;
        std::vector<std::vector<double>> values;
        std::vector<std::vector<double>> epsilon;
        void onBatch(const MetricsBatch &b) override
        {
            ASSERT_EQ(b.values.size(), b.iterations.size());
            ASSERT_EQ(b.epsilonAgents.size(), b.iterations.size());
            iterations.insert(iterations.end(), b.iterations.begin(), b.iterations.end());
            values.insert(values.end(), b.values.begin(), b.values.end());
            epsilon.insert(epsilon.end(), b.epsilonAgents.begin(), b.epsilonAgents.end());
        }
    };
    Collect oneSeen, twoSeen;
    auto one = Runner({.threads = 1, .batchSize = 7}).run(e, &oneSeen);
    auto two = Runner({.threads = 2, .batchSize = 7}).run(e, &twoSeen);
    auto three = Runner({.threads = 3}).run(e);
    ASSERT_TRUE(one.ok() && two.ok() && three.ok());
    const RepetitionResult &a = one->points[0].runs[0].repetitions[0];
    const RepetitionResult &b = two->points[0].runs[0].repetitions[0];
    ASSERT_EQ(a.iterations.size(), 151u);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.values, b.values); // bit for bit, the metrics at x̄ included
    const auto &names = one->points[0].runs[0].metricNames;
    EXPECT_NE(std::find(names.begin(), names.end(), "gradient_norm"), names.end());
    EXPECT_EQ(a.epsilonAgents, b.epsilonAgents);
    EXPECT_EQ(allValues(*one), allValues(*three));
    EXPECT_EQ(oneSeen.iterations, a.iterations);
    EXPECT_EQ(twoSeen.iterations, a.iterations);
    EXPECT_EQ(twoSeen.values, a.values);
    EXPECT_EQ(twoSeen.epsilon, a.epsilonAgents);
    // ε grows with the iterations: a row paired with the ε of another iteration would show.
    ASSERT_GE(a.epsilonAgents.size(), 3u);
    ASSERT_FALSE(a.epsilonAgents[1].empty());
    EXPECT_LT(a.epsilonAgents[1][0], a.epsilonAgents[2][0]);
}

TEST(Runner, CallsTheWorkerStartHookOnEveryThreadThatRunsJobs)
{
    const Experiment e = parse(experimentJson());
    for (int threads : {1, 2, 3}) {
        std::mutex mutex;
        std::set<std::thread::id> seen;
        int calls = 0;
        RunnerOptions options;
        options.threads = threads;
        options.onWorkerStart = [&] {
            std::lock_guard lock(mutex);
            ++calls;
            seen.insert(std::this_thread::get_id());
        };
        auto r = Runner(options).run(e);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(calls, threads) << threads;
        EXPECT_EQ(static_cast<int>(seen.size()), threads) << "one call per thread";
        EXPECT_EQ(seen.count(std::this_thread::get_id()), threads == 1 ? 1u : 0u)
            << "one thread: the caller runs the jobs itself";
    }
}

TEST(Runner, RecordsEveryKAndTheLastIteration)
{
    Json doc = experimentJson();
    doc["iterations"] = 95;
    const Experiment e = parse(doc);
    auto r = Runner().run(e);
    ASSERT_TRUE(r.ok());
    const auto &its = r->points[0].runs[0].repetitions[0].iterations;
    ASSERT_EQ(its.size(), 11u); // 0, 10, ..., 90, 95
    EXPECT_EQ(its.front(), 0);
    EXPECT_EQ(its[9], 90);
    EXPECT_EQ(its.back(), 95);
}

TEST(Runner, MetricsMatchTheirDefinitions)
{
    const Experiment e = parse(experimentJson());
    auto r = Runner().run(e);
    ASSERT_TRUE(r.ok());
    const auto &run = r->points[0].runs[0];
    const std::vector<std::string> expected = {"consensus_error", "distance_to_optimum", "optimality_gap",
                                               "gradient_norm", "bits"};
    EXPECT_EQ(run.metricNames, expected);
    ASSERT_TRUE(r->points[0].reference.has_value());
    // Noise-free push-pull converges: every metric but bits goes to ~0.
    const auto &last = run.repetitions[0].values.back();
    EXPECT_LT(last[0], 1e-8);
    EXPECT_LT(last[1], 1e-4);
    EXPECT_LT(std::abs(last[2]), 1e-8);
    // bits: 2 messages × 4 agents × 2 values × 32 bits per iteration.
    EXPECT_EQ(last[4], 200.0 * 2 * 4 * 2 * 32);
}

TEST(Runner, KeepsPerAgentEpsilonWhoseMaximumIsTheEpsilonMetric)
{
    const Experiment e = privateRendezvous({{"name", "per-agent epsilon"}, {"seed", 3}, {"iterations", 40},
                                            {"repetitions", 2}, {"record_every", 7}});
    struct Collect : RunObserver {
        std::vector<std::vector<double>> streamed;
        void onBatch(const MetricsBatch &b) override
        {
            EXPECT_EQ(b.epsilonAgents.size(), b.iterations.size());
            if (b.repetition == 0)
                streamed.insert(streamed.end(), b.epsilonAgents.begin(), b.epsilonAgents.end());
        }
    } observer;
    auto r = Runner({.threads = 1}).run(e, &observer);
    ASSERT_TRUE(r.ok());
    const RunResult &run = r->points[0].runs[0];
    const auto col = std::find(run.metricNames.begin(), run.metricNames.end(), "epsilon") - run.metricNames.begin();
    ASSERT_LT(col, static_cast<long>(run.metricNames.size()));
    const RepetitionResult &rep = run.repetitions[0];
    ASSERT_EQ(rep.epsilonAgents.size(), rep.iterations.size());
    EXPECT_EQ(observer.streamed, rep.epsilonAgents);
    for (std::size_t k = 0; k < rep.iterations.size(); ++k) {
        ASSERT_EQ(rep.epsilonAgents[k].size(), 4u);
        EXPECT_EQ(*std::max_element(rep.epsilonAgents[k].begin(), rep.epsilonAgents[k].end()), rep.values[k][col]);
    }
    // Path graph, Metropolis weights: the end agents have the larger w_ii, hence the larger ε
    // (only w_ii enters paper 003's recursion).
    const auto &last = rep.epsilonAgents.back();
    EXPECT_GT(last[0], last[1]);
    EXPECT_EQ(last[0], last[3]);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(last[i], rep.epsilonPerAgent[i]);
}

TEST(Metrics, ConsensusErrorByHand)
{
    Eigen::MatrixXd x(2, 2);
    x << 0, 0, 2, 4;
    // mean (1, 2); squared distances 5 and 5 → (1/2)(10) = 5.
    EXPECT_DOUBLE_EQ(consensusError(x), 5.0);
    Eigen::VectorXd star(2);
    star << 0, 0;
    EXPECT_DOUBLE_EQ(distanceToOptimum(x, star), std::sqrt(20.0) / 2);
    const std::vector<Eigen::MatrixXd> iterates = {x, 0.5 * x, 2 * x};
    const auto res = residualSeries(iterates);
    EXPECT_DOUBLE_EQ(res[0], (x - 2 * x).squaredNorm());
    // The residual is a running minimum: ‖0.5x − 2x‖² = 45 > 20 keeps 20.
    EXPECT_DOUBLE_EQ(res[1], (x - 2 * x).squaredNorm());
    EXPECT_DOUBLE_EQ(res[2], 0.0);
}

TEST(Runner, DetectsDivergence)
{
    Json doc = experimentJson();
    doc["runs"][0]["params"]["stepsize"] = 50.0;
    doc["iterations"] = 1000;
    const Experiment e = parse(doc);
    auto r = Runner().run(e);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->diverged());
    const auto &rep = r->points[0].runs[0].repetitions[0];
    EXPECT_EQ(rep.status, RunStatus::Diverged);
    EXPECT_GT(rep.divergedAt, 0);
    EXPECT_LT(rep.divergedAt, 1000);
}

/** Collects batches and wakes a waiting test thread. */
class WaitingObserver : public RunObserver
{
public:
    void onBatch(const MetricsBatch &b) override
    {
        std::lock_guard lock(mMutex);
        for (long long it : b.iterations)
            mLast = std::max(mLast, it);
        ++mBatches;
        mWake.notify_all();
    }
    bool waitForIteration(long long it)
    {
        std::unique_lock lock(mMutex);
        return mWake.wait_for(lock, std::chrono::seconds(20), [&] { return mLast >= it; });
    }
    int batches()
    {
        std::lock_guard lock(mMutex);
        return mBatches;
    }

private:
    std::mutex mMutex;
    std::condition_variable mWake;
    long long mLast = -1;
    int mBatches = 0;
};

TEST(Runner, PauseStepAndCancel)
{
    Json doc = experimentJson();
    doc["runs"].erase(1);
    doc["repetitions"] = 1;
    doc["record_every"] = 1;
    doc["iterations"] = 100000;
    const Experiment e = parse(doc);
    RunControl control;
    control.pause();
    WaitingObserver observer;
    Result<ExperimentResult> result = Error::internal("", "not run");
    std::thread worker([&] { result = Runner({.threads = 1, .batchSize = 1}).run(e, &observer, &control); });
    ASSERT_TRUE(observer.waitForIteration(0));
    for (int k = 1; k <= 3; ++k) {
        control.step();
        ASSERT_TRUE(observer.waitForIteration(k)) << "step " << k;
    }
    control.cancel();
    worker.join();
    ASSERT_TRUE(result.ok());
    EXPECT_TRUE(result->cancelled);
    const auto &rep = result->points[0].runs[0].repetitions[0];
    EXPECT_EQ(rep.status, RunStatus::Cancelled);
    EXPECT_EQ(rep.iterations, (std::vector<long long>{0, 1, 2, 3}));
}

TEST(Runner, SweepRunsOnePointPerValue)
{
    Json doc = experimentJson();
    doc["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", {0.01, 0.05}}};
    doc["repetitions"] = 1;
    const Experiment e = parse(doc);
    auto r = Runner().run(e);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->points.size(), 2u);
    EXPECT_EQ(r->points[1].value, 0.05);
    // The larger step converges further in the same number of iterations.
    EXPECT_LT(r->points[1].runs[0].repetitions[0].values.back()[0], r->points[0].runs[0].repetitions[0].values.back()[0]);
    EXPECT_NE(sweepCsv(e, *r).find("runs[*].params.stepsize,0.05,clean,"), std::string::npos);
}

} // namespace
} // namespace dplab

namespace dplab {
namespace {

TEST(Experiment, Ring4WeightsInheritTheGeneratorTargets)
{
    Json doc = experimentJson();
    doc["graph"] = Json::parse(R"({"generator": {"type": "ring4-family", "rho_wo": 0.3, "rho_w": 0.9},
                                   "weights": {"scheme": "ring4-family"}})");
    doc["runs"] = Json::parse(R"([{"label": "GT", "algorithm": "gradient-tracking"}])");
    const Experiment e = parse(doc);
    Eigen::MatrixXd off = e.runs[0].W;
    off.diagonal().setZero();
    EXPECT_NEAR(off.cwiseAbs().rowwise().sum().maxCoeff(), 0.3, 1e-12); // ρ(W_o) = r for the ring
    EXPECT_NEAR(1.0 - e.runs[0].W.diagonal().maxCoeff(), 0.3, 1e-12);
}

} // namespace
} // namespace dplab
