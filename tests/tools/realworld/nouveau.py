# SPDX-License-Identifier: GPL-2.0-or-later
"""An NVIDIA GPU left to nouveau because the NVIDIA driver was never installed."""
import os
import shutil

from realworld.common import fresh, ini, link, real_world, section, w

TOPIC = "nouveau"
FIXTURES = ("rw-antergos-gtx1060-nouveau-no-nvidia-driver",)

URL = "https://github.com/Antergos/nvidia-installer/issues/11"
REL = "4.14.13-1-ARCH"

# The os-release of Antergos 18.11 (a later ISO than the report's: Antergos is rolling and
# the antergos-release package carries the file), as quoted in a public test suite.
ANTERGOS_OS_RELEASE = (
    'NAME="Antergos Linux"\nVERSION="18.11-ISO-Rolling"\nID="antergos"\nID_LIKE="arch"\n'
    'PRETTY_NAME="Antergos Linux"\nCPE_NAME="cpe:/o:antergosproject:antergos:18.11"\n'
    'ANSI_COLOR="1;34;40"\nHOME_URL="https://antergos.com/"\n'
    'SUPPORT_URL="https://forum.antergos.com/"\nBUG_REPORT_URL="https://github.com/antergos"\n')

# nouveau and i915 with the helpers a 4.14 kernel loads for them (proc(5) format; sizes and
# counts are placeholders, the report shows only lspci -k).
PROC_MODULES = (
    "nouveau 1822720 3 - Live 0x0000000000000000\n"
    "mxm_wmi 16384 1 nouveau, Live 0x0000000000000000\n"
    "i915 1724416 5 - Live 0x0000000000000000\n"
    "ttm 118784 1 nouveau, Live 0x0000000000000000\n"
    "i2c_algo_bit 16384 2 nouveau,i915, Live 0x0000000000000000\n"
    "drm_kms_helper 208896 2 nouveau,i915, Live 0x0000000000000000\n"
    "video 45056 2 nouveau,i915, Live 0x0000000000000000\n"
    "wmi 28672 3 mxm_wmi,video,nouveau, Live 0x0000000000000000\n"
    "drm 466944 7 nouveau,ttm,i915,drm_kms_helper, Live 0x0000000000000000\n"
    "snd_hda_intel 45056 3 - Live 0x0000000000000000\n")

