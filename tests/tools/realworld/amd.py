# SPDX-License-Identifier: GPL-2.0-or-later
"""AMD GPUs under ROCm: a healthy RX 7900 XTX (the AMD chain end to end), the same with two ROCm
releases and an LD_LIBRARY_PATH that makes ld.so give the one /opt/rocm does not name, and
machines rebuilt from public reports: amdgpu's firmware missing, a GPU KFD does not support, an
HSA_OVERRIDE_GFX_VERSION left over from another card, /dev/kfd in a group the user is not in.
Each is built on the rx7600-rocm-torch-override tree (one AMD GPU behind the MI300X
platform's PCI topology; its sources)."""
import os
import shutil

from realworld.common import (FIX, UBUNTU2004_OS_RELEASE, dpkg, fresh, ini, ldso_cache, link, read,
                              real_world, section, so, ubuntu_os_release, w)

TOPIC = "amd"
FIXTURES = ("amd-rx7900xtx-rocm62-healthy", "rw-mi100-amdgpu-firmware-missing",
            "rw-r9-370-pitcairn-no-kfd", "rw-mi210-hsa-override-gfx1030",
            "rw-kfd-render-group-only-video", "rw-rx7900xtx-amdgpu-dkms-not-for-running-kernel",
            "rw-rx7900xtx-amdgpu-dkms-rocm62-rebooted", "rw-rx6700xt-override-in-bashrc-not-in-kernel",
            "rw-rx6700xt-override-in-process", "rw-rx6800xt-mi100-rocr-hip-visible-devices-1",
            "rw-rx6800xt-mi100-rocr-visible-devices-1", "rw-mi50-amdgpu-ras-uncorrectable",
            "amd-rx7900xtx-rocm612-ld-library-path")
