# SPDX-License-Identifier: GPL-2.0-or-later
"""/dev/kfd that cannot be opened for reasons other than groups, rebuilt from public reports: an
APU (Picasso, gfx902) whose KFD maps its trap handler executable from /dev/kfd at open while
/dev is mounted noexec, the same machine after `mount -o remount,exec /dev`, and a Navi 14 for
which the loaded KFD has no device-id entry. Each is built on the rx7600-rocm-torch-override tree
(amd.py's BASE; its sources). Written by tests/tools/mk-real-world-fixtures.py amd_kfd_open."""
import os
import shutil

from realworld.amd import BASE, NODES, drop_modules, drop_venv, kern_log, read, set_gpu
from realworld.common import UBUNTU2004_OS_RELEASE, fresh, ini, move_kernel, real_world, section, w

TOPIC = "amd_kfd_open"
FIXTURES = ("rw-picasso-apu-dev-noexec-rocminfo-40", "rw-picasso-apu-dev-exec-rocminfo-40",
            "rw-navi14-kfd-did-missing-rocm-1318", "rw-picasso-apu-dev-noexec-kernel-6.8-rocminfo-40")

# ROCm/rocminfo#40: Ubuntu 20.04 on the 5.6.0-1047-oem kernel with ROCm 4.x's rock-dkms, an
# APU whose GPU is 1002:15d8; rocminfo fails although the user is in render and /dev/kfd is
# root:render; AMD (fxkamd) had the reporter run `mount -o remount,exec /dev`, after which
# rocminfo and clinfo ran ("executing the mount command does allow me to run rocminfo and
# clinfo"); a second user: "rocminfo fails because /dev is not mounted with exec priv".
NOEXEC_URL = "https://github.com/ROCm/rocminfo/issues/40"
NOEXEC_SOURCE = (
    "Rebuilt from " + NOEXEC_URL + " (pasted: the dmesg lines 'Linux version 5.6.0-1047-oem "
    "(buildd@lgw01-amd64-055) (gcc version 9.3.0 (Ubuntu 9.3.0-17ubuntu1~20.04)) #51-Ubuntu SMP "
    "Fri Feb 5 11:32:46 UTC 2021 (Ubuntu 5.6.0-1047.51-oem 5.6.19)', its command line, 'kfd "
    "kfd: amdgpu: Allocated 3969056 bytes on gart', 'kfd kfd: amdgpu: added device 1002:15d8' "
    "verbatim; `groups` 'mike adm cdrom sudo dip video plugdev render lpadmin lxd sambashare'; "
    "`lsmod | grep amdgpu' (amdgpu 5828608 5, amd_iommu_v2 20480 1, amd_sched 36864 1, amdttm "
    "106496 1, amdkcl 24576 2, i2c_algo_bit 16384 1, drm_kms_helper 208896 1, drm 540672 8: "
    "rock-dkms's modules); `ls -la /dev/kfd' 'crw-rw-r-- 1 root render 235, 0'; the fix the "
    "reporter confirmed: 'mount -o remount,exec /dev' (so /dev was mounted noexec); the GPU "
    "is a gfx902 APU, the reporter's 'GFX902' of a Ryzen 7 3700U / V1605B class part); not in "
    "the report and placeholders: /proc/self/mountinfo (the /dev line devtmpfs "
    "'rw,nosuid,noexec,relatime' as the remount implies, a / line of ext4), the KFD topology "
    "(one node holding the CPU cores and the GPU, as the ACPI CRAT table of an APU makes it: "
    "cpu_cores_count 8, simd_count 40, gfx_target_version 90002 from LLVM's gfx902, the base "
    "GPU node's other attributes), the GPU on the base's bus 0000:05:00.0 with pci.ids' "
    "Picasso/Raven 2 line, the rock-dkms module version (not shown: no version file), the "
    "usage counts and users lsmod did not show, the user's group ids (the base's), the "
    "syslog prefix; the ROCm 4.x user space is left out (what is judged is the node the "
    "process opens); everything else is the rx7600-rocm-torch-override fixture's (see its "
    "sources), without its venv")

