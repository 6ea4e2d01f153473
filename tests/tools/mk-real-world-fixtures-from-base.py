#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the real-world fixtures rebuilt from public bug reports that start from another
fixture's tree (run from the repository root; rerun after changing it, never edit the output):

  torch21-cu121-on-r470    https://github.com/lllyasviel/Fooocus/issues/1313
  fedora41-akmods-kernel-6.13  https://github.com/roworu/nvidia-fedora-secureboot/issues/2
  arch-dkms-module-stale-595   https://github.com/Frogging-Family/nvidia-all/issues/394

Each scenario.ini has a [real-world] section (tests/tools/score-real-world.py). What each
report pasted is kept as pasted; what it did not show is taken from the base fixture and
named as such in `source`. The helpers (a GPU tree on another driver, a venv, a torch
dist-info) are those of mk-rules2-fixtures.py.
"""
import importlib.util
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mk2", os.path.join(HERE, "mk-rules2-fixtures.py"))
mk2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk2)
FIX = mk2.FIX
w, link = mk2.w, mk2.link

ARCH_OS_RELEASE = (
    'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n'
    'ANSI_COLOR="38;2;23;147;209"\nHOME_URL="https://archlinux.org/"\n'
    'DOCUMENTATION_URL="https://wiki.archlinux.org/"\nSUPPORT_URL="https://bbs.archlinux.org/"\n'
    'BUG_REPORT_URL="https://gitlab.archlinux.org/groups/archlinux/-/issues"\n'
    'PRIVACY_POLICY_URL="https://terms.archlinux.org/docs/privacy-policy/"\nLOGO=archlinux-logo\n')
FEDORA41_OS_RELEASE = (
    'NAME="Fedora Linux"\nVERSION="41 (Workstation Edition)"\nRELEASE_TYPE=stable\nID=fedora\n'
    'VERSION_ID=41\nVERSION_CODENAME=""\nPLATFORM_ID="platform:f41"\n'
    'PRETTY_NAME="Fedora Linux 41 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:41"\n'
    'DEFAULT_HOSTNAME="fedora"\nHOME_URL="https://fedoraproject.org/"\n'
    'DOCUMENTATION_URL="https://docs.fedoraproject.org/en-US/fedora/f41/system-administrators-guide/"\n'
    'SUPPORT_URL="https://ask.fedoraproject.org/"\n'
    'BUG_REPORT_URL="https://bugzilla.redhat.com/"\nREDHAT_BUGZILLA_PRODUCT="Fedora"\n'
    'REDHAT_BUGZILLA_PRODUCT_VERSION=41\nREDHAT_SUPPORT_PRODUCT="Fedora"\n'
    'REDHAT_SUPPORT_PRODUCT_VERSION=41\nSUPPORT_END=2025-12-15\nVARIANT="Workstation Edition"\n'
    'VARIANT_ID=workstation\n')
UBUNTU2104_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="21.04 (Hirsute Hippo)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 21.04"\nVERSION_ID="21.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'VERSION_CODENAME=hirsute\nUBUNTU_CODENAME=hirsute\n')


def ini(dst, desc, source, env, sections):
    text = f"[scenario]\ndescription = {desc}\nsource = {source}; the tree is written by " \
           f"tests/tools/mk-real-world-fixtures.py\nargs = --no-vendor\n\n[env]\n"
    text += "".join(f"{k}={v}\n" for k, v in env.items())
    text += sections
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write(text)


def real_world(url, pasted, cause, rule, layer, fails):
    return (f"\n[real-world]\nurl = {url}\npasted = {pasted}\ncause = {cause}\n"
            f"root_cause = {rule}\nlayer = {layer}\nfails = {fails}\n")


def fooocus():
    """Fooocus's torch 2.1.0+cu121 on an RTX 3050 Laptop GPU with driver 470.86 (CUDA 11.4)."""
    dst, root = mk2.base_root("torch21-cu121-on-r470", 0x25a2, 0x0a3c,
                              "NVIDIA GeForce RTX 3050 Laptop GPU", "470.86")
    w(root, "etc/os-release", UBUNTU2104_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "5.11.0-49-generic\n")
    # the base's module tree is for its own kernel; the report shows no module path
    shutil.rmtree(f"{root}/lib/modules")
    w(root, "proc/driver/nvidia/version",
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.86  Tue Oct 26 21:55:45 UTC 2021\n"
      "GCC version:  gcc version 10.3.0 (Ubuntu 10.3.0-1ubuntu1) \n")
    site = mk2.venv(root, "/home/user/Fooocus/fooocus_env", "3.10.12")
    mk2.torch_dist(root, site, "2.1.0+cu121", "'12.1'",
                   requires=["nvidia-cuda-runtime-cu12==12.1.105; platform_system == \"Linux\" "
                             "and platform_machine == \"x86_64\""])
    # the wheel's dist-info only: its libcudart is not what fails here (no ELF committed)
    di = f"{site}/nvidia_cuda_runtime_cu12-12.1.105.dist-info"
    w(root, f"{di}/METADATA", "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\n"
      "Version: 12.1.105\nSummary: CUDA Runtime native Libraries\n")
    w(root, f"{di}/INSTALLER", "pip\n")
    pasted = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). "
              "Please update your GPU driver by downloading and installing a new version from "
              "the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
              "https://pytorch.org to install a PyTorch version that has been compiled with "
              "your version of the CUDA driver.")
    ini(dst,
        "Fooocus on Ubuntu 21.04 with a GeForce RTX 3050 Laptop GPU and driver 470.86 (CUDA "
        "11.4): Fooocus's launcher installs torch 2.1.0 from https://download.pytorch.org/whl/"
        "cu121 into its venv, and torch fails with 'The NVIDIA driver on your system is too old "
        "(found version 11040)'. CUDA 12.1 needs driver >= 530.30.02 (>= 525.60.13 through "
        "minor-version compatibility); no torch 2.1 wheel (cu118, cu121) runs on 470.86, and "
        "there is no cu114 index to fall back to: the fix is a newer driver, or a torch release "
        "that published a variant 470.86 runs",
        "Rebuilt from https://github.com/lllyasviel/Fooocus/issues/1313 (pasted: the "
        "RuntimeError, 'Ubuntu 21.04', 'Nvidia GeForce RTX 3050 laptop GPU', nvidia-smi's "
        "'NVIDIA-SMI 470.86 Driver Version: 470.86 CUDA Version: 11.4'); torch 2.1.0+cu121 and "
        "its nvidia-cuda-runtime-cu12 12.1.105 pin from Fooocus's launch.py of that time "
        "(TORCH_COMMAND: torch==2.1.0 … --extra-index-url https://download.pytorch.org/whl/"
        "cu121) and the fooocus_env venv of its Linux instructions; not in the report and "
        "chosen here: the PCI id 10de:25a2 (GA107M [GeForce RTX 3050 Mobile] in pci.ids), "
        "Ubuntu 21.04's 5.11.0-49-generic kernel, Python 3.10; " + mk2.SRC_BASE +
        "; torch version.py and dist-info as mk-rules2-fixtures.py writes them (no "
        "libtorch_cuda.so: the GPU code is not what fails here)",
        {"PATH": "/home/user/Fooocus/fooocus_env/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin", "VIRTUAL_ENV": "/home/user/Fooocus/fooocus_env",
         "HOME": "/home/user"},
        "\n" + mk2.base_ini() + real_world(
            "https://github.com/lllyasviel/Fooocus/issues/1313", pasted,
            "torch 2.1.0+cu121 needs a CUDA 12.1 driver (>= 525.60.13 even through minor-version "
            "compatibility); driver 470.86 supports CUDA 11.4 (found version 11040); no torch 2.1 "
            "variant runs on it: upgrade the driver",
            "framework.cuda-newer-than-driver", "framework", "yes"))


