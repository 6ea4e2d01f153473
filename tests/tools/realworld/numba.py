# SPDX-License-Identifier: GPL-2.0-or-later
"""numba's CUDA target and libNVVM (framework.numba-nvvm-not-found): numba compiles its kernels
with the toolkit's libNVVM and looks for it in one place, the first of its list that is set
(CUDA_HOME before /usr/local/cuda); where that place holds none it opens the bare libnvvm.so,
which the loader does not find. The machine around it is the rtx4090-open-module tree as the
report's driver (base_root)."""
from realworld.common import (SRC_BASE, base_root, ini, ldso_cache, link, move_kernel,
                              real_world, so, ubuntu_os_release, w)
from realworld.driver import userspace

TOPIC = "numba"
FIXTURES = ("rw-numba-cuda-home-list-nvvm-9216", "numba-cuda118-home-nvvm-found")

URL_9216 = "https://github.com/numba/numba/issues/9216"
DEVICES = ("[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
           "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")


def cuda_toolkit(root, prefix, version, cudart, nvrtc, nvvm):
    """A runfile-installed toolkit at <prefix> as its installer lays it out: lib64 ->
    targets/x86_64-linux/lib with libcudart and libnvrtc (and the unversioned development
    links numba opens by name), nvvm/lib64 with libNVVM 4 (nvvm/lib64/libnvvm.so.4.0.0, its
    SONAME libnvvm.so.4), version.json's top entries."""
    w(root, f"{prefix}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n'
      '   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n      "version" : "%s"\n   }\n}\n'
      % (version, version))
    lib = f"{prefix}/targets/x86_64-linux/lib"
    so(root, f"{lib}/libcudart.so.{cudart}", "libcudart.so.11.0")
    link(root, f"{lib}/libcudart.so.11.0", f"libcudart.so.{cudart}")
    link(root, f"{lib}/libcudart.so", "libcudart.so.11.0")
    so(root, f"{lib}/libnvrtc.so.{nvrtc}", "libnvrtc.so.11.2")
    link(root, f"{lib}/libnvrtc.so.11.2", f"libnvrtc.so.{nvrtc}")
    link(root, f"{lib}/libnvrtc.so", "libnvrtc.so.11.2")
    link(root, f"{prefix}/lib64", "targets/x86_64-linux/lib")
    so(root, f"{prefix}/nvvm/lib64/libnvvm.so.{nvvm}", "libnvvm.so.4")
    link(root, f"{prefix}/nvvm/lib64/libnvvm.so.4", f"libnvvm.so.{nvvm}")
    link(root, f"{prefix}/nvvm/lib64/libnvvm.so", "libnvvm.so.4")
    w(root, f"{prefix}/bin/nvcc", "", 0o755)


def conda_env(root, base, name, dists):
    env = f"{base}/envs/{name}"
    site = f"{env}/lib/python3.8/site-packages"
    w(root, f"{env}/conda-meta/history", "==> 2023-09-20 10:01:00 <==\n"
      f"# cmd: {base}/bin/conda create -n {name} python=3.8\n")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n", 0o755)
    w(root, f"{env}/bin/python3.8", "", 0o755)
    link(root, f"{env}/bin/python", "python3.8")
    for dist, version in dists:
        d = f"{site}/{dist}-{version}.dist-info"
        w(root, f"{d}/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        w(root, f"{d}/INSTALLER", "pip\n")
        w(root, f"{d}/RECORD", f"{dist}/__init__.py,,\n")
        w(root, f"{site}/{dist}/__init__.py", "")
    return env


SOURCE_9216 = (
    "Rebuilt from https://github.com/numba/numba/issues/9216 (pasted: the miniconda "
    "environment monoflex with Python 3.8 under /home/zyf, numba's NvvmSupportError from "
    "nvvm.py's open_cudalib('nvvm') with 'libnvvm.so: cannot open shared object file', "
    "cuda.cudadrv.libs.test(): the driver loaded from libcuda.so, mapped to "
    "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05, 'Finding nvvm from CUDA_HOME / Located "
    "at libnvvm.so / ERROR: failed to open nvvm', nvrtc and cudart from CUDA_HOME opened by "
    "their bare names; the maintainer: the user had `export "
    "CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8`, CUDA_HOME must be a path, not a "
    "colon-separated list; the reporter: with CUDA_HOME=/usr/local/cuda-11.8 'It work "
    "well'); not in the report and chosen here: CUDA_HOME's value is "
    "':/usr/local/cuda-11.8' (that export with CUDA_HOME unset before it), LD_LIBRARY_PATH "
    "names /usr/local/cuda-11.8/lib64 (where the bare libnvrtc.so and libcudart.so that "
    "opened are found), the toolkit's patch release 11.8.0 and its runfile layout with the "
    "/usr/local/cuda link, the numba 0.58.0 and llvmlite 0.41.0 releases of September 2023, "
    "the GPU (the base fixture's RTX 4090: the thread names none), Ubuntu 22.04 and its "
    "kernel; the prompt's host name (4c37173a9629) looks like a container's but the thread "
    "does not say so, and the torch in that environment (its release is not shown) is left "
    "out; the driver's libcuda/libnvidia-ml and the toolkit's libraries are [elf] stand-ins "
    "with the real SONAMEs, etc/ld.so.cache written by glibc's ldconfig -r over the tree; ")


def machine(name, cuda_home):
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "535.104.05")
    rel = "5.15.0-84-generic"
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "etc/os-release", ubuntu_os_release("22.04.3", "Jammy Jellyfish", "jammy"))
    userspace(root, "535.104.05")
    tk = "/usr/local/cuda-11.8"
    cuda_toolkit(root, tk, "11.8.0", "11.8.89", "11.8.89", "4.0.0")
    link(root, "/usr/local/cuda", "cuda-11.8")
    base = "/home/zyf/miniconda3"
    env = conda_env(root, base, "monoflex", (("numba", "0.58.0"), ("llvmlite", "0.41.0")))
    variables = {"PATH": f"{env}/bin:{base}/condabin:{tk}/bin:/usr/local/sbin:/usr/local/bin:"
                         "/usr/sbin:/usr/bin:/sbin:/bin",
                 "LD_LIBRARY_PATH": f"{tk}/lib64", "CUDA_HOME": cuda_home,
                 "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda", "HOME": "/home/zyf"}
    return dst, root, rel, variables


