#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Counts meson's testlog.json (one JSON object per line) into 'N passed, N failed, N skipped'.

A test counts as passed, failed or skipped by meson's result. A test that runs may still skip
some of its checks (no nvcc here, no groff): it then prints one line `SKIP <what>: <why>` per
skipped check, and each such line in its stdout counts as one more skipped check, so a skip
inside a passing test is never invisible; so does each test a cmocka program skipped (its
`[  SKIPPED ] name` line on stdout). The skipped checks are listed on stderr, the summary
line is the last line of stdout.
Further arguments NAME=RC count one extra check each (RC 0 passed, 77 skipped, else failed),
e.g. a build step that ran outside meson test.
Exit status 1 when any test failed, errored or timed out."""
import json
import re
import sys

# `SKIP: why` is a whole test's skip (exit 77, meson counts it); `SKIP what: why` is a part.
PART = re.compile(r"^SKIP ([^:\s][^:]*): (.+)$")
CMOCKA = re.compile(r"^\[  SKIPPED \] (\S+)$")

passed = failed = skipped = 0
skips = []
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if not line:
        continue
    test = json.loads(line)
    result = test.get("result", "")
    name = test.get("name", "?")
    if result in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif result == "SKIP":
        skipped += 1
        why = [x[len("SKIP: "):] for x in (test.get("stdout") or "").splitlines()
               if x.startswith("SKIP: ")]
        skips.append(f"{name}: {why[0] if why else 'skipped'}")
        continue
    else:
        failed += 1
    cmocka_skipped = set()
    for out in (test.get("stdout") or "").splitlines():
        m = PART.match(out)
        if m:
            skipped += 1
            skips.append(f"{name} / {m.group(1)}: {m.group(2)}")
        m = CMOCKA.match(out)
        if m and m.group(1) not in cmocka_skipped:
            cmocka_skipped.add(m.group(1))
            skipped += 1
            skips.append(f"{name} / {m.group(1)}: skipped (cmocka)")
for arg in sys.argv[2:]:
    name, _, rc = arg.partition("=")
    if rc == "0":
        passed += 1
    elif rc == "77":
        skipped += 1
        skips.append(f"{name}: skipped")
    else:
        failed += 1
        sys.stderr.write(f"FAIL {name}: exit {rc}\n")
for s in skips:
    sys.stderr.write(f"SKIP {s}\n")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
