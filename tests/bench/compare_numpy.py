#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""DPLab against the NumPy script a researcher would write, on the same problems, interleaved.

For every case (algorithm, n agents, dimension d, samples per agent m) this times
  - a straightforward vectorised NumPy implementation (below: noisy Push-Pull on ℓ2-logistic
    regression over a directed exponential graph; gradient tracking with top-k compression and
    Laplace noise on random quadratics over an undirected exponential graph), the loop only, in
    two variants that differ only in how the logistic weight σ(−y z) is written:
      "logaddexp": exp(−logaddexp(0, y z)), three transcendental calls per sample (stable);
      "tanh":      0.5 · (1 − tanh(y z / 2)), one call per sample (what a researcher may as
                   well write);
    the quadratic case has no sigmoid, so its two variants are the same script;
  - `dplab-cli run --threads 1` on an experiment of the same shape, the same algorithm, graph
    family, weights and noise, start-up and reference solve subtracted by timing two iteration
    counts: (t(T2) − t(T1)) / (T2 − T1). Recording: DPLab's DEFAULT (no record_every: at most
    2000 recorded iterations, metrics at x̄ included), or, where the case says so, "at the end"
    (record_every larger than the run: the metrics at iteration 0 and at the last) or "every
    iteration" (record_every 1);
and prints seconds per iteration and the ratios NumPy/DPLab for both NumPy variants (> 1: DPLab
is faster) and against the faster of the two (the one the goals are stated against), as the
median over --rounds interleaved rounds (NumPy case 1 in both variants, DPLab case 1, NumPy case
2, ...), so that a machine shared with other jobs slows every side alike. Times are CPU seconds (user + system:
time.process_time for NumPy with BLAS on one thread, getrusage of the child for dplab-cli), which
a busy machine inflates far less than wall time; wall-time ratios are printed next to them.

The data are drawn separately on each side (same shapes and distributions: Gaussian features,
labels from a Gaussian model); the cost per iteration does not depend on the values.

--roofline also measures the machine's streaming bandwidth and single-core GEMM rate with NumPy
and prints the floor of the two large cases (bytes and flops per iteration, docs/benchmarks.md).

Run through tests/bench/compare_numpy.sh (which pins BLAS to one thread and sets the CLI path).
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

# name, algorithm, n, d, m, NumPy iterations, DPLab iteration counts (T1, T2), DPLab recording
# ("default": no record_every; "end": only iteration 0 and the last; "every": record_every 1)
CASES = [
    ("push-pull logistic (6, 10, 200)", "push-pull", 6, 10, 200, 20000, (4000, 20000), "default"),
    ("push-pull logistic (10, 112, 100)", "push-pull", 10, 112, 100, 5000, (1000, 5000), "default"),
    ("gradient tracking + top-k, quadratic (10, 112)", "gt-topk", 10, 112, 0, 5000, (1000, 5000), "default"),
    ("push-pull logistic (100, 100, 50)", "push-pull", 100, 100, 50, 800, (200, 1000), "default"),
    ("push-pull logistic, sparse digraph (1000, 100, 20)", "push-pull", 1000, 100, 20, 60, (40, 200), "default"),
    ("push-pull logistic (100, 1000, 20)", "push-pull", 100, 1000, 20, 80, (40, 200), "default"),
    ("push-pull logistic (10, 112, 100), recorded at the end", "push-pull", 10, 112, 100, 5000, (1000, 5000), "end"),
    ("push-pull logistic (10, 112, 100), recorded every iteration", "push-pull", 10, 112, 100, 5000, (1000, 5000),
     "every"),
    ("push-pull logistic (6, 10, 200), recorded at the end", "push-pull", 6, 10, 200, 20000, (4000, 20000), "end"),
]
VARIANTS = ("logaddexp", "tanh")

STEP = 0.01
NOISE = 0.1
LAMBDA = 0.01


# --- NumPy implementations (what a researcher writes) ------------------------------------------

def exponential_edges(n, directed):
    edges = set()
    offset = 1
    while offset < n:
        for i in range(n):
            j = (i + offset) % n
            if i != j:
                edges.add((i, j))
                if not directed:
                    edges.add((j, i))
        offset *= 2
    return edges