BASE = "rx7600-rocm-torch-override"
GPU_BUS = "0000:05:00.0"
NODES = "sys/devices/virtual/kfd/kfd/topology/nodes"
ROCM_ENV = {"PATH": "/opt/rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "ROCM_PATH": "/opt/rocm", "HOME": "/home/user"}


def gpu_dir(root):
    devs = f"{root}/sys/bus/pci/devices"
    return os.path.normpath(os.path.join(devs, os.readlink(f"{devs}/{GPU_BUS}")))


def set_gpu(root, device, cls, pci_ids_line, gfx_target_version):
    """The base's one GPU made another AMD GPU: its PCI ids, its pci.ids line (in place of the
    RX 7600's) and KFD node 2's gfx_target_version (None: KFD lists no GPU node)."""
    gpu = gpu_dir(root)
    w(gpu, "device", f"0x{device}\n")
    w(gpu, "class", f"0x{cls}\n")
    w(root, "usr/share/misc/pci.ids", read(root, "usr/share/misc/pci.ids").replace(
        "\t7480  Navi 33 [Radeon RX 7600/7600 XT/7600M XT/7600S/7700S / PRO W7600]\n",
        f"\t{device}  {pci_ids_line}\n"))
    if gfx_target_version is None:
        shutil.rmtree(f"{root}/{NODES}/2")
        return
    props = read(root, f"{NODES}/2/properties")
    w(root, f"{NODES}/2/properties",
      props.replace("gfx_target_version 110002", f"gfx_target_version {gfx_target_version}"))


def drop_venv(root):
    shutil.rmtree(f"{root}/home")  # the venv was its only content


def rocm_620(root):
    """ROCm 6.2.0 as the rocm-6.2-toolkit fixture has it (its sources): /opt/rocm-6.2.0 and the
    /opt/rocm -> /etc/alternatives/rocm -> /opt/rocm-6.2.0 chain."""
    src = f"{FIX}/rocm-6.2-toolkit/root"
    shutil.copytree(f"{src}/opt", f"{root}/opt", symlinks=True, dirs_exist_ok=True)
    os.makedirs(f"{root}/etc/alternatives", exist_ok=True)
    os.symlink(os.readlink(f"{src}/etc/alternatives/rocm"), f"{root}/etc/alternatives/rocm")


def rx7900xtx_rocm620(name):
    """The base made an RX 7900 XTX (the healthy fixture's GPU) without the venv, with ROCm
    6.2.0."""
    dst, root = fresh(name, BASE)
    set_gpu(root, "744c", "030000", "Navi 31 [Radeon RX 7900 XT/7900 XTX]", 110000)
    drop_venv(root)
    rocm_620(root)
    return dst, root


def kern_log(root, host, lines):
    w(root, "var/log/kern.log", "".join(f"{host} kernel: {l}\n" for l in lines))


def healthy():
    dst, root = fresh("amd-rx7900xtx-rocm62-healthy", BASE)
    set_gpu(root, "744c", "030000", "Navi 31 [Radeon RX 7900 XT/7900 XTX]",
            110000)
    rocm_620(root)
    env = dict(ROCM_ENV)
    env["PATH"] = "/home/user/venv-rocm/bin:" + env["PATH"]
    env["VIRTUAL_ENV"] = "/home/user/venv-rocm"
    ini(dst, TOPIC,
        "A healthy ROCm machine: one Radeon RX 7900 XTX (Navi 31, gfx1100; KFD "
        "gfx_target_version 110000) on amdgpu-dkms 6.7.0, ROCm 6.2.0 at /opt/rocm (which lists "
        "gfx1100), torch 2.5.1+rocm6.2 in a venv whose code objects include gfx1100, the user "
        "in group render: every link of the AMD chain holds",
        "the rx7600-rocm-torch-override fixture (its sources) with the GPU's device id and class "
        "those of an RX 7900 XTX (1002:744c, class 0x030000, its line in Debian 12's pci.ids 2023.04.10 'Navi 31 [Radeon "
        "RX 7900 XT/7900 XTX/7900 GRE/7900M]'), KFD node 2's gfx_target_version 110000 (gfx1100, "
        "LLVM AMDGPU processor table) and no HSA_OVERRIDE_GFX_VERSION; /opt/rocm-6.2.0 and its "
        "alternatives link from the rocm-6.2-toolkit fixture (its sources)",
        env, "", section(BASE, "devices"), section(BASE, "elf"))


def firmware_missing(name, device, cls, pci_ids_line, chip, tmz_line):
    """ROCm/legacy-rocm-build#1357's machine: the base's GPU made `device`, amdgpu 5.6.19
    (rock-dkms 4.0) on Ubuntu 18.04's 4.15.0-130-generic, its init failing on a missing
    amdgpu/<chip>_gpu_info.bin, the GPU left without a driver; the report's dmesg lines with the
    bus made the base's (the TMZ line, which names the ASIC's case, only where tmz_line says).
    Returns dst, root and the base's [devices] without a render node."""
    dst, root = fresh(name, BASE)
    set_gpu(root, device, cls, pci_ids_line, None)
    os.unlink(f"{gpu_dir(root)}/driver")
    drop_venv(root)
    w(root, "sys/module/amdgpu/version", "5.6.19\n")
    w(root, "proc/sys/kernel/osrelease", "4.15.0-130-generic\n")
    tmz = ["[    9.605889] amdgpu 0000:05:00.0: Trusted Memory Zone (TMZ) feature not supported"]
    kern_log(root, "Jan  9 10:14:07 n004", [
        "[    9.602662] [drm] amdgpu kernel modesetting enabled.",
        "[    9.602665] [drm] amdgpu version: 5.6.19",
        "[    9.602871] amdgpu: Ignoring ACPI CRAT on non-APU system",
        "[    9.602887] amdgpu: Virtual CRAT table created for CPU",
        "[    9.602998] amdgpu: Topology: Add CPU node",
        "[    9.605792] amdgpu 0000:05:00.0: enabling device (0000 -> 0003)",
    ] + (tmz if tmz_line else []) + [
        "[    9.605986] amdgpu 0000:05:00.0: Direct firmware load for "
        f"amdgpu/{chip}_gpu_info.bin failed with error -2",
        "[    9.605988] amdgpu 0000:05:00.0: Failed to load gpu_info firmware "
        f"\"amdgpu/{chip}_gpu_info.bin\"",
        "[    9.605988] amdgpu 0000:05:00.0: Fatal error during GPU init",
        "[    9.605990] amdgpu 0000:05:00.0: amdgpu: finishing device.",
        "[    9.606063] amdgpu: probe of 0000:05:00.0 failed with error -2",
    ])
    devices = "".join(l for l in section(BASE, "devices").splitlines(True)
                      if not l.startswith(("/dev/dri/renderD", "/dev/dri/card1 ")))
    return dst, root, devices


def mi100_firmware():
    # ROCm/legacy-rocm-build#1357: an MI100 that worked for days; after a reboot (a kernel
    # update) amdgpu cannot load amdgpu/arcturus_gpu_info.bin, the init fails and the probe
    # ends with error -2. The cause: rock-dkms-firmware was not reinstalled after the kernel
    # upgrade.
    dst, root, devices = firmware_missing("rw-mi100-amdgpu-firmware-missing", "738c", "038000",
                                          "Arcturus GL-XL [Instinct MI100]", "arcturus", True)
    ini(dst, TOPIC,
        "An AMD Instinct MI100 (Arcturus, 1002:738c) on amdgpu 5.6.19 (rock-dkms 4.0) whose "
        "init fails after a reboot: amdgpu cannot load amdgpu/arcturus_gpu_info.bin (error -2), "
        "'Fatal error during GPU init', the probe fails and the GPU is left without a driver",
        "Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/1357 (pasted: uname "
        "4.15.0-130-generic, the dmesg lines from '[drm] amdgpu version: 5.6.19' to 'amdgpu: "
        "probe of 0000:23:00.0 failed with error -2', kept verbatim with the bus made the "
        "base's 0000:05:00.0; the reporter's answer: rock-dkms-firmware 1:4.0-23 had not been "
        "reinstalled after the kernel upgrade); not in the report and placeholders: the "
        "syslog prefix (host n004, the date), the PCI topology and BARs of the base, the "
        "Ubuntu 22.04 os-release of the base (the report's 4.15 kernel is Ubuntu 18.04's); "
        "KFD's topology keeps its CPU nodes only (amdgpu's 'Topology: Add CPU node', no GPU "
        "added); /dev/kfd as rock-dkms's udev rule makes it, no render node (no DRM device was "
        "registered); everything else is the rx7600-rocm-torch-override fixture's (see its "
        "sources), without its venv",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world("https://github.com/ROCm/legacy-rocm-build/issues/1357",
                   "amdgpu 0000:23:00.0: Direct firmware load for amdgpu/arcturus_gpu_info.bin "
                   "failed with error -2 ... Fatal error during GPU init ... amdgpu: probe of "
                   "0000:23:00.0 failed with error -2",
                   "the firmware package (rock-dkms-firmware) was not reinstalled after the "
                   "kernel upgrade: amdgpu cannot load arcturus_gpu_info.bin and the MI100's "
                   "init fails", "driver.amdgpu-firmware-failed", "driver", "yes"),
        devices)


def kernel_amdgpu(root):
    """The kernel's own amdgpu in place of the base's amdgpu-dkms. Loaded, it has its
    /sys/module/amdgpu directory (the kernel makes one for every loaded module, with
    `initstate`: Documentation/ABI/testing/sysfs-module), `initstate` reading "live" (what
    rocminfo's "ROCk module is loaded" and rocm_smi.py's _driver_initialized() test), but no
    `version` (amdgpu sets no MODULE_VERSION upstream; amdgpu-dkms's does). /proc/modules loses
    amdgpu-dkms's helper modules and drm_exec (drivers/gpu/drm/drm_exec.c, Linux 6.6 and
    later), also from the users lists of the modules left."""
    os.unlink(f"{root}/sys/module/amdgpu/version")
    w(root, "sys/module/amdgpu/initstate", "live\n")
    drop_modules(root, ("amddrm_ttm_helper", "amddrm_buddy", "amdttm", "amdxcp", "amdkcl",
                        "drm_exec"), in_tree=True)


def drop_modules(root, gone, in_tree=False):
    """/proc/modules without the modules `gone`, in their users lists too; in_tree: without
    the out-of-tree taint flags "(OE)" as well."""
    lines = []
    for line in read(root, "proc/modules").splitlines():
        f = (line.replace(" (OE)", "") if in_tree else line).split(" ")
        if f[0] in gone:
            continue
        if f[3] != "-":
            f[3] = "".join(u + "," for u in f[3].split(",") if u and u not in gone) or "-"
        lines.append(" ".join(f) + "\n")
    w(root, "proc/modules", "".join(lines))


def pitcairn_no_kfd():
    # ROCm/legacy-rocm-build#2232: an R7 370 / R9 270 (Curacao PRO, Pitcairn, GCN 1) under
    # Ubuntu's 5.4 kernel: amdgpu drives it, but "kfd kfd: amdgpu: PITCAIRN  not supported in
    # kfd", so rocminfo fails with "Unable to open /dev/kfd read-write: Cannot allocate memory"
    # although the user is in group render.
    dst, root = fresh("rw-r9-370-pitcairn-no-kfd", BASE)
    set_gpu(root, "6811", "030000",
            "Curacao PRO [Radeon R7 370 / R9 270/370 OEM]", None)
    drop_venv(root)
    kernel_amdgpu(root)
    w(root, "proc/sys/kernel/osrelease", "5.4.0-54-generic\n")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    kern_log(root, "Jun  9 18:02:11 igor-pc", [
        "[    3.401207] [drm] amdgpu kernel modesetting enabled.",
        "[    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd",
        "[    3.912405] [drm] Initialized amdgpu 3.35.0 20150101 for 0000:05:00.0 on minor 0",
    ])
    ini(dst, TOPIC,
        "A Radeon R7 370 / R9 270 (Curacao PRO, Pitcairn: GCN 1, 1002:6811) driven by Ubuntu "
        "20.04's amdgpu (kernel 5.4.0-54): KFD does not support the chip ('PITCAIRN not "
        "supported in kfd'), its topology has no GPU node, and rocminfo fails with 'Unable to "
        "open /dev/kfd read-write: Cannot allocate memory' although the user is in group render",
        "Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/2232 (pasted: rocminfo "
        "'ROCk module is loaded', 'Unable to open /dev/kfd read-write: Cannot allocate memory', "
        "'igor is member of render group', HSA_STATUS_ERROR_OUT_OF_RESOURCES; 'sudo dmesg | grep "
        "kfd': '[    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd' verbatim; uname "
        "5.4.0-54-generic; lspci 'Curacao PRO [Radeon R7 370 / R9 270/370 OEM]'); not in the "
        "report and placeholders: the two other kernel-log lines and the syslog prefix, the "
        "PCI id 1002:6811 (pci.ids' Curacao PRO line), the GPU on the base's bus 0000:05:00.0, "
        "the kernel's own amdgpu (/sys/module/amdgpu/initstate 'live', as rocminfo's 'ROCk "
        "module is loaded' shows, and no version file; no amdgpu-dkms modules in /proc/modules), "
        "KFD's topology with its CPU nodes only; everything else is the "
        "rx7600-rocm-torch-override fixture's (see its sources), without its venv",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world("https://github.com/ROCm/legacy-rocm-build/issues/2232",
                   "Unable to open /dev/kfd read-write: Cannot allocate memory ... kfd kfd: "
                   "amdgpu: PITCAIRN  not supported in kfd",
                   "KFD does not support the Pitcairn (GCN 1) GPU: ROCm has no compute device, "
                   "whatever the groups", "driver.amdgpu-no-kfd", "driver", "yes"),
        section(BASE, "devices"))


def mi210_override():
    # ROCm/legacy-rocm-build#5238: an MI210 (gfx90a) that rocminfo shows as gfx1030 and whose
    # kernels die with "Memory access fault by GPU node-2 on address (nil). Reason: unknown";
    # the reporter had set HSA_OVERRIDE_GFX_VERSION for gfx1030 for another card and forgot it.
    dst, root = fresh("rw-mi210-hsa-override-gfx1030", BASE)
    set_gpu(root, "740f", "038000", "Aldebaran/MI200 [Instinct MI210]", 90010)
    drop_venv(root)
    rocm_620(root)
    env = dict(ROCM_ENV)
    env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0"
    ini(dst, TOPIC,
        "An AMD Instinct MI210 (Aldebaran, gfx90a; KFD gfx_target_version 90010) with "
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 left in the environment from another card: ROCm "
        "reports the GPU as gfx1030 and loads RDNA2 code on a CDNA2 GPU, 'Memory access fault "
        "by GPU node-2 ... on address (nil). Reason: unknown'",
        "Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/5238 (pasted: rocminfo "
        "listing the MI210 as gfx1030 and 'Memory access fault by GPU node-2 on address (nil). "
        "Reason: unknown'; AMD: 'it is showing MI210 as gfx1030 when it should've been gfx90a. "
        "Did you by chance try to override the gfx version'; the reporter: 'set the "
        "HSA_OVERRIDE_GFX_VERSION to gfx1030 ... and forgot about it. My MI210 works great now'; "
        "gfx1030's override value is 10.3.0, the LLVM AMDGPU processor table); not in the "
        "report and placeholders: the ROCm release (ROCm 6.2.0 of the rocm-6.2-toolkit "
        "fixture), the PCI id 1002:740f (pci.ids' Aldebaran/MI200 [Instinct MI210] line), the "
        "GPU on the base's bus; everything else is the rx7600-rocm-torch-override fixture's "
        "(see its sources), without its venv",
        env,
        real_world("https://github.com/ROCm/legacy-rocm-build/issues/5238",
                   "Memory access fault by GPU node-2 (Agent handle: ...) on address (nil). "
                   "Reason: unknown.",
                   "HSA_OVERRIDE_GFX_VERSION set for a gfx1030 card and forgotten makes ROCm "
                   "run gfx1030 code on the MI210 (gfx90a)",
                   "runtime.hsa-override-wrong-target", "runtime", "yes"),
        section(BASE, "devices"))


def render_group():
    # ROCm/rocminfo#34: /dev/kfd is root:render on newer kernels and udev, while the user
    # (and rocminfo's check) count on video; outside render, opening /dev/kfd fails.
    dst, root = rx7900xtx_rocm620("rw-kfd-render-group-only-video")
    w(root, "proc/self/status", read(root, "proc/self/status").replace(
        "Groups:\t4 24 27 30 44 46 109 112 1000 ", "Groups:\t4 24 27 30 44 46 112 1000 "))
    ini(dst, TOPIC,
        "/dev/kfd and /dev/dri/renderD128 are 0660 root:render (udev's render group) and the "
        "user is in video (44) but not in render: ROCm cannot open /dev/kfd",
        "Rebuilt from https://github.com/ROCm/rocminfo/issues/34 (what the thread shows: "
        "/dev/kfd 'restricted to root:render', the user counted on the video group, and the "
        "failure reported as HSA_STATUS_ERROR_OUT_OF_RESOURCES instead of permission denied); "
        "not in the report and placeholders: the GPU (the amd-rx7900xtx-rocm62-healthy "
        "fixture's RX 7900 XTX, gfx1100), ROCm 6.2.0 of the rocm-6.2-toolkit fixture, the "
        "user's other groups; everything else is the rx7600-rocm-torch-override fixture's "
        "(see its sources), without its venv and with render (109) taken out of the user's "
        "groups",
        ROCM_ENV,
        real_world("https://github.com/ROCm/rocminfo/issues/34",
                   "on my system the /dev/kdf file was restricted to root:render, but rocminfo "
                   "only checks for video",
                   "the user is not in the render group that owns /dev/kfd and the render nodes",
                   "driver.no-permission", "driver", "yes"),
        section(BASE, "devices"))


# ROCm/legacy-rocm-build#3608: upgrading to ROCm 6.2.0 with amdgpu-install on Ubuntu 22.04.4 (RX
# 7900 XTX) installed amdgpu-dkms 6.8.5-2009582.22.04, but "amdgpu dkms failed for running
# kernel": the old tree /var/lib/dkms/amdgpu/6.7.0-1756574.22.04 (no dkms.conf) broke DKMS, so
# the 6.7.0 module built before stayed what the kernel loads. The package's version is the
# form rocm-install-on-linux#293 shows for the same build (1:6.8.5.60200-2009582.24.04).
DKMS_620 = "1:6.8.5.60200-2009582.22.04"
DKMS_SOURCE = (
    "Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/3608 (Ubuntu 22.04.4, RX "
    "7900 XTX, ROCm 6.2.0; pasted: 'Error! Could not locate dkms.conf file. File: "
    "/var/lib/dkms/amdgpu/6.7.0-1756574.22.04/source/dkms.conf does not exist. WARNING: amdgpu "
    "dkms failed for running kernel', the two trees 6.7.0-1756574.22.04/ and "
    "6.8.5-2009582.22.04/ under /var/lib/dkms/amdgpu/, 'DKMS status goes back to normal after "
    "removing 6.7.0-1756574.22.04/'); the amdgpu-dkms package version "
    f"{DKMS_620} is the 22.04 build of the 1:6.8.5.60200-2009582.24.04 that "
    "https://github.com/ROCm/rocm-install-on-linux/issues/293 pastes for ROCm 6.2.0; not in the "
    "report and placeholders: the GPU (the amd-rx7900xtx-rocm62-healthy fixture's), ROCm 6.2.0 "
    "of the rocm-6.2-toolkit fixture, the kernel, the DKMS trees (gpuenv does not read /var/lib/dkms); everything else is the "
    "rx7600-rocm-torch-override fixture's (see its sources), without its venv")


def dkms_not_for_running_kernel():
    dst, root = rx7900xtx_rocm620("rw-rx7900xtx-amdgpu-dkms-not-for-running-kernel")
    dpkg(root, {"amdgpu-dkms": DKMS_620, "amdgpu-dkms-firmware": DKMS_620})
    ini(dst, TOPIC,
        "ROCm 6.2.0 upgraded over 6.1 with amdgpu-install: amdgpu-dkms 6.8.5 (ROCm 6.2.0's "
        "kernel driver) is installed, but its DKMS build failed for the running kernel (a stale "
        "amdgpu 6.7.0 DKMS tree without dkms.conf), so the amdgpu loaded is still 6.7.0",
        DKMS_SOURCE + "; the loaded module's version 6.7.0 is the old tree's, which the "
        "failed build left in place",
        ROCM_ENV,
        real_world("https://github.com/ROCm/legacy-rocm-build/issues/3608",
                   "WARNING: amdgpu dkms failed for running kernel",
                   "the old amdgpu-dkms tree broke DKMS: the new amdgpu 6.8.5 was not built for "
                   "the running kernel, the 6.7.0 module stays loaded",
                   "driver.amdgpu-kmd-userspace", "driver", "no"),
        section(BASE, "devices"))


def dkms_rebooted():
    dst, root = rx7900xtx_rocm620("rw-rx7900xtx-amdgpu-dkms-rocm62-rebooted")
    dpkg(root, {"amdgpu-dkms": DKMS_620, "amdgpu-dkms-firmware": DKMS_620})
    w(root, "sys/module/amdgpu/version", "6.8.5\n")
    ini(dst, TOPIC,
        "The machine of rw-rx7900xtx-amdgpu-dkms-not-for-running-kernel after the fix: the "
        "stale 6.7.0 tree removed, amdgpu 6.8.5 built and loaded, ROCm 6.2.0's own kernel "
        "driver under ROCm 6.2.0: nothing to report about the driver pair",
        DKMS_SOURCE + "; the state after the reporter's fix (the stale tree removed, a "
        "reboot): /sys/module/amdgpu/version 6.8.5, the kernel base of the package",
        ROCM_ENV, "", section(BASE, "devices"))


# ROCm/legacy-rocm-build#2536 (and its first post, Comfy-Org/ComfyUI#1712): an RX 6700 XT
# (Navi 22, gfx1031) under ROCm 5.7 with a torch nightly for rocm5.7; in a VS Code notebook
# every kernel fails with "HIP error: invalid device function"; the answer that worked:
# putenv("HSA_OVERRIDE_GFX_VERSION", "10.3.0") at the top of the code, "your interpreter
# runtime didn't use your system variables".
OVERRIDE_SOURCE = (
    "Rebuilt from https://github.com/ROCm/legacy-rocm-build/issues/2536 (pasted: 'RuntimeError: "
    "HIP error: invalid device function' from a VS Code notebook cell on 'AMD Radeon RX 6700 XT', "
    "lspci 'Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]' in "
    "https://github.com/Comfy-Org/ComfyUI/issues/1712; the fix: putenv HSA_OVERRIDE_GFX_VERSION "
    "10.3.0 in the program, 'The reason might be your interpreter runtime didn't use your "
    "system variables'); not in the report and placeholders: where the variable was set (an "
    "export line in ~/.bashrc), ROCm 6.2.0 of the rocm-6.2-toolkit fixture for the thread's "
    "5.7, the torch build (torch 2.5.1+rocm6.2 of the rx7600-rocm-torch-override venv, whose "
    "code objects, like the rocm5.7 nightly's, include gfx1030 and not gfx1031), the PCI id "
    "1002:73df (pci.ids' Navi 22 line), KFD gfx_target_version 100301 (gfx1031, LLVM AMDGPU "
    "processor table), the OS (the base's Ubuntu for the thread's CentOS Stream 9); everything "
    "else is the rx7600-rocm-torch-override fixture's (see its sources)")
BASHRC = ("# ~/.bashrc: executed by bash(1) for non-login shells.\n"
          "case $- in\n    *i*) ;;\n      *) return;;\nesac\n"
          "export PATH=$PATH:/opt/rocm/bin\n"
          "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n")


def rx6700xt_venv(name):
    dst, root = fresh(name, BASE)
    set_gpu(root, "73df", "030000", "Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]",
            100301)
    rocm_620(root)
    w(root, "home/user/.bashrc", BASHRC)
    env = dict(ROCM_ENV)
    env["PATH"] = "/home/user/venv-rocm/bin:" + env["PATH"]
    env["VIRTUAL_ENV"] = "/home/user/venv-rocm"
    return dst, root, env


def override_not_inherited():
    dst, root, env = rx6700xt_venv("rw-rx6700xt-override-in-bashrc-not-in-kernel")
    ini(dst, TOPIC,
        "An RX 6700 XT (gfx1031) whose user exports HSA_OVERRIDE_GFX_VERSION=10.3.0 in "
        "~/.bashrc, judged in the environment of a notebook kernel that never read it: ROCm "
        "takes the GPU as gfx1031, which neither ROCm 6.2 nor the torch build has code for",
        OVERRIDE_SOURCE, env,
        real_world("https://github.com/ROCm/legacy-rocm-build/issues/2536",
                   "RuntimeError: HIP error: invalid device function",
                   "the HSA_OVERRIDE_GFX_VERSION=10.3.0 of the user's shell does not reach the "
                   "notebook's interpreter, so ROCm looks for gfx1031 code",
                   "runtime.override-not-inherited", "runtime", "yes"),
        section(BASE, "devices"), section(BASE, "elf"))


def override_inherited():
    dst, root, env = rx6700xt_venv("rw-rx6700xt-override-in-process")
    env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0"
    ini(dst, TOPIC,
        "The machine of rw-rx6700xt-override-in-bashrc-not-in-kernel with the override in the "
        "process's own environment (the thread's fix): nothing missing from the process; the "
        "override itself stays unsupported by AMD",
        OVERRIDE_SOURCE + "; HSA_OVERRIDE_GFX_VERSION=10.3.0 in the process as the fix puts it",
        env, "", section(BASE, "devices"), section(BASE, "elf"))


# mcmonkeyprojects/SwarmUI#565/#566: on a machine with gfx908 and gfx1030 GPUs, SwarmUI set
# both ROCR_VISIBLE_DEVICES=1 and HIP_VISIBLE_DEVICES=1; ROCr leaves one GPU, which HIP counts
# as 0, so index 1 is past it and torch.cuda.is_available() is False. The fix in the thread:
# ROCR_VISIBLE_DEVICES alone. The UUID is the one the reporter quotes in #566.
VISIBLE_URL = "https://github.com/mcmonkeyprojects/SwarmUI/issues/565"
VISIBLE_SOURCE = (
    "Rebuilt from https://github.com/mcmonkeyprojects/SwarmUI/issues/565 and its duplicate #566 "
    "(the reporter: 'Have a machine with n gfx908 gpus and z gfx1030 gpus', 'export "
    "ROCR_VISIBLE_DEVICES=1', 'export HIP_VISIBLE_DEVICES=1', torch.cuda.is_available() "
    "'False', 'can end up with _no_ device available since you have masked away all gpus', "
    "'i would recommend using only ROCR_VISIBLE_DEVICES'; in #566 the UUID "
    "GPU-f980f88ef31631a2 of one of the GPUs); not in the report and placeholders: one GPU of "
    "each kind, the gfx1030 an RX 6800 XT (1002:73bf, pci.ids' Navi 21 line) on the base's bus "
    "and the gfx908 an MI100 (1002:738c, pci.ids' Arcturus GL-XL line) behind a copy of the "
    "base's root port at 0000:00:03.1 / 0000:08:00.0 with the base GPU's other attributes; "
    "KFD nodes 2 (gfx1030, gfx_target_version 100300) and 3 (gfx908, 90008: a copy of node 2 "
    "with its location, render minor, gpu_id and unique_id changed); the reporter's UUID given "
    "to the MI100, the RX 6800 XT keeping the base GPU's; ROCm 6.2.0 of the rocm-6.2-toolkit fixture; "
    "everything else is the rx7600-rocm-torch-override fixture's (see its sources), without its "
    "venv")
MI100_BUS = "0000:08:00.0"


def rx6800xt_mi100(name):
    """The base made an RX 6800 XT (gfx1030) with an MI100 (gfx908) beside it, ROCm 6.2.0."""
    dst, root = fresh(name, BASE)
    set_gpu(root, "73bf", "030000", "Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]", 100300)
    drop_venv(root)
    rocm_620(root)
    w(root, "usr/share/misc/pci.ids", read(root, "usr/share/misc/pci.ids").replace(
        "\t73bf  ", "\t738c  Arcturus GL-XL [Instinct MI100]\n\t73bf  "))
    port = f"{root}/sys/devices/pci0000:00/0000:00:03.1"
    shutil.copytree(f"{root}/sys/devices/pci0000:00/0000:00:01.1", port, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n.startswith("0000:")])
    shutil.copytree(gpu_dir(root), f"{port}/{MI100_BUS}", symlinks=True,
                    ignore=lambda d, names: ["driver", "iommu_group"])
    os.symlink("../../../../bus/pci/drivers/amdgpu", f"{port}/{MI100_BUS}/driver")
    os.symlink("../../../../kernel/iommu_groups/62", f"{port}/{MI100_BUS}/iommu_group")
    w(root, "sys/kernel/iommu_groups/62/type", read(root, "sys/kernel/iommu_groups/33/type"))
    w(port, f"{MI100_BUS}/device", "0x738c\n")
    w(port, f"{MI100_BUS}/class", "0x038000\n")
    for dev in ("0000:00:03.1", MI100_BUS):
        target = "0000:00:03.1" + ("" if dev == "0000:00:03.1" else f"/{dev}")
        os.symlink(f"../../../devices/pci0000:00/{target}", f"{root}/sys/bus/pci/devices/{dev}")
    shutil.copytree(f"{root}/{NODES}/2", f"{root}/{NODES}/3")
    props = read(root, f"{NODES}/3/properties")
    for old, new in (("gfx_target_version 100300", "gfx_target_version 90008"),
                     ("location_id 1280", "location_id 2048"),
                     ("drm_render_minor 128", "drm_render_minor 129"),
                     ("unique_id 6302735812738436402", f"unique_id {0xf980f88ef31631a2}")):
        assert old in props, old
        props = props.replace(old, new)
    w(root, f"{NODES}/3/properties", props)
    w(root, f"{NODES}/3/gpu_id", str(int(read(root, f"{NODES}/2/gpu_id")) + 1) + "\n")
    devices = section(BASE, "devices") + ("/dev/dri/card2 = c 226:2 0660 0:44\n"
                                          "/dev/dri/renderD129 = c 226:129 0660 0:109\n")
    return dst, root, devices


