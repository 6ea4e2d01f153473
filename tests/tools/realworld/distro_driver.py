# SPDX-License-Identifier: GPL-2.0-or-later
"""The NVIDIA driver as laptop and desktop distributions ship it: NixOS's driver packages (the
module under /run/booted-system/kernel-modules, no /lib/modules), Fedora's akmods beside a
leftover DKMS, Arch's open module before the R560 default, a dGPU the firmware turned off."""
import os
import shutil

from realworld.common import (ARCH_OS_RELEASE, base_root, ini, link, move_kernel, read,
                              real_world, ubuntu_os_release, w)
from realworld.laptop import igpu
from realworld.open_module import NO_DRIVER_SRC, base_devices, lone_gpu
from realworld.secure_boot import FEDORA34_OS_RELEASE, SB_SRC, nouveau_took_gpu, sb_base

TOPIC = "distro_driver"
FIXTURES = ("rw-gtx1050-nixos595-nixos-hardware-1828", "rw-fc31-weak-updates-negativo17-97",
            "rw-geforce-open515-ogkm-230", "rw-surfacebook2-dgpu-off-surface-control-22",
            "rw-mint22-surface615-dkms570-linux-surface-1796", "geforce-open515-param-set",
            "rw-talos133-rtx2080s-open515-siderolabs-114",
            "rw-fc34-ideapad-sb-reenabled-nvautoinstall-64")

PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
# NixOS's os-release as its nixos/modules/misc/version.nix writes it, for the release the
# report names (`nixos-version`: 26.05.20260409.4c1018d (Yarara))
NIXOS2605_OS_RELEASE = (
    'ANSI_COLOR="0;38;2;126;186;228"\nBUG_REPORT_URL="https://github.com/NixOS/nixpkgs/issues"\n'
    'BUILD_ID="26.05.20260409.4c1018d"\nCPE_NAME="cpe:/o:nixos:nixos:26.05"\n'
    'DEFAULT_HOSTNAME=nixos\nDOCUMENTATION_URL="https://nixos.org/learn.html"\n'
    'HOME_URL="https://nixos.org/"\nID=nixos\nID_LIKE=""\nIMAGE_ID=""\nIMAGE_VERSION=""\n'
    'LOGO="nix-snowflake"\nNAME=NixOS\nPRETTY_NAME="NixOS 26.05 (Yarara)"\n'
    'SUPPORT_URL="https://nixos.org/community.html"\nVARIANT=""\nVARIANT_ID=""\n'
    'VENDOR_NAME=NixOS\nVENDOR_URL="https://nixos.org/"\nVERSION="26.05 (Yarara)"\n'
    'VERSION_CODENAME=yarara\nVERSION_ID="26.05"\n')
FEDORA31_OS_RELEASE = (
    'NAME=Fedora\nVERSION="31 (Workstation Edition)"\nID=fedora\nVERSION_ID=31\n'
    'VERSION_CODENAME=""\nPLATFORM_ID="platform:f31"\n'
    'PRETTY_NAME="Fedora 31 (Workstation Edition)"\nANSI_COLOR="0;34"\nLOGO=fedora-logo-icon\n'
    'CPE_NAME="cpe:/o:fedoraproject:fedora:31"\nHOME_URL="https://fedoraproject.org/"\n'
    'VARIANT="Workstation Edition"\nVARIANT_ID=workstation\n')


