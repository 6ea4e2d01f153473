# SPDX-License-Identifier: GPL-2.0-or-later
"""Intel GPUs (Arc A-series DG2, Data Center GPU Max): i915/xe bound, GuC firmware, render node
access, Level Zero, oneAPI, PyTorch XPU builds and intel-extension-for-pytorch. The base tree is
the rtx4090-open-module one with the NVIDIA GPU, its driver and its device nodes taken out and an
Intel GPU put in its place (intel_base()); what each report shows is added per fixture."""
import os
import shutil

from realworld.common import (dpkg, fresh, ini, ldso_cache, link, real_world, so, ubuntu_os_release, w,
                              MULTIARCH_LD_CONF)

TOPIC = "intel"
FIXTURES = ("intel-arc-a770-healthy", "rw-intel-a380-guc-fetch-failed",
            "rw-intel-xpu-nightly-no-level-zero", "rw-intel-max1550-no-render-group",
            "rw-intel-ipex110-oneapi-2023", "rw-intel-ipex28-torch27",
            "intel-arc-opencl-cpu-only", "intel-arc-opencl-icd-missing",
            "rw-intel-rkl-libze1-no-gpu-driver", "rw-intel-rkl-level-zero-session-no-driver",
            "rw-intel-rkl-level-zero-session-fixed", "rw-intel-b580-kernel-6.8",
            "rw-intel-b580-kernel-6.11-hwe", "rw-intel-flex170-force-probe")

GPU = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
SRC_INTEL_BASE = (
    "the sysfs PCI tree, /proc/self/status, /etc/group and os-release of the "
    "rtx4090-open-module fixture (see its sources) with its GPU replaced by an Intel one: "
    "vendor/device/subsystem ids as pci.ids lists them (8086:56a0 DG2 [Arc A770], 8086:56a5 DG2 "
    "[Arc A380], 8086:0bd5 Ponte Vecchio XT [Data Center GPU Max 1550]), class 0x030000 (0x038000 "
    "for Max), the driver link to ../../../../bus/pci/drivers/i915, the BARs of a DG2 board "
    "(16 MiB MMIO BAR0, 16 GiB prefetchable BAR2 with Resizable BAR) in pci-sysfs resource "
    "format; /proc/modules with i915 and its dependencies in proc(5) format; /sys/module/i915; "
    "/var/log/kern.log in rsyslog's format with i915's firmware lines as the kernel prints them "
    "(intel_uc_fw.c, intel_guc.c); /dev/dri/card0 226:0 0660 root:video and renderD128 226:128 "
    "0660 root:render as udev's 50-udev-default.rules makes them; /var/lib/dpkg/status stanzas "
    "in dpkg's format; etc/ld.so.cache written by glibc's ldconfig -r over the tree")
RESOURCE = ("0x0000000082000000 0x0000000082ffffff 0x0000000000140204\n"
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
            "0x0000006000000000 0x00000063ffffffff 0x000000000014220c\n" +
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 10)
MODULES = ("i915 4218880 38 - Live 0x0000000000000000\n"
           "drm_buddy 20480 1 i915, Live 0x0000000000000000\n"
           "ttm 110592 1 i915, Live 0x0000000000000000\n"
           "i2c_algo_bit 16384 1 i915, Live 0x0000000000000000\n"
           "drm_display_helper 237568 1 i915, Live 0x0000000000000000\n"
           "cec 94208 2 i915,drm_display_helper, Live 0x0000000000000000\n"
           "video 77824 1 i915, Live 0x0000000000000000\n"
           "snd_hda_intel 61440 4 - Live 0x0000000000000000\n")
HEALTHY_LOG = [
    "[drm] BAR2 resized to 16384M",
    "[drm] Local memory IO size: 0x00000003fa000000",
    "[drm] Local memory available: 0x00000003fa000000",
    "[drm] Finished loading DMC firmware i915/dg2_dmc_ver2_08.bin (v2.8)",
    "[drm] GT0: GuC firmware i915/dg2_guc_70.bin version 70.20.0",
    "[drm] GT0: HuC firmware i915/dg2_huc_gsc.bin version 7.10.15",
    "[drm] GT0: GUC: submission enabled",
    "[drm] GT0: GUC: SLPC enabled",
    "[drm] GT0: GUC: RC enabled",
    "[drm] GT0: HuC: authenticated for all workloads",
]


def devices(render_gid=992, n=1):
    lines = "".join(f"/dev/dri/card{i} = c 226:{i} 0660 0:44\n" for i in range(n))
    lines += "".join(f"/dev/dri/renderD{128 + i} = c 226:{128 + i} 0660 0:{render_gid}\n"
                     for i in range(n))
    return "[devices]\n" + lines


def kern_log(root, host, kernel_lines, bus="0000:01:00.0", driver="i915", start=3.9):
    text = ""
    for i, msg in enumerate(kernel_lines):
        text += (f"Oct  3 19:40:02 {host} kernel: [{start + i * 0.0011:12.6f}] "
                 f"{driver} {bus}: {msg}\n")
    w(root, "var/log/kern.log", text)


