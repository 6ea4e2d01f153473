# SPDX-License-Identifier: GPL-2.0-or-later
"""A ninth round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (rw50d), from AMD ROCm, Intel, WSL2, Slurm and Kubernetes, each only as far as its
thread shows the machine. The scores before any change are in docs/HACKING.md ("Reports an
outside evaluator would pick", ninth round)."""
from realworld.common import (MULTIARCH_LD_CONF, WSL_LD_CONF, fresh, ini, ldso_cache, link,
                              real_world, so, ubuntu_os_release, w)
from realworld.wsl import DXG, gpu_pv_adapter

TOPIC = "outside9"
FIXTURES = ("rw-wsl2-r9700-rocm721-dxg-detection-unset-unsloth-9729",
            "wsl2-r9700-rocm721-dxg-detection-set",
            "rw-wsl2-rocm713-venv-librocdxg-not-cached-librocdxg-46",
            "wsl2-rocm713-venv-librocdxg-ldconfig")

URL_9729 = "https://github.com/unslothai/unsloth/issues/9729"
AMD_34 = "https://github.com/ROCm/librocdxg/issues/34"
WSL_KERNEL = "6.6.87.2-microsoft-standard-WSL2"
SRC_9729 = (
    f"Rebuilt from {URL_9729} (title: 'Linux: install.sh detects no AMD GPU under WSL2 unless "
    "HSA_ENABLE_DXG_DETECTION is already set'; pasted: 'WSL2 Ubuntu 24.04 on Windows 11, ROCm "
    "7.2.1 installed from AMD's Debian packages (`rocm-core 7.2.1.70201-81~24.04`, `hsa-rocr "
    "1.18.0.70201-81~24.04`), Radeon AI PRO R9700 (gfx1201). `/dev/dxg` present, `/dev/kfd` "
    "absent, no `amd-smi` in the image'; with HSA_ENABLE_DXG_DETECTION unset `rocminfo` prints "
    "'WSL environment detected.' and 'hsa_init Failed, possibly no supported GPU devices' "
    "(exit 1); with HSA_ENABLE_DXG_DETECTION=1 it lists Agent 2 'gfx1201', 'AMD Radeon AI PRO "
    f"R9700'); AMD's answer to the same failure in {AMD_34}: '`export "
    "HSA_ENABLE_DXG_DETECTION=1` is to pair with rocm prev 7.13' (ROCm 7.13's ROCr detects "
    "/dev/dxg by default); rocm-core's .info/version '7.2.1-81' and the hsa-rocr library "
    "name libhsa-runtime64.so.1.18.70201 follow from the two package versions pasted, as "
    "the rocm-6.2-toolkit fixture's do from 6.2.0's (its sources); not in the report and "
    f"placeholders: WSL's kernel release ({WSL_KERNEL}, the WSL 2.6 kernel), Ubuntu 24.04.2's "
    "os-release, /usr/lib/wsl/lib with Microsoft's libdxcore.so, libd3d12.so and "
    "libd3d12core.so (the files every WSL2 GPU distribution gets; AMD's driver store under "
    "/usr/lib/wsl/drivers is left out), WSL's ld.so configuration, the GPU-PV adapter "
    "(Microsoft 1414:008e) on WSL's virtual PCI bus, /dev/dxg 0666, /opt/rocm -> "
    "/etc/alternatives/rocm -> /opt/rocm-7.2.1 (rocm-core's postinst), HIP's "
    "libamdhip64.so.7.2.70201 (placeholder files: only their names are read), librocdxg (the "
    "bridge the variable turns on; where its build installed it is not shown: left out), "
    "PATH and HOME")


