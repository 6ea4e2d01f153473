# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver upgraded without a reboot, or a reboot that does not help: the loaded kernel
module, the nvidia.ko on disk and the user-space driver of different versions
(driver.nvml-version-mismatch), with the package manager's log where the machine has one."""
from realworld.common import (MULTIARCH_LD_CONF, SRC_BASE, UBUNTU2004_OS_RELEASE, base_root,
                              driver_libs, ini, ldso_cache, move_kernel, real_world, section,
                              ubuntu_os_release, w)

TOPIC = "driver"
FIXTURES = ("rw-ubuntu2404-550-upgraded-no-reboot", "rw-nobara43-dkms-nvidia-stale-source",
            "rw-debian12-525-userspace-520-module", "rw-ubuntu2004-460-unattended-upgrade")
BASE = "rtx4090-open-module"
FAKE_ARGS = "--no-vendor --nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1"
UBUNTU2404 = ubuntu_os_release("24.04.1", "Noble Numbat", "noble")
DEBIAN12 = (
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
    'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
    'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
    'BUG_REPORT_URL="https://bugs.debian.org/"\n')
NOBARA43 = (
    'NAME="Nobara Linux"\nVERSION="43 (KDE Plasma Desktop Edition)"\nID=nobara\n'
    'ID_LIKE="rhel centos fedora"\nVERSION_ID=43\nPLATFORM_ID="platform:f43"\n'
    'PRETTY_NAME="Nobara Linux 43 (KDE Plasma Desktop Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=nobara-logo-icon\nCPE_NAME="cpe:/o:nobaraproject:nobara:43"\nDEFAULT_HOSTNAME="nobara"\n'
    'HOME_URL="https://nobaraproject.org/"\nSUPPORT_URL="https://nobaraproject.org/"\n'
    'BUG_REPORT_URL="https://gitlab.com/gloriouseggroll/nobara-images"\n'
    'VARIANT="KDE Plasma Desktop Edition"\nVARIANT_ID=kde\n')
SRC_LDSO = ("libcuda/libnvidia-ml: [elf] stand-ins (tiny gcc-built ELF files with the real "
            "SONAMEs, made at test time by tests/tools/fixture_root.py, never committed), their "
            "links as the driver packages make them, etc/ld.so.cache written by glibc's "
            "`ldconfig -r` over the tree with them made")
SRC_FAKES = ("NVML/CUDA answers through the fakes as the real libraries answer a module of another "
             "version: nvmlInit_v2 NVML_ERROR_LIB_RM_VERSION_MISMATCH, nvmlSystemGetNVMLVersion "
             "'<CUDA major>.<library version>', cuInit CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")


def userspace(root, version):
    """The user-space driver's libcuda and libnvidia-ml where the packages put them."""
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    driver_libs(root, version, dev_links=("libcuda.so", "libnvidia-ml.so"))


def fakes(user, cuda):
    return (f"[nvml]\ndriver_version = {user}\nnvml_version = {cuda // 1000}.{user}\n"
            f"cuda_driver_version = {cuda}\nerror.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n",
            f"[cuda]\ndriver_version = {cuda}\nerror.cuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n")


def kern_log(root, host, ts, loaded, flavor="Open Kernel Module for x86_64"):
    w(root, "var/log/kern.log",
      f"{ts} {host} kernel: [    4.978519] NVRM: loading NVIDIA UNIX {flavor}  {loaded}  "
      "Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025\n")


