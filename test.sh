#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ./test.sh   install what is missing, build, run every test (ctest; UI tests offscreen)
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
dplab_install_packages
dplab_build -DDPLAB_BUILD_TESTS=ON
export QT_QPA_PLATFORM=offscreen
cd "$DPLAB_BUILD_DIR"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600 "$@"
