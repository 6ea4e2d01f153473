# SPDX-License-Identifier: GPL-2.0-or-later
"""AMD GPUs that amdgpu drives but KFD (the compute interface ROCm opens as /dev/kfd) refuses,
each rebuilt from a public report on the rx7600-rocm-torch-override tree (amd.py's BASE; its
sources): an RX 580 whose device id the ROCm 2.1 KFD does not list ("DID 6fdf is missing in
supported_devices"), an RX 550 in a laptop whose chipset root port rejects PCIe atomics, and an
RX 580 on a Xeon E5 v2 that does not do them. Written by tests/tools/mk-real-world-fixtures.py
amd_kfd_refused."""
import os
import shutil

from realworld.amd import BASE, NODES, drop_modules, kern_log, read, set_gpu
from realworld.common import fresh, ini, move_kernel, real_world, section, w
from realworld.libs import UBUNTU1804_OS_RELEASE
from realworld.outside import UBUNTU1604_OS_RELEASE
from realworld.outside2 import UBUNTU1904

TOPIC = "amd_kfd_refused"
FIXTURES = ("rw-rx580-kfd-did-rocm-719", "rw-rx550-laptop-atomics-rocm-827",
            "rw-rx580-xeon-v2-atomics-rocm-558")
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
# amdgpu-dkms's helper modules of the 6.x releases (the base's); the 2019 rock-dkms had
# amdgpu, amdttm and amdkcl ("amdkcl: loading out-of-tree module taints kernel")
NEWER_DKMS = ("amddrm_ttm_helper", "amddrm_buddy", "amdxcp", "drm_exec", "gpu_sched")


def rock_dkms_2019(root):
    """The base's amdgpu-dkms 6.x modules cut down to the amdgpu, amdttm and amdkcl of a 2019
    rock-dkms (from the users lists too), and no /sys/module/amdgpu/version (the reports show
    the dkms package's version, not the module's)."""
    drop_modules(root, NEWER_DKMS)
    shutil.rmtree(f"{root}/sys/module/amdgpu")
    w(root, "sys/module/amdgpu/initstate", "live\n")


def refused_base(name, device, cls, pci_ids_line, kernel, os_release):
    """The base with its GPU made `device` (KFD lists no GPU node: it refused it), the venv and
    the base's kernel log dropped, the kernel and os-release the report's."""
    dst, root = fresh(name, BASE)
    set_gpu(root, device, cls, pci_ids_line, None)
    shutil.rmtree(f"{root}/home")  # the base's venv was its only content
    shutil.rmtree(f"{root}/var")  # the base's kernel log is of its own kernel
    move_kernel(root, "5.15.0-116-generic", kernel)
    w(root, "etc/os-release", os_release)
    rock_dkms_2019(root)
    assert "2" not in os.listdir(f"{root}/{NODES}")
    return dst, root


# Ubuntu 18.04 creates no render group (RadeonOpenCompute/ROCm_Documentation#97: "usermod:
# group 'render' does not exist"); rock-dkms's udev rule gives /dev/kfd to video.
VIDEO_DEVICES = ("[devices]\n/dev/kfd = c 235:0 0660 0:44\n/dev/dri/card0 = c 226:0 0660 0:44\n"
                 "/dev/dri/card1 = c 226:1 0660 0:44\n/dev/dri/renderD128 = c 226:128 0660 0:44\n")

URL_719 = "https://github.com/ROCm/legacy-rocm-build/issues/719"
URL_783 = "https://github.com/ROCm/legacy-rocm-build/issues/783"