# lsmod as pasted (the users column where it showed one), in /proc/modules form
NOEXEC_MODULES = (
    "amdgpu 5828608 5 - Live 0x0000000000000000 (OE)\n"
    "amd_iommu_v2 20480 1 amdgpu, Live 0x0000000000000000\n"
    "amd_sched 36864 1 amdgpu, Live 0x0000000000000000 (OE)\n"
    "amdttm 106496 1 amdgpu, Live 0x0000000000000000 (OE)\n"
    "amdkcl 24576 2 amdttm,amdgpu, Live 0x0000000000000000 (OE)\n"
    "i2c_algo_bit 16384 1 amdgpu, Live 0x0000000000000000\n"
    "drm_kms_helper 208896 1 amdgpu, Live 0x0000000000000000\n"
    "drm 540672 8 drm_kms_helper,amd_sched,amdttm,amdgpu,amdkcl, Live 0x0000000000000000\n")

NOEXEC_CMDLINE = ("BOOT_IMAGE=/boot/vmlinuz-5.6.0-1047-oem "
                  "root=UUID=a2be4603-e2ce-44b2-9bd1-338faf709837 ro quiet splash vt.handoff=7")


def mountinfo(dev_options):
    """/proc/self/mountinfo (proc(5)) with / and /dev: dev_options the /dev mount's options."""
    return ("25 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
            f"22 25 0:5 / /dev {dev_options} shared:2 - devtmpfs udev "
            "rw,size=7094500k,nr_inodes=1773625,mode=755\n")


def apu_node(root):
    """KFD's topology as an APU's ACPI CRAT table makes it: one node with the CPU cores and
    the GPU (the base's GPU node 2 renamed 0, its CPU nodes gone)."""
    shutil.rmtree(f"{root}/{NODES}/0")
    shutil.rmtree(f"{root}/{NODES}/1")
    os.rename(f"{root}/{NODES}/2", f"{root}/{NODES}/0")
    props = read(root, f"{NODES}/0/properties").splitlines(True)
    want = {"cpu_cores_count": "8", "simd_count": "40", "vendor_id": "4098",
            "device_id": "5592"}
    out = []
    for line in props:
        key = line.split(" ", 1)[0]
        out.append(f"{key} {want[key]}\n" if key in want else line)
    w(root, f"{NODES}/0/properties", "".join(out))


def picasso(name, dev_options):
    dst, root = fresh(name, BASE)
    set_gpu(root, "15d8", "030000",
            "Picasso/Raven 2 [Radeon Vega Series / Radeon Vega Mobile Series]", 90002)
    apu_node(root)
    drop_venv(root)
    move_kernel(root, "5.15.0-116-generic", "5.6.0-1047-oem")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "proc/modules", NOEXEC_MODULES)
    os.unlink(f"{root}/sys/module/amdgpu/version")
    w(root, "sys/module/amdgpu/initstate", "live\n")
    w(root, "proc/cmdline", NOEXEC_CMDLINE + "\n")
    w(root, "proc/self/mountinfo", mountinfo(dev_options))
    kern_log(root, "Feb 10 17:07:01 mike-pc", [
        "[    0.000000] Linux version 5.6.0-1047-oem (buildd@lgw01-amd64-055) (gcc version "
        "9.3.0 (Ubuntu 9.3.0-17ubuntu1~20.04)) #51-Ubuntu SMP Fri Feb 5 11:32:46 UTC 2021 "
        "(Ubuntu 5.6.0-1047.51-oem 5.6.19)",
        "[    0.000000] Command line: " + NOEXEC_CMDLINE,
        "[    1.482926] kfd kfd: amdgpu: Allocated 3969056 bytes on gart",
        "[    1.483779] kfd kfd: amdgpu: added device 1002:15d8",
    ])
    devices = section(BASE, "devices").replace("/dev/kfd = c 235:0 0660 0:109",
                                                "/dev/kfd = c 235:0 0664 0:109")
    return dst, devices