def wsl_base(name, kernel, os_release):
    """A WSL2 distribution with /usr/lib/wsl/lib as an AMD Windows driver's host gives it
    (Microsoft's libraries only) and WSL's ld.so configuration. Returns (dst, root)."""
    dst, root = fresh(name)
    w(root, "proc/sys/kernel/osrelease", kernel + "\n")
    w(root, "proc/modules", "")
    w(root, "etc/os-release", os_release)
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/ld.wsl.conf", WSL_LD_CONF)
    w(root, "etc/ld.so.conf.d/libc.conf", "# libc default configuration\n/usr/local/lib\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    for f in ("libdxcore.so", "libd3d12.so", "libd3d12core.so"):
        so(root, f"usr/lib/wsl/lib/{f}", f)
    gpu_pv_adapter(root)
    return dst, root


def wsl_rocm(name):
    """WSL2 on an AMD Windows driver with AMD's ROCm 7.2.1 packages. Returns (dst, root)."""
    dst, root = wsl_base(name, WSL_KERNEL, ubuntu_os_release("24.04.2", "Noble Numbat", "noble"))
    rocm = "opt/rocm-7.2.1"
    w(root, f"{rocm}/.info/version", "7.2.1-81\n")
    for base, soname, full in (("libhsa-runtime64.so", "libhsa-runtime64.so.1",
                                "libhsa-runtime64.so.1.18.70201"),
                               ("libamdhip64.so", "libamdhip64.so.7",
                                "libamdhip64.so.7.2.70201")):
        w(root, f"{rocm}/lib/{full}", "placeholder: only the name of this library is read\n")
        link(root, f"{rocm}/lib/{soname}", full)
        link(root, f"{rocm}/lib/{base}", soname)
    link(root, "etc/alternatives/rocm", "/opt/rocm-7.2.1")
    link(root, "opt/rocm", "/etc/alternatives/rocm")
    return dst, root


ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/wsl/lib",
       "HOME": "/home/user"}


def dxg_detection_unset():
    dst, _ = wsl_rocm(FIXTURES[0])
    ini(dst, TOPIC,
        "WSL2 (Ubuntu 24.04) with a Radeon AI PRO R9700 and AMD's ROCm 7.2.1 packages: the GPU "
        "reaches the distribution as /dev/dxg (no /dev/kfd), and ROCm 7.2's ROCr looks for it "
        "there only with HSA_ENABLE_DXG_DETECTION=1, which the process's environment lacks: "
        "rocminfo prints 'hsa_init Failed, possibly no supported GPU devices'",
        SRC_9729, ENV,
        real_world(URL_9729,
                   "WSL environment detected. / hsa_init Failed, possibly no supported GPU "
                   "devices",
                   "ROCm before 7.13 enumerates WSL2's GPU (through /dev/dxg and librocdxg) "
                   "only with HSA_ENABLE_DXG_DETECTION=1 in the environment (AMD, "
                   "ROCm/librocdxg#34); unset, ROCr finds no GPU",
                   "runtime.rocm-wsl-dxg-detection-unset", "runtime", "yes"),
        DXG)
    ldso_cache(dst)


def dxg_detection_set():
    dst, _ = wsl_rocm(FIXTURES[1])
    ini(dst, TOPIC,
        "The rw-wsl2-r9700-rocm721-dxg-detection-unset-unsloth-9729 machine with "
        "HSA_ENABLE_DXG_DETECTION=1 in the environment, with which rocminfo listed the R9700 "
        "(gfx1201): the negative of runtime.rocm-wsl-dxg-detection-unset",
        SRC_9729 + "; the variable as the report's second run sets it",
        dict(ENV, HSA_ENABLE_DXG_DETECTION="1"), "", DXG)
    ldso_cache(dst)