def rx580_did_6fdf():
    dst, root = refused_base(FIXTURES[0], "6fdf", "030000", "Polaris 20 XL [Radeon RX 580 2048SP]",
                             "4.15.0-45-generic", UBUNTU1804_OS_RELEASE)
    w(root, "proc/self/status", read(root, "proc/self/status").replace(
        "Groups:\t4 24 27 30 44 46 109 112 1000 ", "Groups:\t4 24 27 30 44 46 112 1000 "))
    kern_log(root, "Feb 26 10:21:37 tu6ge-desktop", [
        "[    1.130512] kfd kfd: DID 6fdf is missing in supported_devices",
        "[    1.130513] kfd kfd: kgd2kfd_probe failed",
    ])
    pasted = ("hsa api call failure at line 900, file: /data/jenkins_workspace/compute-rocm-rel-"
              "2.1/rocminfo/rocminfo.cc. Call returned 4104 / kfd kfd: DID 6fdf is missing in "
              "supported_devices / kfd kfd: kgd2kfd_probe failed")
    ini(dst, TOPIC,
        "An RX 580 with the PCI id 1002:6fdf (a later Polaris 10 board) on Ubuntu 18.04 "
        "(4.15.0-45-generic) with ROCm 2.1's rock-dkms (amdgpu 2.1-96): amdgpu drives it, but "
        "that KFD has no entry for the id ('DID 6fdf is missing in supported_devices', "
        "'kgd2kfd_probe failed'), so KFD lists no GPU and rocminfo fails with 4104; AMD: the id "
        "was added in ROCm 2.5",
        f"Rebuilt from {URL_719} (pasted: rocminfo's 'hsa api call failure at line 900 ... "
        "compute-rocm-rel-2.1 ... Call returned 4104', clinfo's 'ERROR: clGetPlatformIDs(-1001)', "
        "`groups` 'tu6ge adm cdrom sudo dip video plugdev lpadmin sambashare', `uname -r` "
        "4.15.0-45-generic, `dkms status` 'amdgpu, 2.1-96, 4.15.0-45-generic, x86_64: "
        "installed', modinfo's /lib/modules/4.15.0-45-generic/updates/dkms/amdgpu.ko, `dmesg | "
        "grep kfd` '[    1.130512] kfd kfd: DID 6fdf is missing in supported_devices' and '[    "
        f"1.130513] kfd kfd: kgd2kfd_probe failed' verbatim) and its continuation {URL_783} by "
        "the same reporter ('I said that my PCI model was not supported. Then I added the PCI "
        "model according to the tips on github', after which dmesg shows 'kfd kfd: added device "
        "1002:6fdf'), where AMD answered: 'The RX580 was a newer Polaris10 card that was not "
        "added to the kernel until about 1.5 after Polaris10 was added initially ... The patches "
        "for the kernel and thunk will be in 2.5'; the kernel release, the PCI id and the "
        "kernel-log lines are the report's; not in the report and placeholders: the pci.ids "
        "name (Debian 12's line for 6fdf), the syslog prefix (the host name is the prompt's), "
        "the GPU on the base's bus 0000:05:00.0, Ubuntu 18.04.5's os-release (4.15.0-45 is "
        "18.04's kernel), /dev/kfd and the DRM nodes root:video 0660 (18.04 has no render "
        "group; rock-dkms's udev rule gives kfd to video), the user's gids (the base's, without "
        "render), /proc/modules cut to the amdgpu, amdttm and amdkcl of a 2019 rock-dkms and "
        "no /sys/module/amdgpu/version (the report gives the package's version only), KFD's "
        "topology with its CPU nodes only (KFD refused the GPU); ROCm 2.1's user space is left "
        "out (what fails is KFD's probe); everything else is the rx7600-rocm-torch-override "
        "fixture's (see its sources), without its venv",
        PATH,
        real_world(URL_719, pasted,
                   "the ROCm 2.1 KFD (rock-dkms) has no entry for the RX 580's device id 6fdf, "
                   "so it does not take the GPU and ROCm has no device; AMD added the id in "
                   "ROCm 2.5", "driver.amdgpu-no-kfd", "driver", "yes"),
        VIDEO_DEVICES)


URL_827 = "https://github.com/ROCm/legacy-rocm-build/issues/827"


def rx550_laptop_atomics():
    dst, root = refused_base(FIXTURES[1], "699f", "038000", "Lexa PRO [Radeon 540/540X/550/550X / "
                             "RX 540X/550/550X]", "5.0.0-17-generic", UBUNTU1904)
    kern_log(root, "Jun 24 09:12:40 NP940X5N", [
        "[    4.324747] kfd kfd: skipped device 1002:699f, PCI rejects atomics",
    ])
    pasted = ("dmesg | grep kfd / [    4.324747] kfd kfd: skipped device 1002:699f, PCI rejects "
              "atomics")
    ini(dst, TOPIC,
        "A Samsung NP940X5N laptop (Core i7-8550U) with a Radeon RX 550 (Lexa PRO, gfx804, "
        "1002:699f, a Display controller) on Ubuntu 19.04 with ROCm 2.5's rock-dkms: the GPU "
        "hangs off the chipset's PCIe root port, which does not carry atomic operations, so KFD "
        "skips it ('PCI rejects atomics') and ROCm finds no GPU",
        f"Rebuilt from {URL_827} (pasted: 'OS: Ubuntu 19.04', 'Intel® Core™ i7-8550U CPU @ "
        "1.80GHz × 8', `lspci | grep Display` '01:00.0 Display controller: Advanced Micro "
        "Devices, Inc. [AMD/ATI] Lexa PRO [Radeon RX 550/550X] (rev c3)', `dmesg | grep kfd` "
        "'[    4.324747] kfd kfd: skipped device 1002:699f, PCI rejects atomics' verbatim, `dkms "
        "status` 'amdgpu, 2.5-27, 5.0.0-17-generic, x86_64: installed'; the answer: identical "
        "to ROCm/legacy-rocm-build#806, the GPU sits behind a 'Chipset PCI Express Root Port' "
        "that rejects atomics, 'it doesn't look like these laptops can actually use ROCm'; "
        "ROCm's documentation of the time: gfx8 GPUs need PCIe atomics); the kernel release, "
        "the PCI id and class (a Display controller) and the kernel-log line are the report's; "
        "not in the report and placeholders: the pci.ids name (Debian 12's line for 699f), the "
        "syslog prefix (the host name is the laptop's model), the GPU on the base's bus "
        "0000:05:00.0 behind the base's root port (the report's is 01:00.0), Ubuntu 19.04's "
        "os-release, /proc/modules cut to the amdgpu, amdttm and amdkcl of a 2019 rock-dkms "
        "and no /sys/module/amdgpu/version, KFD's topology with its CPU nodes only (KFD skipped "
        "the GPU); everything else is the rx7600-rocm-torch-override fixture's (see its "
        "sources), without its venv",
        PATH,
        real_world(URL_827, pasted,
                   "the laptop's GPU is wired to a chipset root port that rejects PCIe atomics, "
                   "which the gfx8 RX 550 needs under ROCm: KFD skips it; the laptop cannot run "
                   "ROCm on it", "hardware.pcie-atomics-unsupported", "hardware", "yes"),
        section(BASE, "devices"))


