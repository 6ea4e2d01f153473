# SPDX-License-Identifier: GPL-2.0-or-later
"""ollama and the GPU code it bundles (framework.ollama-no-usable-cuda-library): a Tesla K80
(compute capability 3.7) below every architecture of ollama 0.5.11's CUDA 11 and CUDA 12
libraries, so ollama runs on the CPU; Arch Linux's ollama-cuda rebuilt with CUDA 13, whose
libggml-cuda.so has no kernels for a Pascal GeForce (6.1): "no kernel image is available";
and the negative, ollama 0.5.11 on a GeForce RTX 3060 (8.6), which both variants cover. Its
ROCm build (framework.ollama-rocm-gfx-unsupported): ollama 0.9.6's lib/ollama/rocm without
rocBLAS kernels for an Instinct MI50 (gfx906), and the negative, the same on an RX 7900 XTX
(gfx1100); an RX 6700 XT (gfx1031) whose ollama service sets HSA_OVERRIDE_GFX_VERSION=10.3.0 in
a `systemctl edit` drop-in, which the environment gpuenv runs in does not have: the service's
override decides (the negative of reading gpuenv's own). The override set for the service
while the server is an `ollama serve` started by hand (runtime.override-not-inherited): Arch
Linux's ollama-rocm on an RX 6750 (gfx1031), the unit not enabled (ollama/ollama#8679), and
the negative, the same machine with the unit enabled. Written by
`tests/tools/mk-real-world-fixtures.py ollama`.
"""
import os

from realworld import amd
from realworld.common import (ARCH_OS_RELEASE, SRC_BASE, base_root, fresh, ini, mk2, real_world,
                              section, ubuntu_os_release, w)
from realworld.wheels import BASE, UBUNTU2204

TOPIC = "ollama"
FIXTURES = ("rw-ollama-k80-0511-ollama-9124", "rw-ollama-gtx1060-arch-cuda13-ollama-12408",
            "ollama-0511-rtx3060-gpu-used", "rw-ollama-mi50-gfx906-0906-ollama-11569",
            "ollama-0906-rx7900xtx-rocm-gpu-used",
            "ollama-0906-rx6700xt-service-override-gpu-used",
            "rw-ollama-rx6750-unit-override-serve-by-hand-ollama-8679",
            "ollama-arch-rx6750-unit-override-enabled-service")
# ollama 0.9.6's log on Linux (ollama/ollama#11569): the gfx targets of its ROCm's
# rocblas/library/TensileLibrary_lazy_<gfx>.dat, as GetSupportedGFX() lists them
ROCM_0906 = ["gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1151", "gfx1200", "gfx1201",
             "gfx908", "gfx90a", "gfx942"]
UBUNTU2404 = ubuntu_os_release("24.04.2", "Noble Numbat", "noble")
SRC_OLLAMA_ROCM = ("ollama's ROCm layout (lib/ollama/rocm: libggml-hip.so beside ROCm's "
                   "rocblas/ directory, CMakeLists.txt's OLLAMA_HIP_INSTALL_DIR and its install "
                   "rules; install.sh unpacks the ROCm tarball under /usr/local); "
                   "rocblas/library holds one empty TensileLibrary_lazy_<gfx>.dat per target "
                   "of ollama 0.9.6's 'supported types' list (ollama/ollama#11569's log: "
                   + " ".join(ROCM_0906) + "), the kernel files beside them left out; "
                   "libggml-hip.so is a stand-in ELF with its SONAME and no GPU code (its code "
                   "objects' targets were not pasted)")
