# SPDX-License-Identifier: GPL-2.0-or-later
"""A sixth outside evaluator's round (rw49d): fresh 2025-2026 reports from the places with the
most users on NVIDIA and Linux (vLLM and its users' stacks, llama.cpp, the CUDA 13 wheels),
rebuilt only as far as each thread shows the machine: torch 2.11.0 from PyPI (CUDA 13.0) on a
570 driver (CUDA 12.8), and NVIDIA's cuda-compat-12-9 put on the loader path of a machine with
GeForce cards. The scores before any change are in docs/HACKING.md ("Reports an outside
evaluator would pick", sixth round). Written by tests/tools/mk-real-world-fixtures.py
outside6."""
import shutil

from realworld.common import (FIX, base_root, driver_libs, fresh, ini, ldso_cache, link, mk2,
                              real_world, section, so, torch_dist, w)
from realworld.compat import UBUNTU
from realworld.libs import conda_env

TOPIC = "outside6"
FIXTURES = ("rw-funasr-torch211-cu130-on-r570-2973",
            "rw-llamacpp-cuda-compat-129-geforce-17542",
            "rw-llamacpp-cuda13-image-compat-ldconf-r595-23111")
NV_BASE = "rtx4090-open-module"
PLACEHOLDER_GPU = ("the GPU is the base fixture's GeForce RTX 4090 (10de:2684) on its open kernel "
                   "module, kernel 6.8.0-45-generic and Ubuntu 24.04.1: the report does not "
                   "show them, these are a common layout of its time")


def funasr_2973():
    """modelscope/FunASR#2973: `pip install torch torchaudio` (unpinned, June 2026: torch
    2.11.0, whose PyPI wheel is built with CUDA 13.0) then vllm>=0.12.0 in an environment
    named funasr_vllm, on a 570.86.10 driver (nvidia-smi: CUDA Version 12.8); PyTorch: "The
    NVIDIA driver on your system is too old (found version 12080)". The maintainer: the wheel's
    CUDA runtime is newer than the driver supports; install the vLLM/torch pair built for
    CUDA 12.x or upgrade the driver (the guide's fix: modelscope/FunASR#3009)."""
    name = FIXTURES[0]
    url = "https://github.com/modelscope/FunASR/issues/2973"
    drv = "570.86.10"
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", drv, flavor="open",
                          audio=0x22ba)
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/funasr_vllm"
    conda_env(root, base, env, "3.12")
    site = f"{env}/lib/python3.12/site-packages"
    torch_dist(root, site, "2.11.0", "'13.0'")
    sections = [section(NV_BASE, "devices"),
                "[modules]\n/lib/modules/6.8.0-45-generic/kernel/drivers/video/nvidia.ko = "
                f"{drv}, -, none, Dual MIT/GPL\n"]
    pasted = ("pip install torch torchaudio / pip install vllm>=0.12.0 / The NVIDIA driver on "
              "your system is too old (found version 12080) / NVIDIA-SMI 570.86.10 Driver "
              "Version: 570.86.10 CUDA Version: 12.8")
    ini(dst, TOPIC,
        "torch 2.11.0 from PyPI (built with CUDA 13.0) in a conda environment on a 570.86.10 "
        "driver, whose CUDA is 12.8: PyTorch says the driver is too old (found version 12080) "
        "and vLLM cannot start",
        f"Rebuilt from {url} (pasted: the install commands 'pip install torch torchaudio' and "
        "'pip install vllm>=0.12.0', the error 'The NVIDIA driver on your system is too old "
        "(found version 12080)', nvidia-smi's header 'NVIDIA-SMI 570.86.10 Driver Version: "
        "570.86.10 CUDA Version: 12.8'; the maintainer: torch 2.11.0, a wheel whose CUDA "
        "runtime is newer than the driver supports; a commenter: torch 2.11.0's PyPI wheel "
        "depends on the CUDA 13 nvidia-* wheels); torch.version.cuda '13.0' is what the 2.11.0 "
        "PyPI wheel carries (facts/data/pytorch_wheels.tsv); placeholders, not in the report: "
        "the environment's place (/home/user/miniconda3/envs/funasr_vllm, from the prompt's "
        "'(funasr_vllm)'), Python 3.12, no vllm or nvidia-* wheels written (only torch's "
        "version is read), no libtorch_cuda.so; " + PLACEHOLDER_GPU + "; " + mk2.SRC_TORCH,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "funasr_vllm", "HOME": "/home/user"},
        real_world(
            url, pasted,
            "torch 2.11.0 from PyPI is built with CUDA 13.0; the 570.86.10 driver supports "
            "CUDA 12.8: install the torch/vLLM pair built for CUDA 12.x or upgrade the driver "
            "(the maintainer)",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        *sections)


