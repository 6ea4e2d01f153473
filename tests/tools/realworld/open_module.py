# SPDX-License-Identifier: GPL-2.0-or-later
"""The open kernel modules on a GPU without a GSP (Maxwell, Pascal, Volta): nvidia.ko refuses
it ("is not supported by open nvidia.ko because it does not include the required GPU System
Processor (GSP)"); with no other GPU it can drive, the module does not load."""
import os
import shutil

from realworld.common import (ARCH_OS_RELEASE, UBUNTU2004_OS_RELEASE, base_root, fresh, ini,
                              link, move_kernel, read, real_world, ubuntu_os_release, w)

TOPIC = "open_module"
FIXTURES = ("rw-gt1030-open560-negativo17-158", "rw-v100-open515-ogkm-322",
            "rw-gtx1070-open590-ogkm-1003", "rw-teslap4-open580-truenas-20",
            "rw-rtx2060-gtx1070ti-open560-ogkm-696", "rw-rtxpro6000-p4000-open575-ogkm-914",
            "rw-gt1030-proprietary560-negativo17-158")

PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
NO_DRIVER = "nvidia-gpu-no-driver"
OPEN_BASE = "rtx4090-open-module"
BASE_REL = "6.8.0-45-generic"

# nv.c's refusal, as NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv.c prints it (one
# printk: the lines after the first carry no time stamp of their own in dmesg).
GSP_REFUSAL = ("NVRM: The NVIDIA GPU {bus} (PCI ID: {pci_id})",
               "NVRM: installed in this system is not supported by open",
               "NVRM: nvidia.ko because it does not include the required GPU",
               "NVRM: System Processor (GSP).",
               "NVRM: Please see the 'Open Linux Kernel Modules' and 'GSP",
               "NVRM: Firmware' sections in the driver README, available on",
               "NVRM: the Linux graphics driver download page at",
               "NVRM: www.nvidia.com.")

FEDORA40_OS_RELEASE = (
    'NAME="Fedora Linux"\nVERSION="40 (Workstation Edition)"\nID=fedora\nVERSION_ID=40\n'
    'VERSION_CODENAME=""\nPLATFORM_ID="platform:f40"\n'
    'PRETTY_NAME="Fedora Linux 40 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:40"\n'
    'HOME_URL="https://fedoraproject.org/"\nVARIANT="Workstation Edition"\n'
    'VARIANT_ID=workstation\n')
UBUNTU1804_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="18.04.6 LTS (Bionic Beaver)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 18.04.6 LTS"\nVERSION_ID="18.04"\n'
    'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'VERSION_CODENAME=bionic\nUBUNTU_CODENAME=bionic\n')
DEBIAN12_OS_RELEASE = (
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
    'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
    'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
    'BUG_REPORT_URL="https://bugs.debian.org/"\n')

NO_DRIVER_SRC = ("/proc/modules and the rest of the tree from the nvidia-gpu-no-driver fixture "
                 "(see its sources; the GPU's BARs and PCIe link are that tree's, the report "
                 "shows none), the GPU re-identified and moved to the report's bus")


def refusal(prefix, bus, pci_id, stamp=""):
    """The refusal's lines, each with the syslog prefix (and dmesg time stamp) given."""
    return "".join(f"{prefix}{stamp}{line.format(bus=bus, pci_id=pci_id)}\n"
                   for line in GSP_REFUSAL)


def lone_gpu(name, bus, device, cls, release, osrel):
    """The nvidia-gpu-no-driver tree with its one GPU at <bus> as 10de:<device>: no driver
    bound, no nvidia module loaded."""
    dst, root = fresh(name, NO_DRIVER)
    old = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    gpu = f"sys/devices/pci0000:00/0000:00:01.0/{bus}"
    if bus != "0000:01:00.0":
        shutil.move(f"{root}/{old}", f"{root}/{gpu}")
        os.unlink(f"{root}/sys/bus/pci/devices/0000:01:00.0")
        link(root, f"sys/bus/pci/devices/{bus}", f"../../../devices/pci0000:00/0000:00:01.0/{bus}")
    w(root, f"{gpu}/device", f"0x{device:04x}\n")
    w(root, f"{gpu}/class", f"0x{cls:06x}\n")
    w(root, "etc/os-release", osrel)
    w(root, "proc/sys/kernel/osrelease", release + "\n")
    return dst, root


