#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No ELF file in the fixture trees: binary stand-ins (shared objects, kernel modules) are made
at test time from their scenario.ini ([elf], [modules]: tests/tools/fixture_root.py), never
committed (docs/design.md: binary test fixtures are built by generators). Reads every regular
file under tests/fixtures of the source tree (so a file generated into it is caught too) and
fails on each that starts with the ELF magic and is not in ALLOWED below, on an ALLOWED entry
that is no longer there, and when it read no fixture file at all.

  check-fixture-elf.py SOURCE_ROOT
"""
import os
import sys

# path under tests/fixtures -> why an ELF-looking file is committed there
ALLOWED = {
    "python-bad-input/root/home/user/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so":
        "a malformed-input sample, not a stand-in: 32 bytes, an ELF identification followed by "
        "zeros (a header cut short), the damaged file the scenario is about",
}

top = os.path.join(sys.argv[1], "tests", "fixtures")
fail = 0
seen = 0
found = set()
for d, _, names in os.walk(top):
    for n in names:
        path = os.path.join(d, n)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        seen += 1
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                continue
        rel = os.path.relpath(path, top)
        if rel in ALLOWED:
            found.add(rel)
            continue
        print(f"FAIL: tests/fixtures/{rel} is an ELF file: describe it in its scenario.ini "
              "([elf] or [modules], made at test time) instead of committing it")
        fail = 1
for rel in sorted(set(ALLOWED) - found):
    print(f"FAIL: tests/fixtures/{rel}: allowed as an ELF file but not there (drop it from ALLOWED)")
    fail = 1
if seen == 0:
    print(f"FAIL: no file read under {top}: the check proved nothing")
    fail = 1
if not fail:
    print(f"ok: {seen} fixture files, no ELF file but the {len(found)} allowed")
sys.exit(fail)