def visible_devices_none():
    dst, root, devices = rx6800xt_mi100("rw-rx6800xt-mi100-rocr-hip-visible-devices-1")
    env = dict(ROCM_ENV, ROCR_VISIBLE_DEVICES="1", HIP_VISIBLE_DEVICES="1")
    ini(dst, TOPIC,
        "An RX 6800 XT (gfx1030) and an MI100 (gfx908) under ROCm 6.2 with "
        "ROCR_VISIBLE_DEVICES=1 and HIP_VISIBLE_DEVICES=1 both set: ROCr exposes only the "
        "MI100, which HIP counts as device 0, so HIP's index 1 matches nothing and the process "
        "sees no GPU",
        VISIBLE_SOURCE, env,
        real_world(VISIBLE_URL, ">>> torch.cuda.is_available() False",
                   "ROCR_VISIBLE_DEVICES=1 leaves one GPU, and HIP_VISIBLE_DEVICES=1 names a "
                   "second one among those ROCr left",
                   "runtime.visible-devices-none", "runtime", "yes"),
        devices)


def visible_devices_rocr_only():
    dst, root, devices = rx6800xt_mi100("rw-rx6800xt-mi100-rocr-visible-devices-1")
    env = dict(ROCM_ENV, ROCR_VISIBLE_DEVICES="1")
    ini(dst, TOPIC,
        "The machine of rw-rx6800xt-mi100-rocr-hip-visible-devices-1 with ROCR_VISIBLE_DEVICES=1 "
        "alone (the thread's fix): the process sees the MI100",
        VISIBLE_SOURCE + "; ROCR_VISIBLE_DEVICES=1 alone as the fix sets it", env, "", devices)


