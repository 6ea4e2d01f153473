#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The installed header and binaries carry no test hooks (issue: a settled API).

  check-no-test-hooks.py HEADER RELEASE... -- TEST_BUILD

HEADER (the installed include/gpuenv/gpuenv.h) names no test hook: no GPUENV_TEST_, no
NO_OPENAT2, no inject. No RELEASE file (the installed gpuenv, libgpuenv.so, libgpuenv.a)
holds the text GPUENV_TEST_ (an environment variable it would read) or defines or calls a
testhooks_ symbol (src/testhooks/) or any symbol naming inject_error (fault injection, such as
testhooks_root_inject_error(), lives in the test build only; libgpuenv keeps an access hook
that nothing in it sets). TEST_BUILD (gpuenv-test) must hold all three, or the check proves
nothing and fails: it cannot pass because a name changed.
"""
import re
import shutil
import subprocess
import sys

HEADER_WORDS = re.compile(r"GPUENV_TEST_|NO_OPENAT2|inject", re.I)
ENV_TEXT = b"GPUENV_TEST_"
INJECT = re.compile(r"inject_?errors?", re.I)
HOOK_SYMBOL = re.compile(r"^testhooks_|inject_?errors?", re.I)


def hook_symbols(path):
    tool = "nm"
    if not shutil.which(tool):
        sys.exit("FAIL: nm not found (binutils)")
    p = subprocess.run([tool, "-P", path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: nm {path}: {p.stderr.strip()}")
    syms = set()
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 2 and not line.endswith(":") and HOOK_SYMBOL.search(f[0]):
            syms.add(f[0])
    return syms


def env_texts(path):
    with open(path, "rb") as f:
        data = f.read()
    return sorted({m.decode() for m in re.findall(rb"GPUENV_TEST_[A-Z0-9_]*", data)})


def main(argv):
    if "--" not in argv or argv.index("--") < 3 or argv.index("--") != len(argv) - 2:
        sys.exit(__doc__.split("\n\n")[1].strip())
    header = argv[1]
    release = argv[2:argv.index("--")]
    test_build = argv[-1]
    bad = []
    with open(header, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if HEADER_WORDS.search(line):
                bad.append(f"{header}:{n}: a test hook in the installed header: {line.strip()}")
    for path in release:
        texts, syms = env_texts(path), hook_symbols(path)
        if texts:
            bad.append(f"{path}: reads test environment variables: {' '.join(texts)}")
        if syms:
            bad.append(f"{path}: defines or calls test hooks: {' '.join(sorted(syms))}")
    test_syms = hook_symbols(test_build)
    if (not env_texts(test_build) or not any(s.startswith("testhooks_") for s in test_syms)
            or not any(INJECT.search(s) for s in test_syms)):
        bad.append(f"{test_build}: the test build lacks a GPUENV_TEST_ text, a testhooks_ "
                   "symbol or an inject_error symbol: this check would pass whatever the release "
                   "binaries hold")
    for b in bad:
        print(b)
    print("check-no-test-hooks:", "FAILED" if bad else "ok",
          f"({len(release)} release files, header {header})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
