#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of driver upgrades, wheels and laptops (issue 11 section 6), each rebuilt
from a public report whose thread established the cause (run from the repository root; rerun
after changing it, never edit the output). What each report pasted is kept as pasted; what it
did not show is a placeholder named as such in `source`. The trees start from the
rtx4090-open-module fixture through mk-rules2-fixtures.py's helpers.
"""
import importlib.util
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mk2", os.path.join(HERE, "mk-rules2-fixtures.py"))
mk2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk2)
FIX = mk2.FIX
w, link = mk2.w, mk2.link
LIB = "/usr/lib/x86_64-linux-gnu"
LDSO_FROM = f"{FIX}/nvml-userspace-older-570/root/etc"

UBUNTU2404 = (
    'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\n'
    'VERSION="24.04.1 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n'
    'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'UBUNTU_CODENAME=noble\nLOGO=ubuntu-logo\n')
UBUNTU2204 = (
    'PRETTY_NAME="Ubuntu 22.04.5 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
    'VERSION="22.04.5 LTS (Jammy Jellyfish)"\nVERSION_CODENAME=jammy\nID=ubuntu\nID_LIKE=debian\n'
    'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'UBUNTU_CODENAME=jammy\n')
DEBIAN12 = (
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
    'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
    'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
    'BUG_REPORT_URL="https://bugs.debian.org/"\n')
NOBARA43 = (
    'NAME="Nobara Linux"\nVERSION="43 (KDE Plasma Desktop Edition)"\nID=nobara\nID_LIKE="rhel centos '
    'fedora"\nVERSION_ID=43\nPLATFORM_ID="platform:f43"\n'
    'PRETTY_NAME="Nobara Linux 43 (KDE Plasma Desktop Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=nobara-logo-icon\nCPE_NAME="cpe:/o:nobaraproject:nobara:43"\nDEFAULT_HOSTNAME="nobara"\n'
    'HOME_URL="https://nobaraproject.org/"\nSUPPORT_URL="https://nobaraproject.org/"\n'
    'BUG_REPORT_URL="https://gitlab.com/gloriouseggroll/nobara-images"\n'
    'VARIANT="KDE Plasma Desktop Edition"\nVARIANT_ID=kde\n')
SRC_LDSO = ("etc/ld.so.conf(.d) and etc/ld.so.cache copied from the nvml-userspace-older-570 fixture "
            "(its make-root.sh: glibc 2.36 `ldconfig -r`; the cache names the libcuda.so.1 and "
            "libnvidia-ml.so.1 links, whose targets here are this driver's files)")
SRC_FAKES = ("NVML/CUDA answers through the fakes as the real libraries answer a module of another "
             "version: nvmlInit_v2 NVML_ERROR_LIB_RM_VERSION_MISMATCH, nvmlSystemGetNVMLVersion "
             "'<CUDA major>.<library version>', cuInit CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")


def ini(dst, desc, source, env, sections, args="--no-vendor"):
    text = (f"[scenario]\ndescription = {desc}\nsource = {source}; the tree is written by "
            f"tests/tools/mk-real-world-fixtures-c4.py\nargs = {args}\n\n[env]\n")
    text += "".join(f"{k}={v}\n" for k, v in env.items())
    text += sections
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write(text)


def real_world(url, pasted, cause, rule, layer, fails):
    return (f"\n[real-world]\nurl = {url}\npasted = {pasted}\ncause = {cause}\n"
            f"root_cause = {rule}\nlayer = {layer}\nfails = {fails}\n")


def devices_only():
    text = mk2.base_ini()
    return text[:text.index("[modules]")]


def kernel_tree(root, rel):
    """/lib/modules/<rel>/build -> the headers, as the linux-headers packages link it."""
    if os.path.exists(f"{root}/lib/modules"):
        shutil.rmtree(f"{root}/lib/modules")
    link(root, f"/lib/modules/{rel}/build", f"/usr/src/linux-headers-{rel}")
    os.makedirs(f"{root}/usr/src/linux-headers-{rel}/include/config", exist_ok=True)
    w(root, "proc/sys/kernel/osrelease", rel + "\n")


def userspace(root, version):
    """The user-space driver's libcuda and libnvidia-ml (ELF stand-ins from [elf]) and links."""
    for f in ("ld.so.cache", "ld.so.conf"):
        shutil.copy(f"{LDSO_FROM}/{f}", f"{root}/etc/{f}")
    os.makedirs(f"{root}/etc/ld.so.conf.d", exist_ok=True)
    shutil.copy(f"{LDSO_FROM}/ld.so.conf.d/x86_64-linux-gnu.conf",
                f"{root}/etc/ld.so.conf.d/x86_64-linux-gnu.conf")
    for lib in ("libcuda", "libnvidia-ml"):
        link(root, f"{LIB}/{lib}.so.1", f"{lib}.so.{version}")
        link(root, f"{LIB}/{lib}.so", f"{lib}.so.1")
    return (f"\n[elf]\n{LIB}/libcuda.so.{version} = so soname=libcuda.so.1\n"
            f"{LIB}/libnvidia-ml.so.{version} = so soname=libnvidia-ml.so.1\n")