# ROCm/legacy-rocm-build#1886: an MI50 whose programs hang; dmesg shows amdgpu's RAS report
# "uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!", a GPU reset, then the
# SMU no longer answering. The thread does not settle which part failed: the reporter saw
# the same with a second MI50 and meant to try another slot.
MI50_RAS_URL = "https://github.com/ROCm/legacy-rocm-build/issues/1886"


def mi50_ras():
    dst, root = fresh("rw-mi50-amdgpu-ras-uncorrectable", BASE)
    set_gpu(root, "66a1", "038000", "Vega 20 [Radeon Pro VII/Radeon Instinct MI50 32GB]",
            90006)
    drop_venv(root)
    w(root, "var/log/kern.log", "".join(f"{t} mi50 kernel: {l}\n" for t, l in (
        ("Jan  7 14:25:56", "amdgpu 0000:05:00.0: amdgpu: MEM ECC is active."),
        ("Jan  7 14:25:56", "amdgpu 0000:05:00.0: amdgpu: SRAM ECC is active."),
        ("Jan  7 14:25:56", "amdgpu 0000:05:00.0: amdgpu: uncorrectable hardware "
         "error(ERREVENT_ATHUB_INTERRUPT) detected!"),
        ("Jan  7 14:25:56", "amdgpu 0000:05:00.0: amdgpu: GPU reset begin!"),
        ("Jan  7 14:25:56", "[drm] UVD VCPU state may lost due to RAS ERREVENT_ATHUB_INTERRUPT"),
        ("Jan  7 14:25:59", "amdgpu 0000:05:00.0: amdgpu: Failed to send message 0x26, "
         "response 0x0"),
        ("Jan  7 14:25:59", "amdgpu: [powerplay] Failed to set soft min gfxclk !"),
        ("Jan  7 14:25:59", "amdgpu: [powerplay] Failed to upload DPM Bootup Levels!"),
        ("Jan  7 14:26:04", "amdgpu 0000:05:00.0: amdgpu: Failed to send message 0x7, "
         "response 0x0"),
        ("Jan  7 14:26:04", "amdgpu: [powerplay] [DisableAllSMUFeatures] Failed to disable "
         "all smu features!"),
        ("Jan  7 14:26:04", "amdgpu: [powerplay] [DisableDpmTasks] Failed to disable all smu "
         "features!"),
        ("Jan  7 14:26:04", "amdgpu: [powerplay] [PowerOffAsic] Failed to disable DPM!"))))
    ini(dst, TOPIC,
        "An AMD Radeon Instinct MI50 (Vega 20, gfx906; KFD gfx_target_version 90006) whose "
        "programs hang: amdgpu's RAS reports 'uncorrectable hardware error"
        "(ERREVENT_ATHUB_INTERRUPT) detected!', resets the GPU, and the SMU stops answering",
        "Rebuilt from " + MI50_RAS_URL + " (pasted: the reporter's dmesg -T lines from 'MEM "
        "ECC is active.' to '[PowerOffAsic] Failed to disable DPM!', kept verbatim with the "
        "bus 0000:e3:00.0 made the base's 0000:05:00.0 and dmesg's wall-clock stamps as a "
        "syslog prefix (host mi50); the reporter: 'this suggests a hardware error', the same "
        "with a second MI50, another slot to be tried: the thread does not settle which part "
        "failed); not in the report and placeholders: the PCI id 1002:66a1 and its pci.ids "
        "line (Debian 12's 'Vega 20 [Radeon Pro VII/Radeon Instinct MI50 32GB]'), class "
        "0x038000, KFD gfx_target_version 90006 (gfx906, LLVM AMDGPU processor table) on the "
        "base's KFD node 2, no ROCm release installed (the report names none), the kernel "
        "and OS of the base; everything else is the rx7600-rocm-torch-override fixture's "
        "(see its sources), without its venv",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(MI50_RAS_URL,
                   "amdgpu 0000:e3:00.0: amdgpu: uncorrectable hardware "
                   "error(ERREVENT_ATHUB_INTERRUPT) detected! ... amdgpu: GPU reset begin!",
                   "amdgpu's RAS reports an uncorrectable hardware error on the MI50 and "
                   "resets it; the programs on it hang (which part failed, GPU or slot, is "
                   "not settled)",
                   "hardware.ecc-uncorrectable", "hardware", "yes"),
        section(BASE, "devices"))


