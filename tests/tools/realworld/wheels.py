# SPDX-License-Identifier: GPL-2.0-or-later
"""Framework wheels and the machine: an old wheel on a new GPU (no code for its compute
capability: framework.no-kernel-image), a new wheel on an old driver
(framework.cuda-newer-than-driver)."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, mk2, move_kernel,
                              real_world, section, torch_cu121, torch_dist, ubuntu_os_release,
                              venv, w)
from realworld.libs import conda_env

TOPIC = "wheels"
FIXTURES = ("rw-rtx5090-torch27dev-cu124", "rw-torch21-cu121-on-r510",
            "rw-rtx3090-torch112-cu102-ldm", "rw-omost-torch241-cu121-on-r510",
            "rw-rtx5090d-torch260-cu126-conda", "rw-rtx5090-isaaclab-torch251-cu121",
            "rw-rtx5070ti-torch26dev-cu121-venv")
BASE = "rtx4090-open-module"
UBUNTU2204 = ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy", logo=False)
# torch's get_arch_list() of its CUDA 12.1/12.4 builds, as the reports paste it
CU124_LIST = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"


def kern_log(root, host, ts, loaded, flavor="Open Kernel Module for x86_64"):
    w(root, "var/log/kern.log",
      f"{ts} {host} kernel: [    4.978519] NVRM: loading NVIDIA UNIX {flavor}  {loaded}  "
      "Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025\n")


def rtx5090_torch27dev_cu124():
    """pytorch/pytorch#167244: torch 2.7.0.dev20250310+cu124 on an RTX 5090 (sm_120)."""
    name = "rw-rtx5090-torch27dev-cu124"
    dst, root = base_root(name, 0x2b85, 0x0000, "NVIDIA GeForce RTX 5090", "570.124.06",
                              flavor="open")
    rel = "6.8.0-64-generic"
    w(root, "etc/os-release", UBUNTU2204)
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, "ws", "Nov  6 10:02:11", "570.124.06")
    site = venv(root, "/home/user/falcon/.venv", "3.11.9")
    torch_dist(root, site, "2.7.0.dev20250310+cu124", "'12.4'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    sections = [section(BASE, "devices"), (f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 570.124.06, -, none, "
                 "Dual MIT/GPL\n")]
    pasted = ("RuntimeError: CUDA error: no kernel image is available for execution on the device "
              "/ NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
              "current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU124_LIST}.")
    ini(dst, TOPIC,
        "Ubuntu 22.04.5 (kernel 6.8.0-64-generic) with RTX 5090s on driver 570.124.06 and a "
        "venv holding the nightly torch 2.7.0.dev20250310+cu124: the cu124 builds carry SASS "
        f"for {CU124_LIST} and no PTX, nothing for compute capability 12.0, so the first CUDA "
        "tensor fails with 'no kernel image is available for execution on the device'; the cu128 "
        "builds (torch 2.7) have sm_120",
        "Rebuilt from https://github.com/pytorch/pytorch/issues/167244 (pasted: the RuntimeError, "
        "torch's sm_120 warning with the supported list, torch 2.7.0.dev20250310+cu124 from the "
        "nightly cu124 index, 'driver 570.124.06', '2x RTX 5090', 'Ubuntu 22.04.5 LTS (kernel "
        "6.8.0-64-generic)', Python 3.11.9; the cause the thread and pytorch/pytorch#153928's "
        "maintainer give: the CUDA 12.4/12.1 builds have no sm_120, use CUDA 12.8 builds); "
        "placeholders, not in the report: one GPU instead of two (the base fixture's single "
        "slot, re-identified as 10de:2b85 GB202 [GeForce RTX 5090]), the venv's path, the module "
        "flavour and place (the open module, updates/dkms); the stand-in libtorch_cuda.so "
        "carries sm_75 sm_80 sm_86 sm_90 of that list (nvcc 13.0 builds nothing below sm_75; "
        "neither list has anything for 12.0, the verdict is the same); Ubuntu 22.04's "
        "os-release; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/home/user/falcon/.venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/falcon/.venv", "HOME": "/home/user"},
        real_world(
            "https://github.com/pytorch/pytorch/issues/167244", pasted,
            "torch's cu124 build has no sm_120 SASS and no PTX: no kernel image for the RTX 5090; "
            "a cu128 build (torch >= 2.7) fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def rtx3090_host(name, drv, osrel, rel, host, ts):
    """The base tree as an Ubuntu machine with an RTX 3090 (10de:2204) on the proprietary
    module `drv` under kernel `rel`, its load logged at `ts`. Returns (dst, root)."""
    dst, root = base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", drv)
    w(root, "etc/os-release", osrel)
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, host, ts, drv, flavor="x86_64 Kernel Module")
    return dst, root


