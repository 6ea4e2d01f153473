#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The text goldens fit an 80-column terminal (the width gpuenv wraps at when its output is no
terminal): every line of tests/fixtures/*/expected/doctor.txt and report.txt is at most 80
columns, with two kinds of exception, which wrapping must not touch:

- a fix or verify command of doctor (a line under `fix`/`verify` that is no `#` comment):
  breaking it would break what the user copies into a shell;
- a line holding one word (a path, a URL, a fact's key; a symptom's library path, as ld.so
  prints it) too long for the line it hangs on, after at most its label or a comment's "#".

Also checks `gpuenv doctor` over one fixture at COLUMNS=60 and 200: the width follows COLUMNS.

Usage: check-text-width.py SOURCE_ROOT [GPUENV]
"""
import glob
import os
import subprocess
import sys

WIDTH = 80


def cols(line):
    return len(line)  # the goldens are UTF-8 text of one-column characters


def wide_lines(lines, width, doctor):
    """(line number, line, is a command) of each line wider than width that is not allowed."""
    bad = []
    in_commands = False
    for n, line in enumerate(lines, 1):
        if doctor and (line.startswith("      fix ") or line.startswith("      verify ")):
            in_commands = True
        elif not line.startswith(" " * 16):
            in_commands = False
        command = in_commands and not line[16:].lstrip().startswith("#")
        words = [w for w in line.split() if w != "#"]
        if doctor and words[:1] in (["fix"], ["verify"], ["evidence"], ["symptom"]):
            words = words[1:]  # the label the value starts beside
        one_long_word = len(words) == 1
        if cols(line) > width and not command and not one_long_word:
            bad.append((n, line))
    return bad


def main():
    root = sys.argv[1]
    goldens = sorted(glob.glob(os.path.join(root, "tests/fixtures/*/expected/doctor.txt")) +
                     glob.glob(os.path.join(root, "tests/fixtures/*/expected/report.txt")))
    if not goldens:
        print("no goldens found", file=sys.stderr)
        return 1
    bad = []
    for g in goldens:
        with open(g, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
        bad += [f"{g}:{n}: {cols(ln)} columns: {ln}"
                for n, ln in wide_lines(lines, WIDTH, g.endswith("doctor.txt"))]
    for b in bad:
        print(b, file=sys.stderr)
    print(f"{len(goldens)} goldens, {len(bad)} lines wider than {WIDTH} columns")
    if len(sys.argv) > 2:
        fixture = os.path.join(root, "tests/fixtures/arch-dkms-module-stale-595/root")
        widest = {}
        for c in (60, 200):
            env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": str(c)}
            for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
                if k in os.environ:
                    env[k] = os.environ[k]
            p = subprocess.run([sys.argv[2], "doctor", "--sysroot", fixture, "--stable",
                                "--no-vendor"], capture_output=True, text=True, env=env)
            lines = p.stdout.splitlines()
            widest[c] = max(map(cols, lines))
            if wide_lines(lines, c, True):
                print(f"COLUMNS={c}: lines wider than {c} columns", file=sys.stderr)
                return 1
        print(f"COLUMNS=60: widest line {widest[60]}; COLUMNS=200: {widest[200]}")
        if widest[200] <= widest[60]:
            print("the text width does not follow COLUMNS", file=sys.stderr)
            return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
