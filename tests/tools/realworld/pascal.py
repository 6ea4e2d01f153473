# SPDX-License-Identifier: GPL-2.0-or-later
"""A Pascal GPU under a torch wheel whose lowest target is newer than the GPU
(framework.gpu-too-old-for-build): the CUDA 12.8 builds of torch 2.8 start at sm_70 and the
GPU is compute capability 6.1. Written by tests/tools/mk-real-world-fixtures.py pascal."""
from realworld.common import SRC_BASE, base_root, ini, mk2, real_world, section, torch_dist, venv, w

TOPIC = "pascal"
FIXTURES = ("rw-gtx1080ti-comfyui-torch28-cu128",)
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
        "container's /proc/1/cgroup (cgroup v2), the host's kernel and module tree and "
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


def write():
    gtx1080ti_comfyui_torch28_cu128()
