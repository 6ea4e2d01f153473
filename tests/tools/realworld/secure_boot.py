# SPDX-License-Identifier: GPL-2.0-or-later
"""Secure Boot: a module signed by a key that never reached MokList (the kernel refuses it)."""
import os
import shutil

from realworld.common import (FEDORA36_OS_RELEASE, UBUNTU2004_OS_RELEASE, fresh, ini, link,
                              read, real_world, w)

TOPIC = "secure_boot"
FIXTURES = ("rw-azure-t4-dkms-mok-not-enrolled", "rw-fedora36-akmods-key-not-enrolled",
            "rw-mint22-dkms-mok-not-enrolled", "rw-fedora34-akmods-unsigned-rtx2060s",
            "rw-fedora38-legion-sdboot-no-shim-akmods")

SB_BASE = "secure-boot-unsigned"
SB_SRC = ("the sysfs PCI tree, /proc files, /etc/group and modprobe.d of the secure-boot-unsigned "
          "fixture (see its sources), the GPU re-identified with its pci.ids ids; efivarfs "
          "SecureBoot (4 attribute bytes + 1 data byte); MokListRT and db made at test time "
          "([efivars]: tests/tools/mk-efivar.py, EFI_SIGNATURE_LISTs of stand-in certificates "
          "with the real subjects' commonNames, made by the same script as the module's key); "
          "nvidia.ko made at test time ([modules]: tests/tools/mk-kmodule.sh, signed as "
          "sign-file/kmodsign sign); kernel log lines in the wording of kernel/module/signing.c "
          "('Loading of %s is rejected', reason 'module with unavailable key') and "
          "security/integrity ('Loaded X.509 cert')")
PC_DB = ("db-d719b2cb-3d3a-4596-a3bc-dad00e67656f = 0x27, Microsoft Windows Production PCA "
         "2011; Microsoft Corporation UEFI CA 2011\n")


def sb_base(name, gpu_dev, gpu_subsys, release, osrel, cpu=None, igpu=True):
    dst, root = fresh(name, SB_BASE)
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, f"{gpu}/device", f"0x{gpu_dev:04x}\n")
    w(root, f"{gpu}/subsystem_device", f"0x{gpu_subsys:04x}\n")
    if gpu_dev == 0x1eb8:  # Tesla T4: a 3D controller, not VGA
        w(root, f"{gpu}/class", "0x030200\n")
    shutil.rmtree(f"{root}/lib/modules")
    shutil.rmtree(f"{root}/usr/src")  # the base kernel's headers
    w(root, "proc/sys/kernel/osrelease", release + "\n")
    w(root, "etc/os-release", osrel)
    if not igpu:
        shutil.rmtree(f"{root}/sys/devices/pci0000:00/0000:00:02.0")
        os.unlink(f"{root}/sys/bus/pci/devices/0000:00:02.0")
        shutil.rmtree(f"{root}/sys/bus/pci/drivers/i915")
        if os.path.exists(f"{root}/dev/dri"):
            shutil.rmtree(f"{root}/dev/dri")
        keep = [l for l in read(root, "proc/modules").splitlines(True)
                if not any(m in l.split()[0] or m in l.split()[3]
                           for m in ("i915", "drm_buddy", "ttm", "drm_display_helper", "video"))]
        w(root, "proc/modules", "".join(keep))
    if cpu:
        text = read(root, "proc/cpuinfo")
        model = [l for l in text.splitlines() if l.startswith("model name")][0]
        w(root, "proc/cpuinfo", text.replace(model, f"model name\t: {cpu}")
          .replace("GenuineIntel", "AuthenticAMD" if "AMD" in cpu else "GenuineIntel"))
    return dst, root


def nouveau_took_gpu(root):
    """nouveau bound to sb_base's GPU and loaded, no nouveau blacklist in effect: what the
    fallback leaves when the kernel refused nvidia.ko."""
    os.unlink(f"{root}/etc/modprobe.d/blacklist-nvidia-nouveau.conf")
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, "sys/bus/pci/drivers/nouveau/bind", "")
    link(root, f"{gpu}/driver", "../../../../bus/pci/drivers/nouveau")
    w(root, "proc/modules", read(root, "proc/modules") +
      "nouveau 2674688 3 - Live 0x0000000000000000\n"
      "mxm_wmi 16384 1 nouveau, Live 0x0000000000000000\n")


