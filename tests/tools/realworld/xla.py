# SPDX-License-Identifier: GPL-2.0-or-later
"""JAX's XLA and the CUDA toolchain it compiles with at run time: libdevice
(nvvm/libdevice/libdevice.10.bc) and ptxas, from the nvidia-cuda-nvcc-cu12 wheel or a toolkit in
a place XLA searches (src/probe/framework-xla.c): none there, framework.xla-toolchain-missing;
a ptxas too old for the GPU or shadowing a newer nvcc wheel, framework.xla-ptxas-too-old.
Written by tests/tools/mk-real-world-fixtures.py xla."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, dpkg, ini, link,
                              mk2, move_kernel, real_world, section, w)

TOPIC = "xla"
FIXTURES = ("rw-xla-libdevice-hpc-module-jax-22590",
            "rw-xla-libdevice-hpc-xla-flags-jax-22590",
            "rw-xla-libdevice-no-nvcc-cuda112-jax-6323",
            "rw-xla-ptxas-not-found-jax-7239",
            "rw-xla-ptxas-path-cuda121-jax-25718",
            "rw-xla-ptxas-wheel-first-jax-25718",
            "rw-xla-ptxas-sm86-cuda110-jax-6046",
            "rw-xla-ptxas-sm89-cuda113-alphafold-75")
BASE = "rtx4090-open-module"
URL_22590 = "https://github.com/jax-ml/jax/issues/22590"
URL_6323 = "https://github.com/jax-ml/jax/issues/6323"
URL_7239 = "https://github.com/jax-ml/jax/issues/7239"
URL_25718 = "https://github.com/jax-ml/jax/issues/25718"
URL_6046 = "https://github.com/jax-ml/jax/issues/6046"
URL_AF75 = "https://github.com/kalininalab/alphafold_non_docker/issues/75"
GPU = (0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "570.133.07")
PLACEHOLDER_GPU = ("the GPU and driver (the base fixture's RTX 4090 on the open module 570.133.07; "
                   "the report shows neither)")
# 2021's machines (CUDA 11.x): an RTX 3080 on driver 460.73.01 (CUDA 11.2) under Ubuntu 20.04's
# HWE kernel of April 2021
GPU_2021 = (0x2206, 0x0000, "NVIDIA GeForce RTX 3080", "460.73.01")
KERNEL_2021 = "5.8.0-50-generic"
PLACEHOLDER_2021 = ("the GPU, driver and system (an RTX 3080, 10de:2206, on driver 460.73.01, "
                    "CUDA 11.2's, under Ubuntu 20.04 with its HWE kernel 5.8.0-50-generic of "
                    "April 2021, the module in updates/dkms; the report shows none of them)")


def tree_2021(name):
    dst, root = base_root(name, *GPU_2021)
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", KERNEL_2021)
    return dst, root, (f"[modules]\n/lib/modules/{KERNEL_2021}/updates/dkms/nvidia.ko = "
                       f"{GPU_2021[3]}, -, none\n")


def dist(root, site, name, version, installer="pip"):
    d = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    w(root, f"{d}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    w(root, f"{d}/INSTALLER", f"{installer}\n")
    w(root, f"{d}/RECORD", "")


def nvcc_wheel(root, site, version, installer="pip"):
    """nvidia-cuda-nvcc-cu12 as pip installs it: nvidia/cuda_nvcc/bin/ptxas and
    nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc (stand-in files: only their places are
    read)."""
    dist(root, site, "nvidia-cuda-nvcc-cu12", version, installer)
    w(root, f"{site}/nvidia/cuda_nvcc/bin/ptxas", "", 0o755)
    w(root, f"{site}/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc", "")
    w(root, f"{site}/nvidia/cuda_nvcc/__init__.py", "")


def jax_and_jaxlib(root, site, jax, jaxlib, version_name):
    """jax and jaxlib as pip installs them: each version.py with its release's variable
    (`__version__` in 2021's, `_version` in 0.4's), jaxlib's without its local "+cuda112"
    part, and jaxlib/xla_extension.so."""
    dist(root, site, "jax", jax)
    w(root, f"{site}/jax/version.py", f'{version_name} = "{jax}"\n')
    dist(root, site, "jaxlib", jaxlib)
    w(root, f"{site}/jaxlib/version.py", f'{version_name} = "{jaxlib.split("+")[0]}"\n')
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/jaxlib/xla_extension.so", "so soname=xla_extension.so"))


def jax_plugin_env(root, site, version):
    """jax, jaxlib and the CUDA 12 plugin pair (jax-cuda12-plugin, jax-cuda12-pjrt), as
    `pip install "jax[cuda12_local]"` installs them: no nvidia-* wheel."""
    jax_and_jaxlib(root, site, version, version, "_version")
    dist(root, site, "jax-cuda12-plugin", version)
    w(root, f"{site}/jax_cuda12_plugin/__init__.py", "")
    dist(root, site, "jax-cuda12-pjrt", version)
    mk2.ELF[root].append((f"{site}/jax_plugins/xla_cuda12/xla_cuda_plugin.so",
                          "cuda soname=xla_cuda_plugin.so sass=75,80,86,89,90 ptx=90"))
    w(root, f"{site}/jax_plugins/xla_cuda12/__init__.py", "")


def jaxlib_cuda11_env(root, site, jax, jaxlib, bundled_libdevice):
    """jax and a jaxlib CUDA 11 wheel of 2021 (jaxlib/xla_extension.so); bundled_libdevice:
    jaxlib/cuda/nvvm/libdevice/libdevice.10.bc, which the wheels carry from 0.1.66 on
    (jax-ml/jax#6581)."""
    jax_and_jaxlib(root, site, jax, jaxlib, "__version__")
    if bundled_libdevice:
        w(root, f"{site}/jaxlib/cuda/nvvm/libdevice/libdevice.10.bc", "")


# jax-ml/jax#22590: the environment `module load cuda/12.2.0` sets (its prepend-path and setenv
# lines, as the report prints them)
HPC = "/gpfslocalsys/cuda/12.2.0"
HPC_PREFIX = "/home/user/venv"
HPC_SITE = f"{HPC_PREFIX}/lib/python3.11/site-packages"


def hpc_variables(xla_flags):
    v = {"PATH": f"{HPC}/bin:{HPC}/nvvm/bin:{HPC}/samples:{HPC_PREFIX}/bin:/usr/local/sbin:"
                 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "LD_LIBRARY_PATH": f"{HPC}/targets/x86_64-linux/lib:{HPC}/samples/common/lib/linux/"
                            f"x86_64:{HPC}/lib64:{HPC}/extras/CUPTI/lib64:{HPC}/nvvm/lib64",
         "CUDA_PATH": HPC, "CUDA_HOME": HPC, "CUDA_ROOT": HPC, "NVHPC_CUDA_HOME": HPC,
         "VIRTUAL_ENV": HPC_PREFIX, "HOME": "/home/user"}
    if xla_flags:
        v["XLA_FLAGS"] = xla_flags
    return v


SOURCE_22590 = (
    f"Rebuilt from {URL_22590} (pasted: `jax[cuda12_local]==0.4.30` on an HPC cluster, CUDA "
    "from `module load cuda/12.2.0`, libdevice not found, the module's prepend-path lines "
    f"(PATH {HPC}/bin, {HPC}/nvvm/bin, {HPC}/samples; LD_LIBRARY_PATH its targets/x86_64-linux/"
    "lib, samples/common/lib/linux/x86_64, lib64, extras/CUPTI/lib64, nvvm/lib64) and setenv "
    "lines (CUDA_PATH, CUDA_HOME, CUDA_ROOT, NVHPC_CUDA_HOME), and the reporter's fix: "
    f"XLA_FLAGS=--xla_gpu_cuda_data_dir={HPC}/; the thread's cause: jaxlib no longer ships "
    "libdevice and XLA does not search the module's toolkit (jax-ml/jax#24139's thread: with "
    "cuda12_local no pip cuda_nvcc exists and the module's $CUDA_PATH is not searched)); "
    f"the toolkit's ptxas and libdevice in {HPC} as NVIDIA's toolkit lays them out (bin/ptxas, "
    "nvvm/libdevice/libdevice.10.bc; stand-in files); jax[cuda12_local] 0.4.30 as pip installs "
    "it (jax, jaxlib, jax-cuda12-plugin, jax-cuda12-pjrt; no nvidia-* wheel); the toolkit's "
    "version.json with its cuda entry only, the release the module's name gives (12.2.0), in "
    "the format CUDA 11+ toolkits write it; placeholders, not "
    f"in the report: the venv {HPC_PREFIX} with CPython 3.11, the toolkit's libraries, cuDNN "
    "and NCCL (not rebuilt: not what fails), the stand-in xla_cuda_plugin.so built by nvcc 13.0 "
    "for sm_75-sm_90 with compute_90 PTX and the gcc-built xla_extension.so, "
    f"{PLACEHOLDER_GPU}; ")


def hpc_tree(name):
    dst, root = base_root(name, *GPU, flavor="open", audio=0x22ba)
    w(root, "usr/bin/python3.11", "", 0o755)
    mk2.venv(root, HPC_PREFIX, "3.11.9")
    jax_plugin_env(root, HPC_SITE, "0.4.30")
    w(root, f"{HPC}/bin/ptxas", "", 0o755)
    w(root, f"{HPC}/bin/nvcc", "", 0o755)
    w(root, f"{HPC}/nvvm/libdevice/libdevice.10.bc", "")
    w(root, f"{HPC}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.2.0"\n   }\n}\n')
    return dst


