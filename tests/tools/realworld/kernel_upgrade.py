# SPDX-License-Identifier: GPL-2.0-or-later
"""A driver installed without DKMS, then a kernel upgrade: the user-space driver is there, the
nvidia.ko is built for the old kernel only, so after the reboot into the new one no module
loads (driver.module-missing-for-kernel). The nvml-no-module fixture is this machine: gpuenv
must also not call nvmlInit/cuInit there (as root they would create /dev/nvidiactl)."""
from realworld.common import (MULTIARCH_LD_CONF, UBUNTU2004_OS_RELEASE, driver_libs, fresh, ini,
                              ldso_cache, link, real_world, w)

TOPIC = "kernel_upgrade"
FIXTURES = ("nvml-no-module",)
GPU = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"


def a100_sxm4_40gb(root):
    """The nvidia-gpu-no-driver tree's GPU as the report's 10de:20b0 (GA100 [A100 SXM4 40GB]
    in pci.ids, subsystem 10de:134f; class 0302 as the pasted `lspci -n` shows: a 3D
    controller), its BARs as a GA100 has them (16 MiB registers, 64 GiB BAR1, 32 MiB)."""
    w(root, f"{GPU}/device", "0x20b0\n")
    w(root, f"{GPU}/subsystem_device", "0x134f\n")
    w(root, f"{GPU}/class", "0x030200\n")
    with open(f"{root}/{GPU}/resource") as f:
        lines = f.read().splitlines()
    lines[1] = "0x0000004000000000 0x0000004fffffffff 0x000000000014220c"
    lines[3] = "0x0000005000000000 0x0000005001ffffff 0x000000000014220c"
    w(root, f"{GPU}/resource", "\n".join(lines) + "\n")


def gcp_a100_kernel_upgrade():
    """GoogleCloudPlatform/compute-gpu-installation#10 (with #18): after a stop/start the
    A100 VM's nvidia-smi cannot talk to the driver; the 495.46 runfile driver had no DKMS,
    and the kernel had been upgraded."""
    name = "nvml-no-module"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    old, new = "5.13.0-1019-gcp", "5.13.0-1024-gcp"
    a100_sxm4_40gb(root)
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", new + "\n")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    driver_libs(root, "495.46")
    # what nvidia-installer leaves besides the libraries: itself and its uninstaller link
    w(root, "usr/bin/nvidia-installer", "", 0o755)
    link(root, "usr/bin/nvidia-uninstall", "nvidia-installer")
    pasted = ("nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the "
              "NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running. "
              "/ re-running install_gpu_driver.py says the driver is already installed / "
              "lspci -n: 00:04.0 0302: 10de:20b0 (rev a1) / sh NVIDIA-Linux-x86_64-495.46.run "
              "-s / Ubuntu 20.04, 1 x A100")
    ini(dst, TOPIC,
        "A GCE a2-highgpu-1g VM (one A100 SXM4 40GB) on Ubuntu 20.04 whose NVIDIA driver "
        "495.46 was installed with the .run installer without DKMS: the user-space libraries "
        "are there, but the nvidia.ko was built for the kernel of that day only; an automatic "
        "kernel upgrade and a stop/start later the VM runs a kernel without any nvidia.ko, no "
        "module is loaded (no /sys/module/nvidia) and nvidia-smi 'couldn't communicate with "
        "the NVIDIA driver'. gpuenv must not call nvmlInit or cuInit there (as root they "
        "would create /dev/nvidiactl without a driver), and says why",
        "Rebuilt from https://github.com/GoogleCloudPlatform/compute-gpu-installation/issues/10 "
        "(pasted: nvidia-smi's 'couldn't communicate with the NVIDIA driver' after stopping "
        "and restarting the instance, the install script saying the driver is already "
        "installed, Ubuntu 20.04 and 1 x A100, the installer log's `lspci -n` line "
        "'00:04.0 0302: 10de:20b0 (rev a1)' and `sh NVIDIA-Linux-x86_64-495.46.run -s`; the "
        "cause as the maintainers established it there and in "
        "https://github.com/GoogleCloudPlatform/compute-gpu-installation/pull/18: 'After a "
        "kernel upgrade, the installed NVIDIA driver may stop working', fixed by installing "
        "dkms, 'but only if dkms is installed before the kernel updates'); placeholders, not "
        "in the report: the kernels 5.13.0-1019-gcp (the module's) and 5.13.0-1024-gcp (the "
        "running one; focal's linux-gcp of spring 2022), the module's place "
        "kernel/drivers/video/nvidia.ko (where the .run installer puts it), "
        "/usr/bin/nvidia-installer (an empty stand-in) and its link nvidia-uninstall, which "
        "the .run installer leaves "
        "(NVIDIA's README, 'Installing the NVIDIA Driver'), the bus address "
        "0000:01:00.0 and the rest of the nvidia-gpu-no-driver fixture's PCI tree and "
        "/proc/modules (see its sources) with the GPU's ids, class and BAR sizes of a GA100 "
        "(pci.ids: 10de:20b0 GA100 [A100 SXM4 40GB], subsystem 10de:134f), Ubuntu 20.04's "
        "os-release verbatim (a later point release); the 495.46 libcuda/libnvidia-ml are "
        "[elf] stand-ins with the real SONAMEs where the installer puts them, etc/ld.so.cache "
        "written by glibc's ldconfig -r over the tree; NVML (fake) would answer with driver "
        "495.46 if called, which it must not be",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/GoogleCloudPlatform/compute-gpu-installation/issues/10",
            pasted,
            "the 495.46 driver was installed from the .run file without DKMS, so its kernel "
            "module exists only for the kernel it was built on; after a kernel upgrade the VM "
            "boots a kernel without an nvidia.ko; installing dkms (before kernel updates) or "
            "rebuilding the module for the running kernel fixes it",
            "driver.module-missing-for-kernel", "driver", "yes"),
        "[nvml]\ndriver_version = 495.46\n",
        f"[modules]\n/lib/modules/{old}/kernel/drivers/video/nvidia.ko = 495.46, -, none, "
        "NVIDIA\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
    ldso_cache(dst)


def write():
    gcp_a100_kernel_upgrade()
