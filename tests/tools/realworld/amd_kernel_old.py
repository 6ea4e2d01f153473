# SPDX-License-Identifier: GPL-2.0-or-later
"""AMD GPUs on a kernel whose own amdgpu does not drive them: no driver binds the GPU, nothing
in the kernel log, no /dev/dri node and no /dev/kfd (facts/data/amdgpu_kernel.tsv). Rebuilt
from ROCm/legacy-rocm-build#624 (an RX Vega, Vega 10, on Ubuntu 16.04's kernel 4.4) and
GPUOpen-Drivers/AMDVLK#184 (a Renoir APU on kernel 4.19), plus the #624 machine on a kernel
new enough for its GPU with amdgpu not loaded, where `modprobe amdgpu` is the fix, and a
Navi 10 on an older kernel whose DKMS amdgpu knows it and fails on its firmware (the kernel log,
not the release, names the cause: a variant of realworld/amd.py's MI100 of
ROCm/legacy-rocm-build#1357). Each tree is
the rx7600-rocm-torch-override base of realworld/amd.py (one AMD GPU behind the MI300X
platform's PCI topology; its sources) with the GPU unbound and no GPU module loaded."""
import os
import shutil

from realworld.amd import (BASE, NODES, drop_venv, firmware_missing, gpu_dir, kern_log,
                           kernel_amdgpu, set_gpu)
from realworld.common import FIX, fresh, ini, move_kernel, read, real_world, section, w

TOPIC = "amd_kernel_old"
FIXTURES = ("rw-vega10-kernel-4.4-rocm-624", "rw-renoir-kernel-4.19-amdvlk-184",
            "vega10-kernel-4.15-amdgpu-not-loaded", "navi10-kernel-4.15-dkms-firmware-missing",
            "navi14-firmware-missing-renoir-apu-kernel-5.4")

URL_624 = "https://github.com/ROCm/legacy-rocm-build/issues/624"
URL_184 = "https://github.com/GPUOpen-Drivers/AMDVLK/issues/184"
# Ubuntu 16.04's os-release (its shape: 16.04.5 was the point release when 4.4.0-139 was
# current, October 2018).
XENIAL_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="16.04.5 LTS (Xenial Xerus)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 16.04.5 LTS"\nVERSION_ID="16.04"\nHOME_URL="http://www.ubuntu.com/"\n'
    'SUPPORT_URL="http://help.ubuntu.com/"\nBUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n'
    'VERSION_CODENAME=xenial\nUBUNTU_CODENAME=xenial\n')
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
UNBOUND = (
    "the GPU on the base's bus 0000:05:00.0 with no driver link, no amdgpu in /proc/modules "
    "and no /sys/module/amdgpu, no KFD topology (/sys/class/kfd) and no /dev/kfd or /dev/dri "
    "node (no GPU driver is loaded); /proc/modules lists no other module (the report shows "
    "none); without the base's ASPEED BMC display at 0000:02:00.0 (a server's) and the ast "
    "and amdgpu directories under /sys/bus/pci/drivers; everything else is the rx7600-rocm-torch-override fixture's (see its sources), "
    "without its venv")


def unbound(name, device, pci_ids_line, kernel):
    """The base with its GPU made `device`, bound to no driver and no GPU module loaded, on
    kernel release `kernel`."""
    dst, root = fresh(name, BASE)
    set_gpu(root, device, "030000", pci_ids_line, None)
    os.unlink(f"{gpu_dir(root)}/driver")
    drop_venv(root)
    shutil.rmtree(f"{root}/sys/module/amdgpu")
    shutil.rmtree(os.path.dirname(os.path.dirname(f"{root}/{NODES}")))
    os.unlink(f"{root}/sys/class/kfd/kfd")
    w(root, "proc/modules", "")
    # the base's ASPEED BMC display (a server's, bound to ast) and both drivers' sysfs
    # directories: neither machine has a BMC, and no GPU module is loaded
    bmc = os.path.realpath(f"{root}/sys/bus/pci/devices/0000:02:00.0")
    shutil.rmtree(bmc)
    os.unlink(f"{root}/sys/bus/pci/devices/0000:02:00.0")
    shutil.rmtree(f"{root}/sys/bus/pci/drivers/ast")
    shutil.rmtree(f"{root}/sys/bus/pci/drivers/amdgpu")
    move_kernel(root, "5.15.0-116-generic", kernel)
    return dst, root