def intel_base(name, device, subsys, cls=0x030000, in_render=True, kernel="6.8.0-45-generic"):
    dst, root = fresh(name, "rtx4090-open-module")
    for p in ("etc/modprobe.d/nvidia-drm.conf", "etc/modprobe.d/nvidia-installer-disable-nouveau.conf",
              "sys/module/nvidia/version", "sys/bus/pci/drivers/nvidia/bind",
              "sys/bus/pci/devices/0000:01:00.1"):
        os.unlink(f"{root}/{p}")
    for d in ("proc/driver/nvidia", "sys/module/nvidia", "sys/bus/pci/drivers/nvidia",
              "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.1"):
        shutil.rmtree(f"{root}/{d}")
    for d in ("etc/modprobe.d", "proc/driver"):  # left empty: git keeps no empty directory
        if not os.listdir(f"{root}/{d}"):
            os.rmdir(f"{root}/{d}")
    w(root, f"{GPU}/vendor", "0x8086\n")
    w(root, f"{GPU}/device", f"0x{device:04x}\n")
    w(root, f"{GPU}/subsystem_vendor", "0x8086\n")
    w(root, f"{GPU}/subsystem_device", f"0x{subsys:04x}\n")
    w(root, f"{GPU}/class", f"0x{cls:06x}\n")
    w(root, f"{GPU}/resource", RESOURCE)
    link(root, f"{GPU}/driver", "../../../../bus/pci/drivers/i915")
    # sysfs makes it write-only (0200); git keeps 0644, and a 0200 file is one a writer
    # running as a user could not copy (fixture_root.prepare) when it rebuilds the tree
    w(root, "sys/bus/pci/drivers/i915/bind", "")
    w(root, "sys/module/i915/refcnt", "38\n")
    w(root, "proc/modules", MODULES)
    w(root, "proc/cmdline", f"BOOT_IMAGE=/boot/vmlinuz-{kernel} root=UUID=0b6b2a5e-3f0a-4c41-"
      "9a57-4d6c3c1e7f21 ro quiet splash vt.handoff=7\n")
    if in_render:
        with open(f"{root}/proc/self/status") as f:
            st = f.read().replace("Groups:\t4 24 27 30 46 100 114 1000 ",
                                  "Groups:\t4 24 27 30 44 46 100 114 992 1000 ")
        w(root, "proc/self/status", st)
        with open(f"{root}/etc/group") as f:
            gr = f.read().replace("video:x:44:\n", "video:x:44:maria\n").replace(
                "render:x:992:\n", "render:x:992:maria\n")
        w(root, "etc/group", gr)
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    return dst, root


def level_zero(root, loader="1.17.6", gpu_driver="1.3.29735.27", libdir="usr/lib/x86_64-linux-gnu"):
    if loader:
        so(root, f"{libdir}/libze_loader.so.{loader}", "libze_loader.so.1")
        link(root, f"{libdir}/libze_loader.so.1", f"libze_loader.so.{loader}")
    if gpu_driver:
        so(root, f"{libdir}/libze_intel_gpu.so.{gpu_driver}", "libze_intel_gpu.so.1")
        link(root, f"{libdir}/libze_intel_gpu.so.1", f"libze_intel_gpu.so.{gpu_driver}")


def opencl_icd(root, name="intel.icd", lib="/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so",
               make=True):
    w(root, f"etc/OpenCL/vendors/{name}", lib + "\n")
    if make:
        so(root, lib, os.path.basename(lib))


def dist(root, site, name, version, requires=(), files=()):
    di = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    req = "".join(f"Requires-Dist: {r}\n" for r in requires)
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + req)
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", "".join(f"{f},,\n" for f in files) +
      f"{name.replace('-', '_')}-{version}.dist-info/METADATA,,\n")


def torch_xpu(root, site, version, xpu=None, requires=(), lib=True):
    """torch's version.py as tools/generate_torch_version.py writes it (an xpu line when
    given), its dist-info, and for XPU builds torch/lib/libtorch_xpu.so (an [elf] stand-in);
    lib=False: the torch builds Intel paired with ipex before torch 2.5 (no XPU code)."""
    w(root, f"{site}/torch/version.py",
      "from typing import Optional\n\n"
      "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
      f"__version__ = '{version}'\ndebug = False\ncuda: Optional[str] = None\n"
      "git_version = '5a7ad2bfdc0dc8e8d3a0a5b2f1c7a43ad0a8e6e2'\n"
      "hip: Optional[str] = None\n" +
      (f"xpu: Optional[str] = '{xpu}'\n" if xpu else ""))
    w(root, f"{site}/torch/__init__.py", "")
    if lib:
        so(root, f"{site}/torch/lib/libtorch_xpu.so", "libtorch_xpu.so")
    dist(root, site, "torch", version, requires, ["torch/__init__.py", "torch/version.py"])


def oneapi(root, comps):
    for comp, versions in comps.items():
        for v in versions:
            w(root, f"opt/intel/oneapi/{comp}/{v}/env/vars.sh", "# oneAPI environment\n")
        link(root, f"opt/intel/oneapi/{comp}/latest", versions[-1])


def venv(root, prefix, pyver):
    w(root, f"{prefix}/pyvenv.cfg", f"home = /usr/bin\ninclude-system-site-packages = false\n"
      f"version = {pyver}\n")
    link(root, f"{prefix}/bin/python3", f"/usr/bin/python{pyver.rsplit('.', 1)[0]}")
    link(root, f"{prefix}/bin/python", "python3")
    return f"{prefix}/lib/python{pyver.rsplit('.', 1)[0]}/site-packages"


