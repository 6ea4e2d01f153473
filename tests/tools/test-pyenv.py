#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pyenv through its shims: a sysroot whose PATH holds $PYENV_ROOT/shims with three shims
(python3, python3.11, python3.12) and two versions, 3.11.7 selected by $PYENV_ROOT/version.
Every version is an environment of kind pyenv; the selected one has all three shims as its
interpreters, the other none. And the versions are read once, not once per shim (each shim
read versions/ and resolved every version again: 9 shims x 9 versions on a developer's
machine): the trace of paths lists versions/ and the version file once each.

Usage: test-pyenv.py GPUENV
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

gpuenv = sys.argv[1]
fail = 0


def check(what, got, want):
    global fail
    if got == want:
        print(f"ok: {what} = {want!r}")
    else:
        print(f"FAIL: {what}: got {got!r}, want {want!r}")
        fail = 1


def value(x):
    return x.get("value") if isinstance(x, dict) else x


with tempfile.TemporaryDirectory() as root:
    pyenv = os.path.join(root, "root/.pyenv")
    os.makedirs(f"{pyenv}/shims")
    shims = ["python3", "python3.11", "python3.12"]
    for s in shims:  # pyenv's shims are bash scripts (pyenv-rehash)
        with open(f"{pyenv}/shims/{s}", "w", encoding="utf-8") as f:
            f.write('#!/usr/bin/env bash\nexec "/root/.pyenv/libexec/pyenv" exec "$0" "$@"\n')
        os.chmod(f"{pyenv}/shims/{s}", 0o755)
    for v, mm in [("3.11.7", "3.11"), ("3.12.1", "3.12")]:
        os.makedirs(f"{pyenv}/versions/{v}/lib/python{mm}/site-packages")
        os.makedirs(f"{pyenv}/versions/{v}/bin")
    with open(f"{pyenv}/version", "w", encoding="utf-8") as f:
        f.write("3.11.7\n")
    env = os.path.join(root, "env")
    with open(env, "w", encoding="utf-8") as f:
        f.write("PATH=/root/.pyenv/shims:/usr/bin\n")
    trace = os.path.join(root, "trace")
    r = subprocess.run([gpuenv, "report", "--sysroot", root, "--env-file", env, "--json",
                        "--stable", "--no-vendor", "--trace-paths", trace],
                       capture_output=True, text=True, check=False)
    if r.returncode not in (0, 2, 3):
        print(f"FAIL: gpuenv report exited {r.returncode}: {r.stderr}")
        sys.exit(1)
    envs = {value(e["prefix"]): e for e in json.loads(r.stdout)["framework"]["python_envs"]}
    sel, other = "/root/.pyenv/versions/3.11.7", "/root/.pyenv/versions/3.12.1"
    check("environments", sorted(envs), [sel, other])
    for p in envs:
        check(f"{p} kind", value(envs[p]["kind"]), "pyenv")
    if sel in envs:
        check("selected version's interpreters",
              [value(i) for i in envs[sel]["interpreters"]],
              [f"/root/.pyenv/shims/{s}" for s in shims])
        check("selected version found via", [value(v) for v in envs[sel]["found_via"]],
              ["PATH python3 (pyenv shim, selected version)"])
    if other in envs:
        check("other version's interpreters", envs[other]["interpreters"], [])
        check("other version found via", [value(v) for v in envs[other]["found_via"]],
              ["pyenv versions"])
    with open(trace, encoding="utf-8") as f:
        reads = collections.Counter(line.rstrip("\n").split("\t", 1)[1] for line in f)
    check("reads of /root/.pyenv/versions", reads["/root/.pyenv/versions"], 1)
    check("reads of /root/.pyenv/version", reads["/root/.pyenv/version"], 1)
sys.exit(fail)
