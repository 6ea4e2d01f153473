#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""runtime.opencl.icd_files[].needed_missing[] followed through the ICD library's own
dependencies (src/probe/probe-opencl.c), as `ldd` and dlopen() follow them: the
rw-intel-uhd630-opencl-gmmlib-installed tree (libigdrcl.so, whose libigdgmm.so.11 is installed
under /usr/local/lib) with that libigdgmm.so.11 rebuilt by the test to need more libraries:

  - libgmm-dep.so.1, found nowhere: a miss one level down, its source libigdgmm.so.11, and
    doctor's runtime.opencl-icd-library-missing says which library needs it;
  - the same name also installed beside it: nothing missing (the negative);
  - a chain deeper than the probe follows (ICD_DEP_DEPTH, 4 levels below the vendor
    library) ending in a missing library: not reported (bounded), while one at the last level
    followed is.

  test-opencl-icd-deps.py GPUENV
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture_root  # noqa: E402

FIXTURE = os.path.join(HERE, "..", "fixtures", "rw-intel-uhd630-opencl-gmmlib-installed")
GMM = "usr/local/lib/libigdgmm.so.11"
ICD_LIB = "/usr/local/lib/intel-opencl/libigdrcl.so"


def so(root, rel, soname, needed=None):
    out = os.path.join(root, rel)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if os.path.lexists(out):
        os.unlink(out)
    fixture_root.build_so(out, soname, {"needed": ",".join(needed or [])})


def ldconfig(root):
    """The tree's ld.so.cache rebuilt for what the test installed (the fixture's cache lists
    /usr/local/lib: new files there are found through it after ldconfig, as on a machine)."""
    subprocess.run(["/sbin/ldconfig", "-r", root], check=True, capture_output=True)


def report(gpuenv, root):
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    p = subprocess.run([gpuenv, "report", "--sysroot", root, "--stable", "--no-vendor", "--json"],
                       env=env, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"FAIL: gpuenv report exited {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout)


def doctor_text(gpuenv, root):
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "400"}
    p = subprocess.run([gpuenv, "doctor", "--sysroot", root, "--stable", "--no-vendor"],
                       env=env, capture_output=True, text=True, check=False)
    return p.stdout


def icd(snap):
    for f in snap["runtime"]["opencl"]["icd_files"]:
        if f["library"]["value"] == ICD_LIB:
            return f
    sys.exit(f"FAIL: no ICD file naming {ICD_LIB}")


def missing(snap):
    nm = icd(snap).get("needed_missing")
    if nm is None:
        return []
    return [(e["value"], e.get("source")) for e in nm]


def main():
    gpuenv = sys.argv[1]
    for tool in ("gcc", "/sbin/ldconfig"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} is not installed")
            return 77
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        if fixture_root.prepare(FIXTURE, root):
            print("SKIP: the fixture's libraries cannot be made here")
            return 77

        # the fixture as committed: everything found
        got = missing(report(gpuenv, root))
        assert got == [], got

        # one level down: libigdgmm.so.11 needs a library installed nowhere
        so(root, GMM, "libigdgmm.so.11", ["libgmm-dep.so.1"])
        got = missing(report(gpuenv, root))
        assert got == [("libgmm-dep.so.1", "/" + GMM)], got
        text = doctor_text(gpuenv, root)
        assert "libgmm-dep.so.1 (needed by /usr/local/lib/libigdgmm.so.11)" in " ".join(
            text.split()), text

        # the negative: installed beside it, found through ld.so.cache
        so(root, "usr/local/lib/libgmm-dep.so.1", "libgmm-dep.so.1")
        ldconfig(root)
        got = missing(report(gpuenv, root))
        assert got == [], got

        # a chain: libigdgmm → d1 → d2 → d3 (level 4, followed) needs d4, found nowhere;
        # then d4 installed needing d5 (level 5: not followed, so not reported)
        so(root, "usr/local/lib/libgmm-dep.so.1", "libgmm-dep.so.1", ["libd2.so.1"])
        so(root, "usr/local/lib/libd2.so.1", "libd2.so.1", ["libd3.so.1"])
        so(root, "usr/local/lib/libd3.so.1", "libd3.so.1", ["libd4.so.1"])
        ldconfig(root)
        got = missing(report(gpuenv, root))
        assert got == [("libd4.so.1", "/usr/local/lib/libd3.so.1")], got
        so(root, "usr/local/lib/libd4.so.1", "libd4.so.1", ["libd5.so.1"])
        ldconfig(root)
        got = missing(report(gpuenv, root))
        assert got == [], got
    print("ok: needed_missing[] follows the ICD library's dependencies, bounded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
