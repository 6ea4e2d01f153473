# SPDX-License-Identifier: GPL-2.0-or-later
"""A seventh round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (rw49e), from AMD ROCm, Intel, WSL2, Slurm and Kubernetes, each only as far as its
thread shows the machine. The scores before any change are in docs/HACKING.md ("Reports an
outside evaluator would pick", seventh round)."""
from realworld.common import fresh, ini, real_world, section, w
from realworld.mi300x import cpuinfo

TOPIC = "outside7"
FIXTURES = ("rw-slurm-mi300x-autodetect-amdgpu-slinky-57", "slurm-mi300x-autodetect-rsmi")

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


def write():
    slinky_57()
    rsmi()
