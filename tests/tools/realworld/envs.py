#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures where the Python environment's location matters (topic "envs"; run from
the repository root, rerun after changing it, never edit the output):

  rw-rx6700s-gfx1032-rocm-pytorch  https://github.com/ROCm/legacy-rocm-build/issues/1756

Each scenario.ini has a [real-world] section (tests/tools/score-real-world.py). What the report
pasted is kept as pasted; what it did not show is taken from a base fixture and named as such
in `source`.
"""
import os
import shutil

FIX = "tests/fixtures"


def w(root, path, text):
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)


def rx6700s_gfx1032():
    """RX 6700S (Navi 23, gfx1032) in the rocm/pytorch image: torch in /opt/conda has no gfx1032
    code; the thread's workaround is HSA_OVERRIDE_GFX_VERSION=10.3.0 (gfx1030's code)."""
    name = "rw-rx6700s-gfx1032-rocm-pytorch"
    dst = f"{FIX}/{name}"
    base = f"{FIX}/rx7600-rocm-torch-override"
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    root = f"{dst}/root"
    shutil.copytree(f"{base}/root", root, symlinks=True)
    # the GPU: Navi 23 (RX 6700S), KFD gfx_target_version 100302 = gfx1032
    devs = f"{root}/sys/bus/pci/devices"
    gpu = os.path.normpath(os.path.join(devs, os.readlink(f"{devs}/0000:05:00.0")))
    w(gpu, "device", "0x73ef\n")
    nodes = f"{root}/sys/devices/virtual/kfd/kfd/topology/nodes"
    with open(f"{nodes}/2/properties") as f:
        props = f.read().replace("gfx_target_version 110002", "gfx_target_version 100302")
    w(nodes, "2/properties", props)
    with open(f"{root}/usr/share/misc/pci.ids") as f:
        ids = f.read().replace(
            "\t7480  Navi 33 [Radeon RX 7600/7600 XT/7600M XT/7600S/7700S / PRO W7600]\n",
            "\t73ef  Navi 23 [Radeon RX 6650 XT / 6700S / 6800S]\n")
    w(root, "usr/share/misc/pci.ids", ids)
    # the image's Anaconda Python: torch lives in /opt/conda, not in a venv
    site_src = f"{root}/home/user/venv-rocm/lib/python3.10/site-packages"
    shutil.copytree(site_src, f"{root}/opt/conda/lib/python3.10/site-packages", symlinks=True)
    shutil.rmtree(f"{root}/home/user/venv-rocm")
    w(root, "opt/conda/conda-meta/history", "==> 2022-06-01 00:00:00 <==\n")
    os.makedirs(f"{root}/opt/conda/bin", exist_ok=True)
    os.symlink("/usr/bin/python3.10", f"{root}/opt/conda/bin/python3")
    with open(f"{base}/scenario.ini") as f:
        ini = f.read()
    devices = ini[ini.index("[devices]"):ini.index("[elf]")]
    elf = ini[ini.index("[elf]"):].replace(
        "/home/user/venv-rocm/lib/python3.10/site-packages",
        "/opt/conda/lib/python3.10/site-packages")
    pasted = ('>>> torch.cuda.is_available() "hipErrorNoBinaryForGpu: Unable to find code object '
              'for all current devices!" Aborted (core dumped)')
    text = (
        "[scenario]\ndescription = A Radeon RX 6700S laptop GPU (Navi 23, gfx1032) running torch "
        "from the rocm/pytorch image's Anaconda Python in /opt/conda: the build carries code for "
        "gfx900 gfx906 gfx908 gfx90a gfx1030 gfx1100 and none for gfx1032, so "
        "torch.cuda.is_available() aborts with hipErrorNoBinaryForGpu; with "
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 (not supported by AMD) ROCm loads the gfx1030 code and "
        "the mnist example trains\n"
        "source = Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/1756 (pasted: "
        "the Python banner of the rocm/pytorch:latest container '[GCC 7.5.0] :: Anaconda, Inc. "
        "on linux', torch.cuda.is_available() answering 'hipErrorNoBinaryForGpu: Unable to find "
        "code object for all current devices!' then 'Aborted (core dumped)', and True with "
        "HSA_OVERRIDE_GFX_VERSION=10.3.0; 'It is a gfx1032 GPU, not officially supported'); "
        "/opt/conda as the image's Anaconda prefix (conda-meta/ present); not in the report and "
        "placeholders: the torch build (torch 2.5.1+rocm6.2 and its libtorch_hip.so stand-in of "
        "the python-rocm62-torch fixture, whose code objects, like the 2022 image's, include "
        "gfx1030 and not gfx1032; Python 3.10 instead of the banner's 3.7.13), the PCI id "
        "1002:73ef (pci.ids 'Navi 23 [Radeon RX 6650 XT / 6700S / 6800S]'), KFD "
        "gfx_target_version 100302 (gfx1032, LLVM AMDGPU processor table); the container itself "
        "is not rebuilt (the GPU and the conda prefix are what the thread shows); everything "
        "else is the rx7600-rocm-torch-override fixture's (see its sources); the tree is "
        "written by tests/tools/realworld/envs.py\n"
        "args = --no-vendor\n\n[real-world]\n"
        "url = https://github.com/ROCm/legacy-rocm-build/issues/1756\n"
        f"pasted = {pasted}\n"
        "cause = the torch build has no code object for the RX 6700S's gfx1032 (not officially "
        "supported); the thread's workaround HSA_OVERRIDE_GFX_VERSION=10.3.0 makes ROCm load "
        "the gfx1030 code, unsupported by AMD\n"
        "root_cause = framework.rocm-gfx-unsupported\nlayer = framework\nfails = yes\n\n"
        "[env]\nPATH=/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
        "HOME=/root\nPWD=/var/lib/jenkins\n\n" + devices + elf)
    with open(f"{dst}/scenario.ini", "w", encoding="utf-8") as f:
        f.write(text)


def main():
    rx6700s_gfx1032()


if __name__ == "__main__":
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    main()