def azure_t4():
    # Azure NC16as_T4_v3, Ubuntu 20.04, Trusted Launch (Secure Boot on): the NVIDIA GPU driver
    # extension installs the DKMS driver, whose fresh MOK can only be enrolled at the VM's boot
    # console, which the user cannot reach.
    rel = "5.15.0-1040-azure"
    dst, root = sb_base("rw-azure-t4-dkms-mok-not-enrolled", 0x1eb8, 0x12a2, rel,
                        UBUNTU2004_OS_RELEASE, cpu="AMD EPYC 7V12 64-Core Processor", igpu=False)
    # Hyper-V guest drivers instead of the base workstation's NIC and sound card.
    w(root, "proc/modules", "".join(
        f"{m} {size} {refs} - Live 0x0000000000000000\n" for m, size, refs in (
            ("hv_netvsc", 94208, 0), ("hyperv_fb", 24576, 2), ("hv_storvsc", 24576, 3),
            ("hv_utils", 45056, 2), ("hid_hyperv", 20480, 0), ("hyperv_keyboard", 16384, 0),
            ("hv_vmbus", 135168, 7))))
    w(root, "var/log/kern.log",
      "Jun 28 10:02:11 gpu-vm kernel: [    0.000000] secureboot: Secure boot enabled\n"
      "Jun 28 10:02:11 gpu-vm kernel: [    0.000000] Kernel is locked down from EFI Secure "
      "Boot mode; see man kernel_lockdown.7\n"
      "Jun 28 10:02:12 gpu-vm kernel: [    1.102933] integrity: Loaded X.509 cert "
      "'Canonical Ltd. Master Certificate Authority: ad91990bc22ab1f517048c23b6655a268e345a63'\n"
      "Jun 28 10:09:40 gpu-vm kernel: [  449.230117] Loading of module with unavailable key "
      "is rejected\n")
    signer = "gpu-vm Secure Boot Module Signature key"
    ini(dst, TOPIC,
        "An Azure NC16as_T4_v3 VM (Tesla T4, 10de:1eb8) with Trusted Launch, so Secure Boot "
        "is on, Ubuntu 20.04 on the 5.15 Azure kernel: the NVIDIA GPU Driver Extension built "
        "535.54.03 with DKMS and signed it with a Machine Owner Key made for the purpose "
        "(shim-signed's update-secureboot-policy), but the key was never enrolled (the "
        "MokManager screen of the next boot cannot be reached on the VM), so the kernel "
        "refuses the module",
        SB_SRC + "; Ubuntu 20.04's os-release verbatim; the MOK's commonName is the form "
        "update-secureboot-policy gives ('<host> Secure Boot Module Signature key', the host "
        "name a placeholder); MokListRT holds shim's vendor certificate (Canonical's CA) as "
        "shim mirrors it; db the Microsoft certificates of Azure's Trusted Launch firmware; "
        "/proc/modules lists Hyper-V guest drivers (hv_vmbus, hv_netvsc …); the PCI topology "
        "is the base tree's (on Azure the GPU sits on a Hyper-V virtual PCI bus)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/MicrosoftDocs/azure-docs/issues/111536",
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
            "sure that the latest NVIDIA driver is installed and running.",
            "Secure Boot on (Trusted Launch); the DKMS-built driver is signed with a new MOK "
            "whose enrolment could not be completed at the boot console, so the module is "
            "rejected",
            "driver.secure-boot-key-not-enrolled", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 535.54.03, {signer}, none\n",
        "[efivars]\nMokListRT-605dab50-e046-4300-abb6-3dd810dd8b23 = 0x6, "
        "Canonical Ltd. Master Certificate Authority\n" + PC_DB)


