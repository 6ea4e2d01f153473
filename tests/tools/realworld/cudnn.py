# SPDX-License-Identifier: GPL-2.0-or-later
"""cuDNN loaded against cuDNN built with: a framework gets an older minor of the cuDNN major
it was compiled with, because that is all the machine has or because an older copy comes
first on its search path (runtime.cudnn-older-than-framework, runtime.library-shadowed)."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, ldso_cache, link,
                              mk2, real_world, section, so, torch_dist, venv, w)

TOPIC = "cudnn"
FIXTURES = ("rw-colab-tf28-cudnn805", "rw-tf212-conda-cudnn810-before-wheel",
            "rw-torch112-bundled-cudnn-shadowed", "rw-tf115-cudnn741",
            "rw-torch113-wheel-cudnn-shadowed", "rw-tf212-system-cudnn811-first",
            "rw-tf215-system-cudnn880-per-docs")

LD_CONF = ("# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
           "/usr/lib/x86_64-linux-gnu\n")
TF_HEADER = ("# Copyright 2020 The TensorFlow Authors. All Rights Reserved.\n#\n"
             "# Licensed under the Apache License, Version 2.0 (the \"License\");\n"
             "# ==============================================================================\n"
             "\"\"\"Auto-generated module providing information about the build.\"\"\"\n"
             "import collections\n\n")
SRC_CUDNN = ("libcudnn as NVIDIA names the file in its Debian packages and tar archives "
             "(libcudnn.so.<major> -> libcudnn.so.<major>.<minor>.<patch>, an [elf] stand-in "
             "with the real SONAME), the nvidia-cudnn-cu* wheel's nvidia/cudnn/lib/"
             "libcudnn.so.<major> with its include/cudnn_version.h (CUDNN_MAJOR/MINOR/"
             "PATCHLEVEL) and dist-info; tensorflow/python/platform/build_info.py in the form "
             "tensorflow/tools/build_info/gen_build_info.py wrote for that release")


# The sonames conda-forge's cudatoolkit 11.x puts in an environment's lib/ (the CUDA 11
# libraries TensorFlow 2.x opens by name).
CUDATOOLKIT_11 = ("libcudart.so.11.0", "libcublas.so.11", "libcublasLt.so.11", "libcufft.so.10",
                  "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.11")


def ld_conf(root):
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/libc.conf", "# libc default configuration\n/usr/local/lib\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", LD_CONF)


def cudnn_lib(root, libdir, version):
    """libcudnn.so.<major> -> libcudnn.so.<version> as NVIDIA's packages install it."""
    major = version.split(".")[0]
    so(root, f"{libdir}/libcudnn.so.{version}", f"libcudnn.so.{major}")
    link(root, f"{libdir}/libcudnn.so.{major}", f"libcudnn.so.{version}")
    link(root, f"{libdir}/libcudnn.so", f"libcudnn.so.{major}")


def cudnn_header(root, incdir, version, name="cudnn_version.h"):
    ma, mi, pa = version.split(".")[:3]
    w(root, f"{incdir}/{name}",
      "/*\n * Copyright 2014-2022 NVIDIA Corporation.  All rights reserved.\n */\n\n"
      "/**\n * \\file: The master cuDNN version file.\n */\n\n"
      "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
      f"#define CUDNN_MAJOR {ma}\n#define CUDNN_MINOR {mi}\n#define CUDNN_PATCHLEVEL {pa}\n\n"
      "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n"
      "#endif /* CUDNN_VERSION_H */\n")


def cudnn_wheel(root, site, name, version):
    """nvidia-cudnn-cu11/12: nvidia/cudnn/lib/libcudnn.so.<major> (no version past the
    soname) and nvidia/cudnn/include/cudnn_version.h."""
    major = version.split(".")[0]
    di = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
      "Summary: cuDNN runtime libraries\nAuthor: Nvidia CUDA Installer Team\n"
      "License: NVIDIA Proprietary Software\n")
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", f"nvidia/cudnn/include/cudnn_version.h,,\n"
      f"nvidia/cudnn/lib/libcudnn.so.{major},,\n{name.replace('-', '_')}-{version}.dist-info/"
      "METADATA,,\n")
    w(root, f"{site}/nvidia/cudnn/__init__.py", "")
    so(root, f"{site}/nvidia/cudnn/lib/libcudnn.so.{major}", f"libcudnn.so.{major}")
    cudnn_header(root, f"{site}/nvidia/cudnn/include", version)