def gt1030_negativo17():
    """negativo17/nvidia-driver#158: a GT 1030 alone on Fedora; negativo17's 560.31 packages
    switched to the open kernel module, which refuses the GPU, so nothing loads."""
    name, url = FIXTURES[0], "https://github.com/negativo17/nvidia-driver/issues/158"
    rel, drv = "6.10.3-200.fc40.x86_64", "560.31.02"
    bus = "0000:09:00.0"
    dst, root = lone_gpu(name, bus, 0x1d01, 0x030000, rel, FEDORA40_OS_RELEASE)
    prefix = "Aug 14 09:12:40 fedora kernel: "
    w(root, "var/log/messages", refusal(prefix, bus, "10de:1d01") + "".join(
        prefix + line + "\n" for line in (
            f"nvidia {bus}: probe with driver nvidia failed with error -1",
            "NVRM: The NVIDIA probe routine failed for 1 device(s).",
            "NVRM: None of the NVIDIA devices were initialized.")))
    ini(dst, TOPIC,
        "A Fedora desktop with one GeForce GT 1030 (10de:1d01, GP108, Pascal, compute "
        "capability 6.1) at 09:00.0: negativo17's 560.31 packages build the open kernel "
        "module (akmods, kernel-open in /etc/nvidia/kernel.conf), which refuses a GPU "
        "without a GSP; with no other GPU the module does not load",
        f"Rebuilt from {url} (pasted: the kernel's lines, kept verbatim in "
        "/var/log/messages: the open module's refusal of 0000:09:00.0 (PCI ID: 10de:1d01), "
        "'probe with driver nvidia failed with error -1', 'The NVIDIA probe routine failed "
        "for 1 device(s)', 'None of the NVIDIA devices were initialized'; 'GPU is a GT "
        "1030'; 'After upgrading to 560.31.x, the nvidia driver does not load'; the answer: "
        "the GPU is not compatible with the open module, switch kernel.conf back to the "
        "proprietary 'kernel' variant and akmods --rebuild); not in the report and chosen "
        "here: Fedora 40 (current in August 2024) and its kernel "
        f"{rel}, the release {drv} (the only 560.31 release NVIDIA published), the "
        "module where akmods installs it (extra/nvidia, xz, unsigned), the syslog prefix "
        "and time of the lines; " + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "kernel: NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01) NVRM: installed "
            "in this system is not supported by open NVRM: nvidia.ko because it does not "
            "include the required GPU NVRM: System Processor (GSP). … NVRM: None of the "
            "NVIDIA devices were initialized.",
            "the open kernel module needs a GSP (Turing and later) and refuses the Pascal GT "
            "1030; fixed by switching negativo17's kernel.conf to the proprietary module "
            "and rebuilding it with akmods",
            "driver.branch-drops-gpu", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = {drv}, -, xz, "
        "Dual MIT/GPL\n")


