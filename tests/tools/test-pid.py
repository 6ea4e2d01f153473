#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv report --pid N` against real processes: usage errors exit 64; a pid that does not
exist is a recorded state (report still prints, exit 0); `sleep` shows its mapped files and
no GPU library; a tiny program linked against libOpenCL.so.1 and CUDA's libcudart (when this
machine has them; each is skipped with a message otherwise) shows them mapped, with the
version from the file name, and the same file the loader emulation picks."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

gpuenv = sys.argv[1]
fail = False


def check(ok, what):
    global fail
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        fail = True


def report(*args):
    p = subprocess.run([gpuenv, "report", "--json", "--stable", "--no-vendor", *args],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


for bad in ("abc", "0", "-5", "12x", "99999999999"):
    rc, _, err = report("--pid", bad)
    check(rc == 64 and "--pid" in err, f"--pid {bad} exits 64 ({rc})")

# A pid that cannot exist (above pid_max's ceiling of 2^22).
rc, out, _ = report("--pid", "4194305")
check(rc == 0, "nonexistent pid: report exits 0")
proc = json.loads(out)["runtime"]["process"]
check(proc["mapped_objects"]["state"] == "absent", "nonexistent pid: mapped_objects absent")
check(proc["pid"]["value"] == 4194305, "pid recorded")


def wait_mapped(pid, names):
    for _ in range(100):
        try:
            with open(f"/proc/{pid}/maps") as f:
                text = f.read()
            if all(n in text for n in names):
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


sleeper = subprocess.Popen(["sleep", "60"])
try:
    wait_mapped(sleeper.pid, ["libc.so"])
    rc, out, _ = report("--pid", str(sleeper.pid))
    proc = json.loads(out)["runtime"]["process"]
    check(rc == 0 and proc["mapped_objects"]["value"] >= 2, "sleep: mapped objects counted")
    check(proc["exe"]["value"].endswith("sleep"), "sleep: exe")
    check(proc["mapped_libraries"] == [], "sleep: no GPU library mapped")
finally:
    sleeper.kill()
    sleeper.wait()

cc = shutil.which("cc")
libs = []  # (link argument, expected mapped file-name prefix)
ocl = subprocess.run(["sh", "-c", "/sbin/ldconfig -p | sed -n 's/.*libOpenCL.so.1 (libc6,x86-64) => //p' | head -1"],
                     capture_output=True, text=True).stdout.strip()
if ocl:
    libs.append((ocl, "libOpenCL.so.1"))
else:
    print("SKIP linked libOpenCL: no libOpenCL.so.1 in the ld.so.cache")
cudart = "/usr/local/cuda/lib64"
cudart_files = sorted(n for n in os.listdir(cudart) if n.startswith("libcudart.so.")) if os.path.isdir(cudart) else []
if cudart_files:
    libs.append((os.path.join(cudart, cudart_files[0]), "libcudart.so."))
else:
    print("SKIP linked libcudart: no libcudart under /usr/local/cuda/lib64")
if not cc or not libs:
    print("SKIP linked program: no compiler or no GPU library to link against")
    sys.exit(1 if fail else 0)

with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "p.c")
    prog = os.path.join(tmp, "p")
    with open(src, "w") as f:
        f.write("#include <unistd.h>\nint main(void) { pause(); return 0; }\n")
    cmd = [cc, src, "-o", prog, "-Wl,--no-as-needed"] + [a for a, _ in libs] + \
        ["-Wl,-rpath," + cudart]
    subprocess.run(cmd, check=True)
    p = subprocess.Popen([prog])
    try:
        check(wait_mapped(p.pid, [n for _, n in libs]), "linked program has its libraries mapped")
        rc, out, _ = report("--pid", str(p.pid))
        snap = json.loads(out)
        mapped = snap["runtime"]["process"]["mapped_libraries"]
        for arg, name in libs:
            hit = [m for m in mapped if os.path.basename(m["path"]["value"]).startswith(name)]
            check(len(hit) == 1, f"{name} listed as mapped")
            if not hit:
                continue
            real = os.path.realpath(arg)
            check(hit[0]["path"]["value"] == real, f"{name}: mapped path {real}")
            base = os.path.basename(real)
            want = base[base.index(".so.") + 4:]
            check(hit[0]["version"].get("value") == want, f"{name}: version {want} from the file name")
            check(hit[0]["deleted"]["value"] is False and hit[0]["is_stub"]["value"] is False,
                  f"{name}: not deleted, not a stub")
        # What the process loaded is what the emulation says it would load.
        for fam in snap["runtime"]["libraries"].get("libOpenCL", []):
            if ocl and fam["soname"]["value"] == "libOpenCL.so.1":
                check(fam["resolved_path"]["value"] == os.path.realpath(ocl),
                      "libOpenCL.so.1: emulated winner is the mapped file")
    finally:
        p.kill()
        p.wait()
sys.exit(1 if fail else 0)