def vega10_kernel_44():
    dst, root = unbound(FIXTURES[0], "687f", "Vega 10 XL/XT [Radeon RX Vega 56/64]",
                        "4.4.0-139-generic")
    w(root, "etc/os-release", XENIAL_OS_RELEASE)
    kern_log(root, "Nov 26 09:12:40 wukong", [
        "[    0.000000] Linux version 4.4.0-139-generic (buildd@lcy01-amd64-006) (gcc version "
        "5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.10) ) #165-Ubuntu SMP Wed Oct 24 10:58:50 "
        "UTC 2018 (Ubuntu 4.4.0-139.165-generic 4.4.160)",
        "[    0.566793] amd_nb: Cannot enumerate AMD northbridges",
        "[    0.988289] perf: amd_iommu: Detected. (0 banks, 0 counters/bank)",
    ])
    ini(dst, TOPIC,
        "An RX Vega (Vega 10, 1002:687f) on Ubuntu 16.04's kernel 4.4.0-139, ROCm 1.9.2 "
        "installed: 4.4's amdgpu predates Vega (Linux 4.12) and ROCm 1.9's kernel driver "
        "(rock-dkms, DKMS 'amdgpu, 1.9-307: added') does not build for 4.4; no driver binds "
        "the GPU and rocminfo fails ('hsa api call failure … Call returned 4104'). An error",
        "Rebuilt from " + URL_624 + " (pasted: uname -a 'Linux wukong 4.4.0-139-generic "
        "#165-Ubuntu SMP Wed Oct 24 10:58:50 UTC 2018 x86_64', `dmesg | grep amd`: its three "
        "lines verbatim, none from amdgpu, `lspci | grep -i vga`: '0b:00.0 VGA compatible "
        "controller: Advanced Micro Devices, Inc. [AMD/ATI] Device 687f (rev c1)', `dkms "
        "status`: 'amdgpu, 1.9-307: added', rocminfo's 'hsa api call failure at line 900 … "
        "Call returned 4104'; AMD: 'the kernel module currently does not build with kernel "
        "4.4 on Ubuntu. You will need 4.13 or above'); not in the report and placeholders: "
        "the syslog prefix of the kernel-log lines (host wukong, the date of the report), "
        "Ubuntu 16.04.5's os-release (the kernel is 16.04's, gcc '~16.04.10'), pci.ids' "
        "'Vega 10 XL/XT [Radeon RX Vega 56/64]' line for 687f (the report's lspci knew no "
        "name), the bus (the report's 0b:00.0), the ROCm 1.9.2 user space (not written: "
        "gpuenv judges the driver first) and the DKMS tree (gpuenv does not read "
        "/var/lib/dkms); " + UNBOUND,
        {"PATH": PATH},
        real_world(URL_624,
                   "hsa api call failure at line 900, file: [AMD's build tree]/"
                   "workspace/compute-rocm-rel-1.9/rocminfo/rocminfo.cc. Call returned 4104",
                   "kernel 4.4 cannot drive the Vega 10 GPU: its amdgpu predates Vega and "
                   "ROCm 1.9's kernel driver does not build for 4.4; AMD: a kernel of 4.13 or "
                   "above", "driver.amdgpu-kernel-too-old", "driver", "yes"))


def renoir_kernel_419():
    dst, root = unbound(FIXTURES[1], "1636", "Renoir", "4.19.0")
    os.unlink(f"{root}/etc/os-release")
    os.unlink(f"{root}/var/log/kern.log")
    ini(dst, TOPIC,
        "A Lenovo L15 with a Ryzen 5 Pro 4650U (Renoir APU graphics, 1002:1636) on kernel "
        "4.19: 4.19's amdgpu does not drive Renoir, no driver binds the GPU, no /dev/dri node "
        "(Xorg: 'open /dev/dri/card0: No such file or directory'). An error",
        "Rebuilt from " + URL_184 + " (pasted: 'The kernel version is 4.19', lspci 'VGA "
        "Compatible controller. Advanced Micro Devices inc. (AMD/ATI) Renoir (rev d3)', "
        "'lsmod | grep amdgpu produced nothing', 'dmesg also shows nothing about amdgpu, not "
        "even an error message', Xorg's 'open /dev/dri/card0: No such file or directory'; "
        "AMD: 'You may need to upgrade kernel and ddx driver to newer version'); not in the "
        "report and placeholders: the release string 4.19.0 (the report says 4.19), the PCI "
        "id 1002:1636 (pci.ids' Renoir line; the report's lspci shows the name only), the bus "
        "0000:05:00.0, no os-release (the report names no distribution) and no kernel log "
        "(nothing about amdgpu in it); " + UNBOUND,
        {"PATH": PATH},
        real_world(URL_184,
                   "open /dev/dri/card0: No such file or directory / lsmod | grep amdgpu: "
                   "nothing / dmesg: nothing about amdgpu",
                   "kernel 4.19's amdgpu does not support the Renoir APU's GPU: no driver "
                   "binds it; AMD: upgrade the kernel",
                   "driver.amdgpu-kernel-too-old", "driver", "yes"))