def venv_env(prefix):
    return {"PATH": f"{prefix}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "VIRTUAL_ENV": prefix, "HOME": "/home/user"}


def intel_repo_stack(root, host, log, loader, neo, suffix):
    """i915's boot lines, and the compute stack of Intel's package repository
    (dgpu-docs.intel.com): level-zero (the loader), intel-level-zero-gpu and intel-opencl-icd
    (the compute runtime "NEO" of release <neo>, one version for both), their dpkg stanzas
    with the repository's <suffix>, the ICD file."""
    gpu = "1.3." + ".".join(neo.split(".")[2:])  # 24.22.29735.27 -> 1.3.29735.27
    kern_log(root, host, log)
    level_zero(root, loader=loader, gpu_driver=gpu)
    opencl_icd(root)
    dpkg(root, {"intel-opencl-icd": f"{neo}{suffix}", "intel-level-zero-gpu": f"{gpu}{suffix}",
                "level-zero": f"{loader}{suffix}"})


def healthy():
    dst, root = intel_base("intel-arc-a770-healthy", 0x56a0, 0x1020)
    intel_repo_stack(root, "maria-ws", HEALTHY_LOG, "1.17.6", "24.22.29735.27", "-914~22.04")
    site = venv(root, "/home/user/xpu", "3.12.3")
    torch_xpu(root, site, "2.8.0+xpu", "20250303",
              ["intel-cmplr-lib-rt==2025.1.1", "intel-sycl-rt==2025.1.1"])
    dist(root, site, "intel-cmplr-lib-rt", "2025.1.1")
    dist(root, site, "intel-sycl-rt", "2025.1.1")
    ini(dst, TOPIC,
        "A healthy Intel Arc A770 (DG2, 8086:56a0) workstation on Ubuntu 24.04 with kernel "
        "6.8: i915 bound, DMC/GuC/HuC firmware loaded (GuC submission on, HuC authenticated), "
        "the user in render and video, Level Zero (level-zero 1.17.6) with Intel's GPU driver "
        "(intel-level-zero-gpu), the OpenCL ICD, and torch 2.8.0+xpu with its oneAPI runtime "
        "wheels in a venv: doctor judges driver, runtime and framework fine",
        "Constructed from Intel's documented stack (dgpu-docs.intel.com client GPU installation: "
        "intel-opencl-icd, intel-level-zero-gpu, level-zero; PyTorch 'Getting Started on Intel "
        "GPU': pip install torch --index-url https://download.pytorch.org/whl/xpu, whose wheel "
        "requires intel-cmplr-lib-rt and intel-sycl-rt); the package versions and the xpu value "
        "('20250303', the DPC++ compiler date version a 2025.1 build writes) are chosen here; " +
        SRC_INTEL_BASE, venv_env("/home/user/xpu"), "", devices())
    ldso_cache(dst)


def guc_fetch_failed():
    """intel-gpu/intel-gpu-i915-backports#41: an A380 on 5.17.0-1019-oem with the backported
    i915, whose GuC firmware file is not there."""
    dst, root = intel_base("rw-intel-a380-guc-fetch-failed", 0x56a5, 0x1021,
                           kernel="5.17.0-1019-oem")
    w(root, "proc/sys/kernel/osrelease", "5.17.0-1019-oem\n")
    w(root, "etc/os-release", ubuntu_os_release("22.04.1", "Jammy Jellyfish", "jammy"))
    w(root, "etc/modprobe.d/i915.conf", "options i915 enable_guc=2\n")
    kern_log(root, "arc", [
        "[drm] Finished loading DMC firmware i915/dg2_dmc_ver2_07.bin (v2.7)",
        "Direct firmware load for i915/dg2_guc_70.2.0.bin failed with error -2",
        "[drm] GuC firmware i915/dg2_guc_70.2.0.bin: fetch failed with error -2",
        "[drm] GuC firmware(s) can be downloaded from https://git.kernel.org/pub/scm/linux/"
        "kernel/git/firmware/linux-firmware.git/tree/i915",
    ], bus="0000:01:00.0", start=12.224976)
    ini(dst, TOPIC,
        "An Arc A380 (DG2, 8086:56a5) on Ubuntu 22.04 with the 5.17.0-1019-oem kernel and "
        "Intel's backported i915 (options i915 enable_guc=2): i915 asks for "
        "i915/dg2_guc_70.2.0.bin, which is not in /lib/firmware (fetch failed with error -2, "
        "ENOENT), so the GT has no GuC and the desktop does not start",
        "Rebuilt from https://github.com/intel-gpu/intel-gpu-i915-backports/issues/41 (pasted: "
        "the dmesg lines 'Direct firmware load for i915/dg2_guc_70.2.0.bin failed with error -2', "
        "'[drm] GuC firmware i915/dg2_guc_70.2.0.bin: fetch failed with error -2', the DMC line, "
        "the 5.17.0-1019-oem kernel, the A380 and 'options i915 enable_guc=2' in "
        "/etc/modprobe.d/i915.conf); not in the report and chosen here: the PCI address "
        "(the thread's 0000:03:00.0 is the base tree's 0000:01:00.0 here, in sysfs and in the "
        "log lines alike), the subsystem id; " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/intel-gpu/intel-gpu-i915-backports/issues/41",
            "i915 0000:03:00.0: [drm] GuC firmware i915/dg2_guc_70.2.0.bin: fetch failed with "
            "error -2",
            "the GuC firmware file the backported i915 asks for (i915/dg2_guc_70.2.0.bin) is not "
            "installed: i915 runs the A380 without GuC, and the desktop does not start",
            "driver.intel-firmware-failed", "driver", "yes"),
        devices())


DEBIAN12_OS_RELEASE = (
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
    'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
    'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
    'BUG_REPORT_URL="https://bugs.debian.org/"\n')


