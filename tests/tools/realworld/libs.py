# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of runtime.library-not-found (tests/fixtures/rw-libs-*): a GPU library a
framework opens by name (TensorFlow's dso_loader, CuPy 13's NVRTC) that the loader finds
nowhere, though a copy lies on the machine. Each is rebuilt from a public report whose thread
established the cause; what the report pasted is kept as pasted, what it did not show is taken
from the base fixture (rtx4090-open-module: an NVIDIA driver loaded, so only the framework's
libraries are at fault) or is a placeholder named as such in `source`. Library files are
[elf] lines (tiny shared objects with the real SONAME, made at test time). Written by
`tests/tools/mk-real-world-fixtures.py libs`; libs-warp07-libcuda-so1-only is not a report
(no [real-world]): Warp's loader before 0.8, over the same base.
"""
import os

from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, fresh, ini, link,
                              move_kernel, real_world, section, so, w)

TOPIC = "libs"
FIXTURES = ("rw-libs-tf29-conda-lib-on-path", "rw-libs-tf27-conda-cudatoolkit",
            "rw-libs-tf24-cuda111-not-on-path", "rw-libs-cupy13-nvrtc-hpc",
            "libs-warp07-libcuda-so1-only", "rw-libs-tf231-cudnn8-gtx960m-laptop",
            "rw-libs-tf230-cudnn8-gtx1050-mobile", "rw-libs-tf-nightly24-on-cuda101")
BASE = "rtx4090-open-module"
BASE_SRC = (f"; the machine around it, which no report here shows (the GPU, driver 550.120, "
            f"the kernel, Ubuntu 24.04), is fixture {BASE}'s")

TF_BUILD_INFO_HEAD = '''# Copyright 2020 The TensorFlow Authors. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ==============================================================================
"""Auto-generated module providing information about the build."""
import collections

'''


def _rw(d):
    return real_world(d["url"], d["pasted"], d["cause"], d["root_cause"], d["layer"], d["fails"],
                      d.get("also", ""))


def write_ini(dst, desc, source, rw, variables):
    """scenario.ini over the base tree: its device nodes and kernel module come along."""
    ini(dst, TOPIC, desc, source + BASE_SRC, variables, rw, section(BASE, "devices"),
        section(BASE, "modules"))


def dist_info(root, site, name, version, requires=()):
    d = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    w(root, f"{d}/METADATA", meta)
    w(root, f"{d}/RECORD", "")


def tf_build_info(root, site, cuda, cudnn, caps, compiler):
    items = [("cpu_compiler", repr(compiler)), ("cuda_compute_capabilities", repr(caps)),
             ("cuda_version", repr(cuda)), ("cudnn_version", repr(cudnn)),
             ("is_cuda_build", "True"), ("is_rocm_build", "False"),
             ("is_tensorrt_build", "True")]
    body = ", ".join(f"('{k}', {v})" for k, v in items)
    w(root, f"{site}/tensorflow/python/platform/build_info.py",
      TF_BUILD_INFO_HEAD + f"build_info = collections.OrderedDict([{body}])\n")
    w(root, f"{site}/tensorflow/__init__.py", "")


def make_venv(root, version, venv="/home/user/venv"):
    """A venv (PEP 405 pyvenv.cfg as the venv module writes it); returns it and its site."""
    short = ".".join(version.split(".")[:2])
    w(root, f"{venv}/pyvenv.cfg",
      f"home = /usr/bin\ninclude-system-site-packages = false\nversion = {version}\n")
    w(root, f"{venv}/bin/python3", "")
    return venv, f"{venv}/lib/python{short}/site-packages"


def conda_env(root, base, env, python):
    w(root, f"{base}/conda-meta/history", f"==> 2022-06-01 10:00:00 <==\n# cmd: {base}/bin/conda create -n {os.path.basename(env)} python={python}\n")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n")
    w(root, f"{env}/conda-meta/history", f"==> 2022-06-01 10:01:00 <==\n# cmd: {base}/bin/conda create -n {os.path.basename(env)} python={python}\n")


# conda-forge cudatoolkit 11.2 and cudnn 8.1: the sonames their lib/ holds (TensorFlow's
# pip guide of 2.5-2.11 installs exactly these two packages).
CUDATOOLKIT_112 = ["libcudart.so.11.0", "libcublas.so.11", "libcublasLt.so.11", "libcufft.so.10",
                   "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.11"]
CUDNN_81 = ["libcudnn.so.8"]
TF_CAPS_2X = ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "compute_80"]


def tf29_conda_lib_on_path():
    """tensorflow/tensorflow#56413: TF 2.9 pip in a conda env with cudatoolkit 11.2 / cuDNN 8.1;
    libcudart.so.11.0 is in the env's lib/, which the user put on PATH."""
    dst, root = fresh("rw-libs-tf29-conda-lib-on-path", BASE)
    home = "/home/user"  # the report: a CAMPUS home directory
    base = f"{home}/anaconda3"
    env = f"{base}/envs/tf"
    site = f"{env}/lib/python3.7/site-packages"
    conda_env(root, base, env, "3.7")
    dist_info(root, site, "tensorflow", "2.9.0")
    tf_build_info(root, site, "11.2", "8", TF_CAPS_2X, "/dt9/usr/bin/gcc")
    for path, soname in [(f"{env}/lib/{s}", s) for s in CUDATOOLKIT_112 + CUDNN_81]:
        so(root, path, soname)
    write_ini(dst,
        "TensorFlow 2.9 from pip in an activated conda environment that holds conda-forge "
        "cudatoolkit 11.2 and cuDNN 8.1 in its lib/; the user added that lib/ to PATH, not "
        "LD_LIBRARY_PATH, and TensorFlow cannot dlopen libcudart.so.11.0",
        "the report's TF 2.9 / CUDA 11.2 / cuDNN 8.1.0 / Python 3.7 and the env's lib/ on PATH "
        "(the home directory, under CAMPUS/<USER NAME> in the report, and <ENVIRONMENT NAME> are placeholders: /home/user, "
        "tf); build_info.py in the "
        "form gen_build_info.py writes with TF 2.9's tested CUDA 11.2 / cuDNN 8; the env's "
        "library files are the sonames of conda-forge cudatoolkit 11.2 and cudnn 8.1 (the "
        "report names libcudart.so.11.0 only)",
        _rw({"url": "https://github.com/tensorflow/tensorflow/issues/56413",
         "pasted": "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
                   "cannot open shared object file: No such file or directory",
         "cause": "libcudart.so.11.0 is in the conda env's lib/, whose directory the user put on "
                  "PATH; the dynamic loader searches LD_LIBRARY_PATH (TensorFlow's pip guide: "
                  "LD_LIBRARY_PATH=$CONDA_PREFIX/lib)",
         "root_cause": "runtime.library-not-found", "layer": "runtime", "fails": "yes"}),
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 f"/sbin:/bin:{env}/lib",
         "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda", "HOME": home},
        )


