#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ./run.sh --cli writes to standard output exactly what dplab-cli writes, and nothing to standard
# error when nothing is rebuilt; a reader closing the pipe early stops only dplab-cli.
# Usage: run_sh_test.sh SOURCE_DIR BUILD_DIR. Runs the script on the test's own build folder with
# the package check off (DPLAB_NO_INSTALL=1), after a build: nothing to install or rebuild, so
# standard error must stay empty (were dplab-cli out of date, the script would rebuild only it,
# and the test would fail naming the build lines).
set -uo pipefail
src=$1
build=$2
cli=$build/app/dplab-cli
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

export DPLAB_BUILD_DIR=$build DPLAB_NO_INSTALL=1
"$cli" list algorithms >"$tmp/direct.out" || fail "dplab-cli list algorithms failed"
"$src/run.sh" --cli list algorithms >"$tmp/script.out" 2>"$tmp/script.err" || fail "run.sh --cli failed: $(cat "$tmp/script.err")"
cmp -s "$tmp/direct.out" "$tmp/script.out" || fail "standard output differs from dplab-cli's: $(diff "$tmp/direct.out" "$tmp/script.out" | head -5)"
[ ! -s "$tmp/script.err" ] || fail "nothing was rebuilt, yet standard error has: $(head -3 "$tmp/script.err")"

# --version and -V print the version, through the script too.
"$src/run.sh" --cli --version >"$tmp/version.out" 2>"$tmp/version.err" || fail "--version failed"
grep -Eq '^dplab-cli [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/version.out" || fail "--version printed: $(cat "$tmp/version.out")"
"$cli" -V | cmp -s - "$tmp/version.out" || fail "-V differs from --version"

# A pipe closed after the first line: the first line is dplab-cli's, and no build step complains.
first=$("$src/run.sh" --cli list algorithms 2>"$tmp/head.err" | head -1)
[ "$first" = "$(head -1 "$tmp/direct.out")" ] || fail "first line through a closed pipe: $first"
[ ! -s "$tmp/head.err" ] || fail "closing the pipe early printed: $(head -3 "$tmp/head.err")"
echo "run.sh --cli: $(wc -l <"$tmp/direct.out") lines identical to dplab-cli's, no build output"