def xpu_nightly_no_level_zero():
    """pytorch/pytorch#135867: `pip install --pre torch` from the XPU nightly index in the
    python:3.10 image; import torch fails on libze_loader.so.1."""
    dst, root = fresh("rw-intel-xpu-nightly-no-level-zero", "container-cuda12.4-on-r535")
    shutil.rmtree(f"{root}/sys")  # the host's nvidia module was all of it
    w(root, "etc/os-release", DEBIAN12_OS_RELEASE)
    w(root, "usr/local/bin/python3.10", "", 0o755)
    link(root, "usr/local/bin/python3", "python3.10")
    link(root, "usr/local/bin/python", "python3")
    site = "/usr/local/lib/python3.10/site-packages"
    torch_xpu(root, site, "2.6.0.dev20240920+xpu",
              requires=["pytorch-triton-xpu==3.1.0+91b14bf559; platform_system == \"Linux\""])
    dist(root, site, "pytorch-triton-xpu", "3.1.0+91b14bf559")
    for name, ver in (("mpmath", "1.3.0"), ("typing-extensions", "4.12.2"), ("sympy", "1.13.1"),
                      ("packaging", "22.0"), ("networkx", "3.3"), ("MarkupSafe", "2.1.5"),
                      ("fsspec", "2024.6.1"), ("filelock", "3.13.1"), ("jinja2", "3.1.4")):
        dist(root, site, name, ver)
    ini(dst, TOPIC,
        "docker run python:3.10 (Debian 12) with `pip install --pre torch --index-url "
        "https://download.pytorch.org/whl/nightly/xpu/`: torch 2.6.0.dev20240920+xpu installs, "
        "and `import torch` fails with 'libze_loader.so.1: cannot open shared object file': the "
        "Level Zero loader belongs to the Intel GPU driver packages, which the image does not have",
        "Rebuilt from https://github.com/pytorch/pytorch/issues/135867 (pasted: the docker run "
        "command, the pip install line with torch-2.6.0.dev20240920+xpu and pytorch-triton-xpu-"
        "3.1.0+91b14bf559 and the other packages it installed, the ImportError; the maintainer: "
        "'libze_loader.so.1 is part of the Intel GPU driver'); the container files (/.dockerenv, "
        "/proc/1/cgroup, /proc/self/mountinfo) of the container-cuda12.4-on-r535 fixture without "
        "its host's nvidia module; python:3.10's layout (/usr/local/bin/python3.10, "
        "/usr/local/lib/python3.10/site-packages) and Debian 12's os-release; torch's "
        "version.py without an xpu line and torch/lib/libtorch_xpu.so (an [elf] stand-in), "
        "chosen here",
        {"PATH": "/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
         "PYTHON_VERSION": "3.10.15", "HOME": "/root"},
        real_world(
            "https://github.com/pytorch/pytorch/issues/135867",
            "ImportError: libze_loader.so.1: cannot open shared object file: No such file or "
            "directory",
            "the XPU build of torch links libze_loader.so.1, the Level Zero loader, which comes "
            "with the Intel GPU driver packages and is not in the python:3.10 image",
            "runtime.level-zero-missing", "runtime", "yes"))


def max1550_no_render_group():
    """intel/intel-extension-for-pytorch#625: two Data Center GPU Max 1550 with IPEX 2.1.30 and
    oneAPI 2024.1: no XPU device until the user joins render and video."""
    dst, root = intel_base("rw-intel-max1550-no-render-group", 0x0bd5, 0x0000, cls=0x038000,
                           in_render=False, kernel="5.15.0-107-generic")
    w(root, "proc/sys/kernel/osrelease", "5.15.0-107-generic\n")
    w(root, "etc/os-release", ubuntu_os_release("22.04.4", "Jammy Jellyfish", "jammy"))
    intel_repo_stack(root, "DUT7275PVCMella", [
        "[drm] GT0: GuC firmware i915/pvc_guc_70.bin version 70.20.0",
        "[drm] GT0: GUC: submission enabled",
        "[drm] GT1: GuC firmware i915/pvc_guc_70.bin version 70.20.0",
        "[drm] GT1: GUC: submission enabled",
    ], "1.16.15", "24.05.28454.17", "-821~22.04")
    oneapi(root, {"compiler": ["2024.1"], "mkl": ["2024.1"]})
    site = venv(root, "/home/user/miniforge3/envs/py311", "3.11.9")
    torch_xpu(root, site, "2.1.0.post2+cxx11.abi", lib=False)
    dist(root, site, "intel-extension-for-pytorch", "2.1.30+xpu")
    ini(dst, TOPIC,
        "Intel Data Center GPU Max 1550 (Ponte Vecchio, 8086:0bd5) with IPEX 2.1.30+xpu, torch "
        "2.1.0.post2+cxx11.abi and oneAPI 2024.1: torch.xpu.device_count() is 0 because the user "
        "is in neither render nor video, so /dev/dri/renderD128 (0660 root:render) cannot be "
        "opened; `usermod -aG render,video` makes the device appear",
        "Rebuilt from https://github.com/intel/intel-extension-for-pytorch/issues/625 (pasted: "
        "'no XPU device found with IPEX-v2.1.30-xpu and oneAPI2024.1 releases running with "
        "MAX-1550', the fix 'sudo usermod -aG video $USER; sudo usermod -aG render $USER', then "
        "'torch version 2.1.0.post2+cxx11.abi', 'IPEX version 2.1.30+git8bd78d6', 'xpu "
        "device_count 2', the host DUT7275PVCMella, the user gta and a py311 environment); not in "
        "the report and chosen here: one of the two GPUs in the base's slot, the Ubuntu 22.04 "
        "kernel, the Level Zero and compute runtime versions of Intel's LTS 821 release, the "
        "miniforge prefix; " + SRC_INTEL_BASE,
        venv_env("/home/user/miniforge3/envs/py311"),
        real_world(
            "https://github.com/intel/intel-extension-for-pytorch/issues/625",
            "xpu device_count 0 (IPEX 2.1.30+xpu, oneAPI 2024.1, Max 1550)",
            "the user is not in the render and video groups, so Level Zero cannot open "
            "/dev/dri/renderD* and lists no GPU; adding the user to both groups fixed it",
            "driver.no-permission", "driver", "yes"),
        devices())
    ldso_cache(dst)