def fakes(user, cuda):
    return (f"\n[nvml]\ndriver_version = {user}\nnvml_version = {cuda // 1000}.{user}\n"
            f"cuda_driver_version = {cuda}\nerror.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n"
            f"\n[cuda]\ndriver_version = {cuda}\nerror.cuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n")


def kern_log(root, host, ts, loaded, flavor="Open Kernel Module for x86_64"):
    w(root, "var/log/kern.log",
      f"{ts} {host} kernel: [    4.978519] NVRM: loading NVIDIA UNIX {flavor}  {loaded}  "
      "Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025\n")


# ---- driver: upgraded without a reboot, or a reboot that does not help ------------------------

def ubuntu_550_upgrade():
    """oddmario/NVIDIA-Ubuntu-Driver-Guide#4: nvidia-driver-550 550.107.02 installed, 550.90.07
    loaded: a reboot fixes it."""
    name = "rw-ubuntu2404-550-upgraded-no-reboot"
    dst, root = mk2.base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "550.90.07",
                              flavor="open")
    rel = "6.8.0-41-generic"
    w(root, "etc/os-release", UBUNTU2404)
    kernel_tree(root, rel)
    kern_log(root, "ws", "Sep  2 08:12:40", "550.90.07")
    w(root, "var/log/apt/history.log",
      "\nStart-Date: 2024-09-05  06:41:17\nCommandline: /usr/bin/unattended-upgrade\n"
      "Upgrade: libnvidia-compute-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-utils-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-dkms-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-driver-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-kernel-common-550:amd64 "
      "(550.90.07-0ubuntu0.24.04.1, 550.107.02-0ubuntu0.24.04.1)\n"
      "End-Date: 2024-09-05  06:43:02\n")
    sections = "\n" + devices_only()
    sections += (f"\n[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 550.107.02, -, zstd, "
                 "Dual MIT/GPL\n")
    sections += userspace(root, "550.107.02") + fakes("550.107.02", 12040)
    pasted = ("Failed to initialize NVML: Driver/library version mismatch / updated to "
              "nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1, but /proc/driver/nvidia/version "
              "reports NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 "
              "09:35:42 UTC 2024")
    ini(dst,
        "Ubuntu 24.04: a minor update of the nvidia-driver-550 packages (550.90.07 to 550.107.02, "
        "unattended-upgrades) replaced the user-space driver and DKMS rebuilt the module on "
        "disk, but the running kernel still has 550.90.07 loaded: nvidia-smi says 'Failed to "
        "initialize NVML: Driver/library version mismatch' until the reboot loads 550.107.02",
        "Rebuilt from https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4 (pasted: "
        "the NVML error, the installed 'nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1', "
        "the loaded module's version 550.90.07 from /proc/driver/nvidia/version; the thread: a "
        "minor update puts the loaded module and the installed driver out of sync, rebooting "
        "fixes it); placeholders, not in the report: the GPU (the base fixture's RTX 4090), the "
        "kernel 6.8.0-41-generic, the module flavour (DKMS, updates/dkms/nvidia.ko.zst, as "
        "Ubuntu 24.04's dkms compresses it), /var/log/apt/history.log (apt's format: "
        "Start-Date/Commandline/Upgrade 'pkg:arch (old, new)'/End-Date; the date, the "
        "unattended-upgrade command line, the other packages and the old version "
        "550.90.07-0ubuntu0.24.04.1 are placeholders consistent with the pasted versions), "
        "the kern.log line's time; " + SRC_LDSO + "; " + SRC_FAKES + "; " + mk2.SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        sections + real_world(
            "https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4", pasted,
            "the nvidia-driver-550 packages were upgraded to 550.107.02 (module on disk rebuilt) "
            "while 550.90.07 stays loaded: the user space is newer than the loaded module; a "
            "reboot loads the new module",
            "driver.nvml-version-mismatch", "driver", "yes"),
        args="--no-vendor --nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")