# ollama's CMakePresets.json (0.5.8 to 0.5.x): "CUDA 11" 50;52;53;60;61;70;75;80;86, "CUDA
# 12" 50;60;61;70;75;80;86;87;89;90;90a;120. CMake builds both SASS and PTX for an
# architecture given without -real/-virtual (CMAKE_CUDA_ARCHITECTURES).
CUDA11 = ["50", "52", "53", "60", "61", "70", "75", "80", "86"]
CUDA12 = ["50", "60", "61", "70", "75", "80", "86", "87", "89", "90", "120"]
SRC_OLLAMA = ("ollama's Linux tarball layout (lib/ollama/cuda_v11 and cuda_v12, each "
              "libggml-cuda.so beside its libcudart.so.<major> link: CMakePresets.json and the "
              "install rules of ollama 0.5.8 and later); the stand-in libggml-cuda.so files "
              "(tests/tools/fatbin_writer.py: headers as the CUDA release writes them, no code) "
              "carry the presets' architectures as SASS and PTX, sm_90a left out (the scanner's "
              "arch-specific target plays no part for these GPUs); the bundled runtimes' exact "
              "patch releases were not pasted, so only the libcudart.so.11.0 / libcudart.so.12 "
              "names stand (empty placeholders)")


def ollama_tarball(root, prefix="/usr/local"):
    """lib/ollama as ollama 0.5.11's Linux tarball unpacks under prefix."""
    lib = f"{prefix}/lib/ollama"
    w(root, f"{prefix}/bin/ollama", "", 0o755)
    mk2.ELF.setdefault(root, []).extend([
        (f"{lib}/cuda_v11/libggml-cuda.so",
         f"fatbin soname=libggml-cuda.so sass={','.join(CUDA11)} ptx={','.join(CUDA11)} "
         "ptxisa=7.3"),
        (f"{lib}/cuda_v12/libggml-cuda.so",
         f"fatbin soname=libggml-cuda.so sass={','.join(CUDA12)} ptx={','.join(CUDA12)} "
         "ptxisa=8.4")])
    w(root, f"{lib}/cuda_v11/libcudart.so.11.0", "")
    w(root, f"{lib}/cuda_v12/libcudart.so.12", "")
    w(root, f"{lib}/libggml-base.so", "")


def k80_9124():
    """ollama/ollama#9124: ollama 0.5.11 on a server with four Tesla K80 boards."""
    name = FIXTURES[0]
    dst, root = base_root(name, 0x102d, 0x106c, "Tesla K80", "470.256.02")
    w(root, "etc/os-release", UBUNTU2204)
    ollama_tarball(root)
    pasted = "ollama can't find my gpu and use cpu"
    ini(dst, TOPIC,
        "ollama 0.5.11 from its Linux tarball on a server with Tesla K80 boards (GK210, "
        "compute capability 3.7): ollama's CUDA 11 and CUDA 12 libraries carry code for 5.0 "
        "and up only, so ollama finds no GPU it can use and runs the model on the CPU",
        "Rebuilt from https://github.com/ollama/ollama/issues/9124 (pasted: 'my server have 4 "
        "nvidia tesla k80 24gb gpu and 256gb mem', 'ollama can't find my gpu and use cpu', "
        "OS Linux, ollama 0.5.11; a maintainer in the thread: the K80 has compute capability "
        "3.7, ollama supports 5.0 and above (docs/gpu.md)); " + SRC_OLLAMA + "; placeholders, "
        "not in the report: one GK210 GPU of the eight (10de:102d, subsystem 10de:106c as "
        "pci.ids lists the K80), the driver 470.256.02 (R470, the last branch that drives "
        "Kepler) as the proprietary module, ollama under /usr/local as install.sh puts it, "
        "Ubuntu 22.04's os-release; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/ollama/ollama/issues/9124", pasted,
            "the Tesla K80 has compute capability 3.7; ollama's CUDA libraries are built for "
            "5.0 and up (its supported minimum), so it finds no usable GPU and runs on the "
            "CPU; only a build from source for 3.7 (a fork) uses the K80",
            "framework.ollama-no-usable-cuda-library", "framework", "yes"),
        section(BASE, "devices"),
        "[modules]\n/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko = 470.256.02, -, "
        "none, NVIDIA\n")