def push_pull_weights(n):
    """R: uniform over in-neighbours and self (rows); C: uniform over out-neighbours and self."""
    adj = np.zeros((n, n))
    for i, j in exponential_edges(n, True):
        adj[j, i] = 1.0  # i sends to j: j pulls from i
    np.fill_diagonal(adj, 1.0)
    R = adj / adj.sum(axis=1, keepdims=True)
    out = np.zeros((n, n))
    for i, j in exponential_edges(n, True):
        out[j, i] = 1.0
    np.fill_diagonal(out, 1.0)
    C = out / out.sum(axis=0, keepdims=True)
    return R, C


def metropolis(n):
    adj = np.zeros((n, n))
    for i, j in exponential_edges(n, False):
        adj[i, j] = 1.0
    deg = adj.sum(axis=1)
    W = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if adj[i, j]:
                W[i, j] = 1.0 / (1.0 + max(deg[i], deg[j]))
        W[i, i] = 1.0 - W[i].sum()
    return W


def numpy_push_pull(n, d, m, iterations, rng, sigmoid):
    X = rng.standard_normal((n, m, d))
    w = rng.standard_normal(d)
    y = np.sign(X @ w + 0.1 * rng.standard_normal((n, m)))
    R, C = push_pull_weights(n)
    Rd, Cd = np.diag(R).copy(), np.diag(C).copy()
    Ro, Co = R - np.diag(Rd), C - np.diag(Cd)

    def grad_logaddexp(theta):
        z = np.matmul(X, theta[:, :, None])[:, :, 0]                 # n × m margins
        s = -y * np.exp(-np.logaddexp(0.0, y * z)) / m               # −y σ(−y z) / m
        return np.matmul(s[:, None, :], X)[:, 0, :] + LAMBDA * theta  # n × d

    def grad_tanh(theta):
        z = np.matmul(X, theta[:, :, None])[:, :, 0]                 # n × m margins
        s = -y * (0.5 * (1.0 - np.tanh(0.5 * (y * z)))) / m          # σ(−u) = (1 − tanh(u/2))/2
        return np.matmul(s[:, None, :], X)[:, 0, :] + LAMBDA * theta  # n × d

    grad = grad_tanh if sigmoid == "tanh" else grad_logaddexp

    theta = np.zeros((n, d))
    g = grad(theta)
    Y = g.copy()
    start, cpu = time.perf_counter(), time.process_time()
    for t in range(iterations):
        scale = NOISE  # noise decay 0: same scale every iteration
        theta_sent = theta + rng.laplace(0.0, scale, (n, d))
        y_sent = Y + rng.laplace(0.0, scale, (n, d))
        theta_new = Rd[:, None] * theta + Ro @ theta_sent - STEP * Y
        g_new = grad(theta_new)
        Y = Cd[:, None] * Y + Co @ y_sent + g_new - g
        theta, g = theta_new, g_new
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert np.isfinite(theta).all()
    return cpu / iterations, elapsed / iterations


def numpy_gt_topk(n, d, iterations, rng, k):
    Q = np.linalg.qr(rng.standard_normal((n, d, d)))[0]
    lam = rng.uniform(1.0, 10.0, (n, d))
    A = np.einsum("nij,nj,nkj->nik", Q, lam, Q)
    b = np.matmul(A, rng.standard_normal((n, d, 1)))[:, :, 0]
    W = metropolis(n)
    Wd = np.diag(W).copy()
    Wo = W - np.diag(Wd)

    def grad(x):
        return np.matmul(A, x[:, :, None])[:, :, 0] - b

    def topk(v):
        idx = np.argpartition(-np.abs(v), k - 1, axis=1)[:, :k]
        out = np.zeros_like(v)
        np.put_along_axis(out, idx, np.take_along_axis(v, idx, axis=1), axis=1)
        return out

    x = np.zeros((n, d))
    g = grad(x)
    y = g.copy()
    start, cpu = time.perf_counter(), time.process_time()
    for t in range(iterations):
        x_sent = topk(x + rng.laplace(0.0, NOISE, (n, d)))
        y_sent = topk(y + rng.laplace(0.0, NOISE, (n, d)))
        x_new = Wd[:, None] * x + Wo @ x_sent - STEP * y
        g_new = grad(x_new)
        y = Wd[:, None] * y + Wo @ y_sent + g_new - g
        x, g = x_new, g_new
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert np.isfinite(x).all()
    return cpu / iterations, elapsed / iterations


