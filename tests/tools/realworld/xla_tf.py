# SPDX-License-Identifier: GPL-2.0-or-later
"""TensorFlow's XLA and the CUDA toolchain it compiles with at run time: the same XLA as jax's,
searching TensorFlow's own roots for libdevice (nvvm/libdevice/libdevice.10.bc) and ptxas
(src/probe/framework-xla.c, probe_xla_toolchain_tf()). From 2.11 on Keras compiles its
optimizer steps with XLA, so model.fit fails where none holds them
(framework.xla-toolchain-missing). Written by tests/tools/mk-real-world-fixtures.py xla_tf."""
from realworld.common import (SRC_BASE, base_root, ini, ldso_cache, link, mk2, real_world,
                              section, so, ubuntu_os_release, w)
from realworld.cudnn import CUDA_122, CUDATOOLKIT_11, cudnn_lib, ld_conf, tensorflow, tf_build_info
from realworld.xla import nvcc_wheel

TOPIC = "xla_tf"
FIXTURES = ("rw-xla-tf215-no-nvcc-gpu-jupyter-129",
            "rw-xla-tf215-nvcc-wheel-gpu-jupyter-130",
            "rw-xla-tf211-conda-no-nvcc-tensorflow-58681",
            "rw-xla-tf211-conda-xla-flags-tensorflow-58681")
BASE = "rtx4090-open-module"
URL_129 = "https://github.com/iot-salzburg/gpu-jupyter/issues/129"
URL_130 = "https://github.com/iot-salzburg/gpu-jupyter/pull/130"
URL_58681 = "https://github.com/tensorflow/tensorflow/issues/58681"
GPU = (0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "570.133.07")
PLACEHOLDER_GPU = ("the GPU and driver (the base fixture's RTX 4090 on the open module 570.133.07; "
                   "the report shows neither)")
PATH_TAIL = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# iot-salzburg/gpu-jupyter#129: the image's conda prefix and its Python 3.11 site-packages, as
# the "Searched for CUDA" lines print them
CONDA = "/opt/conda"
SITE_129 = f"{CONDA}/lib/python3.11/site-packages"
CUDA_120 = "/usr/local/cuda-12.0"
PASTED_129 = (
    "W external/local_xla/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:504] Can't find "
    "libdevice directory ${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime "
    "failures, if the program we try to run uses routines from libdevice. Searched for CUDA in "
    "the following directories: ./cuda_sdk_lib /usr/local/cuda-12.2 /usr/local/cuda "
    f"{SITE_129}/tensorflow/python/platform/../../../nvidia/cuda_nvcc "
    f"{SITE_129}/tensorflow/python/platform/../../../../nvidia/cuda_nvcc")
SOURCE_129 = (
    f"Rebuilt from {URL_129} (pasted: TensorFlow in the gpu-jupyter image "
    "v1.5_cuda-12.0_ubuntu-22.04 finds no libdevice, the roots it searched: ./cuda_sdk_lib, "
    f"/usr/local/cuda-12.2, /usr/local/cuda, {SITE_129}/tensorflow/python/platform/../../../"
    "nvidia/cuda_nvcc and ../../../../nvidia/cuda_nvcc; the cause, settled by the reporter's "
    f"merged fix {URL_130} ('Install nvidia-cuda-nvcc to provide additional libraries such as "
    "libdevice which are required when using TensorFlow', 'TF 2.15 expects' CUDA 12.2, "
    "'Fixes #129'): no nvidia-cuda-nvcc wheel, so no libdevice where XLA searches); "
    "TensorFlow 2.15.0 (the release the fix names) from pip in the image's conda prefix "
    f"{CONDA} with CPython 3.11, its build_info (CUDA 12.2, cuDNN major 8) in "
    "gen_build_info.py's form; the image's CUDA 12.0 (its tag) as NVIDIA's runtime images lay "
    f"it out: the runtime libraries TF 2.15 opens in {CUDA_120}/targets/x86_64-linux/lib with "
    "its ld.so.conf.d entry and /usr/local/cuda -> cuda-12.0, no nvcc component (no bin/ptxas, "
    "no nvvm/); placeholders, not in the report: cuDNN 8.9.4 (the release TF 2.15 was compiled "
    f"with) as NVIDIA's libcudnn8 package installs it, Ubuntu 22.04.3, {PLACEHOLDER_GPU}; ")

