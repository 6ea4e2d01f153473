#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Live checks of the vendor probes on this machine.

opencl:   the OpenCL platforms and devices `gpuenv report --opencl-all` lists must be exactly
          those that `clinfo -l` prints in the same test (skips when clinfo or an ICD is
          missing); a plain `gpuenv report` lists the same less the CPU-only implementations
          (PoCL), which it does not load.
nowrite:  live `report`, `report --opencl-all` and `doctor` with HOME an empty directory (and
          XDG_CACHE_HOME unset) must leave it empty (PoCL writes its kernel cache under
          ~/.cache/pocl) and leave no private directory of a vendor child behind in TMPDIR.
nochange: run as root, a live `gpuenv report` (plus one naming the real stub libcuda, and a
          --sysroot run that really calls that stub) must leave /dev, /sys/module and the
          libraries it loaded unchanged: the real NVML and libcuda create /dev/nvidiactl
          even without a driver (docs/formats/nvml.md §1). Skips as non-root.
Usage: test-vendor-live.py opencl|nochange|nowrite GPUENV SOURCE_ROOT
"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile

STUBS = ["/usr/local/cuda/lib64/stubs/libcuda.so", "/usr/local/cuda/lib/stubs/libcuda.so"]


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(77)


def report(gpuenv, *args, env=None):
    p = subprocess.run([gpuenv, "report", "--json", "--stable", *args], capture_output=True,
                       text=True, timeout=120, env=env)
    if p.returncode != 0:
        sys.exit(f"gpuenv report {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout)


def value(fact):
    if not isinstance(fact, dict) or fact.get("state") != "present":
        raise SystemExit(f"expected a present fact, got {fact!r}")
    return fact["value"]


def clinfo_list():
    """`clinfo -l`: "Platform #N: name" then " +-- Device #M: name" / " `-- Device #M: name"."""
    p = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"clinfo -l: exit {p.returncode}\n{p.stderr}")
    plats = []
    for line in p.stdout.splitlines():
        m = re.match(r"^Platform #\d+: (.*)$", line)
        if m:
            plats.append((m.group(1).strip(), []))
            continue
        m = re.match(r"^\s*[`+|]-- Device #\d+: (.*)$", line)
        if m and plats:
            plats[-1][1].append(m.group(1).strip())
    return plats


def test_opencl(gpuenv):
    if subprocess.run(["sh", "-c", "command -v clinfo"], capture_output=True).returncode != 0:
        skip("clinfo is not installed")
    vendors = "/etc/OpenCL/vendors"
    if not os.path.isdir(vendors) or not any(n.endswith(".icd") for n in os.listdir(vendors)):
        skip(f"no OpenCL ICD in {vendors}")
    expected = clinfo_list()
    ocl = report(gpuenv, "--opencl-all")["runtime"]["opencl"]
    if value(ocl["session"]) != "completed":
        sys.exit(f"OpenCL session: {ocl['session']}")
    got, gpu_only = [], []
    for p in ocl["platforms"]:
        devs = [value(d["name"]).strip() for d in p["devices"]]
        got.append((value(p["name"]).strip(), devs))
        if not all(value(d["type"]) == "CPU" for d in p["devices"]) or not devs:
            gpu_only.append(got[-1])
    print(f"clinfo -l:             {expected}")
    print(f"gpuenv --opencl-all:   {got}")
    if got != expected:
        sys.exit("FAIL: gpuenv's OpenCL platforms/devices differ from clinfo -l")
    if value(ocl["platform_count"]) != len(expected):
        sys.exit("FAIL: platform_count differs from clinfo -l")
    plain = report(gpuenv)["runtime"]["opencl"]
    if all(value(f["cpu_only"]) for f in plain["icd_files"]):
        # Nothing but CPU-only ICDs: the session is not even started.
        if plain["platforms"].get("state") != "unprobed" or "CPU-only" not in plain["platforms"].get("error", ""):
            sys.exit(f"FAIL: only CPU-only ICDs, yet platforms = {plain['platforms']}")
        print(f"gpuenv (CPU-only ICDs left out): {plain['platforms']['error']}")
        print("ok: OpenCL platforms and devices equal clinfo -l")
        return
    got_plain = [(value(p["name"]).strip(), [value(d["name"]).strip() for d in p["devices"]])
                 for p in plain["platforms"]]
    print(f"gpuenv (CPU-only ICDs left out): {got_plain}")
    if got_plain != gpu_only:
        sys.exit(f"FAIL: a plain report should list {gpu_only}")
    if any(value(f["cpu_only"]) for f in plain["icd_files"]) and got_plain == got and got:
        sys.exit("FAIL: a CPU-only ICD was loaded without --opencl-all")
    icds = sorted(n for n in os.listdir(vendors) if n.endswith(".icd"))
    if sorted(os.path.basename(value(f["path"])) for f in ocl["icd_files"]) != icds:
        sys.exit("FAIL: icd_files differ from the directory listing")
    print("ok: OpenCL platforms and devices equal clinfo -l")


