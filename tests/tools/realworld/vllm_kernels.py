# SPDX-License-Identifier: GPL-2.0-or-later
"""vLLM and the GPU code it runs (framework.no-kernel-image): on a Blackwell GeForce (compute
capability 12.0) the torch vLLM pins, a CUDA 12.4/12.6 build with SASS up to sm_90 and no PTX,
fails at the engine's first CUDA tensor; on a Pascal GeForce (6.1) torch runs but vLLM's own
kernels (vllm/_C.abi3.so, built for 7.0 and up) have no image for it. Written by
`tests/tools/mk-real-world-fixtures.py vllm_kernels`.
"""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, ini, mk2, move_kernel,
                              real_world, section, torch_dist, venv, w)
from realworld.libs import conda_env
from realworld.wheels import BASE, CU124_LIST, UBUNTU2204, kern_log

TOPIC = "vllm_kernels"
FIXTURES = ("rw-rtx5090-vllm084-torch260-vllm-16901", "rw-rtx5090-vllm072-torch251-vllm-13306",
            "rw-rtx5070ti-vllm010-image-vllm-21633", "rw-gtx1080ti-vllm091-kernels-vllm-19542")
SRC_STANDIN = ("the stand-in libtorch_cuda.so carries sm_75 sm_80 sm_86 sm_90 of the pasted "
               f"list ({CU124_LIST}; nvcc 13.0 builds nothing below sm_75; neither list has "
               "anything for 12.0, the verdict is the same)")
WARNING = ("{model} with CUDA capability sm_120 is not compatible with the current PyTorch "
           "installation. The current PyTorch install supports CUDA capabilities "
           f"{CU124_LIST}.")



def venv_env(prefix):
    """The environment of a shell with the venv at prefix activated."""
    return {"PATH": f"{prefix}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "VIRTUAL_ENV": prefix, "HOME": "/home/user"}

def blackwell_venv(name, dev, model, drv, rel, osrel, prefix, python, torch, cuda):
    """A Blackwell GPU on the open module `drv` (kernel `rel`) with a venv at `prefix` holding
    vLLM's torch `torch` (CUDA `cuda`). Returns (dst, root, site, sections)."""
    dst, root = base_root(name, dev, 0x0000, model, drv, flavor="open")
    w(root, "etc/os-release", osrel)
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, "ws", "Apr 21 09:12:11", drv)
    site = venv(root, prefix, python)
    torch_dist(root, site, torch, f"'{cuda}'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none, "
                "Dual MIT/GPL\n"]
    return dst, root, site, sections


def cuda128_toolkit(root, sdk, nvcc):
    """/usr/local/cuda-12.8 as NVIDIA's installers leave it: version.json and bin/nvcc (an
    empty stand-in)."""
    tk = "/usr/local/cuda-12.8"
    w(root, f"{tk}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "' + sdk + '"\n   },\n'
      '   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n      "version" : "' + nvcc +
      '"\n   }\n}\n')
    w(root, f"{tk}/bin/nvcc", "", 0o755)


def vllm_dist(root, site, version, torch_pin):
    di = f"{site}/vllm-{version}.dist-info"
    w(root, f"{site}/vllm/__init__.py", "")
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: vllm\nVersion: {version}\n"
      "Summary: A high-throughput and memory-efficient inference and serving engine for LLMs\n"
      f"Requires-Dist: torch=={torch_pin}\n")
    w(root, f"{di}/INSTALLER", "pip\n")


