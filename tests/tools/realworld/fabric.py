# SPDX-License-Identifier: GPL-2.0-or-later
"""NVSwitch systems whose Fabric Manager does not run at the driver's version: NVML and
nvidia-smi answer, every cuInit fails with CUDA_ERROR_SYSTEM_NOT_READY (802, "system not yet
initialized"). The machine is the h100-sxm-550 fixture's eight-GPU HGX H100 tree (see its
sources) at the report's driver; NVML and CUDA answer through the fake libraries. Written by
tests/tools/mk-real-world-fixtures.py fabric."""
import os

from realworld.common import fresh, ini, link, real_world, retarget, section, w

TOPIC = "fabric"
FIXTURES = ("rw-hgx-h100-fabricmanager-older-than-driver", "rw-aws-h100-dlami-no-fabricmanager")

BASE = "h100-sxm-550"
BASE_DRIVER = "550.54.15"


# The board's four NVSwitch as sysfs shows them (kernel ABI sysfs-bus-pci): NVIDIA's class
# 0x0680 bridges "GH100 [H100 NVSwitch]" (pci.ids 10de:22a3, subsystem 10de:1796), bound to
# the nvidia-nvswitch driver; the reports show no lspci, the bus numbers are placeholders.
NVSWITCH_BUSES = ("05", "06", "07", "08")
NVSWITCH_NOTE = ("the board's four NVSwitch on the PCI bus (an 8-GPU HGX H100 carries four; "
                 "GH100 [H100 NVSwitch] 10de:22a3, subsystem 10de:1796, class 0x068000, "
                 "bound to nvidia-nvswitch; the bus numbers 05-08 placeholders: the report "
                 "shows no lspci)")


def nvswitches(root):
    for i, bus in enumerate(NVSWITCH_BUSES):
        dev = f"sys/devices/pci0000:00/0000:00:02.{i}/0000:{bus}:00.0"
        for attr, val in (("class", "0x068000"), ("vendor", "0x10de"), ("device", "0x22a3"),
                          ("subsystem_vendor", "0x10de"), ("subsystem_device", "0x1796"),
                          ("revision", "0xa1")):
            w(root, f"{dev}/{attr}", val + "\n")
        link(root, f"{dev}/driver", "../../../../bus/pci/drivers/nvidia-nvswitch")
        link(root, f"sys/bus/pci/devices/0000:{bus}:00.0",
             f"../../../devices/pci0000:00/0000:00:02.{i}/0000:{bus}:00.0")


def fabricmanager_older_than_driver():
    """dstackai/dstack#2348: on 8 x H100 (AWS) dstack's image pinned cuda-drivers-535 and
    nvidia-fabricmanager-535 to 535.183.01, but cuda-drivers-535 pulls any newer 535 driver;
    Fabric Manager refused to start ("fabric manager NVIDIA GPU driver interface version
    535.183.01 don't match …") and torch printed "Error 802: system not yet initialized".
    The fix (dstackai/dstack#2355) dropped the pin so both are the same 535 release."""
    name = FIXTURES[0]
    drv = "535.230.02"
    dst, root = fresh(name, BASE)
    nvswitches(root)
    retarget(root, BASE_DRIVER, drv)
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "var/log/apt/history.log",
      "\nStart-Date: 2025-02-24  09:12:40\n"
      "Commandline: apt-get install -y cuda-drivers-535=535.183.01-1 "
      "nvidia-fabricmanager-535=535.183.01-1\n"
      "Install: cuda-drivers-535:amd64 (535.183.01-1), nvidia-driver-535:amd64 "
      f"({drv}-0ubuntu1, automatic), nvidia-fabricmanager-535:amd64 (535.183.01-1)\n"
      "End-Date: 2025-02-24  09:14:02\n")
    nvml = "\n".join(section(BASE, s).replace(BASE_DRIVER, drv).replace("12.550.", "12.535.")
                     .replace("= 12040", "= 12020")
                     for s in ["nvml"] + [f"nvml.device.{i}" for i in range(8)])
    ini(dst, TOPIC,
        "An HGX H100 (8 x H100 80GB HBM3, NVSwitch) on AWS with Ubuntu 22.04 whose driver is a "
        f"newer 535 release ({drv}) than its Fabric Manager (535.183.01, pinned): Fabric "
        "Manager refuses to start, NVML and nvidia-smi answer, every cuInit fails with "
        "CUDA_ERROR_SYSTEM_NOT_READY (802)",
        "Rebuilt from https://github.com/dstackai/dstack/issues/2348 (pasted: 8:H100 AWS, "
        "torch's 'CUDA initialization: Unexpected error from cudaGetDeviceCount() … Error "
        "802: system not yet initialized', 'CUDA available: False', journalctl -u "
        "nvidia-fabricmanager on ip-172-31-92-157 with 'fabric manager NVIDIA GPU driver "
        "interface version 535.183.01 don't…'; the cause and fix in "
        "https://github.com/dstackai/dstack/pull/2355: cuda-drivers-535 and "
        "nvidia-fabricmanager-535 pinned to 535.183.01, cuda-drivers-535 depends on "
        "nvidia-driver-535 (>= 535.183.01), so a newer driver came with the old Fabric "
        f"Manager); not in the report and chosen here: the driver release {drv} (the report "
        "cuts the journal line before it; the 535 release current in February 2025, "
        "unconfirmed), the apt history written from the two reports' text, NVML's "
        "readings (the base's, at this driver: CUDA 12.2), the module's "
        "build line, " + NVSWITCH_NOTE + "; the rest is " + BASE + "'s tree (see its sources); cuInit answers "
        "CUDA_ERROR_SYSTEM_NOT_READY through the fake libcuda (docs/formats/nvml.md §9)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/dstackai/dstack/issues/2348",
            "Error 802: system not yet initialized",
            "Fabric Manager 535.183.01 does not start under the newer 535 driver the image "
            "pulled in, so the NVSwitch fabric is never configured and cuInit fails with 802 "
            "(fixed by installing the same 535 release of both, dstackai/dstack#2355)",
            "driver.system-not-ready", "driver", "yes"),
        section(BASE, "devices"),
        nvml,
        "[cuda]\ndriver_version = 12020\nerror.cuInit = CUDA_ERROR_SYSTEM_NOT_READY\n",
        section(BASE, "modules").replace(BASE_DRIVER, drv),
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")


