# SPDX-License-Identifier: GPL-2.0-or-later
"""OpenCL on a machine with a GPU driver: what the ICD loader lists (the live session, through
the fake loader tests/fakes/fake-opencl.c scripted by the scenario's [opencl] sections) against
the ICD files, the render node and the user's groups. The trees are the Intel base of
realworld/intel.py (intel_base())."""
from realworld.common import (SRC_BASE, UBUNTU2004_OS_RELEASE, base_root, dpkg, ini, ldso_cache,
                              move_kernel, real_world, so, w)
from realworld.common import mk2
from realworld.driver import DEBIAN12, userspace
from realworld.intel import SRC_INTEL_BASE, devices, intel_base, kern_log, opencl_icd

TOPIC = "opencl"
FIXTURES = ("rw-intel-uhd630-opencl-no-render-group", "rw-intel-uhd630-opencl-render-group",
            "rw-debian-tesla-nvidia-icd-not-found", "rw-intel-uhd630-opencl-gmmlib-missing",
            "rw-intel-uhd630-opencl-gmmlib-installed")

OCL_ARGS = "--opencl-lib @FAKES@/libOpenCL.so.1 --vendor-timeout 2000"
# What the loader answers with Intel's ICD unable to open the render node: the compute runtime
# reports no platform without a device, so clGetPlatformIDs has none (CL_PLATFORM_NOT_FOUND_KHR,
# cl_khr_icd), and clinfo prints "Number of platforms 0" as in the report.
OCL_NONE = "[opencl]\nplatform_count = 0\n"
# After the fix: one platform, the compute runtime's, with the GPU as it names a Gen9 iGPU.
OCL_GPU = ("[opencl.platform.0]\nname = Intel(R) OpenCL HD Graphics\n"
           "vendor = Intel(R) Corporation\nversion = OpenCL 3.0 \nprofile = FULL_PROFILE\n\n"
           "[opencl.platform.0.device.0]\nname = Intel(R) Gen9 HD Graphics NEO\n"
           "vendor = Intel(R) Corporation\nversion = OpenCL 3.0 NEO \n"
           "driver_version = 20.30.17454\n")
KERNEL = "5.4.0-42-generic"
UHD630_SOURCE = (
    "Rebuilt from https://github.com/intel/compute-runtime/issues/350 (pasted: a laptop with "
    "UHD Graphics 630 on Ubuntu 20.04, intel-opencl-icd installed from "
    "ppa:intel-opencl/intel-opencl, `clinfo` printing 'Number of platforms 0', `ls "
    "/etc/OpenCL/vendors/` showing intel.icd; Intel's answer: 'You might be missing being part "
    "of the video/render groups to get access to the GPU'; the reporter: 'Adding users to the "
    "render group solves my issue'); not in the report and chosen here: the device id 8086:3e9b "
    "(CoffeeLake-H GT2 [UHD Graphics 630], a laptop's, as pci.ids names it) and subsystem, the "
    "PCI address (an iGPU's 0000:00:02.0 is the base tree's 0000:01:00.0), the focal kernel "
    "5.4.0-42-generic and 20.04.1 of August 2020, the DMC line of a Coffee Lake boot, the "
    "package versions (the PPA's compute runtime 20.30.17454, focal's ocl-icd-libopencl1 and "
    "clinfo), the platform and device names the runtime of that release gives a Gen9 GPU; the "
    "report's intel-cpu.icd is left out (it names a CPU runtime the thread does not show, and "
    "listed no platform either); ")
DMC_LOG = ["[drm] Finished loading DMC firmware i915/kbl_dmc_ver1_04.bin (v1.4)"]


def uhd630_laptop(name, in_render, host):
    """The UHD Graphics 630 laptop on Ubuntu 20.04.1 with i915 and its DMC firmware."""
    dst, root = intel_base(name, 0x3e9b, 0x2279, in_render=in_render, kernel=KERNEL)
    w(root, "proc/sys/kernel/osrelease", KERNEL + "\n")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE.replace("20.04.6", "20.04.1"))
    kern_log(root, host, DMC_LOG)
    return dst, root


def uhd630(name, in_render):
    dst, root = uhd630_laptop(name, in_render, "ye-luo-laptop")
    opencl_icd(root)
    dpkg(root, {"intel-opencl-icd": "20.30.17454-1~ppa1~focal", "ocl-icd-libopencl1":
                "2.2.11-1ubuntu1", "clinfo": "2.2.18.04.06-6"})
    return dst, root


