# SPDX-License-Identifier: GPL-2.0-or-later
"""A GPU KFD skips because the PCIe path to it does not carry atomic operations ("PCI rejects
atomics"), which gfx8 GPUs need for ROCm: an RX 580 on an X58 / Xeon X5650 board, rebuilt from
ROCm/legacy-rocm-build#1214 on the rx7600-rocm-torch-override tree (amd.py's BASE; its
sources). Written by tests/tools/mk-real-world-fixtures.py amd_atomics."""
import shutil

from realworld.amd import BASE, kern_log, set_gpu
from realworld.common import fresh, ini, move_kernel, real_world, section, w
from realworld.libs import UBUNTU1804_OS_RELEASE

TOPIC = "amd_atomics"
FIXTURES = ("rw-rx580-x58-pci-rejects-atomics",)

URL = "https://github.com/ROCm/legacy-rocm-build/issues/1214"
SOURCE = (
    "Rebuilt from " + URL + " (pasted: '/opt/rocm/bin/rocminfo does not find the AMD GPU', "
    "`dmesg | grep kfd`: '[    7.026427] kfd kfd: amdgpu: skipped device 1002:67df, PCI "
    "rejects atomics' verbatim; inxi: 'Ellesmere [Radeon RX 470/480/570/570X/580/580X/590] "
    "vendor: Sapphire Limited Nitro+ driver: amdgpu v: 5.6.12 bus ID: 03:00.0 chip ID: "
    "1002:67df', 'POLARIS10 DRM 3.39.0 5.3.0-64-generic', 'Mobo: MSI model: MSI X58 Pro "
    "(MS-7522)', 'BIOS: American Megatrends v: 8.15 date: 03/19/2011', 'Intel Xeon X5650 … "
    "arch: Nehalem'; AMD's answer: 'if your CPU does not support PCIe atomics, it will not "
    "work with gfx803 GPUs as noted in our support documentation. You would either need to "
    "move to a new GPU or a new CPU'); the kernel release, the GPU's PCI id and the amdgpu "
    "module version (amdgpu-dkms, /sys/module/amdgpu/version) are the report's; not in the "
    "report and placeholders: the GPU on the base's bus 0000:05:00.0 (the report's is "
    "03:00.0) behind the base's PCIe ports, the other kernel-log line and the syslog prefix, "
    "KFD's topology with its CPU nodes only (KFD skipped the GPU), Ubuntu 18.04 (the report's "
    "kernel 5.3 and Mesa 19.2.8 are 18.04's HWE stack; os-release as 18.04.5 writes it); "
    "everything else is the rx7600-rocm-torch-override fixture's (see its sources), without "
    "its venv")


def rx580_x58():
    dst, root = fresh(FIXTURES[0], BASE)
    set_gpu(root, "67df", "030000", "Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]",
            None)
    shutil.rmtree(f"{root}/home")  # the base's venv was its only content
    move_kernel(root, "5.15.0-116-generic", "5.3.0-64-generic")
    w(root, "etc/os-release", UBUNTU1804_OS_RELEASE)
    w(root, "sys/module/amdgpu/version", "5.6.12\n")
    kern_log(root, "Sep  8 19:42:03 x58", [
        "[    5.873120] [drm] amdgpu kernel modesetting enabled.",
        "[    7.026427] kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics",
    ])
    ini(dst, TOPIC,
        "A Radeon RX 580 (Polaris 10, gfx803, 1002:67df) on an MSI X58 Pro with a Xeon X5650 "
        "(Nehalem): the platform's PCIe does not do atomic operations, which ROCm needs on "
        "gfx8, so KFD skips the GPU ('PCI rejects atomics') and rocminfo finds no GPU",
        SOURCE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(URL,
                   "kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics "
                   "(rocminfo does not find the AMD GPU)",
                   "the CPU / board (X58, Xeon X5650) does not support PCIe atomics, which "
                   "gfx803 GPUs need for ROCm: KFD skips the GPU; a newer CPU and board, or a "
                   "GPU that does not need atomics, is the fix",
                   "hardware.pcie-atomics-unsupported", "hardware", "yes"),
        section(BASE, "devices"))


def write():
    rx580_x58()