def tf27_conda_cudatoolkit():
    """tensorflow/tensorflow#52988: `conda install cudatoolkit=11.2 cudnn=8.1`, TF 2.7 from pip
    cannot find the CUDA libraries: the env's lib/ is not on LD_LIBRARY_PATH."""
    dst, root = fresh("rw-libs-tf27-conda-cudatoolkit", BASE)
    home = "/home/user"
    base = f"{home}/miniconda3"
    env = f"{base}/envs/tf27"
    site = f"{env}/lib/python3.8/site-packages"
    conda_env(root, base, env, "3.8")
    dist_info(root, site, "tensorflow", "2.7.0")
    tf_build_info(root, site, "11.2", "8", TF_CAPS_2X, "/dt7/usr/bin/gcc")
    for path, soname in [(f"{env}/lib/{s}", s) for s in CUDATOOLKIT_112 + CUDNN_81]:
        so(root, path, soname)
    write_ini(dst,
        "TensorFlow 2.7.0 from pip in an activated conda environment after `conda install "
        "cudatoolkit=11.2 cudnn=8.1`: TensorFlow reports it cannot load the CUDA libraries, "
        "which are in the environment's lib/, not on LD_LIBRARY_PATH",
        "the report's TF 2.7.0, Python 3.8, `conda install cudatoolkit=11.2 cudnn=8.1` and its "
        "dso_loader lines; the conda installation's place, the env name and the home are "
        "placeholders (~/miniconda3, tf27); build_info.py with TF 2.7's tested CUDA 11.2 / "
        "cuDNN 8; the env's library files are those packages' sonames",
        _rw({"url": "https://github.com/tensorflow/tensorflow/issues/52988",
         "pasted": "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
                   "cannot open shared object file: No such file or directory",
         "cause": "conda's cudatoolkit/cudnn are in the environment's lib/, which TensorFlow's "
                  "dlopen does not search unless LD_LIBRARY_PATH names it",
         "root_cause": "runtime.library-not-found", "layer": "runtime", "fails": "yes"}),
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda", "HOME": home},
        )


