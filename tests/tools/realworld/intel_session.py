# SPDX-License-Identifier: GPL-2.0-or-later
"""Intel GPUs whose render node the user's session cannot open (0660 root:render, the user not
in render), rebuilt on the intel topic's base (intel.py: intel_base(), its sources): an Arc
A770 reached over SSH, where only a local login (logind's uaccess ACL for the seat's user) made
the GPU appear (intel/compute-runtime#701), and a UHD Graphics 750 that clinfo finds only as
root (intel/compute-runtime#478). Written by tests/tools/mk-real-world-fixtures.py
intel_session."""
from realworld.common import UBUNTU2004_OS_RELEASE, dpkg, ini, ldso_cache, real_world, w
from realworld.intel import (HEALTHY_LOG, SRC_INTEL_BASE, devices, intel_base, kern_log,
                             opencl_icd)

TOPIC = "intel_session"
FIXTURES = ("rw-a770-ssh-render-cr-701", "rw-uhd750-clinfo-root-only-cr-478")
URL = "https://github.com/intel/compute-runtime/issues/701"
# os-release as Ubuntu 23.04 (an interim release: no "LTS") writes it
UBUNTU2304_OS_RELEASE = (
    'PRETTY_NAME="Ubuntu 23.04"\nNAME="Ubuntu"\nVERSION_ID="23.04"\n'
    'VERSION="23.04 (Lunar Lobster)"\nVERSION_CODENAME=lunar\nID=ubuntu\nID_LIKE=debian\n'
    'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'UBUNTU_CODENAME=lunar\nLOGO=ubuntu-logo\n')
KERNEL = "6.5.0-060500-generic"


def a770_over_ssh():
    dst, root = intel_base(FIXTURES[0], 0x56a0, 0x1020, in_render=False, kernel=KERNEL)
    w(root, "proc/sys/kernel/osrelease", KERNEL + "\n")
    w(root, "etc/os-release", UBUNTU2304_OS_RELEASE)
    kern_log(root, "opencl-pc", HEALTHY_LOG)
    opencl_icd(root)
    pasted = ("openat(AT_FDCWD, \"/dev/dri/by-path/pci-0000:00:02.0-render\", O_RDWR|O_CLOEXEC) "
              "= -1 EACCES (Permission denied)")
    ini(dst, TOPIC,
        "An Intel Arc A770 (DG2, 8086:56a0) on a fresh Ubuntu Server 23.04 (kernel 6.5) with "
        "Intel's compute runtime (NEO): logged in over SSH, the GPU is no OpenCL device, "
        "because the render node is 0660 root:render and the user is not in render (a local "
        "login gives the seat's user an ACL on it, which is why the GPU then appeared); Intel: "
        "add the user to render, which fixed it",
        f"Rebuilt from {URL} (pasted: 'On a fresh Ubuntu Server 23.04 installation (kernel "
        "6.5), after installing NEO and rebooting, when accessing the machine remotely over "
        "SSH, the GPU (Arc A770) does not show up as OpenCL device. Only when I locally login "
        "at the PC, the GPU immediately shows up'; Intel, from the reporter's strace: "
        "'openat(AT_FDCWD, \"/dev/dri/by-path/pci-0000:00:02.0-render\", O_RDWR|O_CLOEXEC) = -1 "
        "EACCES (Permission denied)' ... 'Please ensure that user you are using is a member of "
        "group `render`'; the reporter: 'An additional `sudo usermod -a -G render $(whoami)` "
        "fixes the issue'); not in the report and placeholders: the kernel release "
        f"{KERNEL} (Ubuntu's mainline build naming; the report says 'kernel 6.5' only), "
        "os-release as Ubuntu 23.04 writes it, the A770 in the base's slot 0000:01:00.0 with "
        "the healthy A770 fixture's subsystem id and i915 firmware lines (the host name is the "
        "one of the reporter's later intel/compute-runtime#1004), the user's groups (the "
        "base's, in neither render nor video), the OpenCL ICD file and libigdrcl.so where "
        "NEO's intel-opencl-icd puts them (no versions: the report gives none, nor of Level "
        "Zero, which is left out); the render node the strace names, pci-0000:00:02.0, is the "
        "CPU's integrated GPU, whose model the report does not give: it is left out, the "
        "A770's render node carries the same root:render 0660; " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        real_world(URL, pasted,
                   "the SSH user is not in the render group that owns the render nodes (only a "
                   "local login's seat ACL let it open them): the compute runtime lists no GPU; "
                   "`usermod -a -G render` fixed it", "driver.no-permission", "driver", "yes"),
        devices())
    ldso_cache(dst)


URL_478 = "https://github.com/intel/compute-runtime/issues/478"
KERNEL_478 = "5.11.0-40-generic"
# the report's packages but intel-level-zero-gpu: its grep cannot show whether the Level Zero
# loader (package level-zero) is there, and the driver without a loader would be judged an
# error the report does not establish; the failure is OpenCL's
NEO_478 = {"intel-gmmlib": "21.2.1", "intel-igc-core": "1.0.8744", "intel-igc-opencl": "1.0.8744",
           "intel-opencl-icd": "21.42.021270"}


def uhd750_clinfo_root_only():
    dst, root = intel_base(FIXTURES[1], 0x4c8a, 0x7d17, in_render=False, kernel=KERNEL_478)
    w(root, "proc/sys/kernel/osrelease", KERNEL_478 + "\n")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    opencl_icd(root)
    dpkg(root, NEO_478)
    pasted = ("The command `sudo clinfo` finds the GPU but `clinfo` results in: Number of "
              "platforms 0")
    ini(dst, TOPIC,
        "An Intel UHD Graphics 750 (Rocket Lake, 8086:4c8a) with the compute runtime 21.42.21270 "
        "installed from Intel's release packages: `sudo clinfo` finds the GPU, `clinfo` as the "
        "user lists no platform, because the user is in neither render nor video and the render "
        "node is 0660 root:render; adding the user to both groups fixed it",
        f"Rebuilt from {URL_478} (pasted: 'I have a UHD 750 GPU. I installed 21.42.21270', "
        "'The command `sudo clinfo` finds the GPU but `clinfo` results in: Number of platforms "
        "0', `dpkg -l |grep 'igc\\|opencl\\|gmmlib\\|intel-level-ze'` with intel-gmmlib 21.2.1, "
        "intel-igc-core 1.0.8744, intel-igc-opencl 1.0.8744, intel-level-zero-gpu 1.2.021270, "
        "intel-opencl-icd 21.42.021270, /etc/OpenCL/vendors/intel.icd naming "
        "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so, which exists; the reporter's "
        "resolution: 'sudo usermod -a -G video $LOGNAME', 'sudo usermod -a -G render $LOGNAME', "
        "Intel pointing to the installation notes of its README, a later reader: 'This fixed "
        "the issue for me (Debian)'); the package versions are the report's; not in the report "
        f"and placeholders: the kernel release {KERNEL_478} and Ubuntu 20.04's os-release (the "
        "report names neither), the GPU's subsystem id (the rkl fixtures'), the GPU in the "
        "base's slot, no kernel log, the user's groups (the base's, in neither render nor "
        "video); left out: Level Zero (the report's intel-level-zero-gpu 1.2.021270 is there, but "
        "its grep cannot show the loader, package level-zero, and the failure is OpenCL's); "
        + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        real_world(URL_478, pasted,
                   "the user is in neither render nor video, so the OpenCL runtime cannot open "
                   "the render node and clinfo lists no platform unless run as root; adding the "
                   "user to render (and video) fixed it",
                   "driver.no-permission", "driver", "yes"),
        devices())
    ldso_cache(dst)


def write():
    a770_over_ssh()
    uhd750_clinfo_root_only()