def gtx1060_12408():
    """ollama/ollama#12408: Arch Linux's ollama-cuda after the move to CUDA 13."""
    name = FIXTURES[1]
    dst, root = base_root(name, 0x1c03, 0x0000, "NVIDIA GeForce GTX 1060 6GB", "580.82.09")
    w(root, "etc/os-release", ARCH_OS_RELEASE)
    w(root, "usr/bin/ollama", "", 0o755)
    # a CUDA 13 build: nvcc 13 builds nothing below sm_75 (the package's list was not pasted)
    mk2.ELF.setdefault(root, []).append(
        ("/usr/lib/ollama/libggml-cuda.so",
         "fatbin soname=libggml-cuda.so sass=75,80,86,89,90,100,120 ptx=120 ptxisa=9.0"))
    w(root, "usr/lib/ollama/libggml-base.so", "")
    pasted = ("CUDA error: no kernel image is available for execution on the device · "
              "NVIDIA GeForce GTX 1060 6GB · Driver Version: 580.82.09 CUDA Version: 13.0")
    ini(dst, TOPIC,
        "Arch Linux's ollama-cuda package, rebuilt against CUDA 13, on a GeForce GTX 1060 6GB "
        "(Pascal, compute capability 6.1) with driver 580.82.09: CUDA 13 builds nothing below "
        "compute capability 7.5, so the package's libggml-cuda.so has no kernel image for the "
        "GPU and the first ggml-cuda kernel fails",
        "Rebuilt from https://github.com/ollama/ollama/issues/12408 (pasted: the journal's "
        "'CUDA error: no kernel image is available for execution on the device', nvidia-smi: "
        "'NVIDIA-SMI 580.82.09 Driver Version: 580.82.09 CUDA Version: 13.0', 'NVIDIA GeForce "
        "GTX 1060 6GB' on 00000000:01:00.0, the reporter's note that it began after CUDA was "
        "updated to 13.0.1 and that CUDA_VISIBLE_DEVICES=-1 (the CPU) works; the thread: the "
        "distributions that moved to CUDA 13 dropped Maxwell, Pascal and Volta, the reporter "
        "filed it with Arch's ollama package); placeholders, not in the report: the "
        "package's architecture list (any list CUDA 13 builds starts at sm_75: sm_75 to "
        "sm_120 with compute_120 PTX, PTX ISA 9.0), the PCI id 10de:1c03 (GP106, "
        "nvidia_devices.tsv), the proprietary module (the open one drives Turing and "
        "newer only) in updates/dkms, Arch's os-release; " + SRC_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/bin"},
        real_world(
            "https://github.com/ollama/ollama/issues/12408", pasted,
            "Arch's ollama-cuda was rebuilt with CUDA 13, which cannot build kernels for "
            "Pascal (compute capability 6.x): its libggml-cuda.so has no kernel image for the "
            "GTX 1060; an ollama built with CUDA 12 (ollama's own release) runs on it",
            "framework.ollama-no-usable-cuda-library", "framework", "yes"),
        section(BASE, "devices"),
        "[modules]\n/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko = 580.82.09, -, "
        "none, NVIDIA\n")


def rtx3060_negative():
    """The negative: the same ollama 0.5.11 tarball on an RTX 3060 (8.6): both variants run."""
    name = FIXTURES[2]
    dst, root = base_root(name, 0x2504, 0x0000, "NVIDIA GeForce RTX 3060", "550.120",
                          flavor="open")
    w(root, "etc/os-release", UBUNTU2204)
    ollama_tarball(root)
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write("[scenario]\ndescription = ollama 0.5.11 from its Linux tarball on a GeForce "
                "RTX 3060 (compute capability 8.6) with driver 550.120: both of ollama's CUDA "
                "libraries carry sm_86, and the driver runs their CUDA 11 and 12 runtimes: "
                "nothing to report about ollama\n"
                "source = the negative of rw-ollama-k80-0511-ollama-9124 (" + SRC_OLLAMA +
                "); the PCI id 10de:2504 (GA106 [GeForce RTX 3060 Lite Hash Rate], pci.ids); "
                + SRC_BASE + "; the tree is written by tests/tools/mk-real-world-fixtures.py "
                "(topic ollama: tests/tools/realworld/ollama.py)\nargs = --no-vendor\n\n"
                "[env]\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n\n"
                + section(BASE, "devices") + "\n" + section(BASE, "modules") + "\n[elf]\n" +
                "".join(f"{p} = {s}\n" for p, s in sorted(mk2.ELF[root])))