def nixos_gtx1050():
    """NixOS/nixos-hardware#1828: a Dell XPS 15 with a GeForce GTX 1050 on NixOS, whose
    stable driver moved to 595.58.03; R580 was the last branch for Pascal, so the driver
    ignores the GPU; hardware.nvidia.package = legacy_580 fixed it."""
    name, url = FIXTURES[0], "https://github.com/NixOS/nixos-hardware/issues/1828"
    rel, drv = "6.18.21", "595.58.03"
    dst, root = lone_gpu(name, "0000:01:00.0", 0x1c8d, 0x030200, rel, NIXOS2605_OS_RELEASE)
    igpu(root)
    w(root, "proc/modules", read(root, "proc/modules") +
      "i915 4440064 27 - Live 0x0000000000000000\n")
    # NixOS keeps no /lib/modules: kmod is built with --with-modulesdirs naming
    # /run/current-system/kernel-modules/lib/modules and /run/booted-system/… (nixpkgs
    # pkgs/os-specific/linux/kmod/default.nix); the module is a store path linked there
    store = f"nix/store/7ybsq0xk6ynj2dgpz3l1fajqp3kx8p1w-kernel-modules/lib/modules/{rel}"
    link(root, "run/booted-system", "/nix/store/5m1l2ax0dq3m8mjksk7db0g3v6a2c7kj-nixos-system-"
         f"nixos-26.05.20260409.4c1018d")
    link(root, "nix/store/5m1l2ax0dq3m8mjksk7db0g3v6a2c7kj-nixos-system-nixos-26.05.20260409."
         "4c1018d/kernel-modules", "/nix/store/7ybsq0xk6ynj2dgpz3l1fajqp3kx8p1w-kernel-modules")
    link(root, "run/current-system", "/nix/store/5m1l2ax0dq3m8mjksk7db0g3v6a2c7kj-nixos-"
         "system-nixos-26.05.20260409.4c1018d")
    prefix = "Apr 13 16:41:14 nixos kernel: "
    w(root, "var/log/dmesg", "".join(prefix + line + "\n" for line in (
        "NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU installed in this system is",
        "NVRM:  supported through the NVIDIA 580.xx Legacy drivers. Please",
        "NVRM:  visit http://www.nvidia.com/object/unix.html for more",
        f"NVRM:  information.  The {drv} NVIDIA driver will ignore",
        "NVRM:  this GPU.  Continuing probe...",
        "NVRM: No NVIDIA GPU found.")))
    ini(dst, TOPIC,
        "A Dell XPS 15 laptop on NixOS 26.05 with hybrid graphics (an Intel iGPU drives the "
        "display, a GeForce GTX 1050, GP107M, Pascal, compute capability 6.1, is a 3D "
        f"controller): NixOS's stable driver moved to {drv}, a branch after R580, the last "
        "for Pascal; the driver ignores the GPU and, with no other GPU, does not load. "
        "NixOS keeps the module under /run/booted-system/kernel-modules, not /lib/modules",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'couldn't communicate with the NVIDIA "
        "driver', the journal's kernel lines 'The NVIDIA NVIDIA GeForce GTX 1050 GPU "
        "installed in this system is supported through the NVIDIA 580.xx Legacy drivers "
        f"… The {drv} NVIDIA driver will ignore this GPU' and 'No NVIDIA GPU found', kept "
        "verbatim with the journal's prefix in /var/log/dmesg (NixOS keeps no text log; "
        "on the machine gpuenv reads /dev/kmsg), `nixos-version` 26.05.20260409.4c1018d "
        "(Yarara), the reporter's fix: hardware.nvidia.package = config.boot."
        "kernelPackages.nvidiaPackages.legacy_580, which works again after a reboot); "
        "NixOS's os-release in the form nixos/modules/misc/version.nix writes; the module "
        "directories NixOS's kmod searches (nixpkgs pkgs/os-specific/linux/kmod/default.nix: "
        "/run/current-system/kernel-modules/lib/modules, /run/booted-system/…); not in the "
        f"report and chosen here: the kernel {rel}, the store hashes, the module's place "
        "kernel/drivers/video/nvidia.ko.xz in the kernel-modules tree (unsigned), the "
        "PCI ids 10de:1c8d (GP107M [GeForce GTX 1050 Mobile] in pci.ids) at 01:00.0 with "
        "the 3D-controller class of a dGPU behind an iGPU, the Intel iGPU (8086:a788, "
        "i915) at 00:02.0; " + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU installed in this system is NVRM: "
            "supported through the NVIDIA 580.xx Legacy drivers. … The 595.58.03 NVIDIA "
            "driver will ignore NVRM: this GPU. Continuing probe... NVRM: No NVIDIA GPU "
            "found.",
            "R580 is the last branch for Pascal: the 595.58.03 driver ignores the GTX 1050; "
            "on NixOS hardware.nvidia.package = config.boot.kernelPackages.nvidiaPackages."
            "legacy_580 and a reboot fix it",
            "driver.branch-drops-gpu", "driver", "yes"),
        f"[modules]\n/{store}/kernel/drivers/video/nvidia.ko.xz = {drv}, -, xz\n")


