#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every exported function of the public header has its doc block (kmod, libbpf).

  check-api-docs.py HEADER

The comment right before a GPUENV_API declaration (or before a run of declarations it
documents together) must name the function, say what it returns ("Returns", "returns" or "Return"; not needed
for a void function) and since which version ("Since 0.1").
Ownership and reference counts are prose and reviewed by people; the name, the return and
the version are checked here. Fails when the header declares no function, and checks itself
on two made-up headers first, so that it cannot pass by reading nothing.
"""
import re
import sys

DECL = re.compile(r"GPUENV_API\s+([^;(]*?)\b(gpuenv_\w+)\s*\(", re.S)


def problems(text):
    """(name, what is missing) for each declared function; [] when all are documented."""
    found, out = 0, []
    for m in DECL.finditer(text):
        found += 1
        ret_type, name = m.group(1).strip(), m.group(2)
        before = text[:m.start()]
        # The nearest comment above; only declarations and blank lines may stand between.
        end = before.rfind("*/")
        start = before.rfind("/*", 0, end)
        gap = before[end + 2:] if end >= 0 else before
        gap = re.sub(r"GPUENV_API[^;]*;", "", gap, flags=re.S)
        if end < 0 or start < 0 or gap.strip():
            out.append((name, "no comment right above it"))
            continue
        block = before[start:end]
        missing = []
        if name not in block:
            missing.append("its name")
        if "Since " not in block:
            missing.append("'Since <version>'")
        if ret_type != "void" and not re.search(r"\b[Rr]eturns?\b", block):
            missing.append("what it returns ('Returns …')")
        if missing:
            out.append((name, "doc block lacks " + ", ".join(missing)))
    if not found:
        out.append(("-", "no GPUENV_API function declared: nothing was checked"))
    return out


def selftest():
    good = "/* gpuenv_f: does f. Returns 0. Since 0.1. */\nGPUENV_API int gpuenv_f(void);\n"
    bad = "/* does f. Returns 0. */\nGPUENV_API int gpuenv_f(void);\nGPUENV_API void gpuenv_g(void);\n"
    if problems(good):
        sys.exit(f"FAIL: self-test: a documented function is reported: {problems(good)}")
    if len(problems(bad)) != 2:
        sys.exit(f"FAIL: self-test: undocumented functions pass: {problems(bad)}")


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1].strip())
    selftest()
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    bad = problems(text)
    for name, why in bad:
        print(f"{argv[1]}: {name}: {why}")
    n = len(DECL.findall(text))
    print("check-api-docs:", "FAILED" if bad else "ok", f"({n} functions)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