def chatglm3_torch21_on_r510():
    """zai-org/ChatGLM3#100: torch 2.1 (CUDA 12.1) on a driver reporting CUDA 11.6."""
    name = "rw-torch21-cu121-on-r510"
    rel = "5.15.0-87-generic"
    dst, root = rtx3090_host(name, "510.108.03", UBUNTU2204, rel, "gpu",
                             "Nov  1 09:02:11")
    site = venv(root, "/home/user/ChatGLM3/venv", "3.10.12")
    torch_cu121(root, site, "2.1.0")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 510.108.03, -, none\n"]
    pasted = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11060). "
              "Please update your GPU driver by downloading and installing a new version from the "
              "URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
              "https://pytorch.org to install a PyTorch version that has been compiled with your "
              "version of the CUDA driver.")
    ini(dst, TOPIC,
        "ChatGLM3's requirements (torch>=2.0) installed torch 2.1.0 from PyPI (built with CUDA "
        "12.1) on a machine whose R510 driver supports CUDA 11.6 ('found version 11060'): CUDA "
        "12.x needs driver >= 525.60.13 even through minor-version compatibility; installing a "
        "newer driver fixed it",
        "Rebuilt from https://github.com/zai-org/ChatGLM3/issues/100 (pasted: the RuntimeError "
        "with 'found version 11060'; the thread: check torch's version, update the driver "
        "(cuda-drivers from NVIDIA's repository), closed as solved by the user); placeholders, "
        "not in the report: torch 2.1.0 (PyPI's default wheel for torch>=2.0 on 2023-11-01, "
        "built with CUDA 12.1, with its nvidia-cuda-runtime-cu12 12.1.105 pin), the driver "
        "510.108.03 (an R510 release: CUDA 11.6 = 11060), the GPU (10de:2204 GA102 [GeForce RTX "
        "3090]), Ubuntu 22.04 with kernel 5.15.0-87-generic, the venv; no libtorch_cuda.so (the "
        "GPU code is not what fails); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/home/user/ChatGLM3/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/ChatGLM3/venv", "HOME": "/home/user"},
        real_world(
            "https://github.com/zai-org/ChatGLM3/issues/100", pasted,
            "torch 2.1.0 is built with CUDA 12.1; the R510 driver supports CUDA 11.6 (found "
            "version 11060) and no CUDA 12 minor-version compatibility: upgrade the driver",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        *sections)


