#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every rule of the table is triggered by some fixture (docs/design.md §5): the rule
ids of all tests/fixtures/*/expected/doctor.json findings must cover `gpuenv doctor
--list-rules --json`, except the ids listed in tests/rules-without-fixture.txt (an explicit,
commented allow-list that may only shrink: an id listed there that a fixture does trigger,
or that is not a rule, fails too).

usage: check-rule-coverage.py GPUENV SOURCE_ROOT"""
import glob
import json
import os
import subprocess
import sys

gpuenv, top = sys.argv[1], sys.argv[2]
rules = [r["id"] for r in json.loads(subprocess.run([gpuenv, "doctor", "--list-rules", "--json"],
                                                    capture_output=True, text=True, check=True).stdout)]
triggered = {}
for path in sorted(glob.glob(os.path.join(top, "tests", "fixtures", "*", "expected", "doctor.json"))):
    scenario = path.split(os.sep)[-3]
    with open(path, encoding="utf-8") as f:
        for finding in json.load(f)["findings"]:
            triggered.setdefault(finding["rule"], []).append(scenario)
allowed = []
with open(os.path.join(top, "tests", "rules-without-fixture.txt"), encoding="utf-8") as f:
    for line in f:
        line = line.split("#", 1)[0].strip()
        if line:
            allowed.append(line)
ok = True
if not rules or not triggered:
    # An empty catalogue or no golden doctor.json would make every check below vacuous.
    print(f"FAIL: {len(rules)} rules listed by --list-rules --json, "
          f"{len(triggered)} rule ids found in tests/fixtures/*/expected/doctor.json")
    ok = False
for r in rules:
    if r in triggered:
        print(f"ok: {r}: {', '.join(sorted(set(triggered[r])))}")
    elif r in allowed:
        print(f"allowed (no fixture yet): {r}")
    else:
        print(f"FAIL: {r}: no fixture triggers it and it is not in tests/rules-without-fixture.txt")
        ok = False
for a in allowed:
    if a not in rules:
        print(f"FAIL: tests/rules-without-fixture.txt lists {a}, which is not a rule")
        ok = False
    elif a in triggered:
        print(f"FAIL: {a} is triggered by {', '.join(triggered[a])}: remove it from "
              "tests/rules-without-fixture.txt")
        ok = False
sys.exit(0 if ok else 1)