def ipex110_oneapi2023():
    """intel/intel-extension-for-pytorch#280: ipex 1.10.200+gpu after oneAPI went 2022 -> 2023
    by apt: libmkl_sycl.so.2 is gone."""
    dst, root = intel_base("rw-intel-ipex110-oneapi-2023", 0x56a0, 0x1020,
                           kernel="5.15.0-56-generic")
    w(root, "proc/sys/kernel/osrelease", "5.15.0-56-generic\n")
    w(root, "etc/os-release", ubuntu_os_release("22.04.1", "Jammy Jellyfish", "jammy"))
    intel_repo_stack(root, "spain", HEALTHY_LOG[3:7], "1.8.8", "22.43.24595.35",
                     "+i538~22.04")
    oneapi(root, {"compiler": ["2023.0.0"], "mkl": ["2023.0.0"]})
    site = venv(root, "/home/user/env", "3.9.16")
    torch_xpu(root, site, "1.10.0a0+git3d5f2d4", lib=False)
    dist(root, site, "intel-extension-for-pytorch", "1.10.200+gpu")
    ini(dst, TOPIC,
        "Ubuntu 22.04 with intel-extension-for-pytorch 1.10.200+gpu, whose guide names oneAPI "
        "2022.3: a nightly apt upgrade moved the oneAPI packages to 2023.0.0, whose oneMKL "
        "has libmkl_sycl.so.3 only, and `import intel_extension_for_pytorch` fails on "
        "libmkl_sycl.so.2",
        "Rebuilt from https://github.com/intel/intel-extension-for-pytorch/issues/280 (pasted: "
        "'ImportError: libmkl_sycl.so.2: cannot open shared object file', the update from "
        "oneAPI 2022.* to 2023.* by apt on Ubuntu 22.04, setvars.sh sourced, the find output "
        "with /opt/intel/oneapi/mkl/2023.0.0, the 1.10.200+gpu installation guide, the host "
        "spain); torch 1.10.0a0+git3d5f2d4 is the torch that guide installs (the same torch as "
        "in issue 281's pip list); not in the report and chosen here: the GPU (an Arc A770), the "
        "compute runtime of Intel's 22.43 release, the venv and Python 3.9; " + SRC_INTEL_BASE,
        venv_env("/home/user/env"),
        real_world(
            "https://github.com/intel/intel-extension-for-pytorch/issues/280",
            "ImportError: libmkl_sycl.so.2: cannot open shared object file: No such file or "
            "directory",
            "ipex 1.10.200+gpu is built against oneAPI 2022.3 (oneMKL's libmkl_sycl.so.2); the "
            "apt upgrade left only oneAPI 2023.0.0, whose oneMKL ships libmkl_sycl.so.3",
            "framework.ipex-oneapi-mismatch", "framework", "yes"),
        devices())
    ldso_cache(dst)


def ipex28_torch27():
    """intel/intel-extension-for-pytorch#865: ipex 2.8 with torch 2.7.1."""
    dst, root = intel_base("rw-intel-ipex28-torch27", 0x56a0, 0x1020)
    intel_repo_stack(root, "maria-ws", HEALTHY_LOG, "1.17.6", "24.22.29735.27", "-914~22.04")
    site = venv(root, "/home/user/xpu", "3.12.3")
    torch_xpu(root, site, "2.7.1+xpu", "20250303")
    dist(root, site, "intel-extension-for-pytorch", "2.8.10+xpu")
    ini(dst, TOPIC,
        "intel-extension-for-pytorch 2.8.10+xpu next to torch 2.7.1+xpu: `import "
        "intel_extension_for_pytorch` fails, ipex 2.8 being built for PyTorch 2.8",
        "Rebuilt from https://github.com/intel/intel-extension-for-pytorch/issues/865 (pasted: "
        "'Error when PyTorch version does not match IPEX version', 'torch 2.7.1', 'ipex 2.8', "
        "the import lines; Intel: a known issue of the version check, fixed in the XPU branch); "
        "not in the report and chosen here: the XPU builds (2.7.1+xpu, 2.8.10+xpu), the Arc A770 "
        "machine of intel-arc-a770-healthy; " + SRC_INTEL_BASE,
        venv_env("/home/user/xpu"),
        real_world(
            "https://github.com/intel/intel-extension-for-pytorch/issues/865",
            "import intel_extension_for_pytorch fails (torch 2.7.1, ipex 2.8)",
            "ipex 2.8 is built for PyTorch 2.8 and refuses, or fails with, torch 2.7.1",
            "framework.ipex-torch-mismatch", "framework", "yes"),
        devices())
    ldso_cache(dst)


def opencl_cpu_only():
    dst, root = intel_base("intel-arc-opencl-cpu-only", 0x56a0, 0x1020)
    kern_log(root, "maria-ws", HEALTHY_LOG)
    opencl_icd(root, "pocl.icd", "libpocl.so.2", make=False)
    so(root, "usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0", "libpocl.so.2")
    link(root, "usr/lib/x86_64-linux-gnu/libpocl.so.2", "libpocl.so.2.10.0")
    dpkg(root, {"pocl-opencl-icd": "3.1-3+deb12u1", "libpocl2": "3.1-3+deb12u1"})
    ini(dst, TOPIC,
        "An Arc A770 with i915 and its firmware loaded where only PoCL (pocl-opencl-icd, CPU "
        "devices) is registered as an OpenCL ICD: OpenCL programs run on the CPU; the GPU's ICD "
        "(intel-opencl-icd) is not installed. No compute framework: a warning, not a failure",
        "Constructed (warning only, no public report needed): Debian's pocl-opencl-icd installs "
        "/etc/OpenCL/vendors/pocl.icd naming libpocl.so.2 (its package file list); " +
        SRC_INTEL_BASE, {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        "", devices())
    ldso_cache(dst)


def opencl_icd_missing():
    dst, root = intel_base("intel-arc-opencl-icd-missing", 0x56a0, 0x1020)
    kern_log(root, "maria-ws", HEALTHY_LOG)
    opencl_icd(root, make=False)
    # Mesa's Rusticl (mesa-opencl-icd) still drives the Arc through iris once RUSTICL_ENABLE
    # names the driver (Mesa docs/rusticl.rst), so one OpenCL platform is left for the GPU.
    opencl_icd(root, "rusticl.icd", "libRusticlOpenCL.so.1", make=False)
    so(root, "usr/lib/x86_64-linux-gnu/libRusticlOpenCL.so.1.0.0", "libRusticlOpenCL.so.1")
    link(root, "usr/lib/x86_64-linux-gnu/libRusticlOpenCL.so.1", "libRusticlOpenCL.so.1.0.0")
    dpkg(root, {"ocl-icd-libopencl1": "2.3.1-1", "mesa-opencl-icd": "24.0.5-1ubuntu1"})
    ini(dst, TOPIC,
        "An Arc A770 with i915 and its firmware loaded: /etc/OpenCL/vendors/intel.icd names "
        "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so, which is gone (intel-opencl-icd "
        "removed, its conffile left): the ICD loader leaves Intel's platform out, while Mesa's "
        "Rusticl (rusticl.icd, RUSTICL_ENABLE=iris) still drives the GPU. A warning",
        "Constructed (warning only, no public report needed): intel-opencl-icd's ICD file and "
        "library path as Ubuntu's package installs them, mesa-opencl-icd's rusticl.icd naming "
        "libRusticlOpenCL.so.1 (Ubuntu 24.04's package); " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "RUSTICL_ENABLE": "iris"}, "", devices())
    ldso_cache(dst)


