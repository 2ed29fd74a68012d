#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Screenshot of a GUI program on a virtual X display (how docs/screenshots/ are made).
#
#   scripts/screenshot.sh [--size 1600x1000] [--delay 4] --out FILE.png [-- PROGRAM [ARGS...]]
#
# Starts PROGRAM (default: build/app/dplab on the default preset) inside Xvfb at the given screen
# size, waits --delay seconds for it to settle, saves the whole screen as PNG with ImageMagick's
# `import`, then stops the program. Installs xvfb, xauth and imagemagick with apt-get when they are
# missing, the same way ./run.sh installs the build dependencies. Example:
#
#   scripts/screenshot.sh --size 1280x720 --out /tmp/cmp.png -- \
#       build/app/dplab resources/presets/paper001-fig2-nonconvex-logistic.json --run --view comparison
set -euo pipefail

self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")

if [ -n "${DPLAB_SCREENSHOT_INSIDE:-}" ]; then
    shot=${DPLAB_SCREENSHOT_INSIDE%:*}
    wait_s=${DPLAB_SCREENSHOT_INSIDE##*:}
    [ "${1:-}" = "--" ] && shift
    "$@" &
    pid=$!
    sleep "$wait_s"
    if ! kill -0 "$pid" 2>/dev/null; then
        rc=0
        wait "$pid" || rc=$?
        echo "screenshot.sh: the program exited (status $rc) before the screenshot" >&2
        exit 1
    fi
    rc=0
    import -window root "$shot" || rc=$?
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    exit $rc
fi

source "$(dirname "$self")/setup.sh"

usage() {
    echo "usage: scripts/screenshot.sh [--size WxH] [--delay SECONDS] --out FILE.png [-- PROGRAM [ARGS...]]" >&2
    exit 2
}

size=1600x1000
delay=4
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --size) [ $# -ge 2 ] || usage; size=$2; shift 2 ;;
        --delay) [ $# -ge 2 ] || usage; delay=$2; shift 2 ;;
        --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --) shift; break ;;
        -h|--help) usage ;;
        *) echo "screenshot.sh: unknown option '$1'" >&2; usage ;;
    esac
done
[ -n "$out" ] || usage
[[ "$size" =~ ^[0-9]+x[0-9]+$ ]] || { echo "screenshot.sh: --size must look like 1600x1000, got '$size'" >&2; exit 2; }
[[ "$delay" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "screenshot.sh: --delay must be a number of seconds, got '$delay'" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- "$DPLAB_BUILD_DIR/app/dplab" "$DPLAB_ROOT/resources/presets/teaching-push-pull-quadratic.json"
fi
command -v "$1" >/dev/null 2>&1 || { echo "screenshot.sh: cannot run '$1' (build first: ./run.sh)" >&2; exit 2; }

# Only the three packages this script needs, through setup.sh's installer.
DPLAB_PACKAGES=(xvfb xauth imagemagick)
dplab_install_packages

mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
tmp=$(mktemp "$out.XXXXXX.png")
trap 'rm -f "$tmp"' EXIT

# A real X server, whatever the caller's environment asks Qt for (offscreen would draw nothing).
# xvfb-run starts this script again inside the virtual display (DPLAB_SCREENSHOT_INSIDE set), which
# runs the program, waits, grabs the root window and stops the program.
env -u QT_QPA_PLATFORM QT_QPA_PLATFORM=xcb DPLAB_SCREENSHOT_INSIDE="$tmp:$delay" \
    xvfb-run -a -s "-screen 0 ${size}x24" "$self" -- "$@"
mv -f "$tmp" "$out"
trap - EXIT
echo "wrote $out ($size)"
