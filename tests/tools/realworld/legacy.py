# SPDX-License-Identifier: GPL-2.0-or-later
"""A driver branch newer than the GPU's last one: the release ignores a GPU NVIDIA moved to a
legacy branch, and with no other GPU the module does not load."""
import os
import shutil

from realworld.common import (UBUNTU2004_OS_RELEASE, base_root, fresh, ini, link, real_world,
                              section, w)

TOPIC = "legacy"
FIXTURES = ("rw-k80-p2xlarge-r510-ignored", "rw-k80-p2xlarge-r470-loaded")

URL = "https://github.com/charmed-kubernetes/kubernetes-docs/issues/646"
URL_PR = "https://github.com/charmed-kubernetes/kubernetes-docs/pull/647"
DRIVER, LEGACY = "510.47.03", "470.103.01"
REL = "5.13.0-1017-aws"
BUS = "0000:00:1e.0"

# The reporter's syslog lines: the first two as #646 pasted them, the notice's remaining
# lines and "No NVIDIA GPU found." as PR #647 quotes them, with the syslog prefix of the lines
# before them (one printk: the same time stamp).
PREFIX = "Mar  3 13:08:28 ip-172-31-37-178 kernel: "
KERN_LOG = "".join(PREFIX + line + "\n" for line in (
    "[ 3570.610595] nvidia-nvlink: Nvlink Core is being initialized, major device number 239",
    "[ 3570.610602] NVRM: The NVIDIA Tesla K80 GPU installed in this system is",
    "[ 3570.610602] NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please",
    "[ 3570.610602] NVRM:  visit http://www.nvidia.com/object/unix.html for more",
    f"[ 3570.610602] NVRM:  information.  The {DRIVER} NVIDIA driver will ignore",
    "[ 3570.610602] NVRM:  this GPU.  Continuing probe...",
    "[ 3570.610607] NVRM: No NVIDIA GPU found.",
))

# `lspci -v -s 00:1e.0` of #646: BAR0 16 MiB at 0x84000000 (32-bit, non-prefetchable), BAR1
# 16 GiB at 0x1000000000 and BAR3 32 MiB at 0x82000000 (64-bit, prefetchable), as
# resource_show() (drivers/pci/pci-sysfs.c) prints them: 13 lines for an endpoint.
K80_RESOURCE = (
    "0x0000000084000000 0x0000000084ffffff 0x0000000000040200\n"
    "0x0000001000000000 0x00000013ffffffff 0x000000000014220c\n"
    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
    "0x0000000082000000 0x0000000083ffffff 0x000000000014220c\n"
    + "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 9)


def k80_ignored():
    """charmed-kubernetes/kubernetes-docs#646: an AWS p2.xlarge (one Tesla K80) with the R510
    driver the charm installed; the release ignores the K80 and the module does not load."""
    name = "rw-k80-p2xlarge-r510-ignored"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    old_dev = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    gpu = f"sys/devices/pci0000:00/{BUS}"
    shutil.move(f"{root}/{old_dev}", f"{root}/{gpu}")
    shutil.rmtree(f"{root}/sys/devices/pci0000:00/0000:00:01.0")
    os.unlink(f"{root}/sys/bus/pci/devices/0000:01:00.0")
    link(root, f"sys/bus/pci/devices/{BUS}", f"../../../devices/pci0000:00/{BUS}")
    w(root, f"{gpu}/device", "0x102d\n")
    w(root, f"{gpu}/subsystem_device", "0x106c\n")
    w(root, f"{gpu}/class", "0x030200\n")  # "3D controller" in the report
    w(root, f"{gpu}/resource", K80_RESOURCE)
    for attr, value in (("current_link_speed", "8.0 GT/s PCIe"), ("max_link_speed",
                                                                  "8.0 GT/s PCIe"),
                        ("current_link_width", "16"), ("max_link_width", "16")):
        w(root, f"{gpu}/{attr}", value + "\n")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", REL + "\n")
    w(root, "var/log/kern.log", KERN_LOG)
    ini(dst, TOPIC,
        "An AWS p2.xlarge Charmed Kubernetes worker with one Tesla K80 (10de:102d, GK210GL, "
        "Kepler, compute capability 3.7) at 00:1e.0 and the R510 driver the charm installed "
        f"({DRIVER}): the release ignores the K80 ('supported through the NVIDIA 470.xx "
        "Legacy drivers ... will ignore this GPU'), finds no other GPU ('No NVIDIA GPU "
        "found.') and the module does not load, so nvidia-smi 'couldn't communicate with the "
        "NVIDIA driver'; Kepler's last branch is R470",
        f"Rebuilt from {URL} (pasted: lspci -v -s 00:1e.0 '3D controller: NVIDIA Corporation "
        "GK210GL [Tesla K80] (rev a1)', subsystem GK210GL [Tesla K80] (10de:106c in pci.ids), "
        "its three memory regions (kept in resource), 'Kernel modules: nvidiafb, nvidia_drm, "
        "nvidia' (a module on disk, none bound); nvidia-smi's 'NVIDIA-SMI has failed because "
        "it couldn't communicate with the NVIDIA driver'; the syslog lines of "
        "ip-172-31-37-178, kept verbatim in /var/log/kern.log) and its fix "
        f"{URL_PR} (which quotes the whole notice with the release {DRIVER} and 'NVRM: No "
        "NVIDIA GPU found.', and moves the docs to a V100 instance); not in the reports and "
        "chosen here: the syslog prefix and time stamps of the notice's later lines (one "
        "printk: the first line's), Ubuntu 20.04 (the Charmed Kubernetes base then) with "
        f"the 20.04 AWS kernel {REL}, the module as NVIDIA's nvidia-dkms-510 installs it "
        "(updates/dkms, unsigned), PCIe 3.0 x16 links (the report shows an Express "
        "endpoint, not its link); /proc/modules and the rest of the tree from the "
        "nvidia-gpu-no-driver fixture (see its sources)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL,
            "NVRM: The NVIDIA Tesla K80 GPU installed in this system is NVRM: supported "
            "through the NVIDIA 470.xx Legacy drivers. … The 510.47.03 NVIDIA driver will "
            "ignore NVRM: this GPU. Continuing probe... NVRM: No NVIDIA GPU found. / "
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
            "the R510 release dropped Kepler: it ignores the Tesla K80 (compute capability "
            "3.7, last driven by R470) and, with no other GPU, the module does not load; the "
            "docs moved the example to a p3.2xlarge (V100) in PR #647",
            "driver.branch-drops-gpu", "driver", "yes"),
        f"[modules]\n/lib/modules/{REL}/updates/dkms/nvidia.ko = {DRIVER}, -, none\n")