def hpc_module():
    dst = hpc_tree(FIXTURES[0])
    ini(dst, TOPIC,
        "jax[cuda12_local] 0.4.30 in a venv on an HPC node whose CUDA 12.2 comes from `module "
        f"load cuda/12.2.0` ({HPC}, on PATH and LD_LIBRARY_PATH): XLA takes ptxas from PATH "
        "but searches for libdevice only in its own places (/usr/local/cuda, the nvidia-cuda-"
        "nvcc wheel's directory …), none of which has it: 'libdevice not found'",
        SOURCE_22590 + SRC_BASE, hpc_variables(None),
        real_world(URL_22590, "XlaRuntimeError: INTERNAL: libdevice not found at "
                   "./libdevice.10.bc",
                   "jaxlib no longer bundles libdevice and XLA does not search the module's "
                   f"CUDA toolkit ({HPC}) for it; XLA_FLAGS=--xla_gpu_cuda_data_dir={HPC}/ "
                   "fixes it",
                   "framework.xla-toolchain-missing", "framework", "yes"),
        section(BASE, "devices"))


def hpc_xla_flags():
    dst = hpc_tree(FIXTURES[1])
    ini(dst, TOPIC,
        "the machine of rw-xla-libdevice-hpc-module-jax-22590 after the reporter's fix: "
        f"XLA_FLAGS=--xla_gpu_cuda_data_dir={HPC}/ names the module's toolkit, where XLA finds "
        "libdevice",
        SOURCE_22590 + SRC_BASE, hpc_variables(f"--xla_gpu_cuda_data_dir={HPC}/"),
        real_world(URL_22590, "(the reporter's fix: XLA_FLAGS=--xla_gpu_cuda_data_dir="
                   f"{HPC}/; JAX runs on the GPU)",
                   "with XLA_FLAGS naming the module's toolkit, XLA finds libdevice there",
                   "none", "none", "no"),
        section(BASE, "devices"))


