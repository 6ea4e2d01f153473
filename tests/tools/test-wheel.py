#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""--wheel: wheels written here (zipfile, as bdist_wheel lays them out) are judged as installed,
read in place: a torch-like wheel whose libtorch_cuda.so is a real nvcc-built fat binary is
found as a framework in /usr/local/lib/python3.12/site-packages with its METADATA version,
Requires-Dist pins and GPU code, and `gpuenv check --target` judges that code on the target;
hostile zips (a bomb, 200,001 entries, "../" and absolute names, a link entry, a text file)
give a message and a recorded state, never a crash, a hang or a file written.
Usage: test-wheel.py GPUENV"""
import json
import os
import shutil
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402
from image_checks import check, index_state, run, summary  # noqa: E402

SKIPS = 0


def skip(what, why):
    global SKIPS
    SKIPS += 1
    print("SKIP %s: %s" % (what, why))


def report(gpuenv, *wheels, timeout=180):
    args = []
    for w in wheels:
        args += ["--wheel", w]
    r = run(gpuenv, "report", "--json", "--stable", "--no-vendor", *args, timeout=timeout)
    return r, (json.loads(r.stdout) if r.returncode == 0 and r.stdout else None)


TORCH_VERSION_PY = ("from typing import Optional\n\n"
                    "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
                    "__version__ = '2.4.0+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\n"
                    "git_version = '0fabc3ba44823f257e70ce397d989c8de5e362c1'\n"
                    "hip: Optional[str] = None\nxpu: Optional[str] = None\n")


def torch_wheel(path, libtorch_cuda):
    """torch 2.4.0+cu124 as its wheel lays it out (torch/, torch-*.dist-info/ with METADATA,
    WHEEL and RECORD; Requires-Dist as torch 2.4.0's METADATA writes its nvidia pins)."""
    di = "torch-2.4.0+cu124.dist-info"
    meta = ("Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0+cu124\n"
            "Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
            "Requires-Python: >=3.8.0\n"
            "Requires-Dist: nvidia-cuda-runtime-cu12==12.4.99; platform_system == \"Linux\" "
            "and platform_machine == \"x86_64\"\n"
            "Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and "
            "platform_machine == \"x86_64\"\n")
    files = [("torch/__init__.py", b""), ("torch/version.py", TORCH_VERSION_PY.encode()),
             (di + "/METADATA", meta.encode()),
             (di + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: bdist_wheel (0.43.0)\n"
              b"Root-Is-Purelib: false\nTag: cp312-cp312-linux_x86_64\n")]
    if libtorch_cuda:
        with open(libtorch_cuda, "rb") as f:
            files.append(("torch/lib/libtorch_cuda.so", f.read()))
    record = "".join("%s,,\n" % n for n, _ in files) + di + "/RECORD,,\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in files:
            z.writestr(n, data)
        z.writestr(di + "/RECORD", record)


def torch_of(d):
    for env in (d or {}).get("framework", {}).get("python_envs", []):
        t = env.get("packages", {}).get("torch")
        if t:
            return env, t
    return None, None


def test_framework(gpuenv, tmp):
    so = None
    if not shutil.which("nvcc"):
        skip("wheel with a real fat binary", "nvcc is not installed")
    else:
        so = os.path.join(tmp, "libtorch_cuda.so")
        fixture_root.build_cuda(so, {"soname": "libtorch_cuda.so", "sass": "80"})
    whl = os.path.join(tmp, "torch-2.4.0+cu124-cp312-cp312-linux_x86_64.whl")
    torch_wheel(whl, so)
    r, d = report(gpuenv, whl)
    check(d is not None, "report --wheel runs (%d): %s" % (r.returncode, r.stderr[-300:]))
    env, t = torch_of(d)
    check(t is not None, "torch found in the wheel's site-packages: %s" %
          json.dumps((d or {}).get("framework"))[:400])
    if not t:
        return
    check(t["dist_version"]["value"] == "2.4.0+cu124", "METADATA version: %s" % t["dist_version"])
    check(t["site_packages"]["value"] == "/usr/local/lib/python3.12/site-packages",
          "cp312 wheel in python3.12's site-packages: %s" % t["site_packages"])
    pins = json.dumps(t.get("requires_nvidia"))
    check("nvidia-cudnn-cu12" in pins and "9.1.0.70" in pins, "Requires-Dist pins: %s" % pins[:300])
    check(d["container"]["image"]["kind"]["value"] == "wheels", "image kind wheels")
    check(index_state(d)["value"] == "complete", "index complete: %s" % index_state(d))
    if not so:
        return
    targets = [a["target"]["value"] for a in t.get("arch_targets", [])]
    check("sm_80" in targets, "the fat binary's sm_80 read from the wheel entry: %s" % targets)
    # sm_80 SASS only: no kernel for an H100 (9.0), fine on an A100 (8.0). By name: a bare
    # compute capability (gpu=9.0) gives the GPU no PCI device id, and the rules' NVIDIA
    # test (rules-util.c gpu_vendor_is) wants both ids
    for gpu, fails in (("H100", True), ("A100", False)):
        r = run(gpuenv, "check", "--json", "--no-vendor", "--wheel", whl, "--target",
                "gpu=%s,driver=550.54.15" % gpu)
        try:
            c = json.loads(r.stdout)
        except ValueError:
            c = None
        check(c is not None, "check --wheel --target gpu=%s: %d %s" % (gpu, r.returncode,
                                                                        r.stderr[-300:]))
        states = {x["id"]: x["state"] for x in (c or {}).get("rules", [])}
        st = states.get("framework.no-kernel-image")
        check((st == "fail") == fails, "gpu=%s: framework.no-kernel-image %s" % (gpu, st))


def test_repeated(gpuenv, tmp):
    """--wheel is repeatable: torch's wheel and a wheel of a GPU library (sm_90 SASS only),
    both installed into one tree and judged together on an A100 (8.0)."""
    so = os.path.join(tmp, "libk90.so.12")
    fixture_root.build_fatbin(so, {"soname": "libk90.so.12", "sass": "90", "ptxisa": "8.0"})
    kx = os.path.join(tmp, "nvidia_kx_cu12-1.0-py3-none-manylinux2014_x86_64.whl")
    di = "nvidia_kx_cu12-1.0.dist-info"
    with open(so, "rb") as f:
        zip_with(kx, [("nvidia/kx/lib/libk90.so.12", f.read()),
                      (di + "/METADATA", b"Metadata-Version: 2.1\nName: nvidia-kx-cu12\n"
                       b"Version: 1.0\n"),
                      (di + "/WHEEL", b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
                       b"Tag: py3-none-manylinux2014_x86_64\n"), (di + "/RECORD", b"")])
    tw = os.path.join(tmp, "torch-2.4.0+cu124-cp312-cp312-linux_x86_64-2.whl")
    torch_wheel(tw, None)
    r = run(gpuenv, "check", "--json", "--no-vendor", "--wheel", tw, "--wheel", kx, "--target",
            "gpu=A100,driver=580.65.06")
    try:
        c = json.loads(r.stdout)
    except ValueError:
        c = {}
    rows = {x["subject"]: x["verdict"] for x in c.get("coverage", [])}
    # pip installs both with one interpreter: the py3 wheel lands beside the cp312 one (where
    # torch's RUNPATH $ORIGIN/../../nvidia/*/lib looks), not in a python3/site-packages
    lib = "library /usr/local/lib/python3.12/site-packages/nvidia/kx/lib/libk90.so.12"
    check(rows.get(lib) == "no-kernel-image",
          "two --wheel: the py3 wheel's library, in the cp312 wheel's site-packages, judged "
          "on the A100: %s %s" % (rows, r.stderr[-300:]))
    check(any(k.startswith("torch 2.4.0+cu124") for k in rows),
          "two --wheel: the first wheel's torch judged too: %s" % rows)


def zip_with(path, entries):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in entries:
            z.writestr(info, data)


def test_hostile(gpuenv, tmp):
    # names out of the tree and a link entry: skipped and said; nothing written anywhere
    link = zipfile.ZipInfo("pkg/link")
    link.external_attr = (0o120777 << 16)
    whl = os.path.join(tmp, "tricks-1.0-py3-none-any.whl")
    zip_with(whl, [("../../../escape", b"x"), ("/abs/file", b"abs"),
                   ("pkg/../../../../etc/shadow", b"x"), (link, b"/etc/shadow"),
                   ("pkg/__init__.py", b""), ("pkg/.wh..wh..opq", b"")])
    r, d = report(gpuenv, whl)
    check(d is not None, "tricks wheel: report runs (%d): %s" % (r.returncode, r.stderr[-300:]))
    st = index_state(d)
    err = (st or {}).get("error", "")
    check(st and st["state"] == "error" and "unsafe" in err and "symbolic-link" in err,
          "'..' names and the link entry recorded: %s" % st)
    check(not os.path.exists(os.path.join(tmp, "..", "escape")), "nothing extracted")
    # a bomb: 512 MiB of zeros in one entry (about 500 KiB deflated)
    bomb = os.path.join(tmp, "bomb-1.0-py3-none-any.whl")
    info = zipfile.ZipInfo("bomb/zeros.so")
    info.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(bomb, "w") as z:
        with z.open(info, "w", force_zip64=True) as f:
            chunk = bytes(1 << 20)
            for _ in range(512):
                f.write(chunk)
    r, d = report(gpuenv, bomb)
    st = index_state(d)
    check(st and st["state"] == "error" and "bomb" in st.get("error", ""),
          "zip bomb stopped by its declared size: %s" % st)
    # more entries than the cap
    many = os.path.join(tmp, "many-1.0-py3-none-any.whl")
    with zipfile.ZipFile(many, "w", zipfile.ZIP_STORED) as z:
        for i in range(200001):
            z.writestr("m/%d" % i, b"")
    r, d = report(gpuenv, many, timeout=300)
    st = index_state(d)
    check(st and st["state"] == "error" and "more than 200000 entries" in st.get("error", ""),
          "entry cap: %s" % st)
    # not a zip at all
    text = os.path.join(tmp, "text-1.0-py3-none-any.whl")
    with open(text, "w") as f:
        f.write("not a zip\n")
    r, d = report(gpuenv, text)
    st = index_state(d)
    check(st and st["state"] == "error", "a text file as a wheel: recorded: %s %s" %
          (st, r.stderr[-200:]))
    # usage: no --wheel over --sysroot; a missing wheel
    r = run(gpuenv, "report", "--wheel", whl, "--sysroot", tmp)
    check(r.returncode == 64 and "--wheel" in r.stderr, "--wheel with --sysroot: %d %s" %
          (r.returncode, r.stderr))
    r = run(gpuenv, "report", "--wheel", os.path.join(tmp, "absent.whl"))
    check(r.returncode == 66 and "absent.whl" in r.stderr, "a missing wheel: %d %s" %
          (r.returncode, r.stderr))


def main():
    gpuenv = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_framework(gpuenv, tmp)
        test_hostile(gpuenv, tmp)
        test_repeated(gpuenv, tmp)
    return summary(SKIPS)


if __name__ == "__main__":
    sys.exit(main())
