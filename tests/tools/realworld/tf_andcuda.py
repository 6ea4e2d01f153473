# SPDX-License-Identifier: GPL-2.0-or-later
"""TensorFlow 2.16 from pip with the and-cuda extra: the nvidia-* wheels it pulls in are in the
environment, but TensorFlow 2.16's libraries do not find them (no run path into site-packages/
nvidia/*/lib as 2.15's had), so without LD_LIBRARY_PATH naming those directories it cannot
dlopen the CUDA libraries and registers no GPU (runtime.library-not-found); with them named it
runs. Written by `tests/tools/mk-real-world-fixtures.py tf_andcuda`.
"""
from realworld.common import (SRC_BASE, base_root, ini, ldso_cache, mk2, real_world, section,
                              ubuntu_os_release, venv, w)
from realworld.cudnn import cudnn_wheel, ld_conf, tensorflow, tf_build_info
from realworld.xla import nvcc_wheel

TOPIC = "tf_andcuda"
FIXTURES = ("rw-tf2161-andcuda-wheels-unfound-tensorflow-63362",
            "rw-tf2161-andcuda-ld-library-path-tensorflow-63362")
URL = "https://github.com/tensorflow/tensorflow/issues/63362"
PREFIX = "/home/user/tf216"
# tensorflow v2.16.1 tensorflow/tools/pip_package/setup.py, extras_require['and-cuda']: the
# nvidia-* wheels and the libraries of each that TensorFlow opens (nvidia/<dir>/lib/<soname>).
AND_CUDA = (("nvidia-cublas-cu12", "12.3.4.1", "cublas/lib",
             ("libcublas.so.12", "libcublasLt.so.12")),
            ("nvidia-cuda-cupti-cu12", "12.3.101", "cuda_cupti/lib", ("libcupti.so.12",)),
            ("nvidia-cuda-nvrtc-cu12", "12.3.107", "cuda_nvrtc/lib", ("libnvrtc.so.12",)),
            ("nvidia-cuda-runtime-cu12", "12.3.101", "cuda_runtime/lib", ("libcudart.so.12",)),
            ("nvidia-cufft-cu12", "11.0.12.1", "cufft/lib", ("libcufft.so.11",)),
            ("nvidia-curand-cu12", "10.3.4.107", "curand/lib", ("libcurand.so.10",)),
            ("nvidia-cusolver-cu12", "11.5.4.101", "cusolver/lib", ("libcusolver.so.11",)),
            ("nvidia-cusparse-cu12", "12.2.0.103", "cusparse/lib", ("libcusparse.so.12",)),
            ("nvidia-nccl-cu12", "2.19.3", "nccl/lib", ("libnccl.so.2",)),
            ("nvidia-nvjitlink-cu12", "12.3.101", "nvjitlink/lib", ("libnvJitLink.so.12",)))
CUDNN = ("nvidia-cudnn-cu12", "8.9.7.29")
NVCC = ("nvidia-cuda-nvcc-cu12", "12.3.107")
PASTED = ("W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU "
          "libraries. Please make sure the missing libraries mentioned above are installed "
          "properly if you would like to use GPU. Skipping registering GPU devices...")
SOURCE = (f"Rebuilt from {URL} (pasted: 'Linux Ubuntu 22.04.4 LTS', Python 3.10.12, TF 2.16.1 "
          "installed in a venv with `python3 -m pip install tensorflow[and-cuda]`, "
          "tf.config.list_physical_devices('GPU') returning [], 'NVIDIA-SMI 550.54.14 Driver "
          "Version: 550.54.14 CUDA Version: 12.4', TF 2.15.1 working on the same machine; the "
          "thread's finding, confirmed by the reporter and others: TensorFlow 2.16.1 does not "
          "find the libraries of the nvidia-* wheels it installed, and adding each "
          "site-packages/nvidia/*/lib to LD_LIBRARY_PATH makes the GPU appear; "
          "tensorflow/tensorflow#65842 reports the same of 2.16.1); the nvidia-* wheels and "
          "versions are the and-cuda extra of tensorflow v2.16.1 tensorflow/tools/pip_package/"
          "setup.py, each library an [elf] stand-in with its real SONAME under "
          "nvidia/<package>/lib, nvidia-cuda-nvcc-cu12 12.3.107 with no library but the ptxas "
          "and libdevice XLA finds in nvidia/cuda_nvcc (bin/ptxas, nvvm/libdevice/"
          "libdevice.10.bc: stand-in files); build_info.py with TF 2.16's CUDA 12.3 (tested build "
          "configurations, tensorflow/docs site/en/install/source.md) in gen_build_info.py's "
          "form; placeholders, not in the report: the venv's path, the GPU (the base fixture's "
          "RTX 4090), no other CUDA on the machine; ")


