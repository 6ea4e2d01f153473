#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""--wheel with a library past LAYERS_SPILL_MIN (src/core/layers-internal.h): its GPU code is
scanned as the member is inflated (root_stream(), the fatbin stream scanner: CUDA containers
and uncompressed clang offload bundles, fatbin-stream-bundle.c), and the loader
emulation's dynamic-section read (`loads`, `needed_missing`) keeps only the ranges the ELF
parser reads, pass by pass over the inflated stream (formats/elf-dynamic-stream.c), with no
copy anywhere: so a real nvcc-built library padded with 24 MiB of incompressible bytes is
read whole, the same as a small one, even with TMPDIR a directory that does not exist
(bench/bench-wheel-memory.sh measures memory and TMPDIR). A small member reads in memory
whatever TMPDIR is. The same for a ROCm wheel's libtorch_hip.so: clang-built HIP code
objects in a .hip_fatbin (fixture_root.py's `hip` builder), padded past the spill size, with
plain bundles and with CCOB ones.
Usage: test-wheel-spill.py GPUENV"""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib

GPUENV = sys.argv[1]
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
failed = []


def check(what, cond, detail=""):
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    if not cond:
        failed.append(what)


def torch(path, tmpdir):
    env = dict(os.environ, TMPDIR=tmpdir)
    p = subprocess.run([GPUENV, "report", "--json", "--stable", "--no-vendor", "--wheel", path],
                       capture_output=True, text=True, env=env, timeout=300)
    doc = json.loads(p.stdout)
    return doc["framework"]["python_envs"][0]["packages"]["torch"]


def targets(path, tmpdir):
    return torch(path, tmpdir)["arch_targets"]


def pad(lib, out, tmp):
    """lib with 24 MiB of incompressible bytes added (a section nothing loads): past
    LAYERS_SPILL_MIN once deflated."""
    padding = os.path.join(tmp, "pad.bin")
    if not os.path.exists(padding):
        with open(padding, "wb") as f:
            block = os.urandom(1 << 20)
            for _ in range(24):
                f.write(block)
    subprocess.run(["objcopy", "--add-section", ".pad=" + padding, "--set-section-flags",
                    ".pad=noload,readonly", lib, out], check=True)


def torch_wheel(tmp, name, library, member, version, cuda, hip):
    """A torch 2.4.0 wheel whose torch/lib/MEMBER is library; version.py as torch writes it."""
    w = os.path.join(tmp, f"torch-2.4.0-cp312-cp312-linux_x86_64-{name}.whl")
    with zipfile.ZipFile(w, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("torch/__init__.py", "")
        z.writestr("torch/version.py", f"__version__ = {version!r}\ncuda = {cuda!r}\n"
                   f"hip = {hip!r}\n")
        z.write(library, "torch/lib/" + member)
        z.writestr("torch-2.4.0.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\n")
        z.writestr("torch-2.4.0.dist-info/WHEEL", "Wheel-Version: 1.0\n")
    return w


def ccob(bundle):
    """bundle as `clang-offload-bundler --compress` writes it (CCOB version 3, zlib: LLVM
    clang/include/clang/Driver/OffloadBundler.h, CompressedOffloadBundle; clang 15 has no
    --compress): "CCOB", u16 version, u16 method, u64 file size, u64 uncompressed size, u64
    hash (a truncated MD5 of the bundle here; gpuenv does not read it), the zlib stream."""
    z = zlib.compress(bundle, 9)
    digest = int.from_bytes(hashlib.md5(bundle).digest()[:8], "little")
    return b"CCOB" + struct.pack("<HHQQQ", 3, 0, 32 + len(z), len(bundle), digest) + z


def build_hip(fixture_root, out, compress):
    """fixture_root.py's HIP library (gfx90a:sramecc+:xnack-, gfx1100); compress: each
    bundle made CCOB (ccob()) between clang-offload-bundler and the host compile that embeds
    it in .hip_fatbin."""
    run = fixture_root.run

    def run_compressing(cmd, **kw):
        run(cmd, **kw)
        if compress and cmd[0] == fixture_root.bundler():
            out_fb = next(a for a in cmd if a.startswith("--outputs=")).split("=", 1)[1]
            with open(out_fb, "rb") as f:
                data = f.read()
            with open(out_fb, "wb") as f:
                f.write(ccob(data))
    fixture_root.run = run_compressing
    try:
        fixture_root.build_hip(out, {"soname": "libtorch_hip.so",
                                     "gfx": "gfx90a:sramecc+:xnack-,gfx1100"})
    finally:
        fixture_root.run = run


def amd(tmp, compress):
    """A ROCm wheel whose libtorch_hip.so is past the spill size: its offload bundles (plain,
    or CCOB as PyTorch's ROCm builds ship them since pytorch/pytorch#143986) are read from the
    stream (no TMPDIR needed), the same targets as the small library's."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fixture_root
    try:
        fixture_root.tool_version("hip")
    except fixture_root.Missing as e:
        print(f"SKIP wheel spill, AMD: {e}")
        return
    what = "AMD, CCOB" if compress else "AMD"
    d = os.path.join(tmp, "amd-ccob" if compress else "amd")
    os.mkdir(d)
    lib = os.path.join(d, "libtorch_hip.so")
    build_hip(fixture_root, lib, compress)
    with open(lib, "rb") as f:
        check(f"{what}: the library holds {'CCOB' if compress else 'plain'} bundles",
              (b"CCOB\x03\x00" in f.read()) == compress)
    big = os.path.join(d, "libtorch_hip-big.so")
    pad(lib, big, d)
    wheels = {n: torch_wheel(d, n, so, "libtorch_hip.so", "2.4.0+rocm6.2", None,
                             "6.2.41133-dd7f95766")
              for n, so in (("small", lib), ("big", big))}
    gone = os.path.join(d, "no-such-dir")
    small = targets(wheels["small"], gone)
    names = [x["target"]["value"] for x in small] if isinstance(small, list) else []
    check(f"{what}: the small library's offload bundles are read",
          "gfx90a:sramecc+:xnack-" in names and "gfx1100" in names, str(small)[:300])
    t = targets(wheels["big"], gone)
    check(f"{what}, no TMPDIR: a libtorch_hip.so past the spill size gives the same targets "
          "(its offload bundles streamed, never copied)", t == small,
          f"{str(t)[:300]} vs {str(small)[:300]}")
    t = targets(wheels["big"], d)
    check(f"{what}, with TMPDIR: the same targets", t == small, str(t)[:300])
    check(f"{what}: nothing left in TMPDIR", sorted(os.listdir(d)) == sorted(
        ["libtorch_hip.so", "libtorch_hip-big.so", "pad.bin"] +
        [os.path.basename(w) for w in wheels.values()]), str(os.listdir(d)))


def main():
    if not os.access(NVCC, os.X_OK) or not shutil.which("objcopy"):
        print(f"SKIP wheel spill: {NVCC} or objcopy missing (CUDA toolkit, binutils)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "k.cu")
        with open(cu, "w") as f:
            f.write("__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n"
                    "extern \"C\" void launch(float *x) { scale<<<1, 32>>>(x); }\n")
        lib = os.path.join(tmp, "libk.so")
        subprocess.run([NVCC, "-shared", "-Xcompiler", "-fPIC", "-gencode",
                        "arch=compute_90,code=sm_90", "-o", lib, cu], check=True)
        big = os.path.join(tmp, "libbig.so")
        pad(lib, big, tmp)
        wheels = {name: torch_wheel(tmp, name, library, "libtorch_cuda.so", "2.4.0+cu124",
                                    "12.4", None)
                  for name, library in (("small", lib), ("big", big))}
        t = torch(wheels["big"], tmp)
        check("a member past the spill size: its GPU code found, its dynamic section read",
              isinstance(t["arch_targets"], list) and
              [x["target"]["value"] for x in t["arch_targets"]] == ["sm_90"] and
              isinstance(t.get("loads"), dict) and "state" not in t["loads"] and
              t.get("needed_missing") == [], str(t)[:300])
        gone = os.path.join(tmp, "no-such-dir")
        t = torch(wheels["big"], gone)
        check("no TMPDIR: the large member's GPU code is still found (streamed, never copied)",
              isinstance(t["arch_targets"], list) and
              [x["target"]["value"] for x in t["arch_targets"]] == ["sm_90"], str(t)[:300])
        check("no TMPDIR: the large member's dynamic section is still read (streamed, "
              "never spilled)",
              isinstance(t.get("loads"), dict) and "state" not in t["loads"] and
              t.get("needed_missing") == [], str(t.get("loads"))[:300])
        small = torch(wheels["small"], gone)
        check("the streamed read says what the whole-file read of the same library says",
              t.get("loads") == small.get("loads") and
              t.get("needed_missing") == small.get("needed_missing"),
              f"{str(t.get('loads'))[:200]} vs {str(small.get('loads'))[:200]}")
        t = targets(wheels["small"], gone)
        check("a small member never spills: read in memory whatever TMPDIR is",
              isinstance(t, list) and [x["target"]["value"] for x in t] == ["sm_90"], str(t)[:300])
        check("nothing left in TMPDIR", sorted(os.listdir(tmp)) ==
              sorted(["k.cu", "libk.so", "pad.bin", "libbig.so"] + [os.path.basename(w) for w in wheels.values()]),
              str(os.listdir(tmp)))
        amd(tmp, False)
        amd(tmp, True)
    print(f"{len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