def nobara_dkms_stale_source():
    """Nobara-Project/rpm-sources#525: dkms-nvidia 595.71.05 built 595.58.03 sources."""
    name = "rw-nobara43-dkms-nvidia-stale-source"
    dst, root = mk2.base_root(name, 0x2504, 0x0000, "NVIDIA GeForce RTX 3060", "595.58.03",
                              flavor="open")
    rel = "7.0.9-200.nobara.fc43.x86_64"
    w(root, "etc/os-release", NOBARA43)
    kernel_tree(root, rel)
    kern_log(root, "nobara", "May 21 09:02:11", "595.58.03")
    sections = "\n" + devices_only()
    sections += (f"\n[modules]\n/lib/modules/{rel}/extra/nvidia.ko.xz = 595.58.03, -, xz, "
                 "Dual MIT/GPL\n")
    sections += userspace(root, "595.71.05") + fakes("595.71.05", 13020)
    pasted = ("Failed to initialize NVML: Driver/library version mismatch / NVML library version: "
              "595.71 (after updating and rebooting; dkms-nvidia-595.71.05-1.fc43's kernel-module "
              "source is still 595.58.03)")
    ini(dst,
        "Nobara 43 (Fedora 43 base), kernel 7.0.9-200.nobara.fc43, an RTX 3060: the "
        "nobara-nvidia-production update to 595.71.05 installed the 595.71.05 user space, but "
        "its dkms-nvidia package built the module from a moving branch still at 595.58.03, so "
        "the nvidia.ko on disk and the one loaded after the reboot are 595.58.03: a reboot does "
        "not help; the module package must be fixed or the user space held at 595.58.03",
        "Rebuilt from https://github.com/Nobara-Project/rpm-sources/issues/525 (pasted: "
        "'Failed to initialize NVML: Driver/library version mismatch', 'NVML library version: "
        "595.71', kernel 7.0.9-200.nobara.fc43.x86_64, RTX 3060 (GA106), Secure Boot off, "
        "dkms-nvidia-595.71.05-1.fc43 whose source is 595.58.03 (version.mk), the mismatch "
        "after updating and rebooting); placeholders, not in the report: the PCI id 10de:2504 "
        "(GA106 [GeForce RTX 3060 Lite Hash Rate] in pci.ids) and the rest of the base "
        "fixture's PCI tree, Nobara's os-release (Fedora's fields with Nobara's name), the "
        "module's place extra/nvidia.ko.xz (dkms on Fedora installs to extra/, xz-compressed) "
        "and the full 595.71.05 library names, the kern.log line's time; " + SRC_LDSO + "; " +
        SRC_FAKES + "; " + mk2.SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        sections + real_world(
            "https://github.com/Nobara-Project/rpm-sources/issues/525", pasted,
            "dkms-nvidia 595.71.05 built 595.58.03 sources: the module on disk (and loaded) is "
            "595.58.03 while the user space is 595.71.05; rebooting does not help, the module "
            "package must be rebuilt from the matching source",
            "driver.nvml-version-mismatch", "driver", "yes"),
        args="--no-vendor --nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")


