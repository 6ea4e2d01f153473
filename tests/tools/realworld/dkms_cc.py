# SPDX-License-Identifier: GPL-2.0-or-later
"""Clear Linux machines whose NVIDIA DKMS build stops at the driver's compiler check: the
distribution updated gcc before it rebuilt its kernel with it, so the nvidia.ko cannot be built
for the running kernel ("Compiler version check failed", the driver's Kbuild cc_version_check)
and no module loads (driver.module-missing-for-kernel). The maintainers fixed each by shipping
the kernel rebuilt with the new gcc. Written by tests/tools/mk-real-world-fixtures.py dkms_cc."""
from realworld.common import fresh, ini, link, real_world, w

TOPIC = "dkms_cc"
FIXTURES = ("rw-clr-lts2019-cc-mismatch-distribution-1970",
            "rw-clr-native-cc-mismatch-distribution-1133")
BASE = "nvidia-gpu-no-driver"
GPU = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}

# Clear Linux's os-release (its VERSION_ID is the release number, left out where the report
# names none).
def clear_os_release(release):
    return ('NAME="Clear Linux OS"\nVERSION=1\nID=clear-linux-os\nID_LIKE=clear-linux-os\n'
            + (f'VERSION_ID={release}\n' if release else '')
            + 'PRETTY_NAME="Clear Linux OS"\nANSI_COLOR="1;35"\n'
            'HOME_URL="https://clearlinux.org"\nSUPPORT_URL="https://clearlinux.org"\n'
            'BUG_REPORT_URL="mailto:dev@lists.clearlinux.org"\n'
            'PRIVACY_POLICY_URL="http://www.intel.com/privacy"\n')


# The driver's build message when the compiler differs from the kernel's, as the reports paste
# it (its Kbuild's cc_version_check target).
def make_log(version, rel, date, kernel_gcc, cc, symlink, whole):
    """The make.log as the report pasted it: cut after the compiler used unless `whole`."""
    head = (f"DKMS make.log for nvidia-{version} for kernel {rel} (x86_64)\n{date}\n"
            f"make[1]: Entering directory '/usr/lib/modules/{rel}/build'\n"
            + (f"  SYMLINK /var/lib/dkms/nvidia/{version}/build/nvidia/nv-kernel.o\n"
               if symlink else "")
            + "\nCompiler version check failed:\n\nThe major and minor number of the "
            "compiler used to\ncompile the kernel:\n\n" + kernel_gcc + "\n\ndoes not match "
            "the compiler used here:\n\n" + cc + "\n")
    if not whole:
        return head
    return head + ("Copyright (C) 2019 Free Software "
                   "Foundation, Inc.\nThis is free software; see the source for copying conditions.  "
            "There is NO\nwarranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR "
            "PURPOSE.\n\n\nIt is recommended to set the CC environment variable\nto the "
            "compiler that was used to compile the kernel.\n\nThe compiler version check can "
            "be disabled by setting\nthe IGNORE_CC_MISMATCH environment variable to \"1\".\n"
            "However, mixing compiler versions between the kernel\nand kernel modules can "
            "result in subtle bugs that are\ndifficult to diagnose.\n\n*** Failed CC version "
            "check. Bailing out! ***\n\n"
            f"make[2]: *** [/var/lib/dkms/nvidia/{version}/build/Kbuild:180: "
            "cc_version_check] Error 1\n")


PLACEHOLDERS = ("placeholders, not in the report: the GPU (10de:1c03, GP106 [GeForce GTX 1060 "
                "6GB] in pci.ids: the report names none; a Pascal board every one of these "
                "drivers supports) and the rest of the " + BASE + " fixture's PCI tree and "
                "/proc/modules (see its sources), the kernel's build host and date in "
                "/proc/version (its gcc string is the report's), Clear Linux's os-release "
                "(ID clear-linux-os), the DKMS source "
                "tree's dkms.conf (PACKAGE_NAME and PACKAGE_VERSION as nvidia-installer "
                "--dkms writes them) and /lib as Clear Linux's link to usr/lib")


def machine(name, rel, release, kernel_gcc, version, log):
    """The reports' machine: Clear Linux at `release`, kernel `rel` built by `kernel_gcc`,
    the driver's sources registered with DKMS and its failed build's make.log, no nvidia.ko
    for the running kernel and none loaded."""
    dst, root = fresh(name, BASE)
    w(root, f"{GPU}/device", "0x1c03\n")
    w(root, "etc/os-release", clear_os_release(release))
    w(root, "proc/sys/kernel/osrelease", rel + "\n")
    w(root, "proc/version", f"Linux version {rel} (mockbuild@clr) ({kernel_gcc}) #1 SMP "
      "PREEMPT\n")
    link(root, "lib", "usr/lib")
    w(root, f"usr/lib/modules/{rel}/modules.dep", "")
    w(root, f"usr/src/nvidia-{version}/dkms.conf",
      f'PACKAGE_NAME="nvidia"\nPACKAGE_VERSION="{version}"\n')
    link(root, f"var/lib/dkms/nvidia/{version}/source", f"/usr/src/nvidia-{version}")
    w(root, f"var/lib/dkms/nvidia/{version}/build/make.log", log)
    return dst, root


