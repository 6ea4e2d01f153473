# SPDX-License-Identifier: GPL-2.0-or-later
"""Where the Python environment is: real-world fixtures whose answer depends on which
environment (a conda prefix, an app's venv, a pipx/uv/poetry env) holds the framework."""
import os

from realworld.common import fresh, ini, read, real_world, section, w

TOPIC = "envs"
FIXTURES = ("rw-rx6700s-gfx1032-rocm-pytorch",)


def rx6700s_gfx1032():
    # ROCm/legacy-rocm-build#1756: RX 6700S (Navi 23, gfx1032) in the rocm/pytorch image; torch
    # in /opt/conda has no gfx1032 code, and the thread's workaround is
    # HSA_OVERRIDE_GFX_VERSION=10.3.0 (gfx1030's code, not supported by AMD).
    base = "rx7600-rocm-torch-override"
    dst, root = fresh("rw-rx6700s-gfx1032-rocm-pytorch", base)
    devs = f"{root}/sys/bus/pci/devices"
    gpu = os.path.normpath(os.path.join(devs, os.readlink(f"{devs}/0000:05:00.0")))
    w(gpu, "device", "0x73ef\n")
    props = read(root, "sys/devices/virtual/kfd/kfd/topology/nodes/2/properties")
    w(root, "sys/devices/virtual/kfd/kfd/topology/nodes/2/properties",
      props.replace("gfx_target_version 110002", "gfx_target_version 100302"))
    w(root, "usr/share/misc/pci.ids", read(root, "usr/share/misc/pci.ids").replace(
        "\t7480  Navi 33 [Radeon RX 7600/7600 XT/7600M XT/7600S/7700S / PRO W7600]\n",
        "\t73ef  Navi 23 [Radeon RX 6650 XT / 6700S / 6800S]\n"))
    # the image's Anaconda Python: torch lives in /opt/conda, not in a venv
    old, new = "home/user/venv-rocm/lib/python3.10", "opt/conda/lib/python3.10"
    os.makedirs(f"{root}/opt/conda/lib", exist_ok=True)
    os.rename(f"{root}/{old}", f"{root}/{new}")
    for d in ("home/user/venv-rocm/bin", "home/user/venv-rocm/lib"):
        for f in os.listdir(f"{root}/{d}"):
            os.unlink(f"{root}/{d}/{f}")
        os.rmdir(f"{root}/{d}")
    os.unlink(f"{root}/home/user/venv-rocm/pyvenv.cfg")
    os.rmdir(f"{root}/home/user/venv-rocm")
    w(root, "opt/conda/conda-meta/history", "==> 2022-06-01 00:00:00 <==\n")
    os.makedirs(f"{root}/opt/conda/bin")
    os.symlink("/usr/bin/python3.10", f"{root}/opt/conda/bin/python3")
    elf = section(base, "elf").replace(f"/{old}", f"/{new}")
    pasted = ('>>> torch.cuda.is_available() "hipErrorNoBinaryForGpu: Unable to find code object '
              'for all current devices!" Aborted (core dumped)')
    ini(dst, TOPIC,
        "A Radeon RX 6700S laptop GPU (Navi 23, gfx1032) running torch "
        "from the rocm/pytorch image's Anaconda Python in /opt/conda: the build carries code for "
        "gfx900 gfx906 gfx908 gfx90a gfx1030 gfx1100 and none for gfx1032, so "
        "torch.cuda.is_available() aborts with hipErrorNoBinaryForGpu; with "
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 (not supported by AMD) ROCm loads the gfx1030 code and "
        "the mnist example trains",
        "Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/1756 (pasted: "
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
        "else is the rx7600-rocm-torch-override fixture's (see its sources)",
        {"PATH": "/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/root", "PWD": "/var/lib/jenkins"},
        real_world("https://github.com/ROCm/legacy-rocm-build/issues/1756", pasted,
                   "the torch build has no code object for the RX 6700S's gfx1032 (not "
                   "officially supported); the thread's workaround HSA_OVERRIDE_GFX_VERSION=10.3.0 "
                   "makes ROCm load the gfx1030 code, unsupported by AMD",
                   "framework.rocm-gfx-unsupported", "framework", "yes"),
        section(base, "devices"), elf)


def write():
    rx6700s_gfx1032()