def tf24_cuda111_not_on_path():
    """tensorflow/tensorflow#45930 (comment of 2021-01-31): libcudart.so.11.0 in
    /usr/local/cuda-11.1/targets/x86_64-linux/lib, fixed by adding it to LD_LIBRARY_PATH."""
    dst, root = fresh("rw-libs-tf24-cuda111-not-on-path", BASE)
    site = "/usr/local/lib/python3.8/dist-packages"
    dist_info(root, site, "tensorflow", "2.4.0")
    tf_build_info(root, site, "11.0", "8", TF_CAPS_2X, "/dt7/usr/bin/gcc")
    w(root, "/usr/local/bin/python3", "")
    tk = "/usr/local/cuda-11.1/targets/x86_64-linux/lib"
    sonames = ["libcudart.so.11.0", "libcublas.so.11", "libcublasLt.so.11", "libcufft.so.10",
               "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.11"]
    for path, soname in [(f"{tk}/{s}", s) for s in sonames]:
        so(root, path, soname)
    write_ini(dst,
        "TensorFlow 2.4 (pip, system Python) on Ubuntu 20.04 with CUDA 11.1 installed in "
        "/usr/local/cuda-11.1, whose library directory is not on the loader path: "
        "libcudart.so.11.0 is not found",
        "the comment's find output (/usr/local/cuda-11.1/targets/x86_64-linux/lib/"
        "libcudart.so.11.0) and its fix (that directory on LD_LIBRARY_PATH); the TensorFlow "
        "release is the issue's label (TF 2.4; 2.4.0 a placeholder), build_info.py with TF 2.4's "
        "tested CUDA 11.0 / cuDNN 8; the toolkit's other libraries are CUDA 11.1's sonames "
        "(cuDNN was not shown: placeholder, none installed); Python 3.8 under /usr/local a "
        "placeholder",
        _rw({"url": "https://github.com/tensorflow/tensorflow/issues/45930",
         "pasted": "Could not load dynamic library 'libcudart.so.11.0'",
         "cause": "the CUDA 11.1 toolkit's lib directory (targets/x86_64-linux/lib) is on no "
                  "loader list; adding it to LD_LIBRARY_PATH fixed it",
         "root_cause": "runtime.library-not-found", "layer": "runtime", "fails": "yes"}),
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/root"},
        )


