# SPDX-License-Identifier: GPL-2.0-or-later
"""Reports no fixture had used, rebuilt the way an outside evaluator would rebuild them: the
classic failures (a user space newer than the loaded module, a module built for another
kernel, nouveau holding the GPU, an old wheel on a new GPU, a container started without its
GPU), each only as far as its thread shows it, to measure doctor on machines it was not
tuned on. The scores before any change are in docs/HACKING.md ("Reports an outside evaluator
would pick")."""
import os
import shutil

from realworld.common import (MULTIARCH_LD_CONF, SRC_BASE, base_root, move_kernel, so, UBUNTU2004_OS_RELEASE, driver_libs, fresh, ini, ldso_cache, mk2,
                              real_world, section, torch_dist, ubuntu_os_release, w)
from realworld.driver import DEBIAN12, FAKE_ARGS, SRC_FAKES, SRC_LDSO, fakes, userspace
from realworld.libs import conda_env
from realworld.upgrades import host
from realworld.wheels import rtx3090_host

TOPIC = "outside"
FIXTURES = ("rw-truenas-580.178-userspace-580.173.02-module",
            "rw-ubuntu1404-runfile-module-only-for-old-kernel",
            "rw-fedora29-gm204-nouveau-despite-rd-blacklist",
            "rw-rtx4090-torch180-cu102-ctran",
            "rw-docker-cuda117-image-run-without-gpus",
            "rw-docker1903-container-without-nvidia-uvm-device",
            "rw-arch-nvidia-dkms-no-module-for-cachyos-kernel",
            "rw-wsl2-windows-without-gpu-paravirtualization",
            "rw-one-gpu-cuda-visible-devices-1-autoformer",
            "rw-rhel83-driver-loaded-without-nvidia-smi")
BASE = "rtx4090-open-module"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}