# --- DPLab ------------------------------------------------------------------------------------

def dplab_experiment(algorithm, n, d, m, recording):
    experiment = dplab_shape(algorithm, n, d, m)
    if recording == "end":
        experiment["record_every"] = 100000000  # beyond any run: iteration 0 and the last
    elif recording == "every":
        experiment["record_every"] = 1
    return experiment


def dplab_shape(algorithm, n, d, m):
    if algorithm == "push-pull":
        return {
            "format": "dplab-experiment", "version": 1, "name": f"push-pull ({n}, {d}, {m})", "seed": 1,
            "iterations": 100, "repetitions": 1,
            "graph": {"generator": {"type": "exponential", "nodes": n, "directed": True},
                      "weights": {"row": {"scheme": "uniform-row"}, "column": {"scheme": "uniform-column"}}},
            "problem": {"type": "logistic", "lambda": LAMBDA, "bias": False, "test_fraction": 0,
                        "data": {"source": "synthetic", "samples": n * m, "dimension": d}},
            "runs": [{"label": "push-pull", "algorithm": "push-pull", "params": {"stepsize": STEP},
                      "privacy": {"noise_theta": NOISE, "noise_y": NOISE}}],
        }
    k = max(1, d // 10)
    return {
        "format": "dplab-experiment", "version": 1, "name": f"gt top-k ({n}, {d})", "seed": 1,
        "iterations": 100, "repetitions": 1,
        "graph": {"generator": {"type": "exponential", "nodes": n, "directed": False},
                  "weights": {"scheme": "metropolis"}},
        "problem": {"type": "quadratic", "dimension": d, "random": {}},
        "runs": [{"label": "gt", "algorithm": "gradient-tracking", "params": {"stepsize": STEP},
                  "compressor": {"type": "top-k", "k": k},
                  "privacy": {"noise_x": NOISE, "noise_y": NOISE}}],
    }


def time_cli(cli, path, iterations, workdir):
    out = os.path.join(workdir, f"out-{iterations}")
    command = [cli, "run", path, "--out", out, "--threads", "1", "--iterations", str(iterations), "--quiet"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def dplab_per_iteration(cli, algorithm, n, d, m, counts, recording, workdir):
    path = os.path.join(workdir, f"{algorithm}-{n}-{d}-{m}-{recording}.json")
    with open(path, "w") as f:
        json.dump(dplab_experiment(algorithm, n, d, m, recording), f)
    t1, t2 = counts
    (a, aw), (b, bw) = time_cli(cli, path, t1, workdir), time_cli(cli, path, t2, workdir)
    per, perWall = (b - a) / (t2 - t1), (bw - aw) / (t2 - t1)
    startup = a - per * t1
    return per, perWall, startup


# --- Roofline ---------------------------------------------------------------------------------

def machine_rates():
    """Streaming read bandwidth (bytes/s) and single-core GEMM rate (flop/s), best of 7, in CPU
    time (a loaded machine stretches wall time by whatever else runs)."""
    a = np.ones(25_000_000)  # 200 MB, far beyond the caches
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        a.sum()
        best = min(best, time.process_time() - start)
    bandwidth = a.nbytes / best
    x = np.random.default_rng(0).standard_normal((1000, 1000))
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        x @ x
        best = min(best, time.process_time() - start)
    return bandwidth, 2e9 / best


def roofline(bandwidth, gemm):
    lines = []
    for n, d, m, degree in ((1000, 100, 20, 10), (100, 1000, 20, 7)):
        data = n * m * d * 8                     # the features, read once by the fused pass
        bytes_per_iter = data + 12 * n * d * 8   # + θ, y, gradients, noise, sent (n×d each)
        flops = 4 * n * m * d + 2 * 2 * n * degree * d + 2 * n * d * 20  # gradient, mixing, noise
        floor = max(data / bandwidth, flops / gemm)  # data read once, at full bandwidth
        lines.append((n, d, m, bytes_per_iter, flops, data / bandwidth, flops / gemm, floor))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, help="path of dplab-cli")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cases", default="", help="comma-separated case numbers (1-based); default all")
    parser.add_argument("--roofline", action="store_true")
    args = parser.parse_args()
    cases = CASES
    if args.cases:
        cases = [CASES[int(k) - 1] for k in args.cases.split(",")]

    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} CPUs, "
          f"NumPy {np.__version__}, Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    numpy_times = {c[0]: {v: [] for v in VARIANTS} for c in cases}
    numpy_walls = {c[0]: {v: [] for v in VARIANTS} for c in cases}
    dplab_times = {c[0]: [] for c in cases}
    dplab_walls = {c[0]: [] for c in cases}
    startups = {c[0]: [] for c in cases}
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as workdir:
        for r in range(args.rounds):
            for name, algorithm, n, d, m, iterations, counts, recording in cases:
                # Both NumPy variants, in alternating order from round to round.
                order = VARIANTS if r % 2 == 0 else tuple(reversed(VARIANTS))
                for variant in order:
                    if algorithm == "push-pull":
                        cpu, wall = numpy_push_pull(n, d, m, iterations, rng, variant)
                    else:  # no sigmoid: the two variants are the same script
                        cpu, wall = numpy_gt_topk(n, d, iterations, rng, max(1, d // 10))
                    numpy_times[name][variant].append(cpu)
                    numpy_walls[name][variant].append(wall)
                per, perWall, startup = dplab_per_iteration(args.cli, algorithm, n, d, m, counts, recording, workdir)
                dplab_times[name].append(per)
                dplab_walls[name].append(perWall)
                startups[name].append(startup)
                cpus = {v: numpy_times[name][v][-1] for v in VARIANTS}
                print(f"  round {r + 1}: {name}: NumPy {cpus['logaddexp']:.3g} (logaddexp) / {cpus['tanh']:.3g} "
                      f"(tanh) s/iter, DPLab {per:.3g} s/iter (CPU), ratios {cpus['logaddexp'] / per:.2f} / "
                      f"{cpus['tanh'] / per:.2f}", flush=True)
    print()
    print("| case | NumPy logaddexp s/iter | NumPy tanh s/iter | DPLab s/iter | NumPy/DPLab, logaddexp (CPU) "
          "| NumPy/DPLab, tanh (CPU) | against the faster NumPy (CPU) | against the faster NumPy (wall) "
          "| DPLab start-up s (CPU) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, *_ in cases:
        ratio = {v: [a / b for a, b in zip(numpy_times[name][v], dplab_times[name])] for v in VARIANTS}
        # The faster NumPy per round (CPU and wall separately), then the median over rounds.
        faster = [min(a, b) / c for a, b, c in zip(numpy_times[name]["logaddexp"], numpy_times[name]["tanh"],
                                                     dplab_times[name])]
        faster_wall = [min(a, b) / c if c > 0 else float("nan")
                       for a, b, c in zip(numpy_walls[name]["logaddexp"], numpy_walls[name]["tanh"],
                                          dplab_walls[name])]
        print(f"| {name} | {statistics.median(numpy_times[name]['logaddexp']):.2g} "
              f"| {statistics.median(numpy_times[name]['tanh']):.2g} | {statistics.median(dplab_times[name]):.2g} "
              f"| {statistics.median(ratio['logaddexp']):.2f}× | {statistics.median(ratio['tanh']):.2f}× "
              f"| **{statistics.median(faster):.2f}×** | {statistics.median(faster_wall):.2f}× "
              f"| {statistics.median(startups[name]):.2f} |")
    print(f"(median of {args.rounds} interleaved rounds; load average at the end {os.getloadavg()[0]:.1f})")
    if args.roofline:
        bandwidth, gemm = machine_rates()
        print()
        print(f"measured: streaming read {bandwidth / 1e9:.1f} GB/s, GEMM {gemm / 1e9:.1f} GFlop/s (one core)")
        print("| case (n, d, m) | bytes/iter | flops/iter | data at bandwidth s | flops at GEMM rate s | floor s/iter |")
        print("|---|---|---|---|---|---|")
        for n, d, m, b, f, tb, tf, floor in roofline(bandwidth, gemm):
            print(f"| ({n}, {d}, {m}) | {b / 1e6:.1f} MB | {f / 1e6:.1f} MFlop | {tb:.2g} | {tf:.2g} | {floor:.2g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