def cupy13_nvrtc_hpc():
    """cupy/cupy#8317: CuPy 13 dlopens libnvrtc.so.12; the HPC system's CUDA 12.2 is outside
    every loader list (the module's RPATH does not apply to CuPy 13's run-time NVRTC load)."""
    dst, root = fresh("rw-libs-cupy13-nvrtc-hpc", BASE)
    venv, site = make_venv(root, "3.11.5")
    dist_info(root, site, "cupy", "13.0.0")
    w(root, f"{site}/cupy/_version.py", "__version__ = '13.0.0'\n")
    cuda = "/cvmfs/soft.computecanada.ca/easybuild/software/2023/x86-64-v3/Core/cudacore/12.2.2"
    for path, soname in [(f"{cuda}/lib64/{s}", s) for s in ["libnvrtc.so.12", "libcublas.so.12",
                                               "libcufft.so.11", "libcurand.so.10",
                                               "libcusparse.so.12"]]:
        so(root, path, soname)
    write_ini(dst,
        "CuPy 13.0.0 built from source in a virtualenv on an HPC system whose CUDA 12.2 lives "
        "under /cvmfs (not on LD_LIBRARY_PATH); CuPy 13 opens NVRTC at run time and fails "
        "with libnvrtc.so.12: cannot open shared object file",
        "the report's paths (CUDA 12.2.2 under /cvmfs/soft.computecanada.ca/…/cudacore/12.2.2/"
        "lib64), CuPy 13.0.0 built from source (distribution name cupy), Python 3.11; the "
        "libraries of that lib64 are those the report lists; the virtualenv's place is a placeholder",
        _rw({"url": "https://github.com/cupy/cupy/issues/8317",
         "pasted": "RuntimeError: CuPy failed to load libnvrtc.so.12: OSError: libnvrtc.so.12: "
                   "cannot open shared object file: No such file or directory",
         "cause": "CuPy 13 loads NVRTC by name at run time (not through the module's DT_NEEDED "
                  "and RPATH as before), and the CUDA 12.2 lib64 is not on the loader path",
         "root_cause": "runtime.library-not-found", "layer": "runtime", "fails": "yes"}),
        {"PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": venv,
         "HOME": "/home/user"},
        )


def warp07_libcuda_so1_only():
    """Not a report: Warp before 0.8 dlopen()s only the unversioned libcuda.so
    (NVIDIA/warp warp/native/cuda_util.cpp before commit 19c1b58f7), which the driver's
    user-space package does not install; here only libcuda.so.1 is there."""
    dst, root = fresh("libs-warp07-libcuda-so1-only", BASE)
    venv, site = make_venv(root, "3.10.12")
    dist_info(root, site, "warp-lang", "0.7.2")
    w(root, f"{site}/warp/__init__.py", "")
    lib = "/usr/lib/x86_64-linux-gnu"
    so(root, f"{lib}/libcuda.so.550.120", "libcuda.so.1")
    link(root, f"{lib}/libcuda.so.1", "libcuda.so.550.120")
    write_ini(dst,
        "Warp 0.7.2 (warp-lang from pip) in a virtualenv on a machine whose NVIDIA driver "
        "550.120 installed libcuda.so.1 (-> libcuda.so.550.120) but not the unversioned "
        "libcuda.so that Warp before 0.8 opens: \"Could not open libcuda.so.\"",
        "synthetic (no report): Warp's loader before v0.8.0 (NVIDIA/warp cuda_util.cpp, "
        "commit 19c1b58f7 added the libcuda.so.1 fallback); the driver library's name as the "
        "driver installs it (libcuda.so.<version>, libcuda.so.1 link)",
        "",
        {"PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": venv,
         "HOME": "/home/user"},
        )


# CUDA 10.1's sonames (its runfile's lib64; cuBLAS 10 from the same release).
CUDA_101 = ["libcudart.so.10.1", "libcublas.so.10", "libcublasLt.so.10", "libcufft.so.10",
            "libcurand.so.10", "libcusolver.so.10", "libcusparse.so.10"]