def truenas_580():
    """zzzhouuu/truenas-nvidia-drivers#19: the install script put the 580.178 user space in
    while the 580.173.02 module stayed loaded; reinstalling after a restart fixed it."""
    name = "rw-truenas-580.178-userspace-580.173.02-module"
    url = "https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/19"
    rel = "6.12.15-production+truenas"
    user, loaded = "580.178.04", "580.173.02"
    dst, root = host(name, 0x2684, "NVIDIA GeForce RTX 4090", loaded, rel, DEBIAN12, "truenas",
                     "Sep  5 10:02:11", "gcc version 14.2.0 (Ubuntu 14.2.0-4ubuntu2~24.04.1)")
    # the module's version file exactly as pasted (no "Release Build" part)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {loaded}  Tue Jun 23 08:38:17 UTC 2026\n"
      "GCC version:  gcc version 14.2.0 (Ubuntu 14.2.0-4ubuntu2~24.04.1)\n")
    userspace(root, user)
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {user}, -, none\n",
                *fakes(user, 13000)]
    pasted = ("root@truenas[/]# nvidia-smi / Failed to initialize NVML: Driver/library version "
              "mismatch / NVML library version: 580.178 / root@truenas[/]# cat "
              "/proc/driver/nvidia/version / NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
              "580.173.02  Tue Jun 23 08:38:17 UTC 2026 / GCC version:  gcc version 14.2.0 "
              "(Ubuntu 14.2.0-4ubuntu2~24.04.1)")
    ini(dst, TOPIC,
        "A TrueNAS 25.10.7 server after the community driver script ran: the NVIDIA user space "
        "is 580.178 (nvidia-smi: 'NVML library version: 580.178') while the kernel still runs "
        "the 580.173.02 module (/proc/driver/nvidia/version), so NVML refuses with 'Driver/"
        "library version mismatch'; the maintainer: the driver is now 580.178.04, reinstall "
        "after a restart, which worked",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'Failed to initialize NVML: Driver/library "
        "version mismatch' and 'NVML library version: 580.178', /proc/driver/nvidia/version "
        "with 580.173.02, its date and gcc 14.2.0 (Ubuntu 14.2.0-4ubuntu2~24.04.1), 'After "
        "running the install script on 25.10.7', the host name truenas; the maintainer: 'I "
        "have already upgraded the driver to 580.178.04. You can try reinstalling after "
        "restarting', the reporter: 'this time it worked'); placeholders, not in the report: "
        "the user space's full version 580.178.04 (the maintainer's), the module on disk "
        "(580.178.04 where DKMS puts it), the GPU (10de:2684, RTX 4090, and the rest of the "
        "base fixture's PCI tree), the kernel 6.12.15-production+truenas, Debian 12's "
        "os-release (TrueNAS SCALE is built on Debian 12), the kern.log line's time; "
        + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            url, pasted,
            "the script installed the 580.178 user space while the 580.173.02 module stays "
            "loaded: the user space is newer than the running module; restarting and "
            "reinstalling brings both to 580.178.04",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


UBUNTU1404 = ('NAME="Ubuntu"\nVERSION="14.04.5 LTS, Trusty Tahr"\nID=ubuntu\nID_LIKE=debian\n'
              'PRETTY_NAME="Ubuntu 14.04.5 LTS"\nVERSION_ID="14.04"\n'
              'HOME_URL="http://www.ubuntu.com/"\nSUPPORT_URL="http://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n')


def ubuntu1404_runfile():
    """NVIDIA/nvidia-docker#365: the driver installed from the .run file, its nvidia.ko only
    under /lib/modules/3.13.0-88-generic; the machine runs 3.13.0-116-generic."""
    name = "rw-ubuntu1404-runfile-module-only-for-old-kernel"
    url = "https://github.com/NVIDIA/nvidia-docker/issues/365"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    old, new, drv = "3.13.0-88-generic", "3.13.0-116-generic", "375.39"
    w(root, "etc/os-release", UBUNTU1404)
    w(root, "proc/sys/kernel/osrelease", new + "\n")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n")
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, f"{gpu}/device", "0x1b80\n")
    w(root, f"{gpu}/subsystem_device", "0x1b80\n")
    driver_libs(root, drv)
    w(root, "usr/bin/nvidia-installer", "", 0o755)
    os.symlink("nvidia-installer", f"{root}/usr/bin/nvidia-uninstall")
    pasted = ("$ nvidia-smi / modprobe: FATAL: Module nvidia not found. / NVIDIA-SMI has failed "
              "because it couldn't communicate with the NVIDIA driver. / $ dkms status / The "
              "program 'dkms' is currently not installed. / $ uname -a / Linux <hostname> "
              "3.13.0-116-generic #163-Ubuntu SMP Fri Mar 31 14:13:22 UTC 2017 x86_64 / $ find "
              "/lib/modules/ -name \"*nvidia*\" / /lib/modules/3.13.0-88-generic/kernel/drivers/"
              "video/nvidia.ko / /lib/modules/3.13.0-88-generic/kernel/drivers/video/"
              "nvidia-uvm.ko / …")
    ini(dst, TOPIC,
        "An Ubuntu 14.04 host whose NVIDIA driver was installed with the .run installer and no "
        "DKMS: its nvidia.ko and nvidia-uvm.ko exist only for the kernel of that day "
        "(3.13.0-88-generic); the machine now runs 3.13.0-116-generic, for which no nvidia "
        "module exists, so `modprobe nvidia` fails ('Module nvidia not found') and nvidia-smi "
        "cannot talk to the driver",
        f"Rebuilt from {url} (pasted by the reporter: nvidia-smi's 'modprobe: FATAL: Module "
        "nvidia not found.' and 'couldn't communicate with the NVIDIA driver', `dkms status` "
        "('dkms' not installed), `uname -a` (3.13.0-116-generic #163-Ubuntu), `find "
        "/lib/modules/ -name \"*nvidia*\"` listing nvidia.ko and nvidia-uvm.ko under "
        "3.13.0-88-generic/kernel/drivers/video only, 'the driver was installed with the `run` "
        "script'; the state the find output shows is the cause: no nvidia.ko for the running "
        "kernel); placeholders, not in the report: the driver version 375.39 (the report does "
        "not name it; the current one in April 2017), the GPU (10de:1b80 GP104 [GeForce GTX "
        "1080] in pci.ids, a card of that time; the report names none) and the rest of the "
        "nvidia-gpu-no-driver fixture's PCI tree and /proc/modules (see its sources), "
        "/usr/bin/nvidia-installer (an empty stand-in) and its link nvidia-uninstall as the "
        ".run installer leaves them, Ubuntu 14.04.5's os-release; the in-tree framebuffer "
        "modules of the find output (nvidiafb.ko, the ethernet directory) are left out; "
        + SRC_LDSO, PATH,
        real_world(
            url, pasted,
            "the .run installer built nvidia.ko for 3.13.0-88-generic only (no DKMS); after "
            "the kernel upgrade to 3.13.0-116-generic no nvidia module exists for the running "
            "kernel: reinstall the driver for it (or with DKMS)",
            "driver.module-missing-for-kernel", "driver", "yes"),
        "[nvml]\ndriver_version = 375.39\n",
        f"[modules]\n/lib/modules/{old}/kernel/drivers/video/nvidia.ko = {drv}, -, none, "
        "NVIDIA\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
    ldso_cache(dst)


FEDORA29 = ('NAME=Fedora\nVERSION="29 (Workstation Edition)"\nID=fedora\nVERSION_ID=29\n'
            'VERSION_CODENAME=""\nPLATFORM_ID="platform:f29"\n'
            'PRETTY_NAME="Fedora 29 (Workstation Edition)"\nANSI_COLOR="0;34"\n'
            'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:29"\n'
            'HOME_URL="https://fedoraproject.org/"\n'
            'DOCUMENTATION_URL="https://docs.fedoraproject.org/en-US/fedora/f29/system-'
            'administrators-guide/"\nSUPPORT_URL="https://fedoraproject.org/wiki/'
            'Communicating_and_getting_help"\nBUG_REPORT_URL="https://bugzilla.redhat.com/"\n'
            'REDHAT_BUGZILLA_PRODUCT="Fedora"\nREDHAT_BUGZILLA_PRODUCT_VERSION=29\n'
            'REDHAT_SUPPORT_PRODUCT="Fedora"\nREDHAT_SUPPORT_PRODUCT_VERSION=29\n'
            'PRIVACY_POLICY_URL="https://fedoraproject.org/wiki/Legal:PrivacyPolicy"\n'
            'VARIANT="Workstation Edition"\nVARIANT_ID=workstation\n')


def fedora29_nouveau():
    """negativo17/nvidia-driver#73: Fedora 29 with negativo17's driver; nouveau still takes
    the GM204 at boot although the command line has rd.driver.blacklist=nouveau."""
    name = "rw-fedora29-gm204-nouveau-despite-rd-blacklist"
    url = "https://github.com/negativo17/nvidia-driver/issues/73"
    rel = "4.20.6-200.fc29.x86_64"
    dst, root = fresh(name, "nouveau-bound")
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, f"{gpu}/device", "0x13c2\n")
    w(root, f"{gpu}/subsystem_device", "0x13c2\n")
    w(root, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.1/device", "0x0fbb\n")
    w(root, "etc/os-release", FEDORA29)
    w(root, "proc/sys/kernel/osrelease", rel + "\n")
    w(root, "proc/cmdline",
      "BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 root=UUID=8c7955f0-077d-403e-9ea7-"
      "c14b48f660d7 ro rootflags=subvol=root rd.driver.blacklist=nouveau\n")
    # Debian's files of the base are not a Fedora system's
    for path in ("etc/modprobe.d", "lib", "usr", "var"):
        shutil.rmtree(f"{root}/{path}", ignore_errors=True)
    # the package's blacklist was the command line's rd.driver.blacklist alone (the packager's
    # answer adds modprobe.blacklist=nouveau): no modprobe.d file names nouveau
    w(root, "var/log/dmesg",
      "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 root=UUID="
      "8c7955f0-077d-403e-9ea7-c14b48f660d7 ro rootflags=subvol=root rd.driver.blacklist="
      "nouveau\n"
      "[    5.435274] nouveau 0000:01:00.0: enabling device (0000 -> 0003)\n"
      "[    5.436312] nouveau 0000:01:00.0: NVIDIA GM204 (124020a1)\n"
      "[    5.603461] nouveau 0000:01:00.0: bios: version 84.04.1f.00.6f\n"
      "[    5.688078] nouveau 0000:01:00.0: fb: 4096 MiB GDDR5\n"
      "[    5.690892] nouveau 0000:01:00.0: bus: MMIO write of 8000012c FAULT at 10eb14 "
      "[ IBUS ]\n"
      "[    5.871440] nouveau 0000:01:00.0: DRM: VRAM: 4096 MiB\n"
      "[    5.871868] nouveau 0000:01:00.0: DRM: GART: 1048576 MiB\n")
    pasted = ("[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 root=UUID="
              "8c7955f0-077d-403e-9ea7-c14b48f660d7 ro rootflags=subvol=root "
              "rd.driver.blacklist=nouveau / [    5.436312] nouveau 0000:01:00.0: NVIDIA GM204 "
              "(124020a1) / [    5.688078] nouveau 0000:01:00.0: fb: 4096 MiB GDDR5 / …")
    ini(dst, TOPIC,
        "Fedora 29 (kernel 4.20.6-200.fc29) with negativo17's NVIDIA driver packages and a "
        "GM204 card (4 GiB GDDR5): the kernel command line has rd.driver.blacklist=nouveau, "
        "yet nouveau binds the GPU at boot (dmesg: 'nouveau 0000:01:00.0: NVIDIA GM204'), so "
        "the NVIDIA module cannot take it; the packager: nouveau is loaded and prevents the "
        "nvidia module from loading, add modprobe.blacklist=nouveau to the command line",
        f"Rebuilt from {url} (pasted by the packager from the reporter's log: the 'Command "
        "line:' with rd.driver.blacklist=nouveau and the nouveau lines for 0000:01:00.0, "
        "NVIDIA GM204 (124020a1), bios 84.04.1f.00.6f, 4096 MiB GDDR5, the IBUS fault, VRAM "
        "and GART; his diagnosis: 'nouveau is loaded and prevent the nvidia module from "
        "loading'); placeholders, not in the report: the GM204's PCI id 10de:13c2 (GeForce "
        "GTX 970 in pci.ids; the log names the chip only) and its audio function 10de:0fbb, "
        "Fedora 29's os-release, no modprobe.d file blacklisting nouveau (with one, udev would "
        "not have loaded it on the root file system; the packager's fix adds the blacklist "
        "to the command line), the module akmods built for the running "
        "kernel (extra/nvidia/nvidia.ko.xz, 415.27, negativo17's driver of January 2019: the "
        "packager's answer presumes a built nvidia module that nouveau keeps from binding, "
        "the report names no version); the rest of the PCI tree, /proc/modules "
        "(nouveau loaded), the device nodes and the Secure Boot variable from the "
        "nouveau-bound fixture (see its sources)",
        PATH,
        real_world(
            url, pasted,
            "nouveau is loaded at boot despite rd.driver.blacklist=nouveau and holds the GPU, "
            "so the NVIDIA module cannot bind it; blacklisting it for the whole boot "
            "(modprobe.blacklist=nouveau) lets the NVIDIA driver load",
            "driver.nouveau-bound", "driver", "yes"),
        section("nouveau-bound", "devices"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia/nvidia.ko.xz = 415.27, -, xz, NVIDIA\n")


def rtx4090_torch180_ctran():
    """QData/C-Tran#30: C-Tran's requirements (torch==1.8.0, PyPI's CUDA 10.2 build) on an
    RTX 4090: sm_89 against 'sm_37 sm_50 sm_60 sm_70'; torch 1.13.1+cu117 works."""
    name = "rw-rtx4090-torch180-cu102-ctran"
    url = "https://github.com/QData/C-Tran/issues/30"
    rel = "5.15.0-117-generic"
    drv = "535.183.01"
    dst, root = rtx3090_host(name, drv, UBUNTU2004_OS_RELEASE, rel, "ws", "Aug  1 10:02:11")
    w(root, "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/device", "0x2684\n")
    base, env = "/home/user/miniconda3", "/home/user/miniconda3/envs/ctran"
    conda_env(root, base, env, "3.7.12")
    site = f"{env}/lib/python3.7/site-packages"
    torch_dist(root, site, "1.8.0", "'10.2'")
    # nvcc 13.0 emits nothing below sm_75: sm_75 stands in for sm_37..sm_70 (no 8.x, no PTX)
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so", ["75"], [])
    sections = [section(BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none\n"]
    pasted = ("RuntimeError: CUDA error: no kernel image is available for execution on the "
              "device / NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible "
              "with the current PyTorch installation. The current PyTorch install supports "
              "CUDA capabilities sm_37 sm_50 sm_60 sm_70.")
    ini(dst, TOPIC,
        "C-Tran installed from its requirements.txt (torch==1.8.0, PyPI's default wheel, a "
        "CUDA 10.2 build with SASS for sm_37 sm_50 sm_60 sm_70 and no PTX) on an RTX 4090 "
        "(compute capability 8.9): torch.cuda.is_available() is True but the first tensor "
        "moved to the GPU fails with 'no kernel image is available for execution on the "
        "device'; torch 1.13.1+cu117 works",
        f"Rebuilt from {url} (pasted: the RuntimeError of `torch.tensor([1.0, 2.0]).cuda()`, "
        "'torch.cuda.is_available() return True', collect_env's warning 'NVIDIA GeForce RTX "
        "4090 with CUDA capability sm_89 is not compatible with the current PyTorch "
        "installation. The current PyTorch install supports CUDA capabilities sm_37 sm_50 "
        "sm_60 sm_70.', 'The torch version and other python extensions are consistent with "
        "requeirments.txt', then 'It works' with torch==1.13.1+cu117 torchvision==0.14.1+cu117); "
        "the torch version from C-Tran's requirements.txt (torch==1.8.0); placeholders, not "
        "in the report: the conda environment /home/user/miniconda3/envs/ctran with Python "
        "3.7.12 (the repository's bytecode is cpython-37), the driver 535.183.01, Ubuntu "
        "20.04 with kernel 5.15.0-117-generic, the GPU's PCI id (10de:2684 AD102 [GeForce "
        "RTX 4090] in pci.ids); the stand-in libtorch_cuda.so carries SASS sm_75 only and no "
        "PTX (nvcc 13.0 emits nothing below sm_75; like the pasted list it has nothing a "
        "compute capability 8.9 GPU runs, the verdict is the same); " + mk2.SRC_TORCH + "; "
        + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "ctran", "HOME": "/home/user"},
        real_world(
            url, pasted,
            "torch 1.8.0 from PyPI is a CUDA 10.2 build with code for sm_37 sm_50 sm_60 "
            "sm_70 only: nothing runs on the RTX 4090's sm_89; torch 1.13.1+cu117 has it",
            "framework.no-kernel-image", "framework", "yes"),
        *sections)


UBUNTU2004_5 = ubuntu_os_release("20.04.5", "Focal Fossa", "focal")


def docker_cuda117_without_gpus():
    """cnstark/pytorch-docker#19: the image cnstark/pytorch:1.13.1-py3.8.16-cuda11.7.1-devel-
    ubuntu20.04 run without --gpus: nvcc works, nvidia-smi is not found."""
    name = "rw-docker-cuda117-image-run-without-gpus"
    url = "https://github.com/cnstark/pytorch-docker/issues/19"
    dst, root = fresh(name, "container-no-gpu-devices")
    w(root, "etc/os-release", UBUNTU2004_5)
    w(root, "proc/sys/kernel/osrelease", "5.15.0-100-generic\n")
    pasted = ("`nvcc -V` 显示了 cuda 版本，但是 `nvidia-smi` 命令返回错误 command not found / "
              "fixed: forget to add `--gpus all` flag")
    ini(dst, TOPIC,
        "A Docker container of cnstark/pytorch:1.13.1-py3.8.16-cuda11.7.1-devel-ubuntu20.04 "
        "(FROM nvidia/cuda:11.7.1-cudnn8-devel-ubuntu20.04, torch 1.13.1+cu117) started "
        "without --gpus: the image's toolkit is there (nvcc -V prints its version) but no "
        "/dev/nvidia* node and no driver library was injected, so nvidia-smi is 'command not "
        "found' and CUDA sees no GPU; the reporter: fixed by adding --gpus all",
        f"Rebuilt from {url} (pasted: the image tag in the title "
        "'pytorch:1.13.1-py3.8.16-cuda11.7.1-devel-ubuntu20.04', 'nvcc -V' showing the CUDA "
        "version and 'nvidia-smi' answering 'command not found'; the reporter's own "
        "resolution: 'fixed: forget to add `--gpus all` flag'); the image's base and versions "
        "from the repository's build workflow for that tag "
        "(.github/workflows/docker_build_1.13.1_py3.8.16_cuda11.7.1_devel_ubuntu20.04.yml: "
        "BASE_IMAGE nvidia/cuda:11.7.1-cudnn8-devel-ubuntu20.04, torch 1.13.1+cu117); the "
        "environment as nvidia/cuda's images set it (PATH with /usr/local/nvidia/bin and "
        "/usr/local/cuda/bin, NVIDIA_VISIBLE_DEVICES=all, NVIDIA_DRIVER_CAPABILITIES="
        "compute,utility, LD_LIBRARY_PATH /usr/local/nvidia/lib:/usr/local/nvidia/lib64); "
        "Ubuntu 20.04.5's os-release; placeholders, not in the report: the host kernel "
        "release, the container id and overlay layer names (from the container-no-gpu-devices "
        "fixture); the toolkit and the Python environment are left out (the report shows no "
        "path or version of either)",
        {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "NVIDIA_VISIBLE_DEVICES": "all",
         "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
         "CUDA_VERSION": "11.7.1",
         "LD_LIBRARY_PATH": "/usr/local/nvidia/lib:/usr/local/nvidia/lib64"},
        real_world(
            url, pasted,
            "the container was started without --gpus: no GPU device node and no driver "
            "library are in it; `docker run --gpus all` fixes it",
            "container.no-gpu-devices", "container", "yes"))


def docker1903_no_uvm():
    """NVIDIA/nvidia-docker#1085: docker 19.03, nvidia-smi and nvcc work in the container,
    torch.cuda.is_available() is False; the reporter: 'forget to add --device
    /dev/nvidia-uvm:/dev/nvidia-uvm'."""
    name = "rw-docker1903-container-without-nvidia-uvm-device"
    url = "https://github.com/NVIDIA/nvidia-docker/issues/1085"
    drv = "430.50"
    dst, root = fresh(name, "container-no-gpu-devices")
    w(root, "etc/os-release", UBUNTU1604_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "4.15.0-64-generic\n")
    # procfs and sysfs are the host's: its modules, its driver
    w(root, "proc/modules",
      "nvidia_uvm 872448 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 40960 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1110016 1 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 18808832 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  Thu Sep  5 22:36:46 CDT 2019\n"
      "GCC version:  gcc version 7.4.0 (Ubuntu 7.4.0-1ubuntu1~18.04.1) \n")
    lib = "usr/lib/x86_64-linux-gnu"
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    for soname in ("libcuda.so.1", "libnvidia-ml.so.1"):
        stem = soname[:-2]
        so(root, f"{lib}/{stem}.{drv}", soname)
        os.makedirs(f"{root}/{lib}", exist_ok=True)
        os.symlink(f"{stem}.{drv}", f"{root}/{lib}/{soname}")
    w(root, "usr/bin/nvidia-smi", "", 0o755)
    pasted = ("In the container, \"nvidia-smi,nvcc -V\" worked. But when use the cuda, it "
              "failded! / import torch / torch.cuda.is_available() / False / my probrom, "
              "forget to add --device /dev/nvidia-uvm:/dev/nvidia-uvm")
    ini(dst, TOPIC,
        "A Docker 19.03 container given the GPU by hand (--device flags) with "
        "/dev/nvidia0 and /dev/nvidiactl but not /dev/nvidia-uvm: NVML works (nvidia-smi "
        "lists the GPU) while CUDA cannot initialise without the unified-memory device, so "
        "torch.cuda.is_available() is False; the reporter: fixed by adding --device "
        "/dev/nvidia-uvm:/dev/nvidia-uvm",
        f"Rebuilt from {url} (pasted: 'In the container, \"nvidia-smi,nvcc -V\" worked', "
        "torch.cuda.is_available() False, the title's docker19.03; the reporter's own "
        "resolution: 'forget to add --device /dev/nvidia-uvm:/dev/nvidia-uvm'); placeholders, "
        "not in the report: the driver 430.50 (the current one in September 2019) with its "
        "/proc/driver/nvidia/version line, the host's kernel 4.15.0-64-generic and its loaded "
        "modules (nvidia_uvm loaded: the --gpus examples had worked), the driver libraries "
        "in the container at Ubuntu's multiarch path (how they got in is not in the report), "
        "Ubuntu 16.04's os-release, the device nodes' numbers (195:0, 195:255), one GPU in "
        "NVML (a GeForce GTX 1080 Ti, 10de:1b06 in pci.ids), the container id and overlay "
        "layer names from the container-no-gpu-devices fixture; the toolkit and the Python "
        "environment are left out (no path or version in the report)",
        PATH,
        real_world(
            url, pasted,
            "the container was given /dev/nvidia0 and /dev/nvidiactl but not /dev/nvidia-uvm: "
            "NVML works, CUDA cannot initialise; passing --device /dev/nvidia-uvm (or using "
            "--gpus) fixes it",
            "container.no-gpu-devices", "container", "yes"),
        "[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n",
        f"[nvml]\ndriver_version = {drv}\nnvml_version = 10.{drv}\ncuda_driver_version = 10010\n"
        "\n[nvml.device.0]\nname = GeForce GTX 1080 Ti\n"
        "uuid = GPU-3f1c2a7e-9b4d-4c21-8e5f-6a7b8c9d0e1f\nminor_number = 0\n"
        "pci_bus_id = 00000000:01:00.0\npci_device_id = 0x1B0610DE\n"
        "memory_total = 11721506816\ncompute_capability = 6.1\narchitecture = 4\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1")
    ldso_cache(dst)


ARCH_OS_RELEASE = ('NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n'
                   'ANSI_COLOR="38;2;23;147;209"\nHOME_URL="https://archlinux.org/"\n'
                   'DOCUMENTATION_URL="https://wiki.archlinux.org/"\n'
                   'SUPPORT_URL="https://bbs.archlinux.org/"\n'
                   'BUG_REPORT_URL="https://bugs.archlinux.org/"\n'
                   'PRIVACY_POLICY_URL="https://terms.archlinux.org/docs/privacy-policy/"\n'
                   'LOGO=archlinux-logo\n')


def arch_cachyos_kernel_dkms():
    """CachyOS/linux-cachyos#118: nvidia-dkms installed, the GPU works under Arch's `linux`
    kernel but not under linux-cachyos: no module was built for it; reinstalling nvidia-dkms
    (which builds it) fixed it."""
    name = "rw-arch-nvidia-dkms-no-module-for-cachyos-kernel"
    url = "https://github.com/CachyOS/linux-cachyos/issues/118"
    drv, arch_rel, cachy_rel = "530.41.03", "6.3.7-arch1-1", "6.3.7-2-cachyos"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    w(root, "etc/os-release", ARCH_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", cachy_rel + "\n")
    w(root, "etc/ld.so.conf", "# Dynamic linker/loader configuration.\n"
      "# See ld.so(8) and ldconfig(8) for details.\n\ninclude /etc/ld.so.conf.d/*.conf\n")
    driver_libs(root, drv, libdir="usr/lib")
    pasted = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
              "Make sure that the latest NVIDIA driver is installed and running. / I`ve "
              "already installed `nvidia-dkms` and using kernel `linux-cachyos`. / It can work "
              "while I am running the `linux` kernel.")
    ini(dst, TOPIC,
        "An Arch system with nvidia-dkms, booted into the linux-cachyos kernel: DKMS built "
        "the module for Arch's own `linux` kernel (where the GPU works) but not for "
        "linux-cachyos, so under it no nvidia module exists and nvidia-smi cannot talk to "
        "the driver; the maintainer: missing DKMS modules, reinstall nvidia-dkms; the "
        "reporter: it works",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'couldn't communicate with the NVIDIA "
        "driver', 'I`ve already installed `nvidia-dkms` and using kernel `linux-cachyos`', 'It "
        "can work while I am running the `linux` kernel'; the maintainer: 'It looks like "
        "missing DKMS modules. Please reinstall the nvidia-dkms package', the reporter: 'It "
        "works out'); placeholders, not in the report: the driver 530.41.03 (Arch's "
        "nvidia-dkms of early June 2023), the kernels 6.3.7-arch1-1 and 6.3.7-2-cachyos of "
        "that week, the module's place (updates/dkms/nvidia.ko.zst, where dkms installs it "
        "on Arch), Arch's os-release and ld.so.conf, the user-space libraries under /usr/lib "
        "(Arch's nvidia-utils), the GPU and the rest of the nvidia-gpu-no-driver fixture's "
        "PCI tree and /proc/modules (see its sources); " + SRC_LDSO,
        PATH,
        real_world(
            url, pasted,
            "nvidia-dkms built the module for Arch's linux kernel only: the running "
            "linux-cachyos kernel has no nvidia module; reinstalling nvidia-dkms builds it",
            "driver.module-missing-for-kernel", "driver", "yes"),
        "[nvml]\ndriver_version = 530.41.03\n",
        f"[modules]\n/lib/modules/{arch_rel}/updates/dkms/nvidia.ko.zst = {drv}, -, zstd, "
        "NVIDIA\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
    ldso_cache(dst)


def wsl2_windows_without_gpu_pv():
    """NVIDIA/nvidia-docker#1542: WSL2 on a Windows 10 release of August 2021 without WSL
    GPU support: no libdxcore.so (no /usr/lib/wsl/lib), so nvidia-container-cli's 'dxcore
    initialization failed'; the maintainer: that Windows version has no WSL GPU support."""
    name = "rw-wsl2-windows-without-gpu-paravirtualization"
    url = "https://github.com/NVIDIA/nvidia-docker/issues/1542"
    dst, root = fresh(name)
    w(root, "proc/sys/kernel/osrelease", "5.10.16.3-microsoft-standard-WSL2\n")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "proc/modules", "")
    pasted = ("nvidia-container-cli: initialization error … dxcore initialization failed, "
              "continuing assuming a non-WSL environment / My windows is a fresh install with "
              "latest update")
    ini(dst, TOPIC,
        "An Ubuntu 20.04 distribution under WSL2 on a Windows 10 release without WSL GPU "
        "support (a fresh install with the updates of August 2021, before 21H2): Windows "
        "mounts no driver into the distribution (no /usr/lib/wsl/lib, no libdxcore.so) and "
        "gives it no /dev/dxg, so nvidia-container-cli's 'dxcore initialization failed' and "
        "no CUDA; the maintainer: that Windows version does not support WSL GPU, use an "
        "Insider build or 21H2",
        f"Rebuilt from {url} (pasted: nvidia-container-cli's 'dxcore initialization failed, "
        "continuing assuming a non-WSL environment', 'My windows is a fresh install with "
        "latest update', Ubuntu 18 and 20 tried; the maintainer: 'we couldn't even find "
        "/usr/lib/wsl/lib/libdxcore.so. That usually happens when you are running a version "
        "of Windows that doesn't support WSL GPU support', the reporter closed it to wait "
        "for 21H2); placeholders, not in the report: the WSL kernel release "
        "5.10.16.3-microsoft-standard-WSL2 (WSL's kernel of mid 2021), Ubuntu 20.04's "
        "os-release; the PCI bus, the device nodes and every library are left out (the "
        "report shows none of them, and without GPU support Windows adds none)",
        PATH,
        real_world(
            url, pasted,
            "the Windows release has no WSL GPU support: nothing of the Windows driver is "
            "mounted into WSL (no libdxcore.so, no /dev/dxg); a Windows build with WSL GPU "
            "support (21H2 or an Insider build) fixes it",
            "driver.wsl-no-gpu-paravirtualization", "driver", "yes"))


AUTOFORMER_URL = "https://github.com/thuml/Autoformer/issues/25"


def one_gpu_cuda_visible_devices_1():
    """thuml/Autoformer#25: the repository's scripts export CUDA_VISIBLE_DEVICES=1; on a
    machine with one GPU torch.cuda.is_available() is False; the maintainer: use 0."""
    name = "rw-one-gpu-cuda-visible-devices-1-autoformer"
    drv = "510.47.03"
    dst, root = base_root(name, 0x2204, 0x0000, "NVIDIA GeForce RTX 3090", drv)
    for d in ("lib", "var", "usr"):
        shutil.rmtree(f"{root}/{d}")
    pasted = ("export CUDA_VISIBLE_DEVICES=1 / if you do this on a system with a single GPU the "
              "following returns false torch.cuda.is_available()")
    ini(dst, TOPIC,
        "A one-GPU workstation running Autoformer's scripts, which export "
        "CUDA_VISIBLE_DEVICES=1: device 1 does not exist, so CUDA sees no GPU, "
        "torch.cuda.is_available() is False and training runs on the CPU although the "
        "driver and the GPU are fine; the maintainer: set CUDA_VISIBLE_DEVICES=0 on a "
        "one-GPU system",
        f"Rebuilt from {AUTOFORMER_URL} (pasted: the scripts' 'export CUDA_VISIBLE_DEVICES=1', "
        "'on systems with 1 GPU, by default the scripts train on CPU', "
        "torch.cuda.is_available() False; the maintainer: 'You can change the bash script to "
        "`export CUDA_VISIBLE_DEVICES=0` if the system only has 1 GPU'); placeholders, not "
        "in the report: the GPU (10de:2204, RTX 3090, and the rest of the base fixture's PCI "
        "tree), the driver 510.47.03 (March 2022) as /sys/module/nvidia/version and "
        "/proc/driver/nvidia/version show it, NVML (the fake library) listing that one GPU "
        "as nvidia-smi would; no Python environment (torch finds no GPU because of the "
        "variable, not because of its build); " + SRC_BASE,
        {"PATH": PATH["PATH"], "CUDA_VISIBLE_DEVICES": "1"},
        real_world(
            AUTOFORMER_URL, pasted,
            "CUDA_VISIBLE_DEVICES=1 names a device a one-GPU machine does not have: CUDA "
            "sees no GPU; CUDA_VISIBLE_DEVICES=0 (or unset) fixes it",
            "runtime.visible-devices-none", "runtime", "yes"),
        section(BASE, "devices"),
        f"[nvml]\ndriver_version = {drv}\nnvml_version = 11.{drv}\ncuda_driver_version = 11060\n"
        "\n[nvml.device.0]\nname = NVIDIA GeForce RTX 3090\n"
        "uuid = GPU-7d2e4f6a-1b3c-4d5e-8f9a-0b1c2d3e4f5a\nminor_number = 0\n"
        "pci_bus_id = 00000000:01:00.0\npci_device_id = 0x220410DE\n"
        "memory_total = 25769803776\ncompute_capability = 8.6\narchitecture = 7\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1")


UBUNTU1604_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="16.04.6 LTS (Xenial Xerus)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 16.04.6 LTS"\nVERSION_ID="16.04"\nHOME_URL="http://www.ubuntu.com/"\n'
    'SUPPORT_URL="http://help.ubuntu.com/"\nBUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n'
    'VERSION_CODENAME=xenial\nUBUNTU_CODENAME=xenial\n')


RHEL83 = ('NAME="Red Hat Enterprise Linux"\nVERSION="8.3 (Ootpa)"\nID="rhel"\nID_LIKE="fedora"\n'
          'VERSION_ID="8.3"\nPLATFORM_ID="platform:el8"\n'
          'PRETTY_NAME="Red Hat Enterprise Linux 8.3 (Ootpa)"\nANSI_COLOR="0;31"\n'
          'CPE_NAME="cpe:/o:redhat:enterprise_linux:8.3:GA"\nHOME_URL="https://www.redhat.com/"\n'
          'BUG_REPORT_URL="https://bugzilla.redhat.com/"\n'
          'REDHAT_BUGZILLA_PRODUCT="Red Hat Enterprise Linux 8"\n'
          'REDHAT_BUGZILLA_PRODUCT_VERSION=8.3\n'
          'REDHAT_SUPPORT_PRODUCT="Red Hat Enterprise Linux"\n'
          'REDHAT_SUPPORT_PRODUCT_VERSION="8.3"\n')


def rhel83_driver_without_smi():
    """NVIDIA/data-science-stack#90: after install-driver and a reboot the stack's
    diagnostics say 'nvidia-smi not found, NVIDIA GPU Driver not installed correctly', yet
    lsmod shows nvidia, nvidia_modeset and nvidia_drm: the driver is there, nvidia-smi comes
    with the CUDA packages the script had not installed yet."""
    name = "rw-rhel83-driver-loaded-without-nvidia-smi"
    url = "https://github.com/NVIDIA/data-science-stack/issues/90"
    rel, drv = "4.18.0-240.10.1.el8_3.x86_64", "460.32.03"
    dst, root = base_root(name, 0x1eb8, 0x12a2, "Tesla T4", drv)
    w(root, "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/class", "0x030200\n")
    w(root, "etc/os-release", RHEL83)
    move_kernel(root, "6.8.0-45-generic", rel)
    shutil.rmtree(f"{root}/var", ignore_errors=True)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  Sun Dec 27 19:00:34 UTC 2020\n"
      "GCC version:  gcc version 8.3.1 20191121 (Red Hat 8.3.1-5) (GCC) \n")
    # lsmod as pasted (proc(5) order and fields; addresses zeroed as kptr_restrict shows them)
    w(root, "proc/modules",
      "nvidia_drm 57344 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1224704 1 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 34086912 1 nvidia_modeset, Live 0x0000000000000000 (POE)\n"
      "drm_kms_helper 217088 1 nvidia_drm, Live 0x0000000000000000\n"
      "drm 557056 3 drm_kms_helper,nvidia_drm, Live 0x0000000000000000\n")
    w(root, "etc/ld.so.conf", "include ld.so.conf.d/*.conf\n")
    driver_libs(root, drv, libdir="usr/lib64")
    pasted = ("###NV### … #### Driver detected (0 means not installed): 0 / ###NV### … #### "
              "NVIDIA SMI: / nvidia-smi not found, NVIDIA GPU Driver not installed correctly. / "
              "$ lsmod | grep nvidia / nvidia_drm 57344 0 / nvidia_modeset 1224704 1 nvidia_drm "
              "/ nvidia 34086912 1 nvidia_modeset / drm_kms_helper 217088 1 nvidia_drm / drm "
              "557056 3 drm_kms_helper,nvidia_drm / nvidia-smi is part of cuda-toolkit, not the "
              "driver, and isn't available until install-cuda.")
    ini(dst, TOPIC,
        "A RHEL 8 machine after data-science-stack's install-driver and a reboot: the NVIDIA "
        "kernel modules are loaded (nvidia, nvidia_modeset, nvidia_drm) and the driver works, "
        "but nvidia-smi is not installed yet (on RHEL it comes with the CUDA packages), so "
        "the stack's diagnostics, which look for nvidia-smi, call the driver not installed; "
        "nothing is wrong with the machine's GPU stack",
        f"Rebuilt from {url} (pasted: the diagnostics' 'Driver detected (0 means not "
        "installed): 0' and 'nvidia-smi not found, NVIDIA GPU Driver not installed "
        "correctly', `lsmod | grep nvidia` with nvidia_drm 57344, nvidia_modeset 1224704, "
        "nvidia 34086912, drm_kms_helper 217088 and drm 557056; the title's rhel8; the "
        "reporter's analysis: 'nvidia-smi is part of cuda-toolkit, not the driver, and isn't "
        "available until install-cuda', use `modinfo -F version nvidia` to detect the driver); "
        "placeholders, not in the report: the GPU (10de:1eb8 TU104GL [Tesla T4] in pci.ids, "
        "class 0302, and the rest of the base fixture's PCI tree), the driver 460.32.03 (the "
        "current one in February 2021) with its /proc/driver/nvidia/version line and module "
        "on disk, RHEL 8.3's os-release and kernel 4.18.0-240.10.1.el8_3, the user-space "
        "libraries where RHEL's driver packages put them (/usr/lib64); no nvidia-smi and no "
        "CUDA toolkit, as the report says; " + SRC_LDSO + "; " + SRC_BASE,
        PATH,
        real_world(
            url, pasted,
            "nothing is wrong with the driver: it is installed and loaded; nvidia-smi is not "
            "installed until the CUDA packages are, and the diagnostics took its absence for "
            "a missing driver",
            "none", "none", "no"),
        section(BASE, "devices"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko.xz = {drv}, -, xz\n",
        args="--no-vendor")
    ldso_cache(dst)


def write():
    truenas_580()
    ubuntu1404_runfile()
    fedora29_nouveau()
    rtx4090_torch180_ctran()
    docker_cuda117_without_gpus()
    docker1903_no_uvm()
    arch_cachyos_kernel_dkms()
    wsl2_windows_without_gpu_pv()
    one_gpu_cuda_visible_devices_1()
    rhel83_driver_without_smi()