RKL_SOURCE = (
    "Rebuilt from https://github.com/intel/compute-runtime/issues/832 (pasted: "
    "ZE_ENABLE_LOADER_DEBUG_TRACE=1 sycl-ls with 'Load Library of libze_intel_gpu.so.1 "
    "failed with libze_intel_gpu.so.1: cannot open shared object file', the [opencl:gpu] "
    "line of the UHD Graphics 750 with NEO 23.43.027642, `apt search libze` on noble "
    "showing libze1 1.16.1-1build1 installed and libze-intel-gpu1 23.43.27642.40-1ubuntu3 "
    "not, and the fix `sudo apt-get install libze-intel-gpu1`); not in the report and chosen "
    "here: the GPU in the base tree's slot (an iGPU is at 0000:00:02.0), the subsystem id, "
    "the 6.8.0-60-generic kernel, the firmware lines of a Rocket Lake boot, the oneAPI "
    "CPU runtime of the report left out; ")
# What the Level Zero session answers on that machine, through the fake loader
# (tests/fakes/fake-levelzero.c): the real loader's zeInit with no driver that loads is
# ZE_RESULT_ERROR_UNINITIALIZED (0x78000001, ze_api.h; the loader trace of the report).
ZE_ARGS = "--ze-lib @FAKES@/libze_loader.so.1 --vendor-timeout 2000"
ZE_NO_DRIVER = "[levelzero]\nerror.zeInit = ZE_RESULT_ERROR_UNINITIALIZED\n"
# After the fix: one driver, the UHD Graphics 750 (8086:4c8a, integrated, no device-local
# memory), as the compute runtime names it in the report's OpenCL line. The report shows no
# Sysman (zes*) reading: zesInit answers unsupported, so the GPU's Sysman facts stay unprobed
# rather than made up.
ZE_FIXED = ("[levelzero]\ndriver_version = 1\napi_version = 1.3\n"
            "error.zesInit = ZE_RESULT_ERROR_UNSUPPORTED_FEATURE\n\n[levelzero.device.0]\n"
            "name = Intel(R) UHD Graphics 750\ntype = 1\nvendor_id = 0x8086\n"
            "device_id = 0x4c8a\nintegrated = 1\n")


def rkl_base(name, gpu_driver=None):
    dst, root = intel_base(name, 0x4c8a, 0x7d17, kernel="6.8.0-60-generic")
    w(root, "etc/os-release", ubuntu_os_release("24.04.2", "Noble Numbat", "noble"))
    kern_log(root, "owl", [
        "[drm] Finished loading DMC firmware i915/rkl_dmc_ver2_03.bin (v2.3)",
        "[drm] GT0: GuC firmware i915/tgl_guc_70.bin version 70.20.0",
        "[drm] GT0: HuC firmware i915/tgl_huc.bin version 7.9.3",
        "[drm] GT0: HuC: authenticated for all workloads",
        "[drm] GT0: GUC: submission disabled",
    ])
    level_zero(root, loader="1.16.1", gpu_driver=gpu_driver)
    opencl_icd(root)
    pkgs = {"libze1": "1.16.1-1build1", "intel-opencl-icd": "23.43.27642.40-1ubuntu3"}
    if gpu_driver:
        pkgs["libze-intel-gpu1"] = "23.43.27642.40-1ubuntu3"
    dpkg(root, pkgs)
    return dst, root


def rkl_session_no_driver():
    dst, root = rkl_base("rw-intel-rkl-level-zero-session-no-driver")
    ini(dst, TOPIC,
        "The rw-intel-rkl-libze1-no-gpu-driver machine judged with its Level Zero session: "
        "zeInit answers ZE_RESULT_ERROR_UNINITIALIZED, since the loader has no GPU driver to "
        "load; the UHD Graphics 750 stays invisible to Level Zero",
        RKL_SOURCE + "zeInit's answer through the fake loader as the real one gives it with no "
        "driver; " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/intel/compute-runtime/issues/832",
            "ZE_LOADER_DEBUG_TRACE:Load Library of libze_intel_gpu.so.1 failed with "
            "libze_intel_gpu.so.1: cannot open shared object file: No such file or directory",
            "libze1 (the loader) is installed but not libze-intel-gpu1: zeInit finds no driver "
            "and Level Zero lists no GPU",
            "runtime.level-zero-no-gpu-driver", "runtime", "yes"),
        devices(), ZE_NO_DRIVER, args=ZE_ARGS)
    ldso_cache(dst)


def rkl_session_fixed():
    dst, root = rkl_base("rw-intel-rkl-level-zero-session-fixed", gpu_driver="1.3.27642.40")
    ini(dst, TOPIC,
        "The rw-intel-rkl-libze1-no-gpu-driver machine after the report's fix (sudo apt-get "
        "install libze-intel-gpu1): the Level Zero session lists the UHD Graphics 750",
        RKL_SOURCE + "libze-intel-gpu1 23.43.27642.40-1ubuntu3 installed as the fix does, the "
        "session's answers through the fake loader (one driver, the iGPU, no device-local "
        "memory; Sysman not scripted, the report shows none of its readings: zesInit answers "
        "unsupported); " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        devices(), ZE_FIXED, args=ZE_ARGS)
    ldso_cache(dst)