def dev_noexec():
    dst, devices = picasso(FIXTURES[0], "rw,nosuid,noexec,relatime")
    ini(dst, TOPIC,
        "An AMD APU (Picasso, 1002:15d8, gfx902) under ROCm 4.x's rock-dkms on Ubuntu 20.04's "
        "5.6.0-1047-oem kernel, the user in render, /dev/kfd root:render 0664, but /dev mounted "
        "noexec: KFD maps the APU's trap handler executable from /dev/kfd when a process "
        "opens it, which a noexec mount refuses, so rocminfo and clinfo fail",
        NOEXEC_SOURCE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        real_world(NOEXEC_URL,
                   "rocminfo fails although the user is in render and /dev/kfd is "
                   "crw-rw-r-- root render; 'OK, executing the mount command does allow me to "
                   "run rocminfo and clinfo!'",
                   "/dev is mounted noexec: the open of /dev/kfd on this APU needs an "
                   "executable mapping of it, so ROCm cannot open it until "
                   "`mount -o remount,exec /dev`",
                   "driver.dev-noexec", "driver", "yes"),
        devices)


def dev_exec():
    dst, devices = picasso(FIXTURES[1], "rw,nosuid,relatime")
    ini(dst, TOPIC,
        "The machine of rw-picasso-apu-dev-noexec-rocminfo-40 after the reporter's `mount -o "
        "remount,exec /dev`: /dev without noexec, rocminfo and clinfo run: nothing to report "
        "about how /dev is mounted",
        NOEXEC_SOURCE + "; the state after the fix the reporter confirmed: the /dev line "
        "without noexec",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        "", devices)


# The rocminfo#40 machine on a kernel whose amdkfd maps nothing from /dev/kfd (Linux 6.5 on:
# no APU in IOMMUv2 mode, thresholds.tsv amdkfd_apu_cwsr_exec_map_gone_kernel): a variant.
FIXED_KERNEL = "6.8.0-060800-generic"
FIXED_MODULES = (
    "amdgpu 17539072 5 - Live 0x0000000000000000\n"
    "amdxcp 12288 1 amdgpu, Live 0x0000000000000000\n"
    "drm_exec 12288 1 amdgpu, Live 0x0000000000000000\n"
    "gpu_sched 61440 1 amdgpu, Live 0x0000000000000000\n"
    "drm_buddy 20480 1 amdgpu, Live 0x0000000000000000\n"
    "drm_ttm_helper 12288 1 amdgpu, Live 0x0000000000000000\n"
    "ttm 110592 2 amdgpu,drm_ttm_helper, Live 0x0000000000000000\n"
    "i2c_algo_bit 16384 1 amdgpu, Live 0x0000000000000000\n"
    "drm_kms_helper 270336 1 amdgpu, Live 0x0000000000000000\n"
    "drm 761856 8 amdgpu,amdxcp,drm_exec,gpu_sched,drm_buddy,drm_ttm_helper,ttm,drm_kms_helper, "
    "Live 0x0000000000000000\n")


