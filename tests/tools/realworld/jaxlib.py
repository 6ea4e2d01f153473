# SPDX-License-Identifier: GPL-2.0-or-later
"""JAX's own GPU code: a jaxlib CUDA wheel whose kernel modules (beside XLA's
xla_extension.so, which compiles its kernels at run time) reach the GPU only through PTX the
driver cannot JIT (framework.ptx-too-new-for-driver)."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, link, mk2,
                              move_kernel, real_world, section, so, w)

TOPIC = "jaxlib"
FIXTURES = ("rw-jaxlib0174-prng-ptx-rtx3080-r465",)
BASE = "rtx4090-open-module"


def dist(root, site, name, version):
    d = f"{site}/{name}-{version}.dist-info"
    w(root, f"{d}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    w(root, f"{d}/INSTALLER", "pip\n")
    w(root, f"{d}/RECORD", "")


def kernel_module(root, path, soname):
    """A jaxlib kernel module stand-in built by nvcc 13.0: SASS sm_75 and compute_80 PTX."""
    mk2.ELF.setdefault(root, []).append((path, f"cuda soname={soname} sass=75 ptx=80"))


def jaxlib0174_rtx3080_r465():
    """jax-ml/jax#8731: jaxlib 0.1.74+cuda11.cudnn82 on driver 465.19.01 (CUDA 11.3):
    "jaxlib/cuda_prng_kernels.cc:30: operation cudaGetLastError() failed: the provided PTX
    was compiled with an unsupported toolchain."."""
    name = "rw-jaxlib0174-prng-ptx-rtx3080-r465"
    drv, rel = "465.19.01", "5.11.0-41-generic"
    dst, root = base_root(name, 0x2206, 0x0000, "NVIDIA GeForce RTX 3080", drv)
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", rel)
    # pip install --user: the user site of Ubuntu 20.04's Python 3.8 (PEP 370)
    w(root, "usr/bin/python3.8", "")
    site = "/home/user/.local/lib/python3.8/site-packages"
    dist(root, site, "jax", "0.2.25")
    w(root, f"{site}/jax/version.py", '__version__ = "0.2.25"\n')
    dist(root, site, "jaxlib", "0.1.74+cuda11.cudnn82")
    w(root, f"{site}/jaxlib/version.py", '__version__ = "0.1.74"\n')
    for py in ("cuda_prng.py", "cusolver.py", "cuda_linalg.py"):
        w(root, f"{site}/jaxlib/{py}", "")
    so(root, f"{site}/jaxlib/xla_extension.so", "xla_extension.so")
    # the libdevice jaxlib's CUDA wheels bundle from 0.1.66 on (jax-ml/jax#6581), and the
    # report's CUDA 11.3 toolkit's ptxas (stand-in files: only their places are read)
    w(root, f"{site}/jaxlib/cuda/nvvm/libdevice/libdevice.10.bc", "")
    w(root, "usr/local/cuda-11.3/bin/ptxas", "", 0o755)
    link(root, "usr/local/cuda", "cuda-11.3")
    kernel_module(root, f"{site}/jaxlib/cuda_prng_kernels.so", "cuda_prng_kernels.so")
    kernel_module(root, f"{site}/jaxlib/cuda_lu_pivot_kernels.so", "cuda_lu_pivot_kernels.so")
    for m in ("cublas_kernels.so", "cusolver_kernels.so", "cusparse_kernels.so"):
        so(root, f"{site}/jaxlib/{m}", m)
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none\n"]
    pasted = ("E external/org_tensorflow/tensorflow/compiler/xla/pjrt/"
              "pjrt_stream_executor_client.cc:2086] Execution of replica 0 failed: INTERNAL: "
              "CustomCall failed: jaxlib/cuda_prng_kernels.cc:30: operation cudaGetLastError() "
              "failed: the provided PTX was compiled with an unsupported toolchain.")
    ini(dst, TOPIC,
        "Ubuntu 20.04 with an RTX 3080 (compute capability 8.6) on driver 465.19.01 (CUDA "
        "11.3) and jaxlib 0.1.74+cuda11.cudnn82 installed with pip --user: jaxlib's ThreeFry "
        "kernel module has no SASS the 8.6 GPU runs, only PTX from a newer CUDA toolchain than "
        "the R465 driver's JIT knows, so the first jax.random call fails with 'the provided PTX "
        "was compiled with an unsupported toolchain'; a newer driver (R470/R495) fixes it",
        "Rebuilt from https://github.com/jax-ml/jax/issues/8731 (pasted: Ubuntu 20.04, 'Nvidia "
        "driver 465.19.01', CUDA 11.3, cuDNN 8.2.1.32, 'Two GPUs: RTX 3080 and GTX 1080 Ti', the "
        "pip install of jaxlib-0.1.74+cuda11.cudnn82-cp38 from the jax-releases cuda11 "
        "bucket, the traceback under /home/<user>/.local/lib/python3.8/site-packages and the "
        "CustomCall error; the same error and fix, a newer driver, in "
        "YoshitakaMo/localcolabfold#44 and googlecolab/colabtools#2452); the error is the "
        "CUDA driver's PTX JIT refusing the PTX (CUDA_ERROR_UNSUPPORTED_PTX_VERSION), so the "
        "module had no SASS for the 8.6 GPU; placeholders, not in the report: one GPU (the "
        "RTX 3080, 10de:2206 GA102 [GeForce RTX 3080] in the base's single slot; the GTX 1080 "
        "Ti is not rebuilt), jax 0.2.25 (the jax release of November 2021), the kernel "
        "5.11.0-41-generic (20.04's HWE kernel then) and the module's place (updates/dkms); "
        "jaxlib's wheel layout of its 0.1.7x releases (build/build_wheel.py: "
        "xla_extension.so, cuda_prng_kernels.so, cuda_lu_pivot_kernels.so, cublas_kernels.so, "
        "cusolver_kernels.so, cusparse_kernels.so and the Python wrappers in jaxlib/); "
        "xla_extension.so and the cuBLAS/cuSOLVER/cuSPARSE wrappers are gcc-built stand-ins "
        "without GPU code (XLA compiles its kernels at run time; the wrappers call the CUDA "
        "libraries), the two modules with kernels of their own (ThreeFry, LU pivots) are "
        "nvcc 13.0 stand-ins with SASS sm_75 and compute_80 PTX of ISA 9.0 (the real ones' "
        "PTX is from CUDA 11.4 or later, which the CUDA 11.3 driver does not JIT either; no "
        "SASS either list runs on 8.6, the verdict is the same); the CUDA 11.3 toolkit and "
        "cuDNN are not rebuilt (jaxlib 0.1.74 opens them at run time; not what fails) but for "
        "the toolkit's bin/ptxas, which XLA compiled the program with (the error came from "
        "running it), placed as NVIDIA's runfile installs it (/usr/local/cuda-11.3, "
        "/usr/local/cuda its link: a placeholder); jaxlib's bundled "
        "jaxlib/cuda/nvvm/libdevice/libdevice.10.bc (jax-ml/jax#6581, from 0.1.66 on); "
        "Ubuntu 20.04's os-release; " + SRC_BASE,
        {"PATH": "/home/user/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "HOME": "/home/user"},
        real_world(
            "https://github.com/jax-ml/jax/issues/8731", pasted,
            "jaxlib 0.1.74's CUDA kernels reach the RTX 3080 only through PTX built by a newer "
            "CUDA than the 465 driver (CUDA 11.3) can JIT: upgrade the driver",
            "framework.ptx-too-new-for-driver", "framework", "yes"),
        *sections)


def write():
    jaxlib0174_rtx3080_r465()
