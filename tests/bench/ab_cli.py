#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two or more dplab-cli binaries on one experiment, side by side: CPU seconds per iteration.

usage: ab_cli.py [--rounds N] [--counts T1,T2] [--threads K] EXPERIMENT.json CLI [CLI ...]

Each CLI may be prefixed with one environment setting, NAME=VALUE:PATH (e.g.
DPLAB_KERNELS=sse2:build/app/dplab-cli). Every round runs every binary at T1 and at T2 iterations
(`dplab-cli run --threads K --iterations T --quiet`), in alternating order from round to round,
and takes the CPU time (user + system, getrusage of the child) of the difference over T2 − T1, so
that start-up and the reference solve cancel. Prints the medians per binary and the medians of
the per-round ratios first/other (> 1: the other is faster). CPU time, interleaving and ratios
make the comparison usable on a machine shared with other jobs (docs/benchmarks.md).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def cpu_seconds(spec, experiment, iterations, threads, out):
    env = dict(os.environ)
    path = spec
    if "=" in spec.split(":", 1)[0] and ":" in spec:
        setting, path = spec.split(":", 1)
        name, value = setting.split("=", 1)
        env[name] = value
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([path, "run", experiment, "--threads", str(threads), "--iterations", str(iterations),
                    "--out", out, "--quiet"], check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--counts", default="1000,5000", help="the two iteration counts T1,T2")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("experiment")
    parser.add_argument("cli", nargs="+")
    args = parser.parse_args()
    t1, t2 = (int(v) for v in args.counts.split(","))
    if not 0 < t1 < t2:
        sys.exit("--counts: need 0 < T1 < T2")
    per = {spec: [] for spec in args.cli}
    with tempfile.TemporaryDirectory() as out:
        for r in range(args.rounds):
            for spec in (args.cli if r % 2 == 0 else args.cli[::-1]):
                a = cpu_seconds(spec, args.experiment, t1, args.threads, out)
                b = cpu_seconds(spec, args.experiment, t2, args.threads, out)
                per[spec].append((b - a) / (t2 - t1))
    for spec, values in per.items():
        print(f"{spec}: median {statistics.median(values) * 1e6:.2f} us/iteration (CPU), rounds "
              + ", ".join(f"{v * 1e6:.2f}" for v in values))
    first = per[args.cli[0]]
    for spec in args.cli[1:]:
        ratios = [a / b for a, b in zip(first, per[spec])]
        print(f"{args.cli[0]} / {spec}: median {statistics.median(ratios):.3f} (rounds "
              + ", ".join(f"{v:.3f}" for v in ratios) + ")")
    print("load average at the end: " + " ".join(f"{v:.1f}" for v in os.getloadavg()))


if __name__ == "__main__":
    main()