def k80_loaded():
    """The negative: the same K80 with the R470 legacy driver the notice names loaded; the
    R510 release's notice is still in the log and must not be judged as the loaded driver's."""
    name = "rw-k80-p2xlarge-r470-loaded"
    dst, root = base_root(name, 0x102d, 0x106c, "Tesla K80", LEGACY)
    gpu = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    w(root, f"{gpu}/class", "0x030200\n")
    w(root, f"{gpu}/resource", K80_RESOURCE)
    os.unlink(f"{root}/var/log/kern.log")
    w(root, "var/log/kern.log", KERN_LOG + PREFIX +
      f"[ 3702.118230] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {LEGACY}  "
      "Thu Jan  6 22:18:47 UTC 2022\n")
    ini(dst, TOPIC,
        f"The Tesla K80 of {URL} after the fix the notice names: the R470 legacy driver "
        f"({LEGACY}) is loaded and drives it; the R510 release's notice that it ignored the "
        "GPU is still in the kernel log, which must not be judged as the loaded driver's",
        f"The negative of rw-k80-p2xlarge-r510-ignored: the syslog lines of {URL} and "
        f"{URL_PR}, then the R470 module's loading line (the {LEGACY} release, January "
        "2022, the 470.xx branch the notice names; the build date on that line is a "
        "placeholder, as is the build line of /proc/driver/nvidia/version, which the "
        "writer's base_root() makes for any proprietary driver); the rtx4090-open-module "
        "fixture (its sources) with the GPU's ids 10de:102d (GK210GL [Tesla K80] in "
        "pci.ids, subsystem 10de:106c as the report's lspci names it), class 0x030200 and "
        "the report's BARs, its driver version and flavour replaced (proprietary: R470 has "
        "no open module)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        section("rtx4090-open-module", "devices"),
        section("rtx4090-open-module", "modules").replace("550.120", LEGACY)
        .replace("Dual MIT/GPL", "NVIDIA"))


def write():
    k80_ignored()
    k80_loaded()