def no_render_group():
    """intel/compute-runtime#350: intel-opencl-icd installed, clinfo lists no platform until
    the user joins render."""
    dst, root = uhd630("rw-intel-uhd630-opencl-no-render-group", in_render=False)
    ini(dst, TOPIC,
        "A laptop's UHD Graphics 630 (Coffee Lake, 8086:3e9b) on Ubuntu 20.04 with i915 bound "
        "and Intel's OpenCL ICD (intel-opencl-icd) installed: the user is in neither render nor "
        "video, so the compute runtime cannot open /dev/dri/renderD128 (0660 root:render) and "
        "clinfo prints 'Number of platforms 0'",
        UHD630_SOURCE + "the loader's answer through the fake one as the real one gives it with "
        "no platform; " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/intel/compute-runtime/issues/350",
            "clinfo: Number of platforms 0 (intel-opencl-icd installed, /etc/OpenCL/vendors: "
            "intel-cpu.icd intel.icd)",
            "the user is not in the render group, so Intel's OpenCL runtime cannot open the "
            "render node and the loader lists no platform; adding the user to render fixed it",
            "driver.no-permission", "driver", "yes"),
        devices(), OCL_NONE, args=OCL_ARGS)
    ldso_cache(dst)


def render_group():
    dst, root = uhd630("rw-intel-uhd630-opencl-render-group", in_render=True)
    ini(dst, TOPIC,
        "The rw-intel-uhd630-opencl-no-render-group laptop after the report's fix (the user "
        "added to render, and video, and logged in again): the loader lists Intel's platform "
        "with the GPU",
        UHD630_SOURCE + "the user's groups after `usermod -aG render,video`, the session's "
        "answers through the fake loader (one platform, the iGPU); " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        devices(), OCL_GPU, args=OCL_ARGS)
    ldso_cache(dst)


def stout_nvidia_icd():
    """illinois-scicomp/machine-shop-maintenance#68: NVIDIA's ICD names libnvidia-opencl.so.1,
    which the Debian Tesla packages put under nvidia/tesla/, off the loader's path; no other
    ICD drives the GPU, so OpenCL finds no NVIDIA platform (the admin fixed the path)."""
    name = "rw-debian-tesla-nvidia-icd-not-found"
    drv = "525.85.12"
    dst, root = base_root(name, 0x1db4, 0x1214, "Tesla V100-PCIE-16GB", drv)
    rel = "6.1.0-3-amd64"
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "etc/os-release", DEBIAN12)
    userspace(root, drv)
    for attr in ("current_link_speed", "max_link_speed"):  # a V100 PCIe board is Gen3
        w(root, f"sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/{attr}", "8.0 GT/s PCIe\n")
    w(root, "etc/OpenCL/vendors/nvidia.icd", "libnvidia-opencl.so.1\n")
    so(root, "usr/lib/x86_64-linux-gnu/nvidia/tesla/libnvidia-opencl.so.1",
       "libnvidia-opencl.so.1")
    ini(dst, TOPIC,
        "A Debian server with a Tesla GPU on NVIDIA's driver from Debian's Tesla packages: "
        "/etc/OpenCL/vendors/nvidia.icd names the bare libnvidia-opencl.so.1, which is only "
        "under /usr/lib/x86_64-linux-gnu/nvidia/tesla/, a directory neither ld.so.cache nor "
        "LD_LIBRARY_PATH searches: the ICD loader cannot open it, no other ICD drives the GPU, "
        "and OpenCL programs (pyopencl) find no NVIDIA platform",
        "Rebuilt from https://github.com/illinois-scicomp/machine-shop-maintenance/issues/68 "
        "(pasted: `find . -name libnvidia-opencl.so.1` under /usr finding only "
        "./lib/x86_64-linux-gnu/nvidia/tesla/libnvidia-opencl.so.1, and `cat "
        "/etc/OpenCL/vendors/nvidia.icd` printing libnvidia-opencl.so.1; the admin: 'Should be "
        "all fixed'); not in the report and chosen here: the GPU (a Tesla V100 PCIe, "
        "10de:1db4, its Gen3 link), the driver release (525.85.12, the Tesla branch of "
        "early 2023), Debian 12 "
        "and its 6.1.0-3-amd64 kernel (the thread names no release), the driver's libcuda and "
        "libnvidia-ml on the multiarch path, no other ICD file (the thread lists none); "
        "library files are [elf] stand-ins with the real SONAMEs, etc/ld.so.cache written by "
        "glibc's ldconfig -r over the tree; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/illinois-scicomp/machine-shop-maintenance/issues/68",
            "find . -name libnvidia-opencl.so.1: ./lib/x86_64-linux-gnu/nvidia/tesla/"
            "libnvidia-opencl.so.1; cat /etc/OpenCL/vendors/nvidia.icd: libnvidia-opencl.so.1",
            "NVIDIA's ICD file names libnvidia-opencl.so.1 by bare name, but the library is "
            "only in nvidia/tesla/, which the dynamic loader does not search, so the ICD loader "
            "skips NVIDIA's platform and no OpenCL platform drives the GPU; the admin fixed "
            "the ICD's path",
            "runtime.opencl-icd-library-missing", "runtime", "yes"),
        "[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
        "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n",
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none, NVIDIA\n")
    ldso_cache(dst)


