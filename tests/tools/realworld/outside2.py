# SPDX-License-Identifier: GPL-2.0-or-later
"""A second round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (fixrw-f): the classic NVIDIA failures on machines of other years and places (a
point release of the driver packages under a loaded module, a kernel upgrade without headers,
a torch newer than the driver on a workstation and in a Slurm job) and AMD and Intel machines
(/dev/kfd left root-only, an APU's gfx902 that no torch code object names, oneAPI without
Level Zero), each only as far as its thread shows it. The scores before any change are in
docs/HACKING.md ("Reports an outside evaluator would pick", second round)."""
from realworld.amd import BASE as AMD_BASE
from realworld.amd import ROCM_ENV, kernel_amdgpu, rx7900xtx_rocm620, set_gpu
import os
import shutil

from realworld.common import (ARCH_OS_RELEASE, SRC_BASE, UBUNTU2004_OS_RELEASE, base_root,
                              dpkg, driver_libs, fresh, ini, ldso_cache, mk2, move_kernel,
                              real_world, section, torch_dist, ubuntu_os_release, venv, w)
from realworld.driver import FAKE_ARGS, SRC_FAKES, SRC_LDSO, fakes, userspace
from realworld.intel import SRC_INTEL_BASE, devices, intel_base, oneapi, opencl_icd
from realworld.libs import conda_env
from realworld.upgrades import host

TOPIC = "outside2"
FIXTURES = ("rw-ubuntu2404-550.107-userspace-550.90-module",
            "rw-eos6-940mx-kernel-upgrade-without-headers",
            "rw-ubuntu1804-torch130-cu101-on-r410",
            "rw-slurm-v100-conda-torch150-cu102-on-r418",
            "rw-ubuntu1904-kfd-root-only-0600",
            "rw-arch-ryzen2300u-gfx902-pytorch-rocm",
            "rw-intel-cml-p630-oneapi-without-level-zero",
            "rw-titanxp-torch28-cu128-no-sm61-anomalib",
            "rw-rx580-gfx803-torch181-rocm401")
NV_BASE = "rtx4090-open-module"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
UBUNTU2404 = ubuntu_os_release("24.04.1", "Noble Numbat", "noble")
UBUNTU1804 = ubuntu_os_release("18.04.3", "Bionic Beaver", "bionic", logo=False)