# tensorflow/tensorflow#58681: TensorFlow 2.11.0 installed by tensorflow.org/install/pip's
# recipe of the time: a conda environment `tf` with Python 3.9, conda-forge's cudatoolkit 11.2
# and cudnn 8.1.0, pip's tensorflow, LD_LIBRARY_PATH=$CONDA_PREFIX/lib/
MINICONDA = "/home/user/miniconda3"
ENV_58681 = f"{MINICONDA}/envs/tf"
SITE_58681 = f"{ENV_58681}/lib/python3.9/site-packages"
GPU_58681 = (0x1c03, 0x0000, "NVIDIA GeForce GTX 1060 6GB", "525.60.11")
TF_CAPS_211 = ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "compute_80"]
PASTED_58681 = "Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice."
SOURCE_58681 = (
    f"Rebuilt from {URL_58681} (pasted: TensorFlow 2.11.0 from pip following "
    "tensorflow.org/install/pip, Python 3.9.15, 'CUDA 11.2, cuDNN 8.1.0', a GTX 1060 6GB, "
    "Ubuntu 22.04.01, model.fit of a Keras Sequential model with the adam optimizer failing "
    "with 'Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice.'; the fix the thread "
    "settled on, which went into the install guide's Ubuntu 22.04 section: install cuda-nvcc "
    "11.3.58 from the nvidia channel, XLA_FLAGS=--xla_gpu_cuda_data_dir=$CONDA_PREFIX/lib/ and "
    "libdevice.10.bc copied from $CONDA_PREFIX/lib to $CONDA_PREFIX/lib/nvvm/libdevice/); the "
    "guide's environment of 2.11: a conda environment named tf with Python 3.9, conda-forge's "
    "cudatoolkit 11.2 and cudnn 8.1.0 (the CUDA 11 libraries TensorFlow opens by name and "
    "libcudnn.so.8 in its lib/, [elf] stand-ins; conda-meta holds its history only), "
    "LD_LIBRARY_PATH=$CONDA_PREFIX/lib/ as the guide sets it; TensorFlow 2.11's build_info "
    "(CUDA 11.2, cuDNN major 8) in gen_build_info.py's form; placeholders, not in the "
    f"report: Miniconda in {MINICONDA}, no other CUDA on the machine, the GPU's subsystem id, "
    "driver 525.60.11, the rest of the base fixture; ")


