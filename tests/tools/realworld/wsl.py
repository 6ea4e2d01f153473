# SPDX-License-Identifier: GPL-2.0-or-later
"""WSL2: the Windows driver's files in /usr/lib/wsl/lib, and what goes wrong (or only looks
wrong) beside them."""
from realworld.common import (MULTIARCH_LD_CONF, WSL_LD_CONF, WSL_RELEASE, driver_libs, fresh,
                              ini, ldso_cache, link, real_world, so, ubuntu_os_release, w)

TOPIC = "wsl"
FIXTURES = ("rw-wsl2-linux-libcuda-numba", "wsl2-cuda12.1-ldconfig-symlink",
            "rw-wsl2-genesis-taichi-cuda121", "rw-wsl2-driver-installed-by-mistake")

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
WSL_LIB = "usr/lib/wsl/lib"
DXG = "[devices]\n/dev/dxg = c 10:125 0666 0:0\n"


def gpu_pv_adapter(root):
    """WSL's GPU-PV adapter on its virtual PCI bus (domain from the VM's vmbus channel)."""
    bus = "8a35:00:00.0"
    path = ("LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/"
            f"8a35a6c4-3e5a-4a1e-9d4a-2b1f5c9f1e24/pci8a35:00/{bus}")
    for k, v in (("vendor", "0x1414"), ("device", "0x008e"), ("class", "0x030200"),
                 ("subsystem_vendor", "0x0000"), ("subsystem_device", "0x0000"),
                 ("revision", "0x00"), ("numa_node", "-1"), ("enable", "1")):
        w(root, f"sys/devices/{path}/{k}", v + "\n")
    link(root, f"sys/bus/pci/devices/{bus}", f"../../../devices/{path}")
    w(root, "sys/bus/pci/drivers/dxgkrnl/bind", "")
    link(root, f"sys/devices/{path}/driver", "../../../../../../../../bus/pci/drivers/dxgkrnl")


def wsl_distribution(name, os_release, release=WSL_RELEASE):
    """A WSL2 distribution (kernel `release`) with the Windows driver's /usr/lib/wsl/lib and
    WSL's ld.so configuration. Returns (dst, root)."""
    dst, root = fresh(name)
    w(root, "proc/sys/kernel/osrelease", release + "\n")
    w(root, "etc/os-release", os_release)
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/ld.wsl.conf", WSL_LD_CONF)
    w(root, "etc/ld.so.conf.d/libc.conf", "# libc default configuration\n/usr/local/lib\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", MULTIARCH_LD_CONF)
    for f in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1"):
        so(root, f"{WSL_LIB}/{f}", "libcuda.so.1")
    for f in ("libnvidia-ml.so.1", "libdxcore.so", "nvidia-smi"):
        so(root, f"{WSL_LIB}/{f}", f)
    return dst, root


def wsl_with_linux_driver(name, os_release, linux_driver, release=WSL_RELEASE):
    """A WSL2 distribution (kernel `release`) with the Windows driver's /usr/lib/wsl/lib and a
    Linux driver's user-space libraries (`linux_driver`) in /usr/lib/x86_64-linux-gnu, the
    GPU-PV adapter and no kernel module. Returns (dst, root); call ldso_cache(dst) after
    ini()."""
    dst, root = wsl_distribution(name, os_release, release)
    w(root, "etc/debian_version", "bookworm/sid\n")
    driver_libs(root, linux_driver)
    gpu_pv_adapter(root)
    w(root, "proc/modules", "")
    return dst, root


def linux_libcuda_numba():
    # NVIDIA/cuml#6218: numba (through cuML) on WSL2 gets CUDA_ERROR_NO_DEVICE from cuInit; a
    # maintainer traced it to a Linux driver installed in the WSL2 distribution, found before
    # the Windows driver's /usr/lib/wsl/lib (the user's workaround changed the search order).
    dst, root = wsl_with_linux_driver("rw-wsl2-linux-libcuda-numba",
                                      ubuntu_os_release("24.04.1", "Noble Numbat", "noble"),
                                      "550.120")
    venv = "/mnt/c/Users/Hongb/Documents/Git/hongbomiao.com/machine-learning/hm-cuml/.venv"
    ini(dst, TOPIC,
        "WSL2 (kernel 5.15.167.4-microsoft-standard-WSL2, Ubuntu 24.04) with a Linux NVIDIA "
        "driver's user-space libraries (libnvidia-compute-550: libcuda.so.550.120, "
        "libnvidia-ml.so.550.120) installed in the distribution beside the Windows driver's "
        "/usr/lib/wsl/lib: a uv virtual environment of cuML on the Windows drive calls cuInit "
        "through numba and gets CUDA_ERROR_NO_DEVICE",
        WSL_SRC + "; the thread names neither the distribution release nor the Linux driver's "
        "branch: Ubuntu 24.04 and 550.120 are placeholders of that time (January 2025); the "
        "virtual environment's path is the one pasted (its packages are not rebuilt)",
        {"PATH": f"{venv}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                 "/usr/games:/usr/local/games:/usr/lib/wsl/lib",
         "VIRTUAL_ENV": venv},
        real_world(
            "https://github.com/NVIDIA/cuml/issues/6218",
            "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit "
            "results in CUDA_ERROR_NO_DEVICE (100)",
            "a Linux NVIDIA driver installed inside the WSL2 environment is found before the "
            "Windows driver's /usr/lib/wsl/lib (maintainer's diagnosis; the user's workaround "
            "changed the library search order)",
            "driver.wsl-linux-driver-installed", "driver", "yes"),
        DXG)
    ldso_cache(dst)