URL_558 = "https://github.com/ROCm/legacy-rocm-build/issues/558"


def rx580_xeon_v2_atomics():
    dst, root = refused_base(FIXTURES[2], "67df", "030000",
                             "Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]",
                             "4.15.0-34-generic", UBUNTU1604_OS_RELEASE)
    kern_log(root, "Sep 27 08:55:10 horry-desktop", [
        "[    1.625730] kfd kfd: Initialized module",
        "[    1.626379] kfd kfd: skipped device 1002:67df, PCI rejects atomics",
    ])
    pasted = ("hsa api call failure ... / $dmesg | grep kfd / [    1.625730] kfd kfd: Initialized "
              "module / [    1.626379] kfd kfd: skipped device 1002:67df, PCI rejects atomics")
    ini(dst, TOPIC,
        "A Radeon RX 580 (Polaris 10, gfx803, 1002:67df) on a Xeon E5-2670 v2 (Ivy Bridge-EP) "
        "under Ubuntu 16.04's 4.15 HWE kernel with ROCm 1.9: the CPU's PCIe root ports do not "
        "complete atomic operations, which gfx8 GPUs need under ROCm, so KFD skips the GPU "
        "('PCI rejects atomics') and ROCm finds none",
        f"Rebuilt from {URL_558} (pasted: `uname -a` 'Linux horry-desktop 4.15.0-34-generic "
        "#37~16.04.1-Ubuntu SMP', `dmesg | grep kfd` '[    1.625730] kfd kfd: Initialized "
        "module' and '[    1.626379] kfd kfd: skipped device 1002:67df, PCI rejects atomics' "
        "verbatim as AMD quotes them; AMD's answer: 'Your GPU device, a gfx8 \"Polaris 10\" "
        "Radeon RX 580, requires a CPU that supports PCIe atomics ... if you want to use a Xeon "
        "CPU, this will require a Xeon \"v3\" or newer (Haswell). Your Xeon E5 2670 v2 "
        "apparently does not support PCIe atomics'; the reporter: 'I will change the other CPU "
        "to test'); the kernel release, the host name, the PCI id and the kernel-log lines are "
        "the report's; not in the report and placeholders: the syslog date, the GPU on the "
        "base's bus 0000:05:00.0 behind the base's root port, Ubuntu 16.04.6's os-release (the "
        "report's kernel is 16.04's HWE), /proc/modules cut to the amdgpu, amdttm and amdkcl "
        "of a rock-dkms and no /sys/module/amdgpu/version, KFD's topology with its CPU nodes "
        "only (KFD skipped the GPU); everything else is the rx7600-rocm-torch-override "
        "fixture's (see its sources), without its venv",
        PATH,
        real_world(URL_558, pasted,
                   "the Xeon E5-2670 v2 does not support PCIe atomics, which the gfx8 RX 580 "
                   "needs under ROCm: KFD skips the GPU; a Haswell (v3) or newer CPU, or a GPU "
                   "that does not need them, is the fix",
                   "hardware.pcie-atomics-unsupported", "hardware", "yes"),
        section(BASE, "devices"))


def write():
    rx580_did_6fdf()
    rx550_laptop_atomics()
    rx580_xeon_v2_atomics()
