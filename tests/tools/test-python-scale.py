#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A site-packages of 20,000 entries is read, not given up on (issue 13, performance: "a
20,000-entry site-packages must be read"; an oversized one made doctor say "no torch"). The
torch-cu130-gtx1080 fixture's venv is copied into a scratch sysroot and 20,000 other
distributions are added beside torch: report must still find torch 2.9.0+cu130 there, within
60 s (ASan builds and loaded CI machines included).

Usage: test-python-scale.py GPUENV SRCDIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

gpuenv, src = sys.argv[1], sys.argv[2]
venv = "home/user/venv"
site = f"/{venv}/lib/python3.12/site-packages"
N = 20000

with tempfile.TemporaryDirectory() as root:
    shutil.copytree(os.path.join(src, "tests/fixtures/torch-cu130-gtx1080/root", venv),
                    os.path.join(root, venv), symlinks=True)
    for i in range(N):
        os.mkdir(os.path.join(root + site, f"pkg{i:05d}-1.0.dist-info"))
    env = os.path.join(root, "env")
    with open(env, "w", encoding="utf-8") as f:
        f.write(f"PATH=/{venv}/bin:/usr/bin\nVIRTUAL_ENV=/{venv}\n")
    t0 = time.monotonic()
    r = subprocess.run([gpuenv, "report", "--sysroot", root, "--env-file", env, "--json",
                        "--stable", "--no-vendor"], capture_output=True, text=True,
                       timeout=120, check=False)
    secs = time.monotonic() - t0
if r.returncode > 3:
    print(f"FAIL: gpuenv report exited {r.returncode}: {r.stderr}")
    sys.exit(1)
envs = [e for e in json.loads(r.stdout)["framework"]["python_envs"]
        if e["prefix"].get("value") == f"/{venv}"]
fail = 0
torch = envs[0]["packages"].get("torch", {}).get("version", {}) if envs else {}
if torch.get("value") == "2.9.0+cu130":
    print(f"ok: torch 2.9.0+cu130 found beside {N} other distributions in {secs:.1f} s")
else:
    print(f"FAIL: torch not read from a site-packages of {N + 4} entries: {json.dumps(envs)[:800]}")
    fail = 1
if secs > 60:
    print(f"FAIL: reading a site-packages of {N} entries took {secs:.1f} s")
    fail = 1
sys.exit(fail)
