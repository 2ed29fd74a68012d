#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/fuzz.sh [-n RUNS] [TARGET...]
#   Builds the libFuzzer targets with clang (build-fuzz/: -DDPLAB_FUZZ=ON, AddressSanitizer +
#   UndefinedBehaviorSanitizer, no UI) and runs each TARGET (default: experiment csv libsvm idx
#   graph) for RUNS executions (default 100000) under `nice -n 10`, starting from its seed corpus
#   (tests/fuzz/corpus/<target>, plus the presets for `experiment`). New corpus entries go to
#   build-fuzz/corpus/<target>; a crash, leak, timeout or out-of-memory input goes to
#   build-fuzz/findings/<target>/ — fix it, then add the input to tests/fuzz/regressions/<target>/
#   (the replay smoke test in ctest replays that folder). The summary lists executions and findings.
set -euo pipefail
source "$(dirname "$0")/setup.sh"

runs=100000
while getopts "n:" opt; do
    case $opt in
    n) runs=$OPTARG ;;
    *) echo "usage: scripts/fuzz.sh [-n RUNS] [TARGET...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(experiment csv libsvm idx graph)
fi

dplab_install_packages
dplab_install_packages "${DPLAB_FUZZ_PACKAGES[@]}"
build=${DPLAB_FUZZ_BUILD_DIR:-$DPLAB_ROOT/build-fuzz}
launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$DPLAB_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DDPLAB_FUZZ=ON -DDPLAB_BUILD_UI=OFF -DDPLAB_BUILD_TESTS=ON "${launcher[@]}" >/dev/null
nice -n 10 cmake --build "$build" --parallel "${DPLAB_FUZZ_JOBS:-2}" --target $(printf 'fuzz_%s ' "${targets[@]}")

export DPLAB_RESOURCES=$DPLAB_ROOT/resources
summary=()
status=0
for t in "${targets[@]}"; do
    corpus=$build/corpus/$t
    findings=$build/findings/$t
    mkdir -p "$corpus" "$findings"
    seeds=("$DPLAB_ROOT/tests/fuzz/corpus/$t" "$DPLAB_ROOT/tests/fuzz/regressions/$t")
    if [ "$t" = experiment ]; then
        seeds+=("$DPLAB_ROOT/resources/presets")
    fi
    log=$build/fuzz-$t.log
    set +e
    nice -n 10 "$build/tests/fuzz/fuzz_$t" "$corpus" "${seeds[@]}" -runs="$runs" -max_len=65536 -timeout=20 \
        -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    found=$(find "$findings" -type f | wc -l)
    summary+=("$t: $execs executions, $found finding(s), exit $rc (log: $log)")
    if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
        status=1
    fi
done
printf '%s\n' "${summary[@]}"
exit $status