def tf215_tree(name):
    """The gpu-jupyter image of #129: TF 2.15.0 in /opt/conda over the image's CUDA 12.0
    runtime. Returns (dst, root)."""
    dst, root = base_root(name, *GPU, flavor="open", audio=0x22ba)
    w(root, "etc/os-release", ubuntu_os_release("22.04.3", "Jammy Jellyfish", "jammy",
                                                logo=False))
    ld_conf(root)
    lib = f"{CUDA_120}/targets/x86_64-linux/lib"
    w(root, "etc/ld.so.conf.d/cuda-12-0.conf", lib + "\n")
    for soname in CUDA_122:
        so(root, f"{lib}/{soname}", soname)
    link(root, "usr/local/cuda", "cuda-12.0")
    cudnn_lib(root, "usr/lib/x86_64-linux-gnu", "8.9.4")
    w(root, f"{CONDA}/conda-meta/history", "==> 2024-01-08 20:00:00 <==\n")
    w(root, f"{CONDA}/bin/python3.11", "", 0o755)
    link(root, f"{CONDA}/bin/python3", "python3.11")
    link(root, f"{CONDA}/bin/python", "python3.11")
    tensorflow(root, SITE_129, "2.15.0", "tensorflow",
               tf_build_info("12.2", ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"]))
    return dst, root


def env_129():
    return {"PATH": f"{CONDA}/bin:{PATH_TAIL}", "CONDA_PREFIX": CONDA, "HOME": "/home/jovyan"}


def tf215_no_nvcc():
    dst, _ = tf215_tree(FIXTURES[0])
    ini(dst, TOPIC,
        "TensorFlow 2.15.0 in a Jupyter image's conda prefix over the image's CUDA 12.0 "
        "runtime libraries, no nvidia-cuda-nvcc wheel and no toolkit's nvcc: none of the "
        "places TensorFlow's XLA searches holds libdevice or ptxas, so model.fit fails",
        SOURCE_129 + SRC_BASE, env_129(),
        real_world(URL_129, PASTED_129,
                   "TensorFlow's XLA finds no libdevice (and no ptxas) in the image: the "
                   "nvidia-cuda-nvcc wheel that holds them was not installed; the merged fix "
                   "installs it",
                   "framework.xla-toolchain-missing", "framework", "yes"),
        section(BASE, "devices"))
    ldso_cache(dst)


def tf215_nvcc_wheel():
    dst, root = tf215_tree(FIXTURES[1])
    nvcc_wheel(root, SITE_129, "12.2.140")
    ini(dst, TOPIC,
        "The same image after the merged fix: the nvidia-cuda-nvcc-cu12 wheel in the conda "
        "prefix's site-packages, whose nvidia/cuda_nvcc TensorFlow's XLA searches, holds "
        "libdevice and ptxas: nothing is wrong",
        SOURCE_129 + f"after {URL_130}: nvidia-cuda-nvcc-cu12 12.2.140 (placeholder: the "
        "version tensorflow 2.15's and-cuda extra pins; the pull request names none) as pip "
        "installs it (nvidia/cuda_nvcc/bin/ptxas, nvvm/libdevice/libdevice.10.bc: stand-in "
        "files); conda's cuda-nvcc the pull request also pins is not rebuilt (the wheel is "
        "what XLA finds first); " + SRC_BASE, env_129(),
        real_world(URL_130, "(the merged fix: pip install nvidia-cuda-nvcc; 'Fixes #129')",
                   "with the nvidia-cuda-nvcc wheel installed TensorFlow's XLA finds libdevice "
                   "and ptxas beside the package: nothing is wrong",
                   "none", "none", "no"),
        section(BASE, "devices"))
    ldso_cache(dst)


def tf211_tree(name):
    """#58681's conda environment: TF 2.11.0 from pip over conda-forge's cudatoolkit 11.2 and
    cudnn 8.1.0. Returns (dst, root)."""
    dst, root = base_root(name, *GPU_58681)
    w(root, "etc/os-release", ubuntu_os_release("22.04.1", "Jammy Jellyfish", "jammy",
                                                logo=False))
    w(root, f"{MINICONDA}/conda-meta/history", "==> 2022-11-24 22:00:00 <==\n")
    w(root, f"{MINICONDA}/bin/conda", "#!/bin/sh\n", 0o755)
    w(root, f"{ENV_58681}/conda-meta/history",
      f"==> 2022-11-24 22:10:00 <==\n# cmd: {MINICONDA}/bin/conda create --name tf "
      "python=3.9\n==> 2022-11-24 22:15:00 <==\n# cmd: "
      f"{MINICONDA}/bin/conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0\n")
    w(root, f"{ENV_58681}/bin/python3.9", "", 0o755)
    link(root, f"{ENV_58681}/bin/python3", "python3.9")
    link(root, f"{ENV_58681}/bin/python", "python3.9")
    for soname in CUDATOOLKIT_11:
        so(root, f"{ENV_58681}/lib/{soname}", soname)
    so(root, f"{ENV_58681}/lib/libcudnn.so.8", "libcudnn.so.8")
    tensorflow(root, SITE_58681, "2.11.0", "tensorflow", tf_build_info("11.2", TF_CAPS_211))
    return dst, root


def env_58681(xla_flags):
    v = {"PATH": f"{ENV_58681}/bin:{MINICONDA}/condabin:{PATH_TAIL}", "CONDA_PREFIX": ENV_58681,
         "CONDA_DEFAULT_ENV": "tf", "LD_LIBRARY_PATH": f"{ENV_58681}/lib/",
         "HOME": "/home/user"}
    if xla_flags:
        v["XLA_FLAGS"] = xla_flags
    return v


def tf211_no_nvcc():
    dst, _ = tf211_tree(FIXTURES[2])
    ini(dst, TOPIC,
        "TensorFlow 2.11.0 from pip in a conda environment with conda-forge's cudatoolkit 11.2 "
        "and cuDNN 8.1.0, as the install guide of the time made it, no nvcc: XLA, which Keras "
        "2.11 compiles its optimizers with, finds no libdevice and no ptxas, so model.fit fails",
        SOURCE_58681 + "XLA_FLAGS unset; " + SRC_BASE, env_58681(None),
        real_world(URL_58681, PASTED_58681,
                   "the conda environment the install guide made has CUDA's libraries but no "
                   "nvcc component: XLA finds no libdevice and no ptxas; installing cuda-nvcc "
                   "and pointing XLA_FLAGS at a directory with nvvm/libdevice fixes it",
                   "framework.xla-toolchain-missing", "framework", "yes"),
        section(BASE, "devices"))
    ldso_cache(dst)


def tf211_xla_flags():
    dst, root = tf211_tree(FIXTURES[3])
    # the nvidia channel's cuda-nvcc 11.3.58: bin/ptxas, and lib/libdevice.10.bc, which the
    # guide's fix copies to lib/nvvm/libdevice/ (stand-in files)
    w(root, f"{ENV_58681}/bin/ptxas", "", 0o755)
    w(root, f"{ENV_58681}/bin/nvcc", "", 0o755)
    w(root, f"{ENV_58681}/lib/libdevice.10.bc", "")
    w(root, f"{ENV_58681}/lib/nvvm/libdevice/libdevice.10.bc", "")
    ini(dst, TOPIC,
        "The same environment after the thread's fix: cuda-nvcc 11.3.58 from the nvidia "
        "channel (ptxas on PATH), libdevice.10.bc copied to $CONDA_PREFIX/lib/nvvm/libdevice "
        "and XLA_FLAGS=--xla_gpu_cuda_data_dir=$CONDA_PREFIX/lib/: nothing is wrong",
        SOURCE_58681 + "the fix's files as the guide names them (bin/ptxas, lib/"
        "libdevice.10.bc and its copy: stand-in files); " + SRC_BASE,
        env_58681(f"--xla_gpu_cuda_data_dir={ENV_58681}/lib/"),
        real_world(URL_58681, "(the thread's fix, in the install guide: conda install -c "
                   "nvidia cuda-nvcc=11.3.58; XLA_FLAGS=--xla_gpu_cuda_data_dir=$CONDA_PREFIX/"
                   "lib/; libdevice.10.bc copied to $CONDA_PREFIX/lib/nvvm/libdevice/)",
                   "XLA_FLAGS names a directory with nvvm/libdevice and ptxas is on PATH: "
                   "nothing is wrong",
                   "none", "none", "no"),
        section(BASE, "devices"))
    ldso_cache(dst)


def write():
    tf215_no_nvcc()
    tf215_nvcc_wheel()
    tf211_no_nvcc()
    tf211_xla_flags()
