#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Shared set-up for ./run.sh and ./test.sh: install the missing Debian packages (DESIGN §8),
# then configure and build Release with Ninja into build/.
set -euo pipefail

DPLAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DPLAB_BUILD_DIR=${DPLAB_BUILD_DIR:-$DPLAB_ROOT/build}

DPLAB_PACKAGES=(
    qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
    libeigen3-dev nlohmann-json3-dev zlib1g-dev libgtest-dev libbenchmark-dev
    cmake ninja-build g++ xvfb xauth poppler-utils dataset-fashion-mnist
)

# Only for the benchmarks and profiles (tests/bench/compare_numpy.sh, docs/benchmarks.md):
# NumPy for the comparison script, perf and valgrind (callgrind) for the profiles.
DPLAB_BENCH_PACKAGES=(python3-numpy linux-perf valgrind)

# Only for the fuzzers (scripts/fuzz.sh, -DDPLAB_FUZZ=ON): libFuzzer comes with clang.
DPLAB_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

# dplab_install_packages [PACKAGE...]: installs the missing ones (default: DPLAB_PACKAGES).
dplab_install_packages() {
    local missing=()
    local pkg
    local wanted=("$@")
    if [ ${#wanted[@]} -eq 0 ]; then
        wanted=("${DPLAB_PACKAGES[@]}")
    fi
    for pkg in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    echo "DPLab: installing missing Debian packages: ${missing[*]}" >&2
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
}

dplab_build() {
    local launcher=()
    # ccache, when installed, makes rebuilds of unchanged sources (other checkouts, CI) near free.
    if command -v ccache >/dev/null 2>&1; then
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cmake -S "$DPLAB_ROOT" -B "$DPLAB_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
    cmake --build "$DPLAB_BUILD_DIR" --parallel "$(nproc)"
}
