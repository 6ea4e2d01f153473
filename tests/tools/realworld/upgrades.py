# SPDX-License-Identifier: GPL-2.0-or-later
"""More driver upgrades without a reboot, and one an image shipped half-done: the loaded module,
the nvidia.ko on disk and the user-space driver of different versions
(driver.nvml-version-mismatch). The helpers are the driver topic's."""
from realworld.common import (SRC_BASE, base_root, ini, ldso_cache, move_kernel, real_world,
                              section, w)
from realworld.driver import FAKE_ARGS, SRC_FAKES, SRC_LDSO, fakes, kern_log, userspace

TOPIC = "upgrades"
FIXTURES = ("rw-popos2104-465-upgraded-no-reboot", "rw-ubuntu1604-367-upgraded-no-reboot",
            "rw-bazzite42-570-image-module-not-updated", "rw-popos2204-515-over-510-module")
BASE = "rtx4090-open-module"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}


def pop_os_release(version, codename, name):
    """Pop!_OS's os-release (ID=pop, ID_LIKE ubuntu debian), as its base-files writes it."""
    return (f'NAME="Pop!_OS"\nVERSION="{version}"\nID=pop\nID_LIKE="ubuntu debian"\n'
            f'PRETTY_NAME="Pop!_OS {version}"\nVERSION_ID="{version[:5]}"\n'
            'HOME_URL="https://pop.system76.com"\nSUPPORT_URL="https://support.system76.com"\n'
            'BUG_REPORT_URL="https://github.com/pop-os/pop/issues"\n'
            'PRIVACY_POLICY_URL="https://system76.com/privacy"\n'
            f'VERSION_CODENAME={codename}\nUBUNTU_CODENAME={codename}\nLOGO=distributor-logo-pop-os\n')


UBUNTU1604 = ('NAME="Ubuntu"\nVERSION="16.04.1 LTS (Xenial Xerus)"\nID=ubuntu\nID_LIKE=debian\n'
              'PRETTY_NAME="Ubuntu 16.04.1 LTS"\nVERSION_ID="16.04"\n'
              'HOME_URL="http://www.ubuntu.com/"\nSUPPORT_URL="http://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\nUBUNTU_CODENAME=xenial\n')
BAZZITE42 = ('NAME="Bazzite"\nVERSION="42.20250522 (Kinoite)"\nRELEASE_TYPE=stable\nID=bazzite\n'
             'ID_LIKE="fedora"\nVERSION_ID=42\nVERSION_CODENAME="Kinoite"\n'
             'PRETTY_NAME="Bazzite"\nANSI_COLOR="0;38;2;138;43;226"\nLOGO=bazzite-logo-icon\n'
             'CPE_NAME="cpe:/o:universal-blue:bazzite:42"\nDEFAULT_HOSTNAME="bazzite"\n'
             'HOME_URL="https://bazzite.gg"\nDOCUMENTATION_URL="https://docs.bazzite.gg"\n')


def host(name, dev, model, loaded, rel, osrel, log_host, ts, gcc):
    """The base tree as `model` (PCI device `dev`) under kernel `rel` with `loaded` in memory,
    its /proc/driver/nvidia/version built by `gcc` and its load logged at `ts`."""
    dst, root = base_root(name, dev, 0x0000, model, loaded)
    w(root, "etc/os-release", osrel)
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {loaded}  Release Build  "
      f"(dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025\nGCC version:  {gcc} \n")
    kern_log(root, log_host, ts, loaded, flavor="x86_64 Kernel Module")
    return dst, root


