#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""function_lengths.py: the length of every function body in C++ sources, by a brace heuristic.

  function_lengths.py [--limit N] [--top K] ROOT DIR...

Reads every .cpp/.h under ROOT/DIR, removes comments, string and character literals and
preprocessor lines (newlines kept, so line numbers stay), then pairs the braces. A `{` opens a
function body when the text before it (back to the last `;`, `{` or `}`) ends in a parameter list
`(...)`, optionally followed by qualifiers (const, noexcept, override, final, mutable, &, &&) or a
trailing return type, and the word before that `(` is not a control keyword (if, for, while,
switch, catch) — so functions, member functions, lambdas and test bodies (TEST(...) {) count, and
class, namespace, initialiser and control blocks do not (a constructor's init list may hold brace
initialisers). A function's length runs from the first
line of its declaration (after the previous `;`, `{` or `}`) to its closing brace; a lambda's
lines count in the function that holds it as well as on their own.

Prints the K longest functions as `LINES PATH:LINE NAME`, then every function longer than N lines
as a failure; exits 1 when there is one (0 otherwise, 2 on bad use).
"""
import os
import re
import sys

CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
           "static_assert", "defined"}
QUALIFIERS = re.compile(r"(?:\s|\bconst\b|\bnoexcept\b|\boverride\b|\bfinal\b|\bmutable\b|\bvolatile\b|&)*$")
TRAILING_RETURN = re.compile(r"->\s*[\w:<>,\s\*&]+$")


def strip(text):
    """Comments, literals and preprocessor lines become spaces; newlines stay."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
            continue
        if c == '"' or (c == "'" and not (i > 0 and (text[i - 1].isalnum()))):
            # A string or character literal (a digit separator 1'000 is not one).
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")


def without_braces(text):
    """Balanced {...} groups (brace initialisers in a constructor's init list) as ()."""
    while True:
        replaced = re.sub(r"\{[^{}]*\}", "()", text)
        if replaced == text:
            return text
        text = replaced


def function_name(segment):
    """The name before the parameter list when `segment` (text before a `{`) declares a function."""
    s = without_braces(segment).rstrip()
    init = CTOR_INIT.search(s)
    if init:  # a constructor: its parameter list ends where the init list's colon starts
        s = s[: init.start() + 1]
    s = TRAILING_RETURN.sub("", s).rstrip() if "->" in s else s
    s = s[: QUALIFIERS.search(s).start()].rstrip() if s else s
    # noexcept(...) after the parameter list
    m = re.search(r"\bnoexcept\s*\([^()]*\)\s*$", s)
    if m:
        s = s[: m.start()].rstrip()
    if not s.endswith(")"):
        return None
    depth = 0
    for k in range(len(s) - 1, -1, -1):
        if s[k] == ")":
            depth += 1
        elif s[k] == "(":
            depth -= 1
            if depth == 0:
                break
    else:
        return None
    before = s[:k].rstrip()
    if before.endswith("]"):
        return "lambda"
    m = re.search(r"((?:[A-Za-z_]\w*\s*::\s*)*~?(?:operator\s*(?:\(\)|[^\w\s(]+|\w+)|[A-Za-z_]\w*))\s*(?:<[^<>;{}]*>)?$", before)
    if not m:
        return None
    name = re.sub(r"\s+", "", m.group(1))
    if name.split("::")[-1] in CONTROL:
        return None
    return name


def functions(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip(f.read())
    line_of = []
    line = 1
    for ch in text:
        line_of.append(line)
        if ch == "\n":
            line += 1
    stack = []  # (name or None, start line, segment start when a brace initialiser of an init list)
    last = 0    # index after the last ; { }
    found = []
    for i, ch in enumerate(text):
        if ch == "{":
            segment = text[last:i]
            name = function_name(segment)
            start = i
            if name:
                skip = len(segment) - len(segment.lstrip())
                start = last + skip
            initialiser = None if name else (last if CTOR_INIT.search(without_braces(segment)) else None)
            stack.append((name, line_of[start], initialiser))
            last = i + 1
        elif ch == "}":
            last = i + 1
            if stack:
                name, start, initialiser = stack.pop()
                if name:
                    found.append((line_of[i] - start + 1, start, name))
                elif initialiser is not None:
                    last = initialiser  # the init list goes on: the body's declaration starts there
        elif ch == ";":
            last = i + 1
    return found


def main(argv):
    limit, top = 120, 15
    args = []
    it = iter(argv[1:])
    for a in it:
        if a == "--limit":
            limit = int(next(it))
        elif a == "--top":
            top = int(next(it))
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root, dirs = args[0], args[1:]
    rows = []
    for d in dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    path = os.path.join(base, name)
                    rel = os.path.relpath(path, root)
                    rows += [(n, rel, start, fn) for n, start, fn in functions(path)]
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    for n, rel, start, fn in rows[:top]:
        print(f"{n:5d} {rel}:{start} {fn}")
    long = [r for r in rows if r[0] > limit]
    for n, rel, start, fn in long:
        print(f"{rel}:{start}: {fn} is {n} lines (limit {limit}); split it into named steps")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