URL_46 = "https://github.com/ROCm/librocdxg/issues/46"
FIX_47 = "https://github.com/ROCm/librocdxg/pull/47"
KERNEL_46 = "6.6.114.1-microsoft-standard-WSL2"
SRC_46 = (
    f"Rebuilt from {URL_46} (title: 'ROCm 7.13 unabe to detect librocdxg.so in python virtual "
    "environment'; pasted: `python -m torch.utils.collect_env` in a venv printing 'Cannot "
    "load librocdxg.so, failed:librocdxg.so: cannot open shared object file: No such file or "
    "directory', 'GetExportAddress failed: .../.venv/lib/python3.14/site-packages/"
    "_rocm_sdk_core/lib/libhsa-runtime64.so.1: undefined symbol: hsaKmtOpenKFD', 'PyTorch "
    "version: 2.11.0+rocm7.13.0', 'OS: Ubuntu 26.04 LTS (x86_64)', 'Python platform: "
    f"Linux-{KERNEL_46}-x86_64-with-glibc2.43', 'Is CUDA available: False'; AMD's answer: "
    "'it's caused by the `ldconfig` cache not being refreshed after installation, so the "
    f"loader can't find the newly installed libraries. This has been fixed in #47' ({FIX_47}: "
    "'Write x86_64-libhsakmt.conf during binary component install so ldconfig picks up "
    "librocdxg'), the workaround 'export LD_LIBRARY_PATH=/opt/rocm/lib:$LD_LIBRARY_PATH'; the "
    "reporter: 'issue is resolved with latest `develop`'); the kernel release is the "
    "report's; not in the report and placeholders: Ubuntu 26.04's os-release (its release "
    "name), librocdxg's file /opt/rocm/lib/librocdxg.so (where its make install puts it, "
    "#47's registered directory) with the SONAME librocdxg.so (the name ROCr opens), the "
    "venv with torch and TheRock's _rocm_sdk_core wheels left out (no probe reads those "
    "wheels; what fails is the loader's search, below them), /usr/lib/wsl/lib, WSL's ld.so "
    "configuration, the GPU-PV adapter and /dev/dxg as the other fixtures of this topic have "
    "them, PATH and HOME")


def librocdxg(name, registered):
    dst, root = wsl_base(name, KERNEL_46, ubuntu_os_release("26.04", "Resolute Raccoon",
                                                           "resolute"))
    so(root, "opt/rocm/lib/librocdxg.so", "librocdxg.so")
    if registered:
        w(root, "etc/ld.so.conf.d/x86_64-libhsakmt.conf", "/opt/rocm/lib\n")
    return dst, root


def librocdxg_not_cached():
    dst, _ = librocdxg(FIXTURES[2], False)
    ini(dst, TOPIC,
        "WSL2 (Ubuntu 26.04) with torch 2.11.0+rocm7.13.0 in a venv and librocdxg built and "
        "installed at /opt/rocm/lib, which no ld.so.conf.d file lists: ROCr's dlopen of "
        "librocdxg.so, its bridge to /dev/dxg, fails ('Cannot load librocdxg.so') and torch "
        "finds no GPU",
        SRC_46, ENV,
        real_world(URL_46,
                   "Cannot load librocdxg.so, failed:librocdxg.so: cannot open shared object "
                   "file: No such file or directory",
                   "librocdxg was installed in /opt/rocm/lib but the ldconfig cache was not "
                   "refreshed (no ld.so.conf.d file lists the directory), so the loader cannot "
                   "find it (AMD; fixed by librocdxg#47)",
                   "runtime.rocm-wsl-librocdxg-not-found", "runtime", "yes"),
        DXG)
    ldso_cache(dst)


def librocdxg_registered():
    dst, _ = librocdxg(FIXTURES[3], True)
    ini(dst, TOPIC,
        "The rw-wsl2-rocm713-venv-librocdxg-not-cached-librocdxg-46 machine after librocdxg#47's "
        "make install: /etc/ld.so.conf.d/x86_64-libhsakmt.conf lists /opt/rocm/lib and "
        "ldconfig has cached librocdxg.so (the negative of "
        "runtime.rocm-wsl-librocdxg-not-found)",
        SRC_46 + f"; the ld.so.conf.d file as {FIX_47} writes it", ENV, "", DXG)
    ldso_cache(dst)


def write():
    dxg_detection_unset()
    dxg_detection_set()
    librocdxg_not_cached()
    librocdxg_registered()
