# SPDX-License-Identifier: GPL-2.0-or-later
"""A fifth round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (rw48e), from the areas with the most users besides NVIDIA on Linux: AMD ROCm
(RDNA4 and Strix Halo under ROCm 7.x), Intel, WSL2, Slurm and Kubernetes, each only as far as
its thread shows the machine. The scores before any change are in docs/HACKING.md ("Reports
an outside evaluator would pick", fifth round)."""
import os
import shutil

from realworld.amd import BASE, NODES, ROCM_ENV, gpu_dir, rx6800xt_mi100, set_gpu
from realworld.common import fresh, ini, read, real_world, section, w

TOPIC = "outside5"
FIXTURES = ("rw-r9700-egpu-8060s-hsa-override-12.0.1-rocm-5696",
            "amd-r9700-egpu-8060s-no-override", "rw-rx5700xt-gfx1010-torch-rocm62-pytorch-132570")

URL_5696 = "https://github.com/ROCm/legacy-rocm-build/issues/5696"
SRC_5696 = (
    f"Rebuilt from {URL_5696} (title: 'ROCm 7.1.0 incorrectly reports 8060S as GFX1201 when "
    "system uses RDNA4 eGPU'; pasted: Vulkan 'GPU id = 0 (AMD Radeon AI PRO R9700 (RADV "
    "GFX1201))', 'GPU id = 1 (Radeon 8060S Graphics (RADV GFX1151))', `/usr/bin/rocm-clinfo "
    "|grep -P 'Board|gfx'` naming both boards 'gfx1201'; the reporter, after updating to "
    "7.1.1: 'my .bashrc had export HSA_OVERRIDE_GFX_VERSION=12.0.1 This was forcing the "
    "override ... Removing that and we are back to' rocminfo's 'gfx1201' then 'gfx1151'); "
    "the KFD topology is that order: node 2 the R9700 (gfx_target_version 120001), node 3 the "
    "8060S (110501, the LLVM AMDGPU processor table's gfx1151); not in the report and "
    "placeholders: the PCI ids 1002:7551 (R9700) and 1002:1586 (8060S, Strix Halo), their "
    "buses (the base's 0000:05:00.0 for the eGPU, whose Thunderbolt/USB4 path is not shown, "
    "and a copy of the base's root port at 0000:00:03.1 / 0000:08:00.0 for the APU's GPU), the "
    "OS and kernel (the report's Mesa is a Fedora package, its release cut off: the tree keeps "
    "the base's Ubuntu install and kernel, which no rule of this report reads), ROCm's files "
    "(Fedora installs ROCm under /usr, none of whose files the report shows: left out), the "
    "user's ~/.bashrc (an export line as the reporter quotes it, in a stock header); everything "
    "else is the rx7600-rocm-torch-override fixture's (see its sources), without its venv, as "
    "amd.py's rx6800xt_mi100() makes the two-GPU tree")
BASHRC_5696 = ("# ~/.bashrc: executed by bash(1) for non-login shells.\n"
               "case $- in\n    *i*) ;;\n      *) return;;\nesac\n"
               "export HSA_OVERRIDE_GFX_VERSION=12.0.1\n")


def r9700_8060s(name, bashrc):
    """amd.py's two-GPU tree made the report's: an R9700 (gfx1201) on node 2, the Strix Halo's
    Radeon 8060S (gfx1151) on node 3; no ROCm tree (the report does not show one)."""
    dst, root, devices = rx6800xt_mi100(name)
    shutil.rmtree(f"{root}/opt")
    os.remove(f"{root}/etc/alternatives/rocm")
    os.rmdir(f"{root}/etc/alternatives")
    w(gpu_dir(root), "device", "0x7551\n")
    w(root, "sys/devices/pci0000:00/0000:00:03.1/0000:08:00.0/device", "0x1586\n")
    w(root, "sys/devices/pci0000:00/0000:00:03.1/0000:08:00.0/class", "0x030000\n")
    ids = read(root, "usr/share/misc/pci.ids")
    for old, new in (("\t738c  Arcturus GL-XL [Instinct MI100]\n",
                      "\t1586  Strix Halo [Radeon Graphics / Radeon 8050S / 8060S Graphics]\n"),
                     ("\t73bf  Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]\n",
                      "\t7551  Navi 48 [Radeon AI PRO R9700]\n")):
        assert old in ids, old
        ids = ids.replace(old, new)
    w(root, "usr/share/misc/pci.ids", ids)
    for node, old, new in (("2", 100300, 120001), ("3", 90008, 110501)):
        props = read(root, f"{NODES}/{node}/properties")
        assert f"gfx_target_version {old}\n" in props
        w(root, f"{NODES}/{node}/properties",
          props.replace(f"gfx_target_version {old}\n", f"gfx_target_version {new}\n"))
    w(root, "home/user/.bashrc", bashrc)
    return dst, root, devices