def rkl_no_gpu_driver():
    """intel/compute-runtime#832: Ubuntu 24.04 with libze1 but not libze-intel-gpu1: sycl-ls
    shows the GPU through OpenCL only."""
    dst, root = rkl_base("rw-intel-rkl-libze1-no-gpu-driver")
    ini(dst, TOPIC,
        "An i7-11700K's UHD Graphics 750 (Rocket Lake, 8086:4c8a) on Ubuntu 24.04 with libze1 "
        "(the Level Zero loader) and intel-opencl-icd but not libze-intel-gpu1: the loader "
        "finds no driver (libze_intel_gpu.so.1: cannot open shared object file), so sycl-ls "
        "lists the GPU through OpenCL only and no [level_zero:gpu]",
        RKL_SOURCE + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/intel/compute-runtime/issues/832",
            "ZE_LOADER_DEBUG_TRACE:Load Library of libze_intel_gpu.so.1 failed with "
            "libze_intel_gpu.so.1: cannot open shared object file: No such file or directory",
            "libze1 (the loader) is installed but not libze-intel-gpu1, Intel's GPU driver for "
            "Level Zero: no level_zero GPU until it is installed",
            "runtime.level-zero-no-gpu-driver", "runtime", "yes"),
        devices())
    ldso_cache(dst)


B580_SOURCE = (
    "Rebuilt from https://github.com/intel-gpu/intel-gpu-i915-backports/issues/209 (pasted: "
    "Ubuntu 24.04 with the 6.8.0-51-generic kernel, 'lspci: 03:00.0 VGA compatible controller: "
    "Intel Corporation Battlemage G21 [Intel Graphics]' with no driver loaded for it, the "
    "kern.log line 'i915_compat: Unknown symbol drm_dp_dpcd_read (err -2)' of the backported "
    "i915 the reporter built, Intel's answer 'BMG is not supported in i915') and the same "
    "reporter's https://github.com/canonical/intel-graphics-preview/issues/8 ('I'm also stuck "
    "with 24.04 right now. The HWE remains with the 6.8 GA kernel'; Canonical: 24.04.2's kernel "
    "'will provide basic support' for Battlemage; '24.04 HWE advanced to kernel 6.11 today'); "
    "not in the report and chosen here: the device id 8086:e20b (Battlemage G21 [Arc B580], as "
    "pci.ids names it) and subsystem 8086:1100 (what intel/compute-runtime#949 shows for an "
    "e20b), the PCI address (the thread's 0000:03:00.0 is the base tree's 0000:01:00.0), the "
    "host name and time of the kern.log line in Ubuntu 24.04 rsyslog's ISO 8601 format as "
    "pasted; ")


def xe_modules(refs):
    """/proc/modules' lines of xe (used `refs` times) and its dependencies, as the module list
    of a 6.x xe shows them (strongtz/i915-sriov-dkms#429: gpu_sched, drm_gpuvm, drm_exec,
    drm_ttm_helper besides i915's); sizes chosen."""
    return (f"xe 3334144 {refs} - Live 0x0000000000000000\n"
            "drm_gpuvm 45056 1 xe, Live 0x0000000000000000\n"
            "drm_exec 12288 2 xe,drm_gpuvm, Live 0x0000000000000000\n"
            "gpu_sched 61440 1 xe, Live 0x0000000000000000\n"
            "drm_ttm_helper 16384 1 xe, Live 0x0000000000000000\n"
            "drm_buddy 20480 1 xe, Live 0x0000000000000000\n"
            "ttm 110592 2 xe,drm_ttm_helper, Live 0x0000000000000000\n"
            "i2c_algo_bit 16384 1 xe, Live 0x0000000000000000\n"
            "drm_display_helper 237568 1 xe, Live 0x0000000000000000\n"
            "cec 94208 2 xe,drm_display_helper, Live 0x0000000000000000\n"
            "video 77824 1 xe, Live 0x0000000000000000\n")


def unread_kernel_and_os(root):
    """Takes the base tree's kernel release, os-release and boot image out, for a report that
    shows none of them: they stay unread rather than made up."""
    for p in ("proc/sys/kernel/osrelease", "etc/os-release"):
        if os.path.lexists(f"{root}/{p}"):
            os.unlink(f"{root}/{p}")
    for d in ("proc/sys/kernel", "proc/sys"):  # left empty: git keeps no empty directory
        if os.path.isdir(f"{root}/{d}") and not os.listdir(f"{root}/{d}"):
            os.rmdir(f"{root}/{d}")
    w(root, "proc/cmdline", "root=UUID=0b6b2a5e-3f0a-4c41-9a57-4d6c3c1e7f21 ro quiet\n")


def b580_base(name, kernel, bound):
    dst, root = intel_base(name, 0xe20b, 0x1100, kernel=kernel)
    w(root, "proc/sys/kernel/osrelease", kernel + "\n")
    w(root, "etc/os-release", ubuntu_os_release("24.04.1" if not bound else "24.04.2",
                                                "Noble Numbat", "noble"))
    if bound:
        # xe, not i915, drives Battlemage: the driver link, module and /proc/modules say xe
        os.unlink(f"{root}/{GPU}/driver")
        link(root, f"{GPU}/driver", "../../../../bus/pci/drivers/xe")
        shutil.rmtree(f"{root}/sys/bus/pci/drivers/i915")
        shutil.rmtree(f"{root}/sys/module/i915")
        w(root, "sys/bus/pci/drivers/xe/bind", "")
        w(root, "sys/module/xe/refcnt", "12\n")
        w(root, "proc/modules", xe_modules(12) + "snd_hda_intel 61440 4 - Live 0x0000000000000000\n")
    else:
        # nothing binds it: no driver link, no i915/xe loaded (the backport failed to load)
        os.unlink(f"{root}/{GPU}/driver")
        shutil.rmtree(f"{root}/sys/bus/pci/drivers/i915")
        shutil.rmtree(f"{root}/sys/module/i915")
        os.rmdir(f"{root}/sys/module")  # left empty: git keeps no empty directory
        w(root, "proc/modules", "snd_hda_intel 61440 4 - Live 0x0000000000000000\n")
        w(root, "var/log/kern.log", "2024-12-23T11:40:47.497620-06:00 epyc-server kernel: "
          "i915_compat: Unknown symbol drm_dp_dpcd_read (err -2)\n")
    return dst, root


