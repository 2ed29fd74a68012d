#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Shared set-up for ./run.sh and ./test.sh: install the missing Debian packages (the list
# below), then configure and build Release with Ninja into build/.
# Everything these functions print goes to standard error, so that `./run.sh --cli ARGS` writes
# to standard output exactly what dplab-cli writes (and a reader that closes the pipe early stops
# only dplab-cli). DPLAB_NO_INSTALL=1 skips the package check (tests of the script itself).
set -euo pipefail

DPLAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DPLAB_BUILD_DIR=${DPLAB_BUILD_DIR:-$DPLAB_ROOT/build}

DPLAB_PACKAGES=(
    qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
    libeigen3-dev nlohmann-json3-dev zlib1g-dev libssl-dev libgtest-dev libbenchmark-dev
    cmake ninja-build g++ xvfb xauth poppler-utils dataset-fashion-mnist ccache python3
    fonts-droid-fallback fonts-symbola
)
# fonts-droid-fallback (CJK: Chinese, Japanese, Korean; 1.8 MB) and fonts-symbola (emoji as
# outlines, 1.3 MB) let run labels in any script print in the PDF report, which embeds them
# (fonts-noto-cjk would be 57 MB; colour-bitmap emoji fonts do not embed as outlines).
# python3 runs the structure checks, the documented-numbers checks and the README-commands test
# (standard library only); without it CMake would leave those tests out.

# Only for the benchmarks and profiles (tests/bench/compare_numpy.sh, docs/benchmarks.md):
# NumPy for the comparison script, perf and valgrind (callgrind) for the profiles.
DPLAB_BENCH_PACKAGES=(python3-numpy linux-perf valgrind)

# Only for the fuzzers (scripts/fuzz.sh, -DDPLAB_FUZZ=ON): libFuzzer comes with clang.
DPLAB_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

# dplab_install_packages [PACKAGE...]: installs the missing ones (default: DPLAB_PACKAGES).
dplab_install_packages() {
    if [ "${DPLAB_NO_INSTALL:-0}" = 1 ]; then
        return 0
    fi
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
    "${sudo[@]}" apt-get update >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

# dplab_build [CMAKE_OPTION...]: configures when build/ is not configured yet or options are given,
# then builds $DPLAB_TARGET (default: everything) when, and only when, something is out of date.
# All of it on standard error.
dplab_build() {
    local launcher=()
    # ccache makes rebuilds of unchanged sources near free, also in another checkout (CI's fresh
    # clone): paths under the checkout are hashed relative to it.
    if command -v ccache >/dev/null 2>&1; then
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
        export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$DPLAB_ROOT}
    fi
    if [ ! -f "$DPLAB_BUILD_DIR/build.ninja" ] || [ $# -gt 0 ]; then
        cmake -S "$DPLAB_ROOT" -B "$DPLAB_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >&2
    fi
    local target=()
    if [ -n "${DPLAB_TARGET:-}" ]; then
        target=(--target "$DPLAB_TARGET")
    fi
    # Ninja's own lines for an up-to-date tree (the check of the globbed source folders, which
    # runs on every call, and "no work to do") are dropped; every other line is a step of a
    # rebuild and goes to standard error as it happens. A failed build stops the script.
    cmake --build "$DPLAB_BUILD_DIR" "${target[@]}" --parallel "$(nproc)" 2>&1 \
        | { grep --line-buffered -v -e 'Re-checking globbed directories' -e '^ninja: no work to do\.$' >&2 || true; }
}
