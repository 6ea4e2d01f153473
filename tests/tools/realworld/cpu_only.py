# SPDX-License-Identifier: GPL-2.0-or-later
"""A framework built without GPU support on a machine whose NVIDIA driver works
(framework.cpu-only-build): torch.cuda.is_available() is False because the installed torch
has no CUDA at all. Written by tests/tools/mk-real-world-fixtures.py cpu_only."""
from realworld.common import (SRC_BASE, base_root, ini, link, move_kernel, real_world, section,
                              torch_dist, ubuntu_os_release, w)

TOPIC = "cpu_only"
FIXTURES = ("rw-gh200-pypi-torch222-no-cuda",)
URL = "https://github.com/pytorch/pytorch/issues/123835"
DRIVER = "550.54.15"
KERNEL = "6.5.0-1013-nvidia-64k"


def gh200_pypi_torch():
    # pytorch/pytorch#123835: on a GH200 (Ubuntu 22.04 aarch64, driver 550.54.15, nvcc
    # 12.1.105) `pip install torch` in a conda environment gives torch 2.2.2, whose
    # collect_env says "CUDA used to build PyTorch: Could not collect" (torch.version.cuda
    # None): PyPI's aarch64 torch of that release was built without CUDA (the CUDA aarch64
    # wheels came with pytorch/builder#1775, April 2024); a wheel the user built from source
    # found the GPU.
    name = FIXTURES[0]
    # 10de:2342 GH100 [GH200 120GB / 480GB] (pci.ids); GH200 runs only the open kernel modules
    dst, root = base_root(name, 0x2342, 0x16eb, "NVIDIA GH200 480GB", DRIVER, flavor="open")
    w(root, "etc/os-release", ubuntu_os_release("22.04.4", "Jammy Jellyfish", "jammy"))
    move_kernel(root, "6.8.0-45-generic", KERNEL)
    # the CUDA 12.1 Update 1 toolkit (cudart and nvcc 12.1.105) on PATH, as collect_env's
    # "CUDA runtime version: 12.1.105" reads it from nvcc
    cuda = "/usr/local/cuda-12.1"
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.1.1"\n   },\n'
      '   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart)",\n'
      '      "version" : "12.1.105"\n   }\n}\n')
    w(root, f"{cuda}/bin/nvcc", "", 0o755)
    link(root, "usr/local/cuda", cuda)
    # Anaconda's Python 3.12.1 in a conda environment, torch 2.2.2 from PyPI in it
    home = "/home/user"
    base = f"{home}/anaconda3"
    env = f"{base}/envs/torch"
    w(root, f"{base}/conda-meta/history",
      "==> 2024-04-10 10:00:00 <==\n# cmd: " + base + "/bin/conda create -n torch python=3.12\n")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n")
    w(root, f"{env}/conda-meta/history",
      "==> 2024-04-10 10:01:00 <==\n# cmd: " + base + "/bin/conda create -n torch python=3.12\n")
    w(root, f"{env}/bin/python3.12", "")
    link(root, f"{env}/bin/python3", "python3.12")
    link(root, f"{env}/bin/python", "python3.12")
    site = f"{env}/lib/python3.12/site-packages"
    torch_dist(root, site, "2.2.2", "None")
    ini(dst, TOPIC,
        "A GH200 480GB (Ubuntu 22.04, kernel 6.5.0-1013-nvidia-64k, open driver 550.54.15, "
        "CUDA 12.1 on PATH) with torch 2.2.2 from PyPI in a conda environment: that torch was "
        "built without CUDA (torch.version.cuda None), so torch.cuda.is_available() is False",
        "Rebuilt from " + URL + " (pasted: collect_env's 'PyTorch version: 2.2.2', 'CUDA used "
        "to build PyTorch: Could not collect', 'OS: Ubuntu 22.04.4 LTS (aarch64)', 'Python "
        "version: 3.12.1 | packaged by Anaconda, Inc.', 'Python platform: "
        "Linux-6.5.0-1013-nvidia-64k-aarch64-with-glibc2.35', 'Is CUDA available: False', "
        "'CUDA runtime version: 12.1.105', 'GPU 0: NVIDIA GH200 480GB', 'Nvidia driver "
        "version: 550.54.15'; the thread: the same machine's from-source wheel finds the GPU; "
        "PyPI's aarch64 torch had no CUDA build until pytorch/builder#1775); torch's "
        "version.py as its wheels write it (cuda None); the CUDA 12.1 Update 1 toolkit's "
        "version.json (cuda 12.1.1, cudart 12.1.105); not in the report and chosen here: the "
        "conda environment's name and home directory, the GPU's subsystem id and bus "
        "position, the open kernel module's build line of the base fixture, the toolkit's "
        "place (/usr/local/cuda-12.1), cuDNN 9.0.0 (collect_env lists it in "
        "/usr/lib/aarch64-linux-gnu) left out; this tree keeps the base fixture's x86-64 "
        "/proc/cpuinfo and PCI topology (the report is an aarch64 Grace CPU); " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/cuda/bin:/usr/local/sbin:"
                 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda", "HOME": home},
        real_world(
            URL,
            "torch.cuda.is_available() returns false; collect_env: PyTorch version: 2.2.2, "
            "CUDA used to build PyTorch: Could not collect, GPU 0: NVIDIA GH200 480GB, Nvidia "
            "driver version: 550.54.15",
            "the torch 2.2.2 pip installed from PyPI on aarch64 is a build without CUDA; a "
            "CUDA build (built from source here) finds the GH200",
            "framework.cpu-only-build", "framework", "yes"),
        section("rtx4090-open-module", "devices"))


def write():
    gh200_pypi_torch()
