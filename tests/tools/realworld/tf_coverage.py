# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of framework.no-kernel-image for TensorFlow (tests/fixtures/rw-tf-*):
a TensorFlow pip build whose GPU code does not cover the GPU. TensorFlow's kernel libraries
are [elf] lines of kind fatbin (tests/tools/fatbin_writer.py): containers with the SASS and
PTX targets of the release's build, in the headers' form of the toolkit that built it (nvcc
13.0 cannot target below sm_75), the code a stand-in. Written by
`tests/tools/mk-real-world-fixtures.py tf_coverage`.
"""
from realworld.common import SRC_BASE, ini, link, mk2, real_world, section, so, w
from realworld.libs import (BASE, TF_CAPS_23, UBUNTU1804_OS_RELEASE, dist_info,
                            cuda101_toolkit, laptop_host, tf_build_info)

TOPIC = "tf_coverage"
FIXTURES = ("rw-tf23-mx130-no-kernel-image",)


def fatbin_so(root, path, soname, caps, ptxisa, needed=()):
    """A TensorFlow library holding GPU code for caps (sm_XY SASS, compute_XY PTX)."""
    sass = ",".join(c[3:] for c in caps if c.startswith("sm_"))
    ptx = ",".join(c[8:] for c in caps if c.startswith("compute_"))
    spec = f"fatbin soname={soname} sass={sass} ptx={ptx} ptxisa={ptxisa}"
    if needed:
        spec += " needed=" + ",".join(needed)
    mk2.ELF.setdefault(root, []).append((path, spec))


def tf23_mx130():
    """tensorflow/tensorflow#41892: TF 2.3 from pip, as tensorflow.org's Ubuntu 18.04 / CUDA
    10.1 guide installs it, on a GeForce MX130 (GM108M, compute capability 5.0): 'CUDA runtime
    implicit initialization on GPU:0 failed. Status: device kernel image is invalid'."""
    name = "rw-tf23-mx130-no-kernel-image"
    dst, root, modules = laptop_host(name, 0x174d, "GeForce MX130", "450.57",
                                     UBUNTU1804_OS_RELEASE, "5.4.0-42-generic")
    site = "/usr/local/lib/python3.6/dist-packages"
    w(root, "/usr/bin/python3", "")
    dist_info(root, site, "tensorflow", "2.3.0")
    tf_build_info(root, site, "10.1", "7", TF_CAPS_23, "/dt7/usr/bin/gcc")
    tf = f"{site}/tensorflow"
    # CUDA 10.1 writes PTX ISA 6.4 (PTX ISA release notes: 6.4 came with CUDA 10.1)
    fatbin_so(root, f"{tf}/python/_pywrap_tensorflow_internal.so",
              "_pywrap_tensorflow_internal.so", TF_CAPS_23, "6.4",
              needed=("libtensorflow_framework.so.2",))
    fatbin_so(root, f"{tf}/libtensorflow_framework.so.2", "libtensorflow_framework.so.2",
              TF_CAPS_23, "6.4")
    tk = "/usr/local/cuda-10.1"
    link(root, "usr/local/cuda", tk)
    cuda101_toolkit(root, tk)
    so(root, f"{tk}/lib64/libcudnn.so.7.6.5", "libcudnn.so.7")
    link(root, f"{tk}/lib64/libcudnn.so.7", "libcudnn.so.7.6.5")
    pasted = ("tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
              "initialization on GPU:0 failed. Status: device kernel image is invalid")
    ini(dst, TOPIC,
        "A laptop with a GeForce MX130 (Maxwell GM108M, compute capability 5.0) on Ubuntu "
        "18.04.4 with CUDA 10.1 and cuDNN 7 as tensorflow.org's guide installs them, TensorFlow "
        "2.3.0 from pip for Python 3.6: its GPU code is SASS for 3.5 3.7 5.2 6.0 6.1 and PTX "
        "for 7.0, nothing a 5.0 GPU runs, and the first kernel fails",
        "Rebuilt from https://github.com/tensorflow/tensorflow/issues/41892 (pasted: Ubuntu "
        "18.04.4, TensorFlow 2.3 binary from pip as tensorflow.org's Ubuntu 18.04 CUDA 10.1 "
        "instructions install it, Python 3.6, CUDA 10.1, cuDNN 7, 'GeForce MX130, 2GB', the "
        "InternalError, and 'On Tensorflow 2.2, I don't get the error'); TensorFlow 2.3.0's "
        "GPU targets: its release build's TF_CUDA_COMPUTE_CAPABILITIES (tensorflow v2.3.0 "
        "tensorflow/tools/ci_build/release/ubuntu_16/gpu_py38_full/pip.sh), what cuobjdump "
        "shows in 2.3.1 (tensorflow/tensorflow#46537) and the pip package's list a TensorFlow "
        "developer gave (3.5, 3.7, 5.2, 6.0, 6.1, 7.0: tensorflow/tensorflow#41990); the "
        "kernel libraries _pywrap_tensorflow_internal.so and libtensorflow_framework.so.2 are "
        "stand-ins holding one fat binary container with those targets in CUDA 10.1's header "
        "form (PTX ISA 6.4, cubin ELF ABI 7; tests/tools/fatbin_writer.py: no real code); "
        "placeholders, not in the report: the GPU in the base's single slot as 10de:174d "
        "GM108M [GeForce MX130], the driver 450.57 (the R450 the guide's nvidia-driver-450 "
        "gave in July 2020) under updates/dkms, the kernel 5.4.0-42-generic (18.04.4's HWE "
        "kernel), 18.04.5's os-release, TensorFlow in /usr/local/lib/python3.6/dist-packages, "
        "CUDA 10.1.243 with cuDNN 7.6.5 in /usr/local/cuda-10.1/lib64 and LD_LIBRARY_PATH "
        "naming it (the libraries TensorFlow opens are found: the failure is the kernel); "
        "build_info.py with TensorFlow 2.3's CUDA 10.1 / cuDNN 7; " + SRC_BASE,
        {"PATH": "/usr/local/cuda-10.1/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin",
         "LD_LIBRARY_PATH": "/usr/local/cuda-10.1/lib64:/usr/local/cuda/extras/CUPTI/lib64",
         "HOME": "/home/user"},
        real_world("https://github.com/tensorflow/tensorflow/issues/41892", pasted,
                   "TensorFlow 2.3's pip build has SASS for compute capability 3.5 3.7 5.2 6.0 "
                   "6.1 and PTX for 7.0 only (release notes: 'PTX kernels only for compute "
                   "capability 7.0'); SASS runs only on its own major with an equal or higher "
                   "minor and PTX only on its own or newer GPUs, so nothing runs on a 5.0 GPU; "
                   "TensorFlow 2.2 ran (its PTX covered 5.0) and 2.4 builds sm_50 "
                   "(tensorflow/tensorflow#41990, #46537)",
                   "framework.no-kernel-image", "framework", "yes"),
        section(BASE, "devices"), modules)


def write():
    tf23_mx130()
