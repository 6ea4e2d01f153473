#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the real-world fixtures (tests/fixtures/rw-*): machines rebuilt from public bug
reports, each scenario.ini carrying a [real-world] section (url, pasted: what the user
pasted, cause: what the thread established, root_cause / layer: the answer doctor should
give, fails: whether the user's program fails). Only what the report says, or what the
software it names writes (a distribution's paths, a package's file names, the kernel's log
lines), is put in; what the report leaves out comes from a base tree (named in `source`) and
is kept neutral. Run from the source root, review, commit; the goldens then come from
`GPUENV_UPDATE_EXPECTED=1 meson test -C build-test --suite scenarios`.

  mk-real-world-fixtures.py          (needs gcc for the library stand-ins)

Formats as in mk-rules2-fixtures.py; kernel modules and key variables are never committed:
scenario.ini's [modules] and [efivars] sections make them at test time (run-scenario.py).
"""
import os
import shutil
import subprocess

FIX = "tests/fixtures"


def w(root, path, text, mode=None):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    if mode:
        os.chmod(full, mode)


def link(root, path, target):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.lexists(full):
        os.unlink(full)
    os.symlink(target, full)


def so(root, path, soname):
    """A tiny ELF shared object with the library's real SONAME (not the vendor's code)."""
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    subprocess.run(["gcc", "-x", "c", "-", "-shared", "-fPIC", "-nostdlib", "-s",
                    "-Wl,-z,noseparate-code", "-Wl,-z,norelro", "-Wl,--hash-style=gnu",
                    f"-Wl,-soname,{soname}", "-o", full],
                   input=b"int f(void){return 1;}\n", check=True)


def fresh(name, base=None):
    dst = f"{FIX}/{name}"
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    if base:
        shutil.copytree(f"{FIX}/{base}/root", f"{dst}/root", symlinks=True)
    else:
        os.makedirs(f"{dst}/root")
    return dst, f"{dst}/root"


def ini(dst, desc, source, rw, env, sections=""):
    text = (f"[scenario]\ndescription = {desc}\nsource = {source}; the tree is written by "
            f"tests/tools/mk-real-world-fixtures.py\nargs = --no-vendor\n\n[real-world]\n")
    text += "".join(f"{k} = {v}\n" for k, v in rw.items())
    text += "\n[env]\n" + "".join(f"{k}={v}\n" for k, v in env.items())
    if sections:
        text += "\n" + sections
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write(text)


def os_release(root, text):
    w(root, "etc/os-release", text)


# ---- Secure Boot: a module signed by a key that never reached MokList ---------------------

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
    os_release(root, osrel)
    if not igpu:
        shutil.rmtree(f"{root}/sys/devices/pci0000:00/0000:00:02.0")
        os.unlink(f"{root}/sys/bus/pci/devices/0000:00:02.0")
        shutil.rmtree(f"{root}/sys/bus/pci/drivers/i915")
        for d in ("dri",):
            if os.path.exists(f"{root}/dev/{d}"):
                shutil.rmtree(f"{root}/dev/{d}")
        keep = [l for l in open(f"{root}/proc/modules")
                if not any(m in l.split()[0] or m in l.split()[3]
                           for m in ("i915", "drm_buddy", "ttm", "drm_display_helper", "video"))]
        w(root, "proc/modules", "".join(keep))
    if cpu:
        text = open(f"{root}/proc/cpuinfo").read()
        model = [l for l in text.splitlines() if l.startswith("model name")][0]
        w(root, "proc/cpuinfo", text.replace(model, f"model name\t: {cpu}")
          .replace("GenuineIntel", "AuthenticAMD" if "AMD" in cpu else "GenuineIntel"))
    return dst, root


def secure_boot():
    # 1. Azure NC16as_T4_v3, Ubuntu 20.04, Trusted Launch (Secure Boot on): the NVIDIA GPU
    #    driver extension installs the DKMS driver, whose fresh MOK can only be enrolled at
    #    the VM's boot console, which the user cannot reach.
    rel = "5.15.0-1040-azure"
    dst, root = sb_base(
        "rw-azure-t4-dkms-mok-not-enrolled", 0x1eb8, 0x12a2, rel,
        'NAME="Ubuntu"\nVERSION="20.04.6 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
        'PRETTY_NAME="Ubuntu 20.04.6 LTS"\nVERSION_ID="20.04"\n'
        'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
        'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
        'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
        'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n',
        cpu="AMD EPYC 7V12 64-Core Processor", igpu=False)
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
    ini(dst,
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
        {"url": "https://github.com/MicrosoftDocs/azure-docs/issues/111536",
         "pasted": "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                   "driver. Make sure that the latest NVIDIA driver is installed and running.",
         "cause": "Secure Boot on (Trusted Launch); the DKMS-built driver is signed with a new "
                  "MOK whose enrolment could not be completed at the boot console, so the "
                  "module is rejected",
         "root_cause": "driver.secure-boot-key-not-enrolled",
         "layer": "driver",
         "fails": "yes"},
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 535.54.03, {signer}, none\n\n"
        "[efivars]\n"
        "MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23 = 0x6, "
        "Canonical Ltd. Master Certificate Authority\n"
        "db-d719b2cb-3d3a-4596-a3bc-dad00e67656f = 0x27, Microsoft Windows Production PCA "
        "2011; Microsoft Corporation UEFI CA 2011\n")

    # 2. Fedora 36 with RPM Fusion's akmod-nvidia: akmods signs kmod-nvidia with its own
    #    key, which was never imported with mokutil.
    rel = "5.17.8-300.fc36.x86_64"
    dst, root = sb_base(
        "rw-fedora36-akmods-key-not-enrolled", 0x2230, 0x1459, rel,
        'NAME="Fedora Linux"\nVERSION="36 (Workstation Edition)"\nID=fedora\nVERSION_ID=36\n'
        'VERSION_CODENAME=""\nPLATFORM_ID="platform:f36"\n'
        'PRETTY_NAME="Fedora Linux 36 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
        'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:36"\n'
        'HOME_URL="https://fedoraproject.org/"\nVARIANT="Workstation Edition"\n'
        'VARIANT_ID=workstation\n')
    w(root, "var/log/kern.log",
      "May 24 18:40:02 fedora kernel: secureboot: Secure boot enabled\n"
      "May 24 18:40:02 fedora kernel: Kernel is locked down from EFI Secure Boot mode; see "
      "man kernel_lockdown.7\n"
      "May 24 18:40:03 fedora kernel: integrity: Loaded X.509 cert 'Fedora Secure Boot CA: "
      "fde32599c2d61db1bf5807335d7b20e4cd963b42'\n"
      "May 24 18:40:09 fedora kernel: Loading of module with unavailable key is rejected\n")
    ini(dst,
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
        {"url": "https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/107",
         "pasted": "nvidia kernel module missing falling back to nouveau",
         "cause": "Secure Boot on; the akmods-built kmod-nvidia is signed with a local key that "
                  "is not enrolled; fixed by kmodgenca, mokutil --import "
                  "/etc/pki/akmods/certs/public_key.der, akmods --force and the MOK enrolment "
                  "at reboot",
         "root_cause": "driver.secure-boot-key-not-enrolled",
         "layer": "driver",
         "fails": "yes"},
        {"PATH": "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"},
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = 510.68.02, "
        "fedora akmods local key, xz\n\n"
        "[efivars]\n"
        "MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23 = 0x6, Fedora Secure Boot CA\n"
        "db-d719b2cb-3d3a-4596-a3bc-dad00e67656f = 0x27, Microsoft Windows Production PCA "
        "2011; Microsoft Corporation UEFI CA 2011\n")


# ---- WSL2: a Linux driver's libraries in the distribution ------------------------------

WSL_SRC = ("kernel release as WSL2's Microsoft kernel reports it (<ver>-microsoft-standard-WSL2); "
           "/usr/lib/wsl/lib as WSL mounts the Windows driver's files there (libcuda.so, "
           "libcuda.so.1 and libcuda.so.1.1 as three separate copies, the reason for ldconfig's "
           "'is not a symbolic link' warning in microsoft/WSL#5663; libnvidia-ml.so.1, "
           "nvidia-smi, libdxcore.so); /etc/ld.so.conf.d/ld.wsl.conf as WSL generates it; the "
           "GPU-PV adapter on WSL's virtual PCI bus (Microsoft 1414:008e, class 0302, bound to "
           "dxgkrnl) and /dev/dxg (a misc device, dynamic minor); a Linux driver's user-space "
           "libraries under /usr/lib/x86_64-linux-gnu as Ubuntu's libnvidia-compute-<branch> "
           "installs them; the libraries are tiny gcc-built ELF files with the real SONAMEs and "
           "etc/ld.so.cache is written by glibc's `ldconfig -r` over the tree (Debian 12's "
           "2.36), so which copy comes first is what ldconfig decides")


def wsl_base(name, release, osrel, linux_drv):
    dst, root = fresh(name)
    w(root, "proc/sys/kernel/osrelease", release + "\n")
    os_release(root, osrel)
    w(root, "etc/debian_version", "bookworm/sid\n")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/ld.wsl.conf",
      "# This file was automatically generated by WSL. To stop automatic generation of this "
      "file, add the following entry to /etc/wsl.conf:\n# [automount]\n# ldconfig = false\n"
      "/usr/lib/wsl/lib\n")
    w(root, "etc/ld.so.conf.d/libc.conf",
      "# libc default configuration\n/usr/local/lib\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
      "/usr/lib/x86_64-linux-gnu\n")
    wl = "usr/lib/wsl/lib"
    for f in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1"):
        so(root, f"{wl}/{f}", "libcuda.so.1")
    so(root, f"{wl}/libnvidia-ml.so.1", "libnvidia-ml.so.1")
    so(root, f"{wl}/libdxcore.so", "libdxcore.so")
    w(root, f"{wl}/nvidia-smi", b"\x7fELF", 0o555)
    lib = "usr/lib/x86_64-linux-gnu"
    so(root, f"{lib}/libcuda.so.{linux_drv}", "libcuda.so.1")
    link(root, f"{lib}/libcuda.so.1", f"libcuda.so.{linux_drv}")
    link(root, f"{lib}/libcuda.so", "libcuda.so.1")
    so(root, f"{lib}/libnvidia-ml.so.{linux_drv}", "libnvidia-ml.so.1")
    link(root, f"{lib}/libnvidia-ml.so.1", f"libnvidia-ml.so.{linux_drv}")
    # WSL's GPU-PV adapter on its virtual PCI bus (domain from the VM's vmbus channel).
    bus = "8a35:00:00.0"
    dev = f"sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/8a35a6c4-3e5a-4a1e-9d4a-2b1f5c9f1e24/pci8a35:00/{bus}"
    for k, v in (("vendor", "0x1414"), ("device", "0x008e"), ("class", "0x030200"),
                 ("subsystem_vendor", "0x0000"), ("subsystem_device", "0x0000"),
                 ("revision", "0x00"), ("numa_node", "-1"), ("enable", "1")):
        w(root, f"{dev}/{k}", v + "\n")
    link(root, f"sys/bus/pci/devices/{bus}", f"../../../devices/LNXSYSTM:00/LNXSYBUS:00/"
         f"ACPI0004:00/VMBUS:00/8a35a6c4-3e5a-4a1e-9d4a-2b1f5c9f1e24/pci8a35:00/{bus}")
    w(root, "sys/bus/pci/drivers/dxgkrnl/bind", "")
    link(root, f"{dev}/driver", "../../../../../../../../bus/pci/drivers/dxgkrnl")
    w(root, "proc/modules", "")
    subprocess.run(["/sbin/ldconfig", "-r", root], check=True)
    return dst, root


def wsl():
    # NVIDIA/cuml#6218: numba (through cuML) on WSL2 gets CUDA_ERROR_NO_DEVICE from cuInit; a
    # maintainer traced it to a Linux driver installed in the WSL2 distribution, found before
    # the Windows driver's /usr/lib/wsl/lib (the user's workaround changed the search order).
    dst, root = wsl_base(
        "rw-wsl2-linux-libcuda-numba", "5.15.167.4-microsoft-standard-WSL2",
        'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\n'
        'VERSION="24.04.1 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\n'
        'ID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\n'
        'SUPPORT_URL="https://help.ubuntu.com/"\n'
        'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
        'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
        'UBUNTU_CODENAME=noble\nLOGO=ubuntu-logo\n', "550.120")
    venv = "/mnt/c/Users/Hongb/Documents/Git/hongbomiao.com/machine-learning/hm-cuml/.venv"
    ini(dst,
        "WSL2 (kernel 5.15.167.4-microsoft-standard-WSL2, Ubuntu 24.04) with a Linux NVIDIA "
        "driver's user-space libraries (libnvidia-compute-550: libcuda.so.550.120, "
        "libnvidia-ml.so.550.120) installed in the distribution beside the Windows driver's "
        "/usr/lib/wsl/lib: a uv virtual environment of cuML on the Windows drive calls cuInit "
        "through numba and gets CUDA_ERROR_NO_DEVICE",
        WSL_SRC + "; the thread names neither the distribution release nor the Linux driver's "
        "branch: Ubuntu 24.04 and 550.120 are placeholders of that time (January 2025); the "
        "virtual environment's path is the one pasted (its packages are not rebuilt)",
        {"url": "https://github.com/NVIDIA/cuml/issues/6218",
         "pasted": "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to "
                   "cuInit results in CUDA_ERROR_NO_DEVICE (100)",
         "cause": "a Linux NVIDIA driver installed inside the WSL2 environment is found before "
                  "the Windows driver's /usr/lib/wsl/lib (maintainer's diagnosis; the user's "
                  "workaround changed the library search order)",
         "root_cause": "driver.wsl-linux-driver-installed",
         "layer": "driver",
         "fails": "yes"},
        {"PATH": f"{venv}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                 "/usr/games:/usr/local/games:/usr/lib/wsl/lib",
         "VIRTUAL_ENV": venv},
        "[devices]\n/dev/dxg = c 10:125 0666 0:0\n")


def main():
    secure_boot()
    wsl()


if __name__ == "__main__":
    main()
