# SPDX-License-Identifier: GPL-2.0-or-later
"""Pascal GPUs (compute capability 6.1) under torch builds without code for them: a wheel
whose lowest target is newer than the GPU (the CUDA 12.8 builds of torch 2.8 start at sm_70:
framework.gpu-too-old-for-build), and a nightly whose targets skip 6.x while one below it
(sm_50) remains: SASS runs only within its major version, so the GPU is between targets, not
older than all of them (framework.no-kernel-image). Written by
tests/tools/mk-real-world-fixtures.py pascal."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, mk2, move_kernel,
                              real_world, section, torch_dist, venv, w)

TOPIC = "pascal"
FIXTURES = ("rw-gtx1080ti-comfyui-torch28-cu128", "rw-gtx1070ti-torch19dev-cu111-no-sm61")
BASE = "rtx4090-open-module"
DRIVER = "570.172.08"
URL = "https://github.com/mmartial/ComfyUI-Nvidia-Docker/issues/61"
# torch.cuda.get_arch_list() of the 2.8 cu128 wheel, as a second report of the same warning
# pastes it in full (Kaouthia/ComfyUI-Docker#11) and src/facts/data/pytorch_wheels.tsv lists it
CU128_LIST = "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"


def gtx1080ti_comfyui_torch28_cu128():
    name = "rw-gtx1080ti-comfyui-torch28-cu128"
    # 10de:1b06 GP102 [GeForce GTX 1080 Ti], its HDMI audio function 10de:10ef (pci.ids)
    dst, root = base_root(name, 0x1b06, 0x120f, "NVIDIA GeForce GTX 1080 Ti", DRIVER,
                          audio=0x10ef)
    # the report runs ComfyUI in mmartial/ComfyUI-Nvidia-Docker's container: the venv lives
    # in the /comfy/mnt bind mount, and Docker marks the container with /.dockerenv
    w(root, ".dockerenv", "")
    w(root, "proc/1/cgroup", "0::/\n")
    site = venv(root, "/comfy/mnt/venv", "3.12.3")
    torch_dist(root, site, "2.8.0+cu128", "'12.8'",
               requires=["nvidia-cuda-runtime-cu12==12.8.90; platform_system == \"Linux\" "
                         "and platform_machine == \"x86_64\""])
    # nvcc 13.0 builds nothing below sm_75: the stand-in carries the list from sm_75 on
    # (neither list has code for 6.1, the verdict is the same)
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so",
                      ["75", "80", "86", "90", "100", "120"], [])
    pasted = ("Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1. Minimum "
              "and Maximum cuda capability supported by this version of PyTorch is (7.0) - "
              "(12.0) / Please install PyTorch with a following CUDA configurations: 12.6 / "
              "NVIDIA GeForce GTX 1080 Ti with CUDA capability sm_61 is not compatible with the "
              "current PyTorch installation. / CUDA error: no kernel image is available for "
              "execution on the device")
    ini(dst, TOPIC,
        "ComfyUI in mmartial/ComfyUI-Nvidia-Docker's container on an unRaid server with a "
        "GeForce GTX 1080 Ti (Pascal, compute capability 6.1): the venv under /comfy/mnt holds "
        "torch 2.8.0+cu128, whose CUDA 12.8 build targets sm_70 to sm_120 and has no code for "
        "6.1, so the first image generation fails with 'no kernel image is available for "
        "execution on the device'; torch itself asks for its CUDA 12.6 build, the last with "
        "Pascal",
        "Rebuilt from " + URL + " (pasted: the venv's path "
        "'/comfy/mnt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py', torch's "
        "warnings 'Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.', "
        "'Minimum and Maximum cuda capability supported by this version of PyTorch is (7.0) - "
        "(12.0)', 'Please install PyTorch with a following CUDA configurations: 12.6', "
        "'NVIDIA GeForce GTX 1080 Ti with CUDA capability sm_61 is not compatible with the "
        "current PyTorch installation.', and ComfyUI's 'CUDA error: no kernel image is "
        "available for execution on the device'; 'installed on unRaid on a machine that has a "
        "1080Ti', other containers (ollama) use the GPU); the same warnings with the full "
        f"supported list '{CU128_LIST}' in https://github.com/Kaouthia/ComfyUI-Docker/pull/11, "
        "whose fix is the cu126 index for 10-series GPUs; inferred, not pasted: torch "
        "2.8.0+cu128 (the (7.0) - (12.0) range and the 12.6 hint are torch 2.8's cu128 wheel, "
        "the container picks the cu128 index when it finds CUDA 12.8, "
        "mmartial/ComfyUI-Nvidia-Docker#59; pytorch_wheels.tsv) and Python 3.12.3 (the "
        "path's 3.12, Ubuntu 24.04's); placeholders, not in the report: the driver 570.172.08 "
        "(any R570 and later drives Pascal), the GPU's subsystem id and bus position, the "
        "image's NVIDIA_VISIBLE_DEVICES/NVIDIA_DRIVER_CAPABILITIES and PATH (the nvidia/cuda "
        "base images' values), the container's /proc/1/cgroup (cgroup v2), the host's kernel and module tree and "
        "Ubuntu 24.04's os-release (the image's ubuntu24 base) from the base fixture; "
        "the stand-in libtorch_cuda.so carries sm_75 to sm_120 of that list (nvcc 13.0 builds "
        "nothing below sm_75); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/comfy/mnt/venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:"
                 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "VIRTUAL_ENV": "/comfy/mnt/venv", "NVIDIA_VISIBLE_DEVICES": "all",
         "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"},
        real_world(
            URL, pasted,
            "torch 2.8.0+cu128 is built for compute capability 7.0 to 12.0 and the GTX 1080 "
            "Ti is 6.1: no kernel image for the GPU; torch's CUDA 12.6 build (the last with "
            "Pascal) is the fix torch names and the one the second report installs",
            "framework.gpu-too-old-for-build", "framework", "yes"),
        section(BASE, "devices"))


URL_NIGHTLY = "https://github.com/pytorch/pytorch/issues/53164"
NIGHTLY_LIST = "sm_50 sm_70 sm_80 sm_86"


def gtx1070ti_torch19dev_cu111():
    name = "rw-gtx1070ti-torch19dev-cu111-no-sm61"
    drv = "460.39"
    # 10de:1b82 GP104 [GeForce GTX 1070 Ti], its HDMI audio 10de:10f0 (pci.ids)
    dst, root = base_root(name, 0x1b82, 0x0000, "NVIDIA GeForce GTX 1070 Ti", drv, audio=0x10f0)
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", "5.4.0-66-generic")
    site = venv(root, "/home/user/venv", "3.8.5")
    torch_dist(root, site, "1.9.0.dev20210303+cu111", "'11.1'")
    # the nightly's targets as its warning lists them, SASS only (no compute_XY in the list):
    # CUDA 11.1's container headers (PTX ISA 7.1), written by fatbin_writer.py
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/torch/lib/libtorch_cuda.so",
         "fatbin soname=libtorch_cuda.so sass=50,70,80,86 ptx= ptxisa=7.1"))
    pasted = ("GeForce GTX 1070 Ti with CUDA capability sm_61 is not compatible with the "
              "current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {NIGHTLY_LIST}.")
    ini(dst, TOPIC,
        "A GeForce GTX 1070 Ti (Pascal, compute capability 6.1) under a torch nightly of March "
        "2021 built with CUDA 11.1, whose targets are sm_50, sm_70, sm_80 and sm_86 with no "
        "PTX: sm_50 code does not run on a 6.x GPU and nothing else is below it, so torch "
        "finds no kernel image for the GPU although the GPU is not older than every target",
        "Rebuilt from " + URL_NIGHTLY + " (pasted: torch's warning 'GeForce GTX 1070 Ti with "
        "CUDA capability sm_61 is not compatible with the current PyTorch installation. The "
        f"current PyTorch install supports CUDA capabilities {NIGHTLY_LIST}.' after switching "
        "to the cu111 nightly index (download.pytorch.org/whl/nightly/cu111); the issue asks "
        "why sm_61 was dropped from the nightly build, labelled high priority, module: "
        "binaries); inferred, not pasted: the nightly's version 1.9.0.dev20210303+cu111 (the "
        "issue's day), no PTX (get_arch_list() names no compute_XY); placeholders, not in the "
        "report: the driver 460.39 (an R460 release of the time: CUDA 11.1 needs >= 455.23), "
        "the GPU's bus position and subsystem id, Ubuntu 20.04 with kernel 5.4.0-66-generic, "
        "the venv and Python 3.8.5; libtorch_cuda.so is a stand-in holding one fat binary "
        "container with those targets in CUDA 11.1's header form (tests/tools/fatbin_writer.py: "
        "no real code); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
                 "/bin", "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"},
        real_world(
            URL_NIGHTLY, pasted,
            "the cu111 nightly was built without sm_61 (its list jumps from sm_50 to sm_70, no "
            "PTX), so there is no kernel image for the 6.1 GPU; the maintainers took the "
            "dropped architecture up as a high-priority binaries issue",
            "framework.no-kernel-image", "framework", "yes"),
        section(BASE, "devices"))


def write():
    gtx1080ti_comfyui_torch28_cu128()
    gtx1070ti_torch19dev_cu111()
