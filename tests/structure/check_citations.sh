#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check_citations.sh ROOT: every document a source file, build file, script or doc cites is in the
# repository, and every numbered section it cites exists.
#
#   docs/NAME.md            the file must exist
#   docs/NAME.md §N         the file must have a heading "## N. …"
#   DESIGN §N, STYLE §N     refused: those documents are not part of the repository
#   spec §N, spec sec. N    refused: the papers' reading notes are not either (cite docs/paperNNN.md)
# Prints each bad citation as FILE:LINE: CITATION and exits 1; exits 0 when every citation holds.
set -euo pipefail
root=${1:-.}
cd "$root"
status=0

mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.txt' '*.sh' '*.py' '*.md' '*.json' 2>/dev/null ||
                     find core ui app tests scripts docs -type f)
[ ${#files[@]} -gt 0 ] || { echo "check_citations: no files found under $root"; exit 1; }
# This script's own comments name the forms it checks.
self=tests/structure/check_citations.sh
for i in "${!files[@]}"; do
    [ "${files[$i]}" = "$self" ] && unset 'files[i]'
done
files=("${files[@]}")

while IFS= read -r hit; do
    echo "$hit: cites a document outside the repository"
    status=1
done < <(grep -nHE '\b(DESIGN|STYLE)(\.md)? ?§' "${files[@]}" || true)

while IFS= read -r hit; do
    echo "$hit: cites a specification outside the repository"
    status=1
done < <(grep -nHiE '\bspec(ification)?s?,? ?(§|sec\.|section [0-9])' "${files[@]}" || true)

while IFS= read -r hit; do
    where=${hit%%:docs/*}
    cite=${hit#"$where":}
    doc=$(echo "$cite" | sed -E 's/^(docs\/[A-Za-z0-9_.-]+\.md).*/\1/')
    # A pattern such as docs/paper00N-results.md names a family of files, not one.
    case "$doc" in *00N*) continue ;; esac
    if [ ! -f "$doc" ]; then
        echo "$where: $doc does not exist"
        status=1
        continue
    fi
    section=$(echo "$cite" | sed -nE 's/^docs\/[A-Za-z0-9_.-]+\.md §([0-9]+).*/\1/p')
    if [ -n "$section" ] && ! grep -qE "^## $section\. " "$doc"; then
        echo "$where: $doc has no section §$section"
        status=1
    fi
done < <(grep -noHE 'docs/[A-Za-z0-9_.-]+\.md( §[0-9]+)?' "${files[@]}" || true)

[ "$status" = 0 ] && echo "citations: every cited document and section is in the repository"
exit "$status"
