# SPDX-License-Identifier: GPL-2.0-or-later
"""ROCm user space on the kernel's own amdgpu (no amdgpu-dkms/rock-dkms), rebuilt from
ROCm/legacy-rocm-build#1431: a Radeon VII (Vega 20) under openSUSE Tumbleweed's kernel 5.11.6
works with ROCm 4.0; upgraded to ROCm 4.1, rocminfo prints "HSA Error:  Incompatible kernel and
userspace, Vega 20 [Radeon VII] disabled. Upgrade amdgpu." (AMD: "ROCm 4.1 does not work on any
of the Linux kernels 5.10, 5.11, 5.12"; #1423: the kernel lacks the ECC patches ROCm 4.1 needs,
only on Vega 20). The tree is the rx7600-rocm-torch-override base of realworld/amd.py (one AMD
GPU behind the MI300X platform's PCI topology; its sources). Also a variant of
rw-rx6700xt-override-in-process (ROCm/legacy-rocm-build#2536) whose torch +rocm6.2 wheel, which
bundles its own ROCm, runs on an older amdgpu-dkms without a system ROCm."""
import shutil

from realworld.amd import (BASE, OVERRIDE_SOURCE, drop_venv, kern_log, kernel_amdgpu,
                           rx6700xt_venv, set_gpu)
from realworld.common import dpkg, fresh, ini, link, move_kernel, real_world, section, w

TOPIC = "amd_kernel"
FIXTURES = ("rw-radeon-vii-rocm41-kernel-5.11-amdgpu", "rw-radeon-vii-rocm40-kernel-5.11-amdgpu",
            "rx6700xt-torch-rocm62-wheel-on-amdgpu-dkms-rocm56")

URL = "https://github.com/ROCm/legacy-rocm-build/issues/1431"
KERNEL = "5.11.6-1-default"
# openSUSE Tumbleweed's os-release (its shape; the snapshot id is a placeholder of March 2021,
# when 5.11.6 was Tumbleweed's kernel).
TUMBLEWEED_OS_RELEASE = (
    'NAME="openSUSE Tumbleweed"\n# VERSION="20210317"\nID="opensuse-tumbleweed"\n'
    'ID_LIKE="opensuse suse"\nVERSION_ID="20210317"\nPRETTY_NAME="openSUSE Tumbleweed"\n'
    'ANSI_COLOR="0;32"\nCPE_NAME="cpe:/o:opensuse:tumbleweed:20210317"\n'
    'BUG_REPORT_URL="https://bugs.opensuse.org"\nHOME_URL="https://www.opensuse.org/"\n'
    'LOGO="distributor-logo"\n')
MACHINE = (
    "not in the report and placeholders: the uname suffix -default (Tumbleweed's default "
    "kernel flavour) of the reported 5.11.6-1, the os-release's snapshot id, the PCI id "
    "1002:66af and pci.ids' 'Vega 20 [Radeon VII]' line (the name rocminfo prints), KFD "
    "gfx_target_version 90006 (gfx906, LLVM AMDGPU processor table) on the base's KFD node 2, "
    "the kernel's own amdgpu (/sys/module/amdgpu/initstate 'live', no version file, no "
    "amdgpu-dkms modules in /proc/modules: the thread's 'upstream AMDGPU kernel module'), the "
    "one kernel-log line under a placeholder syslog prefix (the thread pastes no kernel log), "
    "/opt/rocm-{rel} with .info/version {info} and /opt/rocm linking to it (the build number "
    "is a placeholder); everything else is the rx7600-rocm-torch-override fixture's (see its "
    "sources), without its venv")


def radeon_vii(name, rel, info):
    dst, root = fresh(name, BASE)
    set_gpu(root, "66af", "030000", "Vega 20 [Radeon VII]", 90006)
    drop_venv(root)
    kernel_amdgpu(root)
    move_kernel(root, "5.15.0-116-generic", KERNEL)
    w(root, "etc/os-release", TUMBLEWEED_OS_RELEASE)
    kern_log(root, "Mar 26 10:02:11 linux-radeon7", [
        "[    3.402117] [drm] amdgpu kernel modesetting enabled.",
    ])
    w(root, f"opt/rocm-{rel}/.info/version", info + "\n")
    link(root, "opt/rocm", f"/opt/rocm-{rel}")
    return dst, root