def numba_9216():
    """numba/numba#9216: CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8, so numba looked for
    libNVVM in ':/usr/local/cuda-11.8/nvvm/lib64' and then by the bare name; fixed by
    CUDA_HOME=/usr/local/cuda-11.8."""
    name = "rw-numba-cuda-home-list-nvvm-9216"
    dst, root, rel, variables = machine(name, ":/usr/local/cuda-11.8")
    ini(dst, TOPIC,
        "An RTX 4090 machine on driver 535.104.05 with CUDA 11.8 in /usr/local/cuda-11.8 whose "
        "user set CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8: numba takes CUDA_HOME as one "
        "directory, finds no libnvvm.so.<version> in ':/usr/local/cuda-11.8/nvvm/lib64', opens "
        "the bare libnvvm.so, which the loader does not find (nvvm/lib64 is on no search "
        "path), and every @cuda.jit kernel fails with NvvmSupportError",
        SOURCE_9216 + SRC_BASE,
        variables,
        real_world(
            URL_9216,
            "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda "
            "install cudatoolkit`: libnvvm.so: cannot open shared object file: No such file "
            "or directory",
            "CUDA_HOME was set to a colon-separated list ($CUDA_HOME:/usr/local/cuda-11.8), "
            "so numba looked for libNVVM under that whole string and then by the bare name "
            "libnvvm.so, which the loader does not find; CUDA_HOME=/usr/local/cuda-11.8 fixed "
            "it",
            "framework.numba-nvvm-not-found", "framework", "yes"),
        DEVICES,
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 535.104.05, -, none, NVIDIA\n")
    ldso_cache(dst)


def numba_9216_fixed():
    """The same machine with the thread's fix, CUDA_HOME=/usr/local/cuda-11.8: numba finds
    nvvm/lib64/libnvvm.so.4.0.0 there (the negative of framework.numba-nvvm-not-found)."""
    name = "numba-cuda118-home-nvvm-found"
    dst, root, rel, variables = machine(name, "/usr/local/cuda-11.8")
    ini(dst, TOPIC,
        "The machine of numba/numba#9216 after the thread's fix: CUDA_HOME=/usr/local/cuda-11.8 "
        "names the toolkit, whose nvvm/lib64 holds libnvvm.so.4.0.0, so numba compiles its "
        "kernels (healthy)",
        "The machine of " + URL_9216 + " with the fix the reporter confirmed "
        "(CUDA_HOME=/usr/local/cuda-11.8); otherwise as rw-numba-cuda-home-list-nvvm-9216: "
        + SOURCE_9216 + SRC_BASE,
        variables, "",
        DEVICES,
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 535.104.05, -, none, NVIDIA\n")
    ldso_cache(dst)


def write():
    numba_9216()
    numba_9216_fixed()
