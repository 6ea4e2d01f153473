# SPDX-License-Identifier: GPL-2.0-or-later
"""Intel GPUs driven by xe whose firmware files are missing: the GuC (and DMC) blobs xe asks
for under xe/ and i915/ of linux-firmware are not installed, so xe cannot initialise the GT.
The machine is intel.py's Intel base tree with xe instead of i915."""
import os
import shutil

from realworld.common import ini, real_world, w
from realworld.intel import (GPU, SRC_INTEL_BASE, intel_base, kern_log, unread_kernel_and_os,
                             xe_modules)

TOPIC = "intel_xe_firmware"
FIXTURES = ("rw-intel-b50-xe-guc-missing-incus-891",)

URL_891 = "https://github.com/lxc/incus-os/issues/891"
# The report's journal lines (journalctl -k, the "kernel: xe 0000:0c:00.0: " prefix taken off),
# in the order pasted.
LOG_891 = [
    "Direct firmware load for i915/bmg_dmc.bin failed with error -2",
    "[drm] Failed to load DMC firmware i915/bmg_dmc.bin (-ENOENT). Disabling runtime power "
    "management.",
    "[drm] DMC firmware homepage: https://git.kernel.org/pub/scm/linux/kernel/git/firmware/"
    "linux-firmware.git",
    "Direct firmware load for xe/bmg_guc_70.bin failed with error -2",
    "[drm] Tile0: GT0: GuC firmware xe/bmg_guc_70.bin: fetch failed with error -ENOENT",
    "[drm] Tile0: GT0: GuC firmware(s) can be downloaded from https://git.kernel.org/pub/scm/"
    "linux/kernel/git/firmware/linux-firmware.git",
    "[drm] *ERROR* Tile0: GT0: Failed to initialize uC (-ENOENT)",
]


def b50_xe_guc_missing():
    """lxc/incus-os#891: an Arc Pro B50 under IncusOS, whose gpu-support image had no xe/
    firmware directory: xe's GuC firmware fetch fails with -ENOENT."""
    dst, root = intel_base("rw-intel-b50-xe-guc-missing-incus-891", 0xe212, 0x1114)
    # xe, not i915, is the driver that printed the lines; its probe fails with the GT
    # uninitialised, so nothing is bound to the GPU and there is no render node for it
    os.unlink(f"{root}/{GPU}/driver")
    shutil.rmtree(f"{root}/sys/bus/pci/drivers/i915")
    shutil.rmtree(f"{root}/sys/module/i915")
    w(root, "sys/module/xe/refcnt", "0\n")
    w(root, "sys/bus/pci/drivers/xe/bind", "")
    w(root, "proc/modules", xe_modules(0))
    unread_kernel_and_os(root)
    kern_log(root, "incus", LOG_891, driver="xe", start=4.1)
    ini(dst, TOPIC,
        "An Intel Arc Pro B50 (Battlemage G21, 8086:e212) under IncusOS, whose gpu-support "
        "image carried no xe/ firmware directory: xe asks for xe/bmg_guc_70.bin and "
        "i915/bmg_dmc.bin, both fetches fail with -ENOENT, the GT's microcontrollers are not "
        "initialised and the GPU is left without a driver",
        f"Rebuilt from {URL_891} (pasted: the seven journal lines of xe 0000:0c:00.0 with "
        "'Direct firmware load for xe/bmg_guc_70.bin failed with error -2' and '[drm] "
        "*ERROR* Tile0: GT0: Failed to initialize uC (-ENOENT)', the Arc Pro B50, the "
        "reporter's finding that xe looks for the files under xe/ of linux-firmware and the "
        "request to add them to the gpu-support image, closed); the B50's ids 8086:e212 "
        "subsystem 8086:1114 as igsc lists a B50 in "
        "https://github.com/Solaris17/Arc-Firmware/issues/10 (e212 is in the kernel's "
        "INTEL_BMG_IDS); not in the report and left out: the kernel release and os-release "
        "(unread here); chosen here: the PCI address (the report's 0000:0c:00.0 is the base "
        "tree's 0000:01:00.0, in sysfs and in the log lines alike), the log's host name and "
        "time stamps in rsyslog's format, xe's module list (that of intel.py's B580 on xe), "
        "and the probe failing (no driver link), which the report's fatal uC error implies "
        "but does not print; " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL_891,
            "xe 0000:0c:00.0: [drm] Tile0: GT0: GuC firmware xe/bmg_guc_70.bin: fetch failed "
            "with error -ENOENT",
            "the xe firmware files (xe/bmg_guc_70.bin, and i915/bmg_dmc.bin) are not installed "
            "on the system image: xe cannot load the B50's GuC, fails to initialise it, and "
            "the GPU is unusable until the files are added",
            "driver.intel-firmware-failed", "driver", "yes"),
        "")


def write():
    b50_xe_guc_missing()
