# SPDX-License-Identifier: GPL-2.0-or-later
"""WSL2 on a Windows Insider build whose GPU paravirtualization was broken: the Windows
driver's files are mounted at /usr/lib/wsl/lib, but no /dev/dxg reaches the distribution, so
nvidia-smi and CUDA find no GPU; rebuilt from microsoft/WSL#6772 with the wsl topic's pieces
(wsl.py, its sources). Written by tests/tools/mk-real-world-fixtures.py wsl_builds."""
from realworld.common import UBUNTU2004_OS_RELEASE, ini, ldso_cache, real_world, w
from realworld.wsl import WSL_SRC, wsl_distribution

TOPIC = "wsl_builds"
FIXTURES = ("rw-wsl2-build21343-no-dxg-wsl-6772",)
URL = "https://github.com/microsoft/WSL/issues/6772"
KNOWN = "https://github.com/microsoft/WSL/issues/6773"
RELEASE = "5.4.91-microsoft-standard-WSL2"


def insider_build_without_dxg():
    dst, root = wsl_distribution(FIXTURES[0], UBUNTU2004_OS_RELEASE, RELEASE)
    w(root, "proc/modules", "")
    pasted = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. / "
              "cudaGetDeviceCount returned 100 -> no CUDA-capable device is detected")
    ini(dst, TOPIC,
        "WSL2 (kernel 5.4.91-microsoft-standard-WSL2, Ubuntu 20.04) on Windows Insider build "
        "21343 with the NVIDIA Windows driver 465.89: the driver's files are mounted at "
        "/usr/lib/wsl/lib, but the build's GPU paravirtualization is broken and gives the "
        "distribution no /dev/dxg, so nvidia-smi cannot communicate with the driver and "
        "deviceQuery gets cudaGetDeviceCount 100 (no CUDA-capable device); Microsoft: a known "
        "issue of the build, fixed in the next Insider build",
        f"Rebuilt from {URL} (pasted: 'Microsoft Windows [Version 10.0.21343.1000]', 'Ubuntu "
        "Release: 20.04', 'Linux version 5.4.91-microsoft-standard-WSL2 (oe-user@oe-host)', "
        "'Latest Nvidia Win10 driver 465.89', nvidia-smi's 'NVIDIA-SMI has failed because it "
        "couldn't communicate with the NVIDIA driver', deviceQuery's 'cudaGetDeviceCount "
        "returned 100 -> no CUDA-capable device is detected'; Microsoft: 'This is a known issue "
        f"for this build! I've filed an issue on this on ourselves and pinned it over here' "
        f"({KNOWN}: 'GPU Compute support is unavailable in preview build 21354 ... Any access "
        "to the vGPU in WSL will fail'; the same team's note on build 21327, "
        "https://github.com/microsoft/WSL/issues/6617: 'The /dev/dxg device is not available in "
        "my Linux distros', and https://github.com/microsoft/WSL/issues/6809 on 21354: 'The "
        "/dev/dxg device is not available ... updated to preview build 21359, fixed')); the "
        "kernel release is the report's; not in the report and placeholders: Ubuntu 20.04.6's "
        "os-release, the files of /usr/lib/wsl/lib (nvidia-smi ran, so the mount was there) as "
        "the wsl topic makes them, no /dev/dxg (what the build's known issue removes), no GPU-PV "
        "adapter on the virtual PCI bus (the report shows none), the CUDA 11.1 and 11.2 "
        "toolkits left out (their versions are not given; what fails is below them); " +
        WSL_SRC,
        {"PATH": "/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
                 "/bin:/usr/lib/wsl/lib"},
        real_world(URL, pasted,
                   "Windows Insider build 21343/21354 broke WSL's GPU paravirtualization: no "
                   "/dev/dxg in the distribution, so CUDA and NVML find no GPU although the "
                   "Windows driver's files are mounted; the next Insider build fixed it",
                   "driver.wsl-no-gpu-paravirtualization", "driver", "yes"))
    ldso_cache(dst)


def write():
    insider_build_without_dxg()
