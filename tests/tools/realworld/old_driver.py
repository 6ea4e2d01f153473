# SPDX-License-Identifier: GPL-2.0-or-later
"""A framework built for a newer CUDA than the installed driver supports."""
import shutil

from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, UBUNTU2104_OS_RELEASE, base_root,
                              ini, move_kernel, real_world, section, torch_cu121, venv, w)
from realworld.libs import conda_env

TOPIC = "old_driver"
FIXTURES = ("torch21-cu121-on-r470", "rw-gptsovits-torch212-cu121-on-r470")


def fooocus():
    """Fooocus's torch 2.1.0+cu121 on an RTX 3050 Laptop GPU with driver 470.86 (CUDA 11.4)."""
    dst, root = base_root("torch21-cu121-on-r470", 0x25a2, 0x0a3c,
                          "NVIDIA GeForce RTX 3050 Laptop GPU", "470.86")
    w(root, "etc/os-release", UBUNTU2104_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "5.11.0-49-generic\n")
    # the base's module tree is for its own kernel; the report shows no module path
    shutil.rmtree(f"{root}/lib/modules")
    w(root, "proc/driver/nvidia/version",
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.86  Tue Oct 26 21:55:45 UTC 2021\n"
      "GCC version:  gcc version 10.3.0 (Ubuntu 10.3.0-1ubuntu1) \n")
    site = venv(root, "/home/user/Fooocus/fooocus_env", "3.10.12")
    torch_cu121(root, site, "2.1.0+cu121")
    ini(dst, TOPIC,
        "Fooocus on Ubuntu 21.04 with a GeForce RTX 3050 Laptop GPU and driver 470.86 (CUDA "
        "11.4): Fooocus's launcher installs torch 2.1.0 from https://download.pytorch.org/whl/"
        "cu121 into its venv, and torch fails with 'The NVIDIA driver on your system is too old "
        "(found version 11040)'. CUDA 12.1 needs driver >= 530.30.02 (>= 525.60.13 through "
        "minor-version compatibility); there is no cu114 index to fall back to: the fix is a "
        "newer driver, or torch 2.1's cu118 variant, which 470.86 runs through CUDA 11's "
        "minor-version compatibility (>= 450.80.02; NVIDIA's CUDA Compatibility guide) with "
        "its SASS for the GPU",
        "Rebuilt from https://github.com/lllyasviel/Fooocus/issues/1313 (pasted: the "
        "RuntimeError, 'Ubuntu 21.04', 'Nvidia GeForce RTX 3050 laptop GPU', nvidia-smi's "
        "'NVIDIA-SMI 470.86 Driver Version: 470.86 CUDA Version: 11.4'); torch 2.1.0+cu121 and "
        "its nvidia-cuda-runtime-cu12 12.1.105 pin from Fooocus's launch.py of that time "
        "(TORCH_COMMAND: torch==2.1.0 … --extra-index-url https://download.pytorch.org/whl/"
        "cu121) and the fooocus_env venv of its Linux instructions; not in the report and "
        "chosen here: the PCI id 10de:25a2 (GA107M [GeForce RTX 3050 Mobile] in pci.ids), "
        "Ubuntu 21.04's 5.11.0-49-generic kernel, Python 3.10; " + SRC_BASE +
        "; torch version.py and dist-info as mk-rules2-fixtures.py writes them (no "
        "libtorch_cuda.so: the GPU code is not what fails here)",
        {"PATH": "/home/user/Fooocus/fooocus_env/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin", "VIRTUAL_ENV": "/home/user/Fooocus/fooocus_env",
         "HOME": "/home/user"},
        real_world(
            "https://github.com/lllyasviel/Fooocus/issues/1313",
            "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). "
            "Please update your GPU driver by downloading and installing a new version from "
            "the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
            "https://pytorch.org to install a PyTorch version that has been compiled with "
            "your version of the CUDA driver.",
            "torch 2.1.0+cu121 needs a CUDA 12.1 driver (>= 525.60.13 even through "
            "minor-version compatibility); driver 470.86 supports CUDA 11.4 (found version "
            "11040): upgrade the driver (or take torch 2.1's cu118 variant, which runs on it "
            "through minor-version compatibility)",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        section("rtx4090-open-module", "devices"))


def gpt_sovits():
    """RVC-Boss/GPT-SoVITS#83: torch from PyPI (CUDA 12.1) on a driver reporting CUDA 11.4."""
    name = "rw-gptsovits-torch212-cu121-on-r470"
    dst, root = base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", "470.223.02")
    rel = "5.15.0-91-generic"
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", rel)
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/GPTSoVits"
    conda_env(root, base, env, "3.9")
    torch_cu121(root, f"{env}/lib/python3.9/site-packages", "2.1.2")
    ini(dst, TOPIC,
        "GPT-SoVITS installed as its README said in January 2024 (a conda environment "
        "GPTSoVits with Python 3.9, `pip install -r requirements.txt`, torch unpinned): pip "
        "took PyPI's torch, built with CUDA 12.1, on a machine whose R470 driver supports "
        "CUDA 11.4 ('found version 11040'), below CUDA 12's minor-version compatibility floor "
        "(525.60.13): torch cannot initialise CUDA; a torch built with CUDA 11.8 (runs on R470 "
        "through minor-version compatibility) or a newer driver fixes it",
        "Rebuilt from https://github.com/RVC-Boss/GPT-SoVITS/issues/83 (pasted: the "
        "RuntimeError with 'found version 11040'; the answers: 'I tested cu118 and cu121, both "
        "work' (with a driver of their own) and the maintainer: the installed torch is too new "
        "for the installed driver); placeholders, not in the report: torch 2.1.2 (PyPI's "
        "default wheel in January 2024, built with CUDA 12.1, with its nvidia-cuda-runtime-cu12 "
        "12.1.105 pin), the conda environment GPTSoVits with Python 3.9 (the README's), the "
        "driver 470.223.02 (an R470 release: CUDA 11.4 = 11040), the GPU (10de:2204 GA102 "
        "[GeForce RTX 3090] in pci.ids) on the base fixture's bus, Ubuntu 20.04 with kernel "
        "5.15.0-91-generic; no libtorch_cuda.so (the GPU code is not what fails); " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "GPTSoVits", "HOME": "/home/user"},
        real_world(
            "https://github.com/RVC-Boss/GPT-SoVITS/issues/83",
            "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). "
            "Please update your GPU driver by downloading and installing a new version from "
            "the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
            "https://pytorch.org to install a PyTorch version that has been compiled with "
            "your version of the CUDA driver.",
            "the installed torch (CUDA 12.1) is too new for the R470 driver (CUDA 11.4, found "
            "version 11040): a cu118 torch or a newer driver fixes it",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        section("rtx4090-open-module", "devices"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 470.223.02, -, none\n")


def write():
    fooocus()
    gpt_sovits()
