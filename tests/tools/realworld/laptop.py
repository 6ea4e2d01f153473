# SPDX-License-Identifier: GPL-2.0-or-later
"""Laptops: a mobile NVIDIA GPU beside the integrated one (hybrid graphics, the dGPU a 3D
controller), with what the reports on them established."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, fresh, ini, link, mk2,
                              move_kernel, read, real_world, section, torch_dist,
                              ubuntu_os_release, venv, w)

TOPIC = "laptop"
FIXTURES = ("rw-laptop-rtx5090-mobile-torch-cu124", "rw-laptop-prime-select-intel-blacklist")
BASE = "rtx4090-open-module"
UBUNTU2404 = ubuntu_os_release("24.04.1", "Noble Numbat", "noble")
# torch's get_arch_list() of its CUDA 12.4 builds, as the report pastes it
CU124_LIST = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"


def kern_log(root, host, ts, loaded, flavor="Open Kernel Module for x86_64"):
    w(root, "var/log/kern.log",
      f"{ts} {host} kernel: [    4.978519] NVRM: loading NVIDIA UNIX {flavor}  {loaded}  "
      "Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025\n")


def igpu(root):
    """An Intel integrated GPU at 00:02.0 bound to i915: the other half of hybrid graphics."""
    d = "sys/devices/pci0000:00/0000:00:02.0"
    for attr, val in (("vendor", "0x8086"), ("device", "0xa788"), ("class", "0x030000"),
                      ("subsystem_vendor", "0x1043"), ("subsystem_device", "0x1e63"),
                      ("revision", "0x04"), ("enable", "1"), ("irq", "185"),
                      ("numa_node", "-1")):
        w(root, f"{d}/{attr}", val + "\n")
    w(root, f"{d}/resource",
      "0x0000006200000000 0x0000006200ffffff 0x0000000000140204\n"
      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
      "0x0000004000000000 0x000000400fffffff 0x000000000014220c\n"
      + "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 10)
    w(root, "sys/bus/pci/drivers/i915/bind", "")
    link(root, f"{d}/driver", "../../../bus/pci/drivers/i915")
    link(root, "sys/bus/pci/devices/0000:00:02.0", "../../../devices/pci0000:00/0000:00:02.0")


def laptop_5090_torch_cu124():
    """magicyuan876/mineru-tianshu#62: RTX 5090 Laptop GPU with a cu124-era torch."""
    name = "rw-laptop-rtx5090-mobile-torch-cu124"
    dst, root = base_root(name, 0x2c58, 0x1e63, "NVIDIA GeForce RTX 5090 Laptop GPU",
                              "570.153.02", flavor="open")
    rel = "6.11.0-26-generic"
    w(root, "etc/os-release", UBUNTU2404)
    move_kernel(root, "6.8.0-45-generic", rel)
    gpu = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    w(root, f"{gpu}/class", "0x030200\n")  # 3D controller: the display is the iGPU's
    w(root, f"{gpu}/subsystem_vendor", "0x1043\n")
    # doctor runs while the dGPU idles: runtime PM has it in D3cold, config reads answer all
    # ones (sysfs: speed "Unknown", width 63) until torch wakes it
    w(root, f"{gpu}/current_link_speed", "Unknown\n")
    w(root, f"{gpu}/current_link_width", "63\n")
    w(root, f"{gpu}/power/runtime_status", "suspended\n")
    igpu(root)
    kern_log(root, "laptop", "Feb  4 09:02:11", "570.153.02")
    site = venv(root, "/home/user/mineru-tianshu/venv", "3.12.3")
    torch_dist(root, site, "2.5.1+cu124", "'12.4'")
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75", "80", "86", "90"], [])
    sections = [section(BASE, "devices"), (f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 570.153.02, -, "
                 "zstd, Dual MIT/GPL\n")]
    pasted = ("NVIDIA GeForce RTX 5090 Laptop GPU with CUDA capability sm_120 is not compatible "
              "with the current PyTorch installation. The current PyTorch install supports CUDA "
              f"capabilities {CU124_LIST}.")
    ini(dst, TOPIC,
        "A laptop with hybrid graphics (an Intel iGPU drives the display, the RTX 5090 Laptop "
        "GPU, GB203M, is a 3D controller) running mineru-tianshu in a venv whose torch is a "
        f"cu124 build ({CU124_LIST}, no PTX): nothing runs on compute capability 12.0; the "
        "thread's fix is a torch release built for the 50 series (cu128)",
        "Rebuilt from https://github.com/magicyuan876/mineru-tianshu/issues/62 (pasted: torch's "
        "warning naming the 'NVIDIA GeForce RTX 5090 Laptop GPU', sm_120 and the supported "
        "list; the maintainer's answer: upgrade PyTorch to a version that supports the 50 "
        "series); placeholders, not in the report: the OS (Ubuntu 24.04, kernel "
        "6.11.0-26-generic), the driver 570.153.02 (open module, DKMS), torch 2.5.1+cu124 (a "
        "release whose list is the pasted one) in a venv, the PCI ids 10de:2c58 (GB203M / "
        "GN22-X11 [GeForce RTX 5090 Max-Q / Mobile] in pci.ids) with an ASUS subsystem id, the "
        "3D-controller class of a dGPU behind an iGPU and the Intel iGPU (8086:a788, i915) at "
        "00:02.0, the dGPU runtime-suspended while doctor runs (power/runtime_status "
        "'suspended', its link read as speed 'Unknown', width 63, as sysfs shows a device in "
        "D3cold), the rest of the base fixture's PCI tree; the stand-in libtorch_cuda.so carries "
        "sm_75 sm_80 sm_86 sm_90 of the list (nvcc 13.0 builds nothing below sm_75; the verdict "
        "for 12.0 is the same); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/home/user/mineru-tianshu/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin", "VIRTUAL_ENV": "/home/user/mineru-tianshu/venv",
         "HOME": "/home/user"},
        real_world(
            "https://github.com/magicyuan876/mineru-tianshu/issues/62", pasted,
            "the installed torch (a cu124-era build) has no code for sm_120, the laptop's RTX "
            "5090: install a torch built for the 50 series",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


# /lib/modprobe.d/blacklist-nvidia.conf as nvidia-prime's prime-select writes it for the
# "intel" profile: blacklisted and aliased to "off", so modprobe nvidia fails outright
PRIME_BLACKLIST = ("# Do not modify\n# This file was generated by nvidia-prime\n"
                   "blacklist nvidia\nblacklist nvidia-drm\nblacklist nvidia-modeset\n"
                   "alias nvidia off\nalias nvidia-drm off\nalias nvidia-modeset off\n")


def prime_select_intel():
    """canonical/nvidia-prime#20: `prime-select intel` on a hybrid laptop blacklists nvidia;
    the users wanted the dGPU for compute only, and nvidia-smi cannot reach a driver."""
    name = "rw-laptop-prime-select-intel-blacklist"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    rel = "5.11.0-34-generic"
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", rel + "\n")
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, f"{gpu}/device", "0x2520\n")
    w(root, f"{gpu}/class", "0x030200\n")  # 3D controller: the display is the iGPU's
    w(root, f"{gpu}/subsystem_vendor", "0x17aa\n")
    w(root, f"{gpu}/subsystem_device", "0x3a58\n")
    igpu(root)
    w(root, "proc/modules", read(root, "proc/modules") +
      "i915 2904064 32 - Live 0x0000000000000000\n")
    w(root, "lib/modprobe.d/blacklist-nvidia.conf", PRIME_BLACKLIST)
    ini(dst, TOPIC,
        "An Ubuntu 20.04 laptop with hybrid graphics (Intel iGPU driving the display, an "
        "RTX 3060 Laptop GPU as a 3D controller) and the 470 driver installed for compute "
        "only: the admins ran `prime-select intel`, whose profile blacklists nvidia and aliases "
        "it to 'off' in /lib/modprobe.d/blacklist-nvidia.conf, so the module is never loaded "
        "(modprobe nvidia: could not insert 'off') and nvidia-smi cannot reach a driver; the "
        "on-demand profile keeps the iGPU for the display and loads nvidia",
        "Rebuilt from https://github.com/canonical/nvidia-prime/issues/20 (pasted: 'alias "
        "nvidia off no longer works in the blacklist', the could not insert 'off' error, "
        "'prime-select intel adds the blacklist', 'Our end goal is to install nvidia drivers "
        "for parallel processing only', nvidia-smi's 'has failed because it couldn't "
        "communicate'; the maintainer's answer: the intel profile is not meant to load "
        "nvidia); the blacklist file as nvidia-prime's prime-select writes it for that "
        "profile; Ubuntu 20.04's os-release verbatim; placeholders, not in the report: the "
        "laptop's GPUs (10de:2520 GA106M [GeForce RTX 3060 Mobile / Max-Q], an Intel iGPU "
        "bound to i915), the kernel 5.11.0-34-generic (focal's HWE kernel in September 2021), "
        "the driver's module on disk (updates/dkms/nvidia.ko 470.63.01, unsigned); the rest "
        "of the tree is the nvidia-gpu-no-driver fixture's (see its sources)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/canonical/nvidia-prime/issues/20",
            "modprobe: ERROR: could not insert 'off' / NVIDIA-SMI has failed because it "
            "couldn't communicate with the NVIDIA driver",
            "`prime-select intel` blacklists the nvidia module (alias nvidia off), so it is "
            "never loaded; for compute on a hybrid laptop the on-demand profile is the one "
            "that loads nvidia",
            "driver.module-not-loaded", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 470.63.01, -, none\n")


def write():
    laptop_5090_torch_cu124()
    prime_select_intel()