def tf216_tree(name):
    """The reporter's machine: TF 2.16.1 and the and-cuda wheels in a Python 3.10 venv on
    Ubuntu 22.04.4 with driver 550.54.14. Returns (dst, root, site)."""
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "550.54.14",
                          flavor="open")
    w(root, "etc/os-release", ubuntu_os_release("22.04.4", "Jammy Jellyfish", "jammy", logo=False))
    ld_conf(root)
    site = venv(root, PREFIX, "3.10.12")
    for name_, version, libdir, libs in AND_CUDA:
        mk2.nvidia_wheel(root, site, name_, version, libdir, libs)
    cudnn_wheel(root, site, *CUDNN)
    nvcc_wheel(root, site, NVCC[1])
    requires = [f"{n}=={v}; extra == \"and-cuda\"" for n, v, _, _ in AND_CUDA]
    requires.append(f"{CUDNN[0]}=={CUDNN[1]}; extra == \"and-cuda\"")
    requires.append(f"{NVCC[0]}=={NVCC[1]}; extra == \"and-cuda\"")
    tensorflow(root, site, "2.16.1", "tensorflow",
               tf_build_info("12.3", ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"]),
               requires)
    return dst, root, site


def wheels_unfound():
    dst, root, site = tf216_tree(FIXTURES[0])
    ini(dst, TOPIC,
        "TensorFlow 2.16.1 and the nvidia-* wheels of its and-cuda extra in a Python 3.10 venv "
        "on Ubuntu 22.04.4 with driver 550.54.14, LD_LIBRARY_PATH unset: TensorFlow 2.16's "
        "libraries carry no run path into site-packages/nvidia/*/lib, so it cannot dlopen "
        "cudart, cuBLAS, cuDNN … and lists no GPU",
        SOURCE + "LD_LIBRARY_PATH unset, as the reporter's first try had it; " + SRC_BASE,
        {"PATH": f"{PREFIX}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "VIRTUAL_ENV": PREFIX, "HOME": "/home/user"},
        real_world(
            URL, PASTED,
            "TensorFlow 2.16.1 does not find the nvidia-* wheels' libraries that its and-cuda "
            "extra installed (they are on no loader path and 2.16's libraries have no run path "
            "to them), so it cannot load the CUDA libraries and skips the GPU; putting each "
            "site-packages/nvidia/*/lib on LD_LIBRARY_PATH fixes it",
            "runtime.library-not-found", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def ld_library_path_set():
    dst, root, site = tf216_tree(FIXTURES[1])
    dirs = [f"{site}/nvidia/{libdir}" for _, _, libdir, _ in AND_CUDA]
    dirs.append(f"{site}/nvidia/cudnn/lib")
    ini(dst, TOPIC,
        "The same venv after the thread's fix: LD_LIBRARY_PATH names each site-packages/"
        "nvidia/*/lib of the and-cuda wheels, so TensorFlow 2.16.1 loads them and lists the GPU",
        SOURCE + "LD_LIBRARY_PATH as the thread's activate script sets it (every "
        "nvidia/*/lib directory that exists; the order is the packages' here); " + SRC_BASE,
        {"PATH": f"{PREFIX}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "VIRTUAL_ENV": PREFIX, "HOME": "/home/user", "LD_LIBRARY_PATH": ":".join(dirs)},
        real_world(
            URL, "print(tf.config.list_physical_devices('GPU')) returns a non-empty list",
            "with each site-packages/nvidia/*/lib on LD_LIBRARY_PATH TensorFlow 2.16.1 finds "
            "the and-cuda wheels' libraries and the GPU: nothing is wrong",
            "none", "none", "no"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def write():
    wheels_unfound()
    ld_library_path_set()