def rocm41():
    dst, _ = radeon_vii(FIXTURES[0], "4.1.0", "4.1.0-25")
    ini(dst, TOPIC,
        "A Radeon VII (Vega 20, gfx906) on openSUSE Tumbleweed's kernel 5.11.6 and its own "
        "amdgpu, ROCm upgraded from 4.0 to 4.1.0: ROCm 4.1 needs Vega 20 patches that kernel's "
        "amdgpu lacks, and rocminfo disables the GPU ('HSA Error:  Incompatible kernel and "
        "userspace, Vega 20 [Radeon VII] disabled. Upgrade amdgpu.'). An error",
        "Rebuilt from " + URL + " (pasted: rocminfo's 'HSA Error:  Incompatible kernel and "
        "userspace, Vega 20 [Radeon VII] disabled. Upgrade amdgpu.' after upgrading ROCm 4.0 "
        "to 4.1, 'OpenSUSE Tumbleweed with kernel 5.11.6-1', the upstream AMDGPU kernel module; "
        "AMD: 'ROCm 4.1 does not work on any of the Linux kernels 5.10, 5.11, 5.12', and in "
        "https://github.com/ROCm/legacy-rocm-build/issues/1423 'Upstream needs the patches to "
        "properly report ECC', 'only on VG20 variant cards', the fix 'rock-dkms + rocm-dev both "
        "from 4.1'); " + MACHINE.format(rel="4.1.0", info="4.1.0-25"),
        {"PATH": "/opt/rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(URL,
                   "rocminfo: HSA Error:  Incompatible kernel and userspace, Vega 20 [Radeon "
                   "VII] disabled. Upgrade amdgpu.",
                   "ROCm 4.1 user space on the kernel's own amdgpu of 5.11, which lacks the "
                   "Vega 20 patches ROCm 4.1 needs: ROCr disables the Radeon VII; AMD's fix: "
                   "the 4.1 kernel driver (rock-dkms) with ROCm 4.1",
                   "driver.amdgpu-kmd-userspace", "driver", "yes"),
        section(BASE, "devices"))


def rocm40():
    dst, _ = radeon_vii(FIXTURES[1], "4.0.1", "4.0.1-25")
    ini(dst, TOPIC,
        "The machine of rw-radeon-vii-rocm41-kernel-5.11-amdgpu before its ROCm upgrade: ROCm "
        "4.0.1 on openSUSE Tumbleweed's kernel 5.11.6 and its own amdgpu, which AMD says works "
        "(4.0 and lower on 5.10-5.12): nothing to report about the driver pair",
        "Rebuilt from " + URL + " (the reporter's ROCm before the upgrade: 'after upgrading "
        "ROCm 4.0 to 4.1', and 'ROCm 4.0.1' named later in the thread; AMD: 'ROCm 4.0 and lower "
        "versions perfectly work with 5.10, 5.11 and 5.12 kernels'); "
        + MACHINE.format(rel="4.0.1", info="4.0.1-25"),
        {"PATH": "/opt/rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        "", section(BASE, "devices"))


# ROCm 5.6's amdgpu-dkms for Ubuntu 22.04 (kernel base 6.1.5, release number 50600; the build
# number is a placeholder in that format): AMD's matrix row for it is ROCm 5.4 .. 6.0.
DKMS_560 = "1:6.1.5.50600-1609671.22.04"


def bundled_rocm_newer_than_kmd():
    dst, root, env = rx6700xt_venv(FIXTURES[2])
    env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0"
    shutil.rmtree(f"{root}/opt")
    shutil.rmtree(f"{root}/etc/alternatives")
    env["PATH"] = env["PATH"].replace("/opt/rocm/bin:", "")
    del env["ROCM_PATH"]
    dpkg(root, {"amdgpu-dkms": DKMS_560, "amdgpu-dkms-firmware": DKMS_560})
    w(root, "sys/module/amdgpu/version", "6.1.5\n")
    ini(dst, TOPIC,
        "The machine of rw-rx6700xt-override-in-process (the override in the process) with no "
        "system ROCm and ROCm 5.6's amdgpu-dkms (amdgpu 6.1.5) as its kernel driver: the "
        "torch 2.5.1+rocm6.2 wheel runs on the ROCm 6.2 it bundles in torch/lib, which AMD "
        "does not support on ROCm 5.6's driver (5.4 .. 6.0). An error",
        "A constructed variant (no public report of a +rocm wheel newer than its amdgpu-dkms "
        "was found): " + OVERRIDE_SOURCE + "; HSA_OVERRIDE_GFX_VERSION=10.3.0 in the process "
        "as the fix puts it; chosen here: no /opt/rocm (the wheel needs none), amdgpu-dkms "
        + DKMS_560 + " in /var/lib/dpkg/status (ROCm 5.6's, build number a placeholder) and "
        "/sys/module/amdgpu/version 6.1.5, its kernel base",
        env, "", section(BASE, "devices"), section(BASE, "elf"))


def write():
    rocm41()
    rocm40()
    bundled_rocm_newer_than_kmd()