def fedora31_weak_updates():
    """negativo17/nvidia-driver#97: after the upgrade to Fedora 31, modprobe nvidia fails
    with 'Exec format error': the nvidia.ko depmod picks for the new kernel is the Fedora 30
    kernel's, linked into weak-updates by the dkms package installed beside akmods."""
    name, url = FIXTURES[1], "https://github.com/negativo17/nvidia-driver/issues/97"
    old, rel, drv = "5.4.18-100.fc30.x86_64", "5.4.18-200.fc31.x86_64", "440.59"
    dst, root = lone_gpu(name, "0000:01:00.0", 0x1e87, 0x030000, rel, FEDORA31_OS_RELEASE)
    # weak-modules (kmod package) links a module built for another kernel of compatible ABI
    # into the new kernel's weak-updates/; depmod then lists it for the running kernel
    link(root, f"lib/modules/{rel}/weak-updates/nvidia/nvidia.ko.xz",
         f"/lib/modules/{old}/extra/nvidia/nvidia.ko.xz")
    w(root, f"lib/modules/{rel}/modules.dep",
      f"weak-updates/nvidia/nvidia.ko.xz:\n")
    w(root, "var/lib/dkms/nvidia/.keep", "")
    prefix = "Feb 15 11:02:37 fedora kernel: "
    w(root, "var/log/messages",
      f"{prefix}nvidia: version magic '{old} SMP mod_unload ' "
      f"should be '{rel} SMP mod_unload '\n")
    ini(dst, TOPIC,
        "A Fedora desktop just upgraded from Fedora 30 to 31 with negativo17's driver "
        f"(akmods) and the dkms package installed beside it: the nvidia.ko depmod lists for "
        f"the running {rel} is the {old} build, linked into weak-updates/; the kernel "
        "refuses it (version magic), modprobe nvidia fails with 'Exec format error'",
        f"Rebuilt from {url} (pasted: 'could not insert 'nvidia': Exec format error', the "
        f"kernel's line \"nvidia: version magic '{old} SMP mod_unload ' should be '{rel} SMP "
        "mod_unload '\", kept verbatim in /var/log/messages, 'I upgraded to Fedora 31 "
        "today'; the maintainer's answer: with both akmods and dkms installed, remove the "
        "package dkms, 'the one putting the files in the weak-updates folder'); not in "
        f"the report and chosen here: the driver {drv} (negativo17's in February 2020), the "
        "module's compression and the link's target (akmods' extra/nvidia of the old "
        "kernel; its vermagic the refusal's '" + old + " SMP mod_unload '), the modules.dep line, /var/lib/dkms/nvidia (an empty stand-in for the "
        "dkms package's state), the GPU 10de:1e87 (TU104 [GeForce RTX 2080 Rev. A] in "
        "pci.ids), the syslog prefix; " + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "could not insert 'nvidia': Exec format error / nvidia: version magic "
            f"'{old} SMP mod_unload ' should be '{rel} SMP mod_unload '",
            "the nvidia.ko modprobe finds for the running kernel is the old kernel's, "
            "linked into weak-updates by the dkms package installed beside akmods: remove "
            "dkms so that akmods' module for the running kernel is the one loaded",
            "driver.module-missing-for-kernel", "driver", "yes"),
        # vermagic as the kernel's refusal quotes it: "SMP mod_unload " (no modversions)
        f"[modules]\n/lib/modules/{old}/extra/nvidia/nvidia.ko.xz = {drv}, -, xz, NVIDIA, "
        "SMP mod_unload\n")


