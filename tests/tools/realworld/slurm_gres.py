# SPDX-License-Identifier: GPL-2.0-or-later
"""A Slurm job in a pyxis/enroot container that sees no GPU (runtime.visible-devices-none):
without cgroup.conf's ConstrainDevices=yes, Slurm sets CUDA_VISIBLE_DEVICES to the node's number
of the GPU it allocated (2, /dev/nvidia2), while the container shows the job that GPU alone,
numbered 0 by CUDA; and the same job once ConstrainDevices=yes made Slurm number it 0 (the
fix the thread confirmed, the negative). NVML (the fake libnvidia-ml) lists the one GPU the
container has. Written by tests/tools/mk-real-world-fixtures.py slurm_gres."""
import shutil

from realworld.common import SRC_BASE, base_root, ini, real_world, w

TOPIC = "slurm_gres"
FIXTURES = ("rw-slurm-a100-enroot-node-index-pyxis-47",
            "rw-slurm-a100-enroot-constraindevices-pyxis-47")

URL = "https://github.com/NVIDIA/pyxis/issues/47"
DRIVER = "460.73.01"
SRC = (
    "Rebuilt from " + URL + " (title: 'SLURM + pyxis-enroot, \"no CUDA-capable device is "
    "detected\"'; shown: the cluster's /etc/slurm/cgroup.conf, 'CgroupAutomount=yes', "
    "'ConstrainCores=yes', '#TaskAffinity=yes' and no ConstrainDevices; the job "
    "'srun -p gpu --container-name=cuda-11.2.2 --container-image=cuda-11.2.2 --pty "
    "--gres=gpu:A100:1'; in the container's shell 'echo $CUDA_VISIBLE_DEVICES' printing '2'; "
    "'ls -l /dev/nvidia{0..7}' in the container answering 'No such file or directory' for "
    "/dev/nvidia0, 1, 3, 4, 5, 6 (and 7): only /dev/nvidia2 is there; the reporter's fix, "
    "confirmed: 'I have added the ConstrainDevices=yes in cgroup.conf and it works!. Already "
    "tested for several combinations of GPUs requested and multiple jobs at the same time', "
    "after which the maintainer closed it; Slurm's doc/html/gres.shtml, GPU Management: under "
    "the device cgroup a job given /dev/nvidia1 gets CUDA_VISIBLE_DEVICES 0, 'the first GPU "
    "device visible to the job'); the GPU NVML lists is the one device file the container "
    "has, minor 2; SLURM_JOB_ID is what srun(1) sets every job step (OUTPUT ENVIRONMENT "
    "VARIABLES), with a placeholder value; not in the report and placeholders: the A100's "
    "model (A100-SXM4-40GB, PCI id 10de:20b0 and subsystem 10de:134f as pci.ids lists them), "
    "its UUID, serial, VBIOS and bus id, the driver 460.73.01 (an R460 release, which runs "
    "the image's CUDA 11.2) and its CUDA 11.2, Ubuntu 20.04 (os-release as that release "
    "wrote it; the report names no distribution) with kernel 5.4.0-72-generic, the module's "
    "build date and gcc; no Python environment (the report's program is not named); "
    + SRC_BASE)

UBUNTU2004_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="20.04.2 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 20.04.2 LTS"\nVERSION_ID="20.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')

NVML = (
    "[nvml]\n"
    f"driver_version = {DRIVER}\nnvml_version = 11.{DRIVER}\ncuda_driver_version = 11020\n"
    "\n[nvml.device.0]\nname = A100-SXM4-40GB\n"
    "uuid = GPU-3e9c1a52-7d84-4b16-9f20-c5a8e61d0b47\nserial = 1562720004821\n"
    "vbios_version = 92.00.19.00.10\nminor_number = 2\npci_bus_id = 00000000:01:00.0\n"
    "pci_device_id = 0x20B010DE\npci_subsystem_id = 0x134F10DE\n"
    "memory_total = 42949672960\nmemory_reserved = 0\nmemory_used = 0\n"
    "compute_capability = 8.0\narchitecture = 7\npersistence_mode = 1\n"
    "ecc_mode = 1\ntemperature = 31\npower_usage = 52000\npower_limit = 400000\n"
    "utilization_gpu = 0\nutilization_memory = 0\npcie_link_gen = 4\n"
    "pcie_link_gen_max = 4\npcie_link_width = 16\npcie_link_width_max = 16\n")

# what the container has of the node's device files: the allocated GPU's alone
DEVICES = ("[devices]\n/dev/nvidia2 = c 195:2 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
           "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")


def node(name, cvd, rw, desc):
    dst, root = base_root(name, 0x20b0, 0x134f, "A100-SXM4-40GB", DRIVER)
    # the base's module tree, headers and log are its own kernel's and driver's; the report
    # shows none of them
    for d in ("lib", "var", "usr"):
        shutil.rmtree(f"{root}/{d}")
    w(root, "proc/sys/kernel/osrelease", "5.4.0-72-generic\n")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Mon Apr 12 08:00:00 UTC "
      "2021\nGCC version:  gcc version 9.3.0 (Ubuntu 9.3.0-17ubuntu1~20.04) \n")
    info = f"{root}/proc/driver/nvidia/gpus/0000:01:00.0/information"
    with open(info) as f:
        text = f.read()
    w(root, "proc/driver/nvidia/gpus/0000:01:00.0/information",
      text.replace("Device Minor: \t 0", "Device Minor: \t 2"))
    ini(dst, TOPIC, desc, SRC,
        {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "CUDA_VISIBLE_DEVICES": cvd, "SLURM_JOB_ID": "2093"},
        rw, NVML + "\n" + DEVICES, args="--nvml-lib @FAKES@/libnvidia-ml.so.1")


def write():
    node("rw-slurm-a100-enroot-node-index-pyxis-47", "2",
         real_world(URL, "no CUDA-capable device is detected (srun --container-image=… "
                    "--gres=gpu:A100:1; echo $CUDA_VISIBLE_DEVICES prints 2)",
                    "cgroup.conf lacks ConstrainDevices=yes, so Slurm sets "
                    "CUDA_VISIBLE_DEVICES to the node's number of the allocated GPU (2), while "
                    "the enroot container has only /dev/nvidia2, which CUDA numbers 0: index 2 "
                    "is past the one GPU; ConstrainDevices=yes in cgroup.conf fixed it",
                    "runtime.visible-devices-none", "runtime", "yes"),
         "A Slurm job (srun --gres=gpu:A100:1) in a pyxis/enroot container on an A100 node "
         "whose cgroup.conf has no ConstrainDevices: Slurm set CUDA_VISIBLE_DEVICES=2, the "
         "node's number of the GPU it allocated, and the container has that GPU alone "
         "(/dev/nvidia2), which CUDA numbers 0: no CUDA-capable device is detected")
    node("rw-slurm-a100-enroot-constraindevices-pyxis-47", "0",
         real_world(URL, "(none: it works after ConstrainDevices=yes)",
                    "with ConstrainDevices=yes in cgroup.conf Slurm numbers the job's GPUs "
                    "from 0 (CUDA_VISIBLE_DEVICES=0) and the container's one GPU is seen",
                    "none", "none", "no"),
         "The same Slurm job in its pyxis/enroot container once cgroup.conf has "
         "ConstrainDevices=yes: Slurm sets CUDA_VISIBLE_DEVICES=0, the first GPU the job sees, "
         "and CUDA sees the A100 (the negative of rw-slurm-a100-enroot-node-index-pyxis-47)")