# TensorFlow 2.3's pip build targets: TF_CUDA_COMPUTE_CAPABILITIES of its release builds
# (tensorflow/tensorflow v2.3.0, tensorflow/tools/ci_build/release/ubuntu_16/gpu_py38_full/
# pip.sh), which cuobjdump of 2.3.1 confirms (SASS 3.5 3.7 5.2 6.0 6.1 7.0, PTX 7.0:
# tensorflow/tensorflow#46537) and the 2.3.0 release notes state ("PTX kernels only for
# compute capability 7.0"). No SASS or usable PTX for compute capability 5.0.
TF_CAPS_23 = ["sm_35", "sm_37", "sm_52", "sm_60", "sm_61", "compute_70"]
# What the TensorFlow 2.3 list means on a compute capability 5.0 GPU, and who established it.
TF23_NO_SM50 = ("framework.no-kernel-image https://github.com/tensorflow/tensorflow/issues/46537; "
                "framework.no-kernel-image https://github.com/tensorflow/tensorflow/issues/42467")
UBUNTU1804_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="18.04.5 LTS (Bionic Beaver)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 18.04.5 LTS"\nVERSION_ID="18.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'VERSION_CODENAME=bionic\nUBUNTU_CODENAME=bionic\n')
CUDNN8_NOTE = ("cuDNN 8's tar archive and libcudnn8 package hold libcudnn.so.8 only (cuDNN 8 "
               "release notes: the library's major is the soname's); TensorFlow 2.1-2.3 open "
               "libcudnn.so.7 (their tested build configuration: CUDA 10.1, cuDNN 7.6, "
               "tensorflow/docs site/en/install/source.md)")


def cuda101_toolkit(root, tk):
    """The CUDA 10.1 Update 2 runfile's toolkit at tk: version.txt as it writes it, nvcc (only
    its presence is read: a placeholder script), lib64's sonames."""
    w(root, f"{tk}/version.txt", "CUDA Version 10.1.243\n")
    w(root, f"{tk}/bin/nvcc", "#!/bin/sh\n# placeholder for the nvcc ELF binary\n", 0o755)
    for s in CUDA_101:
        so(root, f"{tk}/lib64/{s}", s)


def laptop_host(name, device, model, drv, osrel, rel):
    """The base tree as a laptop's NVIDIA GPU (its only PCI function re-identified) on the
    proprietary module `drv` under kernel `rel` (updates/dkms, as Ubuntu's
    nvidia-driver-<branch> builds it). Returns (dst, root, [modules] section)."""
    dst, root = base_root(name, device, 0x0000, model, drv)
    w(root, "etc/os-release", osrel)
    move_kernel(root, "6.8.0-45-generic", rel)
    return dst, root, (f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, "
                       "none, NVIDIA\n")


def tf23_cudnn8(name, url, tf, prefix, site, cuda_dir, cudnn_dir, cudnn, device, model, drv,
                osrel, rel, desc, source, pasted, variables, conda_history=None, also=None):
    dst, root, modules = laptop_host(name, device, model, drv, osrel, rel)
    if conda_history:
        w(root, f"{prefix}/conda-meta/history", conda_history)
        w(root, f"{prefix}/bin/conda", "#!/bin/sh\n")
    dist_info(root, site, "tensorflow", tf)
    tf_build_info(root, site, "10.1", "7", TF_CAPS_23, "/dt7/usr/bin/gcc")
    w(root, f"{prefix}/bin/python3", "")
    cuda101_toolkit(root, os.path.dirname(cuda_dir))
    so(root, f"{cudnn_dir}/libcudnn.so.{cudnn}", "libcudnn.so.8")
    link(root, f"{cudnn_dir}/libcudnn.so.8", f"libcudnn.so.{cudnn}")
    link(root, f"{cudnn_dir}/libcudnn.so", "libcudnn.so.8")
    ini(dst, TOPIC, desc, source + "; " + CUDNN8_NOTE + "; " + SRC_BASE, variables,
        _rw({"url": url, "pasted": pasted,
             "cause": "TensorFlow " + tf + " opens cuDNN 7 (libcudnn.so.7: its build is CUDA "
                      "10.1 / cuDNN 7.6); the machine has cuDNN " + cudnn + ", whose library "
                      "is libcudnn.so.8, so no libcudnn.so.7 exists anywhere and TensorFlow "
                      "skips the GPU" + (also[0] if also else ""),
             "root_cause": "runtime.library-not-found", "layer": "runtime", "fails": "yes",
             "also": also[1] if also else ""}),
        section(BASE, "devices"), modules)