def open515_root(name, device, model, drv, rel, osrel, build):
    """The rtx4090-open-module tree as another GeForce under the open module of an R515
    release on kernel rel: /proc/driver/nvidia/version names the build host, date and GCC."""
    dst, root = base_root(name, device, 0x0000, model, drv, flavor="open")
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "etc/os-release", osrel)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {drv}  Release Build  "
      f"({build[0]})  {build[1]}\nGCC version:  gcc version {build[2]} (GCC) \n")
    return dst, root


ARCH_BUILD = ("builduser@archlinux", "Wed May 18 12:00:00 UTC 2022", "12.1.0")


def arch_open515_geforce():
    """NVIDIA/open-gpu-kernel-modules#230: the open module of the first release (515) on an
    Arch desktop's GeForce; that release drove data-center GPUs only unless
    NVreg_OpenRmEnableUnsupportedGpus=1, so the GPU's initialisation failed."""
    name, url = FIXTURES[2], "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/230"
    rel, drv, bus = "5.17.9-arch1-1", "515.43.04", "0000:04:00.0"
    dst, root = open515_root(name, 0x1e07, "NVIDIA GeForce RTX 2080 Ti", drv, rel,
                             ARCH_OS_RELEASE, ARCH_BUILD)
    w(root, "var/log/kern.log", "".join(line + "\n" for line in (
        "[    3.513141] NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.",
        "[    3.513144] NVRM: To force use of Open nvidia.ko on other GPUs, see the",
        "[    3.513145] NVRM: 'OpenRmEnableUnsupportedGpus' kernel module parameter described",
        "[    3.513145] NVRM: in the README.",
        f"[    3.824916] NVRM: GPU {bus}: RmInitAdapter failed! (0x63:0x0:1905)",
        f"[    3.827920] NVRM: GPU {bus}: rm_init_adapter failed, device minor number 0",
        "[    3.828704] [drm:nv_drm_load [nvidia_drm]] *ERROR* [nvidia-drm] [GPU ID "
        "0x00000400] Failed to allocate NvKmsKapiDevice")))
    ini(dst, TOPIC,
        "An Arch Linux desktop with a GeForce GPU and the open kernel module of the first "
        f"open release, {drv}, built from the repository and installed with "
        "modules_install: that release drives data-center GPUs only unless "
        "NVreg_OpenRmEnableUnsupportedGpus=1 is set, so the module loads, binds the GPU "
        "and fails to initialise it (RmInitAdapter failed 0x63:0x0:1905)",
        f"Rebuilt from {url} (pasted: 'I attempted to use the install_modules make target "
        "on Arch Linux', the dmesg lines kept verbatim in /var/log/kern.log: 'Open "
        "nvidia.ko is only ready for use on Data Center GPUs', the 'OpenRmEnableUnsupported"
        f"Gpus' advice, 'GPU {bus}: RmInitAdapter failed! (0x63:0x0:1905)', the nvidia-drm "
        "error; the cause, as the driver's message and its README (kernel_open.html of "
        "515.43.04: GeForce and workstation GPUs need NVreg_OpenRmEnableUnsupportedGpus=1) "
        "say); not in the report and chosen here: the GPU (10de:1e07, TU102 [GeForce RTX "
        "2080 Ti Rev. A] in pci.ids: a GeForce with a GSP) at the base tree's 01:00.0 for the "
        f"report's {bus.split(':', 1)[1]} (the log keeps the report's), the release {drv} "
        "(the only open release in May 2022), the kernel "
        f"{rel} (Arch's in May 2022), the build host and GCC of /proc/driver/nvidia/version, "
        "the module's place (kbuild's modules_install default, extra/); the rest of the tree "
        "from the rtx4090-open-module fixture (see its sources)",
        PATH,
        real_world(
            url,
            "NVRM: Open nvidia.ko is only ready for use on Data Center GPUs. NVRM: To force "
            "use of Open nvidia.ko on other GPUs, see the NVRM: 'OpenRmEnableUnsupportedGpus' "
            "kernel module parameter described NVRM: in the README. / RmInitAdapter failed! "
            "(0x63:0x0:1905)",
            "the open module of R515 initialises GeForce and workstation GPUs only with "
            "NVreg_OpenRmEnableUnsupportedGpus=1 (options nvidia "
            "NVreg_OpenRmEnableUnsupportedGpus=1 in modprobe.d), or use the proprietary "
            "module",
            "driver.open-module-datacenter-only", "driver", "yes"),
        base_devices(),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko = {drv}, -, none, Dual MIT/GPL\n")


def surface_book2_dgpu_off():
    """linux-surface/surface-control#22: a Surface Book 2 whose GTX 1060 was turned off in the
    UEFI settings: no NVIDIA device on the bus; nvidia-smi cannot reach a driver."""
    name, url = FIXTURES[3], "https://github.com/linux-surface/surface-control/issues/22"
    rel, drv = "6.7.9-surface-1", "535.161.07"
    dst, root = lone_gpu(name, "0000:01:00.0", 0x1c20, 0x030200, rel,
                         ubuntu_os_release("22.04.4", "Jammy Jellyfish", "jammy"))
    # the UEFI setting powers the dGPU off before boot: it is not enumerated at all
    shutil.rmtree(f"{root}/sys/devices/pci0000:00/0000:00:01.0")
    os.unlink(f"{root}/sys/bus/pci/devices/0000:01:00.0")
    igpu(root)
    w(root, "proc/modules", read(root, "proc/modules") +
      "i915 3944448 31 - Live 0x0000000000000000\n")
    ini(dst, TOPIC,
        "A Surface Book 2 (15\", GeForce GTX 1060 in the keyboard base) on Ubuntu with the "
        "linux-surface kernel and the NVIDIA driver installed: the dGPU was turned off in "
        "the UEFI settings, so it is not on the PCI bus at all; nvidia-smi cannot reach a "
        "driver, and only the Intel iGPU is there",
        f"Rebuilt from {url} (pasted: 'Surface Book 2 1060', 'nvidia-smi is returning "
        "nothing', 'NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
        "driver'; the reporter's fix: 'Turned it off in bios'); not in the report and "
        f"chosen here: Ubuntu 22.04's os-release, the linux-surface kernel {rel}, the "
        f"driver {drv} (DKMS, updates/dkms, unsigned), the Intel iGPU (8086:a788, i915) "
        "at 00:02.0 of the laptop topic's tree; no NVIDIA device on the bus (the firmware "
        "setting powers the dGPU off); " + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
            "Make sure that the latest NVIDIA driver is installed and running.",
            "the dGPU was turned off in the UEFI (BIOS) settings: no NVIDIA GPU is on the "
            "PCI bus; turning it on there fixes it",
            "hardware.no-gpu", "hardware", "yes"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none\n")


MINT221_OS_RELEASE = (
    'NAME="Linux Mint"\nVERSION="22.1 (Xia)"\nID=linuxmint\nID_LIKE="ubuntu debian"\n'
    'PRETTY_NAME="Linux Mint 22.1"\nVERSION_ID="22.1"\nHOME_URL="https://www.linuxmint.com/"\n'
    'SUPPORT_URL="https://forums.linuxmint.com/"\n'
    'BUG_REPORT_URL="http://linuxmint-troubleshooting-guide.readthedocs.io/en/latest/"\n'
    'PRIVACY_POLICY_URL="https://www.linuxmint.com/"\nVERSION_CODENAME=xia\n'
    'UBUNTU_CODENAME=noble\n')


def mint_surface_kernel_too_new():
    """linux-surface/linux-surface#1796: a Surface Laptop Studio 2 on Linux Mint 22.1 with
    Ubuntu's nvidia-driver-570 (DKMS); the linux-surface kernel moved to 6.15, which that
    driver does not build for: no module for the running kernel."""
    name, url = FIXTURES[4], "https://github.com/linux-surface/linux-surface/issues/1796"
    old, rel, drv = "6.14.2-surface-1", "6.15.3-surface-1", "570.133.07"
    dst, root = lone_gpu(name, "0000:01:00.0", 0x2820, 0x030200, rel, MINT221_OS_RELEASE)
    igpu(root)
    w(root, "proc/modules", read(root, "proc/modules") +
      "i915 4440064 27 - Live 0x0000000000000000\n")
    # DKMS's sources and the build of the previous kernel; none for the running one
    w(root, f"usr/src/nvidia-{drv}/dkms.conf", f'PACKAGE_NAME="nvidia"\nPACKAGE_VERSION="{drv}"\n')
    ini(dst, TOPIC,
        "A Surface Laptop Studio 2 on Linux Mint 22.1 with the linux-surface kernel and "
        f"Ubuntu's nvidia-driver-570 (DKMS): the kernel update to {rel} came before any "
        "driver Ubuntu ships builds for Linux 6.15, so DKMS built nothing for it and no "
        "nvidia.ko exists for the running kernel; the previous kernel's module is there",
        f"Rebuilt from {url} (pasted: 'Was running nvidia-driver-570 with no issues until "
        "today's update, now it won't install any Nvidia drivers. Surface Laptop Studio 2', "
        "'I'm running Linux Mint 22.1', the purge and reinstall of nvidia-driver-550 that "
        "did not help; the maintainer's answer: 'The latest kernel version (v6.15) is too new "
        "for any nvidia drivers that Ubuntu ships. Stick to an older kernel'); Linux Mint "
        "22.1's os-release; not in the report and chosen here: the kernels "
        f"{old} and {rel} (the report names v6.15), the driver {drv} (noble's 570 in June "
        "2025), the GPU 10de:2820 (AD107M [GeForce RTX 4050 Max-Q / Mobile] in pci.ids: the "
        "Studio 2's RTX 4050) as a 3D controller, the Intel iGPU (8086:a788, i915) at "
        f"00:02.0, the DKMS source tree /usr/src/nvidia-{drv} (dkms.conf only) and the old "
        "kernel's module in updates/dkms (unsigned); the make.log the thread attached is "
        "not shown, so none is in the tree; " + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "Was running nvidia-driver-570 with no issues until today's update, now it won't "
            "install any Nvidia drivers.",
            "the linux-surface kernel 6.15 is newer than any NVIDIA driver Ubuntu ships "
            "supports: DKMS builds no module for it; boot the older kernel until the driver "
            "packages support 6.15",
            "driver.module-missing-for-kernel", "driver", "yes"),
        f"[modules]\n/lib/modules/{old}/updates/dkms/nvidia.ko.zst = {drv}, -, zstd\n")


def open515_param_set():
    """The machine of NVIDIA/open-gpu-kernel-modules#230 after the fix its driver's message
    and README name (NVreg_OpenRmEnableUnsupportedGpus=1 in modprobe.d) and a reboot: the
    refusal is in the log's earlier boot only; driver.open-module-datacenter-only is silent."""
    name = FIXTURES[5]
    rel, drv = "5.17.9-arch1-1", "515.43.04"
    dst, root = open515_root(name, 0x1e07, "NVIDIA GeForce RTX 2080 Ti", drv, rel,
                             ARCH_OS_RELEASE, ARCH_BUILD)
    w(root, "etc/modprobe.d/nvidia-open.conf",
      "options nvidia NVreg_OpenRmEnableUnsupportedGpus=1\n")
    w(root, "var/log/kern.log", "".join(line + "\n" for line in (
        f"[    0.000000] Linux version {rel} (linux@archlinux) (gcc (GCC) 12.1.0)",
        "[    3.513141] NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.",
        "[    3.513144] NVRM: To force use of Open nvidia.ko on other GPUs, see the",
        "[    3.513145] NVRM: 'OpenRmEnableUnsupportedGpus' kernel module parameter described",
        "[    3.513145] NVRM: in the README.",
        "[    3.824916] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x63:0x0:1905)",
        f"[    0.000000] Linux version {rel} (linux@archlinux) (gcc (GCC) 12.1.0)",
        f"[    3.402113] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  {drv}  "
        "Release Build  (builduser@archlinux)  Wed May 18 12:00:00 UTC 2022")))
    ini(dst, TOPIC,
        "The Arch desktop of rw-geforce-open515-ogkm-230 after the fix: "
        "NVreg_OpenRmEnableUnsupportedGpus=1 in /etc/modprobe.d/nvidia-open.conf and a "
        "reboot; the log's earlier boot holds the open module's refusal, the current boot "
        "loads the module without it. The negative fixture of "
        "driver.open-module-datacenter-only: it must stay silent",
        "The machine of https://github.com/NVIDIA/open-gpu-kernel-modules/issues/230 (see "
        "rw-geforce-open515-ogkm-230's sources) with the parameter NVIDIA's README of "
        "515.43.04 (kernel_open.html) and the driver's own message name set in modprobe.d; "
        "the kernel log's boot starts ('Linux version') in the kernel's banner form; "
        "constructed, not a report of its own",
        PATH, "", base_devices(),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko = {drv}, -, none, Dual MIT/GPL\n")


# Talos's os-release (ID talos, VERSION_ID the release) for the release the report names
TALOS133_OS_RELEASE = (
    'NAME="Talos"\nID=talos\nVERSION_ID=v1.3.3\nPRETTY_NAME="Talos (v1.3.3)"\n'
    'HOME_URL="https://www.talos.dev/"\n'
    'BUG_REPORT_URL="https://github.com/siderolabs/talos/issues"\n')


def talos_rtx2080s_open515():
    """siderolabs/extensions#114: a Talos v1.3.3 node with a GeForce RTX 2080 SUPER and the
    nvidia-open-gpu-kernel-modules extension of 515.65.01: the open module refuses to
    initialise the GeForce; the reporter's fix: NVreg_OpenRmEnableUnsupportedGpus=1."""
    name, url = FIXTURES[6], "https://github.com/siderolabs/extensions/issues/114"
    rel, drv, bus = "5.15.86-talos", "515.65.01", "0000:07:00.0"
    dst, root = open515_root(name, 0x1e81, "NVIDIA GeForce RTX 2080 SUPER", drv, rel,
                             TALOS133_OS_RELEASE,
                             ("builder@buildkitsandbox", "Tue Jan 24 12:00:00 UTC 2023",
                              "12.2.0"))
    os.unlink(f"{root}/var/log/kern.log")  # the base tree's; Talos writes no log file
    # the paste's lines and no more: no time stamps, no RmInitAdapter status (it shows none)
    w(root, "var/log/dmesg", "".join(line + "\n" for line in (
        "NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.",
        "NVRM: To force use of Open nvidia.ko on other GPUs, see the",
        "NVRM: 'OpenRmEnableUnsupportedGpus' kernel module parameter described",
        "NVRM: in the README.",
        f"NVRM: GPU {bus}: RmInitAdapter failed!")))
    ini(dst, TOPIC,
        "A Talos v1.3.3 Kubernetes node with a GeForce RTX 2080 SUPER and SideroLabs' "
        f"nvidia-open-gpu-kernel-modules extension of {drv}: the open module loads and binds "
        "the GPU but, that release driving data-center GPUs only, refuses to initialise it; "
        "the device plugin's pod fails to start",
        f"Rebuilt from {url} (pasted: 'Talos: v1.3.3', 'GPU: RTX 2080S', "
        f"'nvidia-open-gpu-kernel-modules:{drv}-v1.3.3', the node's kernel lines 'Open "
        "nvidia.ko is only ready for use on Data Center GPUs.', the "
        f"'OpenRmEnableUnsupportedGpus' advice and 'GPU {bus}: RmInitAdapter failed!'; the "
        "reporter's fix, from the driver's README: NVreg_OpenRmEnableUnsupportedGpus=1); the "
        "lines kept with the NVRM: prefix the driver prints (the paste shows the messages "
        "only) in /var/log/dmesg (Talos keeps no log file; on the node gpuenv reads "
        "/dev/kmsg), without times or an RmInitAdapter status (the paste shows neither); "
        "not in the report "
        f"and chosen here: the kernel {rel}, Talos's os-release in that form, the build host "
        "and GCC of /proc/driver/nvidia/version, the module's place (extra/), the GPU "
        "10de:1e81 (TU104 [GeForce RTX 2080 SUPER] in pci.ids) at the base tree's 01:00.0 "
        f"for the report's {bus.split(':', 1)[1]} (the log keeps the report's); the rest of "
        "the tree from the rtx4090-open-module fixture (see its sources)",
        PATH,
        real_world(
            url,
            "Open nvidia.ko is only ready for use on Data Center GPUs. To force use of Open "
            "nvidia.ko on other GPUs, see the 'OpenRmEnableUnsupportedGpus' kernel module "
            f"parameter described in the README GPU {bus}: RmInitAdapter failed!",
            "the open module of R515 initialises GeForce GPUs only with "
            "NVreg_OpenRmEnableUnsupportedGpus=1, which on Talos goes into the machine "
            "config's kernel module parameters",
            "driver.open-module-datacenter-only", "driver", "yes"),
        base_devices(),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko = {drv}, -, none, Dual MIT/GPL\n")


def fedora34_ideapad_secure_boot():
    """gridhead/nvidia-auto-installer-for-fedora-linux#64: an IdeaPad Gaming 3 (Ryzen 7 4800H,
    GTX 1650 Ti) on Fedora whose firmware turned Secure Boot back on after a BIOS reset: the
    unsigned akmods module is refused and nouveau takes the GPU; turning Secure Boot off
    fixed it."""
    name = FIXTURES[7]
    url = "https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/64"
    rel, drv = "5.12.15-300.fc34.x86_64", "465.31"
    dst, root = sb_base(name, 0x1f95, 0x0000, rel, FEDORA34_OS_RELEASE,
                        cpu="AMD Ryzen 7 4800H with Radeon Graphics", igpu=False)
    # the report shows no kernel log (a boot screen's line only): none in the tree
    if os.path.exists(f"{root}/var/log/kern.log"):
        os.unlink(f"{root}/var/log/kern.log")
    nouveau_took_gpu(root)
    ini(dst, TOPIC,
        "A Lenovo IdeaPad Gaming 3 15ARH05 (Ryzen 7 4800H, GeForce GTX 1650 Ti) on Fedora 34 "
        "with RPM Fusion's akmod-nvidia installed by nvautoinstall: a BIOS reset turned "
        "Secure Boot back on, the kernel refuses the unsigned akmods module and nouveau "
        "takes the GPU ('NVIDIA kernel module missing. Falling back to nouveau'); turning "
        "Secure Boot off fixed it",
        SB_SRC + f"; rebuilt from {url} (pasted: the report's laptop 'Lenovo ideapad Gaming "
        "3-15ARH05 Laptop - Amd Ryzen 7 4800H and Gtx1650ti', the boot message of the "
        "title's 'Nvidia kernel module missing' screenshot; the answer the second reporter "
        "confirmed: 'After rebuilding the computer in the BIOS, for some reason, secure boot "
        "turned on', fixed by turning it off; the maintainer closed it: toggle Secure Boot); "
        "Fedora 34's os-release; akmods' module path; the GPU as 10de:1f95 (TU117M [GeForce "
        "GTX 1650 Ti Mobile] in pci.ids), no AMD iGPU in the tree (the report shows none of "
        f"its devices); placeholders, not in the report: the kernel {rel} and the driver "
        f"{drv} (Fedora 34's and RPM Fusion's in July 2021); no kernel log (the report "
        "shows none)",
        {"PATH": "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"},
        real_world(
            url,
            "Nvidia kernel module missing (boot screen: NVIDIA kernel module missing. Falling "
            "back to nouveau)",
            "Secure Boot was turned back on by a BIOS reset, so the unsigned akmods module "
            "does not load and nouveau drives the GPU; turning Secure Boot off fixed it",
            "driver.secure-boot-unsigned-module", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = {drv}, -, xz\n")


def write():
    nixos_gtx1050()
    fedora31_weak_updates()
    arch_open515_geforce()
    surface_book2_dgpu_off()
    mint_surface_kernel_too_new()
    open515_param_set()
    talos_rtx2080s_open515()
    fedora34_ideapad_secure_boot()
