# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of MIG device selection (runtime.mig-device-selection): an A100 server
in MIG mode and a process whose CUDA_VISIBLE_DEVICES asks for what CUDA cannot give. The
machine is the h100-sxm-550 fixture's tree (an 8-GPU SXM server) turned into an A100-SXM4-80GB
one (PCI id 10de:20b2, Gen4 links, driver 515.86.01); NVML (the fake library) answers with the
MIG devices the report shows. Written by tests/tools/mk-real-world-fixtures.py mig."""
import os
import re
import shutil

from realworld.common import fresh, ini, real_world, w

TOPIC = "mig"
FIXTURES = ('rw-mig-two-mig-uuids', 'rw-mig-torch113-device-count-zero',
            'rw-mig-torch24-two-a100-cvd-unset', 'rw-mig-torch113-one-of-two-instances')


def ini_text(dst, desc, source, rw, variables, sections="", args="--no-vendor"):
    ini(dst, TOPIC, desc, source, variables, real_world(**rw),
        sections.rstrip("\n") + "\n" if sections else "", args=args)


BASE = "h100-sxm-550"
DRIVER = "515.86.01"
A100 = "NVIDIA A100-SXM4-80GB"
SRC = ("the h100-sxm-550 fixture's tree (see its sources) with the eight GPUs re-identified as "
       "A100-SXM4-80GB as pci.ids and nvidia-smi name them (10de:20b2, compute capability 8.0, "
       "PCIe Gen4 16.0 GT/s), the 515.86.01 module's version in /proc/driver/nvidia/version, "
       "/sys/module/nvidia/version, the kernel log and nvidia.ko's .modinfo ([modules]); NVML "
       "(the fake libnvidia-ml) answers MIG mode and the MIG devices (nvmlDeviceGetUUID gives "
       "MIG-<uuid> since R470); the server, its eight GPUs, the kernel and the build date of the "
       "module are placeholders the reports do not show; GPU and MIG instance ids are "
       "placeholders where the report gives only the MIG UUIDs")


def a100_server(name, mig_devices, driver=DRIVER, cuda=11070, model=A100, device="20b2",
                subsys="1463", power=400000):
    """Copies the base and makes it an A100 server on `driver` (NVML's CUDA version `cuda`);
    GPU 0 in MIG mode with mig_devices [(uuid, gi, ci)]. Returns (dst, root, nvml sections
    text)."""
    dst, root = fresh(name, BASE)
    # the base's apt log dates the base machine, not these (its date would be a false one)
    shutil.rmtree(f"{root}/var/log/apt", ignore_errors=True)
    base_ini = open(f"tests/fixtures/{BASE}/scenario.ini").read()
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.islink(p):
                continue
            try:
                text = open(p).read()
            except UnicodeDecodeError:
                continue
            new = text.replace("550.54.15", driver).replace("NVIDIA H100 80GB HBM3", model)
            # The module's build date: a placeholder of 515.86.01's time (autumn 2022); the
            # base's own 550.54.15 keeps its date.
            if driver != "550.54.15":
                    new = re.sub(r"Tue Mar  5 22:(\d\d):(\d\d) UTC 2024",
                             r"Wed Oct 26 09:\1:\2 UTC 2022", new)
            if f == "device" and text.strip() == "0x2330":
                new = f"0x{device}\n"
            if f == "subsystem_device" and text.strip() == "0x16c1":
                new = f"0x{subsys}\n"
            if f in ("current_link_speed", "max_link_speed") and "/0000:" in p and \
                    open(os.path.join(dirpath, "device")).read().strip() == "0x2330":
                new = "16.0 GT/s PCIe\n"
            if new != text:
                w(root, os.path.relpath(p, root), new)
    # The [devices], [nvml], [cuda], [nvml.device.N] and [modules] sections of the base.
    sections = base_ini[base_ini.index("[devices]"):]
    nvml_major = f"{cuda // 1000}.{driver.split('.')[0]}."
    sections = (sections.replace("550.54.15", driver).replace("12.550.", nvml_major)
                .replace("NVIDIA H100 80GB HBM3", model)
                .replace("0x233010DE", f"0x{device.upper()}10DE")
                .replace("0x16C110DE", f"0x{subsys.upper()}10DE")
                .replace("compute_capability = 9.0", "compute_capability = 8.0")
                .replace("architecture = 9", "architecture = 7")
                .replace("memory_total = 85520809984", "memory_total = 85899345920")
                .replace("power_limit = 700000", f"power_limit = {power}")
                .replace("pcie_link_gen = 5", "pcie_link_gen = 4")
                .replace("pcie_link_gen_max = 5", "pcie_link_gen_max = 4")
                .replace("nvlink_links = 18", "nvlink_links = 12")
                .replace("cuda_driver_version = 12040", f"cuda_driver_version = {cuda}")
                .replace("driver_version = 12040", f"driver_version = {cuda}"))
    first = sections.index("[nvml.device.0]")
    end = sections.index("\n[", first + 1)
    dev0 = sections[first:end].replace("mig_mode = 0", "mig_mode = 1")
    migs = "".join(f"\n[nvml.device.0.mig.{i}]\nuuid = {u}\ngpu_instance_id = {gi}\n"
                   f"compute_instance_id = {ci}\n" for i, (u, gi, ci) in enumerate(mig_devices))
    sections = sections[:first] + dev0 + migs + sections[end:]
    # MIG device access goes through /dev/nvidia-caps (MIG User Guide, "Device Nodes and
    # Capabilities"): the config and monitor capabilities already in the base, plus one
    # gi/ci access node per MIG device (placeholder minors).
    caps = "".join(f"/dev/nvidia-caps/nvidia-cap{30 + 9 * i} = c 511:{30 + 9 * i} 0444 0:0\n"
                   for i in range(len(mig_devices)))
    sections = sections.replace("/dev/nvidia-caps/nvidia-cap2 = c 511:2 0444 0:0\n",
                                "/dev/nvidia-caps/nvidia-cap2 = c 511:2 0444 0:0\n" + caps)
    return dst, root, re.sub(r"\n{3,}", "\n\n", sections)


# The base's GPUs 1-7: their root ports (pci0000:<dom>), bus links and /proc entries.
BASE_GPUS = (("27", "2a"), ("37", "3a"), ("5a", "5d"), ("97", "9a"), ("a8", "ab"), ("b7", "ba"),
             ("d8", "db"))


def keep_gpus(root, sections, keep):
    """Keeps the base's first `keep` GPUs (0000:18:00.0, 0000:2a:00.0 …): the others' PCI
    trees, /proc/driver/nvidia/gpus entries, device nodes and NVML devices go. Returns the
    sections."""
    for rc, gpu in BASE_GPUS[keep - 1:]:
        shutil.rmtree(f"{root}/sys/devices/pci0000:{rc}")
        for dev in os.listdir(f"{root}/sys/bus/pci/devices"):
            if os.readlink(f"{root}/sys/bus/pci/devices/{dev}").startswith(
                    f"../../../devices/pci0000:{rc}/"):
                os.unlink(f"{root}/sys/bus/pci/devices/{dev}")
        shutil.rmtree(f"{root}/proc/driver/nvidia/gpus/0000:{gpu}:00.0")
    bind = f"{root}/sys/bus/pci/drivers/nvidia"
    for e in os.listdir(bind):
        if os.path.islink(f"{bind}/{e}") and not os.path.exists(f"{bind}/{e}"):
            os.unlink(f"{bind}/{e}")
    out, skip = [], False
    for line in sections.split("\n"):
        if line.startswith("["):
            m = re.match(r"\[nvml\.device\.(\d+)", line)
            skip = bool(m) and int(m.group(1)) >= keep
        if skip:
            continue
        m = re.match(r"/dev/(nvidia|dri/card|dri/renderD)(\d+) =", line)
        if m and ((m.group(1) == "nvidia" and int(m.group(2)) >= keep) or
                  (m.group(1) == "dri/card" and int(m.group(2)) >= keep + 1) or
                  (m.group(1) == "dri/renderD" and int(m.group(2)) >= 128 + keep)):
            continue
        out.append(line)
    return "\n".join(out)


def torch_venv(root, prefix, version, cuda):
    """A venv holding torch `version` (version.py as tools/generate_torch_version.py writes it,
    the dist-info pip writes); its libraries are not part of what these reports are about."""
    site = f"{prefix}/lib/python3.10/site-packages"
    w(root, f"{prefix}/pyvenv.cfg",
      "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n")
    w(root, f"{site}/torch/__init__.py", "")
    w(root, f"{site}/torch/version.py",
      "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', "
      "'git_version', 'hip']\n"
      f"__version__ = '{version}'\ndebug = False\ncuda: Optional[str] = '{cuda}'\n"
      "git_version = '49444c3e546bf240bed24a101e747422d1f8a0ee'\nhip: Optional[str] = None\n")
    di = f"{site}/torch-{version.split('+')[0]}.dist-info"
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n"
      "Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n")
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", f"torch/__init__.py,,\ntorch/version.py,,\n"
      f"torch-{version.split('+')[0]}.dist-info/METADATA,,\n")


def write():
    # 1. PyTorch PR #92315 ("Fix NVML visible device parsing"): two MIG devices named in
    #    CUDA_VISIBLE_DEVICES; CUDA enumerates one, cuda:1 is an invalid device ordinal.
    two = ["MIG-89c850dc-38e3-57df-85c7-690c186b68e9", "MIG-f2b5fbbd-850e-51bb-8ffa-ac9fb48126da"]
    dst, root, sections = a100_server("rw-mig-two-mig-uuids", [(two[0], 1, 0), (two[1], 2, 0)])
    ini_text(
        dst,
        "An 8-GPU A100 server whose GPU 0 is in MIG mode with two MIG devices; the process "
        "names both in CUDA_VISIBLE_DEVICES: CUDA enumerates only one, torch.cuda.device_count() "
        "is 1 and tensors sent to cuda:1 fail with 'invalid device ordinal'",
        SRC + "; the two MIG UUIDs are the ones pasted in the PR's comment (their GPU and "
        "compute instance ids are placeholders), as are the driver (515.86.01) and the GPUs' "
        "model (the comment shows neither)",
        {"url": "https://github.com/pytorch/pytorch/pull/92315",
         "pasted": "RuntimeError: CUDA error: invalid device ordinal",
         "cause": "with CUDA 11/R450 and CUDA 12/R525 a process enumerates a single MIG "
                  "device, however many CUDA_VISIBLE_DEVICES names (the maintainer quotes the "
                  "MIG user guide); cuda:0 works, cuda:1 does not",
         "root_cause": "runtime.mig-device-selection",
         "layer": "runtime",
         "fails": "no"},
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "CUDA_VISIBLE_DEVICES": ",".join(two)},
        sections, args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")

    # 2. pytorch/pytorch#95784: torch 1.13's NVML-based device count returns 0 for a MIG UUID
    #    (works on 1.12.1; fixed in 2.0 by PR #92315).
    uuid = "MIG-feee0c61-26ec-5616-bb59-b6d777cc4f34"
    dst, root, sections = a100_server("rw-mig-torch113-device-count-zero", [(uuid, 1, 0)])
    torch_venv(root, "/home/user/venv", "1.13.1+cu117", "11.7")
    ini_text(
        dst,
        "An A100 server (driver 515.86.01) whose GPU 0 is in MIG mode; CUDA_VISIBLE_DEVICES "
        "names one MIG device, as it should, but torch 1.13's device count does not parse MIG "
        "ids: torch.cuda.device_count() returns 0 while torch.rand(5).cuda() still works",
        SRC + "; the driver version (515.86.01), the GPU (A100) and the MIG UUID are the ones "
        "pasted; the torch release is a placeholder within what the thread establishes (1.13, "
        "after 1.12.1, which works), its venv a placeholder path (version.py and dist-info as "
        "pip installs the cu117 wheel; its libraries are not part of the report)",
        {"url": "https://github.com/pytorch/pytorch/issues/95784",
         "pasted": "torch.cuda.device_count() Out[7]: 0",
         "cause": "torch 1.13's NVML-based device count mis-parses MIG UUIDs in "
                  "CUDA_VISIBLE_DEVICES (pytorch#90543, fixed by PR #92315 in 2.0); "
                  "torch==1.12.1 counts 1 and tensors reach cuda:0 either way",
         "root_cause": "runtime.mig-device-selection",
         "layer": "runtime",
         "fails": "no"},
        {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
                 "/bin",
         "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user", "CUDA_VISIBLE_DEVICES": uuid},
        sections, args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")

    # 3. pytorch/pytorch#131650: torch 2.4 (conda, CUDA 12.4) on two A100 80GB PCIe in MIG mode,
    #    driver 550.54.15, CUDA_VISIBLE_DEVICES unset: "device >= 0 && device < num_gpus
    #    INTERNAL ASSERT FAILED"; the maintainer: set CUDA_VISIBLE_DEVICES to the MIG slice.
    mig0 = ("MIG-3b0f6c2e-1d4a-5e7f-9a8b-0c1d2e3f4a5b", 1, 0)
    mig1 = ("MIG-7c8d9e0f-2a3b-5c4d-8e9f-1a2b3c4d5e6f", 1, 0)
    dst, root, sections = a100_server("rw-mig-torch24-two-a100-cvd-unset", [mig0],
                                      driver="550.54.15", cuda=12040,
                                      model="NVIDIA A100 80GB PCIe", device="20b5",
                                      subsys="1533", power=300000)
    sections = keep_gpus(root, sections, 2)
    first = sections.index("[nvml.device.1]")
    end = sections.index("\n[", first + 1)
    dev1 = sections[first:end].replace("mig_mode = 0", "mig_mode = 1")
    dev1 += (f"\n[nvml.device.1.mig.0]\nuuid = {mig1[0]}\ngpu_instance_id = {mig1[1]}\n"
             f"compute_instance_id = {mig1[2]}\n")
    sections = sections[:first] + dev1 + sections[end:]
    sections = sections.replace("nvlink_links = 12", "nvlink_links = 0")
    sections = sections.replace("/dev/nvidia-caps/nvidia-cap30 = c 511:30 0444 0:0\n",
                                "/dev/nvidia-caps/nvidia-cap30 = c 511:30 0444 0:0\n"
                                "/dev/nvidia-caps/nvidia-cap165 = c 511:165 0444 0:0\n")
    conda = "/home/user/miniconda3"
    env = f"{conda}/envs/pt24"
    torch_venv(root, env, "2.4.0", "12.4")
    os.unlink(f"{root}/{env}/pyvenv.cfg")
    w(root, f"{env}/conda-meta/history",
      f"==> 2024-07-24 15:40:11 <==\n# cmd: {conda}/bin/conda install pytorch torchvision "
      "torchaudio pytorch-cuda=12.4 -c pytorch -c nvidia\n")
    w(root, f"{conda}/bin/conda", "#!/bin/sh\n")
    ini_text(
        dst,
        "A server with two A100 80GB PCIe, both in MIG mode (nvidia-smi: 'MIG M. Enabled'), "
        "driver 550.54.15; CUDA_VISIBLE_DEVICES is unset and torch 2.4 (conda, CUDA 12.4) "
        "fails on its first CUDA call with 'device >= 0 && device < num_gpus INTERNAL ASSERT "
        "FAILED': CUDA enumerates one MIG device, torch.cuda.device_count() counts the two "
        "GPUs through NVML",
        SRC.replace("A100-SXM4-80GB as pci.ids and nvidia-smi name them (10de:20b2, ",
                    "A100 80GB PCIe as pci.ids and nvidia-smi name them (10de:20b5, ")
        .replace("the 515.86.01 module's version", "the 550.54.15 module's version")
        + "; the report's nvidia-smi (NVIDIA-SMI 550.54.15, CUDA Version 12.4, two 'NVIDIA "
        "A100 80GB PCIe' with MIG M. Enabled, 300W caps, 81920MiB) and the conda build of "
        "torch 2.4 (pytorch_1720538439675, CUDA 12.4); the base's eight GPUs cut to its first "
        "two (the report's buses 31:00.0 and 4B:00.0 are the base's 18:00.0 and 2a:00.0, its "
        "switches kept), one MIG device on each GPU and their UUIDs are placeholders (the "
        "report does not list its MIG devices), as are the conda prefix and env name; torch "
        "is version.py and dist-info only (its libraries are not what fails)",
        {"url": "https://github.com/pytorch/pytorch/issues/131650",
         "pasted": "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
                   "\"/opt/conda/conda-bld/pytorch_1720538439675/work/aten/src/ATen/cuda/"
                   "CUDAContext.cpp\":49, please report a bug to PyTorch.",
         "cause": "MIG is enabled and CUDA_VISIBLE_DEVICES is unset: a CUDA process enumerates a "
                  "single MIG device while torch counts both GPUs; the maintainer: set "
                  "CUDA_VISIBLE_DEVICES to the MIG slice (as in pytorch#130181), which the "
                  "reporter confirmed makes sense",
         "root_cause": "runtime.mig-device-selection",
         "layer": "runtime",
         "fails": "yes"},
        {"PATH": f"{env}/bin:{conda}/condabin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_EXE": f"{conda}/bin/conda", "HOME": "/home/user"},
        sections, args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")

    # 4. pytorch/pytorch#102715: torch 1.13.1 on an A100 split into MIG devices,
    #    CUDA_VISIBLE_DEVICES unset: torch.cuda.device_count() is 1; the maintainer: expected,
    #    a process can access only a single MIG instance (a CUDA limitation).
    migs = [("MIG-5c1b2a3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d", 1, 0),
            ("MIG-6d2c3b4e-5f6a-5b7c-9d8e-0f1a2b3c4d5e", 2, 0)]
    dst, root, sections = a100_server("rw-mig-torch113-one-of-two-instances", migs)
    sections = keep_gpus(root, sections, 1)
    torch_venv(root, "/home/user/venv", "1.13.1+cu117", "11.7")
    ini_text(
        dst,
        "An A100-SXM4-80GB in MIG mode split into two MIG devices, driver 515.86.01; "
        "CUDA_VISIBLE_DEVICES is unset and torch 1.13.1 reports torch.cuda.device_count() == 1: "
        "a CUDA process enumerates one MIG device, whatever the GPU holds",
        SRC + "; the report's torch 1.13.1 and 'an a100 machine' in MIG mode (its nvidia-smi "
        "is a screenshot); placeholders, not in the report: one GPU (the base's first), two "
        "MIG devices (the report expects more than one device), their UUIDs and instance ids, "
        "the driver, the venv (version.py and dist-info of the cu117 wheel)",
        {"url": "https://github.com/pytorch/pytorch/issues/102715",
         "pasted": "torch.cuda.device_count() shows only one gpu",
         "cause": "expected: a process can access only a single MIG instance, a CUDA limitation "
                  "unrelated to PyTorch (the maintainer, citing the MIG user guide)",
         "root_cause": "runtime.mig-device-selection",
         "layer": "runtime",
         "fails": "no"},
        {"PATH": "/home/user/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
                 "/bin", "VIRTUAL_ENV": "/home/user/venv", "HOME": "/home/user"},
        sections, args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