def tf231_gtx960m():
    """tensorflow/tensorflow#44040: TF 2.3.1 (Anaconda's Python 3.7.4) on a GTX 960M laptop,
    CUDA 10.1.243 and cuDNN 8.0.4: 'Could not load dynamic library libcudnn.so.7'."""
    home = "/home/user"
    prefix = f"{home}/anaconda3"
    site = f"{prefix}/lib/python3.7/site-packages"
    w_conda = f"==> 2020-10-01 10:00:00 <==\n# cmd: {prefix}/bin/conda install anaconda\n"
    tf23_cudnn8(
        "rw-libs-tf231-cudnn8-gtx960m-laptop", "https://github.com/tensorflow/tensorflow/issues/44040",
        "2.3.1", prefix, site, "/usr/local/cuda-10.1/lib64",
        "/usr/local/cuda-10.1/lib64", "8.0.4", 0x139b, "GeForce GTX 960M", "450.80.02",
        UBUNTU2004_OS_RELEASE, "5.4.0-51-generic",
        "A laptop with a GeForce GTX 960M (Maxwell, compute capability 5.0) on driver 450.80.02, "
        "Ubuntu 20.04, CUDA 10.1.243 and cuDNN 8.0.4 in /usr/local/cuda-10.1/lib64, TensorFlow "
        "2.3.1 from pip in Anaconda's Python 3.7.4: libcudart.so.10.1 opens, libcudnn.so.7 does "
        "not, and TensorFlow skips the GPU; its build has no code a compute capability 5.0 GPU "
        "runs either",
        "Rebuilt from https://github.com/tensorflow/tensorflow/issues/44040 (pasted: TensorFlow "
        "2.3.1 / v2.3.0-54-gfcc4b966f1, Python 3.7.4 (GCC 7.3.0: Anaconda's), CUDA 10.1.243, "
        "cuDNN 8.0.4, 'GeForce GTX 960m, 4 Gb', NVIDIA-SMI 450.80.02, 'Successfully opened "
        "dynamic library libcudart.so.10.1', the GPU's properties (computeCapability: 5.0) and "
        "the libcudnn.so.7 failure); placeholders, not in the report: the GPU re-identified in "
        "the base's single slot as 10de:139b GM107M [GeForce GTX 960M] (the report's bus "
        "0000:02:00.0 and the laptop's integrated GPU are not rebuilt), the kernel "
        "5.4.0-51-generic (Ubuntu 20.04's of October 2020) and the module's place "
        "(updates/dkms), Ubuntu 20.04's os-release (the report says 20.04.4), Anaconda under "
        "/home/user/anaconda3, cuDNN 8.0.4 copied into the toolkit's lib64 as NVIDIA's tar "
        "install guide does, and LD_LIBRARY_PATH naming that lib64 (libcudart.so.10.1 opened, "
        "so the loader finds it); build_info.py with TensorFlow 2.3's CUDA 10.1 / cuDNN 7 "
        "and its release build's compute capabilities (sm_35 sm_37 sm_52 sm_60 sm_61 compute_70)",
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic "
        "library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: No "
        "such file or directory",
        {"PATH": f"{prefix}/bin:{prefix}/condabin:/usr/local/cuda-10.1/bin:/usr/local/sbin:"
                 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "LD_LIBRARY_PATH": "/usr/local/cuda-10.1/lib64", "CONDA_PREFIX": prefix,
         "CONDA_EXE": f"{prefix}/bin/conda", "HOME": home}, w_conda,
        ("; and with cuDNN 7 in place it would still fail: TensorFlow 2.3's pip build holds "
         "SASS for 3.5 3.7 5.2 6.0 6.1 and PTX for 7.0 only, nothing a compute capability 5.0 "
         "GPU runs ('no kernel image is available for execution on the device' on a GTX 960M "
         "and a 940MX: tensorflow/tensorflow#42467; cuobjdump of 2.3.1: #46537; fixed in 2.4)",
         TF23_NO_SM50))


