#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every GPUENV_API function in include/gpuenv/gpuenv.h is listed in src/libgpuenv.sym and
exported by the built libgpuenv.so, and nothing else is exported (systemd generate-sym-test.py)."""
import re
import subprocess
import sys

header, symfile, lib = sys.argv[1:4]
declared = set(re.findall(r"GPUENV_API\s[^;(]*?\b(gpuenv_\w+)\s*\(", open(header).read()))
listed = set(re.findall(r"^\s*(gpuenv_\w+);", open(symfile).read(), re.M))
nm = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
exported = {l.split()[-1].split("@")[0] for l in nm.stdout.splitlines() if " T " in l}
ok = True
for name, a, b in (("declared but not in .sym", declared, listed), ("in .sym but not declared", listed, declared),
                   ("listed but not exported", listed, exported), ("exported but not listed", exported, listed)):
    if a - b:
        print(f"{name}: {' '.join(sorted(a - b))}")
        ok = False
print("check-symbols:", "ok" if ok else "FAILED", f"({len(declared)} symbols)")
sys.exit(0 if ok else 1)