def v100_open515():
    """NVIDIA/open-gpu-kernel-modules#322: a Tesla V100 SXM2 32GB with the open module of
    515.49.06 built by hand; the module refuses the Volta GPU."""
    name, url = FIXTURES[1], "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/322"
    rel, drv = "5.4.0-91-generic", "515.49.06"
    bus = "0000:af:00.0"
    dst, root = lone_gpu(name, bus, 0x1db5, 0x030200, rel, UBUNTU1804_OS_RELEASE)
    prefix = "Jul 19 10:20:31 gpu-server kernel: "
    w(root, "var/log/kern.log",
      f"{prefix}[ 1157.036170] PKCS#7 signature not signed with a trusted key\n"
      f"{prefix}[ 1157.043851] nvidia-nvlink: Nvlink Core is being initialized, major device "
      "number 237\n" + refusal(prefix, bus, "10de:1db5", "[ 1157.046099] "))
    ini(dst, TOPIC,
        "An Ubuntu 18.04.6 server with a Tesla V100 SXM2 32GB (10de:1db5, GV100, Volta, "
        "compute capability 7.0) at af:00.0: the user installed 515.49.06's user space "
        "(--no-kernel-modules) and built and installed the open kernel modules from "
        "source; the open nvidia.ko refuses the GPU (no GSP), so the module does not load",
        f"Rebuilt from {url} (pasted: 'NVIDIA Open GPU Kernel Modules Version 515.49.06', "
        f"'Ubuntu 18.04.6 LTS', 'Kernel Release {rel}', the make modules_install output "
        "(the modules installed, 'missing System.map file. Skipping depmod', so "
        "modules.dep does not list them), the dmesg lines kept verbatim in "
        "/var/log/kern.log: 'PKCS#7 signature not signed with a trusted key', the Nvlink "
        "Core line and the refusal of 0000:af:00.0 (PCI ID: 10de:1db5)); not in the report "
        "and chosen here: the syslog prefix, the module path (kernel-open's modules_install "
        "default, kernel/drivers/video) and its signer's name (the log shows a signature "
        "no trusted key verifies; the name is a placeholder), no Secure Boot variables "
        "(the report does not show them); " + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "NVRM: The NVIDIA GPU 0000:af:00.0 (PCI ID: 10de:1db5) NVRM: installed in this "
            "system is not supported by open NVRM: nvidia.ko because it does not include "
            "the required GPU NVRM: System Processor (GSP).",
            "the open kernel modules need a GSP (Turing and later); the Volta V100 needs the "
            "proprietary kernel module of the same release",
            "driver.branch-drops-gpu", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/kernel/drivers/video/nvidia.ko = {drv}, "
        "gpu-server module signing key, none, Dual MIT/GPL\n")