def fedora36_akmods():
    # Fedora 36 with RPM Fusion's akmod-nvidia: akmods signs kmod-nvidia with its own key,
    # which was never imported with mokutil.
    rel = "5.17.8-300.fc36.x86_64"
    dst, root = sb_base("rw-fedora36-akmods-key-not-enrolled", 0x2230, 0x1459, rel,
                        FEDORA36_OS_RELEASE)
    w(root, "var/log/kern.log",
      "May 24 18:40:02 fedora kernel: secureboot: Secure boot enabled\n"
      "May 24 18:40:02 fedora kernel: Kernel is locked down from EFI Secure Boot mode; see "
      "man kernel_lockdown.7\n"
      "May 24 18:40:03 fedora kernel: integrity: Loaded X.509 cert 'Fedora Secure Boot CA: "
      "fde32599c2d61db1bf5807335d7b20e4cd963b42'\n"
      "May 24 18:40:09 fedora kernel: Loading of module with unavailable key is rejected\n")
    ini(dst, TOPIC,
        "A Fedora 36 workstation with Secure Boot on and RPM Fusion's akmod-nvidia 510.68.02: "
        "akmods built kmod-nvidia for 5.17.8 into extra/nvidia/nvidia.ko.xz and signed it "
        "with its local key (kmodgenca), which was never imported into MokList, so the "
        "kernel refuses it and GNOME falls back to nouveau (blacklisted here as RPM Fusion's "
        "package does, so the GPU has no driver); the thread does not name the GPU: the base "
        "tree's RTX A6000 is kept",
        SB_SRC + "; Fedora 36's os-release verbatim; akmods' module path "
        "(/lib/modules/<release>/extra/nvidia/nvidia.ko.xz, xz-compressed after signing) and "
        "key (/etc/pki/akmods/certs/public_key.der; its commonName a placeholder); MokListRT "
        "holds shim's vendor certificate (Fedora Secure Boot CA); db a PC's Microsoft "
        "certificates",
        {"PATH": "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"},
        real_world(
            "https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/107",
            "nvidia kernel module missing falling back to nouveau",
            "Secure Boot on; the akmods-built kmod-nvidia is signed with a local key that is "
            "not enrolled; fixed by kmodgenca, mokutil --import "
            "/etc/pki/akmods/certs/public_key.der, akmods --force and the MOK enrolment at "
            "reboot",
            "driver.secure-boot-key-not-enrolled", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = 510.68.02, "
        "fedora akmods local key, xz\n",
        "[efivars]\nMokListRT-605dab50-e046-4300-abb6-3dd810dd8b23 = 0x6, "
        "Fedora Secure Boot CA\n" + PC_DB)


MINT22_OS_RELEASE = (
    'NAME="Linux Mint"\nVERSION="22 (Wilma)"\nID=linuxmint\nID_LIKE="ubuntu debian"\n'
    'PRETTY_NAME="Linux Mint 22"\nVERSION_ID="22"\nHOME_URL="https://www.linuxmint.com/"\n'
    'SUPPORT_URL="https://forums.linuxmint.com/"\n'
    'BUG_REPORT_URL="http://linuxmint-troubleshooting-guide.readthedocs.io/en/latest/"\n'
    'PRIVACY_POLICY_URL="https://www.linuxmint.com/"\nVERSION_CODENAME=wilma\n'
    'UBUNTU_CODENAME=noble\n')


def mint22_dkms():
    # linuxmint/mintdrivers#100: on Linux Mint 22 the Driver Manager's NVIDIA install no
    # longer asks for the MOK password, so the key DKMS signed the module with is never
    # enrolled; the user enrolled it with update-secureboot-policy --enroll-key.
    rel = "6.8.0-39-generic"
    dst, root = sb_base("rw-mint22-dkms-mok-not-enrolled", 0x2230, 0x1459, rel,
                        MINT22_OS_RELEASE)
    w(root, "var/log/kern.log",
      "Aug  9 08:12:01 mint kernel: [    0.000000] secureboot: Secure boot enabled\n"
      "Aug  9 08:12:01 mint kernel: [    0.000000] Kernel is locked down from EFI Secure "
      "Boot mode; see man kernel_lockdown.7\n"
      "Aug  9 08:12:02 mint kernel: [    0.871904] integrity: Loaded X.509 cert "
      "'Canonical Ltd. Master Certificate Authority: ad91990bc22ab1f517048c23b6655a268e345a63'\n"
      "Aug  9 08:12:07 mint kernel: [    6.402117] Loading of module with unavailable key "
      "is rejected\n")
    signer = "mint Secure Boot Module Signature key"
    ini(dst, TOPIC,
        "Linux Mint 22 (Ubuntu 24.04 base, ID_LIKE ubuntu) with Secure Boot on: Driver "
        "Manager installed nvidia-driver-550, DKMS built nvidia.ko for 6.8.0-39-generic and "
        "signed it with shim-signed's Machine Owner Key, but Mint 22's Driver Manager never "
        "asked for the MOK password, so no enrolment was staged and the key is not in "
        "MokListRT: the kernel refuses the module; `sudo update-secureboot-policy "
        "--enroll-key` and the MokManager screen at the next boot fixed it",
        SB_SRC + "; Linux Mint 22's os-release verbatim (ID=linuxmint, ID_LIKE=\"ubuntu "
        "debian\", UBUNTU_CODENAME=noble); the MOK's commonName in the form "
        "update-secureboot-policy gives it ('<host> Secure Boot Module Signature key', the "
        "host name a placeholder); MokListRT holds shim's vendor certificate (Canonical's CA, "
        "Mint uses Ubuntu's shim-signed); db a PC's Microsoft certificates; placeholders, not "
        "in the report: the kernel (6.8.0-39-generic, Mint 22's in August 2024), the driver "
        "release (550.90.07, noble's then) and its place (updates/dkms/nvidia.ko.zst, as "
        "Ubuntu 24.04's dkms compresses it), the GPU (the base tree's RTX A6000; the report "
        "names none), the kernel log's times",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/linuxmint/mintdrivers/issues/100",
            "I just had to re-enroll the MOK key to use the Nvidia driver with secure boot "
            "enabled. [...] it seems that it does no longer work on Linux Mint 22. I had to run "
            "the following command and do it myself: sudo update-secureboot-policy --enroll-key",
            "Secure Boot on; the DKMS-built NVIDIA module is signed with shim-signed's MOK, "
            "which Mint 22's Driver Manager no longer enrolls; enrolling it with "
            "update-secureboot-policy --enroll-key fixes it",
            "driver.secure-boot-key-not-enrolled", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 550.90.07, {signer}, "
        "zstd\n",
        "[efivars]\nMokListRT-605dab50-e046-4300-abb6-3dd810dd8b23 = 0x6, "
        "Canonical Ltd. Master Certificate Authority\n" + PC_DB)


FEDORA34_OS_RELEASE = (
    'NAME=Fedora\nVERSION="34 (Workstation Edition)"\nID=fedora\nVERSION_ID=34\n'
    'VERSION_CODENAME=""\nPLATFORM_ID="platform:f34"\n'
    'PRETTY_NAME="Fedora 34 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:34"\n'
    'HOME_URL="https://fedoraproject.org/"\n'
    'DOCUMENTATION_URL="https://docs.fedoraproject.org/en-US/fedora/f34/system-administrators-guide/"\n'
    'SUPPORT_URL="https://fedoraproject.org/wiki/Communicating_and_getting_help"\n'
    'BUG_REPORT_URL="https://bugzilla.redhat.com/"\nREDHAT_BUGZILLA_PRODUCT="Fedora"\n'
    'REDHAT_BUGZILLA_PRODUCT_VERSION=34\nREDHAT_SUPPORT_PRODUCT="Fedora"\n'
    'REDHAT_SUPPORT_PRODUCT_VERSION=34\n'
    'PRIVACY_POLICY_URL="https://fedoraproject.org/wiki/Legal:PrivacyPolicy"\n'
    'VARIANT="Workstation Edition"\nVARIANT_ID=workstation\n')


def fedora34_akmods_unsigned():
    # gridhead/nvidia-auto-installer-for-fedora-linux#75: Fedora 34, RPM Fusion's
    # akmod-nvidia installed by nvautoinstall on an RTX 2060 SUPER; Secure Boot was still on
    # from the machine's Windows install, so the kernel refused the unsigned akmods module;
    # turning Secure Boot off and reinstalling fixed it.
    rel = "5.14.9-200.fc34.x86_64"
    dst, root = sb_base("rw-fedora34-akmods-unsigned-rtx2060s", 0x1f06, 0x0000, rel,
                        FEDORA34_OS_RELEASE)
    w(root, "var/log/kern.log",
      "Oct  5 19:02:11 fedora kernel: secureboot: Secure boot enabled\n"
      "Oct  5 19:02:11 fedora kernel: Kernel is locked down from EFI Secure Boot mode; see "
      "man kernel_lockdown.7\n"
      "Oct  5 19:02:12 fedora kernel: integrity: Loaded X.509 cert 'Fedora Secure Boot CA: "
      "fde32599c2d61db1bf5807335d7b20e4cd963b42'\n"
      "Oct  5 19:02:17 fedora kernel: Loading of unsigned module is rejected\n")
    # nouveau drives the GPU (the report's About page: NV166)
    nouveau_took_gpu(root)
    ini(dst, TOPIC,
        "A Fedora 34 desktop with an RTX 2060 SUPER that came from a Windows install with "
        "Secure Boot on: nvautoinstall (--rpmadd --driver --nvrepo --plcuda) installed RPM "
        "Fusion's akmod-nvidia, akmods built kmod-nvidia 470.74 for 5.14.9 into "
        "extra/nvidia/nvidia.ko.xz without signing it (no akmods key was made), and the "
        "kernel, locked down by Secure Boot, refuses it: nvidia-smi cannot reach a driver and "
        "GNOME shows NV166 (nouveau); disabling Secure Boot and reinstalling fixed it",
        SB_SRC + "; Fedora 34's os-release in that release's form (NAME=Fedora, before "
        "Fedora 35's 'Fedora Linux'); akmods' module path "
        "(/lib/modules/<release>/extra/nvidia/nvidia.ko.xz); the GPU as 10de:1f06 (TU106 "
        "[GeForce RTX 2060 SUPER] in pci.ids); placeholders, not in the report: the kernel "
        "5.14.9-200.fc34 and the driver 470.74 (Fedora 34's and RPM Fusion's in October 2021), "
        "the kernel log's times",
        {"PATH": "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"},
        real_world(
            "https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/75",
            "$ sudo nvidia-smi / NVIDIA-SMI has failed because it couldn't communicate with the "
            "NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
            "Secure Boot was enabled (left on from the previous Windows install), so the "
            "akmods-built NVIDIA module, not signed by any enrolled key, does not load; "
            "disabling Secure Boot and reinstalling the driver fixed it",
            "driver.secure-boot-unsigned-module", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = 470.74, -, xz\n")


FEDORA38_OS_RELEASE = (
    'NAME="Fedora Linux"\nVERSION="38 (Workstation Edition)"\nID=fedora\nVERSION_ID=38\n'
    'VERSION_CODENAME=""\nPLATFORM_ID="platform:f38"\n'
    'PRETTY_NAME="Fedora Linux 38 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:38"\n'
    'DEFAULT_HOSTNAME="fedora"\nHOME_URL="https://fedoraproject.org/"\n'
    'DOCUMENTATION_URL="https://docs.fedoraproject.org/en-US/fedora/f38/system-administrators-guide/"\n'
    'SUPPORT_URL="https://ask.fedoraproject.org/"\n'
    'BUG_REPORT_URL="https://bugzilla.redhat.com/"\nREDHAT_BUGZILLA_PRODUCT="Fedora"\n'
    'REDHAT_BUGZILLA_PRODUCT_VERSION=38\nREDHAT_SUPPORT_PRODUCT="Fedora"\n'
    'REDHAT_SUPPORT_PRODUCT_VERSION=38\nSUPPORT_END=2024-05-14\nVARIANT="Workstation Edition"\n'
    'VARIANT_ID=workstation\n')


def fedora38_sdboot_no_shim():
    # sebastiaanfranken/systemd-boot-conversion#2: the script replaced GRUB and shim with
    # systemd-boot and a signed UKI (the user's own keys, with Microsoft's, in db); without
    # shim there is no MokList, so the akmods key the user imported with mokutil never gets
    # enrolled and the kernel refuses the akmods-signed NVIDIA module.
    rel = "6.3.4-201.fc38.x86_64"
    dst, root = sb_base("rw-fedora38-legion-sdboot-no-shim-akmods", 0x1f95, 0x3a43, rel,
                        FEDORA38_OS_RELEASE, cpu="AMD Ryzen 7 4800H with Radeon Graphics",
                        igpu=False)
    w(root, "var/log/kern.log",
      "May 31 10:02:11 fedora kernel: secureboot: Secure boot enabled\n"
      "May 31 10:02:11 fedora kernel: Kernel is locked down from EFI Secure Boot mode; see "
      "man kernel_lockdown.7\n"
      "May 31 10:02:18 fedora kernel: Loading of module with unavailable key is rejected\n")
    ini(dst, TOPIC,
        "A Lenovo Legion laptop (Ryzen 7 4800H, GeForce GTX 1650 Ti Mobile) on Fedora 38 after "
        "the systemd-boot conversion script: GRUB and shim are gone, the UKI boots under the "
        "user's own Secure Boot keys (enrolled with Microsoft's), and RPM Fusion's akmods "
        "signs kmod-nvidia with its local key, which is in no firmware db and, with no shim, "
        "cannot be put in a MokList: mokutil --import stages nothing, no enrolment screen "
        "comes, and the kernel refuses nvidia.ko",
        SB_SRC + "; the GPU re-identified as 10de:1f95 (TU117M [GeForce GTX 1650 Ti Mobile] in "
        "pci.ids; its subsystem id a placeholder) and the CPU as the report's Ryzen 7 4800H; "
        "the base tree's Intel iGPU removed (the laptop's Radeon iGPU is not rebuilt); "
        "Fedora 38's os-release (Fedora's fields for 38); no MokListRT (shim is not in the "
        "boot chain); db holds the user's own key, enrolled with Microsoft's (the script's "
        "--microsoft option), its commonName a placeholder; placeholders, not in the report: "
        "the kernel (6.3.4-201.fc38, Fedora 38's at the end of May 2023), the akmod-nvidia "
        "release (530.41.03, RPM Fusion's for Fedora 38 then) and akmods' module path "
        "(extra/nvidia/nvidia.ko.xz), the kernel log's times",
        {"PATH": "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"},
        real_world(
            "https://github.com/sebastiaanfranken/systemd-boot-conversion/issues/2",
            "Now the system boots but my nvidia driver cant load because of secure boot. [...] "
            "i installed mokutil and enrolled the keys which akmods generate. Now, after "
            "rebooting the enrollment window doesn't show up. So i cant add the key.",
            "Secure Boot is on and the akmods key that signs nvidia.ko is not enrolled; with "
            "shim replaced by systemd-boot there is no MokManager to enrol it (the maintainer: "
            "key enrolment into the shim is not part of the script, mokutil won't do "
            "anything); the module must be signed with a key in db, or shim restored",
            "driver.secure-boot-key-not-enrolled", "driver", "yes"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = 530.41.03, "
        "fedora akmods local key, xz\n",
        "[efivars]\ndb-d719b2cb-3d3a-4596-a3bc-dad00e67656f = 0x27, Database Key; "
        "Microsoft Windows Production PCA 2011; Microsoft Corporation UEFI CA 2011\n")


def write():
    azure_t4()
    fedora36_akmods()
    mint22_dkms()
    fedora34_akmods_unsigned()
    fedora38_sdboot_no_shim()