def debian_smi_525_module_520():
    """illinois-scicomp/machine-shop-maintenance#70: nvidia-smi 525.85.12, module 520.56.06,
    a reboot did not help; the half-done upgrade was completed with apt --fix-broken."""
    name = "rw-debian12-525-userspace-520-module"
    dst, root = mk2.base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", "520.56.06")
    rel = "6.1.0-4-amd64"
    w(root, "etc/os-release", DEBIAN12)
    kernel_tree(root, rel)
    w(root, "proc/driver/nvidia/version",
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  520.56.06  Thu Oct  6 21:38:55 UTC 2022\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14) \n")
    kern_log(root, "bock", "Feb 24 10:02:11", "520.56.06", flavor="x86_64 Kernel Module")
    sections = "\n" + devices_only()
    sections += (f"\n[modules]\n/lib/modules/{rel}/updates/dkms/nvidia-current.ko = 520.56.06, -, "
                 "none\n")
    sections += userspace(root, "525.85.12") + fakes("525.85.12", 12000)
    pasted = ("nvidia-smi: Failed to initialize NVML: Driver/library version mismatch / Tried "
              "rebooting the system, but still doesn't work / NVRM version: NVIDIA UNIX x86_64 "
              "Kernel Module  520.56.06  Thu Oct  6 21:38:55 UTC 2022 / GCC version:  gcc version "
              "12.2.0 (Debian 12.2.0-14) / dpkg -l nvidia-smi: ii  nvidia-smi  525.85.12-1  amd64")
    ini(dst,
        "A Debian 12 (bookworm, still testing then) GPU server after an upgrade: nvidia-smi and "
        "its libraries are 525.85.12 (NVIDIA's CUDA repository packages), the kernel module "
        "package was not upgraded (the apt sources were broken), so the module on disk and the "
        "one loaded after a reboot are 520.56.06; rebooting did not help, completing the "
        "upgrade (fixed apt sources, apt install --fix-broken) did",
        "Rebuilt from https://github.com/illinois-scicomp/machine-shop-maintenance/issues/70 "
        "(pasted: the NVML error, 'Tried rebooting the system, but still doesn't work', "
        "/proc/driver/nvidia/version with 520.56.06 and Debian's gcc 12.2.0-14, dpkg -l "
        "nvidia-smi 525.85.12-1; the fix: the right apt sources, apt update, apt install "
        "--fix-broken); placeholders, not in the report: the GPU (10de:2204 GA102 [GeForce RTX "
        "3090] in pci.ids) and the rest of the base fixture's PCI tree, the kernel "
        "6.1.0-4-amd64 (bookworm's in February 2023), the module's place "
        "updates/dkms/nvidia-current.ko (Debian's nvidia-kernel-dkms names it so), the "
        "525.85.12 libcuda/libnvidia-ml beside nvidia-smi (nvidia-smi needs its own NVML), the "
        "kern.log line's time and host; Debian 12's os-release verbatim; " + SRC_LDSO + "; " +
        SRC_FAKES + "; " + mk2.SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        sections + real_world(
            "https://github.com/illinois-scicomp/machine-shop-maintenance/issues/70", pasted,
            "a half-done upgrade: user space 525.85.12, the kernel module on disk still "
            "520.56.06, so rebooting loads 520.56.06 again; completing the upgrade fixes it",
            "driver.nvml-version-mismatch", "driver", "yes"),
        args="--no-vendor --nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")


# ---- wheels: old wheels on a new GPU, new wheels on an old driver ----------------------------

CU124_LIST = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"