def gtx1070_open590():
    """NVIDIA/open-gpu-kernel-modules#1003: a GTX 1070 on Arch after the 590 update, with
    nvidia-open-dkms; neither the R590 proprietary module nor the open one drives Pascal."""
    name, url = FIXTURES[2], "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1003"
    rel, drv = "6.12.65-1-lts", "590.48.01"
    dst, root = lone_gpu(name, "0000:01:00.0", 0x1b81, 0x030000, rel, ARCH_OS_RELEASE)
    ini(dst, TOPIC,
        "An Arch Linux desktop on the LTS kernel with a GeForce GTX 1070 (10de:1b81, GP104, "
        f"Pascal, compute capability 6.1) after the update to {drv}: the proprietary R590 "
        "driver dropped Pascal, and the nvidia-open-dkms module the user installed instead "
        "needs a GSP (Turing and later), so no module drives the GPU",
        f"Rebuilt from {url} (pasted: 'NVIDIA Open GPU Kernel Modules Version "
        f"{drv}-2', 'arch linux, latest updates, LTS kernel', 'Kernel Release {rel}', the "
        "GPU '1070', 'I installed the nvidia-open-dkms'; the log was not pasted ('na'), so "
        "the tree has none; the answer links NVIDIA's feature deprecation schedule: R580 "
        "is the last branch for Maxwell, Pascal and Volta); not in the report and chosen "
        "here: the module where DKMS installs it on Arch (updates/dkms, zstd, unsigned); "
        + NO_DRIVER_SRC,
        PATH,
        real_world(
            url,
            "I installed the nvidia-open-dkms, and i get akernel panic saying my cards not "
            "supported.",
            "R590 dropped Pascal (R580 is the last branch for it) and the open modules never "
            "supported it: the GTX 1070 needs the R580 proprietary driver",
            "driver.branch-drops-gpu", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = {drv}, -, zstd, "
        "Dual MIT/GPL\n")


def tesla_p4_truenas():
    """zzzhouuu/truenas-nvidia-drivers#20: a Tesla P4 on TrueNAS SCALE with a sysext that loads
    the open module of 580.178.04; bound, but the GPU never initialises."""
    name, url = FIXTURES[3], "https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/20"
    rel, drv = "6.12.105-production+truenas", "580.178.04"
    dst, root = base_root(name, 0x1bb3, 0x0000, "Tesla P4", drv, flavor="open")
    w(root, "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/class", "0x030200\n")
    move_kernel(root, BASE_REL, rel)
    w(root, "etc/os-release", DEBIAN12_OS_RELEASE)
    # the report's bus is 03:00.0; the base tree's 01:00.0 is kept (one GPU, its bus
    # names nothing doctor judges)
    bus = "0000:01:00.0"
    w(root, "var/log/kern.log", refusal("", bus, "10de:1bb3", "[   87.358035] ") +
      f"[  988.289884] NVRM: GPU {bus}: RmInitAdapter failed! (0x24:0x72:1603)\n"
      f"[  988.372255] NVRM: GPU {bus}: rm_init_adapter failed, device minor number 0\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {drv}  Release Build  "
      "(dvs-builder@U22-I3-AF03-09-1)  Tue Jul  7 12:38:21 UTC 2026\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14) \n")
    ini(dst, TOPIC,
        "A TrueNAS SCALE 25.10.7 server with a Tesla P4 (10de:1bb3, GP104, Pascal, compute "
        f"capability 6.1): the community driver extension loads the open module of {drv}, "
        "which binds the GPU but refuses it (no GSP), so nvidia-smi finds no devices",
        f"Rebuilt from {url} (pasted: 'TrueNAS SCALE 25.10.7, kernel {rel}', 'NVIDIA "
        "Tesla P4 (GP104, Pascal, PCI ID 10de:1bb3)', 'NVRM 580.178.04 (Tue Jul 7 12:38:21 "
        "UTC 2026 build)', 'No devices found', the dmesg lines kept verbatim in "
        "/var/log/kern.log (the refusal, 'RmInitAdapter failed! (0x24:0x72:1603)'), lspci "
        "'Kernel driver in use: nvidia'; the root cause the thread established: the "
        "extension ships the open kernel module, which supports Turing and later only); "
        "not in the report and chosen here: the bus (01:00.0 of the base tree for the "
        "report's 03:00.0, in the log too), Debian 12's os-release (TrueNAS SCALE is built "
        "on Debian; its own is not shown), the build host and GCC of "
        "/proc/driver/nvidia/version, the subsystem id; the rest of the tree from the "
        "rtx4090-open-module fixture (see its sources; the BARs and PCIe links are that tree's, the report shows none)",
        PATH,
        real_world(
            url,
            "$ nvidia-smi No devices found / NVRM: The NVIDIA GPU 0000:03:00.0 (PCI ID: "
            "10de:1bb3) NVRM: installed in this system is not supported by open NVRM: "
            "nvidia.ko because it does not include the required GPU NVRM: System Processor "
            "(GSP).",
            "the extension loads the open kernel module, which supports Turing and later "
            "only; the Pascal Tesla P4 needs the proprietary module",
            "driver.branch-drops-gpu", "driver", "yes"),
        base_devices(),
        f"[modules]\n/lib/modules/{rel}/kernel/drivers/video/nvidia.ko = {drv}, -, none, "
        "Dual MIT/GPL\n")


def base_devices():
    """The [devices] section of the rtx4090-open-module fixture."""
    with open(os.path.join("tests/fixtures", OPEN_BASE, "scenario.ini")) as f:
        text = f.read()
    start = text.index("[devices]\n")
    return text[start:text.index("\n[", start)].rstrip("\n") + "\n"


def second_gpu(root, device, subsys):
    """A second NVIDIA GPU at 02:00.0 behind its own root port, no driver bound: the open
    module refused it."""
    src = "sys/devices/pci0000:00/0000:00:01.1"
    port = "sys/devices/pci0000:00/0000:00:01.2"
    shutil.copytree(f"{root}/{src}", f"{root}/{port}", symlinks=True)
    shutil.move(f"{root}/{port}/0000:01:00.0", f"{root}/{port}/0000:02:00.0")
    gpu = f"{port}/0000:02:00.0"
    os.unlink(f"{root}/{gpu}/driver")
    w(root, f"{gpu}/device", f"0x{device:04x}\n")
    w(root, f"{gpu}/subsystem_device", f"0x{subsys:04x}\n")
    link(root, "sys/bus/pci/devices/0000:00:01.2", "../../../devices/pci0000:00/0000:00:01.2")
    link(root, "sys/bus/pci/devices/0000:02:00.0",
         "../../../devices/pci0000:00/0000:00:01.2/0000:02:00.0")


def two_gpus(name, first, model, second, drv, rel, osrel, prefix, build, gcc):
    dst, root = base_root(name, first, 0x0000, model, drv, flavor="open")
    second_gpu(root, second, 0x0000)
    move_kernel(root, BASE_REL, rel)
    w(root, "etc/os-release", osrel)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {drv}  Release Build  "
      f"({build})\nGCC version:  gcc version {gcc} \n")
    w(root, "var/log/kern.log", refusal(prefix, "0000:02:00.0", f"10de:{second:04x}") +
      f"{prefix}NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  {drv}  Release "
      f"Build  ({build})\n")
    return dst, root