def tf230_gtx1050_mobile():
    """tensorflow/tensorflow#42199: TF 2.3.0 on a GTX 1050 Mobile laptop, CUDA 10.1 with
    cuDNN 8.0.2.39 (the libcudnn8 package): 'Could not load dynamic library libcudnn.so.7'."""
    home = "/home/user"
    tf23_cudnn8(
        "rw-libs-tf230-cudnn8-gtx1050-mobile", "https://github.com/tensorflow/tensorflow/issues/42199",
        "2.3.0", "/usr", "/usr/local/lib/python3.7/dist-packages",
        "/usr/local/cuda-10.1/lib64", "/usr/lib/x86_64-linux-gnu", "8.0.2", 0x1c8d,
        "GeForce GTX 1050", "440.100",
        UBUNTU1804_OS_RELEASE,
        "5.4.0-42-generic",
        "A laptop with a GeForce GTX 1050 Mobile (Pascal, compute capability 6.1), Ubuntu "
        "18.04, CUDA 10.1 and cuDNN 8.0.2.39 from NVIDIA's libcudnn8 package "
        "(/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.2), TensorFlow 2.3.0 from pip: TensorFlow "
        "cannot load libcudnn.so.7; the user's symlinks into /usr/local/cuda-10.1/lib64 named "
        "libcudnn.so.8 and 8.0.2 (there is no 7.x on the machine)",
        "Rebuilt from https://github.com/tensorflow/tensorflow/issues/42199 (pasted: Ubuntu "
        "18.04, TensorFlow 2.3.0 binary, Python 3.7, CUDA/cuDNN 10.1/8.0.2.39, 'NVIDIA GeForce "
        "GTX 1050 Mobile', the dso_loader line, and '7.6.5 and .so.7 were not included in my "
        "installation': only libcudnn.so.8 and libcudnn.so.8.0.2 exist); placeholders, not in "
        "the report: the GPU in the base's single slot as 10de:1c8d GP107M [GeForce GTX 1050 "
        "Mobile], the driver 440.100 (the R440 of August 2020, CUDA 10.2) and its updates/dkms "
        "module, the kernel 5.4.0-42-generic (18.04's HWE kernel then), 18.04.5's os-release, "
        "TensorFlow in the system Python's /usr/local/lib/python3.7/dist-packages, "
        "LD_LIBRARY_PATH naming /usr/local/cuda-10.1/lib64; build_info.py with TensorFlow "
        "2.3's CUDA 10.1 / cuDNN 7 and its release build's compute capabilities",
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic "
        "library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: No "
        "such file or directory",
        {"PATH": "/usr/local/cuda-10.1/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin",
         "LD_LIBRARY_PATH": "/usr/local/cuda-10.1/lib64", "HOME": home})


