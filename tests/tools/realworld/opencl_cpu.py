# SPDX-License-Identifier: GPL-2.0-or-later
"""OpenCL with only a CPU implementation registered on a machine with an Intel GPU
(runtime.opencl-cpu-only). The tree is the Intel base of realworld/intel.py (intel_base())
with the report's GPU, kernel and ICD."""
import os

from realworld.common import ini, ldso_cache, move_kernel, real_world, so, w
from realworld.intel import GPU, SRC_INTEL_BASE, devices, intel_base, opencl_icd

TOPIC = "opencl_cpu"
FIXTURES = ("rw-intel-ivb-opencl-sdk-cpu-only",)

KERNEL = "3.8.0-23-generic"
# Ubuntu 13.04's /etc/os-release in the layout of that time: no VERSION_CODENAME line yet,
# and the project's URLs still http://.
UBUNTU1304_OS_RELEASE = ('NAME="Ubuntu"\nVERSION="13.04, Raring Ringtail"\nID=ubuntu\n'
                         'ID_LIKE=debian\nPRETTY_NAME="Ubuntu 13.04"\nVERSION_ID="13.04"\n'
                         'HOME_URL="http://www.ubuntu.com/"\n'
                         'SUPPORT_URL="http://help.ubuntu.com/"\n'
                         'BUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n')
# The Intel SDK for OpenCL Applications 2013 (platform "Intel(R) OpenCL", "OpenCL 1.2 LINUX"):
# its CPU runtime, registered by /etc/OpenCL/vendors/intel64.icd.
SDK_LIB = "/opt/intel/opencl-1.2-3.0.67279/lib64/libintelocl.so"


def ivb_sdk_cpu_only():
    """luke-jr/bfgminer#249: the Intel SDK for OpenCL, CPU only, on an Ivy Bridge desktop."""
    name = FIXTURES[0]
    dst, root = intel_base(name, 0x0152, 0x2010, kernel=KERNEL)
    move_kernel(root, "6.8.0-45-generic", KERNEL)
    w(root, f"{GPU}/revision", "0x09\n")
    # An integrated GPU has no PCI Express capability, so sysfs gives it no link attributes.
    for attr in ("current_link_speed", "current_link_width", "max_link_speed", "max_link_width"):
        os.unlink(f"{root}/{GPU}/{attr}")
    w(root, "etc/os-release", UBUNTU1304_OS_RELEASE)
    # i915 of Linux 3.8 loads no GuC/HuC firmware on Gen7 and names no file: its one line.
    w(root, "var/log/kern.log",
      "Jun 28 23:58:11 mediabird kernel: [    2.914315] [drm] Initialized i915 1.6.0 "
      "20080730 for 0000:01:00.0 on minor 0\n")
    opencl_icd(root, "intel64.icd", SDK_LIB, make=False)
    so(root, SDK_LIB, "libintelocl.so")
    ini(dst, TOPIC,
        "An Ivy Bridge desktop (Xeon E3-1200 v2/3rd Gen Core processor Graphics Controller, "
        "8086:0152 rev 09, i915) on Ubuntu 13.04 with the Intel SDK for OpenCL Applications "
        "2013 installed: its runtime, the only registered ICD, drives the CPU only, so "
        "bfgminer finds the 'Intel(R) OpenCL' platform with no GPU ('Error -1: Getting Device "
        "IDs (num)', '0 GPU devices max detected'). A warning: OpenCL itself works, on the CPU",
        "Rebuilt from https://github.com/luke-jr/bfgminer/issues/249 (pasted: `bfgminer -n` "
        "printing 'CL Platform 0 vendor: Intel(R) Corporation', 'CL Platform 0 name: Intel(R) "
        "OpenCL', 'CL Platform 0 version: OpenCL 1.2 LINUX', 'Error -1: Getting Device IDs "
        "(num)', 'clDevicesNum returned error, no GPUs usable', '0 GPU devices max detected'; "
        "`lspci | grep VGA`: '00:02.0 VGA compatible controller: Intel Corporation Xeon "
        "E3-1200 v2/3rd Gen Core processor Graphics Controller (rev 09)' (pci.ids: 8086:0152); "
        "/etc/issue 'Ubuntu 13.04', `uname -a` 'Linux mediabird 3.8.0-23-generic #34-Ubuntu SMP "
        "Wed May 29 20:22:58 UTC 2013 x86_64'; the answers: 'Probably your Intel SDK only does "
        "CPU', 'Confirmed, Intel doesn't have GPU OpenCL support on Linux yet'); not in the "
        "report and chosen here: the SDK's 2013 install path and ICD file name (" + SDK_LIB +
        ", /etc/OpenCL/vendors/intel64.icd), i915 bound to the GPU (a desktop with the GPU as "
        "its display, the kernel's driver for Gen7) and its one boot line, the subsystem id, "
        "Ubuntu 13.04's os-release text, the GPU at the base tree's 0000:01:00.0 (an iGPU is "
        "0000:00:02.0) without the PCIe link attributes (an integrated GPU has no PCI Express "
        "capability), the user in video; "
        + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/luke-jr/bfgminer/issues/249",
            "CL Platform 0 name: Intel(R) OpenCL; Error -1: Getting Device IDs (num); 0 GPU "
            "devices max detected",
            "the only OpenCL implementation installed is the Intel SDK's CPU runtime; no GPU "
            "OpenCL implementation drives the Ivy Bridge GPU, so OpenCL lists the CPU alone "
            "and bfgminer finds no GPU",
            "runtime.opencl-cpu-only", "runtime", "no"),
        devices())
    ldso_cache(dst)


def write():
    ivb_sdk_cpu_only()
