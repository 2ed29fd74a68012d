#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The README as a tested document: runs every command of its ```sh blocks as written, and every
`dplab-cli` command that a preset's description or lesson notes give (indented by four spaces).
With --docs, the same for the ```sh blocks of docs/*.md instead.

    readme_commands.py --source CHECKOUT --bin FOLDER_OF_DPLAB_CLI [--docs] [--list]

Set-up as the README says: the `export` lines of its set-up block run in the checkout (so
`dplab-cli` is on the PATH and $DPLAB_RESOURCES names the presets and data); FOLDER_OF_DPLAB_CLI
(the build this test belongs to, which need not be CHECKOUT/build) is put first on the PATH so
that the commands test this build. Then every block runs, in order, in one scratch folder outside
the checkout, under `bash -euo pipefail`; a command that fails fails the test, naming the block's
line in the README. Skipped, each with the reason printed:

- `./run.sh`, `./test.sh`: set-up scripts (they install Debian packages and build; the test runs
  on a build that exists);
- `cmake --install`: installs into a prefix (tests/cli/install_test.cpp tests it);
- `dplab …` and `scripts/screenshot…`: open the window (tests/ui and the screenshot script test it).

Afterwards the checkout must be as before (`git status --porcelain`): no command may write into
the repository.

docs/*.md (--docs): each document's ```sh blocks run in order in ONE shell session (as a reader
types them: a variable set in one block is there in the next), in a scratch folder of its own
that holds a link `build` to the build this test belongs to (the folder above FOLDER_OF_DPLAB_CLI),
so a developer's `build/…` command runs against it. The skips above apply line by line; a block
that is not a command to type (a file's contents, a recipe for ssh hosts or a SLURM cluster, a
record of a measurement) says so on the line before its fence, `<!-- not run: REASON -->`, and
the test prints the reason. A ``` block without a language is not a command block.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

SKIP = [
    (re.compile(r"^\./(run|test)\.sh\b"), "set-up script: installs packages and builds (the test runs on an existing build)"),
    (re.compile(r"^cmake --install\b"), "installs into a prefix (tests/cli/install_test.cpp covers it)"),
    (re.compile(r"^dplab\b(?!-)"), "opens the window (GUI; tests/ui covers it)"),
    (re.compile(r"^(scripts/screenshots?\.sh)\b"), "opens the window on a virtual display (GUI)"),
]


NOT_RUN = re.compile(r"^<!-- not run: (.+) -->$")


def blocks(text, with_reasons=False):
    """[(line number of the first command, [logical lines])] of every ```sh block (with
    `with_reasons`, a third element: the reason of a `<!-- not run: … -->` line before it, or None)."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            prev = [l for l in lines[:i] if l.strip()][-1:] or [""]
            m = NOT_RUN.match(prev[0].strip())
            start = i + 2
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            logical, current = [], ""
            for line in body:
                if line.rstrip().endswith("\\"):
                    current += line.rstrip()[:-1] + " "
                    continue
                current += line
                if current.strip():
                    logical.append(current.strip())
                current = ""
            out.append((start, logical, m.group(1) if m else None) if with_reasons else (start, logical))
        i += 1
    return out


def preset_commands(source):
    """[(preset file name, command)] of the commands in the presets' descriptions and notes."""
    import json
    out = []
    folder = os.path.join(source, "resources", "presets")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            doc = json.load(f)
        texts = [doc.get("description", ""), (doc.get("presentation") or {}).get("notes", "")]
        for text in texts:
            for m in re.finditer(r"(?m)^    (dplab-cli .*)$", text or ""):
                out.append((name, m.group(1).strip()))
    return out


def skipped(command):
    for pattern, reason in SKIP:
        if pattern.search(command):
            return reason
    return None


