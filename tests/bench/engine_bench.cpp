// SPDX-License-Identifier: GPL-3.0-or-later
// Hot-loop benchmarks: one synchronous iteration of every agent, noise draws, a whole run.
#include "dplab/algo/algorithm.h"
#include "dplab/algo/mixing.h"
#include "dplab/compress/compressor.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/privacy/treeaggregation.h"
#include "dplab/problem/constraints.h"
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

RunContext context(const std::string &id, int n, int d, bool directed, Json privacy,
                   Json params = Json{{"stepsize", 0.01}}, Json compressor = Json())
{
    const AlgorithmDescriptor &alg = *findAlgorithm(id);
    RunContext ctx;
    ctx.problem = std::make_shared<test::RandomQuadratic>(n, d, 3);
    ctx.params = resolveParams(alg.params, params, "params", n).value();
    ctx.privacy = resolveParams(alg.privacyParams, privacy, "privacy", n).value();
    ctx.compressor = makeCompressor(compressor, "compressor").value();
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

void stepBenchmark(benchmark::State &state, const std::string &id, bool directed, Json privacy,
                   Json params = Json{{"stepsize", 0.01}}, Json compressor = Json())
{
    const int n = static_cast<int>(state.range(0));
    const int d = static_cast<int>(state.range(1));
    RunContext ctx = context(id, n, d, directed, privacy, params, compressor);
    ctx.horizon = 1000000;
    auto alg = findAlgorithm(id)->create();
    if (Status s = alg->reset(ctx); !s) {
        state.SkipWithError(s.error().toString().c_str());
        return;
    }
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

// The papers' algorithms, noise on, on the same undirected graphs.
void BM_PgtcTopKStep(benchmark::State &state)
{
    stepBenchmark(state, "pgtc", false, Json{{"s_x", 0.1}, {"s_y", 0.1}, {"q", 0.999}},
                  Json{{"stepsize", 0.01}, {"gamma", 0.2}, {"alpha_x", 0.5}, {"alpha_y", 0.5}},
                  Json{{"type", "top-k"}, {"k", 2}});
}
void BM_PpdcDitheredStep(benchmark::State &state)
{
    stepBenchmark(state, "ppdc", false, Json{{"s_x", 0.1}, {"s_v", 0.1}, {"q", 0.999}}, Json{{"stepsize", 0.01}},
                  Json{{"type", "dithered-quantizer"}});
}
void BM_RobustDpGtStep(benchmark::State &state)
{
    stepBenchmark(state, "robust-dp-gt", false, Json{{"noise_s", 0.1}, {"noise_x", 0.1}},
                  Json{{"alpha", 0.01}, {"gamma", 1.0}});
}
void BM_DiaDspStep(benchmark::State &state)
{
    stepBenchmark(state, "diadsp", false, Json{{"noise_x", 0.1}, {"noise_y", 0.1}});
}
BENCHMARK(BM_PgtcTopKStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10})->Args({100, 100});
BENCHMARK(BM_PpdcDitheredStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10});
BENCHMARK(BM_RobustDpGtStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10});
BENCHMARK(BM_DiaDspStep)->Args({10, 10})->Args({100, 10})->Args({1000, 10});

// Mixing over a sparse graph, (n, d) = (1000, 100) with 10 in-neighbours a node (the sparse
// digraph case of tests/bench/compare_numpy.sh): Mixer::mix (the dispatched kernel,
// dplab/algo/mixkernel.h; DPLAB_KERNELS=sse2 for the SSE2 version) against the Eigen product it
// replaced, which gives the same bytes.
struct SparseMixCase {
    Mixer mixer;
    Eigen::MatrixXd own, sent, out;
    SparseMixCase(int n, int d)
    {
        Eigen::MatrixXd w = Eigen::MatrixXd::Zero(n, n);
        for (int i = 0; i < n; ++i) {
            w(i, i) = 0.5;
            for (int k = 0; k < 10; ++k)
                w(i, (i + (1 << k)) % n) = 0.05;
        }
        mixer = Mixer(w);
        Rng rng(3);
        own.resize(n, d);
        sent.resize(n, d);
        for (Eigen::Index k = 0; k < own.size(); ++k) {
            own.data()[k] = rng.gaussian();
            sent.data()[k] = rng.gaussian();
        }
        out.resize(n, d);
    }
};

