# SPDX-License-Identifier: GPL-2.0-or-later
"""A driver branch older than the GPU: the release refuses it and the module does not load."""
import os
import shutil

from realworld.common import base_root, fresh, ini, link, real_world, section, w

TOPIC = "predates"
FIXTURES = ("rw-bam-l40s-r470-refused", "rw-bam-l40s-r560-loaded")

URL = "https://github.com/ZaidQureshi/bam/issues/38"
URL_AFTER = "https://github.com/ZaidQureshi/bam/issues/41"
OLD, NEW = "470.256.02", "560.35.03"
REL = "5.8.0-63-generic"

# The reporter's dmesg, as pasted (nv.c prints the message again at each modprobe retry).
REFUSAL = (
    "[  422.450961] NVRM: The NVIDIA GPU {bus} (PCI ID: 10de:26b9)\n"
    "               NVRM: installed in this system is not supported by the\n"
    f"               NVRM: NVIDIA {OLD} driver release.\n"
    "               NVRM: Please see 'Appendix A - Supported NVIDIA GPU Products'\n"
    "               NVRM: in this release's README, available on the operating system\n"
    "               NVRM: specific graphics driver download page at www.nvidia.com.\n"
    "[  422.451145] nvidia: probe of {bus} failed with error -1\n"
    "[  422.451178] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
    "[  422.451179] NVRM: None of the NVIDIA devices were initialized.\n"
    "[  422.452194] nvidia-nvlink: Unregistered the Nvlink Core, major device number 508\n"
    "[  422.736006] nvidia-nvlink: Nvlink Core is being initialized, major device number 508\n"
    "[  422.737854] NVRM: The NVIDIA GPU {bus} (PCI ID: 10de:26b9)\n"
    "               NVRM: installed in this system is not supported by the\n"
    f"               NVRM: NVIDIA {OLD} driver release.\n")

UBUNTU20043_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="20.04.3 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 20.04.3 LTS"\nVERSION_ID="20.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')