def ldconfig_symlink_warning():
    # mahbub-aumi/tensorflow-cuda-wsl-ubuntu24.04#2: `sudo ldconfig` warns that
    # /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link; nothing is broken.
    dst, root = fresh("wsl2-cuda12.1-ldconfig-symlink")
    w(root, "proc/sys/kernel/osrelease", WSL_RELEASE + "\n")
    w(root, "proc/modules", "")
    w(root, "etc/os-release", ubuntu_os_release("24.04.2", "Noble Numbat", "noble"))
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n/usr/local/cuda-12.1/lib64\n")
    w(root, "etc/ld.so.conf.d/ld.wsl.conf", WSL_LD_CONF)
    # only the names are read: text placeholders, no ld.so.cache
    for f in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1"):
        w(root, f"{WSL_LIB}/{f}", f"placeholder for the Windows driver's {f}, a copy (not a "
          "link) as WSL mounts it from C:\\Windows\\System32\\lxss\\lib\n")
    for f in ("libd3d12.so", "libd3d12core.so", "libdxcore.so", "libnvidia-ml.so.1",
              "nvidia-smi"):
        w(root, f"{WSL_LIB}/{f}", f"placeholder for {f} of /usr/lib/wsl/lib\n")
    cuda = "usr/local/cuda-12.1"
    link(root, "usr/local/cuda", "/usr/local/cuda-12.1")
    w(root, f"{cuda}/bin/nvcc",
      "#!/bin/sh\n# placeholder for the nvcc ELF binary; gpuenv only checks that it exists\n")
    w(root, f"{cuda}/bin/cuda-uninstaller", "#!/usr/bin/perl\n# placeholder for the runfile "
      "installer's uninstaller; gpuenv only checks that it exists\n", 0o755)
    w(root, f"{cuda}/include/cuda_runtime_api.h",
      "/* excerpt of cuda_runtime_api.h, CUDA 12.1 */\n#define CUDART_VERSION  12010\n")
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.1.1"\n   },\n'
      '   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart)",\n'
      '      "version" : "12.1.105"\n   },\n   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n'
      '      "version" : "12.1.105"\n   }\n}\n')
    lib = f"{cuda}/targets/x86_64-linux/lib"
    link(root, f"{cuda}/lib64", "targets/x86_64-linux/lib")
    w(root, f"{lib}/libcudart.so.12.1.105",
      "placeholder for libcudart.so.12.1.105 (only its name is read)\n")
    link(root, f"{lib}/libcudart.so.12", "libcudart.so.12.1.105")
    link(root, f"{lib}/libcudart.so", "libcudart.so.12")
    w(root, f"{lib}/stubs/libcuda.so",
      "placeholder for the stub libcuda.so (only its name is read)\n")
    ini(dst, TOPIC,
        "WSL2 (Windows 11, Ubuntu 24.04 from the Microsoft Store) following a "
        "TensorFlow-on-WSL2 guide: the CUDA 12.1.1 toolkit installed with the runfile (toolkit "
        "only, no driver: WSL2's GPU driver is the Windows one) at /usr/local/cuda-12.1, PATH "
        "and LD_LIBRARY_PATH exported in ~/.bashrc, /usr/local/cuda-12.1/lib64 added to "
        "/etc/ld.so.conf; `sudo ldconfig` then prints \"/sbin/ldconfig.real: "
        "/usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\" because the Windows driver's "
        "libcuda.so, libcuda.so.1 and libcuda.so.1.1 in /usr/lib/wsl/lib are copies, not "
        "links. Nothing is broken; no NVIDIA kernel module is loaded, nor should one be "
        "(NVIDIA's CUDA on WSL User Guide: \"Do not install any Linux display driver in "
        "WSL\"), so a doctor that says \"install a driver\" here breaks the machine",
        "Rebuilt from https://github.com/mahbub-aumi/tensorflow-cuda-wsl-ubuntu24.04/issues/2 "
        "(pasted: \"after running sudo nano /etc/ld.so.conf, I get: /sbin/ldconfig.real: "
        "/usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\") and the guide it was filed "
        "against (https://github.com/mahbub-aumi/tensorflow-cuda-wsl-ubuntu24.04, README: "
        "cuda_12.1.1_530.30.02_linux.run, the ~/.bashrc exports and the /etc/ld.so.conf "
        "line); the cause as https://github.com/microsoft/WSL/issues/5548 established it "
        "(\"copies not symlinks\"; \"Thus far the warning hasn't proved blocking in any "
        "way\") and https://github.com/microsoft/WSL/issues/11229 (the three files carry the "
        "same SONAME libcuda.so.1). Not in the report and chosen here: the WSL kernel release "
        "5.15.167.4-microsoft-standard-WSL2 (the WSL 2.3/2.4 kernel current when the issue "
        "was filed, March 2025; WSL2 kernels are released as <version>-microsoft-standard-WSL2 "
        "by github.com/microsoft/WSL2-Linux-Kernel), Ubuntu 24.04.2's os-release, "
        "/etc/ld.so.conf.d/ld.wsl.conf as WSL writes it, the other files WSL mounts in "
        "/usr/lib/wsl/lib (libdxcore, libd3d12, libnvidia-ml.so.1, nvidia-smi). /dev/dxg is a "
        "misc device with a dynamic minor (the one here is invented). Library files are "
        "placeholders (only their names are read); version.json fields as CUDA 12.1.1 ships "
        "them (cudart and nvcc 12.1.105); no PCI tree (the thread shows none: WSL2 exposes the "
        "GPU through /dev/dxg, not as an NVIDIA PCI device)",
        {"PATH": "/usr/local/cuda-12.1/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                 "/sbin:/bin",
         "LD_LIBRARY_PATH": "/usr/local/cuda-12.1/lib64"},
        real_world(
            "https://github.com/mahbub-aumi/tensorflow-cuda-wsl-ubuntu24.04/issues/2",
            "/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link",
            "the Windows NVIDIA driver's libcuda.so, libcuda.so.1 and libcuda.so.1.1 in "
            "/usr/lib/wsl/lib are copies, not links, so ldconfig warns; CUDA works through the "
            "Windows driver and no Linux driver must be installed",
            "none", "none", "no"),
        DXG)