def dev_noexec_fixed_kernel():
    dst, devices = picasso(FIXTURES[3], "rw,nosuid,noexec,relatime")
    root = os.path.join(dst, "root")
    move_kernel(root, "5.6.0-1047-oem", FIXED_KERNEL)
    w(root, "proc/modules", FIXED_MODULES)
    cmdline = NOEXEC_CMDLINE.replace("5.6.0-1047-oem", FIXED_KERNEL)
    w(root, "proc/cmdline", cmdline + "\n")
    kern_log(root, "Feb 10 17:07:01 mike-pc", [
        "[    0.000000] Command line: " + cmdline,
        "[    1.482926] kfd kfd: amdgpu: Allocated 3969056 bytes on gart",
        "[    1.483779] kfd kfd: amdgpu: added device 1002:15d8",
    ])
    ini(dst, TOPIC,
        "The machine of rw-picasso-apu-dev-noexec-rocminfo-40, /dev still mounted noexec, on a "
        "6.8 kernel with its own amdgpu: since Linux 6.5 no APU runs in KFD's IOMMUv2 mode and "
        "nothing is mapped executable from /dev/kfd, so the noexec mount does not stop ROCm: "
        "nothing to report about how /dev is mounted",
        NOEXEC_SOURCE + "; a variant, not in the report: the kernel, kernel.ubuntu.com's "
        "mainline 6.8 build (" + FIXED_KERNEL + "), with the kernel's own amdgpu (rock-dkms "
        "does not build for it) and its modules as lsmod lists them there (sizes placeholders), "
        "the kernel log without the 5.6 version line; the kernel change: Linux 6.5-rc6's "
        "'drm/amdkfd: disable IOMMUv2 support for Raven' and '... for KV/CZ' (Alex Deucher; "
        "the knowledge base's thresholds.tsv)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        "", devices)


# ROCm/legacy-rocm-build#1318: an RX 5500 (Navi 14, 1002:7340) on Ubuntu 20.04's
# 5.4.0-54-generic: "kfd kfd: DID 7340 is missing in supported_devices", "kgd2kfd_probe
# failed", rocminfo "Unable to open /dev/kfd read-write: Cannot allocate memory".
NAVI14_URL = "https://github.com/ROCm/legacy-rocm-build/issues/1318"
NAVI14_SOURCE = (
    "Rebuilt from " + NAVI14_URL + " (pasted: rocminfo 'ROCk module is loaded', 'Unable to "
    "open /dev/kfd read-write: Cannot allocate memory', 'Failed to get user name to check for "
    "render group membership', HSA_STATUS_ERROR_OUT_OF_RESOURCES; `sudo dmesg | grep kfd`: "
    "'[    2.244241] kfd kfd: DID 7340 is missing in supported_devices' and '[    2.244243] "
    "kfd kfd: kgd2kfd_probe failed' verbatim; uname 'Linux ... 5.4.0-54-generic #60-Ubuntu SMP "
    "Fri Nov 6 10:37:59 UTC 2020 x86_64'; lspci '2f:00.0 VGA compatible controller: Advanced "
    "Micro Devices, Inc. [AMD/ATI] Navi 14 [Radeon RX 5500/5500M / Pro 5500M] (rev c5)'; "
    "ROCm's amdgpu-3.10-27 DKMS source under /usr/src; the thread: gfx10 GPUs were not "
    "supported by ROCm then); not in the report and placeholders: which amdgpu was loaded "
    "(in-tree or the DKMS one: no version file, no amdgpu-dkms helper modules), the GPU on "
    "the base's bus 0000:05:00.0 for the report's 2f:00.0, KFD's topology with its CPU nodes "
    "only (kgd2kfd_probe failed: no GPU node), the syslog prefix; everything else is the "
    "rx7600-rocm-torch-override fixture's (see its sources), without its venv")


def navi14():
    dst, root = fresh(FIXTURES[2], BASE)
    set_gpu(root, "7340", "030000", "Navi 14 [Radeon RX 5500/5500M / Pro 5500M]", None)
    drop_venv(root)
    os.unlink(f"{root}/sys/module/amdgpu/version")
    w(root, "sys/module/amdgpu/initstate", "live\n")
    drop_modules(root, ("amddrm_ttm_helper", "amddrm_buddy", "amdttm", "amdxcp", "amdkcl",
                        "drm_exec"), in_tree=True)
    move_kernel(root, "5.15.0-116-generic", "5.4.0-54-generic")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    kern_log(root, "Dec  3 09:12:40 ubuntu", [
        "[    2.244241] kfd kfd: DID 7340 is missing in supported_devices",
        "[    2.244243] kfd kfd: kgd2kfd_probe failed",
    ])
    ini(dst, TOPIC,
        "A Radeon RX 5500 (Navi 14, 1002:7340) on Ubuntu 20.04's 5.4.0-54 kernel: amdgpu "
        "drives it, but the loaded KFD has no entry for its device id ('DID 7340 is missing in "
        "supported_devices', kgd2kfd_probe failed), so KFD lists no GPU and rocminfo fails with "
        "'Unable to open /dev/kfd read-write: Cannot allocate memory'",
        NAVI14_SOURCE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        real_world(NAVI14_URL,
                   "Unable to open /dev/kfd read-write: Cannot allocate memory ... kfd kfd: DID "
                   "7340 is missing in supported_devices ... kfd kfd: kgd2kfd_probe failed",
                   "the loaded KFD has no entry for the Navi 14's device id 7340: KFD lists no "
                   "GPU, ROCm has no compute device (gfx10 was not supported by ROCm then)",
                   "driver.amdgpu-no-kfd", "driver", "yes"),
        section(BASE, "devices"))


def write():
    dev_noexec()
    dev_exec()
    navi14()
    dev_noexec_fixed_kernel()
