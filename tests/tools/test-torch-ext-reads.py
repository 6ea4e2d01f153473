#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How often gpuenv opens a torch extension: once, for its dynamic section and its symbols of
torch's namespaces together (src/probe/framework-extensions.c). Counted, not timed: the
--trace-paths records of the extension of the rw-fa-flash-attention-1644 fixture (made by
fixture_root.py), one for the look at it (a regular file?) and one for its read. Each of
torch's six namespace prefixes was a read of its own before: 8 records.

test-torch-ext-reads.py GPUENV SOURCE_ROOT
"""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402  (tests/tools/fixture_root.py)

FIXTURE = "tests/fixtures/rw-fa-flash-attention-1644"
EXTENSION = ("/home/user/.local/lib/python3.10/site-packages/"
             "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so")
MOST = 2  # the look and the read


def main():
    gpuenv, src = sys.argv[1], sys.argv[2]
    scenario = os.path.join(src, FIXTURE)
    ini = fixture_root.read_ini(scenario)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        missing = fixture_root.prepare(scenario, root, os.path.join(tmp, "keys"))
        if missing:
            print(f"SKIP: {missing[0][0]} not made: {missing[0][1]}")
            sys.exit(77)
        envfile, trace = os.path.join(tmp, "env"), os.path.join(tmp, "trace")
        with open(envfile, "w", encoding="utf-8") as f:
            f.write("".join(f"{k.upper()}={v}\n" for k, v in ini.items("env")))
        r = subprocess.run([gpuenv, "report", "--sysroot", root, "--env-file", envfile,
                            "--stable", "--no-vendor", "--json", "--trace-paths", trace],
                           capture_output=True, text=True, check=False, timeout=300)
        if r.returncode not in (0, 2, 3):
            sys.exit(f"FAIL: gpuenv report exited {r.returncode}: {r.stderr[-2000:]}")
        if '"torch_extensions"' not in r.stdout:
            sys.exit("FAIL: the report lists no torch extension: nothing was counted")
        with open(trace, encoding="utf-8", errors="replace") as f:
            records = [line for line in f if line.rstrip("\n").split("\t")[-1] == EXTENSION]
    print(f"{len(records)} accesses of {EXTENSION}")
    if len(records) > MOST or not records:
        sys.stderr.write("".join(records))
        sys.exit(f"FAIL: {len(records)} accesses of the extension, want 1 to {MOST}")
    print("PASS")


if __name__ == "__main__":
    main()
