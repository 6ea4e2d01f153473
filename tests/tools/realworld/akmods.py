# SPDX-License-Identifier: GPL-2.0-or-later
"""akmods (Fedora, RPM Fusion): the module that was never built for the running kernel."""
from realworld.common import FEDORA41_OS_RELEASE, fresh, ini, real_world, w

TOPIC = "akmods"
FIXTURES = ("fedora41-akmods-kernel-6.13",)


def fedora41_kernel_613():
    """Fedora 41: akmods cannot build nvidia 565.77 for kernel 6.13.4: no nvidia.ko."""
    dst, root = fresh("fedora41-akmods-kernel-6.13", "nvidia-gpu-no-driver")
    w(root, "etc/os-release", FEDORA41_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "6.13.4-200.fc41.x86_64\n")
    w(root, "etc/modprobe.d/blacklist-nouveau.conf", "blacklist nouveau\n")
    ini(dst, TOPIC,
        "Fedora 41 with RPM Fusion's akmod-nvidia 565.77: after the update to kernel "
        "6.13.4-200.fc41 `sudo akmods --force` fails ('Building and installing nvidia-kmod "
        "[FAILED]', make errors in /usr/src/kernels/6.13.4-200.fc41.x86_64), so there is no "
        "nvidia.ko for the running kernel, the module is not loaded and the GPU has no driver. "
        "The fix is Fedora's, not apt/DKMS: kernel-devel for the running kernel and akmods, "
        "with a driver that builds on 6.13 (570)",
        "Rebuilt from https://github.com/roworu/nvidia-fedora-secureboot/issues/2 (pasted: "
        "the dnf install line with kernel-devel and akmod-nvidia, the akmods output and the "
        "akmodsbuild make errors for 6.13.4-200.fc41.x86_64); that 565.77 does not build on "
        "6.13 while 570 does: https://github.com/NixOS/nixpkgs/issues/375730; Fedora 41's "
        "os-release verbatim; the blacklist-nouveau.conf the akmod-nvidia package installs "
        "(RPM Fusion Howto/NVIDIA); not in the report and taken from the nvidia-gpu-no-driver "
        "fixture (its sources): the GPU's PCI tree (an RTX 4090; the report does not name the "
        "GPU) and /proc/modules",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/roworu/nvidia-fedora-secureboot/issues/2",
            "Checking kmods exist for 6.13.4-200.fc41.x86_64 [  OK  ] / Building and "
            "installing nvidia-kmod [FAILED] / Building rpms failed; see "
            "/var/cache/akmods/nvidia/565.77-1-for-6.13.4-200.fc41.x86_64.failed.log for "
            "details",
            "akmods could not build nvidia 565.77 for kernel 6.13.4-200.fc41, so there is no "
            "nvidia.ko for the running kernel; a driver that builds on 6.13 (570) built with "
            "akmods fixes it",
            "driver.module-missing-for-kernel", "driver", "yes"))


def write():
    fedora41_kernel_613()