def lts2019():
    """clearlinux/distribution#1970: NVIDIA's installer fails on kernel-lts2019 5.4.40-38,
    built by gcc 9.3.1, under gcc 10.1.1; the maintainers: the lts kernel rebuilt with the new
    gcc (linux-lts2019 5.4.41-39) resolves it."""
    rel, ver = "5.4.40-38.lts2019", "440.82"
    kgcc = ("gcc version 9.3.1 20200507 releases/gcc-9.3.0-217-g7790399265 (Clear Linux OS "
            "for Intel Architecture)")
    cc = "cc (Clear Linux OS for Intel Architecture) 10.1.1 20200513 releases/gcc-10.1.0-36-gf2b77b928a"
    log = make_log(ver, rel, "Fri May 15 12:01:13 CDT 2020", kgcc, cc, True, False)
    dst, root = machine(FIXTURES[0], rel, "33110", kgcc, ver, log)
    url = "https://github.com/clearlinux/distribution/issues/1970"
    ini(dst, TOPIC,
        f"Clear Linux (release 33110) on its lts2019 kernel {rel}, built by gcc 9.3.1, after "
        "the distribution moved to gcc 10.1.1: NVIDIA's installer registers driver "
        f"{ver} with DKMS and its build stops at the driver's compiler check ('Compiler "
        "version check failed … Failed CC version check. Bailing out!'); no nvidia.ko for "
        "the running kernel, none loaded",
        f"Rebuilt from {url} (pasted: /var/lib/dkms/nvidia/{ver}/build/make.log with the "
        f"kernel {rel}, the kernel's compiler 'gcc version 9.3.1 20200507 …' and the one "
        "used, 'cc … 10.1.1 20200513 …'; the release 33110 from the thread; the cause and "
        "fix as the maintainers gave them: the lts kernel rebuilt with the new gcc, "
        "linux-lts2019-5.4.41-39); the make.log ends where the paste ends, after the "
        "compiler used; " + PLACEHOLDERS, PATH,
        real_world(url, "Compiler version check failed: The major and minor number of the "
                   "compiler used to compile the kernel: gcc version 9.3.1 … does not match "
                   "the compiler used here: cc … 10.1.1",
                   "the kernel was built by gcc 9.3.1 and the system's compiler is gcc 10.1.1, "
                   "so the driver's DKMS build refuses to build nvidia.ko for the running "
                   "kernel (fixed by the distribution's kernel rebuilt with gcc 10)",
                   "driver.module-missing-for-kernel", "driver", "yes"))


def native_390():
    """clearlinux/distribution#1133: following Clear Linux's NVIDIA tutorial on the native
    kernel 5.2.8-818, built by gcc 9.1.1, with gcc 9.2.1 installed: the 390.87 DKMS build
    fails the compiler check (a bug the distribution closed with its kernel rebuilt)."""
    rel, ver = "5.2.8-818.native", "390.87"
    kgcc = ("gcc version 9.1.1 20190809 gcc-9-branch@274223 (Clear Linux OS for Intel "
            "Architecture)")
    cc = "cc (Clear Linux OS for Intel Architecture) 9.2.1 20190813 gcc-9-branch@274401"
    log = make_log(ver, rel, "Fri 16 Aug 2019 01:39:51 AM UTC", kgcc, cc, False, True)
    dst, root = machine(FIXTURES[1], rel, None, kgcc, ver, log)
    url = "https://github.com/clearlinux/distribution/issues/1133"
    ini(dst, TOPIC,
        f"Clear Linux on its native kernel {rel}, built by gcc 9.1.1, with gcc 9.2.1 "
        f"installed: the driver {ver} installed per Clear Linux's NVIDIA tutorial (DKMS) "
        "fails its compiler check; no nvidia.ko for the running kernel, none loaded",
        f"Rebuilt from {url} (pasted: the whole make.log of nvidia-{ver} for {rel}, with "
        "'Compiler version check failed', the kernel's gcc 9.1.1 20190809 and the cc 9.2.1 "
        "20190813 used, 'Failed CC version check. Bailing out!'; closed as a bug of the "
        "distribution, whose kernel is rebuilt after a compiler update, "
        "https://github.com/clearlinux/distribution/issues/1968; the report names no "
        "release: os-release has no VERSION_ID); " + PLACEHOLDERS, PATH,
        real_world(url, "Compiler version check failed … gcc version 9.1.1 20190809 … does "
                   "not match the compiler used here: cc … 9.2.1 20190813 … *** Failed CC "
                   "version check. Bailing out! ***",
                   "the native kernel was built by gcc 9.1.1 and the system compiler is "
                   "9.2.1, so the driver's DKMS build refuses to build nvidia.ko for the "
                   "running kernel (the distribution's kernel rebuilt with the new gcc fixes "
                   "it)",
                   "driver.module-missing-for-kernel", "driver", "yes"))


def write():
    lts2019()
    native_390()
