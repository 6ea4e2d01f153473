# SPDX-License-Identifier: GPL-2.0-or-later
"""A GPU that fell off the bus (hardware.gpu-lost) on a multi-GPU machine: NVML still counts
it but cannot open it, and the kernel log has the driver's Xid 79. The machine is the
xid-79-fallen-off-bus fixture's four-GPU tree (see its sources) re-identified as the
report's GPUs, driver and distribution; NVML answers through the fake libnvidia-ml."""
import os
import shutil

from realworld.common import fresh, ini, link, move_kernel, real_world, retarget, w

TOPIC = "fallen_off"
FIXTURES = ("rw-rtx2080ti-x4-gpu1-fallen-off-bus",)

BASE = "xid-79-fallen-off-bus"
DRIVER = "520.61.05"
MODEL = "NVIDIA GeForce RTX 2080 Ti"
# The report's four UUIDs, in nvidia-smi's order (GPU 0 … 3).
UUIDS = ("GPU-67a571b1-79ee-1016-8ea3-c1fff3f1c1d2", "GPU-3e34e62f-d88e-f448-415e-be2cbf2c6178",
         "GPU-2d540dd6-583b-cf11-80dd-cc28edc1dd62", "GPU-80be5c9a-eb7d-2388-ad7c-7d3ee8f87235")
# openSUSE Leap 15.2's os-release(5), as the distribution ships it.
LEAP152 = ('NAME="openSUSE Leap"\nVERSION="15.2"\nID="opensuse-leap"\nID_LIKE="suse opensuse"\n'
           'VERSION_ID="15.2"\nPRETTY_NAME="openSUSE Leap 15.2"\nANSI_COLOR="0;32"\n'
           'CPE_NAME="cpe:/o:opensuse:leap:15.2"\nBUG_REPORT_URL="https://bugs.opensuse.org"\n'
           'HOME_URL="https://www.opensuse.org/"\n')
KERNEL = "5.3.18-lp152.106-default"
# TU102's BARs in pci-sysfs resource format (one line per BAR register, a 64-bit BAR's upper
# half empty): 16 MiB registers (BAR0), 256 MiB prefetchable BAR1 without Resizable BAR,
# 32 MiB BAR3, the I/O BAR5; addresses are placeholders.
RESOURCE = ("0x00000000f2000000 0x00000000f2ffffff 0x0000000000040200\n"
            "0x00000000e0000000 0x00000000efffffff 0x000000000014220c\n"
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
            "0x00000000f0000000 0x00000000f1ffffff 0x000000000014220c\n"
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
            "0x000000000000e000 0x000000000000e07f 0x0000000000040101\n" +
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 7)


def nvml_device(i, bus):
    """What NVML answers for a 2080 Ti that still works (Turing: compute capability 7.5,
    nvmlDeviceArchitecture 6; 11 GiB; PCIe Gen3 x16; no ECC, so those calls are left out and
    the fake answers NOT_SUPPORTED as a GeForce board does)."""
    return (f"[nvml.device.{i}]\nname = {MODEL}\nuuid = {UUIDS[i]}\nminor_number = {i}\n"
            f"pci_bus_id = 00000000:{bus.upper()}:00.0\npci_device_id = 0x1E0710DE\n"
            "memory_total = 11811160064\nmemory_used = 0\ncompute_capability = 7.5\n"
            "architecture = 6\npersistence_mode = 1\ntemperature = 34\npower_usage = 21000\n"
            "power_limit = 250000\nutilization_gpu = 0\nutilization_memory = 0\n"
            "pcie_link_gen = 3\npcie_link_gen_max = 3\npcie_link_width = 16\n"
            "pcie_link_width_max = 16\n\n")


