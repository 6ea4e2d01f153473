# SPDX-License-Identifier: GPL-2.0-or-later
"""The GPU's own health on real machines, as NVML (the fake libnvidia-ml) answers for it: a
GPU that fell off the bus. Written by tests/tools/mk-real-world-fixtures.py health."""
from realworld.common import fresh, ini, real_world, w

TOPIC = "health"
FIXTURES = ("rw-2080ti-gpu1-off-the-bus-reseated",)

LEAP152_OS_RELEASE = (
    'NAME="openSUSE Leap"\nVERSION="15.2"\nID="opensuse-leap"\nID_LIKE="suse opensuse"\n'
    'VERSION_ID="15.2"\nPRETTY_NAME="openSUSE Leap 15.2"\nANSI_COLOR="0;32"\n'
    'CPE_NAME="cpe:/o:opensuse:leap:15.2"\nBUG_REPORT_URL="https://bugs.opensuse.org"\n'
    'HOME_URL="https://www.opensuse.org/"\n')


def rtx2080ti(i, uuid, bus):
    """An [nvml.device.N] section of an RTX 2080 Ti (TU102, 10de:1e07, 11019 MiB, PCIe Gen3
    x16, compute capability 7.5, 250 W), idle."""
    return (f"[nvml.device.{i}]\nname = NVIDIA GeForce RTX 2080 Ti\nuuid = {uuid}\n"
            "serial = \nvbios_version = 90.02.17.00.58\n"
            f"minor_number = {i}\npci_bus_id = 00000000:{bus}:00.0\n"
            "pci_device_id = 0x1E0710DE\nmemory_total = 11554717696\nmemory_reserved = 0\n"
            "memory_used = 0\ncompute_capability = 7.5\narchitecture = 7\n"
            "persistence_mode = 0\nmig_mode = 0\necc_mode = 0\ntemperature = 34\n"
            "power_usage = 21000\npower_limit = 250000\nutilization_gpu = 0\n"
            "utilization_memory = 0\npcie_link_gen = 3\npcie_link_gen_max = 3\n"
            "pcie_link_width = 16\npcie_link_width_max = 16\n")


def gpu1_off_the_bus():
    # NVIDIA/open-gpu-kernel-modules#387: four RTX 2080 Ti on driver 520.61.05, openSUSE Leap
    # 15.2; under load GPU 1 "falls out of the bus" and nvidia-smi prints "Unable to determine
    # the device handle for GPU 0000:0B:00.0: Unknown Error"; the reporter: "Fixed by
    # reseating GPU" (a seating/contact fault of the board: the hardware layer).
    drv = "520.61.05"
    dst, root = fresh("rw-2080ti-gpu1-off-the-bus-reseated")
    w(root, "etc/os-release", LEAP152_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "5.3.18-lp152.106-default\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "sys/module/nvidia_uvm/initstate", "live\n")
    uuids = ("GPU-67a571b1-79ee-1016-8ea3-c1fff3f1c1d2", "GPU-3e34e62f-d88e-f448-415e-be2cbf2c6178",
             "GPU-2d540dd6-583b-cf11-80dd-cc28edc1dd62", "GPU-80be5c9a-eb7d-2388-ad7c-7d3ee8f87235")
    nvml = (f"[nvml]\ndriver_version = {drv}\nnvml_version = 11.{drv}\n"
            "cuda_driver_version = 11080\n\n" + rtx2080ti(0, uuids[0], "0A") + "\n"
            "[nvml.device.1]\nerror.nvmlDeviceGetHandleByIndex_v2 = NVML_ERROR_UNKNOWN\n\n" +
            rtx2080ti(2, uuids[2], "41") + "\n" + rtx2080ti(3, uuids[3], "42"))
    ini(dst, TOPIC,
        "Four RTX 2080 Ti on driver 520.61.05 (openSUSE Leap 15.2); GPU 1 (0000:0B:00.0) fell "
        "off the bus under load: NVML counts four GPUs but cannot give a handle for the "
        "second (nvidia-smi: 'Unable to determine the device handle for GPU 0000:0B:00.0: "
        "Unknown Error'); reseating the board fixed it",
        "Rebuilt from https://github.com/NVIDIA/open-gpu-kernel-modules/issues/387 (pasted: "
        "driver 520.61.05, openSUSE Leap 15.2, kernel 5.3.18-lp152.106-default, the four GPUs "
        "with their UUIDs as nvidia-smi -L lists them, 'GPU 1 falls out of the bus', the "
        "nvidia-smi error for 0000:0B:00.0, 'Fixed by reseating GPU'); NVML (the fake "
        "library) answers nvmlDeviceGetHandleByIndex_v2 for index 1 with NVML_ERROR_UNKNOWN, "
        "which nvidia-smi prints as 'Unknown Error' (docs/formats/nvml.md); RTX 2080 Ti "
        "values from its product page (TU102, 11 GB, 250 W, PCIe Gen3 x16, compute capability "
        "7.5); placeholders, not in the report: the other boards' bus ids, VBIOS, "
        "temperatures, power draw, CUDA 11.8 as the driver's CUDA version (520 reports "
        "11.8), the device nodes as the driver makes them (nvidia-uvm's dynamic major)",
        {"PATH": "/usr/local/bin:/usr/bin:/bin"},
        real_world(
            "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/387",
            "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error",
            "GPU 1 fell off the bus under load; reseating the board fixed it (a seating or "
            "contact fault: hardware)",
            "hardware.gpu-lost", "hardware", "yes"),
        nvml + "\n[devices]\n" + "".join(f"/dev/nvidia{i} = c 195:{i} 0666 0:0\n" for i in range(4)) +
        "/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia-uvm = c 510:0 0666 0:0\n"
        "/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n", args="--nvml-lib @FAKES@/libnvidia-ml.so.1")


def write():
    gpu1_off_the_bus()
