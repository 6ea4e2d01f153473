# SPDX-License-Identifier: GPL-2.0-or-later
"""Two CUDA toolkits on one Ubuntu machine: the distribution's nvidia-cuda-toolkit package
(nvcc in /usr/bin, headers in /usr/include) comes first on PATH, while NVIDIA's runfile
toolkit is /usr/local/cuda; a build compiles with the one and reads the other
(runtime.toolkits-disagree). Written by tests/tools/mk-real-world-fixtures.py distro_nvcc."""
from realworld.common import SRC_BASE, base_root, ini, link, real_world, section, so, w

TOPIC = "distro_nvcc"
FIXTURES = ("rw-ubuntu1604-distro-nvcc75-over-cuda100",)
URL = "https://github.com/traveller59/spconv/issues/186"
DRIVER = "430.50"

XENIAL_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="16.04.6 LTS (Xenial Xerus)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 16.04.6 LTS"\nVERSION_ID="16.04"\nHOME_URL="http://www.ubuntu.com/"\n'
    'SUPPORT_URL="http://help.ubuntu.com/"\nBUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n'
    'VERSION_CODENAME=xenial\nUBUNTU_CODENAME=xenial\n')

# The PATH nvcc itself reported in the thread ("found 'PATH=' string"), without the
# /usr/lib/nvidia-cuda-toolkit/bin that the package's nvcc.profile puts in front of it for
# nvcc's own subprocesses: the user's shell PATH, which has no CUDA directory, so the first
# nvcc on it is /usr/bin/nvcc.
SHELL_PATH = ("/home/user/anaconda3/envs/lq-PCDet/bin:/home/user/anaconda3/bin:"
              "/home/user/anaconda3/bin:/home/user/anaconda3/condabin:/home/user/anaconda3/bin:"
              "/home/user/anaconda3/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
              "/bin:/usr/games:/usr/local/games:/snap/bin:/usr/local/protobuf/bin:"
              "/usr/local/matlab/bin:/usr/local/protobuf/bin:/usr/local/matlab/bin")


def cuda_runtime_api_h(root, incdir, cudart):
    """The runtime header's version macro (cuda_runtime_api.h: 1000 * major + 10 * minor)."""
    w(root, f"{incdir}/cuda_runtime_api.h",
      "/*\n * Copyright 1993-2015 NVIDIA Corporation.  All rights reserved.\n */\n\n"
      "#if !defined(__CUDA_RUNTIME_API_H__)\n#define __CUDA_RUNTIME_API_H__\n\n"
      f"#define CUDART_VERSION  {cudart}\n\n#endif /* !__CUDA_RUNTIME_API_H__ */\n")