def listing(top, recursive=True, skip_dirs=()):
    """(path, type, mode, rdev) of every entry, symlinks not followed."""
    out = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if os.path.join(dirpath, d) not in skip_dirs)
        for n in sorted(dirnames + filenames):
            path = os.path.join(dirpath, n)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            out.append((path, stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_rdev))
        if not recursive:
            break
    return out


def snapshot_tree():
    # /dev/pts and /dev/shm change whenever anyone opens a terminal or shared memory.
    state = {"dev": listing("/dev", skip_dirs=("/dev/pts", "/dev/shm", "/dev/mqueue")),
             "sys/module": [e[0] for e in listing("/sys/module", recursive=False)]}
    for stub in STUBS:
        if os.path.exists(stub):
            st = os.stat(stub)
            state[stub] = (st.st_size, st.st_mtime_ns, stat.S_IMODE(st.st_mode))
    return state


def compare(before, after, what):
    if before == after:
        print(f"ok: {what}: /dev, /sys/module and the stub library unchanged")
        return True
    for k in before:
        if before[k] != after.get(k):
            b, a = before[k], after.get(k)
            if isinstance(b, list):
                print(f"FAIL: {what}: {k}: added {sorted(set(a) - set(b))}, removed {sorted(set(b) - set(a))}")
            else:
                print(f"FAIL: {what}: {k}: {b} -> {a}")
    return False


def test_nochange(gpuenv, source_root):
    if os.geteuid() != 0:
        skip("not root: the libraries could not create device nodes anyway")
    ok = True
    before = snapshot_tree()
    snap = report(gpuenv)
    ok &= compare(before, snapshot_tree(), "live report")
    nvml = snap["driver"]["nvml"]
    print(f"live: driver.nvml.init = {nvml['init']}")
    stub = next((s for s in STUBS if os.path.exists(s)), None)
    if stub:
        before = snapshot_tree()
        snap = report(gpuenv, "--cuda-lib", stub)
        ok &= compare(before, snapshot_tree(), f"live report --cuda-lib {stub}")
        print(f"live --cuda-lib: driver.cuda.init = {snap['driver']['cuda']['init']}")
        # Through a fixture root whose kernel module gate is open, the stub is really called.
        root = os.path.join(source_root, "tests/fixtures/cuda-stub/root")
        before = snapshot_tree()
        snap = report(gpuenv, "--sysroot", root, "--cuda-lib", stub)
        ok &= compare(before, snapshot_tree(), "--sysroot cuda-stub --cuda-lib stub")
        init = snap["driver"]["cuda"]["init"]
        print(f"--sysroot cuda-stub: driver.cuda.init = {init}")
        if init.get("state") != "error" or "CUDA_ERROR_STUB_LIBRARY (34)" not in init.get("error", ""):
            print("FAIL: the real stub's cuInit did not report CUDA_ERROR_STUB_LIBRARY")
            ok = False
    else:
        print("note: no CUDA toolkit stub libcuda here; the stub runs were left out")
    sys.exit(0 if ok else 1)


def test_nowrite(gpuenv):
    # A TMPDIR of this test's own: in the shared /tmp, other gpuenv runs (a parallel test
    # suite on the same machine) come and go, and their directories were taken for ours.
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as tmp:
        ours = lambda: sorted(n for n in os.listdir(tmp) if n.startswith("gpuenv-vendor-"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
        env["HOME"] = home
        env["TMPDIR"] = tmp
        left_before = ours()
        ok = True
        for args in (["report"], ["report", "--opencl-all"], ["doctor"]):
            p = subprocess.run([gpuenv, *args], capture_output=True, env=env, timeout=120)
            if p.returncode not in (0, 1, 2, 3):
                sys.exit(f"gpuenv {' '.join(args)}: exit {p.returncode}")
            written = [os.path.join(d, n) for d, ds, fs in os.walk(home) for n in ds + fs]
            if written:
                print(f"FAIL: gpuenv {' '.join(args)} wrote under HOME: {written}")
                ok = False
            else:
                print(f"ok: gpuenv {' '.join(args)}: HOME still empty")
        left = sorted(set(ours()) - set(left_before))
        if left:
            print(f"FAIL: private directories left in {tmp}: {left}")
            ok = False
    sys.exit(0 if ok else 1)


def main():
    mode, gpuenv, source_root = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "opencl":
        test_opencl(gpuenv)
    elif mode == "nowrite":
        test_nowrite(gpuenv)
    elif mode == "nochange":
        test_nochange(gpuenv, source_root)
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
