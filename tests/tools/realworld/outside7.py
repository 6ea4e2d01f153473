# SPDX-License-Identifier: GPL-2.0-or-later
"""A seventh round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (rw49e), from AMD ROCm, Intel, WSL2, Slurm and Kubernetes, each only as far as its
thread shows the machine. The scores before any change are in docs/HACKING.md ("Reports an
outside evaluator would pick", seventh round)."""
import shutil

from realworld.amd import BASE as AMD_BASE, drop_venv, set_gpu
from realworld.common import fresh, ini, read, real_world, section, w
from realworld.mi300x import cpuinfo

TOPIC = "outside7"
FIXTURES = ("rw-slurm-mi300x-autodetect-amdgpu-slinky-57", "slurm-mi300x-autodetect-rsmi",
            "rw-gfx1033-clinfo-root-only-not-in-render-rocm-1826")

BASE = "mi300x-amdgpu"
URL_57 = "https://github.com/SlinkyProject/slurm-operator/issues/57"
SRC_57 = (
    f"Rebuilt from {URL_57} (title: 'Unable to allocate GPUs: gres.conf mismatch with "
    "slurm.conf in Slinky deployment'; pasted: Slurm 25.05.3 under the slurm-operator 0.4.0 "
    "chart on 'a two-node Kubernetes cluster with AMD GPUs', the worker pod "
    "amd-gpu-worker-slinky-0, `srun -N1 --gres=gpu:8 hostname` failing; SchedMD's answer: "
    "'In gres.conf, `AutoDetect=amdgpu` is not a valid value for AutoDetect'; the reporter's "
    "later slurmd log with AutoDetect=rsmi: 'gpu/rsmi: _get_system_gpu_list_rsmi: 8 GPU "
    "system device(s) detected', 'Type:amd_instinct_mi300x_oam', 'Cores(224)'; that later "
    "problem (a config-only 'GRES[gpu] Type:8 Count:1' discarded, the detected GPUs ignored) "
    "was not settled in the thread and is not this fixture's); Slurm's gres.c "
    "_handle_autodetect_flags() logs \"unknown autodetect flag 'amdgpu'\" and leaves "
    "AutoDetect unset, which detects no GPU; not in the report and placeholders: gres.conf's "
    "place and other lines (the operator renders it, configless, from its Helm values, which "
    "are not shown: the file is /etc/slurm/gres.conf, slurmd's default, with the one line "
    "SchedMD quotes), slurm.conf (not shown: left out), the node's tree, the mi300x-amdgpu "
    "fixture's (eight MI300X 1002:74a1, gfx942, amdgpu-dkms, /dev/kfd and the render nodes "
    "for the render group; see its sources) with the rocm-examples#187 fixture's Xeon "
    "Platinum 8470 /proc/cpuinfo (the report shows 224 cores, not the model)")


def node(name, gres_conf):
    dst, root = fresh(name, BASE)
    cpuinfo(root)
    w(root, "etc/slurm/gres.conf", gres_conf)
    return dst, root


def slinky_57():
    dst, root = node(FIXTURES[0], "AutoDetect=amdgpu\n")
    ini(dst, TOPIC,
        "A Slurm 25.05 worker (Slinky, Kubernetes) with eight MI300X whose gres.conf sets "
        "AutoDetect=amdgpu, no value Slurm knows: slurmd logs \"unknown autodetect flag "
        "'amdgpu'\" and detects no GPU, so `srun --gres=gpu:8` cannot have the node's GPUs",
        SRC_57,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(URL_57,
                   "srun -N1 --gres=gpu:8 hostname fails on the MI300X worker (gres.conf: "
                   "AutoDetect=amdgpu)",
                   "AutoDetect=amdgpu is no AutoDetect value (SchedMD): Slurm ignores it and "
                   "detects no GPU; AMD GPUs are detected with AutoDetect=rsmi",
                   "runtime.slurm-autodetect-unknown", "runtime", "yes"),
        section(BASE, "devices"))


def rsmi():
    dst, root = node(FIXTURES[1], "AutoDetect=rsmi\n")
    ini(dst, TOPIC,
        "The rw-slurm-mi300x-autodetect-amdgpu-slinky-57 worker after SchedMD's answer: "
        "gres.conf sets AutoDetect=rsmi, AMD's detection, which found the eight GPUs (the "
        "negative of runtime.slurm-autodetect-unknown)",
        SRC_57 + "; gres.conf as the reporter changed it ('I tried with AutoDetect option "
        "that supports AMD GPU devices', and the log's gpu/rsmi lines)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        section(BASE, "devices"))


URL_1826 = "https://github.com/ROCm/legacy-rocm-build/issues/1826"
SRC_1826 = (
    f"Rebuilt from {URL_1826} (title: 'Required to be root to list devices'; pasted: 'ROCm "
    "5.3 on Ubuntu 22.04', `clinfo --list` as the user printing nothing, `sudo -u root "
    "clinfo --list` printing 'Platform #0: AMD Accelerated Parallel Processing' and ' `-- "
    "Device #0: gfx1033'; 'the user is already in the `video` group'; the reporter's fix: 'I "
    "had to add the user to the `render` group as well'; 'a computer upgraded from an Ubuntu "
    "20.04'); KFD node 2's gfx_target_version 100303 (gfx1033); not in the report and "
    "placeholders: the GPU's PCI id 1002:163f (gfx1033 is Van Gogh, and 163f its id in "
    "pci.ids; the board is not named) with the base GPU's other attributes, Ubuntu 22.04.4 "
    "and its 5.15.0-116-generic kernel (the base's), the amdgpu module's version file (the "
    "base's amdgpu-dkms 6.7.0: the report does not say which amdgpu drives the GPU), /dev/kfd and renderD128 0660 "
    "root:render (gid 109) as ROCm's udev rule makes them, the user's other groups (video 44 "
    "and the base's); the ROCm 5.3 user space and clinfo are left out (what is judged is the "
    "nodes the process opens); everything else is the rx7600-rocm-torch-override fixture's "
    "(see its sources), without its venv")


def clinfo_root_only():
    dst, root = fresh(FIXTURES[2], AMD_BASE)
    set_gpu(root, "163f", "030000", "VanGogh [AMD Custom GPU 0405]", 100303)
    drop_venv(root)
    shutil.rmtree(f"{root}/var")  # the base's kernel log: the report shows none
    w(root, "proc/self/status", read(root, "proc/self/status").replace(
        "Groups:\t4 24 27 30 44 46 109 112 1000 ", "Groups:\t4 24 27 30 44 46 112 1000 "))
    ini(dst, TOPIC,
        "Ubuntu 22.04 with ROCm 5.3 on a gfx1033 (Van Gogh) GPU: /dev/kfd and "
        "/dev/dri/renderD128 are 0660 root:render and the user is in video but not in render, "
        "so clinfo --list finds no device as the user and gfx1033 as root",
        SRC_1826,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        real_world(URL_1826,
                   "clinfo --list (nothing as the user); sudo -u root clinfo --list: Platform "
                   "#0: AMD Accelerated Parallel Processing `-- Device #0: gfx1033",
                   "the user is in video but not in render, the group of /dev/kfd and the "
                   "render node: ROCm's OpenCL opens no device unless run as root; adding the "
                   "user to render fixed it",
                   "driver.no-permission", "driver", "yes"),
        section(AMD_BASE, "devices"))


def write():
    slinky_57()
    rsmi()
    clinfo_root_only()
