# SPDX-License-Identifier: GPL-2.0-or-later
"""CUDA_VISIBLE_DEVICES that leaves a process no NVIDIA GPU (runtime.visible-devices-none): a
one-GPU workstation where the process is given an index past its GPUs, or a word that is no
GPU id ($0 expanded by the shell; Slurm's NoDevFiles for a job given no GPU), and the same
machine given the GPU it has (the negative). NVML (the fake libnvidia-ml) lists the GPU, as
nvidia-smi did in the reports. Written by tests/tools/mk-real-world-fixtures.py visible."""
import shutil

from realworld.common import SRC_BASE, base_root, ini, real_world, w

TOPIC = "visible"
FIXTURES = ("rw-titanx-pascal-cuda-visible-devices-2", "titanx-pascal-cuda-visible-devices-0",
            "rw-titanx-cuda-visible-devices-dollar0", "rw-slurm-titanx-job-without-gres")

DRIVER = "375.39"
URL = "https://github.com/pytorch/examples/issues/115"
SRC = ("Rebuilt from " + URL + " (the same report as https://github.com/pytorch/pytorch/issues/"
       "1040; pasted: the command '(py35) ~/pytorch/examples/mnist$ CUDA_VISIBLE_DEVICES=2 "
       "python main.py', torch's 'THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=109 "
       "error=38 : no CUDA-capable device is detected', the mnist example then training on the "
       "CPU, and nvidia-smi's table: 'NVIDIA-SMI 375.39 Driver Version: 375.39', GPU 0 'TITAN X "
       "(Pascal)' at Bus-Id 0000:01:00.0, 63MiB / 12186MiB; the issue's title: "
       "'\"CUDA_VISIBLE_DEVICES=2\" in mnist example actually disables CUDA.'); the one GPU is "
       "the one the table shows (a second row, if the table went on, is not in the excerpt: "
       "index 2 is past the GPUs either way); NVML (the fake library) answers as nvidia-smi "
       "did: driver 375.39, CUDA 8.0 (the 375 branch's), the GPU's name and bus id; not in the "
       "report and placeholders: the PCI id 10de:1b00 (GP102 [TITAN X Pascal] in pci.ids), its "
       "subsystem id, UUID, serial and VBIOS, Ubuntu 16.04.2 (os-release as that release "
       "wrote it) with its kernel 4.4.0-66-generic and gcc 5.4.0 (the report names no "
       "distribution), the module's build date; no Python environment (the "
       "torch of the report, a 2017 0.1 build, is not what fails here); " + SRC_BASE)


def nvml_sections(uuid):
    return ("[nvml]\n"
            f"driver_version = {DRIVER}\nnvml_version = 8.{DRIVER}\ncuda_driver_version = 8000\n"
            "\n[nvml.device.0]\nname = TITAN X (Pascal)\n"
            f"uuid = {uuid}\nserial = 0320117021843\nvbios_version = 86.02.15.00.01\n"
            "minor_number = 0\npci_bus_id = 00000000:01:00.0\n"
            "pci_device_id = 0x1B0010DE\npci_subsystem_id = 0x119A10DE\n"
            "memory_total = 12778405888\nmemory_reserved = 0\nmemory_used = 66060288\n"
            "compute_capability = 6.1\narchitecture = 4\npersistence_mode = 0\n"
            "ecc_mode = 0\ntemperature = 27\npower_usage = 10000\npower_limit = 250000\n"
            "utilization_gpu = 0\nutilization_memory = 0\npcie_link_gen = 3\n"
            "pcie_link_gen_max = 3\npcie_link_width = 16\npcie_link_width_max = 16\n")


UBUNTU1604_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="16.04.2 LTS (Xenial Xerus)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 16.04.2 LTS"\nVERSION_ID="16.04"\nHOME_URL="http://www.ubuntu.com/"\n'
    'SUPPORT_URL="http://help.ubuntu.com/"\nBUG_REPORT_URL="http://bugs.launchpad.net/ubuntu/"\n'
    'VERSION_CODENAME=xenial\nUBUNTU_CODENAME=xenial\n')
DEVICES = ("[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
           "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")


def titanx(name, cvd, rw, desc, src=SRC, extra_env=None):
    dst, root = base_root(name, 0x1b00, 0x119a, "TITAN X (Pascal)", DRIVER)
    # the base's module tree, headers and log are its own kernel's and driver's; the report
    # shows none of them
    for d in ("lib", "var", "usr"):
        shutil.rmtree(f"{root}/{d}")
    w(root, "proc/sys/kernel/osrelease", "4.4.0-66-generic\n")
    w(root, "etc/os-release", UBUNTU1604_OS_RELEASE)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Tue Feb 14 21:31:04 PST 2017\n"
      "GCC version:  gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.4) \n")
    ini(dst, TOPIC, desc, src,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "CUDA_VISIBLE_DEVICES": cvd, **(extra_env or {})},
        rw, nvml_sections("GPU-5a8f2c1e-3b7d-4e90-a1c6-d2f4e8b0c937") + "\n" + DEVICES,
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1")


