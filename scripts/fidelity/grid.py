#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a preset once per grid point and prints the final metrics as a table.

Used for the fidelity experiments of docs/paper00N-results.md; scripts/reproduce.py's claim
p002-hc-grid (paper 002's h/C grid) writes GRIDBASE.json and GRID.json and applies their overrides
with set_path below, so its points are the ones this script runs. Each grid point is a set
of JSON-path overrides applied to a copy of the preset (paths like "runs[0].privacy.noise_x",
"repetitions"); the copy is run with dplab-cli under nice and its summary.json is read.

    scripts/fidelity/grid.py PRESET GRID.json [--cli build/app/dplab-cli] [--metrics a,b]

GRID.json: {"base": {path: value, ...}, "points": [{"name": "...", "set": {path: value}}, ...]}
Output: one line per point and run: name, run label, then mean ± std of each metric.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def set_path(doc, path, value):
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
    cur = doc
    for i, p in enumerate(parts):
        last = i == len(parts) - 1
        if p.startswith("["):
            idx = int(p[1:-1])
            if last:
                cur[idx] = value
            else:
                cur = cur[idx]
        else:
            if last:
                cur[p] = value
            else:
                cur = cur.setdefault(p, {})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("preset")
    ap.add_argument("grid")
    ap.add_argument("--cli", default="build/app/dplab-cli")
    ap.add_argument("--metrics", default="distance_to_optimum,epsilon")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--below", default="",
                    help="METRIC:THRESHOLD — also print the first recorded iteration (and the bits "
                         "there) at which the repetition-0 METRIC falls below THRESHOLD")
    args = ap.parse_args()
    preset = json.load(open(args.preset))
    grid = json.load(open(args.grid))
    metrics = args.metrics.split(",")
    preset_dir = os.path.dirname(os.path.abspath(args.preset))
    for point in grid["points"]:
        doc = json.loads(json.dumps(preset))
        for path, value in {**grid.get("base", {}), **point.get("set", {})}.items():
            set_path(doc, path, value)
        with tempfile.TemporaryDirectory() as tmp:
            # Keep relative data paths valid: write the copy next to the preset's directory.
            exp = os.path.join(tmp, "e.json")
            doc_text = json.dumps(doc)
            json.dump(doc, open(exp, "w"))
            if '"source": "file"' in doc_text:
                print("warning: relative file paths may break", file=sys.stderr)
            out = os.path.join(tmp, "out")
            r = subprocess.run(["nice", "-n", "10", args.cli, "run", exp, "--out", out, "--quiet",
                                "--threads", args.threads], capture_output=True, text=True)
            if r.returncode not in (0, 3):
                print(f"{point['name']}\tERROR {r.returncode}: {r.stderr.strip()}")
                continue
            summary = json.load(open(os.path.join(out, "summary.json")))
            runs = summary["points"][0]["runs"] if "points" in summary else summary["runs"]
            first_below = {}
            if args.below:
                metric, threshold = args.below.split(":")
                threshold = float(threshold)
                import csv
                with open(os.path.join(out, "metrics.csv")) as f:
                    for row in csv.DictReader(f):
                        if row["repetition"] != "0" or row["run"] in first_below:
                            continue
                        v = row.get(metric, "")
                        if v not in ("", "nan") and float(v) < threshold:
                            first_below[row["run"]] = (int(row["iteration"]), float(row.get("bits") or "nan"))
            for run in runs:
                cells = []
                for m in metrics:
                    f = run.get("final", {}).get(m)
                    cells.append("—" if f is None else f"{f['mean']:.4g} ± {f.get('std', 0):.2g}")
                if args.below:
                    it, bits = first_below.get(run["label"], (None, None))
                    cells.append("never" if it is None else f"it {it} bits {bits:.4g}")
                print(f"{point['name']}\t{run['label']}\t{run['status']}\t" + "\t".join(cells), flush=True)


if __name__ == "__main__":
    main()
