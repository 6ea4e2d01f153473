#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A root holding a torch 2.11.0+cu130 venv whose GPU libraries are the real CUDA 13.0 ones
(about 2.2 GB): the capture size test (test-capture-bundle.py) and bench/bench-capture.sh.
The machine around it is the torch-cu130-gtx1080 fixture's (a GTX 1080 on R580); its venv
gets torch's version and the nvidia-* cu13 wheels its Requires-Dist names, as pip lays them
out (site-packages/nvidia/cu13/lib, each wheel's RECORD listing its libraries), and the
libraries are hard links to LIB64's (no copy), torch/lib/libtorch_cuda.so one to
libcusolverMg.so.12 (a library with a fat binary that no wheel below holds).
Usage: mk-torch-venv.py DEST [LIB64]; exit 77 with "SKIP …" when LIB64 lacks a library or
DEST cannot hard-link to it (another file system)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("GPUENV_SOURCE_ROOT", os.path.join(HERE, "..", ".."))
FIXTURE = os.path.join(SRC, "tests", "fixtures", "torch-cu130-gtx1080")
SITE = "/home/user/venv/lib/python3.12/site-packages"
# torch 2.11's cu130 Requires-Dist (the wheels with GPU code the framework probe scans),
# each with the libraries its RECORD lists under nvidia/cu13/lib
WHEELS = {
    "nvidia-cublas": ["libcublas.so.13", "libcublasLt.so.13"],
    "nvidia-cudnn-cu13": ["libcudnn.so.9", "libcudnn_adv.so.9", "libcudnn_cnn.so.9",
                          "libcudnn_engines_precompiled.so.9",
                          "libcudnn_engines_runtime_compiled.so.9", "libcudnn_graph.so.9",
                          "libcudnn_heuristic.so.9", "libcudnn_ops.so.9"],
    "nvidia-cufft": ["libcufft.so.12"],
    "nvidia-curand": ["libcurand.so.10"],
    "nvidia-cusolver": ["libcusolver.so.12"],
    "nvidia-cusparse": ["libcusparse.so.12"],
    "nvidia-nccl-cu13": ["libnccl.so.2"],
}
TORCH_LIB = "libcusolverMg.so.12"


def skip(why):
    print(f"SKIP torch venv from real CUDA libraries: {why}")
    sys.exit(77)


def main():
    dest = sys.argv[1]
    lib64 = sys.argv[2] if len(sys.argv) > 2 else "/usr/local/cuda/lib64"
    libs = [l for ls in WHEELS.values() for l in ls] + [TORCH_LIB]
    missing = [l for l in libs if not os.path.isfile(os.path.join(lib64, l))]
    if missing:
        skip(f"{lib64} lacks {', '.join(missing[:3])} (a CUDA 13.0 toolkit with cuDNN 9)")
    r = subprocess.run([sys.executable, os.path.join(HERE, "fixture_root.py"), FIXTURE, dest],
                       capture_output=True, text=True)
    if r.returncode not in (0, 77):
        sys.exit(f"fixture_root.py: {r.stderr}")
    site = dest + SITE
    tl = site + "/torch/lib/libtorch_cuda.so"
    os.makedirs(os.path.dirname(tl), exist_ok=True)
    if os.path.lexists(tl):
        os.unlink(tl)
    try:
        os.link(os.path.join(lib64, TORCH_LIB), tl)
    except OSError as e:
        skip(f"cannot hard-link {lib64} into {dest}: {e.strerror}")
    for name in ("torch/version.py",):
        p = os.path.join(site, name)
        with open(p) as f:
            text = f.read().replace("2.9.0+cu130", "2.11.0+cu130")
        with open(p, "w") as f:
            f.write(text)
    old = os.path.join(site, "torch-2.9.0+cu130.dist-info")
    di = os.path.join(site, "torch-2.11.0+cu130.dist-info")
    os.rename(old, di)
    with open(di + "/METADATA") as f:
        meta = f.read().replace("2.9.0+cu130", "2.11.0+cu130")
    meta += "".join(f'Requires-Dist: {w}; platform_system == "Linux"\n' for w in WHEELS)
    with open(di + "/METADATA", "w") as f:
        f.write(meta)
    os.makedirs(site + "/nvidia/cu13/lib", exist_ok=True)
    for wheel, wlibs in WHEELS.items():
        wd = f"{site}/{wheel.replace('-', '_')}-13.0.dist-info"
        os.makedirs(wd)
        with open(wd + "/METADATA", "w") as f:
            f.write(f"Metadata-Version: 2.1\nName: {wheel}\nVersion: 13.0\n")
        with open(wd + "/INSTALLER", "w") as f:
            f.write("pip\n")
        with open(wd + "/RECORD", "w") as f:
            f.write("".join(f"nvidia/cu13/lib/{l},,\n" for l in wlibs))
        for l in wlibs:
            os.link(os.path.join(lib64, l), f"{site}/nvidia/cu13/lib/{l}")


if __name__ == "__main__":
    main()