def tensorflow(root, site, version, package, build_info, requires=()):
    w(root, f"{site}/tensorflow/__init__.py", "")
    w(root, f"{site}/tensorflow/python/platform/build_info.py", build_info)
    di = f"{site}/{package}-{version}.dist-info"
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {package.replace('_', '-')}\n"
      f"Version: {version}\nSummary: TensorFlow is an open source machine learning framework "
      "for everyone.\n" + "".join(f"Requires-Dist: {r}\n" for r in requires))
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", f"tensorflow/__init__.py,,\n{package}-{version}.dist-info/METADATA,,\n")


def nvcc_component(root, cuda):
    """A toolkit's nvcc component as NVIDIA installs it: bin/ptxas and nvvm/libdevice (what
    XLA looks for; stand-in files)."""
    w(root, f"{cuda}/bin/ptxas", "", 0o755)
    w(root, f"{cuda}/bin/nvcc", "", 0o755)
    w(root, f"{cuda}/nvvm/libdevice/libdevice.10.bc", "")


def tf_build_info(cuda, caps):
    return TF_HEADER + (
        "build_info = collections.OrderedDict([('cpu_compiler', '/dt9/usr/bin/gcc'), "
        f"('cuda_compute_capabilities', {caps!r}), ('cuda_version', '{cuda}'), "
        "('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False), "
        "('is_tensorrt_build', True)])\n")


def tf212_pip_md_env(root, prefix, history):
    """The conda environment tensorflow/docs pip.md's recipe of TF 2.12 makes (Python 3.9,
    conda-forge's cudatoolkit 11.8.0: the CUDA 11 libraries TensorFlow opens by name in its
    lib/; the nvidia-cudnn-cu11 8.6.0.163 wheel; tensorflow 2.12.0), with its conda history.
    Returns its site-packages."""
    w(root, f"{prefix}/conda-meta/history", history)
    w(root, f"{prefix}/bin/python3.9", "", 0o755)
    link(root, f"{prefix}/bin/python3", "python3.9")
    link(root, f"{prefix}/bin/python", "python3.9")
    for soname in CUDATOOLKIT_11:
        so(root, f"{prefix}/lib/{soname}", soname)
    site = f"{prefix}/lib/python3.9/site-packages"
    cudnn_wheel(root, site, "nvidia-cudnn-cu11", "8.6.0.163")
    tensorflow(root, site, "2.12.0", "tensorflow",
               tf_build_info("11.8", ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "compute_80"]))
    return site


