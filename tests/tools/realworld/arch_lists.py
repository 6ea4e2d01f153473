# SPDX-License-Identifier: GPL-2.0-or-later
"""torch wheels whose architecture list leaves the GPU out, from both ends: a CUDA 12.8 build
(sm_70 to sm_120) on a Pascal Tesla P100 (6.0, older than every target:
framework.gpu-too-old-for-build), and a CUDA 10.2 build (sm_37 to sm_70, no PTX) on an A100
(8.0, newer than every target: framework.no-kernel-image). Written by
tests/tools/mk-real-world-fixtures.py arch_lists."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, mk2, move_kernel,
                              real_world, section, torch_dist, venv, w)

TOPIC = "arch_lists"
FIXTURES = ("rw-p100-torch210-cu128-kaggle-cli-1151", "rw-a100-torch1101-cu102-wpfs-3",
            "rw-p100-torch-cu128-kaggle-docker-python-1546",
            "rw-rtx5060ti-torch-cu124-wyoming-xtts-1")
BASE = "rtx4090-open-module"
# torch.cuda.get_arch_list() of the 2.10 cu128 wheel (src/facts/data/pytorch_wheels.tsv; the
# same list pasted from Kaggle's image in Kaggle/docker-python#1546)
CU128_LIST = "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"
URL_KAGGLE = "https://github.com/Kaggle/kaggle-cli/issues/1151"
# the container's environment: the nvidia container toolkit's usual values (placeholders)
KAGGLE_ENV = {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                      "/usr/sbin:/usr/bin:/sbin:/bin",
              "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"}


def kaggle_p100(name):
    """A Tesla P100 in Kaggle's Docker image with its cu128 torch in the system site.
    Returns (dst, root)."""
    # 10de:15f8 GP100GL [Tesla P100 PCIe 16GB] (pci.ids); 10de:118f its subsystem there
    dst, root = base_root(name, 0x15f8, 0x118f, "Tesla P100-PCIE-16GB", "570.172.08")
    # a Kaggle kernel runs in Kaggle's Docker image: Docker marks the container /.dockerenv
    w(root, ".dockerenv", "")
    w(root, "proc/1/cgroup", "0::/\n")
    w(root, "usr/bin/python3.12", "", 0o755)
    site = "/usr/local/lib/python3.12/dist-packages"
    torch_dist(root, site, "2.10.0+cu128", "'12.8'",
               requires=["nvidia-cuda-runtime-cu12==12.8.90; platform_system == \"Linux\""])
    # the whole list, sm_70 included: a fatbin_writer.py container (nvcc 13.0 builds nothing
    # below sm_75); CUDA 12.8 writes PTX ISA 8.7, and the wheel carries no PTX
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/torch/lib/libtorch_cuda.so",
         "fatbin soname=libtorch_cuda.so sass=70,75,80,86,90,100,120 ptx= ptxisa=8.7"))
    return dst, root


def p100_kaggle_torch210_cu128():
    dst, _ = kaggle_p100(FIXTURES[0])
    pasted = ("machine_shape NvidiaTeslaP100 ... every CUDA operation fails with "
              "cudaErrorNoKernelImageForDevice; torch 2.10.0+cu128, torch.version.cuda == "
              "\"12.8\"; the same image on NvidiaTeslaT4 works")
    ini(dst, TOPIC,
        "A Kaggle script kernel on a Tesla P100 (Pascal, compute capability 6.0) in Kaggle's "
        "default Docker image, whose torch 2.10.0+cu128 is built for sm_70 to sm_120: the GPU "
        "is older than every target, so torch.cuda.is_available() is True and the first CUDA "
        "operation fails with cudaErrorNoKernelImageForDevice; a T4 (7.5) runs the same image",
        "Rebuilt from " + URL_KAGGLE + " (pasted: machine_shape NvidiaTeslaP100 allocates a "
        "P100, 'cudaErrorNoKernelImageForDevice' on any CUDA operation, the default image's "
        "torch 2.10.0+cu128 with torch.version.cuda == \"12.8\", the same code on a T4 works; "
        "Kaggle's answer in the thread: the image's cu128 torch no longer carries sm_60 "
        "kernels, switch to T4/L4 or install a Pascal-capable torch build, and "
        "Kaggle/kaggle-cli#1156 documents it); the image's site "
        "/usr/local/lib/python3.12/dist-packages and the P100's name 'Tesla P100-PCIE-16GB' "
        "from Kaggle/docker-python#1546 (the same image's P100 warning, with the supported "
        f"list '{CU128_LIST}'); placeholders, not in the reports: the driver 570.172.08 (any "
        "driver from R525 runs a CUDA 12.8 build by minor-version compatibility and R570-R580 "
        "drive Pascal), the GPU's subsystem id and bus position, the nvidia-cuda-runtime-cu12 "
        "pin, the container's /proc/1/cgroup (cgroup v2) and NVIDIA_VISIBLE_DEVICES/"
        "NVIDIA_DRIVER_CAPABILITIES (the nvidia container toolkit's usual values), the host's "
        "kernel and module tree and os-release from the base fixture; libtorch_cuda.so is a "
        "stand-in whose fat binary (tests/tools/fatbin_writer.py: headers as CUDA 12.8 writes "
        "them, no code) lists that whole list; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        KAGGLE_ENV,
        real_world(
            URL_KAGGLE, pasted,
            "the image's torch 2.10.0+cu128 is built for compute capability 7.0 to 12.0 and has "
            "no kernels for the P100's 6.0; a T4/L4, or a torch build with sm_60 (cu126), runs",
            "framework.gpu-too-old-for-build", "framework", "yes"),
        section(BASE, "devices"))


URL_WPFS = "https://github.com/andreimargeloiu/WPFS/issues/3"
CU102_LIST = "sm_37 sm_50 sm_60 sm_70"


def a100_torch1101_cu102():
    name = FIXTURES[1]
    drv, rel = "525.105.17", "5.4.0-150-generic"
    # 10de:20b2 GA100 [A100 SXM4 80GB], 10de:1463 its subsystem (pci.ids)
    dst, root = base_root(name, 0x20b2, 0x1463, "NVIDIA A100-SXM4-80GB", drv)
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "usr/bin/python3.8", "", 0o755)
    site = venv(root, "/home/user/WPFS/venv", "3.8.10")
    torch_dist(root, site, "1.10.1", "'10.2'")
    # the pasted list as a fatbin_writer.py container (nvcc 13.0 builds nothing below sm_75);
    # CUDA 10.2 writes PTX ISA 6.5, and the wheel carries no PTX
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/torch/lib/libtorch_cuda.so",
         "fatbin soname=libtorch_cuda.so sass=37,50,60,70 ptx= ptxisa=6.5"))
    pasted = ("NVIDIA A100-SXM4-80GB with CUDA capability sm_80 is not compatible with the "
              "current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU102_LIST}.")
    ini(dst, TOPIC,
        "WPFS's requirements.txt pins torch==1.10.1, which pip resolves to PyPI's CUDA 10.2 "
        f"build ({CU102_LIST}, no PTX): nothing in it runs on the A100's compute capability "
        "8.0, so torch warns and run_experiment.sh fails; torch==1.10.1+cu111 fixed it",
        "Rebuilt from " + URL_WPFS + " (pasted: torch's warning with 'NVIDIA "
        "A100-SXM4-80GB' and the supported list, torch v1.10.1 from the requirements.txt; the "
        "reporter's fix, confirmed by the maintainer: torch==1.10.1+cu111 and "
        "torchvision==0.11.2+cu111 in requirements.txt); placeholders, not in the report: "
        "the driver 525.105.17 (any A100 driver runs a CUDA 10.2 build's runtime), Ubuntu "
        "20.04 with kernel 5.4.0-150-generic, the venv at /home/user/WPFS/venv with Python "
        "3.8.10, the GPU's subsystem id and bus position, one GPU; libtorch_cuda.so is a "
        "stand-in whose fat binary (tests/tools/fatbin_writer.py: headers as CUDA 10.2 writes "
        "them, no code) lists the pasted SASS targets and no PTX; " + mk2.SRC_TORCH + "; " +
        SRC_BASE,
        {"PATH": "/home/user/WPFS/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/WPFS/venv", "HOME": "/home/user"},
        real_world(
            URL_WPFS, pasted,
            "torch==1.10.1 from PyPI is the CUDA 10.2 build with code for sm_37 sm_50 sm_60 "
            "sm_70 only: nothing runs on the A100's sm_80; torch==1.10.1+cu111 fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        section(BASE, "devices"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none\n")


URL_KAGGLE_IMAGE = "https://github.com/Kaggle/docker-python/issues/1546"


def p100_kaggle_image():
    dst, _ = kaggle_p100(FIXTURES[2])
    pasted = ("/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:435: UserWarning: "
              "Found GPU0 Tesla P100-PCIE-16GB which is of cuda capability 6.0. Minimum and "
              "Maximum cuda capability supported by this version of PyTorch is (7.0) - (12.0) / "
              "Please install PyTorch with a following CUDA configurations: 12.6 / Tesla "
              "P100-PCIE-16GB with CUDA capability sm_60 is not compatible with the current "
              f"PyTorch installation. The current PyTorch install supports CUDA capabilities "
              f"{CU128_LIST}.")
    ini(dst, TOPIC,
        "Training on Kaggle's P100 in the default image: the image's torch in "
        "/usr/local/lib/python3.12/dist-packages is a CUDA 12.8 build for compute capability "
        "7.0 to 12.0, the Tesla P100 is 6.0: torch warns and the model cannot train on the GPU",
        "Rebuilt from " + URL_KAGGLE_IMAGE + " (pasted: torch's three warnings from "
        "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py with 'Tesla "
        "P100-PCIE-16GB', capability 6.0, the range (7.0) - (12.0), the hint 'CUDA "
        f"configurations: 12.6' and the supported list '{CU128_LIST}'; the issue's own "
        "statement of the cause, labelled a bug by the image's maintainers; Kaggle's answer "
        "for the same image in Kaggle/kaggle-cli#1151: its cu128 torch has no sm_60 "
        "kernels, use a T4/L4 or a Pascal-capable torch); inferred, not pasted: a CUDA 12.8 "
        "build (that range and list are the cu128 wheels'); placeholders, not in the report: "
        "torch 2.10.0+cu128 (the image's torch in Kaggle/kaggle-cli#1151, four months "
        "later), the driver 570.172.08, the GPU's subsystem id and bus position, the "
        "nvidia-cuda-runtime-cu12 pin, the container's /proc/1/cgroup and "
        "NVIDIA_VISIBLE_DEVICES/NVIDIA_DRIVER_CAPABILITIES, the host's kernel, module tree "
        "and os-release from the base fixture; libtorch_cuda.so is a stand-in whose fat "
        "binary (tests/tools/fatbin_writer.py: headers as CUDA 12.8 writes them, no code) "
        "lists the pasted targets; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        KAGGLE_ENV,
        real_world(
            URL_KAGGLE_IMAGE, pasted,
            "the image's CUDA 12.8 torch is built for compute capability 7.0 to 12.0 and the "
            "P100 is 6.0: no kernels for it; a torch build with sm_60 (cu126) or another GPU",
            "framework.gpu-too-old-for-build", "framework", "yes"),
        section(BASE, "devices"))


URL_XTTS = "https://github.com/lmoe/wyoming-xtts/issues/1"
CU124_LIST = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"


def rtx5060ti_xtts():
    name = FIXTURES[3]
    # 10de:2d04 GB206 [GeForce RTX 5060 Ti] (pci.ids)
    dst, root = base_root(name, 0x2d04, 0x0000, "NVIDIA GeForce RTX 5060 Ti", "570.172.08",
                          flavor="open")
    w(root, ".dockerenv", "")
    w(root, "proc/1/cgroup", "0::/\n")
    w(root, "usr/bin/python3.11", "", 0o755)
    site = venv(root, "/opt/venv", "3.11.2")
    torch_dist(root, site, "2.6.0+cu124", "'12.4'")
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/torch/lib/libtorch_cuda.so",
         "fatbin soname=libtorch_cuda.so sass=50,60,70,75,80,86,90 ptx= ptxisa=8.4"))
    pasted = ("/opt/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:287: UserWarning: "
              "NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with "
              "the current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU124_LIST}.")
    ini(dst, TOPIC,
        "the wyoming-xtts container on an RTX 5060 Ti (Blackwell, compute capability 12.0): "
        f"the image's torch in /opt/venv is built for {CU124_LIST} without PTX, nothing runs "
        "on 12.0; the maintainer's cu128 image fixed it",
        "Rebuilt from " + URL_XTTS + " (pasted: the warning from /opt/venv/lib/python3.11/"
        "site-packages/torch/cuda/__init__.py with 'NVIDIA GeForce RTX 5060 Ti', sm_120 and "
        "the supported list; the maintainer pushed a :cu128 build, the reporter confirmed "
        "'It is works now'); placeholders, not in the report: torch 2.6.0+cu124 (a build "
        "with exactly that list, pytorch_wheels.tsv), Python 3.11.2 (the path's 3.11, "
        "Debian 12's), the driver 570.172.08 (R570 is the first Blackwell branch), the GPU's "
        "subsystem id and bus position, the container's /proc/1/cgroup and "
        "NVIDIA_VISIBLE_DEVICES/NVIDIA_DRIVER_CAPABILITIES, the host's kernel, module tree and "
        "os-release from the base fixture; libtorch_cuda.so is a stand-in whose fat binary "
        "(tests/tools/fatbin_writer.py: headers as CUDA 12.4 writes them, no code) lists the "
        "pasted targets and no PTX; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "VIRTUAL_ENV": "/opt/venv", "NVIDIA_VISIBLE_DEVICES": "all",
         "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"},
        real_world(
            URL_XTTS, pasted,
            f"the image's torch is built for {CU124_LIST} with no PTX: no kernel image for "
            "the RTX 5060 Ti's sm_120; a CUDA 12.8 build (the :cu128 image) fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        section(BASE, "devices"))


def write():
    p100_kaggle_torch210_cu128()
    a100_torch1101_cu102()
    p100_kaggle_image()
    rtx5060ti_xtts()