def ubuntu2404_550_point_release():
    """oddmario/NVIDIA-Ubuntu-Driver-Guide#4: nvidia-driver-550 went to 550.107.02 under a
    loaded 550.90.07 module; rebooting fixes it."""
    name = "rw-ubuntu2404-550.107-userspace-550.90-module"
    url = "https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4"
    rel = "6.8.0-41-generic"
    user, loaded = "550.107.02", "550.90.07"
    dst, root = host(name, 0x2684, "NVIDIA GeForce RTX 4090", loaded, rel, UBUNTU2404, "ws",
                     "Sep  5 10:02:11", "gcc version 13.2.0 (Ubuntu 13.2.0-23ubuntu4)")
    # the version line exactly as pasted (its date; the rest of the file is not shown)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {loaded}  Fri May 31 09:35:42 UTC 2024\n"
      "GCC version:  gcc version 13.2.0 (Ubuntu 13.2.0-23ubuntu4)\n")
    userspace(root, user)
    dpkg(root, {"nvidia-driver-550": f"{user}-0ubuntu0.24.04.1"})
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {user}, -, none\n",
                *fakes(user, 12040)]
    pasted = ("Failed to initialize NVML: Driver/library version mismatch / I've updated to "
              "`nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1`, but /proc/driver/nvidia/"
              "version reports `NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri "
              "May 31 09:35:42 UTC 2024`")
    ini(dst, TOPIC,
        "Ubuntu 24.04 after a minor update of nvidia-driver-550 (550.107.02-0ubuntu0.24.04.1): "
        "the user space is 550.107.02 while the kernel still runs the 550.90.07 module, so "
        "nvidia-smi fails with 'Failed to initialize NVML: Driver/library version mismatch'; "
        "the reporter: rebooting fixes it (apt-mark hold keeps it from coming back)",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'Failed to initialize NVML: Driver/library "
        "version mismatch', the package 'nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1', "
        "/proc/driver/nvidia/version's 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
        "550.90.07  Fri May 31 09:35:42 UTC 2024'; the thread: a minor update of nvidia-driver-"
        "xxx leaves the loaded module and the installed driver out of sync, rebooting fixes "
        "it); placeholders, not in the report: the GPU (10de:2684, RTX 4090, and the rest of "
        "the base fixture's PCI tree), the kernel 6.8.0-41-generic, the module on disk "
        "(550.107.02 where DKMS puts it), the version file's GCC line (Ubuntu 24.04's gcc), "
        "the kern.log line's time; " + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            url, pasted,
            "the nvidia-driver-550 point release installed the 550.107.02 user space while "
            "the 550.90.07 module stays loaded: reboot (or reload the modules)",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


ELEMENTARY6 = ('NAME="elementary OS"\nVERSION="6 Odin"\nID=elementary\nID_LIKE=ubuntu\n'
               'PRETTY_NAME="elementary OS 6 Odin"\nLOGO=distributor-logo\nVERSION_ID="6"\n'
               'HOME_URL="https://elementary.io/"\nDOCUMENTATION_URL="https://elementary.io/'
               'docs/learning-the-basics"\nSUPPORT_URL="https://elementary.io/support"\n'
               'BUG_REPORT_URL="https://github.com/elementary/os/issues/new"\n'
               'PRIVACY_POLICY_URL="https://elementary.io/privacy-policy"\n'
               'VERSION_CODENAME=odin\nUBUNTU_CODENAME=focal\n')


def eos6_940mx_no_headers():
    """elementary/os-patches#155: a GeForce 940MX on an elementary OS 6 daily; the kernel was
    upgraded without its headers, so DKMS built no nvidia module for it."""
    name = "rw-eos6-940mx-kernel-upgrade-without-headers"
    url = "https://github.com/elementary/os-patches/issues/155"
    drv, old, new = "455.45.01", "5.8.0-29-generic", "5.8.0-33-generic"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    w(root, "etc/os-release", ELEMENTARY6)
    w(root, "proc/sys/kernel/osrelease", new + "\n")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n")
    gpu = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    w(root, f"{gpu}/device", "0x134d\n")
    w(root, f"{gpu}/subsystem_device", "0x134d\n")
    driver_libs(root, drv)
    dpkg(root, {"nvidia-driver-455": f"{drv}-0ubuntu0.20.04.1",
                "nvidia-dkms-455": f"{drv}-0ubuntu0.20.04.1",
                f"linux-headers-{old}": "5.8.0-29.31~20.04.1",
                f"linux-image-{old}": "5.8.0-29.31~20.04.1",
                f"linux-image-{new}": "5.8.0-33.36~20.04.1"})
    pasted = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. / "
              "I guess there was a kernel upgrade at some point and apt didn't install headers "
              "for the new kernel so Nvidia module wasn't recompiled for new kernel. `sudo apt "
              "install linux-headers-$(uname -r)` did the trick.")
    ini(dst, TOPIC,
        "An elementary OS 6 daily (Ubuntu 20.04 base) laptop with a GeForce 940MX and "
        "nvidia-driver-455 from the archive: the kernel was upgraded to 5.8.0-33 without its "
        "headers, so DKMS could not build the nvidia module for it; only the old kernel has "
        "one, and nvidia-smi cannot communicate with the driver; installing "
        "linux-headers-$(uname -r) (DKMS then builds the module) fixed it",
        f"Rebuilt from {url} (pasted: 'nvidia-smi cannot communicate with drivers', the "
        "drivers tried (nvidia-driver-390, -450, -455), 'GeForce 940MX', 'eOS6 daily'; the "
        "reporter's own resolution: 'there was a kernel upgrade at some point and apt didn't "
        "install headers for the new kernel so Nvidia module wasn't recompiled for new kernel. "
        "`sudo apt install linux-headers-$(uname -r)` did the trick'); placeholders, not in "
        "the report: the driver 455.45.01 (the archive's 455 of December 2020), the kernels "
        "5.8.0-29/-33-generic (focal's HWE kernels of that month) and their package versions, "
        "the module's place (updates/dkms), elementary OS 6's os-release, the GPU's PCI id "
        "(10de:134d GM108M [GeForce 940MX] in pci.ids) and the rest of the "
        "nvidia-gpu-no-driver fixture's PCI tree and /proc/modules (see its sources); "
        + SRC_LDSO, PATH,
        real_world(
            url, pasted,
            "the new kernel came without its headers, so DKMS built no nvidia module for it: "
            "install linux-headers-$(uname -r) and DKMS builds it",
            "driver.module-missing-for-kernel", "driver", "yes"),
        f"[nvml]\ndriver_version = {drv}\n",
        f"[modules]\n/lib/modules/{old}/updates/dkms/nvidia.ko = {drv}, -, none, NVIDIA\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
    ldso_cache(dst)


def ubuntu1804_torch130_on_r410():
    """pytorch/pytorch#31243: torch 1.3.0 from the torch_stable index (CUDA 10.1) on a 410.48
    driver (CUDA 10.0); the maintainer: update the driver to at least 418.39."""
    name = "rw-ubuntu1804-torch130-cu101-on-r410"
    url = "https://github.com/pytorch/pytorch/issues/31243"
    drv, rel = "410.48", "4.15.0-72-generic"
    dst, root = base_root(name, 0x1b06, 0x0000, "GeForce GTX 1080 Ti", drv)
    w(root, "etc/os-release", UBUNTU1804)
    move_kernel(root, "6.8.0-45-generic", rel)
    base = "/home/user/anaconda3"
    w(root, f"{base}/conda-meta/history",
      f"==> 2019-12-13 10:00:00 <==\n# cmd: {base}/bin/conda install python=3.7.5\n")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n")
    site = f"{base}/lib/python3.7/site-packages"
    torch_dist(root, site, "1.3.0", "'10.1.243'")
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none\n"]
    pasted = ("$ pip install torch===1.3.0 torchvision===0.4.1 -f "
              "https://download.pytorch.org/whl/torch_stable.html / Python 3.7.5 (default, Oct "
              "25 2019, 15:51:11) [GCC 7.3.0] :: Anaconda, Inc. on linux / >>> "
              "torch.cuda.is_available() / False / (nvidia-smi:) 410.48")
    ini(dst, TOPIC,
        "Ubuntu 18.04 with Anaconda's Python 3.7.5 and torch 1.3.0 pip-installed from the "
        "torch_stable index (the default 1.3.0 wheel, built with CUDA 10.1.243) on a 410.48 "
        "driver, whose CUDA is 10.0: torch.cuda.is_available() is False; the maintainer: update "
        "the driver to at least 418.39 (CUDA 10.1's minimum)",
        f"Rebuilt from {url} (pasted: the pip command 'torch===1.3.0 torchvision===0.4.1 -f "
        "https://download.pytorch.org/whl/torch_stable.html', the Python banner 'Python 3.7.5 "
        "… [GCC 7.3.0] :: Anaconda, Inc. on linux', torch.cuda.is_available() False, 'Ubuntu1804', "
        "the driver '410.48' from nvidia-smi; the maintainer: 'you'll need to update it to at "
        "least 418.39'); placeholders, not in the report: torch.version.cuda '10.1.243' (the "
        "1.3.0 wheel torch_stable serves without a +cu suffix), the Anaconda prefix "
        "/home/user/anaconda3, the GPU (10de:1b06 GP102 [GeForce GTX 1080 Ti], a card of "
        "that time; the report names none), the kernel 4.15.0-72-generic, the module's place; "
        "no libtorch_cuda.so (the GPU code is not what fails); " + mk2.SRC_TORCH + "; "
        + SRC_BASE,
        {"PATH": f"{base}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "CONDA_PREFIX": base, "CONDA_DEFAULT_ENV": "base",
         "HOME": "/home/user"},
        real_world(
            url, pasted,
            "torch 1.3.0 is built with CUDA 10.1; the 410.48 driver supports CUDA 10.0: "
            "update the driver to 418.39 or later",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        *sections)


def slurm_v100_torch150_on_r418():
    """ai4d-iasc/trixie#6: a Slurm job (--gres=gpu:4) on V100-SXM2 nodes with driver 418.67
    (CUDA 10.1); torch from `conda install pytorch torchvision cudatoolkit=10.2` sees no GPU."""
    name = "rw-slurm-v100-conda-torch150-cu102-on-r418"
    url = "https://github.com/ai4d-iasc/trixie/issues/6"
    drv, rel = "418.67", "4.15.0-101-generic"
    dst, root = base_root(name, 0x1db5, 0x1249, "Tesla V100-SXM2-32GB", drv)
    w(root, "etc/os-release", UBUNTU1804)
    move_kernel(root, "6.8.0-45-generic", rel)
    base, env = "/home/user/anaconda3", "/home/user/anaconda3/envs/torch"
    conda_env(root, base, env, "3.8")
    site = f"{env}/lib/python3.8/site-packages"
    torch_dist(root, site, "1.5.0", "'10.2'")
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko = {drv}, -, none\n"]
    pasted = ("#SBATCH --gres=gpu:4 / module load cuda-10.2.89-gcc-9.2.0-fa5atrg / NVIDIA-SMI "
              "418.67       Driver Version: 418.67       CUDA Version: 10.1 / 0  Tesla "
              "V100-SXM2...  On   | 00000000:89:00.0 Off / GPU available: False")
    ini(dst, TOPIC,
        "A Slurm job (#SBATCH --gres=gpu:4) on a cluster node with Tesla V100-SXM2 GPUs and "
        "driver 418.67 (nvidia-smi: 'CUDA Version: 10.1'); the user's own Anaconda has torch "
        "from `conda install pytorch torchvision cudatoolkit=10.2 -c pytorch`, built with CUDA "
        "10.2, which needs driver 440.33 or later: torch.cuda.is_available() is False although "
        "nvidia-smi in the same job lists the GPUs; the cluster's torch environments use "
        "cudatoolkit=10.1, and a job with such a torch fails on the same nodes with 'The NVIDIA "
        "driver on your system is too old (found version 10010)' (ai4d-iasc/trixie#9)",
        f"Rebuilt from {url} (pasted: the conda command with cudatoolkit=10.2, the Slurm script "
        "with '--gres=gpu:4' and 'module load cuda-10.2.89-gcc-9.2.0-fa5atrg', nvidia-smi "
        "'NVIDIA-SMI 418.67 Driver Version: 418.67 CUDA Version: 10.1' with Tesla V100-SXM2 "
        "GPUs at 00000000:89:00.0 and 8A:00.0 (32480MiB), 'GPU available: False'; an admin's "
        "answer: their pytorch environments are created with cudatoolkit=10.1; "
        "https://github.com/ai4d-iasc/trixie/issues/9 on the same cluster: 'The NVIDIA driver "
        "on your system is too old (found version 10010)'); placeholders, not in the report: "
        "torch 1.5.0 (what `conda install pytorch cudatoolkit=10.2` gave on 2020-06-16) and its "
        "env's name and Python 3.8, one GPU instead of four (the base fixture's single slot, "
        "re-identified as 10de:1db5 GV100GL [Tesla V100 SXM2 32GB]), the node's OS (Ubuntu "
        "18.04's os-release, kernel 4.15.0-101-generic) and the module's place (extra/, where "
        "the .run installer puts it), the "
        "module the job loads (its CUDA 10.2 toolkit, not what torch uses) and Slurm's "
        "variables (the report shows neither) left out; no libtorch_cuda.so (the GPU code is "
        "not what fails); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "torch",
         "HOME": "/home/user"},
        real_world(
            url, pasted,
            "conda's pytorch with cudatoolkit=10.2 needs driver 440.33 or later; the nodes run "
            "418.67 (CUDA 10.1): use cudatoolkit=10.1 or a newer driver",
            "framework.cuda-newer-than-driver", "framework", "yes"),
        *sections)


UBUNTU1904 = ('NAME="Ubuntu"\nVERSION="19.04 (Disco Dingo)"\nID=ubuntu\nID_LIKE=debian\n'
              'PRETTY_NAME="Ubuntu 19.04"\nVERSION_ID="19.04"\nHOME_URL="https://www.ubuntu.com/"\n'
              'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/'
              'ubuntu/"\nPRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/'
              'privacy-policy"\nVERSION_CODENAME=disco\nUBUNTU_CODENAME=disco\n')


def ubuntu1904_kfd_root_only():
    """ROCm/ROCT-Thunk-Interface#36: Ubuntu 19.04 with the kernel's own amdgpu and ROCm's
    user space only: no udev rule for kfd, /dev/kfd is crw------- root root."""
    name = "rw-ubuntu1904-kfd-root-only-0600"
    url = "https://github.com/ROCm/ROCT-Thunk-Interface/issues/36"
    dst, root = rx7900xtx_rocm620(name)
    kernel_amdgpu(root)
    w(root, "etc/os-release", UBUNTU1904)
    w(root, "proc/sys/kernel/osrelease", "5.0.0-15-generic\n")
    devs = section(AMD_BASE, "devices").replace("/dev/kfd = c 235:0 0660 0:109",
                                                "/dev/kfd = c 234:0 0600 0:0")
    pasted = "$ ls -la /dev | grep kfd / crw-------   1 root    root    234,   0 Mai 21 05:13 kfd"
    ini(dst, TOPIC,
        "Ubuntu 19.04 with the kernel's own amdgpu (no rock-dkms) and ROCm's rocm-dev and "
        "rocm-libs: nothing installs a udev rule for kfd, so the kernel's default leaves "
        "/dev/kfd crw------- root root and ROCm works only for root; the KFD maintainer: add "
        "KERNEL==\"kfd\", MODE=\"0660\", GROUP=\"video\" in /etc/udev/rules.d, which fixed it",
        f"Rebuilt from {url} (pasted: `ls -la /dev | grep kfd` 'crw-------   1 root    root    "
        "234,   0 Mai 21 05:13 kfd', 'Ubuntu 19.04 using the Xenial packages', 'I used the "
        "rocm-dev and rocm-libs, I'm using the mainline kernel driver'; the maintainer: /dev/kfd "
        "permissions are controlled by udevd, install a rule 'KERNEL==\"kfd\", MODE=\"0660\", "
        "GROUP=\"video\", TAG+=\"uaccess\"'; the reporter: 'I did this, and it worked'); "
        "placeholders, not in the report: the GPU (the amd-rx7900xtx-rocm62-healthy fixture's "
        "RX 7900 XTX; the report names none), ROCm 6.2.0 of the rocm-6.2-toolkit fixture in "
        "place of the 2019 release, the kernel 5.0.0-15-generic, the user's groups and the "
        "render nodes of the base; the kernel's own amdgpu as the pitcairn fixture makes it; "
        "everything else is the rx7600-rocm-torch-override fixture's (see its sources), "
        "without its venv",
        ROCM_ENV,
        real_world(url, pasted,
                   "no udev rule gives /dev/kfd a group: it is 0600 root:root and only root can "
                   "open it; a udev rule (MODE 0660, a group the user is in) fixes it",
                   "driver.no-permission", "driver", "yes"),
        devs)


def arch_gfx902_pytorch_rocm():
    """rocm-arch/python-pytorch-rocm#26: Arch's python-pytorch-rocm (ROCm 4.0.0) on a Ryzen 3
    PRO 2300U's Vega iGPU (gfx902): no code object for it."""
    name = "rw-arch-ryzen2300u-gfx902-pytorch-rocm"
    url = "https://github.com/rocm-arch/python-pytorch-rocm/issues/26"
    dst, root = fresh(name, AMD_BASE)
    set_gpu(root, "15dd", "030000",
            "Raven Ridge [Radeon Vega Series / Radeon Vega Mobile Series]", 90002)
    kernel_amdgpu(root)
    w(root, "etc/os-release", ARCH_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "5.11.2-arch1-1\n")
    elf = section(AMD_BASE, "elf")
    pasted = ("/build/hip-rocclr/src/HIP-rocm-4.0.0/rocclr/hip_code_object.cpp:120: "
              "guarantee(false && \"hipErrorNoBinaryForGpu: Coudn't find binary for current "
              "devices!\")")
    ini(dst, TOPIC,
        "An Arch laptop whose only GPU is the Ryzen 3 PRO 2300U's Vega iGPU (Raven Ridge, "
        "gfx902), with torch from the python-pytorch-rocm package (HIP of ROCm 4.0.0): the "
        "build has no code object for gfx902, which ROCm does not support, so moving a model "
        "to the GPU aborts with hipErrorNoBinaryForGpu; the thread: no way to make it work on "
        "that iGPU, ROCm's own compatibility",
        f"Rebuilt from {url} (pasted: the abort 'hip_code_object.cpp:120: guarantee(false && "
        "\"hipErrorNoBinaryForGpu: Coudn't find binary for current devices!\")' from "
        "/build/hip-rocclr/src/HIP-rocm-4.0.0, 'The GPU is a AMD Ryzen 3 PRO 2300U w (gfx902) "
        "which I know is not officially supported by ROCm'; the answers: 'there is no way to "
        "make this work with an integrated gpu', the packager closed it: 'we can't really "
        "control the compatibility of amd devices with rocm'); placeholders, not in the report "
        "(its rocminfo and clinfo are attachments): the torch build (torch 2.5.1+rocm6.2 in a "
        "venv and its libtorch_hip.so stand-in of the python-rocm62-torch fixture, whose code "
        "objects, like the package's, name no gfx902), ROCm 6.2 in place of 4.0.0, the GPU's "
        "PCI id 1002:15dd (pci.ids' Raven Ridge line) on the base's bus 0000:05:00.0, KFD "
        "gfx_target_version 90002 (gfx902, LLVM AMDGPU processor table), the kernel "
        "5.11.2-arch1-1 and its own amdgpu, Arch's os-release; everything else is the "
        "rx7600-rocm-torch-override fixture's (see its sources)",
        {"PATH": "/home/user/venv-rocm/bin:" + ROCM_ENV["PATH"], "ROCM_PATH": "/opt/rocm",
         "VIRTUAL_ENV": "/home/user/venv-rocm", "HOME": "/home/user"},
        real_world(url, pasted,
                   "the torch build has no code object for the 2300U's gfx902 (not supported "
                   "by ROCm): nothing to run on that iGPU",
                   "framework.rocm-gfx-unsupported", "framework", "yes"),
        section(AMD_BASE, "devices"), elf)


def intel_cml_oneapi_without_level_zero():
    """intel/compute-runtime#477: Ubuntu 20.04 on a Xeon W-10885M (UHD Graphics P630) with
    intel-opencl-icd and the oneAPI DPC++ compiler but no Level Zero packages."""
    name = "rw-intel-cml-p630-oneapi-without-level-zero"
    url = "https://github.com/intel/compute-runtime/issues/477"
    dst, root = intel_base(name, 0x9bf6, 0x0000)
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    opencl_icd(root)
    # the DPC++ compiler whose sycl-ls the report runs; its CPU OpenCL runtime
    # 2021.12.9.0.24 is the one of the oneAPI 2021.4 release
    oneapi(root, {"compiler": ["2021.4.0"]})
    dpkg(root, {"intel-opencl-icd": "21.37.20939+i620~u20.04",
                "ocl-icd-libopencl1": "2.2.11-1ubuntu1"})
    pasted = ("$ sycl-ls / [opencl:0] ACC : Intel(R) FPGA Emulation Platform for OpenCL(TM) 1.2 "
              "[2021.12.9.0.24_005321] / [opencl:0] CPU : Intel(R) OpenCL 3.0 "
              "[2021.12.9.0.24_005321] / [host:0] HOST: SYCL host platform 1.2 [1.2] / $ dpkg "
              "-l |grep icd / ii  intel-opencl-icd 21.37.20939+i620~u20.04 / ii  "
              "ocl-icd-libopencl1:amd64 2.2.11-1ubuntu1")
    ini(dst, TOPIC,
        "A Xeon W-10885M laptop (UHD Graphics P630, Comet Lake) on Ubuntu 20.04 with Intel's "
        "OpenCL driver (intel-opencl-icd 21.37 from Intel's focal repository) and the oneAPI "
        "DPC++ compiler, but no Level Zero packages (neither the level-zero loader nor "
        "intel-level-zero-gpu): sycl-ls lists no level_zero GPU; Intel's maintainer: the "
        "Level Zero packages are missing",
        f"Rebuilt from {url} (pasted: sycl-ls with the FPGA emulation, CPU and host platforms "
        "only, `id` with video (44) and render (109), `dpkg -l | grep icd` with intel-opencl-icd "
        "21.37.20939+i620~u20.04 and ocl-icd-libopencl1 2.2.11-1ubuntu1, 'Ubuntu 20.04 with "
        "Intel(R) Xeon(R) W-10885M'; the maintainer: 'most likely you have missing some "
        "Level-zero packages … you need to have installed the int[el-level-zero-gpu and "
        "level-zero packages]', then closed); not in the report and chosen here: the GPU's PCI "
        "id 8086:9bf6 (pci.ids 'CometLake-H GT2 [UHD Graphics P630]') in the base tree's slot "
        "(an iGPU is at 0000:00:02.0), the subsystem id, the kernel (the base tree's 6.8.0-45-generic; "
        "the report names none), the render group's id (the base's 992; the report's is "
        "109), no kernel log; the oneAPI DPC++ compiler as /opt/intel/oneapi/compiler/2021.4.0 "
        "(the release whose CPU OpenCL runtime is the pasted 2021.12.9.0.24) with its env/vars.sh "
        "only, its CPU and FPGA emulation runtimes left out, and so is why sycl-ls shows no "
        "OpenCL GPU either (the thread does not settle it); "
        + SRC_INTEL_BASE,
        PATH,
        real_world(url, pasted,
                   "no Level Zero packages are installed (neither the loader nor Intel's GPU "
                   "driver for it): SYCL's level_zero backend finds nothing; install level-zero "
                   "and intel-level-zero-gpu",
                   "runtime.level-zero-missing", "runtime", "yes"),
        devices())
    ldso_cache(dst)


UBUNTU2204 = ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy", logo=False)


def titanxp_torch28_no_sm61():
    """open-edge-platform/anomalib#2953: a TITAN Xp (sm_61) under torch whose CUDA 12.8 build
    has code for sm_70 … sm_120 only: no kernel image."""
    name = "rw-titanxp-torch28-cu128-no-sm61-anomalib"
    url = "https://github.com/open-edge-platform/anomalib/issues/2953"
    drv, rel = "535.161.08", "5.15.0-151-generic"
    dst, root = base_root(name, 0x1b02, 0x0000, "NVIDIA TITAN Xp", drv)
    w(root, "etc/os-release", UBUNTU2204)
    move_kernel(root, "6.8.0-45-generic", rel)
    site = venv(root, "/home/user/test/env", "3.10.12")
    torch_dist(root, site, "2.8.0", "'12.8'")
    # nvcc 13.0 emits nothing below sm_75: the pasted list's sm_70 is left out (neither has 6.1)
    mk2.libtorch_cuda(root, f"{site}/torch/lib/libtorch_cuda.so",
                      ["75", "80", "86", "90", "100", "120"], [])
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {drv}, -, none\n"]
    pasted = ("NVIDIA-SMI 535.161.08 Driver Version: 535.161.08 CUDA Version: 12.2 / Found GPU0 "
              "NVIDIA TITAN Xp which is of cuda capability 6.1. Minimum and Maximum cuda "
              "capability supported by this version of PyTorch is (7.0) - (12.0) / Please install "
              "PyTorch with a following CUDA configurations:  12.6 / The current PyTorch install "
              "supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120. / "
              "torch.AcceleratorError: CUDA error: no kernel image is available for execution on "
              "the device")
    ini(dst, TOPIC,
        "A TITAN Xp (Pascal, compute capability 6.1) on driver 535.161.08 running anomalib in a "
        "venv whose torch is a CUDA 12.8 build with code for sm_70 sm_75 sm_80 sm_86 sm_90 "
        "sm_100 sm_120 only: torch warns the GPU is not compatible and the first kernel fails "
        "with 'no kernel image is available for execution on the device'; torch itself names "
        "the fix, a CUDA 12.6 build (which still has sm_60/sm_61)",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'NVIDIA-SMI 535.161.08 Driver Version: "
        "535.161.08 CUDA Version: 12.2' and 'NVIDIA TITAN XP', torch's warnings 'Found GPU0 "
        "NVIDIA TITAN Xp which is of cuda capability 6.1 … supported by this version of PyTorch "
        "is (7.0) - (12.0)', 'Please install PyTorch with a following CUDA configurations: "
        "12.6', 'The current PyTorch install supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 "
        "sm_90 sm_100 sm_120', the venv's path …/test/env/lib/python3.10/site-packages, and "
        "'torch.AcceleratorError: CUDA error: no kernel image is available for execution on "
        "the device'); placeholders, not in the report: torch 2.8.0 with torch.version.cuda "
        "'12.8' (the build whose arch list that is; PyPI's default in September 2025), the "
        "venv under /home/user, Python 3.10.12, Ubuntu 22.04 with kernel 5.15.0-151-generic, "
        "the module's place; the stand-in libtorch_cuda.so carries sm_75 sm_80 sm_86 sm_90 "
        "sm_100 sm_120 (nvcc 13.0 builds nothing below sm_75; neither list has anything for "
        "6.1, the verdict is the same); the GPU's PCI id 10de:1b02 (pci.ids 'GP102 [TITAN "
        "Xp]'); " + mk2.SRC_TORCH + "; " + SRC_BASE,
        {"PATH": "/home/user/test/env/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin", "VIRTUAL_ENV": "/home/user/test/env", "HOME": "/home/user"},
        real_world(
            url, pasted,
            "the installed torch (CUDA 12.8 build) has code for sm_70 to sm_120 only, the "
            "TITAN Xp's 6.1 is below its minimum (7.0): no kernel image; a CUDA 12.6 build "
            "has sm_61",
            "framework.gpu-too-old-for-build", "framework", "yes"),
        *sections)


def rx580_torch181_rocm401():
    """ROCm/legacy-rocm-build#1471: torch 1.8.1+rocm4.0.1 on an RX 580 (gfx803): no code
    object; AMD: gfx8 is no longer supported by ROCm."""
    name = "rw-rx580-gfx803-torch181-rocm401"
    url = "https://github.com/ROCm/legacy-rocm-build/issues/1471"
    dst, root = fresh(name, AMD_BASE)
    set_gpu(root, "67df", "030000",
            "Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]", 80003)
    site = "home/user/venv-rocm/lib/python3.10/site-packages"
    shutil.rmtree(f"{root}/{site}/torch-2.5.1+rocm6.2.dist-info")
    os.unlink(f"{root}/{site}/torch/version.py")
    torch_dist(root, "/" + site, "1.8.1+rocm4.0.1", "None", hip="'4.0.20496-4f163c68'")
    elf = section(AMD_BASE, "elf").replace(
        "gfx=gfx900,gfx906,gfx908,gfx90a,gfx1030,gfx1100", "gfx=gfx900,gfx906,gfx908")
    pasted = ("hip_code_object.cpp:120: guarantee(false && \"hipErrorNoBinaryForGpu: Coudn't find "
              "binar[y for current devices!\")] / GPU: Radeon RX 580 Series / The version of "
              "pytorch installed on my computer: torch==1.8.1+rocm4.0.1")
    ini(dst, TOPIC,
        "A Radeon RX 580 (Polaris, gfx803) with torch 1.8.1+rocm4.0.1 from PyTorch's ROCm "
        "index: the wheel carries no code object for gfx803, which ROCm no longer supports, so "
        "the first GPU use aborts with hipErrorNoBinaryForGpu; AMD: gfx8 is not supported any "
        "more; the answer: build torch from source for gfx803",
        f"Rebuilt from {url} (pasted: the title's 'hip_code_object.cpp:120: guarantee(false && "
        "\"hipErrorNoBinaryForGpu: Coudn't find binar…', 'GPU: Radeon RX 580 Series', 'The "
        "version of pytorch installed on my computer: torch==1.8.1+rocm4.0.1'; xuhuisheng: "
        "'You need compile pytorch from source by yourself'; ROCmSupport: 'we are NOT "
        "officially supporting gfx8 devices with ROCm anymore'); placeholders, not in the "
        "report: the wheel's code objects (gfx900 gfx906 gfx908, the targets PyTorch's ROCm 4.0 "
        "builds were made for; none is gfx803) on the libtorch_hip.so stand-in of the "
        "python-rocm62-torch fixture, its torch.version.hip '4.0.20496-4f163c68', the venv and "
        "Python 3.10 of the base (not the report's), the PCI id 1002:67df (pci.ids' Ellesmere "
        "line) on the base's bus 0000:05:00.0, KFD gfx_target_version 80003 (gfx803, LLVM "
        "AMDGPU processor table), the amdgpu driver and everything else of the "
        "rx7600-rocm-torch-override fixture (see its sources)",
        {"PATH": "/home/user/venv-rocm/bin:" + ROCM_ENV["PATH"], "ROCM_PATH": "/opt/rocm",
         "VIRTUAL_ENV": "/home/user/venv-rocm", "HOME": "/home/user"},
        real_world(url, pasted,
                   "torch 1.8.1+rocm4.0.1 has no code object for the RX 580's gfx803, which "
                   "ROCm no longer supports: build torch from source for gfx803",
                   "framework.rocm-gfx-unsupported", "framework", "yes"),
        section(AMD_BASE, "devices"), elf)


def write():
    ubuntu2404_550_point_release()
    eos6_940mx_no_headers()
    ubuntu1804_torch130_on_r410()
    slurm_v100_torch150_on_r418()
    ubuntu1904_kfd_root_only()
    arch_gfx902_pytorch_rocm()
    intel_cml_oneapi_without_level_zero()
    titanxp_torch28_no_sm61()
    rx580_torch181_rocm401()