def popos2104_465():
    """pop-os/beta#137: Pop!_OS 21.04 upgraded to the 465.24.02 driver, 460.67 still loaded."""
    name = "rw-popos2104-465-upgraded-no-reboot"
    rel = "5.11.0-7614-generic"
    dst, root = host(name, 0x2182, "NVIDIA GeForce GTX 1660 Ti", "460.67", rel,
                     pop_os_release("21.04", "hirsute", "Hirsute"), "pop-os",
                     "Jun  2 09:41:07", "gcc version 10.3.0 (Ubuntu 10.3.0-1ubuntu1)")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 465.24.02, -, none\n",
                *fakes("465.24.02", 11030)]
    userspace(root, "465.24.02")
    pasted = ("NVRM: API mismatch: the client has the version 465.24.02, but NVRM: this kernel "
              "module has the version 460.67.  Please NVRM: make sure that this kernel module "
              "and all NVIDIA driver components have the same version.")
    ini(dst, TOPIC,
        "Pop!_OS 21.04 freshly installed from the NVIDIA ISO (driver 460.67) and then upgraded "
        "(apt upgrade through the Pop!_Shop): the nvidia-driver packages went to 465.24.02 and "
        "DKMS built that module, but until the reboot 460.67 stays loaded and every NVIDIA "
        "client gets 'API mismatch'; the maintainer saw the same message and no problem after "
        "rebooting",
        "Rebuilt from https://github.com/pop-os/beta/issues/137 (pasted: the NVRM API mismatch "
        "lines with 465.24.02 and 460.67, 'before rebooting, check dmesg', the GTX 1660 Ti and "
        "i7-7700; the maintainer confirms the message and that the machine is fine once "
        "rebooted after all updates); Pop!_OS 21.04's os-release (its base-files fields); "
        "placeholders, not in the report: the PCI id 10de:2182 (TU116 [GeForce GTX 1660 Ti] in "
        "pci.ids) and the rest of the base fixture's PCI tree, the kernel 5.11.0-7614-generic, "
        "the module on disk (updates/dkms/nvidia.ko, what nvidia-dkms-465 builds), the "
        "/proc/driver/nvidia/version build line and the kern.log line's time; " + SRC_LDSO +
        "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            "https://github.com/pop-os/beta/issues/137", pasted,
            "the OS upgrade installed the 465.24.02 driver (module on disk rebuilt) while "
            "460.67 stays loaded: the user space is newer than the running module; rebooting "
            "after the updates loads 465.24.02",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def ubuntu1604_367():
    """NVIDIA/nvidia-docker#182: Ubuntu 16.04, the driver went from 367.35 to 367.44; the user
    had not rebooted."""
    name = "rw-ubuntu1604-367-upgraded-no-reboot"
    rel = "4.4.0-34-generic"
    dst, root = host(name, 0x1b80, "GeForce GTX 1080", "367.35", rel, UBUNTU1604,
                     "nyasara-linux", "Aug 26 09:12:40",
                     "gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.2)")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 367.44, -, none\n",
                *fakes("367.44", 8000)]
    userspace(root, "367.44")
    pasted = ("nvidia-docker.service: Main process exited, code=exited, status=1/FAILURE / "
              "kernel: NVRM: API mismatch: the client has the version 367.44, but NVRM: this "
              "kernel module has the version 367.35.  Please NVRM: make sure that this kernel "
              "module and all NVIDIA driver NVRM: components have the same version.")
    ini(dst, TOPIC,
        "Ubuntu 16.04: following other installation instructions upgraded the NVIDIA driver "
        "from 367.35 to 367.44; nvidia-smi and nvidia-docker fail with 'API mismatch' (client "
        "367.44, module 367.35) because the running kernel still has 367.35; purging and "
        "reinstalling did not help, rebooting did",
        "Rebuilt from https://github.com/NVIDIA/nvidia-docker/issues/182 (pasted: the "
        "journalctl lines of nvidia-docker.service and the NVRM API mismatch with 367.44 and "
        "367.35, 'OS: Ubuntu 16.04'; the maintainer: the kernel module is still 367.35, load "
        "367.44; the user: 'after I upgraded I needed to reboot. Once I rebooted everything is "
        "working fine'); Ubuntu 16.04.1's os-release; placeholders, not in the report: the GPU "
        "(10de:1b80 GP104 [GeForce GTX 1080] in pci.ids) and the rest of the base fixture's "
        "PCI tree, the kernel 4.4.0-34-generic (xenial's in August 2016), the module on disk "
        "(updates/dkms/nvidia.ko at 367.44: the upgrade built it, as the reboot shows), the "
        "host name from the journal line, the /proc/driver/nvidia/version build line and "
        "xenial's gcc 5.4.0; " + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            "https://github.com/NVIDIA/nvidia-docker/issues/182", pasted,
            "the driver was upgraded to 367.44 without a reboot: the running kernel module is "
            "still 367.35; rebooting loads 367.44",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def bazzite42_570():
    """ublue-os/bazzite#2668: the 42.20250522 image has the 570.153.02 user space and the
    570.144 kernel module: rebooting loads 570.144 again."""
    name = "rw-bazzite42-570-image-module-not-updated"
    rel = "6.14.6-103.bazzite.fc42.x86_64"
    dst, root = host(name, 0x2484, "NVIDIA GeForce RTX 3070", "570.144", rel, BAZZITE42,
                     "bazzite", "May 22 19:20:11",
                     "gcc version 15.1.1 20250425 (Red Hat 15.1.1-1) (GCC)")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = 570.144, -, xz, "
                "Dual MIT/GPL\n", *fakes("570.153.02", 12080)]
    userspace(root, "570.153.02")
    w(root, "run/ostree-booted", "")  # ostree-prepare-root's mark of a booted deployment
    pasted = ("[   12.014918] NVRM: API mismatch: the client has the version 570.153.02, but "
              "NVRM: this kernel module has the version 570.144.  Please NVRM: make sure that "
              "this kernel module and all NVIDIA driver components have the same version. / "
              "nvidia 0000:07:00.0: Direct firmware load for nvidia/570.144/gsp_ga10x.bin "
              "failed with error -2 / NVRM: GPU 0000:07:00.0: RmInitAdapter failed! "
              "(0x61:0x56:1770)")
    ini(dst, TOPIC,
        "Bazzite 42.20250522 (bazzite-nvidia, an rpm-ostree image on Fedora 42): the image "
        "updated the NVIDIA user space to 570.153.02 but still carries the 570.144 kernel "
        "module, so every boot loads 570.144, the clients get 'API mismatch' and the desktop "
        "does not start; rebooting cannot help, the image is half-updated (rolling back to the "
        "previous image, or a fixed one, does)",
        "Rebuilt from https://github.com/ublue-os/bazzite/issues/2668 (pasted: the dmesg "
        "lines: NVRM API mismatch 570.153.02 against 570.144 at boot, the GSP firmware "
        "nvidia/570.144/gsp_ga10x.bin not found, RmInitAdapter failed for 0000:07:00.0; the "
        "report: 'Nvidia driver seems to have been updated, but not the kernel module, hence "
        "the system won't boot into desktop', labelled an upstream bug); Bazzite's os-release "
        "(the fields of Bazzite's, version 42.20250522); /run/ostree-booted, the empty file "
        "ostree writes when it boots a deployment (Bazzite is an rpm-ostree image); "
        "placeholders, not in the report: the "
        "GPU (an Ampere GPU, as gsp_ga10x says: 10de:2484 GA104 [GeForce RTX 3070] in pci.ids, "
        "on the base fixture's bus address), the kernel 6.14.6-103.bazzite.fc42, the module's "
        "place extra/nvidia/nvidia.ko.xz (where kmod-nvidia RPMs install it), the "
        "/proc/driver/nvidia/version build line (Fedora 42's gcc 15.1.1), the kern.log line's "
        "time; " + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            "https://github.com/ublue-os/bazzite/issues/2668", pasted,
            "the image shipped the 570.153.02 user space with the old 570.144 kernel module: "
            "the module on disk is the older side, so a reboot loads 570.144 again; the image "
            "must be rolled back or fixed",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def popos2204_515():
    """saharmor/dalle-playground#104: Pop!_OS 22.04, nvidia-driver-515 (515.48.07) installed,
    510.73.05 loaded: docker-compose's nvidia-container-cli fails on NVML."""
    name = "rw-popos2204-515-over-510-module"
    rel = "5.17.5-76051705-generic"
    dst, root = host(name, 0x2204, "NVIDIA GeForce RTX 3090", "510.73.05", rel,
                     pop_os_release("22.04 LTS", "jammy", "Jammy"), "pop-os",
                     "Jun 29 07:12:40", "gcc version 11.2.0 (Ubuntu 11.2.0-19ubuntu1)")
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 515.48.07, -, none\n",
                *fakes("515.48.07", 11070)]
    userspace(root, "515.48.07")
    pasted = ("nvidia-container-cli: initialization error: nvml error: driver/library version "
              "mismatch: unknown / [ 7386.259769] NVRM: API mismatch: the client has the version "
              "515.48.07, but NVRM: this kernel module has the version 510.73.05.  Please NVRM: "
              "make sure that this kernel module and all NVIDIA driver NVRM: components have "
              "the same version.")
    ini(dst, TOPIC,
        "Pop!_OS 22.04 with nvidia-driver-515 (515.48.07, as nvidia-detector reports) installed "
        "while the running kernel still has 510.73.05 loaded: `docker-compose up` fails in the "
        "NVIDIA Container Toolkit's hook ('nvml error: driver/library version mismatch') and "
        "dmesg shows the API mismatch; the kernel module is out of sync with the user space",
        "Rebuilt from https://github.com/saharmor/dalle-playground/issues/104 (pasted: the "
        "docker-compose error with nvidia-container-cli's NVML error, 'nvidia-detector reports "
        "nvidia-driver-515', the dmesg API mismatch 515.48.07 against 510.73.05, 'my kernel "
        "module somehow got out of sync'); Pop!_OS 22.04's os-release (its base-files "
        "fields); placeholders, not in the report: the GPU (10de:2204 GA102 [GeForce RTX 3090] "
        "in pci.ids) and the rest of the base fixture's PCI tree, the kernel "
        "5.17.5-76051705-generic (Pop's in June 2022), the module on disk at 515.48.07 "
        "(updates/dkms/nvidia.ko, built by nvidia-dkms-515 with the packages), the "
        "/proc/driver/nvidia/version build line and the kern.log line's time; Docker and the "
        "container toolkit are not rebuilt (the failure is on the host); " + SRC_LDSO + "; " +
        SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            "https://github.com/saharmor/dalle-playground/issues/104", pasted,
            "nvidia-driver-515 (515.48.07) was installed while 510.73.05 stays loaded: the "
            "user space is newer than the running kernel module; rebooting loads 515.48.07",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def write():
    popos2104_465()
    ubuntu1604_367()
    bazzite42_570()
    popos2204_515()