# BAR0 16 MiB, BAR1 64 GiB (prefetchable, 64-bit), BAR3 32 MiB, as resource_show() prints
# them (drivers/pci/pci-sysfs.c): 13 lines for an endpoint.
L40S_RESOURCE = (
    "0x00000000f0000000 0x00000000f0ffffff 0x0000000000040200\n"
    "0x0000220000000000 0x0000220fffffffff 0x000000000014220c\n"
    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
    "0x0000221000000000 0x0000221001ffffff 0x000000000014220c\n"
    + "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 9)


def l40s_refused():
    """ZaidQureshi/bam#38: Ubuntu's nvidia-driver-470 on an L40S; the release refuses it."""
    name = "rw-bam-l40s-r470-refused"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    bus = "0000:8a:00.0"
    old_dev = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    gpu = f"sys/devices/pci0000:89/0000:89:01.0/{bus}"
    os.makedirs(os.path.dirname(f"{root}/{gpu}"))
    shutil.move(f"{root}/{old_dev}", f"{root}/{gpu}")
    shutil.rmtree(f"{root}/sys/devices/pci0000:00")
    os.unlink(f"{root}/sys/bus/pci/devices/0000:01:00.0")
    link(root, f"sys/bus/pci/devices/{bus}", f"../../../devices/pci0000:89/0000:89:01.0/{bus}")
    w(root, f"{gpu}/device", "0x26b9\n")
    w(root, f"{gpu}/subsystem_device", "0x1851\n")
    w(root, f"{gpu}/class", "0x030200\n")  # a 3D controller: the L40S drives no display
    w(root, f"{gpu}/numa_node", "1\n")
    w(root, f"{gpu}/resource", L40S_RESOURCE)
    w(root, "etc/os-release", UBUNTU20043_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", REL + "\n")
    w(root, "var/log/dmesg", REFUSAL.format(bus=bus))
    ini(dst, TOPIC,
        "An HPE DL380 Gen11 with an NVIDIA L40S (10de:26b9, AD102GL, Ada Lovelace, compute "
        f"capability 8.9) on Ubuntu 20.04.3 with Ubuntu's nvidia-driver-470 ({OLD}) installed "
        "for BaM: the R470 release does not know the GPU ('not supported by the NVIDIA "
        f"{OLD} driver release'), its probe fails, and with no GPU it can drive the module "
        "does not load (nvidia-smi cannot talk to a driver); Ada needs R520 or newer",
        f"Rebuilt from {URL} (pasted: the dmesg lines, kept verbatim in /var/log/dmesg: "
        "gpuenv reads the ring buffer live, a text log under --sysroot; 'ubuntu 20.04.3', "
        "'ubuntu nvidia graphic driver 535 or 470'; the GPU at 0000:8a:00.0 with PCI ID "
        "10de:26b9, AD102GL [L40S] in pci.ids) and "
        f"{URL_AFTER} (the same machine, salab-hpedl380g11-01, 'ubuntu20.04.3, kernel "
        "version is 5.8', then nvidia-driver-560-open); not in the reports and chosen here: "
        f"the kernel {REL} (the last 5.8 HWE kernel of 20.04), the module as Ubuntu's "
        "nvidia-dkms-470 installs it (updates/dkms, unsigned: Secure Boot is off in the "
        "base), the subsystem id 10de:1851, the root port 0000:89:01.0, NUMA node 1, the "
        "BARs (16 MiB, 64 GiB, 32 MiB; no report shows them) and PCIe 4.0 x16 links; "
        "/proc/modules and the rest of the tree from the nvidia-gpu-no-driver fixture (see "
        "its sources)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL,
            f"NVRM: The NVIDIA GPU {bus} (PCI ID: 10de:26b9) NVRM: installed in this system "
            f"is not supported by the NVRM: NVIDIA {OLD} driver release. … nvidia: probe of "
            f"{bus} failed with error -1 NVRM: The NVIDIA probe routine failed for 1 "
            "device(s). NVRM: None of the NVIDIA devices were initialized.",
            f"the R470 release ({OLD}) predates the L40S (Ada Lovelace, compute capability "
            "8.9, first targeted by CUDA 11.8 whose driver is R520): the driver refuses the "
            "GPU and the module does not load; a newer branch drives it (the reporter moved "
            "to 560-open, ZaidQureshi/bam#41)",
            "driver.branch-predates-gpu", "driver", "yes"),
        f"[modules]\n/lib/modules/{REL}/updates/dkms/nvidia.ko = {OLD}, -, none\n")


def l40s_loaded():
    """The negative: the same GPU with the 560 open module the reporter moved to
    (ZaidQureshi/bam#41) loaded; the old release's refusal is still in the log."""
    name = "rw-bam-l40s-r560-loaded"
    dst, root = base_root(name, 0x26b9, 0x1851, "NVIDIA L40S", NEW, flavor="open")
    gpu = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    w(root, f"{gpu}/class", "0x030200\n")
    w(root, "var/log/dmesg",
      REFUSAL.format(bus="0000:01:00.0") +
      f"[  980.102311] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  {NEW}  "
      "Release Build  (dvs-builder@U16-I3-B03-4-3)  Fri Aug 16 21:42:42 UTC 2024\n")
    os.unlink(f"{root}/var/log/kern.log")
    ini(dst, TOPIC,
        f"The L40S of ZaidQureshi/bam#38 after the fix: the {NEW} open kernel module "
        "(nvidia-driver-560-open, as ZaidQureshi/bam#41 shows) is loaded and drives it; "
        f"the earlier {OLD} release's refusal of the GPU is still in the log, which must not "
        "be judged as the loaded driver's",
        f"The negative of rw-bam-l40s-r470-refused, after {URL_AFTER} (nvidia-driver-560-open "
        f"{NEW}); the dmesg lines of {URL} for this bus, then the open module's loading "
        "line; the rtx4090-open-module fixture (its sources) with the GPU's ids 10de:26b9 "
        "(AD102GL [L40S] in pci.ids; subsystem 10de:1851 chosen) and class 0x030200, its "
        "driver version replaced",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        section("rtx4090-open-module", "devices"),
        section("rtx4090-open-module", "modules").replace("550.120", NEW))


def write():
    l40s_refused()
    l40s_loaded()
