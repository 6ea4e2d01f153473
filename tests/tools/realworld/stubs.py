# SPDX-License-Identifier: GPL-2.0-or-later
"""The toolkit's link-time stub libcuda on the loader path (runtime.stub-libcuda): a toolkit's
lib64/stubs directory on LD_LIBRARY_PATH, so a program that opens libcuda.so by name gets the
stub, which implements nothing. The machine around it is the rtx4090-open-module tree as the
report's GPU and driver (base_root)."""
from realworld.common import (SRC_BASE, base_root, ini, ldso_cache, link, move_kernel,
                              real_world, so, ubuntu_os_release, w)
from realworld.driver import userspace

TOPIC = "stubs"
FIXTURES = ("rw-numba-a100-cuda121-stubs-on-ld-path",)


def cuda_toolkit(root, prefix, version, cudart):
    """A runfile-installed toolkit at <prefix> (lib64 -> targets/x86_64-linux/lib, as the
    installer lays it out): version.json's top entries, libcudart, nvvm/lib64's libNVVM and
    the stubs directory's libcuda.so (SONAME libcuda.so.1, as NVIDIA ships it)."""
    w(root, f"{prefix}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n'
      '   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart)",\n      "version" : "%s"\n'
      '   }\n}\n' % (version, cudart))
    lib = f"{prefix}/targets/x86_64-linux/lib"
    so(root, f"{lib}/libcudart.so.{cudart}", "libcudart.so.12")
    link(root, f"{lib}/libcudart.so.12", f"libcudart.so.{cudart}")
    so(root, f"{lib}/stubs/libcuda.so", "libcuda.so.1")
    link(root, f"{prefix}/lib64", "targets/x86_64-linux/lib")
    # libNVVM, which numba compiles its kernels with, found through CUDA_PATH (nvcc's part of
    # the runfile toolkit: nvvm/lib64/libnvvm.so.4.0.0, SONAME libnvvm.so.4)
    so(root, f"{prefix}/nvvm/lib64/libnvvm.so.4.0.0", "libnvvm.so.4")
    link(root, f"{prefix}/nvvm/lib64/libnvvm.so.4", "libnvvm.so.4.0.0")
    link(root, f"{prefix}/nvvm/lib64/libnvvm.so", "libnvvm.so.4")
    w(root, f"{prefix}/bin/nvcc", "", 0o755)


def numba_8985():
    """numba/numba#8985: numba's cuInit fails on an A100 (driver 525.85.12) whose user had
    $CUDA_PATH/lib64/stubs on LD_LIBRARY_PATH; resetting it fixed it."""
    name = "rw-numba-a100-cuda121-stubs-on-ld-path"
    dst, root = base_root(name, 0x20f1, 0x145f, "NVIDIA A100-PCIE-40GB", "525.85.12")
    rel = "5.15.0-60-generic"
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "etc/os-release", ubuntu_os_release("22.04.1", "Jammy Jellyfish", "jammy"))
    userspace(root, "525.85.12")
    tk = "/scratch/user/opt/cuda-12.1"
    cuda_toolkit(root, tk, "12.1.1", "12.1.105")
    base = "/home/user/miniconda3"
    env = f"{base}/envs/pt_may23_compiled"
    site = f"{env}/lib/python3.10/site-packages"
    w(root, f"{env}/conda-meta/history", "==> 2023-05-20 10:01:00 <==\n"
      f"# cmd: {base}/bin/conda create -n pt_may23_compiled python=3.10\n")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n", 0o755)
    w(root, f"{env}/bin/python3.10", "", 0o755)
    link(root, f"{env}/bin/python", "python3.10")
    for dist, version in (("numba", "0.57.0"), ("llvmlite", "0.40.0")):
        d = f"{site}/{dist}-{version}.dist-info"
        w(root, f"{d}/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        w(root, f"{d}/INSTALLER", "pip\n")
        w(root, f"{d}/RECORD", f"{dist}/__init__.py,,\n")
        w(root, f"{site}/{dist}/__init__.py", "")
    ini(dst, TOPIC,
        "An A100 server on driver 525.85.12 whose user put $CUDA_PATH/lib64/stubs (CUDA 12.1 "
        "under /scratch) on LD_LIBRARY_PATH: numba opens libcuda.so by name and gets the "
        "toolkit's link-time stub, so cuInit fails (numba: 'Call to cuInit results in "
        "UNKNOWN_CUDA_ERROR'; ctypes shows libcuda.so is .../cuda-12.1/lib64/stubs/libcuda.so), "
        "while PyTorch, which loads libcuda.so.1, works",
        "Rebuilt from https://github.com/numba/numba/issues/8985 (pasted: the A100, driver "
        "525.85.12, the miniconda environment pt_may23_compiled with Python 3.10, numba's "
        "CudaAPIError from cuInit, `CDLL('libcuda.so')` resolving to "
        "/scratch/user/opt/cuda-12.1/lib64/stubs/libcuda.so (the reporter's user name replaced by user); the maintainer: the stub is "
        "for linking, is that path on LD_LIBRARY_PATH?; the reporter: 'I added "
        "$CUDA_PATH/lib64/stubs to LD_LIBRARY_PATH ... After I reset it, numba.cuda works'); not "
        "in the report and chosen here: the A100's board (PCIe 40GB, 10de:20f1), the "
        "distribution and kernel (Ubuntu 22.04, 5.15.0-60-generic; the thread names none), "
        "the toolkit's patch release 12.1.1 and its runfile layout, the numba 0.57.0 and "
        "llvmlite releases of May 2023, the rest of LD_LIBRARY_PATH and PATH; the driver's "
        "libcuda/libnvidia-ml and the toolkit's libraries are [elf] stand-ins with the real "
        "SONAMEs, etc/ld.so.cache written by glibc's ldconfig -r over the tree; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:{tk}/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "LD_LIBRARY_PATH": f"{tk}/lib64/stubs:{tk}/lib64",
         "CUDA_PATH": tk, "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda",
         "HOME": "/home/user"},
        real_world(
            "https://github.com/numba/numba/issues/8985",
            "numba.cuda.cudadrv.driver.CudaAPIError: [-1] Call to cuInit results in "
            "UNKNOWN_CUDA_ERROR; CDLL('libcuda.so') is "
            "/scratch/user/opt/cuda-12.1/lib64/stubs/libcuda.so",
            "the user had put the CUDA 12.1 toolkit's lib64/stubs on LD_LIBRARY_PATH, so numba "
            "loaded the link-time stub libcuda.so instead of the driver's; taking it off fixed "
            "numba",
            "runtime.stub-libcuda", "runtime", "yes"),
        "[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
        "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n",
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 525.85.12, -, none, NVIDIA\n")
    ldso_cache(dst)


def write():
    numba_8985()