def llamacpp_17542():
    """ggml-org/llama.cpp#17542: cuda-toolkit-12.5 and cuda-compat-12.9 installed, the compat
    directory put on the loader path by an environment variable, on 2x RTX 3090 + 5x RTX 4090;
    llama-server: "ggml_cuda_init: failed to initialize CUDA: system has unsupported display
    driver / cuda driver combination" (CUDA error 803); without the cuda-compat variable it
    works (the reporter). NVIDIA's forward compatibility is for data-center GPUs only."""
    name = FIXTURES[1]
    url = "https://github.com/ggml-org/llama.cpp/issues/17542"
    drv, compat = "580.95.05", "575.57.08"
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", drv, flavor="open",
                          audio=0x22ba)
    # The driver's own user-space libraries (the base fixture has none) and glibc's
    # multiarch ld.so.conf, which Ubuntu's libc6 installs.
    driver_libs(root, drv)
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
      "/usr/lib/x86_64-linux-gnu\n")
    # cuda-compat-12-9 as NVIDIA's package installs it: libcuda of the 575.57.08 driver that
    # came with CUDA 12.9.1, under the toolkit's compat/ directory.
    comp = "usr/local/cuda-12.9/compat"
    for soname, real in (("libcuda.so.1", f"libcuda.so.{compat}"),
                         ("libnvidia-ptxjitcompiler.so.1",
                          f"libnvidia-ptxjitcompiler.so.{compat}")):
        link(root, f"{comp}/{soname}", real)
        so(root, f"{comp}/{real}", soname)
    link(root, f"{comp}/libcuda.so", "libcuda.so.1")
    # cuda-toolkit-12-5: nvcc's version file and the runtime llama.cpp was built against.
    w(root, "usr/local/cuda-12.5/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.5.1"\n   }\n}\n')
    link(root, "usr/local/cuda-12.5/lib64", "targets/x86_64-linux/lib")
    so(root, "usr/local/cuda-12.5/targets/x86_64-linux/lib/libcudart.so.12.5.82",
       "libcudart.so.12")
    link(root, "usr/local/cuda-12.5/targets/x86_64-linux/lib/libcudart.so.12",
         "libcudart.so.12.5.82")
    link(root, "usr/local/cuda", "/usr/local/cuda-12.5")
    sections = [section(NV_BASE, "devices"),
                "[modules]\n/lib/modules/6.8.0-45-generic/kernel/drivers/video/nvidia.ko = "
                f"{drv}, -, none, Dual MIT/GPL\n"]
    pasted = ("ggml_cuda_init: failed to initialize CUDA: system has unsupported display driver "
              "/ cuda driver combination / version: 7172 (b78db3bd5) / built with cc (Ubuntu "
              "11.4.0-1ubuntu1~22.04.2) 11.4.0 for x86_64-linux-gnu")
    ini(dst, TOPIC,
        "llama.cpp built with CUDA 12.5 on GeForce RTX cards, NVIDIA's cuda-compat-12-9 on the "
        "loader path (LD_LIBRARY_PATH): CUDA's forward compatibility is not supported on "
        "GeForce GPUs and the compat libcuda is older than the kernel driver, so CUDA "
        "initialisation fails with error 803",
        f"Rebuilt from {url} (pasted: llama-cli's 'ggml_cuda_init: failed to initialize CUDA: "
        "system has unsupported display driver / cuda driver combination', 'version: 7172 "
        "(b78db3bd5)', 'built with cc (Ubuntu 11.4.0-1ubuntu1~22.04.2) 11.4.0'; the hardware "
        "line '2x RTX 3090 + 5x RTX 4090'; the reporter: 'installed both cuda-toolkit-12.5 and "
        "cuda-compat-12.9, and configured the environment variables … When I removed the "
        "environment variable for cuda-compat-12.9, the error no longer occurred'); chosen "
        "here: cuda-compat-12-9's libcuda 575.57.08 (CUDA 12.9.1's driver) under "
        "/usr/local/cuda-12.9/compat as NVIDIA's package installs it, the variable as "
        "LD_LIBRARY_PATH (NVIDIA's CUDA Compatibility guide), cuda-toolkit-12-5's 12.5.1 under "
        "/usr/local/cuda-12.5; placeholders, not in the report: the driver 580.95.05 (error 803 "
        "says the kernel driver is newer than the compat libcuda, so newer than 575.57.08; "
        "the version is not shown), one of the seven GPUs (a GeForce RTX 4090), the "
        "distribution (the base's Ubuntu 24.04.1; llama.cpp was built on Ubuntu 22.04), " +
        PLACEHOLDER_GPU + "; the libraries are tiny gcc-built ELF files with the real SONAMEs",
        {"PATH": "/usr/local/cuda-12.5/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin",
         "LD_LIBRARY_PATH": "/usr/local/cuda-12.9/compat:/usr/local/cuda-12.5/lib64",
         "HOME": "/root"},
        real_world(
            url, pasted,
            "cuda-compat-12.9 on the loader path of GeForce RTX 3090/4090 cards, which CUDA's "
            "forward compatibility does not support; removing its environment variable fixed "
            "it (the reporter)",
            "runtime.cuda-compat-unsupported", "runtime", "yes"),
        *sections)
    ldso_cache(dst)