def tf_nightly24_on_cuda101():
    """tensorflow/tensorflow#44012: tf-nightly 2.4.0-dev20201012 (built with CUDA 11.0 and cuDNN
    8 since the nightlies moved, tensorflow/tensorflow#42047) over TF 2.3's CUDA 10.1 and
    cuDNN 7.6.5: libcusparse.so.11 and libcudnn.so.8 are found nowhere."""
    dst, root, modules = laptop_host("rw-libs-tf-nightly24-on-cuda101", 0x1e07,
                                     "GeForce RTX 2080 Ti", "450.80.02", UBUNTU1804_OS_RELEASE,
                                     "5.4.0-51-generic")
    venv, site = make_venv(root, "3.7.5", "/home/user/tfnp")
    dist_info(root, site, "tf-nightly", "2.4.0.dev20201012")
    tf_build_info(root, site, "11.0", "8", TF_CAPS_2X, "/dt7/usr/bin/gcc")
    tk = "/usr/local/cuda-10.1"
    link(root, "usr/local/cuda", tk)
    cuda101_toolkit(root, tk)
    so(root, "/usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5", "libcudnn.so.7")
    link(root, "usr/lib/x86_64-linux-gnu/libcudnn.so.7", "libcudnn.so.7.6.5")
    llp = ":".join(["/usr/local/magma/lib:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64"]
                   * 3 + ["/opt/ros/melodic/lib"])
    ini(dst, TOPIC,
        "tf-nightly 2.4.0-dev20201012 pip-upgraded over TensorFlow 2.3 in a virtualenv on "
        "Ubuntu 18.04 with CUDA 10.1.243 and cuDNN 7.6.5 (libcudnn7 for CUDA 10.1): the "
        "nightly is built with CUDA 11.0 and cuDNN 8 and cannot load libcusparse.so.11 or "
        "libcudnn.so.8 (CUDA 10.1 has libcusparse.so.10, cuDNN 7 libcudnn.so.7)",
        "Rebuilt from https://github.com/tensorflow/tensorflow/issues/44012 (pasted: Ubuntu "
        "18.04.4, `pip install tensorflow-2.3.0` then `pip install --upgrade tf-nightly` in a "
        "virtualenv, TensorFlow 2.4.0-dev20201012, Python 3.7.5, 'Cuda compilation tools, "
        "release 10.1, V10.1.243', apt's libcudnn7 7.6.5.32-1+cuda10.1, RTX 2080 Ti and RTX "
        "2080 SUPER, the dso_loader lines: libcurand.so.10 and libcusolver.so.10 opened, "
        "libcusparse.so.11 and libcudnn.so.8 not, with the LD_LIBRARY_PATH they print); "
        "placeholders, not in the report: one GPU (the RTX 2080 Ti, 10de:1e07, in the base's "
        "single slot), the driver 450.80.02 (R450 of October 2020) under updates/dkms, the "
        "kernel 5.4.0-51-generic, the virtualenv's place; build_info.py with the nightly's "
        "CUDA 11.0 / cuDNN 8 (tensorflow/tensorflow#42047: the nightlies moved to CUDA 11 and "
        "cuDNN 8 in August 2020)" + BASE_SRC,
        {"PATH": f"{venv}/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin", "VIRTUAL_ENV": venv, "LD_LIBRARY_PATH": llp,
         "HOME": "/home/user"},
        _rw({"url": "https://github.com/tensorflow/tensorflow/issues/44012",
             "pasted": "Could not load dynamic library 'libcusparse.so.11'; dlerror: "
                       "libcusparse.so.11: cannot open shared object file: No such file or "
                       "directory / Could not load dynamic library 'libcudnn.so.8'",
             "cause": "the 2.4 nightly is built with CUDA 11 and cuDNN 8 (the nightlies' move, "
                      "tensorflow#42047); the machine has TF 2.3's CUDA 10.1 and cuDNN 7, so "
                      "the CUDA 11 sonames it opens exist nowhere",
             "root_cause": "runtime.library-not-found", "layer": "runtime", "fails": "yes"}),
        section(BASE, "devices"), modules)


def write():
    tf29_conda_lib_on_path()
    tf27_conda_cudatoolkit()
    tf24_cuda111_not_on_path()
    cupy13_nvrtc_hpc()
    warp07_libcuda_so1_only()
    tf231_gtx960m()
    tf230_gtx1050_mobile()
    tf_nightly24_on_cuda101()