def b580_kernel_68():
    """intel-gpu/intel-gpu-i915-backports#209: a B580 on Ubuntu 24.04's 6.8 kernel, which no
    driver binds (xe drives Battlemage by default from 6.12; Ubuntu's 6.11 HWE kernel too)."""
    dst, root = b580_base("rw-intel-b580-kernel-6.8", "6.8.0-51-generic", bound=False)
    ini(dst, TOPIC,
        "An Arc B580 (Battlemage G21, 8086:e20b) on Ubuntu 24.04 with the 6.8.0-51-generic "
        "kernel: 6.8's xe does not know Battlemage and i915 never drives it (Intel's backported "
        "i915 fails to load), so no driver binds the GPU and there is no render node for it",
        B580_SOURCE + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/intel-gpu/intel-gpu-i915-backports/issues/209",
            "03:00.0 VGA compatible controller: Intel Corporation Battlemage G21 [Intel Graphics]",
            "the running kernel (Ubuntu 24.04's 6.8) is older than the first one whose xe drives "
            "Battlemage: no driver binds the B580 until a newer kernel (24.04.2's 6.11 HWE "
            "kernel, upstream 6.12) is booted",
            "driver.intel-kernel-too-old", "driver", "yes"),
        "")


def b580_kernel_611_hwe():
    dst, root = b580_base("rw-intel-b580-kernel-6.11-hwe", "6.11.0-17-generic", bound=True)
    kern_log(root, "epyc-server", [
        "[drm] Finished loading DMC firmware i915/bmg_dmc.bin (v2.6)",
    ], driver="xe")
    ini(dst, TOPIC,
        "The rw-intel-b580-kernel-6.8 machine after the thread's resolution: Ubuntu 24.04.2's "
        "HWE kernel 6.11, whose xe binds the B580 (Canonical's kernel carries the Battlemage "
        "support upstream enabled by default in 6.12): driver xe bound, render node present",
        B580_SOURCE + "the HWE kernel's release 6.11.0-17-generic, the xe module, driver link "
        "and its DMC firmware line as a B580 on xe prints it "
        "(geerlingguy/raspberry-pi-pcie-devices#695); " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        devices())


def flex170_force_probe():
    """strongtz/i915-sriov-dkms#293: a Data Center GPU Flex 170 (ATS-M, 8086:56c0) that the
    i915-sriov-dkms i915 lists behind force_probe: no driver binds it."""
    kernel = "6.8.12-10-pve"
    dst, root = intel_base("rw-intel-flex170-force-probe", 0x56c0, 0x1020, cls=0x038000,
                           kernel=kernel)
    w(root, "proc/sys/kernel/osrelease", kernel + "\n")
    w(root, "etc/os-release", DEBIAN12_OS_RELEASE)
    os.unlink(f"{root}/{GPU}/driver")  # i915 is loaded, but does not bind the GPU
    w(root, "var/log/kern.log",
      "May 14 09:12:31 pve kernel: [   14.712204] i915: You are using the i915-sriov-dkms "
      "module, a ported version of the i915/xe module with SR-IOV support.\n"
      "May 14 09:12:31 pve kernel: [   14.712206] i915: Please file any bug report at "
      "https://github.com/strongtz/i915-sriov-dkms/issues/new.\n"
      "May 14 09:12:31 pve kernel: [   14.737010] i915 0000:01:00.0: Your graphics device 56c0 "
      "is not properly supported by i915 in this kernel version. To force driver probe "
      "anyway, use i915.force_probe=56c0\n")
    ini(dst, TOPIC,
        "A Data Center GPU Flex 170 (ATS-M, 8086:56c0) on a Proxmox VE 8 host (Debian 12, "
        "kernel 6.8.12-10-pve) with the i915-sriov-dkms i915 loaded: i915 lists the device "
        "behind force_probe and binds nothing, so the GPU has no render node; no upstream "
        "kernel drives Flex by default (Intel supports it with its out-of-tree "
        "intel-i915-dkms)",
        "Rebuilt from https://github.com/strongtz/i915-sriov-dkms/issues/293 (pasted: '[   "
        "14.737010] i915 0000:03:00.0: Your graphics device 56c0 is not properly supported by "
        "i915 in this kernel version. To force driver probe anyway, use i915.force_probe=56c0' "
        "for a Flex 170); the module's two banner lines as strongtz/i915-sriov-dkms#412 pastes "
        "them; not in the report and chosen here: the Proxmox VE 8 kernel 6.8.12-10-pve and "
        "Debian 12 os-release (the project's users run Proxmox, strongtz/i915-sriov-dkms#132), "
        "the host name and date of the log lines, the PCI address (the report's 0000:03:00.0 "
        "is the base tree's 0000:01:00.0), the subsystem id, class 0x038000 (a display "
        "controller, as for the Max); " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/strongtz/i915-sriov-dkms/issues/293",
            "i915 0000:03:00.0: Your graphics device 56c0 is not properly supported by i915 in "
            "this kernel version. To force driver probe anyway, use i915.force_probe=56c0",
            "i915 lists the Flex 170 behind force_probe and does not bind it: no render node, "
            "no compute",
            "driver.intel-force-probe-needed", "driver", "yes"),
        "")


def write():
    healthy()
    guc_fetch_failed()
    xpu_nightly_no_level_zero()
    max1550_no_render_group()
    ipex110_oneapi2023()
    ipex28_torch27()
    opencl_cpu_only()
    opencl_icd_missing()
    rkl_no_gpu_driver()
    rkl_session_no_driver()
    rkl_session_fixed()
    b580_kernel_68()
    b580_kernel_611_hwe()
    flex170_force_probe()
