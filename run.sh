#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ./run.sh              install what is missing, build, open the DPLab window on the default preset
# ./run.sh FILE.json    ... open FILE.json instead
# ./run.sh --cli ARGS   ... run dplab-cli ARGS instead of the window
set -euo pipefail
# Standard output carries only the program's own output: installing and building write to
# standard error, and only when there is something to install or rebuild (scripts/setup.sh).
source "$(dirname "$0")/scripts/setup.sh"
dplab_install_packages
if [ "${1:-}" = "--cli" ]; then
    shift
    DPLAB_TARGET=dplab-cli dplab_build
    exec "$DPLAB_BUILD_DIR/app/dplab-cli" "$@"
fi
dplab_build
if [ $# -eq 0 ]; then
    set -- "$DPLAB_ROOT/resources/presets/teaching-push-pull-quadratic.json"
fi
exec "$DPLAB_BUILD_DIR/app/dplab" "$@"