def vega10_kernel_415_not_loaded():
    dst, root = unbound(FIXTURES[2], "687f", "Vega 10 XL/XT [Radeon RX Vega 56/64]",
                        "4.15.0-39-generic")
    w(root, "etc/os-release", XENIAL_OS_RELEASE)
    os.unlink(f"{root}/var/log/kern.log")
    ini(dst, TOPIC,
        "The machine of rw-vega10-kernel-4.4-rocm-624 on Ubuntu 16.04's HWE kernel 4.15, "
        "whose amdgpu drives Vega 10 (Linux 4.12 and later), but with amdgpu not loaded: the "
        "kernel is not the cause, `modprobe amdgpu` is the fix (hardware.gpu-without-driver)",
        "A constructed variant of " + URL_624 + " (AMD's answer there: a kernel of 4.13 or "
        "above); chosen here: the release 4.15.0-39-generic (a 16.04 HWE kernel of late 2018), "
        "no kernel log; " + UNBOUND,
        {"PATH": PATH}, "")


def navi10_dkms_firmware_missing():
    dst, root, devices = firmware_missing(
        FIXTURES[3], "731f", "030000", "Navi 10 [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]",
        "navi10", False)
    ini(dst, TOPIC,
        "An RX 5700 XT (Navi 10, 1002:731f) on Ubuntu 18.04's kernel 4.15, older than Linux "
        "5.3 whose own amdgpu first drives Navi 10, with a DKMS amdgpu 5.6.19 that knows the "
        "GPU loaded: amdgpu cannot load amdgpu/navi10_gpu_info.bin (error -2), the init fails "
        "and the GPU is left without a driver. The kernel log names the cause "
        "(driver.amdgpu-firmware-failed), not the kernel release "
        "(driver.amdgpu-kernel-too-old stays quiet)",
        "A constructed variant of rw-mi100-amdgpu-firmware-missing "
        "(https://github.com/ROCm/legacy-rocm-build/issues/1357: amdgpu 5.6.19 from rock-dkms "
        "4.0 on 4.15.0-130-generic, its gpu_info firmware missing after a kernel upgrade), not "
        "a report of its own; chosen here: the GPU made an RX 5700 XT (1002:731f, class "
        "0x030000, pci.ids' Navi 10 line) and the firmware file its own, "
        "amdgpu/navi10_gpu_info.bin (the name amdgpu_device_parse_gpu_info_fw() asks for on "
        "Navi 10), the report's dmesg lines otherwise kept, without its 'Trusted Memory Zone "
        "(TMZ) feature not supported' line (amdgpu prints another on Navi 10); the rest as in "
        "rw-mi100-amdgpu-firmware-missing (see its sources)",
        {"PATH": PATH}, "", devices)


URL_16967 = "https://github.com/void-linux/void-packages/issues/16967"
# mi300x-amdgpu's second GPU: its root port, switch and GPU function (the base keeps only the
# first GPU's, at 0000:05:00.0)
SECOND_GPU = ("0000:10:01.1", "0000:13:00.0", "0000:14:00.0", "0000:15:00.0")


def second_gpu(root, device, cls):
    """mi300x-amdgpu's second GPU, 0000:15:00.0 behind its own root port and switch, made
    `device` of class `cls` and bound to no driver (its bridges stay on pcieport)."""
    src = f"{FIX}/mi300x-amdgpu/root"
    shutil.copytree(f"{src}/sys/devices/pci0000:10", f"{root}/sys/devices/pci0000:10",
                    symlinks=True)
    for bus in SECOND_GPU:
        link = f"sys/bus/pci/devices/{bus}"
        os.symlink(os.readlink(f"{src}/{link}"), f"{root}/{link}")
    gpu = os.path.realpath(f"{root}/sys/bus/pci/devices/{SECOND_GPU[-1]}")
    w(gpu, "device", f"0x{device}\n")
    w(gpu, "class", f"0x{cls}\n")
    os.unlink(f"{gpu}/driver")


