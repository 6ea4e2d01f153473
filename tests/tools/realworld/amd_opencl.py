# SPDX-License-Identifier: GPL-2.0-or-later
"""ROCm's OpenCL ICD on an AMD GPU, rebuilt from ROCm/legacy-rocm-build#1331: an ICD file left
behind by an older ROCm names a libamdocl64.so path that is not installed, beside the installed
release's own ICD. The tree is the rx7600-rocm-torch-override base of realworld/amd.py (one
AMD GPU behind the MI300X platform's PCI topology; its sources)."""
import os

from realworld.amd import BASE, drop_venv, kern_log, kernel_amdgpu, set_gpu
from realworld.common import (UBUNTU2004_OS_RELEASE, fresh, ini, ldso_cache, link, move_kernel,
                              read, real_world, section, so, w)

TOPIC = "amd_opencl"
FIXTURES = ("rw-radeon-vii-rocm310-stale-rocm31-icd",)

URL = "https://github.com/ROCm/legacy-rocm-build/issues/1331"
KERNEL = "5.4.0-58-generic"
ROCM = "/opt/rocm-3.10.0"
# The path the report's clinfo could not open, verbatim: ROCm 3.1's OpenCL library (the
# opencl/lib/x86_64 layout of the 3.x releases before 3.5), not on the machine.
STALE_LIB = "/opt/rocm-3.1.0/opencl/lib/x86_64/libamdocl64.so"


def stale_icd():
    """ROCm/legacy-rocm-build#1331: ROCm 3.10 installed over 3.9; clinfo prints a dlerror for
    ROCm 3.1's libamdocl64.so, then one platform (3.10's)."""
    name = FIXTURES[0]
    dst, root = fresh(name, BASE)
    set_gpu(root, "66af", "030000", "Vega 20 [Radeon VII]", 90006)
    drop_venv(root)
    kernel_amdgpu(root)
    move_kernel(root, "5.15.0-116-generic", KERNEL)
    # The base's log is the MI300X's under amdgpu-dkms: here the kernel's own amdgpu (5.4's DRM
    # interface 3.35.0, as rw-r9-370-pitcairn-no-kfd) initialising the Radeon VII for KFD.
    kern_log(root, "Dec 11 09:12:31 ws01", [
        "[    3.402117] [drm] amdgpu kernel modesetting enabled.",
        "[    4.118263] kfd kfd: added device 1002:66af",
        "[    4.127745] [drm] Initialized amdgpu 3.35.0 20150101 for 0000:05:00.0 on minor 0",
    ])
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE.replace("20.04.6", "20.04.1"))
    w(root, f"{ROCM[1:]}/.info/version", "3.10.0-27\n")
    link(root, "opt/rocm", ROCM)
    so(root, f"{ROCM[1:]}/opencl/lib/libamdocl64.so", "libamdocl64.so")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")  # Ubuntu's, verbatim
    w(root, "etc/ld.so.conf.d/10-rocm-opencl.conf", f"{ROCM}/opencl/lib\n")
    w(root, "etc/OpenCL/vendors/amdocl64.icd", "libamdocl64.so\n")
    w(root, "etc/OpenCL/vendors/amdocl64_30100.icd", STALE_LIB + "\n")
    ini(dst, TOPIC,
        "A Radeon VII (Vega 20, gfx906) under Ubuntu 20.04's amdgpu with ROCm 3.10 installed "
        "after 3.9 was removed: ROCm 3.10's amdocl64.icd loads, but a second ICD file left from "
        "an older ROCm names " + STALE_LIB + ", which is not installed; the ICD loader skips "
        "it (clinfo prints its dlerror line) and lists ROCm 3.10's platform alone. A warning",
        "Rebuilt from " + URL + " (pasted: 'apt update send rocm 3.9 to 3.10', `clinfo` "
        "printing 'dlerror: " + STALE_LIB + ": cannot open shared object file: No such file or "
        "directory' and 'Number of platforms: 1', the same after a full purge and reinstall; "
        "a commenter: the library is in /opt/rocm-3.10.0/opencl/lib/; AMD's answer: 'ROCm 3.1 "
        "is there somewhere in the machine'); not in the report and chosen here: the GPU (a "
        "Radeon VII, 1002:66af, pci.ids' Vega 20 line, KFD gfx_target_version 90006: a GPU "
        "ROCm 3.10 supports), Ubuntu 20.04.1 and its 5.4.0-58-generic kernel with the kernel's "
        "own amdgpu loaded (the platform ROCm's OpenCL lists reaches the GPU through it: "
        "/sys/module/amdgpu/initstate 'live', no version file) and its three kernel-log lines under a placeholder syslog prefix (the report names no release, GPU or driver package), ROCm 3.10.0 as "
        "/opt/rocm-3.10.0 (.info/version 3.10.0-27, /opt/rocm linking to it) with its OpenCL "
        "library in opencl/lib, /etc/OpenCL/vendors/amdocl64.icd naming the bare "
        "libamdocl64.so and /etc/ld.so.conf.d/10-rocm-opencl.conf listing that directory (the "
        "loader found 3.10's platform), the stale file's name amdocl64_30100.icd (the thread "
        "does not show which file names the path; later ROCm releases name theirs "
        "amdocl64_<release>.icd, amdocl64_40000.icd in "
        "illinois-scicomp/machine-shop-maintenance#57); library files are [elf] stand-ins "
        "with the real SONAME, etc/ld.so.cache written by glibc's ldconfig -r over the tree; "
        "everything else is the rx7600-rocm-torch-override fixture's (see its sources), "
        "without its venv",
        {"PATH": f"{ROCM}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL,
            "clinfo: dlerror: " + STALE_LIB + ": cannot open shared object file: No such file "
            "or directory; Number of platforms: 1",
            "an ICD file left from an older ROCm names ROCm 3.1's libamdocl64.so, which is not "
            "installed: the ICD loader skips it (the dlerror line) while ROCm 3.10's own ICD "
            "still gives the one platform",
            "runtime.opencl-icd-library-missing", "runtime", "no"),
        section(BASE, "devices"))
    ldso_cache(dst)


def write():
    stale_icd()