def llamacpp_23111():
    """ggml-org/llama.cpp#23111: ghcr.io/ggml-org/llama.cpp:server-cuda13 under Docker with CDI
    on an RTX 5090 host with driver 595.58.03 (nvidia-container-toolkit 1.18.1): CUDA fails to
    initialise; the image's compat libs override the host driver; `rm -rf /usr/local/cuda*/compat
    && ldconfig` at container start fixes it (the reporter). NVIDIA's runtime images install
    cuda-compat with /etc/ld.so.conf.d/000_cuda_compat.conf, so ldconfig puts the compat libcuda
    first; on a newer host driver it is older than the kernel module (the maintainer of
    CrispStrobe/CrispASR#31, the same failure and fix)."""
    name = FIXTURES[2]
    url = "https://github.com/ggml-org/llama.cpp/issues/23111"
    host, compat = "595.58.03", "590.44.01"
    dst, root = fresh(name)
    gpu = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    # The host's sysfs as a container sees it (Docker mounts it read-only), from the
    # torch-cu130-gtx1080 fixture's PCI tree, the GPU re-identified as the RTX 5090.
    for sub in ("bus", "devices", "kernel"):
        shutil.copytree(f"{FIX}/torch-cu130-gtx1080/root/sys/{sub}", f"{root}/sys/{sub}",
                        symlinks=True)
    w(root, f"{gpu}/device", "0x2b85\n")
    w(root, "sys/module/nvidia/version", host + "\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {host}  Release Build  "
      "(dvs-builder@U22-I3-AE18-23-3)  Thu Mar  5 00:00:00 UTC 2026\n"
      "GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04) \n")
    w(root, "proc/sys/kernel/osrelease", "6.8.0-106-generic\n")
    w(root, "proc/1/cgroup", "0::/\n")
    w(root, ".dockerenv", "")
    w(root, "etc/os-release", UBUNTU.format(v="24.04.3 LTS", c="Noble Numbat", id="24.04",
                                            cn="noble"))
    # nvidia/cuda:13.1.0-runtime-ubuntu24.04: the toolkit's runtime and cuda-compat-13-1
    # (libcuda of 590.44.01, CUDA 13.1's driver) with its ld.so.conf.d file.
    w(root, "usr/local/cuda-13.1/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "13.1.0"\n   }\n}\n')
    link(root, "usr/local/cuda", "/usr/local/cuda-13.1")
    comp = "usr/local/cuda-13.1/compat"
    for soname, real in (("libcuda.so.1", f"libcuda.so.{compat}"),
                         ("libnvidia-ptxjitcompiler.so.1",
                          f"libnvidia-ptxjitcompiler.so.{compat}")):
        link(root, f"{comp}/{soname}", real)
        so(root, f"{comp}/{real}", soname)
    link(root, f"{comp}/libcuda.so", "libcuda.so.1")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    w(root, "etc/ld.so.conf.d/000_cuda_compat.conf", "/usr/local/cuda/compat\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
      "/usr/lib/x86_64-linux-gnu\n")
    # The host driver's libraries the CDI spec mounts (nvidia-ctk cdi generate lists them by
    # their host paths; its update-ldcache hook then runs ldconfig in the container).
    driver_libs(root, host, dev_links=())
    sections = ["[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
                "/dev/nvidia-uvm = c 508:0 0666 0:0\n/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n"]
    pasted = ("ghcr.io/ggml-org/llama.cpp:server-cuda13 / RTX 5090 (Blackwell, sm_120), NVIDIA "
              "driver 595.58.03, CUDA 13.2, nvidia-container-toolkit 1.18.1, Docker with CDI "
              "enabled / rm -rf /usr/local/cuda*/compat && ldconfig && exec /app/llama-server")
    ini(dst, TOPIC,
        "Inside llama.cpp's server-cuda13 image (nvidia/cuda:13.1.0-runtime-ubuntu24.04, whose "
        "cuda-compat libcuda 590.44.01 ldconfig lists first through 000_cuda_compat.conf) on an "
        "RTX 5090 host with driver 595.58.03: the loader picks the compat libcuda, older than "
        "the kernel module, and CUDA fails to initialise (error 803)",
        f"Rebuilt from {url} (pasted: the image 'ghcr.io/ggml-org/llama.cpp:server-cuda13', "
        "'RTX 5090 (Blackwell, sm_120), NVIDIA driver 595.58.03, CUDA 13.2, "
        "nvidia-container-toolkit 1.18.1, Docker with CDI enabled', the workaround 'rm -rf "
        "/usr/local/cuda*/compat && ldconfig'; the reporter: the compat libs override the host "
        "driver when it is newer than the image's CUDA); the image's base as llama.cpp's "
        ".devops/cuda-new.Dockerfile names it (CUDA_VERSION=13.1.0, runtime-ubuntu24.04; the "
        "digest of 2026-05-15 is not shown); cuda-compat-13-1's libcuda 590.44.01 (CUDA 13.1's "
        "driver) and /etc/ld.so.conf.d/000_cuda_compat.conf naming /usr/local/cuda/compat as "
        "NVIDIA's runtime images install them (the maintainer of "
        "https://github.com/CrispStrobe/CrispASR/issues/31: 'the 000_ prefix … makes ldconfig "
        "register the compat libcuda first'); etc/ld.so.cache made by glibc's ldconfig over "
        "the tree, as the CDI spec's update-ldcache hook runs it; the host's PCI sysfs from "
        "the torch-cu130-gtx1080 fixture with the GPU re-identified (10de:2b85; subsystem ids "
        "placeholders); /.dockerenv and cgroup v2 /proc/1/cgroup; placeholders, not in the "
        "report: the host kernel 6.8.0-106-generic, the module's build line (the open module, "
        "which Blackwell requires), the device nodes' nvidia-uvm major; the libraries are tiny "
        "gcc-built ELF files with the real SONAMEs",
        {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
         "CUDA_VERSION": "13.1.0"},
        real_world(
            url, pasted,
            "the image's cuda-compat libcuda, registered first by 000_cuda_compat.conf, is "
            "older than the host's 595.58.03 kernel driver (and forward compatibility is not "
            "supported on a GeForce RTX 5090): removing the compat directory and rerunning "
            "ldconfig fixed it (the reporter; CrispStrobe/CrispASR#31's maintainer, the same "
            "cause)",
            "runtime.cuda-compat-unsupported", "runtime", "yes"),
        *sections)
    ldso_cache(dst)


def write():
    funasr_2973()
    llamacpp_17542()
    llamacpp_23111()
