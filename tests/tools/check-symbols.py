#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every GPUENV_API function or object in include/gpuenv/gpuenv.h is listed in
src/libgpuenv.sym and exported by the built libgpuenv.so, and nothing else is exported,
functions and data alike (systemd generate-sym-test.py).

  check-symbols.py HEADER SYMFILE LIBGPUENV.SO
"""
import re
import subprocess
import sys


def exported_symbols(lib):
    """Every defined dynamic symbol of lib, whatever its type (T text, D/B/R data, W/V weak,
    i indirect), less the version nodes (A)."""
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    if nm.returncode != 0:
        sys.exit(f"FAIL: nm -D {lib}: {nm.stderr.strip()}")
    out = {}
    for line in nm.stdout.splitlines():
        f = line.split()
        if len(f) >= 2 and f[-2] != "A":
            out[f[-1].split("@")[0]] = f[-2]
    return out


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.split("\n\n")[1].strip())
    header, symfile, lib = argv[1:4]
    # A function (name followed by "(") or an object (followed by ";", "[" or "=").
    declared = set(re.findall(r"GPUENV_API\s[^;(]*?\b(gpuenv_\w+)\s*[(;\[=]", open(header).read()))
    listed = set(re.findall(r"^\s*(gpuenv_\w+);", open(symfile).read(), re.M))
    exported = exported_symbols(lib)
    if not declared or not listed or not exported:
        print(f"FAIL: nothing to compare: {len(declared)} declared, {len(listed)} listed, "
              f"{len(exported)} exported")
        return 1
    ok = True
    for name, a, b in (("declared but not in .sym", declared, listed),
                       ("in .sym but not declared", listed, declared),
                       ("listed but not exported", listed, set(exported)),
                       ("exported but not listed", set(exported), listed)):
        if a - b:
            print(f"{name}: {' '.join(f'{s} ({exported[s]})' if s in exported else s for s in sorted(a - b))}")
            ok = False
    data = sorted(s for s, t in exported.items() if t not in "TtiWw")
    print("check-symbols:", "ok" if ok else "FAILED",
          f"({len(declared)} symbols, {len(data)} of them data{': ' + ' '.join(data) if data else ''})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