def git_status(source):
    try:
        return subprocess.run(["git", "-C", source, "status", "--porcelain"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None


def run_docs(source, env, bin_dir, list_only):
    """Every ```sh block of docs/*.md, one shell session per document. Returns (ran, failures)."""
    ran = failures = 0
    build = os.path.dirname(os.path.abspath(bin_dir))
    folder = os.path.join(source, "docs")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            found = blocks(f.read(), with_reasons=True)
        doc = "docs/" + name
        script = ["set -euo pipefail"]
        count = 0
        for line, commands, reason in found:
            if reason:
                print("%s:%d: not run (%s)" % (doc, line, reason))
                continue
            to_run = []
            for c in commands:
                why = skipped(c)
                ui = re.search(r"tests/ui/([A-Za-z0-9_]+)", c)
                if not why and ui and not os.path.exists(os.path.join(build, "tests", "ui", ui.group(1))):
                    why = "this build has no UI tests (built without the window)"
                if why:
                    print("%s:%d: skipped (%s): %s" % (doc, line, why, c))
                else:
                    to_run.append(c)
                    print("%s:%d: $ %s" % (doc, line, c), flush=True)
            if to_run:
                script.append("echo '@@ %s:%d' >&2" % (doc, line))
                script += to_run
                count += len(to_run)
        if count == 0 or list_only:
            continue
        with tempfile.TemporaryDirectory(prefix="dplab-docs-") as scratch:
            os.symlink(build, os.path.join(scratch, "build"))
            proc = subprocess.run(["bash", "-c", "\n".join(script) + "\n"], cwd=scratch, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
        ran += count
        if proc.returncode != 0:
            failures += 1
            marks = [l for l in proc.stderr.splitlines() if l.startswith("@@ ")]
            print("%s: FAILED with exit %d in the block at %s:\n%s" % (
                doc, proc.returncode, marks[-1][3:] if marks else "?", (proc.stdout + proc.stderr)[-3000:]))
    return ran, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--list", action="store_true", help="print the commands and what is skipped; run nothing")
    ap.add_argument("--docs", action="store_true", help="the ```sh blocks of docs/*.md instead of the README's")
    args = ap.parse_args()
    source = os.path.abspath(args.source)
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    found = blocks(readme)
    # The set-up block: the one that puts dplab-cli on the PATH.
    setup = [b for b in found if any(l.startswith("export PATH=") for l in b[1])]
    if len(setup) != 1:
        print("README.md: expected one set-up block with `export PATH=…` (found %d)" % len(setup))
        return 1
    exports = [l for l in setup[0][1] if l.startswith("export ")]
    env = dict(os.environ)
    shell = subprocess.run(["bash", "-c", "set -eu\n" + "\n".join(exports) + "\nenv -0"], cwd=source, env=env,
                           stdout=subprocess.PIPE, check=True)
    env = dict(item.split("=", 1) for item in shell.stdout.decode().split("\0") if "=" in item)
    env["PATH"] = os.path.abspath(args.bin) + os.pathsep + env["PATH"]
    env.pop("DISPLAY", None)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")

    before = git_status(source)
    if args.docs:
        ran, failures = run_docs(source, env, args.bin, args.list)
        after = git_status(source)
        if before is not None and after != before:
            print("the documents' commands changed the checkout:\n" + "\n".join(
                sorted(set(after.splitlines()) - set(before.splitlines()))))
            failures += 1
        if failures:
            return 1
        print("%d commands of docs/*.md ran as written from scratch folders; the checkout is unchanged" % ran)
        return 0
    failures = 0
    ran = 0
    with tempfile.TemporaryDirectory(prefix="dplab-readme-") as scratch:
        for line, commands in found:
            to_run = []
            for c in commands:
                if c.startswith("export ") and (line, commands) == setup[0]:
                    print("README.md:%d: set up: %s" % (line, c))
                    continue
                reason = skipped(c)
                if reason:
                    print("README.md:%d: skipped (%s): %s" % (line, reason, c))
                    continue
                to_run.append(c)
            if not to_run:
                continue
            for c in to_run:
                print("README.md:%d: $ %s" % (line, c), flush=True)
            if args.list:
                continue
            script = "set -euo pipefail\n" + "\n".join(to_run) + "\n"
            proc = subprocess.run(["bash", "-c", script], cwd=scratch, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=600)
            ran += len(to_run)
            if proc.returncode != 0:
                failures += 1
                print("README.md:%d: FAILED with exit %d:\n%s" % (line, proc.returncode, proc.stdout[-3000:]))
        notes = preset_commands(source)
        for name, c in notes:
            print("%s (notes): $ %s" % (name, c), flush=True)
            if args.list:
                continue
            proc = subprocess.run(["bash", "-c", "set -euo pipefail\n" + c], cwd=scratch, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
            ran += 1
            if proc.returncode != 0:
                failures += 1
                print("%s: FAILED with exit %d:\n%s" % (name, proc.returncode, proc.stdout[-3000:]))
    after = git_status(source)
    if before is not None and after != before:
        print("the README's commands changed the checkout:\n" + "\n".join(
            sorted(set(after.splitlines()) - set(before.splitlines()))))
        failures += 1
    if failures:
        return 1
    print("%d README commands ran as written from a scratch folder; the checkout is unchanged" % ran)
    return 0


if __name__ == "__main__":
    sys.exit(main())