def dlami_no_fabricmanager():
    """aws-samples/aws-deep-learning-ami-ubuntu-dcv-desktop#33: the project's Deep Learning AMI
    desktop image does not install nvidia-fabricmanager, so on A100/H100/H200/B200 instances
    (NVSwitch) "CUDA initialization fails with 802 system error"; closed by installing it."""
    name = FIXTURES[1]
    dst, root = fresh(name, BASE)
    nvswitches(root)
    w(root, "var/log/apt/history.log",
      "\nStart-Date: 2025-07-10  08:41:07\n"
      f"Commandline: apt-get install -y nvidia-driver-550={BASE_DRIVER}-0ubuntu1\n"
      f"Install: nvidia-driver-550:amd64 ({BASE_DRIVER}-0ubuntu1)\n"
      "End-Date: 2025-07-10  08:42:55\n")
    nvml = "\n".join(section(BASE, s) for s in ["nvml"] + [f"nvml.device.{i}" for i in range(8)])
    ini(dst, TOPIC,
        "An AWS H100 instance (8 x H100 80GB HBM3, NVSwitch) on Ubuntu 22.04 from an image "
        "that installs the NVIDIA driver but not nvidia-fabricmanager: NVML and nvidia-smi "
        "answer, every cuInit fails with CUDA_ERROR_SYSTEM_NOT_READY (802)",
        "Rebuilt from https://github.com/aws-samples/aws-deep-learning-ami-ubuntu-dcv-desktop/"
        "issues/33 (the report: 'nvidia-fabricmanager is not installed so on A100, H100, H200 "
        "and B200 instances, CUDA initialization fails with 802 system error'; closed with the "
        "package installed); not in the report and chosen here: the instance's eight H100 "
        "80GB HBM3 (a p5 instance), the driver release (" + BASE_DRIVER + ", the base's), "
        "NVML's readings (the base's), the apt history (the driver's install, no Fabric "
        "Manager, a week before the report), " + NVSWITCH_NOTE + "; the rest is " + BASE + "'s tree (see its "
        "sources); cuInit answers "
        "CUDA_ERROR_SYSTEM_NOT_READY through the fake libcuda (docs/formats/nvml.md §9)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/aws-samples/aws-deep-learning-ami-ubuntu-dcv-desktop/issues/33",
            "CUDA initialization fails with 802 system error",
            "nvidia-fabricmanager is not installed on an NVSwitch instance, so the GPUs never "
            "join the NVLink fabric and cuInit fails with 802 (fixed by installing it)",
            "driver.system-not-ready", "driver", "yes"),
        section(BASE, "devices"),
        nvml,
        "[cuda]\ndriver_version = 12040\nerror.cuInit = CUDA_ERROR_SYSTEM_NOT_READY\n",
        section(BASE, "modules"),
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")


def write():
    fabricmanager_older_than_driver()
    dlami_no_fabricmanager()
