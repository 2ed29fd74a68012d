#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check_layers.sh ROOT: fails when an #include points against the layers of docs/architecture.md.
#
# ui/: a folder may include only its own headers and those of the folders its
#      dplab_ui_FOLDER_DEPENDS line in ui/CMakeLists.txt names (the build enforces the same through
#      include directories; this check also catches a new DEPENDS line that closes a cycle).
# core/: a folder may include only folders that come after it in DPLAB_CORE_LAYERS
#      (core/CMakeLists.txt), so core's folders form one chain with no cycle.
# Prints every offending include as FILE: FROM -> TO (HEADER) and exits 1; exits 0 when clean.
set -euo pipefail
root=${1:-.}
cd "$root"
status=0

# --- ui -------------------------------------------------------------------------------------
declare -A allowed
features=$(sed -nE 's/^set\(DPLAB_UI_FEATURES (.*)\)$/\1/p' ui/CMakeLists.txt)
[ -n "$features" ] || { echo "check_layers: no DPLAB_UI_FEATURES in ui/CMakeLists.txt"; exit 1; }
for feature in $features; do
    deps=$(sed -nE "s/^set\(dplab_ui_${feature}_DEPENDS ?(.*)\)$/\1/p" ui/CMakeLists.txt)
    allowed[$feature]=" $feature $deps "
done

# A DEPENDS graph with a cycle is refused outright (depth-first search, colours 0/1/2).
declare -A colour
visit() {
    local node=$1 dep
    colour[$node]=1
    for dep in ${allowed[$node]}; do
        [ "$dep" = "$node" ] && continue
        if [ "${colour[$dep]:-0}" = 1 ]; then
            echo "ui/CMakeLists.txt: dplab_ui_${node}_DEPENDS closes a cycle through $dep"
            status=1
        elif [ "${colour[$dep]:-0}" = 0 ]; then
            visit "$dep"
        fi
    done
    colour[$node]=2
}
for feature in $features; do
    [ "${colour[$feature]:-0}" = 0 ] && visit "$feature"
done

declare -A home
for header in ui/*/*.h; do
    home[$(basename "$header")]=$(basename "$(dirname "$header")")
done
for file in ui/*/*.cpp ui/*/*.h; do
    from=$(basename "$(dirname "$file")")
    while read -r header; do
        to=${home[$(basename "$header")]:-}
        [ -n "$to" ] || continue
        case "${allowed[$from]:- }" in
        *" $to "*) ;;
        *) echo "$file: $from -> $to ($header)"; status=1 ;;
        esac
    done < <(sed -nE 's/^#include "([^"]+)".*/\1/p' "$file")
done

# --- core -----------------------------------------------------------------------------------
layers=$(sed -nE 's/^set\(DPLAB_CORE_LAYERS (.*)\)$/\1/p' core/CMakeLists.txt)
[ -n "$layers" ] || { echo "check_layers: no DPLAB_CORE_LAYERS in core/CMakeLists.txt"; exit 1; }
declare -A rank
i=0
for layer in $layers; do
    rank[$layer]=$i
    i=$((i + 1))
done
while read -r file; do
    case "$file" in
    core/include/dplab/*) from=$(echo "$file" | cut -d/ -f4) ;;
    *) from=$(echo "$file" | cut -d/ -f2) ;;
    esac
    [ -n "${rank[$from]:-}" ] || { echo "$file: folder $from is not in DPLAB_CORE_LAYERS"; status=1; continue; }
    while read -r to; do
        [ "$to" = "$from" ] && continue
        if [ -z "${rank[$to]:-}" ] || [ "${rank[$to]}" -le "${rank[$from]}" ]; then
            echo "$file: $from -> $to (core layers: $layers)"
            status=1
        fi
    done < <(sed -nE 's|^#include "dplab/([a-z]+)/.*|\1|p' "$file")
done < <(find core -name '*.cpp' -o -name '*.h' | sort)

if [ "$status" = 0 ]; then
    echo "layers: ui ($features) and core ($layers) include only downwards"
fi
exit "$status"