def rtx2060_gtx1070ti():
    """NVIDIA/open-gpu-kernel-modules#696: an RTX 2060 and a GTX 1070 Ti with the open module
    of 560.35.03; the module drives the Turing GPU and refuses the Pascal one."""
    name, url = FIXTURES[4], "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/696"
    rel, drv = "5.15.0-119-generic", "560.35.03"
    dst, root = two_gpus(name, 0x1f08, "NVIDIA GeForce RTX 2060", 0x1b82, drv, rel,
                         UBUNTU2004_OS_RELEASE, "Aug 26 13:40:02 ubuntu kernel: ",
                         "dvs-builder@U16-I3-B03-4-3)  Fri Aug 16 21:42:42 UTC 2024",
                         "9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04.2)")
    ini(dst, TOPIC,
        "An Ubuntu 20.04.6 desktop with a GeForce RTX 2060 (Turing) and a GeForce GTX 1070 "
        f"Ti (10de:1b82, GP104, Pascal, compute capability 6.1) at 02:00.0, on the open "
        f"kernel module of {drv}: it drives the RTX 2060 and refuses the GTX 1070 Ti (no "
        "GSP), so nvidia-smi and CUDA see one GPU; the proprietary module of the same "
        "release drives both",
        f"Rebuilt from {url} (pasted: 'NVIDIA Open GPU Kernel Modules Version {drv}', "
        f"'Ubuntu 20.04.6 LTS', 'Kernel Release {rel}', 'GPU 0: NVIDIA GeForce RTX 2060, "
        "GPU 1: NVIDIA GeForce GTX 1070 Ti', nvidia-smi listing the RTX 2060 only, the "
        "reporter's dmesg lines (the refusal of 0000:02:00.0, PCI ID 10de:1b82, kept "
        "verbatim in /var/log/kern.log) and his conclusion: the open module supports the "
        "16xx, 20xx and later generations only); not in the report and chosen here: the "
        "RTX 2060's device id (10de:1f08, TU106 Rev. A) and bus (01:00.0), the second "
        "root port, the subsystem ids, the syslog prefix, the loading line's build host "
        "and date and /proc/driver/nvidia/version's GCC; the rest of the tree from the "
        "rtx4090-open-module fixture (see its sources; the BARs and PCIe links are that tree's, the report shows none)",
        PATH,
        real_world(
            url,
            "Open driver doesn't report GPU 1 NVIDIA GeForce GTX 1070 Ti when I call "
            "nvidia-smi. / NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:1b82) NVRM: "
            "installed in this system is not supported by open NVRM: nvidia.ko because it "
            "does not include the required GPU NVRM: System Processor (GSP).",
            "the open kernel module supports Turing and later only; the Pascal GTX 1070 Ti "
            "needs the proprietary module, which drives both GPUs",
            "driver.branch-drops-gpu", "driver", "yes"),
        base_devices(),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none, "
        "Dual MIT/GPL\n")


