#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Times DPLab against the NumPy script on the same problems (tests/bench/compare_numpy.py).
# Usage: tests/bench/compare_numpy.sh [BUILD_DIR] [--rounds N] [--cases 1,3] [--roofline]
# Needs Debian's python3-numpy (scripts/setup.sh: DPLAB_BENCH_PACKAGES). BLAS is pinned to one thread,
# like `dplab-cli run --threads 1`; OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are unset for this
# command only, so OpenBLAS picks the kernels of the machine it runs on.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../../build"}
[ $# -gt 0 ] && shift
cli="$build/app/cli/dplab-cli"
[ -x "$cli" ] || cli="$build/app/dplab-cli"
[ -x "$cli" ] || { echo "dplab-cli not found under $build (build it first)" >&2; exit 2; }
exec env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    nice -n 10 /usr/bin/python3 "$here/compare_numpy.py" --cli "$cli" "$@"
