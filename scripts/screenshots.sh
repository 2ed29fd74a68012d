#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Takes the window screenshots of the README (docs/screenshots/) under a virtual X display:
#   scripts/screenshots.sh [--build DIR] [--out DIR] [--size WxH] [NAME...]
# NAMEs: main comparison sweep presentation help message theory theta menu matrix dense (default: all), each at 1600×1000 and 1280×720
# (or only at --size); or `lecture` (alone): every teaching preset at 1280×720 with the Teaching dock in
# use, at 100 % and in presentation mode at 200 % (docs/teaching.md), as 256-colour PNGs
# (or only at --size), each through scripts/screenshot.sh. Settings go to a temporary folder, so
# your own layout is neither used nor changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
out=$root/docs/screenshots
sizes=(1600x1000 1280x720)
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --size) sizes=("$2"); shift 2 ;;
        *) break ;;
    esac
done
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(main comparison sweep presentation help message theory theta menu matrix dense)

mkdir -p "$out"
presets=$root/resources/presets
dplab=$build/app/dplab
[ -x "$dplab" ] || { echo "no $dplab: build first (./run.sh or cmake --build build)" >&2; exit 2; }

# shot NAME SIZE DELAY ARGS...: one screenshot through scripts/screenshot.sh (which installs what
# it needs and runs dplab ARGS in a fresh virtual display), with settings in a throw-away folder.
shot() {
    local name=$1 size=$2 delay=$3; shift 3
    local home; home=$(mktemp -d)
    XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data \
        "$root/scripts/screenshot.sh" --size "$size" --delay "$delay" --out "$out/$name-$size.png" -- "$dplab" "$@"
    rm -rf "$home"
}

# The dense-graph shot: an Erdős–Rényi graph of 1000 nodes and p = 0.3 (≈150 000 edges).
dense=$(mktemp --suffix=.json)
trap 'rm -f "$dense"' EXIT
cat > "$dense" <<'JSON'
{"format": "dplab-experiment", "version": 1, "name": "Erdős–Rényi, 1000 nodes, p = 0.3",
 "graph": {"generator": {"type": "erdos-renyi", "nodes": 1000, "p": 0.3, "seed": 7},
           "weights": {"scheme": "metropolis"}},
 "problem": {"type": "quadratic", "dimension": 2},
 "runs": [{"label": "DGD", "algorithm": "dgd"}]}
JSON

# lecture: each teaching preset recorded, at 100 % and presenting at 200 %, palette PNGs (small).
lecture() {
    local p name
    for p in teaching-consensus-gossip teaching-dgd-vs-tracking teaching-noise-accumulation teaching-compression-bits \
             teaching-privacy-frontier teaching-eavesdropper paper002-teaching-gossip teaching-steady-state-bound; do
        name=${p#teaching-}
        shot "lecture-$name" 1280x720 15 --teaching network "$presets/$p.json"
        shot "lecture-$name-presenting-200" 1280x720 15 --presentation-mode --presentation 2 --teaching network "$presets/$p.json"
        for f in "$out/lecture-$name-1280x720.png" "$out/lecture-$name-presenting-200-1280x720.png"; do
            convert "$f" -colors 256 "PNG8:$f"
        done
    done
}

for name in "${names[@]}"; do
    if [ "$name" = lecture ]; then
        lecture
        exit 0
    fi
done

for size in "${sizes[@]}"; do
    for name in "${names[@]}"; do
        case "$name" in
            main) shot main-window "$size" 15 --run "$presets/teaching-push-pull-quadratic.json" ;;
            comparison) shot comparison-view "$size" 25 --run --view comparison "$presets/paper001-fig2-nonconvex-logistic.json" ;;
            sweep) shot sweep-view "$size" 40 --run --view sweep "$presets/paper003-fig3-rho-wo-sweep.json" ;;
            presentation) shot presentation-size "$size" 15 --run --presentation 1.5 "$presets/paper002-teaching-gossip.json" ;;
            help) shot help-panel "$size" 12 --dialog help "$presets/paper002-teaching-gossip.json" ;;
            message) shot teaching-message "$size" 15 --run --teaching message "$presets/teaching-noise-accumulation.json" ;;
            theory) shot teaching-theory "$size" 15 --run --teaching theory "$presets/paper002-teaching-gossip.json" ;;
            theta) shot teaching-theta "$size" 25 --run --teaching theory "$presets/teaching-steady-state-bound.json" ;;
            menu) shot graph-context-menu "$size" 12 --dialog node-menu "$presets/teaching-push-pull-quadratic.json" ;;
            matrix) shot weight-matrix-dialog "$size" 12 --dialog weight-matrix "$presets/teaching-push-pull-quadratic.json" ;;
            dense) shot dense-graph "$size" 20 "$dense" ;;
            *) echo "unknown screenshot: $name" >&2; exit 2 ;;
        esac
    done
done
