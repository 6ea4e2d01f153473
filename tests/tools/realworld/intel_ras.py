# SPDX-License-Identifier: GPL-2.0-or-later
"""Intel GPUs' RAS through Level Zero Sysman (hardware.ecc-uncorrectable): a GPU for which
Sysman gives no uncorrectable error set has no count to judge, which is "could not tell", not
a count of 0. The machine is the rw-intel-b580-kernel-6.11-hwe tree (xe bound, see intel.py)
with its GPU re-identified and repeated at the report's eight PCI addresses."""
import os
import shutil

from realworld.common import dpkg, ini, ldso_cache, link, ubuntu_os_release, w
from realworld.intel import GPU, SRC_INTEL_BASE, b580_base, devices, level_zero

TOPIC = "intel_ras"
FIXTURES = ("rw-intel-b60-x8-no-ras-error-sets",)

KERNEL = "7.0.0-31-generic"
# The report's first two PCI addresses, then the next root ports' buses on the same step.
BUSES = ("18", "1c", "20", "24", "28", "2c", "30", "34")
# What the Level Zero session answers (tests/fakes/fake-levelzero*.c): zesInit succeeds, each
# B60 has 21414 MiB of device-local memory (with ECC on, as the report measures it) and no
# RAS error set (zesDeviceEnumRasErrorSets: SUCCESS, count=0); nothing else of Sysman is
# scripted (the report shows no other reading).
ZE = "[levelzero]\ndriver_version = 1\napi_version = 1.14\n" + "".join(
    f"\n[levelzero.device.{i}]\nname = Intel(R) Arc(TM) Pro B60 Graphics\ntype = 1\n"
    "vendor_id = 0x8086\ndevice_id = 0xe211\nintegrated = 0\nmemory_total_mib = 21414\n"
    for i in range(len(BUSES)))
SOURCE = (
    "Rebuilt from https://github.com/intel/compute-runtime/issues/993 (pasted: a Sysman "
    "program's output on eight Arc Pro B60 (BMG), 'zesInit: SUCCESS', 'Devices: 8', "
    "'=== 0000:18:00.0 === zesDeviceEnumRasErrorSets -> SUCCESS count=0', the same for "
    "0000:1c:00.0 and '... identical for all eight ...', as root and not; 'We run eight of "
    "these cards for inference with ECC enabled. With no RAS error sets we have no way to "
    "observe whether corrected memory errors are occurring'; ECC on: 21414 MiB per chip) and "
    "the same reporter's https://github.com/intel/xpumanager/issues/166 (8 x Arc Pro B60, "
    "8086:e211, BMG G21, Linux 7.0.0-31, xe, L0 1.32.0, xpu-smi 2.1.0+26.33.6468cec-1~26.04; "
    "with no RAS domains `xpu-smi stats -r` prints a table of zeros: 'we read a table of "
    "zeros and concluded our cards had logged no errors in their lifetime. That conclusion "
    "was wrong'); not in the report and chosen here: the other six PCI addresses and the "
    "root ports (segment 0000:00, one port per GPU), the subsystem id, Ubuntu 26.04's "
    "os-release, the Level Zero GPU driver's version, the kern.log lines (the DMC line of a "
    "B580 on xe, geerlingguy/raspberry-pi-pcie-devices#695), the host name; the "
    "tree is the rw-intel-b580-kernel-6.11-hwe one (see intel.py) with the kernel, device id "
    "and PCI addresses changed; " + SRC_INTEL_BASE)


def eight_gpus(root, buses=BUSES):
    """The base's one GPU behind root port 0000:00:01.1 copied behind one port per bus, each
    GPU at one of buses (BUSES: eight; the links inside keep their depth, so they still
    resolve)."""
    devs = "sys/devices/pci0000:00"
    port0 = os.path.dirname(GPU)
    shutil.move(f"{root}/{port0}", f"{root}/{port0}.base")
    for old in ("0000:00:01.1", "0000:01:00.0"):
        os.unlink(f"{root}/sys/bus/pci/devices/{old}")
    for k, bus in enumerate(buses):
        port = f"0000:00:{k + 1:02x}.1"
        shutil.copytree(f"{root}/{port0}.base", f"{root}/{devs}/{port}", symlinks=True)
        shutil.move(f"{root}/{devs}/{port}/0000:01:00.0", f"{root}/{devs}/{port}/0000:{bus}:00.0")
        link(root, f"sys/bus/pci/devices/{port}", f"../../../devices/pci0000:00/{port}")
        link(root, f"sys/bus/pci/devices/0000:{bus}:00.0",
             f"../../../devices/pci0000:00/{port}/0000:{bus}:00.0")
    shutil.rmtree(f"{root}/{port0}.base")


def b60_x8_no_ras():
    """intel/compute-runtime#993 and intel/xpumanager#166: eight Arc Pro B60 with ECC on, for
    none of which Sysman gives a RAS error set."""
    dst, root = b580_base(FIXTURES[0], KERNEL, bound=True)
    w(root, f"{GPU}/device", "0xe211\n")
    w(root, "etc/os-release", ubuntu_os_release("26.04", "Resolute Raccoon", "resolute"))
    eight_gpus(root)
    w(root, "var/log/kern.log", "".join(
        f"Sep  6 08:14:0{k} inference kernel: [    6.{412000 + k * 1100:06d}] xe 0000:{bus}:00.0: "
        "[drm] Finished loading DMC firmware i915/bmg_dmc.bin (v2.6)\n"
        for k, bus in enumerate(BUSES)))
    level_zero(root, loader="1.32.0", gpu_driver="1.14.37020.3")
    dpkg(root, {"xpu-smi": "2.1.0+26.33.6468cec-1~26.04"})
    ini(dst, TOPIC,
        "Eight Arc Pro B60 (Battlemage G21, 8086:e211) on xe with ECC on: Level Zero Sysman "
        "gives no RAS error set for any of them, so their uncorrectable errors cannot be "
        "counted (xpu-smi prints zeros); doctor must not pass hardware.ecc-uncorrectable",
        SOURCE, {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        devices(n=len(BUSES)), ZE,
        args="--ze-lib @FAKES@/libze_loader.so.1 --vendor-timeout 2000")
    ldso_cache(dst)


def write():
    b60_x8_no_ras()