def ldm_rtx3090_torch112_cu102():
    """CompVis/latent-diffusion#102: a CUDA 10.2 torch (sm_37 sm_50 sm_60 sm_70) on an RTX
    3090 (sm_86)."""
    name = "rw-rtx3090-torch112-cu102-ldm"
    rel = "5.13.0-52-generic"
    dst, root = rtx3090_host(name, "515.48.07", UBUNTU2004_OS_RELEASE, rel, "ws",
                             "Jul  9 10:02:11")
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/ldm"
    conda_env(root, base, env, "3.8.5")
    site = f"{env}/lib/python3.8/site-packages"
    torch_dist(root, site, "1.12.0", "'10.2'")
    # nvcc 13.0 emits nothing below sm_75: sm_75 stands in for sm_37..sm_70 (no 8.x, no PTX)
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75"], [])
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 515.48.07, -, none\n"]
    pasted = ("NVIDIA GeForce RTX 3090 with CUDA capability sm_86 is not compatible with the "
              "current PyTorch installation. The current PyTorch install supports CUDA "
              "capabilities sm_37 sm_50 sm_60 sm_70.")
    ini(dst, TOPIC,
        "latent-diffusion set up as its README says (a conda environment 'ldm') on an RTX 3090 "
        "(compute capability 8.6): the torch in the environment is a CUDA 10.2 build whose "
        "get_arch_list() is sm_37 sm_50 sm_60 sm_70, no SASS for 8.x and no PTX, so torch warns "
        "that the GPU is not compatible and the first CUDA kernel fails; a CUDA 11.3+ build "
        "(the cu116 index) has sm_86",
        "Rebuilt from https://github.com/CompVis/latent-diffusion/issues/102 (pasted: torch's "
        "warning with the supported list 'sm_37 sm_50 sm_60 sm_70', 'When I follow the "
        "instruction', the RTX 3090; the answer: install a CUDA 11.3+ torch from "
        "https://download.pytorch.org/whl/cu116); placeholders, not in the report: torch 1.12.0 "
        "(PyPI's default wheel of July 2022, built with CUDA 10.2: exactly that arch list), the "
        "conda environment at /home/user/miniconda3/envs/ldm with Python 3.8.5 (the "
        "repository's environment.yaml names 'ldm' and python=3.8.5), the driver 515.48.07 "
        "(current then), Ubuntu 20.04 with kernel 5.13.0-52-generic, the GPU's PCI id "
        "(10de:2204 GA102 [GeForce RTX 3090] in pci.ids); the stand-in libtorch_cuda.so carries "
        "SASS sm_75 only and no PTX (nvcc 13.0 emits nothing below sm_75; like the pasted "
        "list it has nothing a compute capability 8.6 GPU runs, the verdict is the same); "
        + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "ldm", "HOME": "/home/user"},
        real_world(
            "https://github.com/CompVis/latent-diffusion/issues/102", pasted,
            "the installed torch is a CUDA 10.2 build with code for sm_37 sm_50 sm_60 sm_70 "
            "only: nothing runs on the RTX 3090's sm_86; a CUDA 11.3+ build (cu116) fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def omost_torch241_cu121_on_r510():
    """lllyasviel/Omost#120: Omost's README installs torch from the cu121 index; the driver
    reports CUDA 11.6 ('found version 11060')."""
    name = "rw-omost-torch241-cu121-on-r510"
    rel = "5.15.0-122-generic"
    dst, root = rtx3090_host(name, "510.108.03", UBUNTU2204, rel, "gpu",
                             "Sep 23 09:02:11")
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/omost"
    conda_env(root, base, env, "3.10")
    site = f"{env}/lib/python3.10/site-packages"
    torch_cu121(root, site, "2.4.1+cu121")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 510.108.03, -, none\n"]
    pasted = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11060). "
              "Please update your GPU driver by downloading and installing a new version from the "
              "URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
              "https://pytorch.org to install a PyTorch version that has been compiled with your "
              "version of the CUDA driver.")
    ini(dst, TOPIC,
        "Omost installed as its README says (a conda environment 'omost' with Python 3.10, "
        "`pip install torch torchvision --index-url https://download.pytorch.org/whl/cu121`): "
        "torch 2.4.1+cu121 runs CUDA 12.1, while the R510 driver supports CUDA 11.6 ('found "
        "version 11060'), below even CUDA 12's minor-version compatibility floor (525.60.13): "
        "torch cannot initialise CUDA; a newer driver (or a cu118 torch) fixes it",
        "Rebuilt from https://github.com/lllyasviel/Omost/issues/120 (pasted: the RuntimeError "
        "with 'found version 11060') and the repository's README install steps (the conda "
        "environment 'omost', python=3.10, torch from the cu121 index); placeholders, not in "
        "the report: torch 2.4.1+cu121 (the cu121 index's newest in September 2024, with its "
        "nvidia-cuda-runtime-cu12 12.1.105 pin), the driver 510.108.03 (an R510 release: CUDA "
        "11.6 = 11060), the GPU (10de:2204 GA102 [GeForce RTX 3090]), Ubuntu 22.04 with kernel "
        "5.15.0-122-generic, the conda installation's place; no libtorch_cuda.so (the GPU code "
        "is not what fails); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "omost", "HOME": "/home/user"},
        real_world(
            "https://github.com/lllyasviel/Omost/issues/120", pasted,
            "torch from the cu121 index runs CUDA 12.1; the R510 driver supports CUDA 11.6 "
            "(found version 11060) and CUDA 12 needs >= 525.60.13 even through minor-version "
            "compatibility: upgrade the driver",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        *sections)


UBUNTU2410 = ('PRETTY_NAME="Ubuntu 24.10"\nNAME="Ubuntu"\nVERSION_ID="24.10"\n'
              'VERSION="24.10 (Oracular Oriole)"\nVERSION_CODENAME=oracular\nID=ubuntu\n'
              'ID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\n'
              'SUPPORT_URL="https://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
              'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
              'UBUNTU_CODENAME=oracular\nLOGO=ubuntu-logo\n')


def blackwell_conda(name, dev, model, drv, rel, osrel, base, env, python, torch, cuda):
    """A Blackwell GPU (compute capability 12.0) on the open module `drv` under kernel `rel`,
    with a conda environment holding a torch whose cu12x build carries SASS up to sm_90 and no
    PTX (the stand-in: sm_75 sm_80 sm_86 sm_90). Returns (dst, root, site, sections)."""
    dst, root = base_root(name, dev, 0x0000, model, drv, flavor="open")
    w(root, "etc/os-release", osrel)
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, "ws", "Apr  5 09:12:11", drv)
    conda_env(root, base, env, python)
    site = f"{env}/lib/python{python}/site-packages"
    torch_dist(root, site, torch, f"'{cuda}'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none, "
                "Dual MIT/GPL\n"]
    return dst, root, site, sections


