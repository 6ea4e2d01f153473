#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Live check of the framework layer against a torch installed in the system dist-packages
(Debian: `apt-get install python3-torch`, 1.13.1+dfsg, CPU-only). gpuenv must report the
version and the cuda/hip values that torch/version.py itself holds (read here with a regex,
independently of gpuenv's reader), cpu_only accordingly, and the Debian package version that
dpkg records. Skips (exit 77) with the reason when no such torch is installed.
"""
import json
import re
import subprocess
import sys

SITE = "/usr/lib/python3/dist-packages"


def main():
    gpuenv = sys.argv[1]
    try:
        with open(f"{SITE}/torch/version.py", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"SKIP: no torch in {SITE} ({e.strerror}); apt-get install python3-torch to run this check")
        return 77

    def assign(name):
        m = re.search(rf"^{name}\s*(?::[^=\n]*)?=\s*(None|'([^']*)')\s*$", text, re.M)
        if not m:
            print(f"SKIP: {SITE}/torch/version.py has no plain `{name} =` line")
            sys.exit(77)
        return m.group(2)

    version, cuda, hip = assign("__version__"), assign("cuda"), assign("hip")
    out = subprocess.run([gpuenv, "report", "--json", "--stable", "--no-vendor"], capture_output=True,
                         text=True, check=True).stdout
    snap = json.loads(out)
    envs = [e for e in snap["framework"]["python_envs"]
            if e.get("packages", {}).get("torch", {}).get("site_packages", {}).get("value") == SITE]
    fail = 0

    def check(what, got, want):
        nonlocal fail
        if got == want:
            print(f"ok: {what} = {want!r}")
        else:
            print(f"FAIL: {what}: got {got!r}, want {want!r}")
            fail = 1

    check("python_envs with torch from " + SITE, len(envs), 1)
    if not envs:
        return 1
    t = envs[0]["packages"]["torch"]
    check("torch.version", t["version"].get("value"), version)
    check("torch.cuda", t["cuda"].get("value"), cuda)
    check("torch.cuda state", t["cuda"]["state"], "present" if cuda else "absent")
    check("torch.hip", t["hip"].get("value"), hip)
    check("torch.cpu_only", t["cpu_only"].get("value"), cuda is None and hip is None)
    dq = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "python3-torch"], capture_output=True, text=True)
    if dq.returncode == 0 and dq.stdout:
        check("torch.distro_package.version", t["distro_package"]["version"].get("value"), dq.stdout)
        print(f"note: Debian package python3-torch {dq.stdout}, torch/version.py says {version}")
    else:
        print("note: dpkg-query knows no python3-torch; distro_package not checked")
    return fail


if __name__ == "__main__":
    sys.exit(main())
