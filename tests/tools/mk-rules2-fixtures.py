#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the fixture trees of the framework/driver rules (tests/fixtures/<name>/root,
scenario.ini) from the existing workstation fixture rtx4090-open-module (its sysfs PCI tree,
/proc files and device nodes, re-identified as another GPU) plus the Python environments and
libraries each scenario needs. Run once from the source root, review, commit; the goldens then
come from `GPUENV_UPDATE_EXPECTED=1 meson test -C build-test --suite scenarios`.

  mk-rules2-fixtures.py [rocm | cudnn | ltoir]   (only rx7600-rocm-torch-override /
                                   h100-cudnn-wheel-no-sm90 / h100-torch-ltoir-newer-than-nvjitlink)

Formats: torch/version.py as pytorch's tools/generate_torch_version.py writes it; dist-info
METADATA/RECORD as pip writes them; /proc/driver/nvidia/version as the proprietary kernel
module prints it; TensorFlow 2.15's tree is copied from the python-tf215 fixture. Every .so is
a stand-in: libtorch_cuda.so is built by nvcc 13.0 for the targets named per fixture (nvcc 13
cannot target sm_70 and below, so older wheels' lists are cut to what it can build, which the
scenarios say), the driver libraries are tiny gcc-built ELF files with the real SONAMEs. None
of them is written here: each scenario.ini's [elf] section describes them and
tests/tools/fixture_root.py builds them at test time (the kernel module likewise: [modules]).
"""
import os
import shutil
import sys

FIX = "tests/fixtures"
ELF = {}  # fixture root -> its [elf] lines (path, spec)
BASE = f"{FIX}/rtx4090-open-module"


def w(root, path, text, mode=None):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    if mode:
        os.chmod(full, mode)


def link(root, path, target):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.lexists(full):
        os.unlink(full)
    os.symlink(target, full)


def so(root, path, soname):
    """A tiny gcc-built shared object with this SONAME (fixture_root.py [elf] kind so)."""
    ELF.setdefault(root, []).append((path, f"so soname={soname}"))


def libtorch_cuda(root, path, sass, ptx):
    """One kernel for SASS sm_<sass> and PTX compute_<ptx>, SONAME libtorch_cuda.so, built by
    nvcc 13.0 (fixture_root.py [elf] kind cuda)."""
    spec = f"cuda soname=libtorch_cuda.so sass={','.join(sass)}" + (f" ptx={','.join(ptx)}" if ptx else "")
    ELF.setdefault(root, []).append((path, spec))


def base_root(name, device, subsys, model, drv, flavor="proprietary", audio=None):
    """The rtx4090-open-module tree as another NVIDIA GPU on another driver (the goldens under
    expected/ stay)."""
    dst = f"{FIX}/{name}"
    root = f"{dst}/root"
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(dst, exist_ok=True)
    ELF.pop(root, None)
    shutil.copytree(f"{BASE}/root", root, symlinks=True)
    gpu = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    w(root, f"{gpu}/device", f"0x{device:04x}\n")
    w(root, f"{gpu}/subsystem_device", f"0x{subsys:04x}\n")
    if audio is None:
        shutil.rmtree(f"{root}/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.1")
        os.unlink(f"{root}/sys/bus/pci/devices/0000:01:00.1")
    else:
        w(root, "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.1/device", f"0x{audio:04x}\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    if flavor == "proprietary":
        w(root, "proc/driver/nvidia/version",
          f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  Release Build  "
          "(dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025\n"
          "GCC version:  gcc version 13.2.0 (Ubuntu 13.2.0-23ubuntu4) \n")
    else:
        with open(f"{root}/proc/driver/nvidia/version") as f:
            text = f.read().replace("550.120", drv)
        w(root, "proc/driver/nvidia/version", text)
    info = f"{root}/proc/driver/nvidia/gpus/0000:01:00.0/information"
    with open(info) as f:
        text = f.read().replace("NVIDIA GeForce RTX 4090", model)
    w(root, "proc/driver/nvidia/gpus/0000:01:00.0/information", text)
    # the .run installer's module path stays; the module file itself is not read here
    return dst, root


def base_ini():
    with open(f"{BASE}/scenario.ini") as f:
        text = f.read()
    return text[text.index("[devices]"):]


def torch_dist(root, site, version, cuda, hip="None", requires=()):
    w(root, f"{site}/torch/version.py",
      "from typing import Optional\n\n"
      "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
      f"__version__ = '{version}'\ndebug = False\n"
      f"cuda: Optional[str] = {cuda}\n"
      "git_version = '0fabc3ba44823f257e70ce397d989c8de5e362c1'\n"
      f"hip: Optional[str] = {hip}\nxpu: Optional[str] = None\n")
    w(root, f"{site}/torch/__init__.py", "")
    di = f"{site}/torch-{version}.dist-info"
    req = "".join(f"Requires-Dist: {r}\n" for r in requires)
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n"
      "Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
      "Home-page: https://pytorch.org/\nLicense: BSD-3-Clause\nRequires-Python: >=3.9.0\n" + req)
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", f"torch/__init__.py,,\ntorch/version.py,,\ntorch-{version}.dist-info/METADATA,,\n")


def nvidia_wheel(root, site, name, version, libdir, libs):
    di = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
      "Summary: CUDA Runtime native Libraries\nAuthor: Nvidia CUDA Installer Team\n"
      "License: NVIDIA Proprietary Software\n")
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", "".join(f"nvidia/{libdir}/{l},sha256=,1\n" for l in libs) +
      f"{name.replace('-', '_')}-{version}.dist-info/METADATA,,\n")
    for l in libs:
        so(root, f"{site}/nvidia/{libdir}/{l}", l)


def venv(root, prefix, pyver):
    w(root, f"{prefix}/pyvenv.cfg", f"home = /usr/bin\ninclude-system-site-packages = false\n"
      f"version = {pyver}\nexecutable = /usr/bin/python{pyver.rsplit('.', 1)[0]}\n"
      f"command = /usr/bin/python3 -m venv {prefix}\n")
    link(root, f"{prefix}/bin/python3", f"/usr/bin/python{pyver.rsplit('.', 1)[0]}")
    link(root, f"{prefix}/bin/python", "python3")
    return f"{prefix}/lib/python{pyver.rsplit('.', 1)[0]}/site-packages"


def torch_cu130(root, site):
    torch_dist(root, site, "2.9.0+cu130", "'13.0'",
               requires=["nvidia-cuda-runtime==13.0.96; platform_system == \"Linux\"",
                         "nvidia-cudnn-cu13==9.13.0.50; platform_system == \"Linux\""])
    libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90", "100", "120"],
                  ["120"])
    nvidia_wheel(root, site, "nvidia-cuda-runtime", "13.0.96", "cu13/lib", ["libcudart.so.13"])


def scenario(dst, desc, source, env, devices=True, extra="", real_world=""):
    if "mk-rules2-fixtures.py" not in source:
        source += "; the tree is written by tests/tools/mk-rules2-fixtures.py"
    elf = ELF.get(f"{dst}/root", [])
    if elf:
        source += ("; its ELF files are not committed: [elf] describes them and "
                   "tests/tools/fixture_root.py builds them at test time")
    text = f"[scenario]\ndescription = {desc}\nsource = {source}\nargs = --no-vendor\n{extra}\n[env]\n"
    text += "".join(f"{k}={v}\n" for k, v in env.items())
    if devices:
        text += "\n" + base_ini()
    if elf:
        text += "\n[elf]\n" + "".join(f"{p} = {spec}\n" for p, spec in elf)
    if real_world:  # the public report it was rebuilt from (tests/tools/score-real-world.py)
        text += "\n[real-world]\n" + real_world
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write(text)


SRC_BASE = ("the sysfs PCI tree, /proc/modules, /proc/self/status, /etc/group and device nodes of "
            "the rtx4090-open-module fixture (see its sources) with the GPU's vendor/device/"
            "subsystem ids as pci.ids lists them; /proc/driver/nvidia/version in the proprietary "
            "module's format (NVRM version: NVIDIA UNIX x86_64 Kernel Module <version> …)")
# a Blackwell GPU's tree: the open module's line (the proprietary module does not drive it)
SRC_BASE_OPEN = SRC_BASE.replace(
    "in the proprietary module's format (NVRM version: NVIDIA UNIX x86_64 Kernel Module "
    "<version> …)", "in the open module's format (the base tree's line, the version replaced)")
SRC_TORCH = ("torch version.py as tools/generate_torch_version.py writes it; dist-info METADATA/"
             "INSTALLER/RECORD in pip's format with the wheel's Requires-Dist pins; "
             "torch/lib/libtorch_cuda.so is a stand-in built by nvcc 13.0 (make: "
             "tests/tools/mk-rules2-fixtures.py) whose fat binary carries the wheel's targets "
             "(pytorch_wheels.tsv)")


def main():
    # 1. torch cu130 on R550, rebuilt from sglang #11395 (its pasted warning: torch under
    # /usr/local/lib/python3.10/dist-packages, 'found version 12040' = the R550 driver)
    dst, root = base_root("torch-cu130-on-r550", 0x2684, 0x167c, "NVIDIA GeForce RTX 4090",
                          "550.54.15", audio=0x22ba)
    torch_cu130(root, "/usr/local/lib/python3.10/dist-packages")
    w(root, "/usr/local/cuda-12.4/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.4.1"\n   }\n}\n')
    link(root, "/usr/local/cuda", "cuda-12.4")
    os.makedirs(f"{root}/usr/local/cuda-12.4/bin", exist_ok=True)
    w(root, "/usr/local/cuda-12.4/bin/nvcc", "", 0o755)
    scenario(dst, "A machine on driver 550.54.15 (R550: CUDA 12.4) where torch 2.9.0+cu130 (CUDA "
             "13.0 needs R580) was pip-installed into the system Python 3.10 "
             "(/usr/local/lib/python3.10/dist-packages): CUDA initialization fails with 'The "
             "NVIDIA driver on your system is too old (found version 12040)' and torch falls back "
             "to the CPU ('No accelerator (CUDA, XPU, HPU) is available. - Falling back to CPU'); "
             "nvcc on PATH is the CUDA 12.4 toolkit, which torch does not use",
             "Rebuilt from https://github.com/sgl-project/sglang/issues/11395 (pasted: 'Warning: "
             "No accelerator (CUDA, XPU, HPU) is available. - Falling back to CPU', "
             "'/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:182: UserWarning: "
             "CUDA initialization: The NVIDIA driver on your system is too old (found version "
             "12040)' (12040 is CUDA 12.4, the R550 driver), the reporter's 'To upgrade to CUDA 13 "
             "is necessary have newer Drivers'); not in the report and chosen here: the GPU (an RTX "
             "4090: the report names none), the driver's exact release (550.54.15, CUDA 12.4 Update "
             "1's driver: any R550 reports 12040), torch's exact version (2.9.0+cu130, the first "
             "release with CUDA 13.0 wheels; the report, of 9 October 2025, ran a candidate or "
             "nightly of it) and its nvidia-cuda-runtime wheel, the "
             "CUDA 12.4 toolkit at /usr/local/cuda (a CUDA 12.4 devel base image's), that the "
             "tree is a host's rather than a container's (the report does not say); " + SRC_BASE +
             "; " + SRC_TORCH + " (2.9 cu130: sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 + "
             "compute_120); nvidia-cuda-runtime 13.0.96 as torch 2.9's cu130 pins name it, its "
             "libcudart.so.13 under nvidia/cu13/lib; CUDA 12.4.1 version.json as NVIDIA ships it",
             {"PATH": "/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                      "/sbin:/bin", "HOME": "/root"},
             real_world="url = https://github.com/sgl-project/sglang/issues/11395\n"
             "pasted = UserWarning: CUDA initialization: The NVIDIA driver on your system is too "
             "old (found version 12040). Please update your GPU driver by downloading and "
             "installing a new version\n"
             "cause = torch built with CUDA 13.0 needs an R580 driver; the machine's driver "
             "supports CUDA 12.4 (found version 12040): newer drivers are needed for CUDA 13\n"
             "root_cause = framework.cuda-newer-than-driver\n"
             "layer = framework\n"
             "fails = yes\n")

    # 2. the same torch on a GTX 1080 with R580 (the last branch for Pascal)
    dst, root = base_root("torch-cu130-gtx1080", 0x1b80, 0x119e, "NVIDIA GeForce GTX 1080",
                          "580.95.05", audio=0x10f0)
    site = venv(root, "/home/user/venv", "3.12.3")
    torch_cu130(root, site)
    scenario(dst, "A GeForce GTX 1080 (Pascal, compute capability 6.1) on driver 580.95.05 (R580, "
             "the last branch for Pascal) with torch 2.9.0+cu130, whose lowest target is sm_75: "
             "'Found GPU0 NVIDIA GeForce GTX 1080 which is of cuda capability 6.1. PyTorch no "
             "longer supports this GPU because it is too old.' (CUDA 12.8+ wheels dropped "
             "Maxwell and Pascal, pytorch #157517)",
             SRC_BASE + "; " + SRC_TORCH + " (2.9 cu130: sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 + "
             "compute_120)",
             {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"})

    # 3. an H100 PCIe with an old torch (no kernel image) and TensorFlow 2.15 (PTX JIT)
    dst, root = base_root("h100-old-frameworks", 0x2331, 0x1626, "NVIDIA H100 PCIe", "535.104.05")
    site = venv(root, "/home/user/venv", "3.10.12")
    torch_dist(root, site, "2.0.1+cu117", "'11.7'")
    libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86"], [])
    shutil.copytree(f"{FIX}/python-tf215/root/usr/local/lib", f"{root}/usr/local/lib",
                    symlinks=True, dirs_exist_ok=True)
    scenario(dst, "An H100 PCIe (compute capability 9.0) on driver 535.104.05 with torch "
             "2.0.1+cu117 in a venv (SASS up to sm_86, no PTX: 'NVIDIA H100 PCIe with CUDA "
             "capability sm_90 is not compatible with the current PyTorch installation', then "
             "'no kernel image is available for execution on the device') and TensorFlow 2.15 in "
             "/usr/local (sm_35…sm_75 SASS + compute_80 PTX: 'TensorFlow was not built with CUDA "
             "kernel binaries compatible with compute capability 9.0. CUDA kernels will be "
             "jit-compiled from PTX, which could take 30 minutes or longer.')",
             SRC_BASE + "; " + SRC_TORCH + " (2.0 cu117: sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86, "
             "no PTX; the stand-in has the sm_75/80/86 part nvcc 13 can build); TensorFlow 2.15 "
             "tree copied from the python-tf215 fixture (its sources)",
             {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"})

    # 4. a source build of torch with CUDA 13.0 PTX on an RTX 5090 with R575 (its open kernel
    # module: the proprietary one does not initialise a Blackwell GPU)
    dst, root = base_root("torch-src-ptx-rtx5090-r575", 0x2b85, 0x205b, "NVIDIA GeForce RTX 5090",
                          "575.64.03", flavor="open", audio=0x22e8)
    site = venv(root, "/home/user/venv", "3.12.3")
    torch_dist(root, site, "2.9.0a0+git0fabc3b", "'13.0'")
    libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["80", "86", "90"], ["90"])
    scenario(dst, "An RTX 5090 (compute capability 12.0) on driver 575.64.03 (R575: CUDA 12.9, "
             "JITs PTX ISA up to 8.8) with torch built from source against CUDA 13.0 with "
             "TORCH_CUDA_ARCH_LIST='8.0;8.6;9.0+PTX': no sm_120 SASS, and the compute_90 PTX "
             "has ISA 9.0, so kernels fail with 'the provided PTX was compiled with an "
             "unsupported toolchain'; the CUDA 13.0 runtime also needs R580",
             SRC_BASE_OPEN + "; " + SRC_TORCH + " (here a source build: sm_80 sm_86 sm_90 + compute_90, "
             "PTX ISA 9.0 as nvcc 13.0 emits it); a source build has no wheel pins",
             {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"})

    # 5. a container whose image puts an old cuda-compat libcuda first
    dst = f"{FIX}/cuda-compat-older-than-driver"
    if os.path.exists(dst):
        shutil.rmtree(dst)
    root = f"{dst}/root"
    os.makedirs(root)
    w(root, "/.dockerenv", "")
    w(root, "/proc/1/cgroup", "0::/\n")
    w(root, "/proc/sys/kernel/osrelease", "5.15.0-105-generic\n")
    w(root, "/sys/module/nvidia/version", "550.54.15\n")
    w(root, "/proc/driver/nvidia/version",
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"
      "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04) \n")
    os.makedirs(f"{root}/etc")
    shutil.copy(f"{FIX}/container-stale-libs/root/etc/os-release", f"{root}/etc/os-release")
    lib = "/usr/lib/x86_64-linux-gnu"
    so(root, f"{lib}/libcuda.so.550.54.15", "libcuda.so.1")
    link(root, f"{lib}/libcuda.so.1", "libcuda.so.550.54.15")
    so(root, f"{lib}/libnvidia-ml.so.550.54.15", "libnvidia-ml.so.1")
    link(root, f"{lib}/libnvidia-ml.so.1", "libnvidia-ml.so.550.54.15")
    compat = "/usr/local/cuda-12.2/compat"
    so(root, f"{compat}/libcuda.so.535.104.05", "libcuda.so.1")
    link(root, f"{compat}/libcuda.so.1", "libcuda.so.535.104.05")
    link(root, f"{compat}/libcuda.so", "libcuda.so.1")
    so(root, f"{compat}/libnvidia-ptxjitcompiler.so.535.104.05", "libnvidia-ptxjitcompiler.so.1")
    link(root, f"{compat}/libnvidia-ptxjitcompiler.so.1", "libnvidia-ptxjitcompiler.so.535.104.05")
    w(root, "/usr/local/cuda-12.2/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.2.2"\n   }\n}\n')
    link(root, "/usr/local/cuda", "cuda-12.2")
    scenario(dst, "A container from an image built on nvidia/cuda:12.2.2 with the cuda-compat-12-2 "
             "package (libcuda 535.104.05 under /usr/local/cuda/compat) and "
             "ENV LD_LIBRARY_PATH=/usr/local/cuda/compat:… (forward compatibility for an older "
             "host), now run on a host whose driver was upgraded to 550.54.15: the compat "
             "libcuda is older than the kernel module and cuInit fails with "
             "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)",
             "cuda-compat package layout (libcuda.so.<driver version>, libnvidia-ptxjitcompiler) "
             "as NVIDIA's cuda-compat-12-2 535.104.05 deb installs it under "
             "/usr/local/cuda-12.2/compat; injected driver libraries in the multiarch directory as "
             "the NVIDIA Container Toolkit mounts them; /proc/driver/nvidia/version of the host's "
             "550.54.15 module; cgroup v2 /proc/1/cgroup ('0::/'); CUDA 12.2.2 version.json; the "
             "libraries are tiny gcc-built ELF files with the real SONAMEs",
             {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                      "/usr/sbin:/usr/bin:/sbin:/bin",
              "LD_LIBRARY_PATH": "/usr/local/cuda/compat:/usr/local/nvidia/lib:/usr/local/nvidia/lib64",
              "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
              "CUDA_VERSION": "12.2.2"}, devices=False)




def cuda_lib(root, path, soname, sass, ptx=()):
    """A stand-in NVIDIA library whose fat binary carries these targets (fixture_root.py [elf]
    kind cuda, built by nvcc 13.0)."""
    spec = f"cuda soname={soname} sass={','.join(sass)}" + (f" ptx={','.join(ptx)}" if ptx else "")
    ELF.setdefault(root, []).append((path, spec))


def cudnn_wheel_no_sm90():
    """An H100 whose torch has sm_90 kernels but whose cuDNN wheel library has none."""
    dst, root = base_root("h100-cudnn-wheel-no-sm90", 0x2330, 0x16c1, "NVIDIA H100 80GB HBM3",
                          "550.120")
    site = venv(root, "/home/user/venv", "3.12.3")
    torch_dist(root, site, "2.4.0+cu124", "'12.4'",
               requires=["nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == \"x86_64\"",
                         "nvidia-cublas-cu12==12.4.2.65; platform_system == \"Linux\" and platform_machine == \"x86_64\""])
    libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    nvidia_wheel(root, site, "nvidia-cudnn-cu12", "9.1.0.70", "cudnn/lib",
                 ["libcudnn.so.9", "libcudnn_engines_precompiled.so.9"])
    nvidia_wheel(root, site, "nvidia-cublas-cu12", "12.4.2.65", "cublas/lib",
                 ["libcublasLt.so.12"])
    # the wheel's libraries as stand-ins with GPU code: cuDNN's kernels only for sm_80
    ELF[root] = [e for e in ELF[root] if "/nvidia/cudnn/lib/libcudnn_engines" not in e[0]
                 and "/nvidia/cublas/" not in e[0]]
    cuda_lib(root, f"{site}/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9",
             "libcudnn_engines_precompiled.so.9", ["80"])
    cuda_lib(root, f"{site}/nvidia/cublas/lib/libcublasLt.so.12", "libcublasLt.so.12",
             ["80", "90"])
    scenario(dst, "Constructed: an H100 SXM (compute capability 9.0) on driver 550.120 with torch "
             "2.4.0+cu124 in a venv, whose own kernels have sm_90 SASS, but whose nvidia-cudnn-cu12 "
             "wheel was replaced by a build whose libcudnn_engines_precompiled.so.9 carries only "
             "sm_80 SASS and no PTX: torch imports and runs, and the first cuDNN convolution "
             "fails with 'CUDA error: no kernel image is available for execution on the device'",
             SRC_BASE + "; " + SRC_TORCH + " (2.4 cu124: sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 "
             "sm_90; the stand-in has the sm_75/80/86/90 part nvcc 13 can build); the "
             "nvidia-cudnn-cu12 and nvidia-cublas-cu12 wheels' libraries under nvidia/cudnn/lib "
             "and nvidia/cublas/lib as their RECORD files list them, the cuDNN engines library "
             "and libcublasLt.so.12 stand-ins built by nvcc 13.0 for sm_80 (cuDNN) and "
             "sm_80 sm_90 (cuBLASLt)",
             {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"})


def ltoir_newer_than_nvjitlink():
    """An H100 whose torch environment's cuFFT carries LTO-IR newer than its nvJitLink links,
    and whose cuSPARSE carries LTO-IR of a release the knowledge base cannot place against
    nvJitLink 12.4 (could not tell)."""
    dst, root = base_root("h100-torch-ltoir-newer-than-nvjitlink", 0x2330, 0x16c1,
                          "NVIDIA H100 80GB HBM3", "550.120")
    site = venv(root, "/home/user/venv", "3.12.3")
    pins = [("nvidia-cufft-cu12", "11.2.1.3"), ("nvidia-cusparse-cu12", "12.3.1.170"),
            ("nvidia-nvjitlink-cu12", "12.4.99")]
    torch_dist(root, site, "2.4.0+cu124", "'12.4'",
               requires=[f"{n}=={v}; platform_system == \"Linux\" and platform_machine == "
                         "\"x86_64\"" for n, v in pins])
    libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    nvidia_wheel(root, site, "nvidia-cufft-cu12", "11.2.1.3", "cufft/lib", ["libcufft.so.11"])
    nvidia_wheel(root, site, "nvidia-cusparse-cu12", "12.3.1.170", "cusparse/lib",
                 ["libcusparse.so.12"])
    nvidia_wheel(root, site, "nvidia-nvjitlink-cu12", "12.4.99", "nvjitlink/lib",
                 ["libnvJitLink.so.12"])
    ELF[root] = [e for e in ELF[root] if "/nvidia/cufft/" not in e[0]
                 and "/nvidia/cusparse/" not in e[0]]
    ELF[root].append((f"{site}/nvidia/cufft/lib/libcufft.so.11",
                      "cuda soname=libcufft.so.11 sass=90 lto=90 ltoir=1.66"))
    ELF[root].append((f"{site}/nvidia/cusparse/lib/libcusparse.so.12",
                      "cuda soname=libcusparse.so.12 sass=90 lto=90"))
    scenario(dst, "Constructed: an H100 SXM (compute capability 9.0) on driver 550.120 with torch "
             "2.4.0+cu124 in a venv and the nvidia-nvjitlink-cu12 12.4.99 wheel it pins; its "
             "cuFFT carries sm_90 SASS and lto_90 LTO-IR of version 1.66 (newer than CUDA 13.0's "
             "1.65, the newest release the knowledge base places), its cuSPARSE sm_90 SASS and "
             "the LTO-IR 1.65 nvcc 13.0 writes. Everything runs as SASS; a program that links "
             "cuFFT's LTO-IR at run time gets 'ERROR 4 in nvvmAddNVVMContainerToProgram, may "
             "need newer version of nvJitLink library' (the error text of "
             "https://github.com/numba/numba/issues/10353), and whether nvJitLink 12.4 links "
             "cuSPARSE's 1.65 cannot be told (no public source ties a CUDA 12 release to its "
             "LTO-IR version)",
             SRC_BASE + "; " + SRC_TORCH + " (2.4 cu124: the stand-in has the sm_75/80/86/90 "
             "part nvcc 13 can build); the nvidia-cufft-cu12, nvidia-cusparse-cu12 and "
             "nvidia-nvjitlink-cu12 wheels' libraries under nvidia/<name>/lib as their RECORD "
             "files list them; the cuFFT and cuSPARSE stand-ins built by nvcc 13.0 with "
             "-gencode arch=compute_90,code=lto_90 (real LTO-IR 1.65), cuFFT's version bytes "
             "then set to 1.66 in the entry header and the NVVM container (fixture_root.py "
             "ltoir=); nvJitLink's rule: https://docs.nvidia.com/cuda/nvjitlink/index.html "
             "(Compatibility: the nvJitLink must be of the same or newer version)",
             {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"})


def rocm_elf():
    """The [elf] lines of python-rocm62-torch (libtorch_hip.so), whose venv is copied."""
    with open(f"{FIX}/python-rocm62-torch/scenario.ini") as f:
        ini = f.read()
    return "\n" + ini[ini.index("[elf]\n"):]


def rocm_override():
    """One Radeon RX 7600 (gfx1102) with torch 2.5.1+rocm6.2 and HSA_OVERRIDE_GFX_VERSION."""
    dst = f"{FIX}/rx7600-rocm-torch-override"
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    root = f"{dst}/root"
    shutil.copytree(f"{FIX}/mi300x-amdgpu/root", root, symlinks=True)
    keep = {"0000:00:00.0", "0000:00:01.1", "0000:00:07.1", "0000:02:00.0", "0000:03:00.0",
            "0000:04:00.0", "0000:05:00.0"}
    devs = f"{root}/sys/bus/pci/devices"
    for d in sorted(os.listdir(devs)):
        if d in keep:
            continue
        target = os.path.normpath(os.path.join(devs, os.readlink(f"{devs}/{d}")))
        os.unlink(f"{devs}/{d}")
        if os.path.isdir(target):
            shutil.rmtree(target)
    gpu = os.path.normpath(os.path.join(devs, os.readlink(f"{devs}/0000:05:00.0")))
    w(gpu, "device", "0x7480\n")
    w(gpu, "class", "0x030000\n")
    w(gpu, "subsystem_vendor", "0x1002\n")
    w(gpu, "subsystem_device", "0x0e4c\n")
    nodes = f"{root}/sys/devices/virtual/kfd/kfd/topology/nodes"
    for n in os.listdir(nodes):
        if int(n) > 2:
            shutil.rmtree(f"{nodes}/{n}")
    with open(f"{nodes}/2/properties") as f:
        props = f.read().replace("gfx_target_version 90402", "gfx_target_version 110002")
    w(nodes, "2/properties", props)
    with open(f"{root}/proc/self/status") as f:
        st = f.read().replace("Groups:\t4 24 27 30 44 46 112 1000 ", "Groups:\t4 24 27 30 44 46 109 112 1000 ")
    w(root, "proc/self/status", st)
    with open(f"{root}/usr/share/misc/pci.ids") as f:
        ids = f.read().replace("\t74a0  Aqua Vanjaram [Instinct MI300A]\n",
                               "\t7480  Navi 33 [Radeon RX 7600/7600 XT/7600M XT/7600S/7700S / PRO W7600]\n"
                               "\t74a0  Aqua Vanjaram [Instinct MI300A]\n")
    w(root, "usr/share/misc/pci.ids", ids)
    shutil.copytree(f"{FIX}/python-rocm62-torch/root/home", f"{root}/home", symlinks=True)
    with open(f"{FIX}/mi300x-amdgpu/scenario.ini") as f:
        ini = f.read()
    devices = "".join(l for l in ini[ini.index("[devices]"):].splitlines(True)
                      if l.startswith(("[devices]", "/dev/kfd", "/dev/dri/card0 ", "/dev/dri/card1 ",
                                       "/dev/dri/renderD128 ")))
    text = ("[scenario]\ndescription = A Radeon RX 7600 (Navi 33, gfx1102; KFD gfx_target_version "
            "110002) with torch 2.5.1+rocm6.2 in a venv, whose code objects cover gfx900 gfx906 "
            "gfx908 gfx90a gfx942 gfx1030 gfx1100 but not gfx1102, run with "
            "HSA_OVERRIDE_GFX_VERSION=11.0.0 as the common advice for RDNA3 cards says: the "
            "runtime loads the gfx1100 kernels on a gfx1102 GPU\n"
            "source = the mi300x-amdgpu fixture (its sources) reduced to one GPU: the GPU "
            "function's device/class/subsystem ids made those of an RX 7600 (1002:7480, class "
            "0x030000, pci.ids 'Navi 33' line added to the excerpt), KFD node 2's "
            "gfx_target_version 110002 (gfx1102, AMD's LLVM AMDGPU processor table); its other "
            "KFD properties and BAR sizes are the MI300X's (gpuenv does not read them); the user "
            "in group render (109); the venv of the python-rocm62-torch fixture (its sources, "
            "libtorch_hip.so offload bundle included); the tree is written by "
            "tests/tools/mk-rules2-fixtures.py\nargs = --no-vendor\n\n[env]\n"
            "PATH=/home/user/venv-rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
            "VIRTUAL_ENV=/home/user/venv-rocm\nHOME=/home/user\nHSA_OVERRIDE_GFX_VERSION=11.0.0\n\n"
            + devices + rocm_elf())
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write(text)


if __name__ == "__main__":
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if sys.argv[1:] == ["rocm"]:
        rocm_override()
    elif sys.argv[1:] == ["cudnn"]:
        cudnn_wheel_no_sm90()
    elif sys.argv[1:] == ["ltoir"]:
        ltoir_newer_than_nvjitlink()
    else:
        main()
        rocm_override()
        cudnn_wheel_no_sm90()
        ltoir_newer_than_nvjitlink()