def rtx5090_torch27dev_cu124():
    """pytorch/pytorch#167244: torch 2.7.0.dev20250310+cu124 on an RTX 5090 (sm_120)."""
    name = "rw-rtx5090-torch27dev-cu124"
    dst, root = mk2.base_root(name, 0x2b85, 0x0000, "NVIDIA GeForce RTX 5090", "570.124.06",
                              flavor="open")
    rel = "6.8.0-64-generic"
    w(root, "etc/os-release", UBUNTU2204)
    kernel_tree(root, rel)
    kern_log(root, "ws", "Nov  6 10:02:11", "570.124.06")
    site = mk2.venv(root, "/home/user/falcon/.venv", "3.11.9")
    mk2.torch_dist(root, site, "2.7.0.dev20250310+cu124", "'12.4'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    elf = "".join(f"{p} = {s}\n" for p, s in mk2.ELF.get(root, []))
    sections = "\n" + devices_only()
    sections += (f"\n[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 570.124.06, -, none, "
                 "Dual MIT/GPL\n")
    sections += "\n[elf]\n" + elf
    pasted = ("RuntimeError: CUDA error: no kernel image is available for execution on the device "
              "/ NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
              "current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU124_LIST}.")
    ini(dst,
        "Ubuntu 22.04.5 (kernel 6.8.0-64-generic) with RTX 5090s on driver 570.124.06 and a "
        "venv holding the nightly torch 2.7.0.dev20250310+cu124: the cu124 builds carry SASS "
        f"for {CU124_LIST} and no PTX, nothing for compute capability 12.0, so the first CUDA "
        "tensor fails with 'no kernel image is available for execution on the device'; the cu128 "
        "builds (torch 2.7) have sm_120",
        "Rebuilt from https://github.com/pytorch/pytorch/issues/167244 (pasted: the RuntimeError, "
        "torch's sm_120 warning with the supported list, torch 2.7.0.dev20250310+cu124 from the "
        "nightly cu124 index, 'driver 570.124.06', '2x RTX 5090', 'Ubuntu 22.04.5 LTS (kernel "
        "6.8.0-64-generic)', Python 3.11.9; the cause the thread and pytorch/pytorch#153928's "
        "maintainer give: the CUDA 12.4/12.1 builds have no sm_120, use CUDA 12.8 builds); "
        "placeholders, not in the report: one GPU instead of two (the base fixture's single "
        "slot, re-identified as 10de:2b85 GB202 [GeForce RTX 5090]), the venv's path, the module "
        "flavour and place (the open module, updates/dkms); the stand-in libtorch_cuda.so "
        "carries sm_75 sm_80 sm_86 sm_90 of that list (nvcc 13.0 builds nothing below sm_75; "
        "neither list has anything for 12.0, the verdict is the same); Ubuntu 22.04's "
        "os-release; " + mk2.SRC_TORCH + "; " + mk2.SRC_BASE,
        {"PATH": "/home/user/falcon/.venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/falcon/.venv", "HOME": "/home/user"},
        sections + real_world(
            "https://github.com/pytorch/pytorch/issues/167244", pasted,
            "torch's cu124 build has no sm_120 SASS and no PTX: no kernel image for the RTX 5090; "
            "a cu128 build (torch >= 2.7) fixes it",
            "framework.no-kernel-image", "framework", "yes"))


def chatglm3_torch21_on_r510():
    """zai-org/ChatGLM3#100: torch 2.1 (CUDA 12.1) on a driver reporting CUDA 11.6."""
    name = "rw-torch21-cu121-on-r510"
    dst, root = mk2.base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", "510.108.03")
    rel = "5.15.0-87-generic"
    w(root, "etc/os-release", UBUNTU2204)
    kernel_tree(root, rel)
    kern_log(root, "gpu", "Nov  1 09:02:11", "510.108.03", flavor="x86_64 Kernel Module")
    site = mk2.venv(root, "/home/user/ChatGLM3/venv", "3.10.12")
    mk2.torch_dist(root, site, "2.1.0", "'12.1'",
                   requires=["nvidia-cuda-runtime-cu12==12.1.105; platform_system == \"Linux\" "
                             "and platform_machine == \"x86_64\""])
    di = f"{site}/nvidia_cuda_runtime_cu12-12.1.105.dist-info"
    w(root, f"{di}/METADATA", "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\n"
      "Version: 12.1.105\nSummary: CUDA Runtime native Libraries\n")
    w(root, f"{di}/INSTALLER", "pip\n")
    sections = "\n" + devices_only()
    sections += f"\n[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 510.108.03, -, none\n"
    pasted = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11060). "
              "Please update your GPU driver by downloading and installing a new version from the "
              "URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
              "https://pytorch.org to install a PyTorch version that has been compiled with your "
              "version of the CUDA driver.")
    ini(dst,
        "ChatGLM3's requirements (torch>=2.0) installed torch 2.1.0 from PyPI (built with CUDA "
        "12.1) on a machine whose R510 driver supports CUDA 11.6 ('found version 11060'): CUDA "
        "12.x needs driver >= 525.60.13 even through minor-version compatibility; installing a "
        "newer driver fixed it",
        "Rebuilt from https://github.com/zai-org/ChatGLM3/issues/100 (pasted: the RuntimeError "
        "with 'found version 11060'; the thread: check torch's version, update the driver "
        "(cuda-drivers from NVIDIA's repository), closed as solved by the user); placeholders, "
        "not in the report: torch 2.1.0 (PyPI's default wheel for torch>=2.0 on 2023-11-01, "
        "built with CUDA 12.1, with its nvidia-cuda-runtime-cu12 12.1.105 pin), the driver "
        "510.108.03 (an R510 release: CUDA 11.6 = 11060), the GPU (10de:2204 GA102 [GeForce RTX "
        "3090]), Ubuntu 22.04 with kernel 5.15.0-87-generic, the venv; no libtorch_cuda.so (the "
        "GPU code is not what fails); " + mk2.SRC_TORCH + "; " + mk2.SRC_BASE,
        {"PATH": "/home/user/ChatGLM3/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/ChatGLM3/venv", "HOME": "/home/user"},
        sections + real_world(
            "https://github.com/zai-org/ChatGLM3/issues/100", pasted,
            "torch 2.1.0 is built with CUDA 12.1; the R510 driver supports CUDA 11.6 (found "
            "version 11060) and no CUDA 12 minor-version compatibility: upgrade the driver",
            "framework.cuda-newer-than-driver", "framework", "yes"))


