// SPDX-License-Identifier: GPL-3.0-or-later
// Hot-loop benchmarks: one synchronous iteration of every agent, noise draws, a whole run.
#include "dplab/algo/algorithm.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "testproblems.h"

#include <benchmark/benchmark.h>

namespace dplab {
namespace {

std::vector<std::pair<int, int>> ringWithChords(int n)
{
    std::vector<std::pair<int, int>> e;
    for (int i = 0; i < n; ++i)
        e.push_back({i, (i + 1) % n});
    for (int i = 0; i + n / 2 < n; i += 3)
        e.push_back({i, i + n / 2});
    return e;
}

RunContext context(const std::string &id, int n, int d, bool directed, Json privacy)
{
    const AlgorithmDescriptor &alg = *findAlgorithm(id);
    RunContext ctx;
    ctx.problem = std::make_shared<test::RandomQuadratic>(n, d, 3);
    ctx.params = resolveParams(alg.params, Json{{"stepsize", 0.01}}, "params", n).value();
    ctx.privacy = resolveParams(alg.privacyParams, privacy, "privacy", n).value();
    ctx.compressor = makeCompressor(Json(), "compressor").value();
    ctx.noise = {1, 0, 0};
    ctx.x0 = Eigen::MatrixXd::Zero(n, d);
    const Eigen::MatrixXd adj = test::adjacencyOf(n, ringWithChords(n), directed);
    if (directed) {
        ctx.R = test::uniformRow(adj);
        ctx.C = test::uniformColumn(adj);
    } else {
        ctx.W = test::metropolis(adj);
    }
    return ctx;
}

void stepBenchmark(benchmark::State &state, const std::string &id, bool directed, Json privacy)
{
    const int n = static_cast<int>(state.range(0));
    const int d = static_cast<int>(state.range(1));
    RunContext ctx = context(id, n, d, directed, privacy);
    auto alg = findAlgorithm(id)->create();
    alg->reset(ctx);
    for (auto _ : state) {
        alg->step();
        benchmark::DoNotOptimize(alg->decisions().data());
    }
    state.SetItemsProcessed(state.iterations() * n);
    state.counters["agents"] = n;
}

void BM_GradientTrackingStep(benchmark::State &state)
{
    stepBenchmark(state, "gradient-tracking", false, Json::object());
}
void BM_PushPullStep(benchmark::State &state)
{
    stepBenchmark(state, "push-pull", true, Json::object());
}
void BM_NoisyPushPullStep(benchmark::State &state)
{
    stepBenchmark(state, "push-pull", true, Json{{"noise_theta", 0.1}, {"noise_y", 0.1}});
}

BENCHMARK(BM_GradientTrackingStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10})->Args({100, 100});
BENCHMARK(BM_PushPullStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10})->Args({100, 100});
BENCHMARK(BM_NoisyPushPullStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10});

void BM_LaplaceDraw(benchmark::State &state)
{
    Rng rng(1);
    double sum = 0;
    for (auto _ : state)
        sum += rng.laplace(1.0);
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LaplaceDraw);

void BM_RunnerTeachingPreset(benchmark::State &state)
{
    auto e = loadExperimentFile(std::string(DPLAB_SOURCE_DIR) + "/resources/presets/teaching-push-pull-quadratic.json");
    if (!e) {
        state.SkipWithError(e.error().toString().c_str());
        return;
    }
    for (auto _ : state) {
        auto r = Runner({.threads = static_cast<int>(state.range(0))}).run(*e);
        benchmark::DoNotOptimize(r.ok());
    }
}
BENCHMARK(BM_RunnerTeachingPreset)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace dplab