def xenial_nvcc75_cuda100():
    # traveller59/spconv#186: `nvcc -V` printed release 7.5, V7.5.17 while
    # /usr/local/cuda/version.txt said 10.0; the maintainer: remove the distribution's CUDA
    # (nvidia-cuda-toolkit) and keep CUDA 10.x. The nvcc -v trace the user pasted later names
    # the package's /usr/lib/nvidia-cuda-toolkit/bin, __CUDACC_VER__=70517 and gcc 5.4.0
    # (--gnu_version=50400, Ubuntu 16.04's).
    name = FIXTURES[0]
    # 10de:1b06 GP102 [GeForce GTX 1080 Ti] (pci.ids): a placeholder, the thread names no GPU
    dst, root = base_root(name, 0x1b06, 0x120f, "GeForce GTX 1080 Ti", DRIVER)
    w(root, "etc/os-release", XENIAL_OS_RELEASE)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Thu Sep  5 22:36:31 CDT 2019\n"
      "GCC version:  gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.12) \n")
    # Ubuntu's nvidia-cuda-toolkit 7.5.18: /usr/bin/nvcc (a stand-in file: only its place on
    # PATH is read), the real compiler under /usr/lib/nvidia-cuda-toolkit/bin, the headers of
    # nvidia-cuda-dev in /usr/include, libcudart7.5 in the multiarch directory
    w(root, "usr/bin/nvcc", "#!/bin/sh\nexec /usr/lib/nvidia-cuda-toolkit/bin/nvcc \"$@\"\n", 0o755)
    w(root, "usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile",
      "PATH += /usr/lib/nvidia-cuda-toolkit/bin:$(_HERE_):\n")
    cuda_runtime_api_h(root, "usr/include", 7050)
    so(root, "usr/lib/x86_64-linux-gnu/libcudart.so.7.5.18", "libcudart.so.7.5")
    link(root, "usr/lib/x86_64-linux-gnu/libcudart.so.7.5", "libcudart.so.7.5.18")
    # NVIDIA's CUDA 10.0 runfile: /usr/local/cuda-10.0 and the /usr/local/cuda link it makes
    cuda = "/usr/local/cuda-10.0"
    link(root, "usr/local/cuda", cuda)
    w(root, f"{cuda}/version.txt", "CUDA Version 10.0.130\n")
    w(root, f"{cuda}/bin/nvcc", "", 0o755)
    so(root, f"{cuda}/lib64/libcudart.so.10.0.130", "libcudart.so.10.0")
    link(root, f"{cuda}/lib64/libcudart.so.10.0", "libcudart.so.10.0.130")
    ini(dst, TOPIC,
        "Ubuntu 16.04 with two CUDA toolkits: the distribution's nvidia-cuda-toolkit 7.5 "
        "(/usr/bin/nvcc, headers in /usr/include) is the only nvcc on PATH, NVIDIA's CUDA "
        "10.0 runfile install is /usr/local/cuda; building spconv (python setup.py "
        "bdist_wheel) compiles with nvcc 7.5 against a CUDA 10 PyTorch setup and fails",
        "Rebuilt from " + URL + " (pasted: `nvcc -V` 'Cuda compilation tools, release 7.5, "
        "V7.5.17' built Tue_Aug_11_14:27:32_CDT_2015, /usr/local/cuda/version.txt showing "
        "10.0, the nvcc -v trace with its PATH (found 'PATH=' string, used here as [env] "
        "PATH without the /usr/lib/nvidia-cuda-toolkit/bin that nvcc.profile puts first), "
        "-L/usr/lib/x86_64-linux-gnu/stubs, __CUDACC_VER__=70517 and --gnu_version=50400; "
        "the maintainer's reply: remove nvidia-cuda-toolkit and reinstall CUDA 10.x); the "
        "nvidia-cuda-toolkit 7.5.18 layout of Ubuntu 16.04 (/usr/bin/nvcc, "
        "/usr/lib/nvidia-cuda-toolkit/bin, /usr/include/cuda_runtime_api.h with CUDART_VERSION "
        "7050, libcudart.so.7.5.18 in /usr/lib/x86_64-linux-gnu); the CUDA 10.0 runfile's "
        "/usr/local/cuda-10.0 with version.txt 'CUDA Version 10.0.130' and the "
        "/usr/local/cuda link it makes; not in the report and chosen here: 10.0.130 as the "
        "patch level, the GPU (GeForce GTX 1080 Ti, 10de:1b06, its subsystem id), driver "
        "430.50 and its build line, the kernel and module tree of the base fixture; the "
        "libraries are tiny gcc-built ELF stand-ins with the real SONAMEs, the nvcc files "
        "stand-ins; " + SRC_BASE,
        {"PATH": SHELL_PATH, "HOME": "/home/user"},
        real_world(
            URL,
            "nvcc: NVIDIA (R) Cuda compiler driver / Copyright (c) 2005-2015 NVIDIA "
            "Corporation / Built on Tue_Aug_11_14:27:32_CDT_2015 / Cuda compilation tools, "
            "release 7.5, V7.5.17 (while /usr/local/cuda/version.txt shows cuda 10.0)",
            "two toolkits: the distribution's nvidia-cuda-toolkit 7.5 nvcc (/usr/bin) is the "
            "one on PATH, CUDA 10.0 is /usr/local/cuda; the build mixes them: remove "
            "nvidia-cuda-toolkit and use CUDA 10.x (the maintainer's reply)",
            "runtime.toolkits-disagree", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))


def write():
    xenial_nvcc75_cuda100()