def fedora_akmods():
    """Fedora 41: akmods cannot build nvidia 565.77 for kernel 6.13.4: no nvidia.ko."""
    name = "fedora41-akmods-kernel-6.13"
    dst = f"{FIX}/{name}"
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    root = f"{dst}/root"
    shutil.copytree(f"{FIX}/nvidia-gpu-no-driver/root", root, symlinks=True)
    w(root, "etc/os-release", FEDORA41_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "6.13.4-200.fc41.x86_64\n")
    w(root, "etc/modprobe.d/blacklist-nouveau.conf", "blacklist nouveau\n")
    pasted = ("Checking kmods exist for 6.13.4-200.fc41.x86_64 [  OK  ] / Building and "
              "installing nvidia-kmod [FAILED] / Building rpms failed; see "
              "/var/cache/akmods/nvidia/565.77-1-for-6.13.4-200.fc41.x86_64.failed.log for "
              "details")
    ini(dst,
        "Fedora 41 with RPM Fusion's akmod-nvidia 565.77: after the update to kernel "
        "6.13.4-200.fc41 `sudo akmods --force` fails ('Building and installing nvidia-kmod "
        "[FAILED]', make errors in /usr/src/kernels/6.13.4-200.fc41.x86_64), so there is no "
        "nvidia.ko for the running kernel, the module is not loaded and the GPU has no driver. "
        "The fix is Fedora's, not apt/DKMS: kernel-devel for the running kernel and akmods, "
        "with a driver that builds on 6.13 (570)",
        "Rebuilt from https://github.com/roworu/nvidia-fedora-secureboot/issues/2 (pasted: "
        "the dnf install line with kernel-devel and akmod-nvidia, the akmods output and the "
        "akmodsbuild make errors for 6.13.4-200.fc41.x86_64); that 565.77 does not build on "
        "6.13 while 570 does: https://github.com/NixOS/nixpkgs/issues/375730; Fedora 41's "
        "os-release verbatim; the blacklist-nouveau.conf the akmod-nvidia package installs "
        "(RPM Fusion Howto/NVIDIA); not in the report and taken from the nvidia-gpu-no-driver "
        "fixture (its sources): the GPU's PCI tree (an RTX 4090; the report does not name the "
        "GPU) and /proc/modules",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/roworu/nvidia-fedora-secureboot/issues/2", pasted,
            "akmods could not build nvidia 565.77 for kernel 6.13.4-200.fc41, so there is no "
            "nvidia.ko for the running kernel; a driver that builds on 6.13 (570) built with "
            "akmods fixes it",
            "driver.module-missing-for-kernel", "driver", "yes"))