def ollama_rocm_0906(root):
    """lib/ollama/rocm as ollama 0.9.6's install.sh leaves it under /usr/local."""
    w(root, "usr/local/bin/ollama", "", 0o755)
    rocm = "usr/local/lib/ollama/rocm"
    mk2.ELF.setdefault(root, []).append((f"/{rocm}/libggml-hip.so", "so soname=libggml-hip.so"))
    for gfx in ROCM_0906:
        w(root, f"{rocm}/rocblas/library/TensileLibrary_lazy_{gfx}.dat", "")
    w(root, "etc/os-release", UBUNTU2404)


def mi50_11569():
    """ollama/ollama#11569: ollama 0.9.6 on an Instinct MI50 (gfx906), which its ROCm dropped."""
    name = FIXTURES[3]
    dst, root = fresh(name, amd.BASE)
    amd.set_gpu(root, "66a1", "038000", "Vega 20 [Radeon Pro VII/Radeon Instinct MI50 32GB]",
                90006)
    amd.drop_venv(root)
    ollama_rocm_0906(root)
    pasted = ('msg="amdgpu is not supported (supported types:[' + " ".join(ROCM_0906) +
              '])" gpu_type=gfx906')
    ini(dst, TOPIC,
        "ollama 0.9.6 from its Linux tarball (with the ROCm tarball) on Ubuntu 24.04 with an "
        "AMD Instinct MI50 (Vega 20, gfx906; KFD gfx_target_version 90006): the rocBLAS that "
        "ollama's ROCm bundles has no gfx906 kernels, so ollama skips the GPU and runs models "
        "on the CPU",
        "Rebuilt from https://github.com/ollama/ollama/issues/11569 (pasted: the server's "
        "'amd_linux.go:376 msg=\"amdgpu is not supported (supported types:[" +
        " ".join(ROCM_0906) + "])\" gpu_type=gfx906', OS Ubuntu 24.04.2 LTS, GPU AMD "
        "Instinct MI50, ollama 0.9.6; the maintainer: ollama's ROCm no longer carries "
        "gfx906, build from source); " + SRC_OLLAMA_ROCM + "; placeholders, not in the "
        "report: the install under /usr/local (the log line's library= was cut off), the PCI "
        "id 1002:66a1 and its pci.ids line, class 0x038000, KFD gfx_target_version 90006 "
        "(gfx906, LLVM AMDGPU processor table) on the base's KFD node 2, Ubuntu 24.04.2's "
        "os-release; everything else is the rx7600-rocm-torch-override fixture's (see its "
        "sources), without its venv",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/ollama/ollama/issues/11569", pasted,
            "ollama 0.9.6's ROCm (rocBLAS) has no kernels for gfx906, which its list of "
            "supported types leaves out, so it leaves the MI50 out; an ollama built from "
            "source for gfx906 (or an older release whose ROCm has it) uses the GPU",
            "framework.ollama-rocm-gfx-unsupported", "framework", "yes"),
        section(amd.BASE, "devices"))