def colab():
    # googlecolab/colabtools#2600: TensorFlow (object detection API) on a Colab GPU runtime
    # fails with 8.0.5 loaded where 8.1 was compiled in: the runtime image had only the
    # libcudnn8 8.0.5 package; the fix the thread found was a newer libcudnn8 (or a runtime
    # image with one).
    dst, root = base_root("rw-colab-tf28-cudnn805", 0x1eb8, 0x12a2, "Tesla T4", "460.32.03")
    w(root, "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/class", "0x030200\n")
    w(root, "etc/os-release",
      'NAME="Ubuntu"\nVERSION="18.04.5 LTS (Bionic Beaver)"\nID=ubuntu\nID_LIKE=debian\n'
      'PRETTY_NAME="Ubuntu 18.04.5 LTS"\nVERSION_ID="18.04"\nHOME_URL="https://www.ubuntu.com/"\n'
      'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
      'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
      'VERSION_CODENAME=bionic\nUBUNTU_CODENAME=bionic\n')
    ld_conf(root)
    # The runtime's CUDA 11.2 (TensorFlow ran on the GPU there until the first convolution):
    # its libraries where NVIDIA's cuda-*-11-2 packages put them, on the loader path through
    # the /etc/ld.so.conf.d/cuda-11-2.conf those packages write.
    lib = "/usr/local/cuda-11.2/targets/x86_64-linux/lib"
    for soname in CUDATOOLKIT_11:
        so(root, f"{lib}/{soname}", soname)
    link(root, "usr/local/cuda", "cuda-11.2")
    w(root, "etc/ld.so.conf.d/cuda-11-2.conf", lib + "\n")
    cudnn_lib(root, "usr/lib/x86_64-linux-gnu", "8.0.5")
    w(root, "usr/local/bin/python3.7", "", 0o755)
    link(root, "usr/local/bin/python3", "python3.7")
    site = "/usr/local/lib/python3.7/site-packages"
    tensorflow(root, site, "2.8.0", "tensorflow",
               tf_build_info("11.2", ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "compute_80"]))
    ini(dst, TOPIC,
        "Google Colab GPU runtime (Ubuntu 18.04, Tesla T4) of February 2022: TensorFlow 2.8 "
        "from pip (compiled with cuDNN 8.1) and the image's libcudnn8 8.0.5 in "
        "/usr/lib/x86_64-linux-gnu, the only cuDNN 8 on the loader path: TensorFlow loads it "
        "and refuses it at the first convolution",
        "Rebuilt from https://github.com/googlecolab/colabtools/issues/2600 (pasted: 'CuDNN "
        "version 8.1 is required but only version 8.0.5 is loaded'; the duplicate "
        "googlecolab/colabtools#2626 pastes TensorFlow's 'Loaded runtime CuDNN library: 8.0.5 "
        "but source was compiled with: 8.1.0'); " + SRC_CUDNN + "; not in the report and "
        "chosen here: TensorFlow 2.8.0 (the thread's suggested reinstall; Colab's of that "
        "month), the driver 460.32.03, the T4's PCI id 10de:1eb8, Python 3.7 under "
        "/usr/local as the runtime image had it, its CUDA 11.2 libraries (the sonames, [elf] "
        "stand-ins) under /usr/local/cuda-11.2 with the ld.so.conf.d entry NVIDIA's packages "
        "write; " + SRC_BASE,
        {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root"},
        real_world(
            "https://github.com/googlecolab/colabtools/issues/2600",
            "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN "
            "library needs to have matching major version and equal or higher minor version.",
            "the runtime's only cuDNN 8 is 8.0.5, older than the 8.1 TensorFlow was compiled "
            "with; a newer libcudnn8 fixes it",
            "runtime.cudnn-older-than-framework", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def tf212_conda():
    # tensorflow/docs#2251: TensorFlow 2.12 in a conda environment set up by pip.md's recipe
    # (LD_LIBRARY_PATH=$CONDA_PREFIX/lib/:$CUDNN_PATH/lib); the environment's lib/ still held
    # the cudnn 8.1.0 of the older recipe (conda install cudnn=8.1.0), so TensorFlow loads it
    # before the nvidia-cudnn-cu11 8.6.0.163 wheel's copy. The PR swaps the order.
    dst, root = base_root("rw-tf212-conda-cudnn810-before-wheel", 0x2204, 0x1454,
                          "NVIDIA GeForce RTX 3090", "525.85.12")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    ld_conf(root)
    prefix = "/home/user/miniconda3/envs/tf"
    site = tf212_pip_md_env(root, prefix, "==> 2023-08-10 10:00:00 <==\n"
                            "# cmd: /home/user/miniconda3/bin/conda create --name tf python=3.9\n"
                            "==> 2023-08-10 10:05:00 <==\n"
                            "# cmd: /home/user/miniconda3/bin/conda install -c conda-forge "
                            "cudatoolkit=11.2 cudnn=8.1.0\n==> 2023-08-11 09:00:00 <==\n"
                            "# cmd: /home/user/miniconda3/bin/conda install -c conda-forge "
                            "cudatoolkit=11.8.0\n")
    cudnn_lib(root, f"{prefix}/lib", "8.1.0")
    cudnn_header(root, f"{prefix}/include", "8.1.0")
    ini(dst, TOPIC,
        "conda environment tf (Python 3.9) with TensorFlow 2.12.0 and the nvidia-cudnn-cu11 "
        "8.6.0.163 wheel as tensorflow/docs pip.md installed them, "
        "LD_LIBRARY_PATH=$CONDA_PREFIX/lib/:$CUDNN_PATH/lib; $CONDA_PREFIX/lib still holds "
        "conda-forge's cudnn 8.1.0 (libcudnn.so.8.1.0): ld.so takes it first and TensorFlow, "
        "compiled with 8.6.0, refuses it",
        "Rebuilt from https://github.com/tensorflow/docs/pull/2251 (pasted: 'Loaded runtime "
        "CuDNN library: 8.1.0 but source was compiled with: 8.6.0.', 'my CONDA_PREFIX/lib "
        "contains libcudnn8.1.0 so TF will first use this version instead of the libcudnn8.6.0'"
        "; the LD_LIBRARY_PATH line of pip.md the PR changes); TensorFlow 2.12 and "
        "nvidia-cudnn-cu11==8.6.0.163 are the versions of pip.md's recipe at that time, as "
        "is conda-forge's cudatoolkit 11.8.0 in the environment's lib/ (the sonames of its "
        "CUDA 11 libraries, [elf] stand-ins); " +
        SRC_CUDNN + "; not in the report and chosen here: the environment's path and name, "
        "Python 3.9, the conda history lines, the GPU (RTX 3090, 10de:2204) and driver "
        "525.85.12; " + SRC_BASE,
        {"PATH": f"{prefix}/bin:/home/user/miniconda3/condabin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user", "CONDA_PREFIX": prefix, "CONDA_DEFAULT_ENV": "tf",
         "CUDNN_PATH": f"{site}/nvidia/cudnn",
         "LD_LIBRARY_PATH": f":{prefix}/lib/:{site}/nvidia/cudnn/lib"},
        real_world(
            "https://github.com/tensorflow/docs/pull/2251",
            "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.",
            "$CONDA_PREFIX/lib holds cuDNN 8.1.0 and comes before the nvidia-cudnn-cu11 8.6.0 "
            "wheel's directory on LD_LIBRARY_PATH, so TensorFlow loads the older copy",
            "runtime.library-shadowed", "runtime", "yes",
            # the recipe's environment has no nvcc: XLA, which Keras 2.12 compiles with, finds
            # no libdevice (the guide's own Ubuntu 22.04 note, from that thread)
            also="framework.xla-toolchain-missing "
                 "https://github.com/tensorflow/tensorflow/issues/58681"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def torch112_bundled():
    # pytorch/pytorch#80637: torch 1.12 cu113 wheels bundle cuDNN 8.3.2 in torch/lib, but
    # libtorch_cuda.so finds it through DT_RUNPATH ($ORIGIN), which LD_LIBRARY_PATH precedes:
    # the cluster's cuDNN 8.0.3 module on LD_LIBRARY_PATH wins (the maintainer's finding;
    # fixed in the wheels by linking with DT_RPATH).
    dst, root = base_root("rw-torch112-bundled-cudnn-shadowed", 0x20b0, 0x134f,
                          "NVIDIA A100-SXM4-40GB", "470.103.01")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    ld_conf(root)
    cudnn = "/public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda"
    cudnn_lib(root, f"{cudnn}/lib64", "8.0.3")
    cudnn_header(root, f"{cudnn}/include", "8.0.3")
    prefix = "/private/home/rzou/local/miniconda3/envs/py38"
    w(root, f"{prefix}/conda-meta/history", "==> 2022-06-30 10:00:00 <==\n"
      f"# cmd: /private/home/rzou/local/miniconda3/bin/conda create -n py38 python=3.8\n")
    w(root, f"{prefix}/bin/python3.8", "", 0o755)
    link(root, f"{prefix}/bin/python3", "python3.8")
    link(root, f"{prefix}/bin/python", "python3.8")
    site = f"{prefix}/lib/python3.8/site-packages"
    torch_dist(root, site, "1.12.0+cu113", "'11.3'")
    lib = f"{site}/torch/lib"
    mk2.ELF.setdefault(root, []).append(
        (f"{lib}/libtorch_cuda.so", "so soname=libtorch_cuda.so needed=libcudnn.so.8 "
         "runpath=$ORIGIN"))
    so(root, f"{lib}/libcudnn.so.8", "libcudnn.so.8")
    ini(dst, TOPIC,
        "conda environment py38 with torch 1.12.0+cu113 from pip (cuDNN 8.3.2 bundled in "
        "torch/lib, found by libtorch_cuda.so's DT_RUNPATH $ORIGIN) on a cluster whose cuDNN "
        "8.0.3 module is on LD_LIBRARY_PATH: LD_LIBRARY_PATH precedes DT_RUNPATH, ld.so takes "
        "8.0.3 and torch.backends.cudnn refuses it",
        "Rebuilt from https://github.com/pytorch/pytorch/issues/80637 (pasted: the "
        "RuntimeError, LD_LIBRARY_PATH, `pip3 install torch --extra-index-url "
        "https://download.pytorch.org/whl/cu113`, the environment's path; the maintainer's "
        "finding that the wheel's libraries carry DT_RUNPATH, not DT_RPATH); torch/lib holds "
        "libcudnn.so.8 without a version in its name, as the cu113 wheels bundle it (its "
        "version is the wheel's: pytorch_wheels.tsv); libtorch_cuda.so is an [elf] stand-in "
        "with DT_NEEDED libcudnn.so.8 and DT_RUNPATH $ORIGIN; " + SRC_CUDNN + "; not in the "
        "report and chosen here: the GPU (A100, 10de:20b0), driver 470.103.01, Ubuntu 20.04; " +
        SRC_BASE,
        {"PATH": f"{prefix}/bin:/usr/local/bin:/usr/bin:/bin", "HOME": "/private/home/rzou",
         "CONDA_PREFIX": prefix, "CONDA_DEFAULT_ENV": "py38",
         "LD_LIBRARY_PATH": f"{cudnn}/lib64:/public/apps/cuda/11.0/lib64:/usr/local/cuda/lib64:"
                            "/usr/local/cuda/lib64::/public/slurm/20.11.8/lib:"
                            "/public/slurm/20.11.8/lib"},
        real_world(
            "https://github.com/pytorch/pytorch/issues/80637",
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, "
            "2) but linked against (8, 0, 3)",
            "the cuDNN 8.0.3 directory on LD_LIBRARY_PATH precedes the wheel's bundled cuDNN "
            "8.3.2, which libtorch_cuda.so finds only through DT_RUNPATH (searched after "
            "LD_LIBRARY_PATH)",
            "runtime.library-shadowed", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def tf115():
    # tensorflow/tensorflow#35376: tensorflow-gpu 1.15.0 from pip in a virtualenv, CUDA 10 in
    # /usr/local/cuda with cuDNN 7.4.1 (its cudnn.h pasted); TensorFlow was compiled with
    # 7.6.0: the reply's fix is cuDNN 7.6.5.
    dst, root = base_root("rw-tf115-cudnn741", 0x1e07, 0x12fa, "NVIDIA GeForce RTX 2080 Ti",
                          "440.33.01")
    w(root, "etc/os-release",
      'NAME="Ubuntu"\nVERSION="16.04.6 LTS (Xenial Xerus)"\nID=ubuntu\nID_LIKE=debian\n'
      'PRETTY_NAME="Ubuntu 16.04.6 LTS"\nVERSION_ID="16.04"\nHOME_URL="http://www.ubuntu.com/"\n'
      'SUPPORT_URL="http://help.ubuntu.com/"\nBUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n'
      'VERSION_CODENAME=xenial\nUBUNTU_CODENAME=xenial\n')
    ld_conf(root)
    cuda = "/usr/local/cuda-10.0"
    link(root, "usr/local/cuda", "cuda-10.0")
    w(root, f"{cuda}/version.txt", "CUDA Version 10.0.130\n")
    so(root, f"{cuda}/lib64/libcudart.so.10.0.130", "libcudart.so.10.0")
    link(root, f"{cuda}/lib64/libcudart.so.10.0", "libcudart.so.10.0.130")
    cudnn_lib(root, f"{cuda}/lib64", "7.4.1")
    # cuDNN 7 has no cudnn_version.h: its cudnn.h carries the version (as pasted)
    w(root, f"{cuda}/include/cudnn.h",
      "/*\n * Copyright 2014-2018 NVIDIA Corporation.  All rights reserved.\n */\n\n"
      "/*   cudnn : Neural Networks Library\n\n*/\n\n"
      "#if !defined(CUDNN_H_)\n#define CUDNN_H_\n\n"
      "#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 4\n#define CUDNN_PATCHLEVEL 1\n\n"
      "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n"
      "#include \"driver_types.h\"\n#include <cuda_runtime.h>\n\n#endif /* CUDNN_H_ */\n")
    site = venv(root, "/home/user/venv", "3.5.2")
    tensorflow(root, site, "1.15.0", "tensorflow_gpu",
               "\n# Copyright 2017 The TensorFlow Authors. All Rights Reserved.\n#\n"
               "# Licensed under the Apache License, Version 2.0 (the \"License\");\n"
               "# ==============================================================================\n"
               "\"\"\"Generates a Python module containing information about the build.\"\"\"\n"
               "from __future__ import absolute_import\nfrom __future__ import division\n"
               "from __future__ import print_function\n\nis_rocm_build = False\n"
               "is_cuda_build = True\n\ncuda_version_number = '10.0'\n"
               "cudnn_version_number = '7'\n")
    ini(dst, TOPIC,
        "Ubuntu 16.04, tensorflow-gpu 1.15.0 from pip in a virtualenv (its build_info.py: "
        "module-level cuda_version_number '10.0', cudnn_version_number '7'; compiled with "
        "cuDNN 7.6.0), CUDA 10.0 in /usr/local/cuda with cuDNN 7.4.1 (cuDNN 7: the version "
        "is in cudnn.h), on LD_LIBRARY_PATH: TensorFlow loads 7.4.1 and refuses it",
        "Rebuilt from https://github.com/tensorflow/tensorflow/issues/35376 (pasted: the "
        "error, 'Successfully opened dynamic library libcudnn.so.7', tensorflow-gpu==1.15.0, "
        "virtualenv, Python 3.5, CUDA 10, `cat /usr/local/cuda/include/cudnn.h | grep "
        "CUDNN_MAJOR -A 2` showing 7.4.1; the reply: install cuDNN 7.6.5); build_info.py in "
        "the module-level form tf_py_build_info_genrule() wrote for TF 1.x; " + SRC_CUDNN +
        "; not in the report and chosen here: LD_LIBRARY_PATH=/usr/local/cuda/lib64 (the "
        "install guide's), CUDA 10.0.130, the GPU (RTX 2080 Ti, 10de:1e07) and driver "
        "440.33.01; " + SRC_BASE,
        {"PATH": "/home/user/venv/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user", "VIRTUAL_ENV": "/home/user/venv",
         "LD_LIBRARY_PATH": "/usr/local/cuda/lib64"},
        real_world(
            "https://github.com/tensorflow/tensorflow/issues/35376",
            "Loaded runtime CuDNN library: 7.4.1 but source was compiled with: 7.6.0.  CuDNN "
            "library major and minor version needs to match or have higher minor version in "
            "case of CuDNN 7.0 or later version.",
            "the only cuDNN 7 is 7.4.1 in /usr/local/cuda; tensorflow-gpu 1.15.0 was compiled "
            "with 7.6.0: install cuDNN 7.6",
            "runtime.cudnn-older-than-framework", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def torch113_wheel():
    # gladiaio/gladia#928: torch 1.13 (compiled with cuDNN 8.5.0: the nvidia-cudnn-cu11
    # 8.5.0.96 wheel) in a conda environment; /usr/local/cuda/lib64 on LD_LIBRARY_PATH holds
    # cuDNN 8.4.1 and precedes the wheel's copy (libtorch_cuda.so's DT_RUNPATH): the
    # reporter's fix put cuDNN 8.5.0 into /usr/local/cuda/lib64.
    dst, root = base_root("rw-torch113-wheel-cudnn-shadowed", 0x2204, 0x1454,
                          "NVIDIA GeForce RTX 3090", "520.61.05")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    ld_conf(root)
    cuda = "/usr/local/cuda-11.7"
    link(root, "usr/local/cuda", "cuda-11.7")
    cudnn_lib(root, f"{cuda}/lib64", "8.4.1")
    cudnn_header(root, f"{cuda}/include", "8.4.1")
    prefix = "/opt/conda/envs/server"
    w(root, f"{prefix}/conda-meta/history", "==> 2022-11-30 10:00:00 <==\n"
      "# cmd: /opt/conda/bin/conda create -n server -c conda-forge python=3.8.12\n")
    w(root, f"{prefix}/bin/python3.8", "", 0o755)
    link(root, f"{prefix}/bin/python3", "python3.8")
    link(root, f"{prefix}/bin/python", "python3.8")
    site = f"{prefix}/lib/python3.8/site-packages"
    torch_dist(root, site, "1.13.0", "'11.7'",
               requires=["nvidia-cuda-runtime-cu11 (==11.7.99)",
                         "nvidia-cudnn-cu11 (==8.5.0.96)",
                         "nvidia-cublas-cu11 (==11.10.3.66)",
                         "nvidia-cuda-nvrtc-cu11 (==11.7.99)"])
    cudnn_wheel(root, site, "nvidia-cudnn-cu11", "8.5.0.96")
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/torch/lib/libtorch_cuda.so", "so soname=libtorch_cuda.so "
         "needed=libcudnn.so.8 runpath=$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/"
         "cudnn/lib:$ORIGIN/../../nvidia/cuda_nvrtc/lib:$ORIGIN/../../nvidia/cuda_runtime/lib"))
    ini(dst, TOPIC,
        "conda environment server (Python 3.8.12, conda-forge) with torch 1.13.0 from PyPI "
        "and its nvidia-cudnn-cu11 8.5.0.96 wheel; /usr/local/cuda/lib64 with cuDNN 8.4.1 on "
        "LD_LIBRARY_PATH comes before the wheel's directory (libtorch_cuda.so's DT_RUNPATH), "
        "so torch gets 8.4.1 and refuses it",
        "Rebuilt from https://github.com/gladiaio/gladia/issues/928 (pasted: the RuntimeError, "
        "the environment /opt/conda/envs/server, Python 3.8.12 from conda-forge; the "
        "reporter's fix: cuDNN 8.5.0.96 copied into /usr/local/cuda/lib64); torch 1.13.0's "
        "PyPI METADATA pins and libtorch_cuda.so's DT_RUNPATH into the nvidia wheels as "
        "pytorch's builder wrote them (an [elf] stand-in with DT_NEEDED libcudnn.so.8); " +
        SRC_CUDNN + "; not in the report and chosen here: CUDA 11.7 under /usr/local, "
        "LD_LIBRARY_PATH=/usr/local/cuda/lib64, the GPU (RTX 3090, 10de:2204) and driver "
        "520.61.05; " + SRC_BASE,
        {"PATH": f"{prefix}/bin:/opt/conda/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "HOME": "/root", "CONDA_PREFIX": prefix, "CONDA_DEFAULT_ENV": "server",
         "LD_LIBRARY_PATH": "/usr/local/cuda/lib64"},
        real_world(
            "https://github.com/gladiaio/gladia/issues/928",
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 5, "
            "0) but found runtime version (8, 4, 1).",
            "cuDNN 8.4.1 in /usr/local/cuda/lib64 on LD_LIBRARY_PATH comes before the "
            "nvidia-cudnn-cu11 8.5.0.96 wheel torch 1.13 was built with",
            "runtime.library-shadowed", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def tf212_system_first():
    # tensorflow/tensorflow#60750: TensorFlow 2.12 installed by pip.md's conda recipe on a
    # machine whose LD_LIBRARY_PATH already names a system CUDA with cuDNN 8.1.1; the recipe
    # appends $CONDA_PREFIX/lib/:$CUDNN_PATH/lib after it, so the system copy is loaded.
    dst, root = base_root("rw-tf212-system-cudnn811-first", 0x2204, 0x1454,
                          "NVIDIA GeForce RTX 3090", "525.116.04")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    ld_conf(root)
    cuda = "/usr/local/cuda-11.2"
    link(root, "usr/local/cuda", "cuda-11.2")
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "11.2.2"\n   }\n}\n')
    cudnn_lib(root, f"{cuda}/lib64", "8.1.1")
    cudnn_header(root, f"{cuda}/include", "8.1.1")
    nvcc_component(root, cuda)
    prefix = "/home/user/miniconda3/envs/tf"
    site = tf212_pip_md_env(root, prefix, "==> 2023-06-01 15:20:00 <==\n"
                            "# cmd: /home/user/miniconda3/bin/conda create --name tf python=3.9\n"
                            "==> 2023-06-01 15:25:00 <==\n"
                            "# cmd: /home/user/miniconda3/bin/conda install -c conda-forge "
                            "cudatoolkit=11.8.0\n")
    ini(dst, TOPIC,
        "TensorFlow 2.12.0 and the nvidia-cudnn-cu11 8.6.0.163 wheel installed in a conda "
        "environment by the pip guide's recipe, whose activate.d script appends "
        "$CONDA_PREFIX/lib/:$CUDNN_PATH/lib to LD_LIBRARY_PATH; the machine's own "
        "LD_LIBRARY_PATH already names a system CUDA (/usr/local/cuda/lib64) with cuDNN 8.1.1, "
        "so ld.so takes that copy first and TensorFlow, compiled with 8.6.0, refuses it; "
        "putting the environment's directories first fixes it",
        "Rebuilt from https://github.com/tensorflow/tensorflow/issues/60750 (pasted: the "
        "'Loaded runtime CuDNN library: 8.1.1 but source was compiled with' line of cuda_dnn.cc "
        "(TF 2.12's 8.6.0), tf 2.12, the recipe's `export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:"
        "$CONDA_PREFIX/lib/:$CUDNN_PATH/lib` and the report's diagnosis: 'if the machine has a "
        "native CUDA library setting, TF will load the system library ahead of virtual "
        "environment one', the fix: the conda paths first); TensorFlow 2.12.0, "
        "nvidia-cudnn-cu11==8.6.0.163, conda-forge's cudatoolkit 11.8.0 and Python 3.9 are "
        "those of the pip guide's recipe then; " + SRC_CUDNN + "; not in the report and chosen "
        "here: where the native CUDA is (/usr/local/cuda -> cuda-11.2, 11.2.2, cuDNN 8.1.1 in "
        "its lib64, its nvcc component with bin/ptxas and nvvm/libdevice as NVIDIA's toolkit "
        "installs them: stand-in files), the environment's path and name, the conda "
        "history lines, the GPU (RTX "
        "3090, 10de:2204) and driver 525.116.04; " + SRC_BASE,
        {"PATH": f"{prefix}/bin:/home/user/miniconda3/condabin:/usr/local/cuda/bin:"
                 "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user", "CONDA_PREFIX": prefix, "CONDA_DEFAULT_ENV": "tf",
         "CUDNN_PATH": f"{site}/nvidia/cudnn",
         "LD_LIBRARY_PATH": f"/usr/local/cuda/lib64:{prefix}/lib/:{site}/nvidia/cudnn/lib"},
        real_world(
            "https://github.com/tensorflow/tensorflow/issues/60750",
            "E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime "
            "CuDNN library: 8.1.1 but source was compiled with: 8.6.0.",
            "the system CUDA's cuDNN 8.1.1 is on LD_LIBRARY_PATH before the conda "
            "environment's directories the recipe appends, so TensorFlow loads it instead of "
            "the nvidia-cudnn-cu11 8.6 wheel's; load the environment's paths first",
            "runtime.library-shadowed", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


# The CUDA 12.2 sonames TensorFlow 2.15 opens by name (framework_dlopen.tsv), cuDNN aside.
CUDA_122 = ("libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11",
            "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.12")


def tf215_system_cudnn88():
    # tensorflow/docs#2291 (fixing tensorflow/tensorflow#62626): the source-build table said
    # TF 2.15 needs cuDNN 8.8; with cuDNN 8.8 installed TensorFlow 2.15 refuses it, being
    # compiled with 8.9.4 (its setup.py pins 8.9.4); the table was corrected to 8.9.
    dst, root = base_root("rw-tf215-system-cudnn880-per-docs", 0x2204, 0x1454,
                          "NVIDIA GeForce RTX 3090", "535.129.03")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    ld_conf(root)
    cuda = "/usr/local/cuda-12.2"
    link(root, "usr/local/cuda", "cuda-12.2")
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.2.2"\n   }\n}\n')
    lib = f"{cuda}/targets/x86_64-linux/lib"
    w(root, "etc/ld.so.conf.d/cuda-12-2.conf", lib + "\n")
    for soname in CUDA_122:
        so(root, f"{lib}/{soname}", soname)
    nvcc_component(root, cuda)
    cudnn_lib(root, "usr/lib/x86_64-linux-gnu", "8.8.0")
    cudnn_header(root, "usr/include/x86_64-linux-gnu", "8.8.0", "cudnn_version_v8.h")
    link(root, "usr/include/cudnn_version.h", "x86_64-linux-gnu/cudnn_version_v8.h")
    prefix = "/home/user/tf215"
    site = venv(root, prefix, "3.10.12")
    tensorflow(root, site, "2.15.0", "tensorflow",
               tf_build_info("12.2", ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"]))
    ini(dst, TOPIC,
        "TensorFlow 2.15.0 from pip (without the and-cuda extra) in a venv, on a machine set "
        "up from the source-build table of tested configurations, which then said cuDNN 8.8 "
        "for 2.15: CUDA 12.2 and cuDNN 8.8.0 installed system-wide; TensorFlow 2.15 was "
        "compiled with cuDNN 8.9.4, so cuda_dnn.cc refuses the 8.8.0 it loads; cuDNN 8.9 "
        "fixes it (and the table now says 8.9)",
        "Rebuilt from https://github.com/tensorflow/docs/pull/2291 (pasted: 'Loaded runtime "
        "CuDNN library: 8.8.0 but source was compiled with: 8.9.4' after installing the 8.8 "
        "the table named for TF 2.15; setup.py's cuDNN 8.9.4 pin; the fix of "
        "tensorflow/tensorflow#62626: the table says 8.9); TensorFlow 2.15's build_info "
        "(CUDA 12.2, cuDNN major 8) in gen_build_info.py's form; the CUDA 12.2 libraries TF "
        "2.15 opens by name in the toolkit's targets/x86_64-linux/lib with the cuda-12-2.conf "
        "ld.so.conf.d entry NVIDIA's packages add, its nvcc component (bin/ptxas, nvvm/"
        "libdevice/libdevice.10.bc, stand-in files) as the full toolkit the table's source "
        "build needs installs it; cuDNN 8.8.0 as NVIDIA's libcudnn8 Debian "
        "package installs it (multiarch library, cudnn_version_v8.h); " + SRC_CUDNN + "; "
        "placeholders, not in the report: the venv and Python 3.10, the toolkit 12.2.2, the "
        "GPU (RTX 3090, 10de:2204), driver 535.129.03, Ubuntu 20.04; " + SRC_BASE,
        {"PATH": f"{prefix}/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "HOME": "/home/user", "VIRTUAL_ENV": prefix},
        real_world(
            "https://github.com/tensorflow/docs/pull/2291",
            "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime "
            "CuDNN library: 8.8.0 but source was compiled with: 8.9.4. CuDNN library needs to "
            "have matching major version and equal or higher minor version.",
            "the only cuDNN on the machine is 8.8.0 (what the tested-configuration table "
            "said); TensorFlow 2.15 was compiled with 8.9.4 and needs >= 8.9: install cuDNN "
            "8.9",
            "runtime.cudnn-older-than-framework", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))
    ldso_cache(dst)


def write():
    colab()
    tf212_conda()
    torch112_bundled()
    tf115()
    torch113_wheel()
    tf212_system_first()
    tf215_system_cudnn88()