def toolkit(root, version, cudart, nvcc):
    """A CUDA toolkit as NVIDIA's cuda-toolkit-X-Y packages install it: /usr/local/cuda-X.Y with
    version.json, nvcc (a placeholder: only its presence is read) and the cudart soname."""
    short = ".".join(version.split(".")[:2])
    cuda = f"usr/local/cuda-{short}"
    link(root, "usr/local/cuda", f"/usr/local/cuda-{short}")
    w(root, f"{cuda}/bin/nvcc", "#!/bin/sh\n# placeholder for the nvcc ELF binary\n", 0o755)
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n'
      '   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart)",\n'
      '      "version" : "%s"\n   },\n   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n'
      '      "version" : "%s"\n   }\n}\n' % (version, cudart, nvcc))
    lib = f"{cuda}/targets/x86_64-linux/lib"
    link(root, f"{cuda}/lib64", "targets/x86_64-linux/lib")
    so(root, f"{lib}/libcudart.so.{cudart}", f"libcudart.so.{version.split('.')[0]}")
    return f"/{cuda}"


def genesis_taichi():
    # Genesis-Embodied-AI/genesis-world#114: Genesis (Taichi's CUDA backend) on WSL2 with CUDA
    # 12.1: cuInit answers CUDA_ERROR_NO_DEVICE; the thread: LD_LIBRARY_PATH=/usr/lib/wsl/lib is
    # a workaround, "the root issue is incorrect driver got installed".
    dst, root = wsl_with_linux_driver("rw-wsl2-genesis-taichi-cuda121",
                                      ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy",
                                                        logo=False), "530.30.02")
    cuda = toolkit(root, "12.1.1", "12.1.105", "12.1.105")
    ini(dst, TOPIC,
        "WSL2 with the CUDA 12.1 toolkit (nvcc V12.1.105) and a Linux NVIDIA driver's "
        "user-space libraries (530.30.02, the driver CUDA 12.1's packages bring) installed in "
        "the distribution beside the Windows driver's /usr/lib/wsl/lib: Genesis' Taichi CUDA "
        "backend calls cuInit and gets CUDA_ERROR_NO_DEVICE, while the GPU works on Windows",
        WSL_SRC + "; rebuilt from https://github.com/Genesis-Embodied-AI/genesis-world/issues/"
        "114 (pasted: nvcc --version 'Cuda compilation tools, release 12.1, V12.1.105', the "
        "Taichi line 'CUDA Error CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected while "
        "calling init (cuInit)', 'I can run in windows with cuda device working properly'; the "
        "thread: export LD_LIBRARY_PATH=/usr/lib/wsl/lib works around it, 'The root issue is "
        "incorrect driver got installed'); placeholders, not in the report: Ubuntu 22.04, the "
        "Linux driver's version 530.30.02 (the one CUDA 12.1.1's cuda meta package depends "
        "on), the toolkit's place /usr/local/cuda-12.1 (NVIDIA's packages) with "
        "version.json's 12.1.1 fields, the Python environment (Genesis and Taichi are not "
        "rebuilt: the loader's choice of libcuda is what fails)",
        {"PATH": f"{cuda}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                 "/usr/lib/wsl/lib"},
        real_world(
            "https://github.com/Genesis-Embodied-AI/genesis-world/issues/114",
            "[E 12/20/24 08:45:40.689 2984] [cuda_driver.h:operator()@92] CUDA Error "
            "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected while calling init "
            "(cuInit)",
            "a Linux NVIDIA driver installed inside WSL2 ('incorrect driver got installed'); "
            "its libcuda is loaded instead of the Windows driver's in /usr/lib/wsl/lib "
            "(LD_LIBRARY_PATH=/usr/lib/wsl/lib works around it)",
            "driver.wsl-linux-driver-installed", "driver", "yes"),
        DXG)
    ldso_cache(dst)


def driver_installed_by_mistake():
    # microsoft/WSL#12272: the NVIDIA driver, CUDA toolkit and cuDNN installed in WSL as on a
    # Linux machine ("omitted the notice on CUDA guide page for wsl"): the GPU is gone; the
    # maintainer: remove them with the distribution's package manager.
    dst, root = wsl_with_linux_driver("rw-wsl2-driver-installed-by-mistake",
                                      ubuntu_os_release("24.04.1", "Noble Numbat", "noble"),
                                      "560.35.05")
    cuda = toolkit(root, "12.6.3", "12.6.77", "12.6.85")
    so(root, "usr/lib/x86_64-linux-gnu/libcudnn.so.9.5.1", "libcudnn.so.9")
    link(root, "usr/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9.5.1")
    ini(dst, TOPIC,
        "WSL2 on which the user, following the CUDA guide for Linux instead of its WSL page, "
        "installed the NVIDIA Linux driver (560.35.05's user space: the kernel module cannot "
        "build for the WSL kernel), the CUDA 12.6 toolkit and cuDNN 9 in the distribution, as "
        "on Windows: the GPU is no longer usable in WSL",
        WSL_SRC + "; rebuilt from https://github.com/microsoft/WSL/issues/12272 (pasted: 'I "
        "installed the NVIDIA GPU driver, cudatoolkit, and cudnn on Windows. But I omitted the "
        "notice on CUDA guide page for wsl and installed all GPU driver, cudatoolkit, and "
        "cudnn in wsl too. Now I cannot use GPU in my wsl'; the maintainer's answer: remove "
        "them as installed, with the CUDA instructions or the distribution's package manager); "
        "placeholders, not in the report (it gives no versions): Ubuntu 24.04, the driver "
        "560.35.05 and CUDA 12.6.3 (the cuda meta package's of November 2024, as NVIDIA's "
        "Ubuntu repository installs them), cuDNN 9.5.1 (libcudnn9-cuda-12), the toolkit's "
        "version.json fields",
        {"PATH": f"{cuda}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                 "/usr/lib/wsl/lib"},
        real_world(
            "https://github.com/microsoft/WSL/issues/12272",
            "Now I cannot use GPU in my wsl.",
            "the NVIDIA Linux driver installed inside WSL (the CUDA on WSL guide: install only "
            "the Windows driver); the maintainer: remove what was installed with the "
            "distribution's package manager",
            "driver.wsl-linux-driver-installed", "driver", "yes"),
        DXG)
    ldso_cache(dst)


def write():
    linux_libcuda_numba()
    ldconfig_symlink_warning()
    genesis_taichi()
    driver_installed_by_mistake()
