#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Counts meson's testlog.json (one JSON object per line) into 'N passed, N failed, N skipped'.
Exit status 1 when any test failed, errored or timed out."""
import json
import sys

passed = failed = skipped = 0
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if not line:
        continue
    result = json.loads(line).get("result", "")
    if result in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif result == "SKIP":
        skipped += 1
    else:
        failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