def ubuntu_550_upgrade():
    """oddmario/NVIDIA-Ubuntu-Driver-Guide#4: nvidia-driver-550 550.107.02 installed, 550.90.07
    loaded: a reboot fixes it."""
    name = "rw-ubuntu2404-550-upgraded-no-reboot"
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "550.90.07",
                              flavor="open")
    rel = "6.8.0-41-generic"
    w(root, "etc/os-release", UBUNTU2404)
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, "ws", "Sep  2 08:12:40", "550.90.07")
    w(root, "var/log/apt/history.log",
      "\nStart-Date: 2024-09-05  06:41:17\nCommandline: /usr/bin/unattended-upgrade\n"
      "Upgrade: libnvidia-compute-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-utils-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-dkms-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-driver-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
      "550.107.02-0ubuntu0.24.04.1), nvidia-kernel-common-550:amd64 "
      "(550.90.07-0ubuntu0.24.04.1, 550.107.02-0ubuntu0.24.04.1)\n"
      "End-Date: 2024-09-05  06:43:02\n")
    sections = [section(BASE, "devices"), (f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 550.107.02, -, zstd, "
                 "Dual MIT/GPL\n"), *fakes("550.107.02", 12040)]
    userspace(root, "550.107.02")
    pasted = ("Failed to initialize NVML: Driver/library version mismatch / updated to "
              "nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1, but /proc/driver/nvidia/version "
              "reports NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 "
              "09:35:42 UTC 2024")
    ini(dst, TOPIC,
        "Ubuntu 24.04: a minor update of the nvidia-driver-550 packages (550.90.07 to 550.107.02, "
        "unattended-upgrades) replaced the user-space driver and DKMS rebuilt the module on "
        "disk, but the running kernel still has 550.90.07 loaded: nvidia-smi says 'Failed to "
        "initialize NVML: Driver/library version mismatch' until the reboot loads 550.107.02",
        "Rebuilt from https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4 (pasted: "
        "the NVML error, the installed 'nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1', "
        "the loaded module's version 550.90.07 from /proc/driver/nvidia/version; the thread: a "
        "minor update puts the loaded module and the installed driver out of sync, rebooting "
        "fixes it); placeholders, not in the report: the GPU (the base fixture's RTX 4090), the "
        "kernel 6.8.0-41-generic, the module flavour (DKMS, updates/dkms/nvidia.ko.zst, as "
        "Ubuntu 24.04's dkms compresses it), /var/log/apt/history.log (apt's format: "
        "Start-Date/Commandline/Upgrade 'pkg:arch (old, new)'/End-Date; the date, the "
        "unattended-upgrade command line, the other packages and the old version "
        "550.90.07-0ubuntu0.24.04.1 are placeholders consistent with the pasted versions), "
        "the kern.log line's time; " + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4", pasted,
            "the nvidia-driver-550 packages were upgraded to 550.107.02 (module on disk rebuilt) "
            "while 550.90.07 stays loaded: the user space is newer than the loaded module; a "
            "reboot loads the new module",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def nobara_dkms_stale_source():
    """Nobara-Project/rpm-sources#525: dkms-nvidia 595.71.05 built 595.58.03 sources."""
    name = "rw-nobara43-dkms-nvidia-stale-source"
    dst, root = base_root(name, 0x2504, 0x0000, "NVIDIA GeForce RTX 3060", "595.58.03",
                              flavor="open")
    rel = "7.0.9-200.nobara.fc43.x86_64"
    w(root, "etc/os-release", NOBARA43)
    move_kernel(root, "6.8.0-45-generic", rel)
    kern_log(root, "nobara", "May 21 09:02:11", "595.58.03")
    sections = [section(BASE, "devices"), (f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko.xz = 595.58.03, -, xz, "
                 "Dual MIT/GPL\n"), *fakes("595.71.05", 13020)]
    userspace(root, "595.71.05")
    pasted = ("Failed to initialize NVML: Driver/library version mismatch / NVML library version: "
              "595.71 (after updating and rebooting; dkms-nvidia-595.71.05-1.fc43's kernel-module "
              "source is still 595.58.03)")
    ini(dst, TOPIC,
        "Nobara 43 (Fedora 43 base), kernel 7.0.9-200.nobara.fc43, an RTX 3060: the "
        "nobara-nvidia-production update to 595.71.05 installed the 595.71.05 user space, but "
        "its dkms-nvidia package built the module from a moving branch still at 595.58.03, so "
        "the nvidia.ko on disk and the one loaded after the reboot are 595.58.03: a reboot does "
        "not help; the module package must be fixed or the user space held at 595.58.03",
        "Rebuilt from https://github.com/Nobara-Project/rpm-sources/issues/525 (pasted: "
        "'Failed to initialize NVML: Driver/library version mismatch', 'NVML library version: "
        "595.71', kernel 7.0.9-200.nobara.fc43.x86_64, RTX 3060 (GA106), Secure Boot off, "
        "dkms-nvidia-595.71.05-1.fc43 whose source is 595.58.03 (version.mk), the mismatch "
        "after updating and rebooting); placeholders, not in the report: the PCI id 10de:2504 "
        "(GA106 [GeForce RTX 3060 Lite Hash Rate] in pci.ids) and the rest of the base "
        "fixture's PCI tree, Nobara's os-release (Fedora's fields with Nobara's name), the "
        "module's place extra/nvidia.ko.xz (dkms on Fedora installs to extra/, xz-compressed) "
        "and the full 595.71.05 library names, the kern.log line's time; " + SRC_LDSO + "; " +
        SRC_FAKES + "; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/Nobara-Project/rpm-sources/issues/525", pasted,
            "dkms-nvidia 595.71.05 built 595.58.03 sources: the module on disk (and loaded) is "
            "595.58.03 while the user space is 595.71.05; rebooting does not help, the module "
            "package must be rebuilt from the matching source",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def debian_smi_525_module_520():
    """illinois-scicomp/machine-shop-maintenance#70: nvidia-smi 525.85.12, module 520.56.06,
    a reboot did not help; the half-done upgrade was completed with apt --fix-broken."""
    name = "rw-debian12-525-userspace-520-module"
    dst, root = base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", "520.56.06")
    rel = "6.1.0-4-amd64"
    w(root, "etc/os-release", DEBIAN12)
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "proc/driver/nvidia/version",
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  520.56.06  Thu Oct  6 21:38:55 UTC 2022\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14) \n")
    kern_log(root, "bock", "Feb 24 10:02:11", "520.56.06", flavor="x86_64 Kernel Module")
    sections = [section(BASE, "devices"), (f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia-current.ko = 520.56.06, -, "
                 "none\n"), *fakes("525.85.12", 12000)]
    userspace(root, "525.85.12")
    pasted = ("nvidia-smi: Failed to initialize NVML: Driver/library version mismatch / Tried "
              "rebooting the system, but still doesn't work / NVRM version: NVIDIA UNIX x86_64 "
              "Kernel Module  520.56.06  Thu Oct  6 21:38:55 UTC 2022 / GCC version:  gcc version "
              "12.2.0 (Debian 12.2.0-14) / dpkg -l nvidia-smi: ii  nvidia-smi  525.85.12-1  amd64")
    ini(dst, TOPIC,
        "A Debian 12 (bookworm, still testing then) GPU server after an upgrade: nvidia-smi and "
        "its libraries are 525.85.12 (NVIDIA's CUDA repository packages), the kernel module "
        "package was not upgraded (the apt sources were broken), so the module on disk and the "
        "one loaded after a reboot are 520.56.06; rebooting did not help, completing the "
        "upgrade (fixed apt sources, apt install --fix-broken) did",
        "Rebuilt from https://github.com/illinois-scicomp/machine-shop-maintenance/issues/70 "
        "(pasted: the NVML error, 'Tried rebooting the system, but still doesn't work', "
        "/proc/driver/nvidia/version with 520.56.06 and Debian's gcc 12.2.0-14, dpkg -l "
        "nvidia-smi 525.85.12-1; the fix: the right apt sources, apt update, apt install "
        "--fix-broken); placeholders, not in the report: the GPU (10de:2204 GA102 [GeForce RTX "
        "3090] in pci.ids) and the rest of the base fixture's PCI tree, the kernel "
        "6.1.0-4-amd64 (bookworm's in February 2023), the module's place "
        "updates/dkms/nvidia-current.ko (Debian's nvidia-kernel-dkms names it so), the "
        "525.85.12 libcuda/libnvidia-ml beside nvidia-smi (nvidia-smi needs its own NVML), the "
        "kern.log line's time and host; Debian 12's os-release verbatim; " + SRC_LDSO + "; " +
        SRC_FAKES + "; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/illinois-scicomp/machine-shop-maintenance/issues/70", pasted,
            "a half-done upgrade: user space 525.85.12, the kernel module on disk still "
            "520.56.06, so rebooting loads 520.56.06 again; completing the upgrade fixes it",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def ubuntu2004_460_unattended():
    """lyulyul/shine-cluster#30: unattended-upgrade took the 460 driver from 460.56 to
    460.73.01 under a node that kept 460.56 loaded."""
    name = "rw-ubuntu2004-460-unattended-upgrade"
    dst, root = base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", "460.56")
    rel = "5.4.0-72-generic"
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "proc/driver/nvidia/version",
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  460.56  Tue Feb 23 23:23:26 UTC 2021\n"
      "GCC version:  gcc version 9.3.0 (Ubuntu 9.3.0-17ubuntu1~20.04) \n")
    kern_log(root, "eureka", "Apr 21 09:14:02", "460.56", flavor="x86_64 Kernel Module")
    # the transaction as pasted (one package); apt writes a blank line before each entry
    w(root, "var/log/apt/history.log",
      "\nStart-Date: 2021-04-24  06:50:54\nCommandline: /usr/bin/unattended-upgrade\n"
      "Upgrade: libnvidia-common-460:amd64 (460.56-0ubuntu0.20.04.1, "
      "460.73.01-0ubuntu0.20.04.1)\nEnd-Date: 2021-04-24  06:50:54\n")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 460.73.01, -, none\n",
                *fakes("460.73.01", 11020)]
    userspace(root, "460.73.01")
    pasted = ("$ nvidia-smi / Failed to initialize NVML: Driver/library version mismatch / "
              "/var/log/apt/history.log: Start-Date: 2021-04-24  06:50:54 Commandline: "
              "/usr/bin/unattended-upgrade Upgrade: libnvidia-common-460:amd64 "
              "(460.56-0ubuntu0.20.04.1, 460.73.01-0ubuntu0.20.04.1) End-Date: 2021-04-24  "
              "06:50:54")
    ini(dst, TOPIC,
        "A Slurm GPU node (eureka) of a small cluster on Ubuntu 20.04: unattended-upgrades "
        "upgraded the nvidia 460 driver packages from 460.56 to 460.73.01 while the node kept "
        "running, so the jobs already on the GPU go on but every new one, and nvidia-smi, gets "
        "'Failed to initialize NVML: Driver/library version mismatch' (user space 460.73.01, "
        "460.56 still loaded) until the node reboots; the admins pinned the driver against "
        "further unattended upgrades",
        "Rebuilt from https://github.com/lyulyul/shine-cluster/issues/30 (pasted: nvidia-smi's "
        "NVML error and squeue on eureka, 'the GPU can no longer be obtained after eureka has "
        "run for a while, the jobs already on the GPU are fine', the history.log transaction "
        "kept verbatim in var/log/apt/history.log; the thread's conclusion: the unattended "
        "upgrade of the 460 driver, to be pinned against); Ubuntu 20.04's os-release verbatim "
        "(the package versions say ubuntu0.20.04.1); placeholders, not in the report: the GPU "
        "(10de:2204 GA102 [GeForce RTX 3090] in pci.ids) and the rest of the base fixture's PCI "
        "tree, the kernel 5.4.0-72-generic (focal's in April 2021), the module on disk "
        "(updates/dkms/nvidia.ko, rebuilt by nvidia-dkms-460 at 460.73.01 in the same upgrade), "
        "/proc/driver/nvidia/version's build date and gcc (focal's 9.3.0), the kern.log line's "
        "time; " + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/lyulyul/shine-cluster/issues/30", pasted,
            "unattended-upgrade upgraded the 460 driver to 460.73.01 while 460.56 stayed "
            "loaded: the user space is newer than the running module until a reboot; pin the "
            "driver packages against unattended upgrades",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def write():
    ubuntu_550_upgrade()
    nobara_dkms_stale_source()
    debian_smi_525_module_520()
    ubuntu2004_460_unattended()