def navi14_firmware_renoir_apu():
    """Two AMD GPUs, one amdgpu failure: the kernel's amdgpu knows the Navi 14 card and fails
    on its missing firmware; the Renoir APU beside it is one 5.4's amdgpu does not drive."""
    dst, root = fresh(FIXTURES[4], BASE)
    set_gpu(root, "7340", "038000", "Navi 14 [Radeon RX 5500/5500M / Pro 5500M]", None)
    w(root, "usr/share/misc/pci.ids", read(root, "usr/share/misc/pci.ids").replace(
        "\t7340  ", "\t1636  Renoir\n\t7340  "))
    os.unlink(f"{gpu_dir(root)}/driver")
    drop_venv(root)
    kernel_amdgpu(root)
    move_kernel(root, "5.15.0-116-generic", "5.4.2_1")
    os.unlink(f"{root}/etc/os-release")
    second_gpu(root, "1636", "030000")
    kern_log(root, "Nov 30 10:12:01 void", [
        "[    3.067292] [drm] initializing kernel modesetting (NAVI14 0x1002:0x7340 "
        "0x1462:0x12A5 0xC1).",
        "[    3.092584] [drm] add ip block number 2 <navi10_ih>",
        "[    3.092608] amdgpu 0000:05:00.0: Direct firmware load for "
        "amdgpu/navi14_gpu_info.bin failed with error -2",
        "[    3.092610] amdgpu 0000:05:00.0: Failed to load gpu_info firmware "
        "\"amdgpu/navi14_gpu_info.bin\"",
    ])
    devices = "".join(l for l in section(BASE, "devices").splitlines(True)
                      if not l.startswith(("/dev/dri/renderD", "/dev/dri/card1 ")))
    ini(dst, TOPIC,
        "A Navi 14 card (1002:7340) beside a Renoir APU's GPU (1002:1636) on kernel 5.4: the "
        "kernel's amdgpu knows the Navi 14 and fails to load amdgpu/navi14_gpu_info.bin "
        "(error -2, the firmware package missing), the Renoir is one 5.4's amdgpu does not "
        "drive (Linux 5.5), and neither GPU has a driver. Each GPU's verdict is its own: the "
        "firmware failure on the Navi 14 (driver.amdgpu-firmware-failed) keeps "
        "driver.amdgpu-kernel-too-old off that GPU only, not off the Renoir at 0000:15:00.0",
        "A constructed machine of two reports' GPUs, not a report of its own. The Navi 14: "
        "rebuilt from " + URL_16967 + " (pasted: 'a new Navi 14 Amd GPU on the 5.4 kernel', "
        "its dmesg lines '[drm] initializing kernel modesetting (NAVI14 0x1002:0x7340 "
        "0x1462:0x12A5 0xC1)', 'add ip block number 2 <navi10_ih>', 'Direct firmware load for "
        "amdgpu/navi14_gpu_info.bin failed with error -2', 'Failed to load gpu_info firmware', "
        "lspci -k's 'Display controller' (class 0x0380) with 'Kernel modules: amdgpu' and no "
        "driver in use; the thread's cause: linux-firmware-amd not installed), with the bus "
        "made the base's 0000:05:00.0 (the report's 03:00.0), the GPU function's files those "
        "of the rx7600-rocm-torch-override base (mi300x-amdgpu's first GPU; its sources) "
        "with pci.ids' Navi 14 line, as rw-navi14-kfd-did-missing-rocm-1318 has them, and the "
        "kernel's own amdgpu loaded (its /proc/modules, no module version). The Renoir: "
        "the GPU of rw-renoir-kernel-4.19-amdvlk-184 (" + URL_184 + ": 1002:1636, pci.ids' "
        "Renoir line, no driver and nothing in the kernel log about it) placed on "
        "mi300x-amdgpu's second GPU function 0000:15:00.0 with its root port 0000:10:01.1 "
        "and switch 0000:13:00.0/0000:14:00.0 (that fixture's files, its sources; the "
        "function's driver link removed); an APU's GPU sits on the CPU's own bridge, not "
        "behind a switch: only the bus matters here. Placeholders: the release string "
        "5.4.2_1 (Void's form; the report says 5.4), the syslog prefix of the kernel-log "
        "lines, no os-release; everything else is the base's (see its sources), without its "
        "venv",
        {"PATH": PATH}, "", devices)


def write():
    vega10_kernel_44()
    renoir_kernel_419()
    vega10_kernel_415_not_loaded()
    navi10_dkms_firmware_missing()
    navi14_firmware_renoir_apu()