void BM_SparseMix(benchmark::State &state)
{
    SparseMixCase c(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    for (auto _ : state) {
        c.mixer.mix(c.own, c.sent, c.out);
        benchmark::DoNotOptimize(c.out.data());
    }
}
BENCHMARK(BM_SparseMix)->Args({1000, 100})->Args({100, 100});

void BM_SparseMixEigen(benchmark::State &state)
{
    SparseMixCase c(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    for (auto _ : state) {
        c.out.noalias() = c.mixer.offDiagonal() * c.sent;
        c.out += c.mixer.diagonal().asDiagonal() * c.own;
        benchmark::DoNotOptimize(c.out.data());
    }
}
BENCHMARK(BM_SparseMixEigen)->Args({1000, 100})->Args({100, 100});

/** Top-k of d Laplace-noised coordinates (the gradient-tracking + top-k case: d = 112, k = 11). */
void BM_TopK(benchmark::State &state)
{
    const int d = static_cast<int>(state.range(0));
    auto compressor = makeCompressor(Json{{"type", "top-k"}, {"k", state.range(1)}}, "compressor");
    Rng rng(7);
    std::vector<Eigen::VectorXd> inputs(64, Eigen::VectorXd(d));
    for (auto &x : inputs)
        for (int i = 0; i < d; ++i)
            x[i] = rng.laplace(1.0);
    Eigen::VectorXd out(d);
    std::size_t k = 0;
    for (auto _ : state) {
        compressor.value()->compress(inputs[k++ % inputs.size()], out, rng);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_TopK)->Args({112, 11})->Args({1000, 100});

// Paper 002's building blocks: the exact trace-norm projection (q classes × p features) and one
// PrivateSum add + query (d = q·p coordinates).
void BM_TraceNormProjection(benchmark::State &state)
{
    const int q = static_cast<int>(state.range(0));
    const int p = static_cast<int>(state.range(1));
    TraceNormBall ball(q, p, 1.0);
    Rng rng(5);
    Eigen::VectorXd start(q * p);
    for (int i = 0; i < q * p; ++i)
        start[i] = rng.gaussian();
    Eigen::VectorXd x(q * p);
    for (auto _ : state) {
        x = start; // outside the ball: the SVD path runs every time
        ball.project(x);
        benchmark::DoNotOptimize(x.data());
    }
}
BENCHMARK(BM_TraceNormProjection)->Args({10, 64})->Args({10, 784});

void BM_PrivateSumAdd(benchmark::State &state)
{
    const int d = static_cast<int>(state.range(0));
    const long long capacity = 1LL << 20;
    PrivateSum sum(d, capacity, 1.0, Rng(9));
    const Eigen::VectorXd w = Eigen::VectorXd::Ones(d);
    long long added = 0;
    for (auto _ : state) {
        if (++added >= capacity) {
            state.PauseTiming();
            sum = PrivateSum(d, capacity, 1.0, Rng(9));
            added = 1;
            state.ResumeTiming();
        }
        benchmark::DoNotOptimize(sum.add(w).data());
    }
}
BENCHMARK(BM_PrivateSumAdd)->Arg(640)->Arg(7840);

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

/** The counter-based block sampler the algorithms use: one block of `size` draws. */
void BM_NoiseBlock(benchmark::State &state, bool gaussian)
{
    const NoiseStream noise(1);
    std::vector<double> out(static_cast<std::size_t>(state.range(0)));
    std::uint64_t t = 0;
    for (auto _ : state) {
        if (gaussian)
            noise.gaussian(t++, 1.0, out.data(), out.size());
        else
            noise.laplace(t++, 1.0, out.data(), out.size());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK_CAPTURE(BM_NoiseBlock, laplace, false)->Arg(100)->Arg(1000);
BENCHMARK_CAPTURE(BM_NoiseBlock, gaussian, true)->Arg(100)->Arg(1000);

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
