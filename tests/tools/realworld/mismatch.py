# SPDX-License-Identifier: GPL-2.0-or-later
"""Driver/library version mismatch: the loaded kernel module and the user-space driver of two
versions (NVML's "Driver/library version mismatch", the kernel's "NVRM: API mismatch")."""
import os
import shutil

from realworld.common import (ARCH_OS_RELEASE, MULTIARCH_LD_CONF, SRC_BASE, base_root,
                              driver_libs, fresh, ini, ldso_cache, link, move_kernel, real_world,
                              section, ubuntu_os_release, w)

TOPIC = "mismatch"
FIXTURES = ("arch-dkms-module-stale-595", "nvml-userspace-older-570",
            "rw-rocky8-cuda-535-over-530-no-reboot")
BASE = "rtx4090-open-module"


def arch_dkms_stale():
    """Arch, linux-zen 7.0.12: user space 595.84, the DKMS module on disk and loaded 595.80."""
    dst, root = base_root("arch-dkms-module-stale-595", 0x2684, 0x167c,
                          "NVIDIA GeForce RTX 4090", "595.80", flavor="open")
    rel = "7.0.12-zen1-1-zen"
    w(root, "etc/os-release", ARCH_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", rel + "\n")
    shutil.rmtree(f"{root}/lib/modules")
    link(root, f"lib/modules/{rel}/build", f"/usr/lib/modules/{rel}/build")
    # Arch logs to the journal: no rsyslog text log (the base's kern.log is Ubuntu's)
    for f in ("kern.log", "syslog", "messages"):
        if os.path.exists(f"{root}/var/log/{f}"):
            os.unlink(f"{root}/var/log/{f}")
    w(root, "var/log/dmesg",
      "[    8.805842] r8169 0000:83:00.0: invalid VPD tag 0xff (size 0) at offset 0; assume "
      "missing optional EEPROM\n"
      "[    9.424670] NVRM: API mismatch: the client 'kwin_wayland' (pid 1005)\n"
      "               NVRM: has the version 595.84, but this kernel module has\n"
      "               NVRM: the version 595.80.  Please make sure that this\n"
      "               NVRM: kernel module and all NVIDIA driver components\n"
      "               NVRM: have the same version.\n")
    ini(dst, TOPIC,
        "An Arch Linux desktop on linux-zen 7.0.12 that upgraded the nvidia-all open-module "
        "DKMS packages from 595.80 to 595.84 and rebooted: the user space (kwin_wayland's "
        "libraries) is 595.84, but the nvidia.ko.zst DKMS left under /lib/modules/"
        f"{rel}/updates/dkms is still 595.80, and that is what booted: 'NVRM: API mismatch'. "
        "Another reboot loads 595.80 again; the module must be rebuilt for the running "
        "kernel (dkms) before a reboot helps",
        "Rebuilt from https://github.com/Frogging-Family/nvidia-all/issues/394 (pasted: the "
        "dmesg lines with the API mismatch, modinfo nvidia's filename /lib/modules/"
        f"{rel}/updates/dkms/nvidia.ko.zst and version 595.80, 'Kernel version 7.0.12', "
        "'Driver type open-gpu-kernel-modules', 'DKMS used? YES'); the dmesg lines are kept "
        "as pasted in /var/log/dmesg (gpuenv reads the ring buffer live, a text log under "
        "--sysroot); Arch Linux's os-release verbatim; the module is made at test time from "
        "[modules] (version 595.80, zstd, unsigned as DKMS builds it without a MOK); not in "
        f"the report and taken from the {BASE} fixture: the GPU (an RTX 4090; the "
        "report names none), /proc/modules and the device nodes; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/bin"},
        real_world(
            "https://github.com/Frogging-Family/nvidia-all/issues/394",
            "NVRM: API mismatch: the client 'kwin_wayland' (pid 1005) NVRM: has the version "
            "595.84, but this kernel module has NVRM: the version 595.80. / modinfo nvidia: "
            f"filename: /lib/modules/{rel}/updates/dkms/nvidia.ko.zst version: 595.80",
            "DKMS did not rebuild the 595.84 module for the running kernel: the nvidia.ko on "
            "disk is still 595.80, the loaded one, while the user space is 595.84; a reboot "
            "does not fix it, rebuilding the module (dkms) does",
            "driver.nvml-version-mismatch", "driver", "yes"),
        section(BASE, "devices"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 595.80, -, zstd\n")


def open_module_loaded(root, module, build):
    """The open kernel module <module> loaded (sysfs, /proc/driver/nvidia/version), built on
    Ubuntu 22.04."""
    w(root, "sys/module/nvidia/version", module + "\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {module}  {build}\n"
      "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04) \n")


def api_mismatch_lines(prefix, client, module):
    """nv.c's 'NVRM: API mismatch' message, one log line per line of it."""
    return "".join(f"{prefix}NVRM: {l}\n" for l in (
        f"API mismatch: the client has the version {client}, but",
        f"this kernel module has the version {module}.  Please",
        "make sure that this kernel module and all NVIDIA driver",
        "components have the same version."))


def multiarch_driver_libs(root, libs):
    """The .run installer's libraries in Debian's multiarch directory, ld.so.conf with it."""
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    driver_libs(root, libs, dev_links=("libcuda.so", "libnvidia-ml.so"))


def userspace_older_570():
    """tinygrad's p2p open module 570.124.06 under the 570.124.04 user space."""
    dst, root = fresh("nvml-userspace-older-570", BASE)
    rel, module, libs = "5.15.0-157-generic", "570.124.06", "570.124.04"
    w(root, "etc/os-release", ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy",
                                                logo=False))
    move_kernel(root, "6.8.0-45-generic", rel)
    build = "Release Build  (root@gpubox)  Wed Oct 15 09:12:44 UTC 2025"
    open_module_loaded(root, module, build)
    log = "Oct 15 09:20:0{} gpubox kernel: [{}] {}\n"
    w(root, "var/log/kern.log", "".join(log.format(*l) for l in (
        (2, "    4.902117", "nvidia: loading out-of-tree module taints kernel."),
        (2, "    4.931006", "nvidia-nvlink: Nvlink Core is being initialized, major device "
                           "number 509"),
        (2, "    4.933914", "nvidia 0000:01:00.0: vgaarb: VGA decodes changed: "
                           "olddecodes=io+mem,decodes=none:owns=io+mem"),
        (2, "    4.978519", f"NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  {module}"
                           f"  {build}"),
        (3, "    5.310552", "nvidia-modeset: Loading NVIDIA UNIX Open Kernel Mode Setting "
                           f"Driver for x86_64  {module}  Release Build  (root@gpubox)  Wed "
                           "Oct 15 09:12:51 UTC 2025"),
        (3, "    5.355612", "[drm] [nvidia-drm] [GPU ID 0x00000100] Loading driver"),
        (4, "    6.510003", "[drm] Initialized nvidia-drm 0.0.0 20160202 for 0000:01:00.0 on "
                           "minor 1"),
        (4, "    6.532871", "nvidia 0000:01:00.0: [drm] fb0: nvidia-drmdrmfb frame buffer "
                           "device"))) + api_mismatch_lines(
        "Oct 15 09:21:37 gpubox kernel: [   95.212034] ", libs, module))
    multiarch_driver_libs(root, libs)
    # the .run installer leaves its uninstaller (the thread's fix: `nvidia-uninstall`, then
    # the 570.124.06 user space)
    w(root, "usr/bin/nvidia-uninstall", b"", 0o755)
    with open(f"{dst}/../{BASE}/scenario.ini") as f:
        base_source = f.read().split("\n")[2][len("source = "):]
    ini(dst, TOPIC,
        "Reboot does not fix the mismatch: the user space is OLDER than the kernel module. The "
        f"user installed the {libs} driver with `NVIDIA-Linux-x86_64-{libs}.run "
        "--no-kernel-modules` (libraries under /usr/lib/x86_64-linux-gnu) and built and "
        f"installed the open kernel modules {module} (tinygrad's p2p branch, install.sh: make "
        f"modules && make modules_install into /lib/modules/{rel}/kernel/drivers/video, "
        f"unsigned), then rebooted: the loaded module and the one on disk are {module}, "
        f"libnvidia-ml and libcuda {libs}. nvidia-smi: \"Failed to initialize NVML: "
        "Driver/library version mismatch\" / \"NVML library version: 570.124\". Ubuntu "
        f"22.04.5, kernel {rel}, an RTX 4090 (the GPU the p2p branch is for)",
        "Rebuilt from https://github.com/tinygrad/open-gpu-kernel-modules/issues/47 (Ubuntu "
        f"22.04.5 LTS, uname -r {rel}; build commands `bash ./NVIDIA-Linux-x86_64-{libs}.run "
        f"--no-kernel-modules`, `cd open-gpu-kernel-modules-{module}-p2p; ./install.sh; "
        "reboot`; nvidia-smi printed \"Failed to initialize NVML: Driver/library version "
        "mismatch\" and \"NVML library version: 570.124\"; the cause the thread established: "
        f"{libs} != {module}, install the {module} user-space driver so NVML matches the "
        "module: 'uninstall nvidia driver(using command nvidia-uninstall) then install "
        f"{module}'); /usr/bin/nvidia-uninstall, which the .run leaves. Not in the report and taken from the {BASE} fixture this one copies "
        "(whose sources follow): the PCI tree of the RTX 4090, /proc/modules, the device "
        "nodes; the build host name and dates in the NVRM version lines are invented; the "
        "NVRM API-mismatch kernel-log lines are what kernel-open/nvidia/nv.c prints when a "
        f"{libs} client opens the {module} module. User-space libraries: [elf] (tiny "
        "gcc-built stand-ins made at test time by tests/tools/fixture_root.py, never "
        "committed; links and ld.so.cache: the writer, glibc's `ldconfig -r` over the tree "
        "with them made). The kernel module: [modules] (made at test time by "
        "tests/tools/mk-kmodule.sh, never committed). NVML/CUDA answers through the fakes as "
        "the real libraries answer a module of another version: nvmlInit_v2 "
        f"NVML_ERROR_LIB_RM_VERSION_MISMATCH, nvmlSystemGetNVMLVersion \"12.{libs}\" "
        "(nvidia-smi prints its driver part, 570.124), cuInit CUDA_ERROR_SYSTEM_DRIVER_MISMATCH. "
        "Template sources: " + base_source,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/tinygrad/open-gpu-kernel-modules/issues/47",
            "Failed to initialize NVML: Driver/library version mismatch / NVML library "
            "version: 570.124",
            f"the user-space driver ({libs}, installed with --no-kernel-modules) is older than "
            f"the open kernel module built and loaded from the p2p branch ({module}); rebooting "
            f"changes nothing, installing the {module} user-space driver fixes it",
            "driver.nvml-version-mismatch", "driver", "yes"),
        section(BASE, "devices"),
        f"[modules]\n/lib/modules/{rel}/kernel/drivers/video/nvidia.ko = {module}, -, none\n",
        f"[nvml]\ndriver_version = {libs}\nnvml_version = 12.{libs}\ncuda_driver_version = "
        "12080\nerror.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n",
        "[cuda]\ndriver_version = 12080\nerror.cuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
    ldso_cache(dst)


ROCKY88_OS_RELEASE = (
    'NAME="Rocky Linux"\nVERSION="8.8 (Green Obsidian)"\nID="rocky"\nID_LIKE="rhel centos '
    'fedora"\nVERSION_ID="8.8"\nPLATFORM_ID="platform:el8"\nPRETTY_NAME="Rocky Linux 8.8 '
    '(Green Obsidian)"\nANSI_COLOR="0;32"\nLOGO="fedora-logo-icon"\nCPE_NAME="cpe:/o:rocky:'
    'rocky:8:GA"\nHOME_URL="https://rockylinux.org/"\nBUG_REPORT_URL="https://bugs.rockylinux.'
    'org/"\nSUPPORT_END="2029-05-31"\nROCKY_SUPPORT_PRODUCT="Rocky-Linux-8"\n'
    'ROCKY_SUPPORT_PRODUCT_VERSION="8.8"\nREDHAT_SUPPORT_PRODUCT="Rocky Linux"\n'
    'REDHAT_SUPPORT_PRODUCT_VERSION="8.8"\n')


def rocky8_535_over_530():
    """stackhpc/ansible-slurm-appliance#287: the appliance's cuda role installed driver
    535.54.03 on a node running 530.30.02; the persistence daemon's start logs the API
    mismatch; a reboot fixed it (the module on disk was the new one)."""
    old, new = "530.30.02", "535.54.03"
    dst, root = base_root("rw-rocky8-cuda-535-over-530-no-reboot", 0x2684, 0x167c,
                          "NVIDIA GeForce RTX 4090", old)
    rel = "4.18.0-477.13.1.el8_8.x86_64"
    w(root, "etc/os-release", ROCKY88_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {old}  Wed Feb 22 04:11:39 UTC 2023\n"
      "GCC version:  gcc version 8.5.0 20210514 (Red Hat 8.5.0-18) (GCC) \n")
    os.unlink(f"{root}/var/log/kern.log")
    # rsyslog's /var/log/messages, as the report pastes it (#012: rsyslog's escape of the
    # message's newlines)
    w(root, "var/log/messages",
      f"Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version {new}, "
      f"but#012NVRM: this kernel module has the version {old}.  Please#012NVRM: make sure that "
      "this kernel module and all NVIDIA driver#012NVRM: components have the same version.\n")
    w(root, "etc/ld.so.conf", "include ld.so.conf.d/*.conf\n")
    driver_libs(root, new, libdir="usr/lib64")
    ini(dst, TOPIC,
        "A Rocky Linux 8.8 GPU node of a Slurm appliance whose cuda role installed the NVIDIA "
        f"driver {new} (NVIDIA's CUDA repository, DKMS) while {old} was loaded: starting the "
        "persistence daemon logs 'NVRM: API mismatch'; the new module is on disk, so a reboot "
        "loads it",
        "Rebuilt from https://github.com/stackhpc/ansible-slurm-appliance/issues/287 (pasted: "
        "the TASK [cuda : Enable NVIDIA Persistence Daemon] and the kernel line 'NVRM: API "
        f"mismatch: the client has the version {new}, but#012NVRM: this kernel module has the "
        f"version {old}…' as rsyslog wrote it, kept verbatim in /var/log/messages; 'It is fixed "
        "by a reboot'; /proc/driver/nvidia/version and /sys/module/nvidia/version agreed); the "
        "appliance's Rocky Linux 8 (8.8's os-release and kernel 4.18.0-477.13.1.el8_8 of June "
        "2023 are placeholders), the DKMS module under extra/ (where dkms installs on EL) and "
        f"the {new} user-space libraries in /usr/lib64 as NVIDIA's RPMs install them "
        "(etc/ld.so.cache written by glibc's `ldconfig -r` over the tree, Debian 12's 2.36); "
        "the module build line's date and the GPU (the base's RTX 4090; the report names none) "
        "are placeholders; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/stackhpc/ansible-slurm-appliance/issues/287",
            f"NVRM: API mismatch: the client has the version {new}, but#012NVRM: this kernel "
            f"module has the version {old}.",
            f"the {new} driver was installed while the {old} module stayed loaded; the new "
            "module is what boots next: 'It is fixed by a reboot' (the fix the appliance then "
            "made: reboot after installing the driver, PR #315)",
            "driver.nvml-version-mismatch", "driver", "yes"),
        section(BASE, "devices"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko.xz = {new}, -, xz\n")
    ldso_cache(dst)


def write():
    arch_dkms_stale()
    userspace_older_570()
    rocky8_535_over_530()