def arch_dkms_stale():
    """Arch, linux-zen 7.0.12: user space 595.84, the DKMS module on disk and loaded 595.80."""
    dst, root = mk2.base_root("arch-dkms-module-stale-595", 0x2684, 0x167c,
                              "NVIDIA GeForce RTX 4090", "595.80", flavor="open")
    rel = "7.0.12-zen1-1-zen"
    w(root, "etc/os-release", ARCH_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", rel + "\n")
    old = f"{root}/lib/modules"
    if os.path.exists(old):
        shutil.rmtree(old)
    link_build = f"{root}/lib/modules/{rel}/build"
    os.makedirs(os.path.dirname(link_build), exist_ok=True)
    os.symlink(f"/usr/lib/modules/{rel}/build", link_build)
    # Arch logs to the journal: no rsyslog text log (the base's kern.log is Ubuntu's)
    for f in ("kern.log", "syslog", "messages"):
        if os.path.exists(f"{root}/var/log/{f}"):
            os.unlink(f"{root}/var/log/{f}")
    w(root, "var/log/dmesg",
      "[    8.805842] r8169 0000:83:00.0: invalid VPD tag 0xff (size 0) at offset 0; assume "
      "missing optional EEPROM\n"
      "[    9.424670] NVRM: API mismatch: the client 'kwin_wayland' (pid 1005)\n"
      "               NVRM: has the version 595.84, but this kernel module has\n"
      "               NVRM: the version 595.80.  Please make sure that this\n"
      "               NVRM: kernel module and all NVIDIA driver components\n"
      "               NVRM: have the same version.\n")
    pasted = ("NVRM: API mismatch: the client 'kwin_wayland' (pid 1005) NVRM: has the version "
              "595.84, but this kernel module has NVRM: the version 595.80. / modinfo nvidia: "
              f"filename: /lib/modules/{rel}/updates/dkms/nvidia.ko.zst version: 595.80")
    sections = "\n" + mk2.base_ini()
    sections += (f"\n[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko.zst = 595.80, -, "
                 "zstd\n")
    ini(dst,
        "An Arch Linux desktop on linux-zen 7.0.12 that upgraded the nvidia-all open-module "
        "DKMS packages from 595.80 to 595.84 and rebooted: the user space (kwin_wayland's "
        "libraries) is 595.84, but the nvidia.ko.zst DKMS left under /lib/modules/"
        f"{rel}/updates/dkms is still 595.80, and that is what booted: 'NVRM: API mismatch'. "
        "Another reboot loads 595.80 again; the module must be rebuilt for the running "
        "kernel (dkms) before a reboot helps",
        "Rebuilt from https://github.com/Frogging-Family/nvidia-all/issues/394 (pasted: the "
        "dmesg lines with the API mismatch, modinfo nvidia's filename /lib/modules/"
        f"{rel}/updates/dkms/nvidia.ko.zst and version 595.80, 'Kernel version 7.0.12', "
        "'Driver type open-gpu-kernel-modules', 'DKMS used? YES'); the dmesg lines are kept "
        "as pasted in /var/log/dmesg (gpuenv reads the ring buffer live, a text log under "
        "--sysroot); Arch Linux's os-release verbatim; the module is made at test time from "
        "[modules] (version 595.80, zstd, unsigned as DKMS builds it without a MOK); not in "
        "the report and taken from the rtx4090-open-module fixture: the GPU (an RTX 4090; the "
        "report names none), /proc/modules and the device nodes; " + mk2.SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/bin"},
        sections + real_world(
            "https://github.com/Frogging-Family/nvidia-all/issues/394", pasted,
            "DKMS did not rebuild the 595.84 module for the running kernel: the nvidia.ko on "
            "disk is still 595.80, the loaded one, while the user space is 595.84; a reboot "
            "does not fix it, rebuilding the module (dkms) does",
            "driver.nvml-version-mismatch", "driver", "yes"))


def main():
    fooocus()
    fedora_akmods()
    arch_dkms_stale()


if __name__ == "__main__":
    main()