def gpu1_fallen_off():
    """NVIDIA/open-gpu-kernel-modules#387: of four RTX 2080 Ti, GPU 1 (0000:0B:00.0) falls
    off the bus under load; nvidia-smi cannot open it; reseating the GPU fixed it."""
    name = FIXTURES[0]
    dst, root = fresh(name, BASE)
    # GPU 1 of the base sits at 0000:46:00.0 behind root port 0000:40:03.1: the report's GPU 1
    # is 0000:0b:00.0, here behind a root port of segment 0000:00.
    old_port, port = "sys/devices/pci0000:40/0000:40:03.1", "sys/devices/pci0000:00/0000:00:03.2"
    shutil.move(f"{root}/{old_port}", f"{root}/{port}")
    shutil.move(f"{root}/{port}/0000:46:00.0", f"{root}/{port}/0000:0b:00.0")
    shutil.rmtree(f"{root}/sys/devices/pci0000:40")
    for old in ("0000:40:03.1", "0000:46:00.0"):
        os.unlink(f"{root}/sys/bus/pci/devices/{old}")
    link(root, "sys/bus/pci/devices/0000:00:03.2", "../../../devices/pci0000:00/0000:00:03.2")
    link(root, "sys/bus/pci/devices/0000:0b:00.0",
         "../../../devices/pci0000:00/0000:00:03.2/0000:0b:00.0")
    # the moved device's own links (driver, iommu_group) keep their depth: they still resolve
    shutil.move(f"{root}/proc/driver/nvidia/gpus/0000:46:00.0",
                f"{root}/proc/driver/nvidia/gpus/0000:0b:00.0")
    for d in os.listdir(f"{root}/sys/devices"):
        for dirpath, dirs, _ in os.walk(f"{root}/sys/devices/{d}"):
            for g in dirs:
                p = f"{dirpath}/{g}"
                if os.path.isfile(f"{p}/device") and not os.path.islink(f"{p}/device") and \
                        open(f"{p}/vendor").read().strip() == "0x10de" and \
                        open(f"{p}/class").read().strip().startswith("0x0302"):
                    w(root, os.path.relpath(f"{p}/device", root), "0x1e07\n")
                    w(root, os.path.relpath(f"{p}/subsystem_device", root), "0x12fa\n")
                    w(root, os.path.relpath(f"{p}/class", root), "0x030000\n")
                    w(root, os.path.relpath(f"{p}/resource", root), RESOURCE)
                    for k, v in (("current_link_speed", "8.0 GT/s PCIe"),
                                 ("max_link_speed", "8.0 GT/s PCIe"),
                                 ("current_link_width", "16"), ("max_link_width", "16")):
                        w(root, os.path.relpath(f"{p}/{k}", root), v + "\n")
    buses = sorted(os.listdir(f"{root}/proc/driver/nvidia/gpus"))
    for i, bus in enumerate(buses):
        info = f"{root}/proc/driver/nvidia/gpus/{bus}/information"
        lines = []
        for line in open(info).read().splitlines():
            if line.startswith("Model:"):
                line = f"Model: \t\t {MODEL}"
            elif line.startswith("GPU UUID:"):
                line = f"GPU UUID: \t {UUIDS[i]}"
            elif line.startswith("Device Minor:"):
                line = f"Device Minor: \t {i}"
            lines.append(line)
        w(root, os.path.relpath(info, root), "\n".join(lines) + "\n")
    retarget(root, "550.54.15", DRIVER)
    move_kernel(root, "5.15.0-107-generic", KERNEL)
    w(root, "etc/os-release", LEAP152)
    w(root, "sys/module/nvidia/version", DRIVER + "\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {DRIVER}  Release Build  "
      "(dvs-builder@U16-T02-35-3)  Thu Sep 29 05:30:25 UTC 2022\n"
      "GCC version:  gcc version 7.5.0 (SUSE Linux) \n")
    w(root, "var/log/kern.log",
      "Oct 11 09:02:11 deeplar kernel: [    7.104522] NVRM: loading NVIDIA UNIX Open Kernel "
      f"Module for x86_64  {DRIVER}  Release Build  (dvs-builder@U16-T02-35-3)  Thu Sep 29 "
      "05:30:25 UTC 2022\n"
      "Oct 11 14:37:52 deeplar kernel: [19549.338810] NVRM: Xid (PCI:0000:0b:00): 79, "
      "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
      "Oct 11 14:37:52 deeplar kernel: [19549.338824] NVRM: GPU 0000:0b:00.0: GPU has fallen "
      "off the bus.\n")
    nvml = (f"[nvml]\ndriver_version = {DRIVER}\nnvml_version = 11.{DRIVER}\n"
            "cuda_driver_version = 11080\n\n" + nvml_device(0, buses[0][5:7]) +
            "[nvml.device.1]\nerror.nvmlDeviceGetHandleByIndex_v2 = NVML_ERROR_UNKNOWN\n\n" +
            nvml_device(2, buses[2][5:7]) + nvml_device(3, buses[3][5:7]))
    base_ini = open(f"tests/fixtures/{BASE}/scenario.ini").read()
    devices = base_ini[base_ini.index("[devices]"):base_ini.index("\n[modules]")].strip() + "\n"
    ini(dst, TOPIC,
        "A workstation with four GeForce RTX 2080 Ti on openSUSE Leap 15.2 and the 520.61.05 "
        "open kernel modules: under load GPU 1 (0000:0b:00.0) fell off the bus; NVML still "
        "counts four GPUs but cannot open GPU 1 (nvidia-smi: 'Unable to determine the device "
        "handle for GPU 0000:0B:00.0: Unknown Error') and the kernel log has Xid 79",
        "Rebuilt from https://github.com/NVIDIA/open-gpu-kernel-modules/issues/387 (pasted: "
        "driver 520.61.05, also with the proprietary modules; openSUSE Leap 15.2 with 'Linux "
        f"deeplar {KERNEL}'; the four RTX 2080 Ti with their UUIDs; 'Sometime when using the "
        "GPU, the GPU 1 falls out of the bus'; nvidia-smi's 'Unable to determine the device "
        "handle for GPU 0000:0B:00.0: Unknown Error'; temperatures and power unremarkable; "
        "the reporter's 'Fixed by reseating GPU'); not in the report and chosen here: the Xid "
        "79 lines of the fall ('falls out of the bus' is the driver's wording; the log itself "
        "is only in the attached nvidia-bug-report.log.gz), their times, the other GPUs' bus "
        "addresses and the PCI topology (the base's, GPU 1 moved to bus 0b), the boards' "
        "subsystem id (10de:12fa), BARs and Gen3 links, the module's build line, NVML's "
        "readings of the three working GPUs (fake libnvidia-ml); the rest is " + BASE + "'s "
        "tree (see its sources) with its GPUs re-identified as TU102 (10de:1e07, class 0x0300)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/387",
            "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error",
            "GPU 1 fell off the PCIe bus under load (a seating problem): the reporter fixed it "
            "by reseating the GPU",
            "hardware.gpu-lost", "hardware", "yes"),
        devices,
        f"[modules]\n/lib/modules/{KERNEL}/updates/nvidia.ko = {DRIVER}, -, none\n",
        nvml, args="--nvml-lib @FAKES@/libnvidia-ml.so.1")


def write():
    gpu1_fallen_off()