def override_both_gpus():
    dst, root, devices = r9700_8060s(FIXTURES[0], BASHRC_5696)
    env = dict(ROCM_ENV, HSA_OVERRIDE_GFX_VERSION="12.0.1")
    env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    del env["ROCM_PATH"]
    ini(dst, TOPIC,
        "A Radeon AI PRO R9700 (RDNA4, gfx1201) as an eGPU beside the Strix Halo's Radeon "
        "8060S (gfx1151) with HSA_OVERRIDE_GFX_VERSION=12.0.1 exported in ~/.bashrc: the "
        "override is every GPU's, so ROCm, HIP and OpenCL take the 8060S for a gfx1201 too "
        "and would load RDNA4 code on it; removing the line fixed it",
        SRC_5696, env,
        real_world(URL_5696,
                   "Board name: AMD Radeon AI PRO R9700 / Name: gfx1201 / Board name: Radeon "
                   "8060S Graphics / Name: gfx1201",
                   "HSA_OVERRIDE_GFX_VERSION=12.0.1, exported in ~/.bashrc for the R9700, "
                   "makes ROCm take the gfx1151 8060S for a gfx1201 as well; removing it fixed "
                   "it", "runtime.hsa-override-wrong-target", "runtime", "yes"),
        devices)


def no_override():
    dst, root, devices = r9700_8060s(FIXTURES[1], BASHRC_5696.replace(
        "export HSA_OVERRIDE_GFX_VERSION=12.0.1\n", ""))
    env = dict(ROCM_ENV)
    env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    del env["ROCM_PATH"]
    ini(dst, TOPIC,
        "The machine of rw-r9700-egpu-8060s-hsa-override-12.0.1-rocm-5696 after the thread's "
        "fix, the override gone from ~/.bashrc and the environment: each GPU is its own target "
        "(gfx1201, gfx1151)",
        SRC_5696 + "; the export line removed as the reporter did", env, "", devices)


URL_132570 = "https://github.com/pytorch/pytorch/issues/132570"


def rx5700xt_torch_rocm62():
    """pytorch/pytorch#132570: a Radeon RX 5700 XT (gfx1010) under the PyTorch ROCm 6.2 wheel:
    'HIP error: invalid device function'; a contributor's roc-obj-ls check, confirmed by two
    reporters, found no gfx1010 code in libtorch_hip.so (gfx1030, gfx1100, gfx900, gfx906,
    gfx908, gfx90a, gfx942 only)."""
    dst, root = fresh(FIXTURES[2], BASE)
    set_gpu(root, "731f", "030000", "Navi 10 [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]",
            100100)
    env = {"PATH": "/home/user/venv-rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"
                   ":/sbin:/bin", "VIRTUAL_ENV": "/home/user/venv-rocm", "HOME": "/home/user"}
    ini(dst, TOPIC,
        "A Radeon RX 5700 XT (Navi 10, gfx1010; KFD gfx_target_version 100100) with torch "
        "2.5.1+rocm6.2 from the PyTorch ROCm 6.2 wheels in a venv, whose HIP code covers "
        "gfx900 gfx906 gfx908 gfx90a gfx1030 gfx1100 but not gfx1010, no override set: every "
        "kernel launch fails with 'HIP error: invalid device function'",
        f"Rebuilt from {URL_132570} (title 'Support for ROCm 6.2'; pasted by Giger22 on a "
        "'Radeon 5700XT': 'RuntimeError: HIP error: invalid device function', 'HIP kernel "
        "errors might be asynchronously reported at some other API call'; GZGavinZhao: 'the "
        "PyTorch wheels are not built against `gfx1010`. To verify this ... run `roc-obj-ls "
        "<path-to-libtorch_hip.so> | grep gfx1010`'; 49RpK5dY: 'Your suspicion is correct. The "
        "output is empty.'; Giger22: 'I get results for gfx1030, gfx1100, gfx900, gfx906, "
        "gfx908, gfx90a, gfx942 but not for gfx1010'); not in the report and placeholders: the "
        "torch build (torch 2.5.1+rocm6.2 of the rx7600-rocm-torch-override venv, the first "
        "release of the rocm6.2 wheels; its code objects are the reporters' list without "
        "gfx942, which the clang-15 that makes the fixture's code objects cannot target), the "
        "PCI id 1002:731f (pci.ids' Navi 10 line), the KFD gfx_target_version 100100 (gfx1010, "
        "the LLVM AMDGPU processor table), the OS and kernel (the base's: the thread names "
        "neither), no ROCm install beside the wheel's own libraries; everything else is the "
        "rx7600-rocm-torch-override fixture's (see its sources)",
        env,
        real_world(URL_132570,
                   "RuntimeError: HIP error: invalid device function",
                   "the PyTorch ROCm 6.2 wheels carry no gfx1010 code (roc-obj-ls lists gfx1030, "
                   "gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx942), so no kernel runs on the "
                   "RX 5700 XT", "framework.rocm-gfx-unsupported", "framework", "yes"),
        section(BASE, "devices"), section(BASE, "elf"))


def write():
    override_both_gpus()
    no_override()
    rx5700xt_torch_rocm62()