def rx7900xtx_rocm_negative():
    """The negative: the same ollama 0.9.6 on an RX 7900 XTX (gfx1100), which its ROCm lists."""
    name = FIXTURES[4]
    dst, root = fresh(name, amd.BASE)
    amd.set_gpu(root, "744c", "030000", "Navi 31 [Radeon RX 7900 XT/7900 XTX]", 110000)
    amd.drop_venv(root)
    ollama_rocm_0906(root)
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write("[scenario]\ndescription = ollama 0.9.6 from its Linux tarball (with the ROCm "
                "tarball) on a Radeon RX 7900 XTX (Navi 31, gfx1100): ollama's rocBLAS has "
                "gfx1100 kernels, so it uses the GPU: nothing to report about ollama\n"
                "source = the negative of rw-ollama-mi50-gfx906-0906-ollama-11569 (" +
                SRC_OLLAMA_ROCM + "); the PCI id 1002:744c and KFD gfx_target_version 110000 "
                "as the amd-rx7900xtx-rocm62-healthy fixture has them; everything else is the "
                "rx7600-rocm-torch-override fixture's (see its sources), without its venv; "
                "the tree is written by tests/tools/mk-real-world-fixtures.py (topic ollama: "
                "tests/tools/realworld/ollama.py)\nargs = --no-vendor\n\n"
                "[env]\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n\n"
                + section(amd.BASE, "devices") + "\n[elf]\n" +
                "".join(f"{p} = {s}\n" for p, s in sorted(mk2.ELF[root])))


# install.sh's unit, as `systemctl cat ollama.service` printed it in ollama/ollama#6520, and
# the drop-in `systemctl edit ollama` writes with the override ollama's docs/gpu.md describe
OLLAMA_UNIT = ("[Unit]\nDescription=Ollama Service\nAfter=network-online.target\n\n[Service]\n"
               "ExecStart=/usr/local/bin/ollama serve\nUser=ollama\nGroup=ollama\n"
               "Restart=always\nRestartSec=3\nEnvironment=\"PATH=/usr/local/sbin:/usr/local/bin:"
               "/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games:/snap/bin\"\n\n"
               "[Install]\nWantedBy=default.target\n")
OVERRIDE_1030 = "[Service]\nEnvironment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\"\n"


def enable_unit_at(root, target, unit):
    """The link `systemctl enable ollama` makes for WantedBy=<target> (systemd.unit(5):
    <target>.wants/ in /etc/systemd/system)."""
    wants = f"{root}/etc/systemd/system/{target}.wants"
    os.makedirs(wants, exist_ok=True)
    os.symlink(unit, f"{wants}/ollama.service")


def enable_unit(root, unit):
    enable_unit_at(root, "default.target", unit)


def rx6700xt_service_negative():
    """The negative of judging gpuenv's own environment: ollama 0.9.6 as a service on an
    RX 6700 XT (gfx1031, not in its ROCm's list), the override in the service's drop-in."""
    name = FIXTURES[5]
    dst, root = fresh(name, amd.BASE)
    amd.set_gpu(root, "73df", "030000", "Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]",
                100301)
    amd.drop_venv(root)
    ollama_rocm_0906(root)
    w(root, "etc/systemd/system/ollama.service", OLLAMA_UNIT)
    w(root, "etc/systemd/system/ollama.service.d/override.conf", OVERRIDE_1030)
    enable_unit(root, "/etc/systemd/system/ollama.service")
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write("[scenario]\ndescription = ollama 0.9.6 from its Linux tarball (with the ROCm "
                "tarball) as install.sh's systemd service on a Radeon RX 6700 XT (Navi 22, "
                "gfx1031, which ollama's ROCm list lacks); the service's drop-in sets "
                "HSA_OVERRIDE_GFX_VERSION=10.3.0, so ROCm runs the gfx1030 code the list has; "
                "the shell gpuenv runs from has no override, and the service never reads it: "
                "nothing to report about ollama\n"
                "source = the negative of reading the override from gpuenv's own environment "
                "(" + SRC_OLLAMA_ROCM + "); /etc/systemd/system/ollama.service as install.sh "
                "writes it, in the words `systemctl cat ollama.service` printed in "
                "https://github.com/ollama/ollama/issues/6520, and the drop-in `systemctl edit "
                "ollama` writes (ollama.service.d/override.conf) with the override ollama's "
                "docs/gpu.md give for a GPU near gfx1030; the link `systemctl enable ollama` "
                "(install.sh runs it where systemd runs) makes for the unit's WantedBy="
                "default.target, /etc/systemd/system/default.target.wants/ollama.service; "
                "the PCI id 1002:73df (pci.ids' Navi "
                "22 line), KFD gfx_target_version 100301 (gfx1031, LLVM AMDGPU processor "
                "table), as the amd topic's gfx1031 fixture has them; everything else is the "
                "rx7600-rocm-torch-override fixture's (see its sources), without its venv; "
                "the tree is written by tests/tools/mk-real-world-fixtures.py (topic ollama: "
                "tests/tools/realworld/ollama.py)\nargs = --no-vendor\n\n"
                "[env]\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n\n"
                + section(amd.BASE, "devices") + "\n[elf]\n" +
                "".join(f"{p} = {s}\n" for p, s in sorted(mk2.ELF[root])))