# ---- laptop: a mobile GPU beside the integrated one ------------------------------------------

def igpu(root):
    """An Intel integrated GPU at 00:02.0 bound to i915: the other half of hybrid graphics."""
    d = "sys/devices/pci0000:00/0000:00:02.0"
    for attr, val in (("vendor", "0x8086"), ("device", "0xa788"), ("class", "0x030000"),
                      ("subsystem_vendor", "0x1043"), ("subsystem_device", "0x1e63"),
                      ("revision", "0x04"), ("enable", "1"), ("irq", "185"),
                      ("numa_node", "-1")):
        w(root, f"{d}/{attr}", val + "\n")
    w(root, f"{d}/resource",
      "0x0000006200000000 0x0000006200ffffff 0x0000000000140204\n"
      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
      "0x0000004000000000 0x000000400fffffff 0x000000000014220c\n"
      + "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 10)
    w(root, "sys/bus/pci/drivers/i915/bind", "")
    link(root, f"{d}/driver", "../../../bus/pci/drivers/i915")
    link(root, "sys/bus/pci/devices/0000:00:02.0", "../../../devices/pci0000:00/0000:00:02.0")


def laptop_5090_torch_cu124():
    """magicyuan876/mineru-tianshu#62: RTX 5090 Laptop GPU with a cu124-era torch."""
    name = "rw-laptop-rtx5090-mobile-torch-cu124"
    dst, root = mk2.base_root(name, 0x2c58, 0x1e63, "NVIDIA GeForce RTX 5090 Laptop GPU",
                              "570.153.02", flavor="open")
    rel = "6.11.0-26-generic"
    w(root, "etc/os-release", UBUNTU2404)
    kernel_tree(root, rel)
    gpu = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    w(root, f"{gpu}/class", "0x030200\n")  # 3D controller: the display is the iGPU's
    w(root, f"{gpu}/subsystem_vendor", "0x1043\n")
    # doctor runs while the dGPU idles: runtime PM has it in D3cold, config reads answer all
    # ones (sysfs: speed "Unknown", width 63) until torch wakes it
    w(root, f"{gpu}/current_link_speed", "Unknown\n")
    w(root, f"{gpu}/current_link_width", "63\n")
    w(root, f"{gpu}/power/runtime_status", "suspended\n")
    igpu(root)
    kern_log(root, "laptop", "Feb  4 09:02:11", "570.153.02")
    site = mk2.venv(root, "/home/user/mineru-tianshu/venv", "3.12.3")
    mk2.torch_dist(root, site, "2.5.1+cu124", "'12.4'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    elf = "".join(f"{p} = {s}\n" for p, s in mk2.ELF.get(root, []))
    sections = "\n" + devices_only()
    sections += (f"\n[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 570.153.02, -, "
                 "zstd, Dual MIT/GPL\n")
    sections += "\n[elf]\n" + elf
    pasted = ("NVIDIA GeForce RTX 5090 Laptop GPU with CUDA capability sm_120 is not compatible "
              "with the current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU124_LIST}.")
    ini(dst,
        "A laptop with hybrid graphics (an Intel iGPU drives the display, the RTX 5090 Laptop "
        "GPU, GB203M, is a 3D controller) running mineru-tianshu in a venv whose torch is a "
        f"cu124 build ({CU124_LIST}, no PTX): nothing runs on compute capability 12.0; the "
        "thread's fix is a torch release built for the 50 series (cu128)",
        "Rebuilt from https://github.com/magicyuan876/mineru-tianshu/issues/62 (pasted: torch's "
        "warning naming the 'NVIDIA GeForce RTX 5090 Laptop GPU', sm_120 and the supported "
        "list; the maintainer's answer: upgrade PyTorch to a version that supports the 50 "
        "series); placeholders, not in the report: the OS (Ubuntu 24.04, kernel "
        "6.11.0-26-generic), the driver 570.153.02 (open module, DKMS), torch 2.5.1+cu124 (a "
        "release whose list is the pasted one) in a venv, the PCI ids 10de:2c58 (GB203M / "
        "GN22-X11 [GeForce RTX 5090 Max-Q / Mobile] in pci.ids) with an ASUS subsystem id, the "
        "3D-controller class of a dGPU behind an iGPU and the Intel iGPU (8086:a788, i915) at "
        "00:02.0, the dGPU runtime-suspended while doctor runs (power/runtime_status "
        "'suspended', its link read as speed 'Unknown', width 63, as sysfs shows a device in "
        "D3cold), the rest of the base fixture's PCI tree; the stand-in libtorch_cuda.so carries "
        "sm_75 sm_80 sm_86 sm_90 of the list (nvcc 13.0 builds nothing below sm_75; the verdict "
        "for 12.0 is the same); " + mk2.SRC_TORCH + "; " + mk2.SRC_BASE,
        {"PATH": "/home/user/mineru-tianshu/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin", "VIRTUAL_ENV": "/home/user/mineru-tianshu/venv",
         "HOME": "/home/user"},
        sections + real_world(
            "https://github.com/magicyuan876/mineru-tianshu/issues/62", pasted,
            "the installed torch (a cu124-era build) has no code for sm_120, the laptop's RTX "
            "5090: install a torch built for the 50 series",
            "framework.no-kernel-image", "framework", "yes"))


def main():
    ubuntu_550_upgrade()
    nobara_dkms_stale_source()
    debian_smi_525_module_520()
    rtx5090_torch27dev_cu124()
    chatglm3_torch21_on_r510()
    laptop_5090_torch_cu124()


if __name__ == "__main__":
    main()