def rocm_libs(root, prefix, hip_version, hsa_version):
    """The HIP and HSA runtimes of the release at prefix as [elf] stand-ins with their SONAMEs
    and the links AMD's packages install (lib<name>.so -> lib<name>.so.N ->
    lib<name>.so.N.<minor>.<ROCm version code>), in place of any placeholder files."""
    for base, version in (("libamdhip64", hip_version), ("libhsa-runtime64", hsa_version)):
        major = version.split(".")[0]
        lib = f"{prefix}/lib"
        for n in os.listdir(f"{root}/{lib}") if os.path.isdir(f"{root}/{lib}") else []:
            if n.startswith(base + ".so"):
                os.unlink(f"{root}/{lib}/{n}")
        real = f"{base}.so.{version}"
        so(root, f"{lib}/{real}", f"{base}.so.{major}")
        link(root, f"{lib}/{base}.so.{major}", real)
        link(root, f"{lib}/{base}.so", f"{base}.so.{major}")


def two_releases_ld_library_path():
    """Two ROCm releases side by side: /opt/rocm names 6.2.0, an LD_LIBRARY_PATH set in the
    user's environment names 6.1.2's lib directory: ld.so gives the programs 6.1.2."""
    name = "amd-rx7900xtx-rocm612-ld-library-path"
    dst, root = rx7900xtx_rocm620(name)
    rocm_libs(root, "opt/rocm-6.2.0", "6.2.60200", "1.14.60200")
    rocm_libs(root, "opt/rocm-6.1.2", "6.1.60102", "1.13.60102")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")  # Ubuntu's, verbatim
    w(root, "etc/ld.so.conf.d/rocm.conf", "/opt/rocm/lib\n/opt/rocm/lib64\n")
    env = dict(ROCM_ENV)
    env["LD_LIBRARY_PATH"] = "/opt/rocm-6.1.2/lib"
    ini(dst, TOPIC,
        "Two ROCm releases on one RX 7900 XTX (gfx1100) machine: /opt/rocm -> "
        "/etc/alternatives/rocm -> /opt/rocm-6.2.0, and /opt/rocm-6.1.2 beside it; "
        "/etc/ld.so.conf.d/rocm.conf lists /opt/rocm/lib, but LD_LIBRARY_PATH names "
        "/opt/rocm-6.1.2/lib, so ld.so gives the programs ROCm 6.1.2's libamdhip64.so.6: the "
        "release judged is 6.1.2 (which lists gfx1100 as 6.2.0 does)",
        "the rx7600-rocm-torch-override fixture (its sources) made an RX 7900 XTX as "
        "amd-rx7900xtx-rocm62-healthy is, without its venv, with /opt/rocm-6.2.0 and its "
        "alternatives link from the rocm-6.2-toolkit fixture (its sources); "
        "/etc/ld.so.conf.d/rocm.conf with /opt/rocm/lib and /opt/rocm/lib64 as AMD's ROCm "
        "install guide ('Post-installation instructions': configure the system linker, then "
        "ldconfig) writes it, /etc/ld.so.conf Ubuntu's; ROCm 6.1.2 as AMD's multi-version "
        "packages install it in /opt/rocm-6.1.2 (no .info/version or headers here: its "
        "release is its directory name); the HIP and HSA runtimes of both releases are [elf] "
        "stand-ins with their real SONAMEs (libamdhip64.so.6, libhsa-runtime64.so.1) and file "
        "names lib<name>.so.<soversion>.<minor>.<ROCm version code> as the rocm-6.2-toolkit "
        "fixture has them; etc/ld.so.cache written by glibc's ldconfig -r over the tree; "
        "LD_LIBRARY_PATH set in the user's environment (by hand or a profile line), ROCM_PATH "
        "left at /opt/rocm",
        env, "", section(BASE, "devices"))
    ldso_cache(dst)


def write():
    healthy()
    mi100_firmware()
    pitcairn_no_kfd()
    mi210_override()
    render_group()
    dkms_not_for_running_kernel()
    dkms_rebooted()
    override_not_inherited()
    override_inherited()
    visible_devices_none()
    visible_devices_rocr_only()
    mi50_ras()
    two_releases_ld_library_path()