# ollama/ollama#8679: Arch Linux, an RX 6750 (gfx1031), Environment="HSA_OVERRIDE_GFX_VERSION=
# 10.3.0" set for the service, the server started by hand with `ollama serve`; the maintainer:
# "`ollama serve` does not and cannot use systemd configurations. Since you already have system
# configurations, you should use `systemctl restart ollama`"; the reporter: "THANK YOU it
# worked".
URL_8679 = "https://github.com/ollama/ollama/issues/8679"
PASTED_8679 = ('msg="amdgpu is not supported (supported types:[gfx1010 gfx1012 gfx1030 gfx1100 '
               'gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942])" '
               'gpu_type=gfx1031 gpu=0 library=/opt/rocm/lib')
# Arch's ollama package at the time (its PKGBUILD of 0.4.x, `make dist`): the server in
# /usr/bin, its runners in /usr/lib/ollama/runners (ollama-rocm: runners/rocm*), the unit in
# /usr/lib/systemd/system, the system's ROCm (the hipblas dependency; the log's
# library=/opt/rocm/lib)
ARCH_UNIT = ("[Unit]\nDescription=Ollama Service\n\n[Service]\nExecStart=/usr/bin/ollama serve\n"
             "User=ollama\nGroup=ollama\n\n[Install]\nWantedBy=multi-user.target\n")
SRC_ARCH_8679 = (
    "Arch Linux's ollama and ollama-rocm as their PKGBUILD (0.4.x, `make dist`) installs them: "
    "/usr/bin/ollama, /usr/lib/ollama/runners/cpu_avx2 and runners/rocm_avx (empty "
    "placeholders; the runner names as ollama/ollama#8473's log lists them), the unit "
    "/usr/lib/systemd/system/ollama.service, no ROCm of ollama's own (the log's "
    "library=/opt/rocm/lib); the unit's text was not pasted: a stand-in with "
    "ExecStart=/usr/bin/ollama serve, User/Group ollama and WantedBy=multi-user.target; the "
    "override in /etc/systemd/system/ollama.service.d/override.conf (`systemctl edit ollama`, "
    "ollama's docs/faq.md) with the line the reporter quotes; the kernel's own amdgpu (the "
    "log's 'amdgpu version file missing: /sys/module/amdgpu/version'); placeholders, not in "
    "the report: the PCI id 1002:73df (pci.ids' Navi 22 line, which names the RX 6750 XT), "
    "KFD gfx_target_version 100301 (gfx1031), ROCm 6.2.0 of the rocm-6.2-toolkit fixture "
    "for Arch's /opt/rocm, Arch's os-release; everything else is the "
    "rx7600-rocm-torch-override fixture's (see its sources), without its venv")