def no_nvcc_cuda112():
    dst, root, modules = tree_2021(FIXTURES[2])
    w(root, "usr/bin/python3.8", "", 0o755)
    site = "/home/user/.local/lib/python3.8/site-packages"
    jaxlib_cuda11_env(root, site, "0.2.12", "0.1.64+cuda112", False)
    # CUDA 11.2 installed without its nvcc component (no bin/ptxas, no nvvm/), and the
    # /usr/local/cuda link the thread made
    w(root, "usr/local/cuda-11.2/version.txt", "CUDA Version 11.2\n")
    link(root, "usr/local/cuda", "cuda-11.2")
    ini(dst, TOPIC,
        "jaxlib 0.1.64+cuda112 (pip --user, Python 3.8) on a machine whose CUDA 11.2 in "
        "/usr/local/cuda-11.2 was installed without its nvcc component: no nvvm/libdevice "
        "and no ptxas anywhere XLA looks, so every JAX program that calls a math routine "
        "fails with 'libdevice not found at ./libdevice.10.bc'",
        f"Rebuilt from {URL_6323} (pasted: RuntimeError: Internal: libdevice not found at "
        "./libdevice.10.bc; '/usr/local/cuda-11.2 exists' without nvvm/, the `ln -s "
        "/usr/local/cuda-11.2 /usr/local/cuda` tried in the thread, same error; the maintainer's "
        "answer: libdevice.10.bc comes from the cuda-nvcc-11-2 package (`dpkg -S "
        "/usr/local/cuda-11.2/nvvm/libdevice/libdevice.10.bc`), not installed here; "
        "jax-ml/jax#6581 then bundled libdevice with jaxlib); placeholders, not in the report: "
        "jax 0.2.12 and jaxlib 0.1.64+cuda112 (the CUDA 11.2 wheels of March 2021, before "
        "jaxlib bundled libdevice), pip --user with Ubuntu's Python 3.8, the toolkit's "
        "version.txt (its other files are not rebuilt: not what fails), the gcc-built "
        f"xla_extension.so stand-in, {PLACEHOLDER_2021}; " + SRC_BASE,
        {"PATH": "/home/user/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "HOME": "/home/user"},
        real_world(URL_6323, "RuntimeError: Internal: libdevice not found at ./libdevice.10.bc",
                   "the CUDA 11.2 toolkit was installed without its nvcc component "
                   "(cuda-nvcc-11-2), which holds nvvm/libdevice/libdevice.10.bc: XLA finds "
                   "no libdevice",
                   "framework.xla-toolchain-missing", "framework", "yes"),
        section(BASE, "devices"), modules)


def ptxas_not_found():
    dst, root, modules = tree_2021(FIXTURES[3])
    w(root, "usr/bin/python3.6", "", 0o755)
    site = "/home/user/.local/lib/python3.6/site-packages"
    jaxlib_cuda11_env(root, site, "0.2.17", "0.1.68+cuda111", True)
    ini(dst, TOPIC,
        "jax 0.2.17 with jaxlib 0.1.68+cuda111 (pip --user, Python 3.6): jaxlib brings "
        "libdevice but not ptxas, and no ptxas is on PATH or in a CUDA toolkit: XLA 'Couldn't "
        "invoke ptxas --version' and aborts with 'Failed to launch ptxas'",
        f"Rebuilt from {URL_7239} (pasted: python 3.6.10, cuda 11, jax 0.2.17, gcc 7.3.0, "
        "'Couldn't get ptxas version string: Internal: Couldn't invoke ptxas --version' and "
        "the fatal 'ptxas returned an error during compilation of ptx to sass: 'Internal: "
        "Failed to launch ptxas''; the maintainer's answer: JAX could not find ptxas, part of "
        "the CUDA toolkit, which it finds on PATH; a later comment: the same in a Jupyter "
        "kernel whose PATH lacked it); jaxlib's bundled libdevice (jaxlib/cuda/nvvm/libdevice, "
        "from 0.1.66 on: jax-ml/jax#6581); placeholders, not in the report: jaxlib "
        "0.1.68+cuda111 (the CUDA 11 jaxlib of jax 0.2.17's release), pip --user with Python "
        "3.6, no CUDA toolkit (the report names none; XLA found no ptxas), the gcc-built "
        f"xla_extension.so stand-in, {PLACEHOLDER_2021}; " + SRC_BASE,
        {"PATH": "/home/user/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "HOME": "/home/user"},
        real_world(URL_7239, "Couldn't get ptxas version string: Internal: Couldn't invoke "
                   "ptxas --version ... ptxas returned an error during compilation of ptx to "
                   "sass: 'Internal: Failed to launch ptxas'",
                   "XLA finds no ptxas (on PATH or in a CUDA toolkit) to assemble its PTX",
                   "framework.xla-toolchain-missing", "framework", "yes"),
        section(BASE, "devices"), modules)


# jax-ml/jax#25718: CUDA 12.1 in /usr/local/cuda-12.1 with its bin/ on PATH, jax[cuda12] in a
# venv of Python 3.12 (the traceback's venv/lib/python3.12/site-packages, the home /home/user)
CUDA121 = "/usr/local/cuda-12.1"
VENV_25718 = "/home/user/venv"
SITE_25718 = f"{VENV_25718}/lib/python3.12/site-packages"
SOURCE_25718 = (
    f"Rebuilt from {URL_25718} (pasted: `ptxas --version` on PATH: 'Cuda compilation tools, "
    "release 12.1, V12.1.66'; `python -m venv venv; pip install -U \"jax[cuda12]\"` on "
    "2025-01-03; the traceback's venv/lib/python3.12/site-packages under the home (written as /home/user); XLA's warning "
    "'Invoking ptxas with version 12.1.66, which corresponds to a CUDA version <=12.6.2'; the "
    "thread's cause, its title: with CUDA 12.1 installed the pip-installed ptxas is not used: "
    "XLA takes ptxas from PATH first (jax-ml/jax#17976, the maintainer: 'If ptxas is present "
    "in PATH, it will override the version installed in the nvidia-cuda-nvcc-cu12 pip "
    "package')); the toolkit's version.json with its cuda and cuda_nvcc entries (12.1.0, "
    "whose nvcc and ptxas are V12.1.66, and 12.1.66) and stand-in bin/ptxas, bin/nvcc and "
    "nvvm/libdevice; placeholders, not in the report: the toolkit's place /usr/local/cuda-12.1 "
    "(NVIDIA's default) and its bin/ on PATH, jax, jaxlib and the CUDA 12 plugin pair 0.4.38 "
    "(the release of 2024-12-17, the newest on 2025-01-03) and nvidia-cuda-nvcc-cu12 12.6.85 "
    "(the floor jax-ml/jax#25091 set for it), no other nvidia-* wheel (not what fails), the "
    "venv's CPython 3.12.3, the stand-in xla_cuda_plugin.so built by nvcc 13.0 for "
    f"sm_75-sm_90 with compute_90 PTX and the gcc-built xla_extension.so, {PLACEHOLDER_GPU}; ")


def cuda121_tree(name):
    dst, root = base_root(name, *GPU, flavor="open", audio=0x22ba)
    w(root, "usr/bin/python3.12", "", 0o755)
    mk2.venv(root, VENV_25718, "3.12.3")
    jax_plugin_env(root, SITE_25718, "0.4.38")
    nvcc_wheel(root, SITE_25718, "12.6.85")
    w(root, f"{CUDA121}/bin/ptxas", "", 0o755)
    w(root, f"{CUDA121}/bin/nvcc", "", 0o755)
    w(root, f"{CUDA121}/nvvm/libdevice/libdevice.10.bc", "")
    w(root, f"{CUDA121}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.1.0"\n   },\n'
      '   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n      "version" : "12.1.66"\n'
      '   }\n}\n')
    link(root, "usr/local/cuda", "cuda-12.1")
    return dst


def venv_25718(path_toolkit):
    bins = f"{CUDA121}/bin:" if path_toolkit else ""
    return {"PATH": f"{VENV_25718}/bin:{bins}/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                    "/usr/bin:/sbin:/bin",
            "VIRTUAL_ENV": VENV_25718, "HOME": "/home/user"}


def ptxas_path_cuda121():
    dst = cuda121_tree(FIXTURES[4])
    ini(dst, TOPIC,
        "jax[cuda12] 0.4.38 in a venv with the nvidia-cuda-nvcc-cu12 12.6.85 wheel, on a "
        f"machine whose CUDA 12.1 ({CUDA121}/bin) is on PATH: XLA takes the ptxas on PATH "
        "first, CUDA 12.1's, older than the wheel's it was installed with",
        SOURCE_25718 + SRC_BASE, venv_25718(True),
        real_world(URL_25718, "*** WARNING *** Invoking ptxas with version 12.1.66, which "
                   "corresponds to a CUDA version <=12.6.2",
                   "the system CUDA 12.1's ptxas, first on PATH, is used instead of the newer "
                   "one of the nvidia-cuda-nvcc-cu12 wheel that jax[cuda12] installed",
                   "framework.xla-ptxas-too-old", "framework", "yes"),
        section(BASE, "devices"))


def ptxas_wheel_first():
    dst = cuda121_tree(FIXTURES[5])
    ini(dst, TOPIC,
        "the machine of rw-xla-ptxas-path-cuda121-jax-25718 with the toolkit's bin/ off PATH: "
        "XLA takes the nvidia-cuda-nvcc-cu12 wheel's ptxas (12.6.85)",
        SOURCE_25718 + SRC_BASE, venv_25718(False),
        real_world(URL_25718, "(the workaround the thread names: the system ptxas off PATH; "
                   "jax takes the pip-installed one)",
                   "with no older ptxas on PATH, XLA takes the nvcc wheel's",
                   "none", "none", "no"),
        section(BASE, "devices"))


def ptxas_sm86_cuda110():
    dst, root, modules = tree_2021(FIXTURES[6])
    w(root, "usr/bin/python3.8", "", 0o755)
    site = "/home/user/.local/lib/python3.8/site-packages"
    jaxlib_cuda11_env(root, site, "0.2.11", "0.1.64+cuda110", False)
    cuda = "/usr/local/cuda-11.0"
    w(root, f"{cuda}/bin/ptxas", "", 0o755)
    w(root, f"{cuda}/bin/nvcc", "", 0o755)
    w(root, f"{cuda}/nvvm/libdevice/libdevice.10.bc", "")
    w(root, f"{cuda}/version.txt", "CUDA Version 11.0.221\n")
    link(root, "usr/local/cuda", "cuda-11.0")
    ini(dst, TOPIC,
        "jaxlib 0.1.64+cuda110 on an RTX 30 series GPU (compute capability 8.6) with CUDA "
        "11.0 in /usr/local/cuda: XLA's ptxas, CUDA 11.0's, does not know sm_86 ('ptxas does "
        "not support CC 8.6'), XLA falls back to the driver and the kernels are not found",
        f"Rebuilt from {URL_6046} (a comment of 2021-03-29, pasted: 'RTX 30 Series with "
        "jaxlib==0.1.64+cuda110', `nvcc --version` 'Cuda compilation tools, release 11.0, "
        "V11.0.221', XLA's 'Falling back to the CUDA driver for PTX compilation; ptxas does not "
        "support CC 8.6', 'Used ptxas at /usr/local/cuda/bin/ptxas', then 'failed to get PTX "
        "kernel \"broadcast_2\" from module: CUDA_ERROR_NOT_FOUND'; the cause, XLA's own "
        "words there and the knowledge base's: CUDA 11.1 is the first release whose ptxas "
        "targets sm_86; google-deepmind/alphafold#55, the same failure on CC 8.6, was fixed by "
        "CUDA 11.1); the toolkit's version.txt in CUDA 11.0's format with the nvcc build the "
        "report prints (11.0.221; only its release is read); placeholders, not in the report: "
        "jax 0.2.11 (the release beside jaxlib 0.1.64), the toolkit's directory "
        "/usr/local/cuda-11.0 behind /usr/local/cuda, pip --user with Ubuntu's Python 3.8, the "
        f"gcc-built xla_extension.so stand-in, {PLACEHOLDER_2021}; " + SRC_BASE,
        {"PATH": "/home/user/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "HOME": "/home/user"},
        real_world(URL_6046, "Falling back to the CUDA driver for PTX compilation; ptxas does "
                   "not support CC 8.6 ... Used ptxas at /usr/local/cuda/bin/ptxas",
                   "CUDA 11.0's ptxas, the one XLA finds in /usr/local/cuda, does not know the "
                   "RTX 30 series' sm_86 (CUDA 11.1 is the first that does)",
                   "framework.xla-ptxas-too-old", "framework", "yes"),
        section(BASE, "devices"), modules)


def ptxas_sm89_cuda113():
    dst, root = base_root(FIXTURES[7], *GPU, flavor="open", audio=0x22ba)
    cuda = "/usr/local/cuda-11.3"
    w(root, f"{cuda}/bin/ptxas", "", 0o755)
    w(root, f"{cuda}/bin/nvcc", "", 0o755)
    w(root, f"{cuda}/nvvm/libdevice/libdevice.10.bc", "")
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "11.3.1"\n   }\n}\n')
    link(root, "usr/local/cuda", "cuda-11.3")
    dpkg(root, {"cuda-command-line-tools-11-3": "11.3.1-1", "cuda-compiler-11-3": "11.3.1-1",
                "cuda-cudart-11-3": "11.3.109-1", "cuda-cudart-dev-11-3": "11.3.109-1"})
    base = "/opt/conda"
    env = f"{base}/envs/alphafold"
    w(root, f"{base}/conda-meta/history", "")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n")
    w(root, f"{env}/conda-meta/history", "")
    w(root, f"{env}/conda-meta/cudatoolkit-11.3.1-h2bc3f7f_2.json",
      '{"name": "cudatoolkit", "version": "11.3.1", "build": "h2bc3f7f_2"}\n')
    w(root, f"{env}/bin/python3.8", "")
    link(root, f"{env}/bin/python3", "python3.8")
    link(root, f"{env}/bin/python", "python3.8")
    site = f"{env}/lib/python3.8/site-packages"
    jaxlib_cuda11_env(root, site, "0.3.25", "0.3.25+cuda11.cudnn805", False)
    ini(dst, TOPIC,
        "AlphaFold 2.3.1 with jax 0.3.25 and jaxlib 0.3.25+cuda11.cudnn805 in a conda "
        "environment on a compute capability 8.9 GPU, CUDA 11.3's ptxas first on PATH: it does "
        "not know sm_89 ('ptxas does not support CC 8.9'), XLA falls back to the driver and "
        "the kernels are not found",
        f"Rebuilt from {URL_AF75} (pasted: XLA's 'Falling back to the CUDA driver for PTX "
        "compilation; ptxas does not support CC 8.9', 'Used ptxas at ptxas' (the one on PATH), "
        "'failed to get PTX kernel \"shift_right_logical\" from module: CUDA_ERROR_NOT_FOUND', "
        "the conda environment /opt/conda/envs/alphafold with Python 3.8, `conda list`: "
        "cudatoolkit 11.3.1 h2bc3f7f_2, jax 0.3.25 and jaxlib 0.3.25+cuda11.cudnn805 from PyPI; "
        "`dpkg -l`: cuda-command-line-tools-11-3 11.3.1-1, cuda-compiler-11-3 11.3.1-1, "
        "cuda-cudart-11-3 and cuda-cudart-dev-11-3 11.3.109-1; the cause, XLA's own words and "
        "the knowledge base's: CUDA 11.8 is the first release whose ptxas targets sm_89, as "
        "google-deepmind/alphafold#863's fix (a CUDA 11.8 image) showed; the issue is open, no "
        "maintainer answered); the toolkit of cuda-compiler-11-3 in /usr/local/cuda-11.3 "
        "(NVIDIA's packages' place) with its version.json's cuda entry (11.3.1, the packages' "
        "version) and stand-in bin/ptxas, bin/nvcc and nvvm/libdevice; placeholders, not in the "
        "report: the toolkit's bin/ on PATH before the environment's (where XLA found 'ptxas'), "
        "the conda record's other fields, the gcc-built xla_extension.so stand-in, the GPU "
        "(the base fixture's RTX 4090, compute capability 8.9 as the message says) and driver "
        "(the base fixture's open module 570.133.07; the report shows neither); " + SRC_BASE,
        {"PATH": f"{cuda}/bin:{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda", "HOME": "/root"},
        real_world(URL_AF75, "Falling back to the CUDA driver for PTX compilation; ptxas does "
                   "not support CC 8.9 ... Used ptxas at ptxas",
                   "CUDA 11.3's ptxas, first on PATH, does not know the GPU's sm_89 (CUDA 11.8 "
                   "is the first that does)",
                   "framework.xla-ptxas-too-old", "framework", "yes"),
        section(BASE, "devices"))


def write():
    hpc_module()
    hpc_xla_flags()
    no_nvcc_cuda112()
    ptxas_not_found()
    ptxas_path_cuda121()
    ptxas_wheel_first()
    ptxas_sm86_cuda110()
    ptxas_sm89_cuda113()
