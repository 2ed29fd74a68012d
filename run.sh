#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ./run.sh              install what is missing, build, open the DPLab window on the default preset
# ./run.sh FILE.json    ... open FILE.json instead
# ./run.sh --cli ARGS   ... run dplab-cli ARGS instead of the window
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
dplab_install_packages
dplab_build
if [ "${1:-}" = "--cli" ]; then
    shift
    exec "$DPLAB_BUILD_DIR/app/dplab-cli" "$@"
fi
if [ $# -eq 0 ]; then
    set -- "$DPLAB_ROOT/resources/presets/teaching-push-pull-quadratic.json"
fi
exec "$DPLAB_BUILD_DIR/app/dplab" "$@"