def write():
    titanx("rw-titanx-pascal-cuda-visible-devices-2", "2",
           real_world(URL,
                      "THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=109 error=38 : no "
                      "CUDA-capable device is detected",
                      "CUDA_VISIBLE_DEVICES=2 names a GPU index the machine does not have "
                      "(CUDA counts GPUs from 0), so CUDA hides every GPU and the example runs "
                      "on the CPU; the issue's title: it 'actually disables CUDA'",
                      "runtime.visible-devices-none", "runtime", "yes"),
           "A workstation with one TITAN X (Pascal) on driver 375.39; the process is started "
           "as CUDA_VISIBLE_DEVICES=2 python main.py (pytorch/examples' mnist README of the "
           "time): index 2 names no GPU of this machine, so CUDA stops there and the process "
           "sees none (error 38, no CUDA-capable device is detected)")
    titanx("titanx-pascal-cuda-visible-devices-0", "0", "",
           "The same one-GPU TITAN X (Pascal) workstation with CUDA_VISIBLE_DEVICES=0, the "
           "GPU it has: the process sees it (the negative of "
           "rw-titanx-pascal-cuda-visible-devices-2)")
    write_more()


# endernewton/tf-faster-rcnn#38: the README's `CUDA_VISIBLE_DEVICES=${GPU_ID}` typed as
# `CUDA_VISIBLE_DEVICES=$0`; $0 in an interactive shell is the shell's name, no GPU id.
DOLLAR0_URL = "https://github.com/endernewton/tf-faster-rcnn/issues/38"
DOLLAR0_SRC = (
    "Rebuilt from " + DOLLAR0_URL + " (pasted: the command 'CUDA_VISIBLE_DEVICES=$0 "
    "./tools/demo.py', the error 'no CUDA-capable device is detected', 'I have a TITAN X on "
    "Ubuntu 16.04 with CUDA installed, running nvidia-smi gives me the Device-ID of 0'; the "
    "answer: 'CUDA_VISIBLE_DEVICES=0', after which the issue was closed); the value the process "
    "got is what bash gives $0 in an interactive shell started by a terminal, 'bash' (bash(1), "
    "Special Parameters: 0 'is set to the first argument given to bash' … 'otherwise, it is set "
    "to the filename used to invoke bash'; a login shell's would be '-bash', a word of no GPU "
    "either); the machine is the rw-titanx-pascal-cuda-visible-devices-2 fixture's, whose GPU, "
    "driver 375.39, Ubuntu 16.04.2 and kernel are placeholders here too (the report names a "
    "'TITAN X' on Ubuntu 16.04 and no driver): " + SRC)

# ray-project/ray#7014 (a fix merged after the failure it describes): a Slurm job placed on a
# TitanX node with `#SBATCH -C TitanX` and no --gres gets CUDA_VISIBLE_DEVICES=NoDevFiles, and
# CUDA ignores the GPU.
SLURM_URL = "https://github.com/ray-project/ray/pull/7014"
SLURM_SRC = (
    "Rebuilt from " + SLURM_URL + " (what it establishes: 'The option \"SBATCH -C TitanX\" "
    "specifies a node with a TitanX GPU, while the option \"SBATCH --gres=gpu:1\" lets SLURM "
    "allocate the GPU for the job by setting environment parameter CUDA_VISIBLE_DEVICES to 0. "
    "Note that without the \"--gres\" option, SLURM by default sets CUDA_VISIBLE_DEVICES to "
    "value NoDevFiles, which causes the CUDA runtime system to ignore the GPU'; Slurm writes "
    "that value in common_gres_set_env(), src/plugins/gres/common/gres_common.c, for a job "
    "given none of a node's GPU device files); SLURM_JOB_ID, SLURM_JOB_NODELIST and "
    "SLURM_CPUS_ON_NODE are what sbatch(1) sets a batch job (OUTPUT ENVIRONMENT VARIABLES), "
    "with placeholder values; the node is the rw-titanx-pascal-cuda-visible-devices-2 "
    "fixture's one-GPU machine, whose GPU (the report says 'TitanX'), driver 375.39, Ubuntu "
    "16.04.2 and kernel are placeholders: " + SRC)


def write_more():
    titanx("rw-titanx-cuda-visible-devices-dollar0", "bash",
           real_world(DOLLAR0_URL, "no CUDA-capable device is detected",
                      "CUDA_VISIBLE_DEVICES=$0 gives the process the shell's name, which is "
                      "no GPU index or UUID, so CUDA sees no GPU; CUDA_VISIBLE_DEVICES=0 runs",
                      "runtime.visible-devices-none", "runtime", "yes"),
           "A workstation with one TITAN X on driver 375.39; the demo is started as "
           "CUDA_VISIBLE_DEVICES=$0 ./tools/demo.py, which hands the process the shell's name "
           "(bash): no GPU id, so CUDA sees none (no CUDA-capable device is detected)",
           src=DOLLAR0_SRC)
    titanx("rw-slurm-titanx-job-without-gres", "NoDevFiles",
           real_world(SLURM_URL, "CUDA_VISIBLE_DEVICES=NoDevFiles (a job submitted with "
                      "#SBATCH -C TitanX and no --gres)",
                      "the job asked Slurm for a TitanX node (-C TitanX) but no GPU (no "
                      "--gres): Slurm sets CUDA_VISIBLE_DEVICES=NoDevFiles and CUDA ignores "
                      "the GPU; --gres=gpu:1 gets it",
                      "runtime.visible-devices-none", "runtime", "yes"),
           "A Slurm compute node with one TitanX, inside a batch job submitted with -C TitanX "
           "and no --gres: Slurm allocated the job no GPU and set CUDA_VISIBLE_DEVICES="
           "NoDevFiles, so CUDA sees none",
           src=SLURM_SRC,
           extra_env={"SLURM_JOB_ID": "4817", "SLURM_JOB_NODELIST": "gpu07",
                      "SLURM_CPUS_ON_NODE": "4"})