# Haswell's integrated graphics as resource_show() prints it: a 4 MiB MMIO BAR (64-bit), a
# 256 MiB prefetchable aperture (64-bit) and a 64-port I/O BAR; addresses are placeholders.
IGPU_RESOURCE = (
    "0x00000000f7800000 0x00000000f7bfffff 0x0000000000140204\n"
    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
    "0x00000000e0000000 0x00000000efffffff 0x000000000014220c\n"
    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
    "0x000000000000f000 0x000000000000f03f 0x0000000000040101\n"
    + "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 8)


def gtx1060_nouveau():
    """Antergos/nvidia-installer#11: a GTX 1060 6GB under nouveau next to Haswell's integrated
    graphics under i915; nvidia-installer did not know the card, so no NVIDIA driver was
    installed."""
    name = "rw-antergos-gtx1060-nouveau-no-nvidia-driver"
    dst, root = fresh(name, "nouveau-bound")
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, f"{gpu}/device", "0x1c03\n")
    w(root, f"{gpu}/subsystem_vendor", "0x10de\n")
    w(root, f"{gpu}/subsystem_device", "0x1c03\n")
    w(root, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.1/device", "0x10f1\n")
    igpu = "sys/devices/pci0000:00/0000:00:02.0"
    for attr, value in (("vendor", "0x8086"), ("device", "0x0412"), ("class", "0x030000"),
                        ("subsystem_vendor", "0x1458"), ("subsystem_device", "0xd000"),
                        ("revision", "0x06"), ("numa_node", "-1"), ("enable", "1"),
                        ("irq", "29")):
        w(root, f"{igpu}/{attr}", value + "\n")
    w(root, f"{igpu}/resource", IGPU_RESOURCE)
    link(root, f"{igpu}/driver", "../../../bus/pci/drivers/i915")
    w(root, "sys/bus/pci/drivers/i915/bind", "")
    link(root, "sys/bus/pci/devices/0000:00:02.0", "../../../devices/pci0000:00/0000:00:02.0")
    # Haswell's host bridge (4th Gen Core DRAM Controller, bound to the hsw_uncore PMU
    # driver, arch/x86/events/intel/uncore.c) and its x16 root port, in place of the base's
    # Coffee Lake ones
    w(root, "sys/devices/pci0000:00/0000:00:00.0/device", "0x0c00\n")
    w(root, "sys/devices/pci0000:00/0000:00:01.0/device", "0x0c01\n")
    os.unlink(f"{root}/sys/devices/pci0000:00/0000:00:00.0/driver")
    link(root, "sys/devices/pci0000:00/0000:00:00.0/driver", "../../../bus/pci/drivers/hsw_uncore")
    shutil.rmtree(f"{root}/sys/bus/pci/drivers/skl_uncore")
    w(root, "sys/bus/pci/drivers/hsw_uncore/bind", "")
    w(root, "etc/os-release", ANTERGOS_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", REL + "\n")
    w(root, "proc/modules", PROC_MODULES)
    # Debian's files in the base: an Arch system has none of them (journald keeps the log)
    for path in ("etc/modprobe.d", "lib", "usr", "var"):
        shutil.rmtree(f"{root}/{path}")
    ini(dst, TOPIC,
        "An Antergos (Arch) desktop with a GeForce GTX 1060 6GB (10de:1c03, GP106, Pascal) "
        "bound to nouveau and Haswell's integrated graphics (Xeon E3-1200 v3/4th Gen Core, "
        "8086:0412, Gigabyte board) bound to i915: nvidia-installer did not know the card "
        "('Couldn't find a driver suitable for your graphics card.'), so the NVIDIA driver "
        "was never installed and no nvidia.ko exists for the running kernel; forcing the "
        "installer (nvidia-installer -f) installed it",
        f"Rebuilt from {URL} (pasted by the reporter: lspci's 'NVIDIA Corporation GP106 "
        "[GeForce GTX 1060 6GB] [10de:1c03] (rev a1)' and the installer's error; by "
        "cupofjoakim, whose machine this is, 'I'm in the same boat', lspci -k: 00:02.0 Intel "
        "Xeon E3-1200 v3/4th Gen Core Processor Integrated Graphics Controller (rev 06), "
        "subsystem Gigabyte Technology, 'Kernel driver in use: i915'; 01:00.0 NVIDIA GP106 "
        "[GeForce GTX 1060 6GB] (rev a1), subsystem GP106 [GeForce GTX 1060 6GB] (lspci "
        "prints the device's own name for the subsystem 10de:1c03), 'Kernel driver in use: "
        "nouveau'; the thread: forcing the installer worked, and the maintainer added the "
        "id); not in the report and chosen here: the kernel "
        f"{REL} (Arch's kernel of January 2018), 8086:0412 for the iGPU (pci.ids' name for "
        "it; a Core i5/i7 of that generation), Haswell's host bridge 8086:0c00 (hsw_uncore) "
        "and x16 root port 8086:0c01, the Gigabyte subsystem d000, the iGPU's BARs "
        "and IRQ, /proc/modules' sizes, the audio function 10de:10f1 (GP106's, in pci.ids), "
        "the os-release of Antergos 18.11 (the report's ISO was earlier; Antergos is "
        "rolling); the GTX 1060's BARs, links, the device nodes, /etc/group and the EFI "
        "Secure Boot variable (off) from the nouveau-bound fixture (see its sources)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL,
            "01:00.0 VGA compatible controller: NVIDIA Corporation GP106 [GeForce GTX 1060 "
            "6GB] (rev a1) Subsystem: NVIDIA Corporation GP106 [GeForce GTX 1060 6GB] Kernel "
            "driver in use: nouveau / Couldn't find a driver suitable for your graphics card.",
            "the NVIDIA driver was never installed (the installer's database lacked the "
            "card's id; nvidia-installer -f installed it): no nvidia.ko for the running "
            "kernel, so nouveau drives the GPU and CUDA has no driver",
            "driver.module-missing-for-kernel", "driver", "yes"),
        section("nouveau-bound", "devices"))


def write():
    gtx1060_nouveau()