def vllm_16901():
    """vllm-project/vllm#16901: vLLM from PyPI on an RTX 5090 (driver 570.124.06, CUDA 12.8
    toolkit), its torch the cu124 build."""
    name = "rw-rtx5090-vllm084-torch260-vllm-16901"
    prefix = "/home/user/vllm/.venv"
    dst, root, site, sections = blackwell_venv(
        name, 0x2b85, "NVIDIA GeForce RTX 5090", "570.124.06", "6.8.0-57-generic", UBUNTU2204,
        prefix, "3.10.12", "2.6.0+cu124", "12.4")
    vllm_dist(root, site, "0.8.4", "2.6.0")
    cuda128_toolkit(root, "12.8.1", "12.8.93")
    pasted = ("RuntimeError: CUDA error: no kernel image is available for execution on the "
              "device")
    ini(dst, TOPIC,
        "Ubuntu 22.04 with a GeForce RTX 5090 (compute capability 12.0) on driver 570.124.06 "
        "and the CUDA 12.8 toolkit, vLLM from PyPI in a Python 3.10 venv: vLLM 0.8.4 pins torch "
        "2.6.0, whose PyPI wheel is the CUDA 12.4 build with SASS up to sm_90 and no PTX, so "
        "the engine fails at its first CUDA tensor; the toolkit is not what torch uses, and "
        "torch's nightly cu128 build fixes it",
        "Rebuilt from https://github.com/vllm-project/vllm/issues/16901 (pasted: the "
        "RuntimeError, 'NVIDIA RTX 5090', 'CUDA Driver Version: 12.8', 'CUDA Toolkit: "
        "12.8.93', 'NVIDIA Driver: 570.124.06', 'vLLM Version: Latest (from PyPI)', 'PyTorch "
        "Version: 2.x (installed via pip)', Python 3.10, Ubuntu 22.04, the reporter's reading "
        "that torch has no sm_120; in the thread, installing torch's nightly cu128 build in the "
        "same environment made the crash go); derived, not pasted: vLLM 0.8.4 (PyPI's release "
        "on 2025-04-21, the day of the report) and its torch==2.6.0 pin, whose default PyPI "
        "wheel is the CUDA 12.4 build (2.6.0+cu124); placeholders, not in the report: the venv "
        "and its Python 3.10.12, the toolkit's place /usr/local/cuda-12.8 (version.json with "
        "12.8.1 / nvcc 12.8.93, not on PATH), the PCI id 10de:2b85 (GB202 [GeForce RTX 5090], "
        "nvidia_devices.tsv) in the base fixture's single slot, the open module (which "
        "Blackwell requires) in updates/dkms, kernel 6.8.0-57-generic, Ubuntu 22.04.5's "
        "os-release; " + SRC_STANDIN + "; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        venv_env(prefix),
        real_world(
            "https://github.com/vllm-project/vllm/issues/16901", pasted,
            "vLLM's torch (2.6.0, the CUDA 12.4 build) has no sm_120 SASS and no PTX: no kernel "
            "image for the RTX 5090; a CUDA 12.8 torch build (the nightly cu128 then, 2.7 "
            "later) fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def vllm_13306():
    """vllm-project/vllm#13306: a plain `pip install vllm` on an RTX 5090 in February 2025."""
    name = "rw-rtx5090-vllm072-torch251-vllm-13306"
    prefix = "/home/user/vllm/.venv"
    dst, root, site, sections = blackwell_venv(
        name, 0x2b85, "NVIDIA GeForce RTX 5090", "570.86.16", "6.8.0-52-generic", UBUNTU2204,
        prefix, "3.12.3", "2.5.1+cu124", "12.4")
    vllm_dist(root, site, "0.7.2", "2.5.1")
    pasted = (WARNING.format(model="NVIDIA GeForce RTX 5090") + " RuntimeError: CUDA error: no "
              "kernel image is available for execution on the device")
    ini(dst, TOPIC,
        "A GeForce RTX 5090 (compute capability 12.0) with vLLM installed from PyPI: vLLM 0.7.2 "
        "pins torch 2.5.1, whose PyPI wheel is the CUDA 12.4 build with SASS for "
        f"{CU124_LIST} and no PTX; torch warns that the GPU is not compatible and the engine "
        "fails with 'no kernel image'; only torch's nightly CUDA 12.8 builds had sm_120 then",
        "Rebuilt from https://github.com/vllm-project/vllm/issues/13306 (pasted: 'Vanilla vllm "
        "installation' on an RTX 5090, torch's sm_120 warning with the supported list, the "
        "RuntimeError; the thread: 'only nightlies from torch targeting 12.8 support "
        "blackwell', vLLM on the 5090 ran once built against torch's cu128 nightly, and vLLM "
        "moved to torch 2.7 with CUDA 12.8 (vllm-project/vllm#16859)); derived, not pasted: "
        "vLLM 0.7.2 (PyPI's release on 2025-02-14, the day of the report) and its torch==2.5.1 "
        "pin, whose default PyPI wheel is the CUDA 12.4 build; placeholders, not in the report: "
        "the driver 570.86.16 (an R570 driver, which the 5090 needs), the venv with Python "
        "3.12.3, the PCI id 10de:2b85 (GB202 [GeForce RTX 5090], nvidia_devices.tsv) in the "
        "base fixture's single slot, the open module in updates/dkms, kernel 6.8.0-52-generic, "
        "Ubuntu 22.04.5's os-release; " + SRC_STANDIN + "; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        venv_env(prefix),
        real_world(
            "https://github.com/vllm-project/vllm/issues/13306", pasted,
            "vLLM's torch (2.5.1, the CUDA 12.4 build) has no sm_120 SASS and no PTX: no kernel "
            "image for the RTX 5090; a torch built with CUDA 12.8 (then the nightly cu128, from "
            "2.7 the release) fixes it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


def vllm_21633():
    """vllm-project/vllm#21633: the v0.10.0 image's torch on an RTX 5070 Ti."""
    name = "rw-rtx5070ti-vllm010-image-vllm-21633"
    dst, root = base_root(name, 0x2c05, 0x0000, "NVIDIA GeForce RTX 5070 Ti", "575.64.03",
                          flavor="open")
    # gpuenv run in the vLLM container (docker compose's service vllm-1): Docker marks it
    w(root, ".dockerenv", "")
    site = "/usr/local/lib/python3.12/dist-packages"
    w(root, "usr/bin/python3.12", "", 0o755)
    torch_dist(root, site, "2.7.1+cu126", "'12.6'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    vllm_dist(root, site, "0.10.0", "2.7.1")
    pasted = ("UserWarning: " + WARNING.format(model="NVIDIA GeForce RTX 5070 Ti"))
    ini(dst, TOPIC,
        "vLLM 0.10.0 as its image installs it (Python 3.12, /usr/local/lib/python3.12/"
        "dist-packages) on a GeForce RTX 5070 Ti (compute capability 12.0): the torch 2.7.1 "
        f"in it is a CUDA 12.6 build, SASS for {CU124_LIST} and no PTX, so torch warns the GPU "
        "is not compatible and nothing runs; v0.9.2's image ran on the same GPU, and a torch "
        "with sm_120 (the CUDA 12.8 build) fixes it",
        "Rebuilt from https://github.com/vllm-project/vllm/issues/21633 (pasted: torch's "
        "UserWarning from /usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py with "
        "the supported list, the RTX 5070 Ti, 'v0.9.2 works with SM-120 ... v0.10.0 does not', "
        "the diagnosis in the title: v0.10.0 built with a torch that does not support sm_120); "
        "derived, not pasted: torch 2.7.1 (vLLM 0.10.0's pin, vllm-project/vllm#21011) in its "
        "CUDA 12.6 build (the pasted list is that of torch's CUDA 12.6 wheels; the 12.8 builds "
        "list sm_100 and sm_120); gpuenv run inside the container (/.dockerenv; the devices and "
        "sysfs as the container sees them); placeholders, not in the report: the driver "
        "575.64.03, the container's environment (NVIDIA_VISIBLE_DEVICES/"
        "NVIDIA_DRIVER_CAPABILITIES as the NVIDIA container toolkit sets them), the host's "
        "kernel, module tree and os-release from the base fixture, the interpreter "
        "/usr/bin/python3.12 (an empty stand-in), the PCI id 10de:2c05 (GB203 [GeForce RTX "
        "5070 Ti], nvidia_devices.tsv) in the base fixture's single slot; " + SRC_STANDIN +
        "; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
         "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"},
        real_world(
            "https://github.com/vllm-project/vllm/issues/21633", pasted,
            "the v0.10.0 image's torch 2.7.1 is a CUDA 12.6 build without sm_120 SASS or PTX: "
            "no kernel image for the RTX 5070 Ti; a torch build with sm_120 (CUDA 12.8) fixes "
            "it",
            "framework.no-kernel-image", "framework", "yes"),
        section(BASE, "devices"))


def fatbin_so(root, path, soname, sass):
    """A stand-in holding one fat binary container with SASS for `sass` and no PTX
    (tests/tools/fatbin_writer.py: headers only, no code; CUDA 12.6's PTX ISA 8.5)."""
    mk2.ELF.setdefault(root, []).append(
        (path, f"fatbin soname={soname} sass={','.join(sass)} ptx= ptxisa=8.5"))


def vllm_19542():
    """vllm-project/vllm#19542: vLLM 0.9.1 from pip on a GTX 1080 Ti (compute capability
    6.1): torch 2.7.0+cu126 carries sm_60 SASS, which runs on 6.1; vLLM's kernels do not."""
    name = "rw-gtx1080ti-vllm091-kernels-vllm-19542"
    drv, rel = "570.133.07", "5.4.0-137-generic"
    # 10de:1b06 GP102 [GeForce GTX 1080 Ti] (pci.ids)
    dst, root = base_root(name, 0x1b06, 0x0000, "NVIDIA GeForce GTX 1080 Ti", drv)
    osrel = UBUNTU2004_OS_RELEASE.replace("20.04.6", "20.04.5")
    w(root, "etc/os-release", osrel)
    move_kernel(root, "6.8.0-45-generic", rel)
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/vllm"
    conda_env(root, base, env, "3.10")
    site = f"{env}/lib/python3.10/site-packages"
    torch_dist(root, site, "2.7.0+cu126", "'12.6'")
    fatbin_so(root, f"{site}/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
              ["50", "60", "70", "75", "80", "86", "90"])
    vllm_dist(root, site, "0.9.1", "2.7.0")
    fatbin_so(root, f"{site}/vllm/_C.abi3.so", "_C.abi3.so", ["70", "75", "80", "89", "90"])
    cuda128_toolkit(root, "12.8.0", "12.8.61")
    pasted = ("RuntimeError: CUDA error: no kernel image is available for execution on the "
              "device")
    ini(dst, TOPIC,
        "vLLM 0.9.1 from pip with torch 2.7.0+cu126 in a conda environment (Python 3.10, "
        "conda-forge) on Ubuntu 20.04.5 with a GeForce GTX 1080 Ti (Pascal GP102, compute "
        "capability 6.1): torch's sm_60 SASS runs on it, but vLLM's own kernels "
        "(vllm/_C.abi3.so) are built for compute capability 7.0 and up, so its first op fails "
        "with 'no kernel image is available for execution on the device'; a vLLM built from "
        "source for 6.1 runs",
        "Rebuilt from https://github.com/vllm-project/vllm/issues/19542 (pasted: collect_env: "
        "'Ubuntu 20.04.5 LTS', 'PyTorch version: 2.7.0+cu126', 'CUDA used to build PyTorch: "
        "12.6', Python 3.10.18 packaged by conda-forge, 'Linux-5.4.0-137-generic', 'CUDA "
        "runtime version: 12.8.61', 'GPU 0: NVIDIA GeForce GTX 1080 Ti', vLLM 0.9.1 installed "
        "by pip, the nvidia-*-cu12 12.6 wheels; the title: no CUDA kernel image for the GTX "
        "1080 Ti (compute 6.1) with the pip-installed vLLM); the cause: vLLM's wheels are "
        "built for compute capability 7.0 or higher (vLLM's GPU installation requirements; "
        "vllm-project/vllm#963, a maintainer: Pascal runs once vLLM is built from source), "
        "while torch's CUDA 12.6 wheels carry sm_50 and sm_60 SASS; the stand-ins "
        "(tests/tools/fatbin_writer.py: headers as CUDA 12.6 writes them, no code): "
        "libtorch_cuda.so with torch's cu126 list (sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90, "
        "no PTX) and vllm/_C.abi3.so with sm_70 sm_75 sm_80 sm_89 sm_90 and no PTX (the "
        "wheel's exact list was not pasted; any list from 7.0 up, PTX or not, has nothing a "
        "6.1 GPU runs); placeholders, not in the report: the driver 570.133.07 (an R570, "
        "which the 12.8 toolkit needs) as the proprietary module in updates/dkms, the conda "
        "environment's path, the toolkit's place /usr/local/cuda-12.8 on PATH (version.json "
        "12.8.0 / nvcc 12.8.61), the nvidia-* wheels not written (no GPU code gpuenv judges "
        "for 6.1 in them), the GPU's subsystem id and bus position, Ubuntu 20.04's "
        "os-release; " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/cuda-12.8/bin:/usr/local/sbin:"
                 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "vllm", "HOME": "/home/user"},
        real_world(
            "https://github.com/vllm-project/vllm/issues/19542", pasted,
            "vLLM's pip wheels carry kernels for compute capability 7.0 and up only; the GTX "
            "1080 Ti is 6.1, so vLLM's own ops have no kernel image although torch's cu126 "
            "build (sm_60 SASS) runs on it; build vLLM from source for 6.1 (or use a GPU of "
            "7.0 or newer)",
            "framework.no-kernel-image", "framework", "yes"),
        section(BASE, "devices"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none, NVIDIA\n")


def write():
    vllm_19542()
    vllm_16901()
    vllm_13306()
    vllm_21633()