# intel/compute-runtime#230: the compute runtime links gmmlib (DT_NEEDED libigdgmm.so.11)
# since commit e3cc20fd; built from source under /usr/local, with gmmlib missing or installed.
GMM_NEO = "/usr/local/lib/intel-opencl/libigdrcl.so"
GMM_SOURCE = (
    "Rebuilt from https://github.com/intel/compute-runtime/issues/230 (pasted: the "
    "maintainer's `ldd libigdrcl.so` without gmmlib installed, 'libigdgmm.so.11 => not found', "
    "and with it, 'libigdgmm.so.11 => /usr/local/lib64/libigdgmm.so.11'; his reason: since "
    "commit e3cc20fd the runtime is linked with gmmlib rather than dlopen()ing it, so gmmlib "
    "must be installed where the dynamic loader finds it); not in the report and chosen here: "
    "the machine (the rw-intel-uhd630-opencl-render-group laptop's UHD Graphics 630, "
    "8086:3e9b, Ubuntu 20.04.1, kernel 5.4.0-42-generic, the user in render and video), the "
    "runtime release 20.03.15346 built from source and installed under /usr/local as its "
    "CMake install does on Ubuntu (" + GMM_NEO + ", /etc/OpenCL/vendors/intel.icd naming "
    "it), gmmlib likewise under /usr/local/lib (the report's /usr/local/lib64 is a Fedora "
    "tree's), Ubuntu's /etc/ld.so.conf.d/libc.conf listing /usr/local/lib, the stand-in "
    "libigdrcl.so's only DT_NEEDED libigdgmm.so.11 (the report's libdl, libpthread, "
    "libstdc++, libm, libgcc_s and libc are left out: the tree has no C library), focal's "
    "ocl-icd-libopencl1 and clinfo, the ICD loader's answer through the fake loader (no "
    "platform while libigdrcl.so does not load; the Gen9 platform once it does); ")


def gmm_machine(name, gmm):
    dst, root = uhd630_laptop(name, True, "neo-laptop")
    w(root, "etc/ld.so.conf.d/libc.conf", "# libc default configuration\n/usr/local/lib\n")
    opencl_icd(root, lib=GMM_NEO, make=False)
    mk2.ELF.setdefault(root, []).append(
        (GMM_NEO, "so soname=libigdrcl.so needed=libigdgmm.so.11"))
    if gmm:
        so(root, "usr/local/lib/libigdgmm.so.11", "libigdgmm.so.11")
    dpkg(root, {"ocl-icd-libopencl1": "2.2.11-1ubuntu1", "clinfo": "2.2.18.04.06-6"})
    return dst, root


def gmmlib_missing():
    """intel/compute-runtime#230: libigdrcl.so installed, the gmmlib it links is not."""
    dst, root = gmm_machine("rw-intel-uhd630-opencl-gmmlib-missing", gmm=False)
    ini(dst, TOPIC,
        "A UHD Graphics 630 laptop on Ubuntu 20.04 with Intel's compute runtime built from "
        "source under /usr/local: /etc/OpenCL/vendors/intel.icd names "
        + GMM_NEO + ", which is there but needs libigdgmm.so.11 (gmmlib), installed nowhere: "
        "dlopen() fails, the ICD loader leaves Intel's platform out and clinfo lists no "
        "platform",
        GMM_SOURCE + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/intel/compute-runtime/issues/230",
            "ldd libigdrcl.so: libigdgmm.so.11 => not found (If you don't have gmmlib "
            "installed)",
            "the compute runtime's libigdrcl.so is linked with gmmlib (DT_NEEDED "
            "libigdgmm.so.11), which is not installed, so the library does not load and the "
            "ICD loader lists no Intel platform; installing gmmlib where the loader finds it "
            "fixes it",
            "runtime.opencl-icd-library-missing", "runtime", "yes"),
        devices(), OCL_NONE, args=OCL_ARGS)
    ldso_cache(dst)


def gmmlib_installed():
    dst, root = gmm_machine("rw-intel-uhd630-opencl-gmmlib-installed", gmm=True)
    ini(dst, TOPIC,
        "The rw-intel-uhd630-opencl-gmmlib-missing laptop with gmmlib built and installed "
        "under /usr/local/lib (ldconfig run): libigdrcl.so loads and the loader lists Intel's "
        "platform with the GPU",
        GMM_SOURCE + "gmmlib's libigdgmm.so.11 in /usr/local/lib and in ld.so.cache; "
        + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        devices(), OCL_GPU.replace("20.30.17454", "20.03.15346"), args=OCL_ARGS)
    ldso_cache(dst)


def write():
    gmmlib_missing()
    gmmlib_installed()
    no_render_group()
    render_group()
    stout_nvidia_icd()