def rtx5090d_torch260_cu126():
    """pytorch/pytorch#150733: torch 2.6.0+cu126 in a conda environment on an RTX 5090 D."""
    name = "rw-rtx5090d-torch260-cu126-conda"
    base, env = "/home/user/anaconda3", "/home/user/anaconda3/envs/py312"
    dst, root, site, sections = blackwell_conda(
        name, 0x2b87, "NVIDIA GeForce RTX 5090 D", "570.124.04", "6.11.0-21-generic",
        UBUNTU2410, base, env, "3.12", "2.6.0+cu126", "12.6")
    pasted = ("UserWarning: NVIDIA GeForce RTX 5090 D with CUDA capability sm_120 is not "
              "compatible with the current PyTorch installation. The current PyTorch install "
              f"supports CUDA capabilities {CU124_LIST}.")
    ini(dst, TOPIC,
        "Ubuntu 24.10 (kernel 6.11.0-21-generic) with a GeForce RTX 5090 D on driver 570.124.04 "
        "and an Anaconda environment (py312) holding torch 2.6.0+cu126: the CUDA 12.6 builds "
        f"carry SASS for {CU124_LIST} and no PTX, nothing for compute capability 12.0; torch "
        "warns that the GPU is not compatible and kernels fail; the CUDA 12.8 builds (torch "
        "2.7, or the nightly cu128 index then) have sm_120",
        "Rebuilt from https://github.com/pytorch/pytorch/issues/150733 (pasted: torch's "
        "UserWarning with the supported list, collect_env: 'PyTorch version: 2.6.0+cu126', "
        "'CUDA used to build PyTorch: 12.6', 'OS: Ubuntu 24.10', Python 3.12.9 from Anaconda, "
        "'Linux-6.11.0-21-generic', 'GPU 0: NVIDIA GeForce RTX 5090 D', 'Nvidia driver version: "
        "570.124.04', the environment /home/user/anaconda3/envs/py312; the maintainer: 'you'll "
        "need CUDA-12.8 to support 5090', the nightly or the 2.7 test builds from the cu128 "
        "index); placeholders, not in the report: the PCI id 10de:2b87 (GB202 [GeForce RTX 5090 "
        "D], nvidia_devices.tsv) on the base fixture's bus address, the module flavour and place "
        "(the open module, which Blackwell requires, as updates/dkms/nvidia.ko), the kern.log "
        "line's time; the stand-in libtorch_cuda.so carries sm_75 sm_80 sm_86 sm_90 of the "
        "pasted list (nvcc 13.0 builds nothing below sm_75; neither list has anything for 12.0, "
        "the verdict is the same); Ubuntu 24.10's os-release; " + mk2.SRC_TORCH + "; " +
        SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "py312", "HOME": "/home/user"},
        real_world(
            "https://github.com/pytorch/pytorch/issues/150733", pasted,
            "torch 2.6.0+cu126 has no sm_120 SASS and no PTX: no kernel image for the RTX 5090 "
            "D; a CUDA 12.8 build (cu128 index) fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def rtx5090_isaaclab_torch251():
    """Hellod035/LeggedLab#26: an Isaac Lab conda environment's torch (cu121 build) on an
    RTX 5090; the nightly cu128 torch fixed it."""
    name = "rw-rtx5090-isaaclab-torch251-cu121"
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/env_isaaclab"
    dst, root, site, sections = blackwell_conda(
        name, 0x2b85, "NVIDIA GeForce RTX 5090", "570.133.07", "6.8.0-60-generic",
        ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy", logo=False), base, env,
        "3.10", "2.5.1+cu121", "12.1")
    pasted = ("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
              "current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU124_LIST}.")
    ini(dst, TOPIC,
        "LeggedLab's training script in an Isaac Lab conda environment on an RTX 5090 (with an "
        "i9-14th gen): the environment's torch is a CUDA 12.x build whose arch list ends at "
        "sm_90 with no PTX, so torch warns that sm_120 is not compatible and the training "
        "cannot run on the GPU; installing the nightly torch from the cu128 index fixed it",
        "Rebuilt from https://github.com/Hellod035/LeggedLab/issues/26 (pasted: 'environment: "
        "5090+i9-14th', the command python legged_lab/scripts/train.py --task=g1_flat "
        "--headless ..., torch's warning with the supported list 'sm_50 sm_60 sm_70 sm_75 "
        "sm_80 sm_86 sm_90'; the author's fix: pip install --upgrade --pre torch torchvision "
        "--index-url https://download.pytorch.org/whl/nightly/cu128); placeholders, not in the "
        "report: torch 2.5.1+cu121 (Isaac Lab 2.x's installation guide pins torch 2.5.1 from the "
        "cu121 index; its arch list is the pasted one) in a conda environment env_isaaclab "
        "with Python 3.10 (Isaac Sim 4.5's), the PCI id 10de:2b85 (GB202 [GeForce RTX 5090], "
        "nvidia_devices.tsv), driver 570.133.07 and the open module in updates/dkms, Ubuntu "
        "22.04 with kernel 6.8.0-60-generic, the kern.log line's time; the stand-in "
        "libtorch_cuda.so carries sm_75 sm_80 sm_86 sm_90 of the pasted list (nvcc 13.0 builds "
        "nothing below sm_75); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "env_isaaclab", "HOME": "/home/user"},
        real_world(
            "https://github.com/Hellod035/LeggedLab/issues/26", pasted,
            "the environment's torch is a CUDA 12.1-era build with no sm_120 SASS and no PTX: "
            "no kernel image for the RTX 5090; a cu128 torch fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def rtx5070ti_torch26dev_cu121():
    """pytorch/pytorch#153928: the nightly 2.6.0.dev20241112+cu121 on an RTX 5070 Ti."""
    name = "rw-rtx5070ti-torch26dev-cu121-venv"
    dst, root = base_root(name, 0x2c05, 0x0000, "NVIDIA GeForce RTX 5070 Ti", "575.51.03",
                          flavor="open")
    rel = "6.8.0-60-generic"
    w(root, "etc/os-release", ubuntu_os_release("24.04.2", "Noble Numbat", "noble"))
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, "ws", "May 20 08:02:11", "575.51.03")
    site = venv(root, "/home/user/llm/.venv", "3.11.9")
    torch_dist(root, site, "2.6.0.dev20241112+cu121", "'12.1'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 575.51.03, -, none, "
                "Dual MIT/GPL\n"]
    pasted = ("RuntimeError: CUDA error: no kernel image is available for execution on the device "
              "/ UserWarning: NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not "
              "compatible with the current PyTorch installation.")
    ini(dst, TOPIC,
        "A GeForce RTX 5070 Ti (compute capability 12.0) with a venv holding the nightly torch "
        "2.6.0.dev20241112+cu121: CUDA 12.1 cannot build for sm_120 and the wheel carries no "
        "PTX, so moving a model to the GPU fails with 'no kernel image is available for "
        "execution on the device'; CUDA 12.8 with torch 2.7.0 fixes it",
        "Rebuilt from https://github.com/pytorch/pytorch/issues/153928 (pasted: the "
        "RuntimeError, torch's sm_120 warning, the nightly 2.6.0.dev20241112+cu121, the RTX "
        "5070 Ti; the maintainer: 'sm_120 is not supported by CUDA-12.1. You'll need to use "
        "12.8 + PyTorch-2.7.0'); placeholders, not in the report: one GPU (the report's model "
        "goes to cuda:1; the other GPU is not named, the base fixture's single slot is "
        "re-identified as 10de:2c05 GB203 [GeForce RTX 5070 Ti], nvidia_devices.tsv), the "
        "driver 575.51.03 and the open module in updates/dkms, Ubuntu 24.04.2 with kernel "
        "6.8.0-60-generic, the venv and Python 3.11; the stand-in libtorch_cuda.so carries "
        f"sm_75 sm_80 sm_86 sm_90 of the cu121 builds' list ({CU124_LIST}; nvcc 13.0 builds "
        "nothing below sm_75); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/home/user/llm/.venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/llm/.venv", "HOME": "/home/user"},
        real_world(
            "https://github.com/pytorch/pytorch/issues/153928", pasted,
            "the cu121 nightly has no sm_120 SASS and no PTX (CUDA 12.1 cannot target sm_120): "
            "no kernel image for the RTX 5070 Ti; CUDA 12.8 + torch 2.7.0 fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def write():
    rtx5090_torch27dev_cu124()
    chatglm3_torch21_on_r510()
    ldm_rtx3090_torch112_cu102()
    omost_torch241_cu121_on_r510()
    rtx5090d_torch260_cu126()
    rtx5090_isaaclab_torch251()
    rtx5070ti_torch26dev_cu121()
