# SPDX-License-Identifier: GPL-2.0-or-later
"""JAX's XLA and the CUDA toolchain it compiles with at run time: libdevice
(nvvm/libdevice/libdevice.10.bc) and ptxas, from the nvidia-cuda-nvcc-cu12 wheel or a toolkit in
a place XLA searches (src/probe/framework-xla.c): none there, framework.xla-toolchain-missing.
Written by tests/tools/mk-real-world-fixtures.py xla."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, link, mk2,
                              move_kernel, real_world, section, w)

TOPIC = "xla"
FIXTURES = ("rw-xla-libdevice-hpc-module-jax-22590",
            "rw-xla-libdevice-hpc-xla-flags-jax-22590",
            "rw-xla-libdevice-no-nvcc-cuda112-jax-6323",
            "rw-xla-ptxas-not-found-jax-7239")
BASE = "rtx4090-open-module"
URL_22590 = "https://github.com/jax-ml/jax/issues/22590"
URL_6323 = "https://github.com/jax-ml/jax/issues/6323"
URL_7239 = "https://github.com/jax-ml/jax/issues/7239"
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


def write():
    hpc_module()
    hpc_xla_flags()
    no_nvcc_cuda112()
    ptxas_not_found()