def arch_rx6750_8679(name):
    """The machine of ollama/ollama#8679 (the unit enabled or not is the caller's)."""
    dst, root = fresh(name, amd.BASE)
    amd.set_gpu(root, "73df", "030000", "Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]",
                100301)
    amd.drop_venv(root)
    amd.rocm_620(root)
    amd.kernel_amdgpu(root)
    w(root, "etc/os-release", ARCH_OS_RELEASE)
    w(root, "usr/bin/ollama", "", 0o755)
    w(root, "usr/lib/ollama/runners/cpu_avx2/ollama_llama_server", "", 0o755)
    w(root, "usr/lib/ollama/runners/rocm_avx/ollama_llama_server", "", 0o755)
    w(root, "usr/lib/systemd/system/ollama.service", ARCH_UNIT)
    w(root, "etc/systemd/system/ollama.service.d/override.conf", OVERRIDE_1030)
    return dst, root


def rx6750_serve_by_hand_8679():
    """ollama/ollama#8679: the override only in the unit's drop-in, the unit not enabled, the
    server started by hand from a shell without it."""
    dst, root = arch_rx6750_8679(FIXTURES[6])
    ini(dst, TOPIC,
        "Arch Linux's ollama and ollama-rocm on a Radeon RX 6750 (Navi 22, gfx1031, which the "
        "system ROCm's rocBLAS lacks); HSA_OVERRIDE_GFX_VERSION=10.3.0 is set in the ollama "
        "unit's drop-in, the unit is not enabled, and the server is `ollama serve` started by "
        "hand from a shell that has no override: it reads no systemd file, so ollama skips "
        "the GPU",
        "Rebuilt from " + URL_8679 + " (pasted: the server's '" + PASTED_8679 + "', 'amdgpu "
        "version file missing', the reporter: Arch Linux, an AMD RX 6750, "
        "'Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\"'; the maintainer: '`ollama serve` "
        "does not and cannot use systemd configurations', use `systemctl restart ollama`; the "
        "reporter: it worked); " + SRC_ARCH_8679 + "; the unit not enabled: Arch enables no "
        "service a package installs, and the hand-started server could bind its port, so the "
        "service was not running",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/bin", "HOME": "/home/user"},
        real_world(URL_8679, PASTED_8679,
                   "HSA_OVERRIDE_GFX_VERSION=10.3.0 is set for the ollama service, but the "
                   "server was started by hand with `ollama serve`, which reads no systemd "
                   "file, so ROCm takes the RX 6750 as gfx1031, which ollama's ROCm list "
                   "lacks; `systemctl restart ollama` fixed it",
                   "runtime.override-not-inherited", "runtime", "yes"),
        section(amd.BASE, "devices"))


def rx6750_enabled_service_negative():
    """The negative: the same machine with the unit enabled: the service, which reads its
    drop-in, is the server; nothing is lost on the way to it."""
    dst, root = arch_rx6750_8679(FIXTURES[7])
    enable_unit_at(root, "multi-user.target", "/usr/lib/systemd/system/ollama.service")
    ini(dst, TOPIC,
        "The machine of rw-ollama-rx6750-unit-override-serve-by-hand-ollama-8679 with the "
        "ollama unit enabled (`systemctl enable ollama`): the server is the service, which "
        "reads the drop-in's HSA_OVERRIDE_GFX_VERSION=10.3.0; no variable is lost on the way "
        "to ollama's server (the override itself stays unsupported by AMD)",
        "The negative of the " + URL_8679 + " fixture: " + SRC_ARCH_8679 + "; the link "
        "`systemctl enable ollama` makes for WantedBy=multi-user.target",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/bin", "HOME": "/home/user"},
        "", section(amd.BASE, "devices"))


def write():
    k80_9124()
    gtx1060_12408()
    rtx3060_negative()
    mi50_11569()
    rx7900xtx_rocm_negative()
    rx6700xt_service_negative()
    rx6750_serve_by_hand_8679()
    rx6750_enabled_service_negative()