def rtxpro6000_p4000():
    """NVIDIA/open-gpu-kernel-modules#914: an RTX PRO 6000 Blackwell (open module only) and a
    Quadro P4000 (proprietary module only) on the open module of 575.64.03."""
    name, url = FIXTURES[5], "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/914"
    rel, drv = "6.14.0-27-generic", "575.64.03"
    dst, root = two_gpus(name, 0x2bb1, "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
                         0x1bb1, drv, rel, ubuntu_os_release("24.04", "Noble Numbat", "noble"),
                         "Aug  6 09:30:11 workstation kernel: ",
                         "dvs-builder@U22-I3-AF03-09-1)  Wed Jun 25 18:32:06 UTC 2025",
                         "13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)")
    ini(dst, TOPIC,
        "An Ubuntu 24.04 workstation with an RTX PRO 6000 Blackwell Workstation Edition "
        "(10de:2bb1; Blackwell needs the open kernel module) and a Quadro P4000 (10de:1bb1, "
        f"GP104, Pascal, compute capability 6.1) at 02:00.0, on the open module of {drv}: "
        "it drives the Blackwell GPU and refuses the P4000 (no GSP), which lights the "
        "desktop through the firmware's framebuffer only",
        f"Rebuilt from {url} (pasted: 'NVIDIA Open GPU Kernel Modules Version {drv}', "
        f"'ubuntu 24.04', 'linux {rel}', 'I'm running the 575.64.03 open driver to support a "
        "new RTX PRO 6000 Blackwell Workstation Edition, but I also have an older Quadro "
        "P4000', 'it does not appear at all in nvidia-smi', 'does not happen with the "
        "proprietary driver'; the cause is the one NVIDIA's driver README gives: the open "
        "modules need a GSP, Turing and later); not in the report and chosen here: the "
        "refusal lines in /var/log/kern.log in nv.c's wording for the P4000's id (the "
        "report attaches its log but quotes none), the buses, the second root port, the "
        "subsystem ids, the syslog prefix, the loading line's build host and date and "
        "/proc/driver/nvidia/version's GCC; the rest of the tree from the "
        "rtx4090-open-module fixture (see its sources; the BARs and PCIe links are that tree's, the report shows none)",
        PATH,
        real_world(
            url,
            "While the P4000 functions normally for display output …, it does not appear at "
            "all in nvidia-smi or nvidia-settings when using the nvidia-open driver.",
            "the open kernel module supports Turing and later only; the Pascal Quadro P4000 "
            "needs the proprietary module, which does not drive the Blackwell GPU",
            "driver.branch-drops-gpu", "driver", "yes"),
        base_devices(),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = {drv}, -, zstd, "
        "Dual MIT/GPL\n")


def gt1030_proprietary():
    """The negative of rw-gt1030-open560-negativo17-158: the GT 1030 after the fix, the
    proprietary module of the same release loaded; the open module's refusal is still in
    the log and is history."""
    name, url = FIXTURES[6], "https://github.com/negativo17/nvidia-driver/issues/158"
    drv, bus = "560.31.02", "0000:01:00.0"
    dst, root = base_root(name, 0x1d01, 0x0000, "NVIDIA GeForce GT 1030", drv)
    w(root, "etc/os-release", FEDORA40_OS_RELEASE)
    prefix = "Aug 14 09:12:40 fedora kernel: "
    os.unlink(f"{root}/var/log/kern.log")
    w(root, "var/log/messages", refusal(prefix, bus, "10de:1d01") +
      "Aug 14 09:31:07 fedora kernel: NVRM: loading NVIDIA UNIX x86_64 Kernel Module  "
      f"{drv}  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Aug  1 00:00:00 UTC 2024\n")
    ini(dst, TOPIC,
        f"The GT 1030 of {url} after the fix the thread gives: negativo17's kernel.conf "
        f"switched to the proprietary module and akmods rebuilt it; {drv} is loaded and "
        "drives the GPU; the open module's refusal of the boot before is still in the "
        "log, which must not be judged as the loaded driver's",
        f"The negative of {FIXTURES[0]}: its refusal lines (for the base tree's bus "
        "01:00.0, where this tree has the GPU) and Fedora 40's os-release, then the "
        "proprietary module's loading line (its build host and date placeholders, as is "
        "the build line of /proc/driver/nvidia/version, which the writer's base_root() "
        "makes for any proprietary driver); the rtx4090-open-module fixture (its sources) "
        "with the GPU's id 10de:1d01, the driver version and flavour replaced; the kernel "
        "release and module path of the base tree kept",
        PATH, "", base_devices(),
        f"[modules]\n/lib/modules/{BASE_REL}/kernel/drivers/video/nvidia.ko = {drv}, -, "
        "none, NVIDIA\n")


def write():
    gt1030_negativo17()
    v100_open515()
    gtx1070_open590()
    tesla_p4_truenas()
    rtx2060_gtx1070ti()
    rtxpro6000_p4000()
    gt1030_proprietary()
