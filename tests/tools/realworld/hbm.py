# SPDX-License-Identifier: GPL-2.0-or-later
"""A GPU whose HBM is failing, as NVML (the fake libnvidia-ml) answers for it: uncorrectable
ECC errors since the driver loaded, rows remapped for them and one more pending, the serving
engine on that GPU hanging. Written by tests/tools/mk-real-world-fixtures.py hbm."""
from realworld.common import fresh, ini, real_world, w

TOPIC = "hbm"
FIXTURES = ("rw-a100x4-hbm-dbe-remap-vllm-backport-62",)
URL = "https://github.com/wtdcode/vllm-backport/issues/62"
DRIVER = "580.178.04"
# The failing board is the report's GPU2 at PCI 0000:9c:00; the others' buses are placeholders.
BUSES = ("1b", "4f", "9c", "ce")


def a100_80gb_pcie(i, bus, health):
    """An [nvml.device.N] section of an A100 80GB PCIe (GA100, 10de:20b5, 80 GiB HBM2e, PCIe
    Gen4 x16, compute capability 8.0, 300 W), ECC on, idle, with `health` lines."""
    return (f"[nvml.device.{i}]\nname = NVIDIA A100 80GB PCIe\n"
            f"uuid = GPU-5e1c0d2a-{i}f3b-4c8e-9a71-0b6d2e4f81{i}c\nminor_number = {i}\n"
            f"pci_bus_id = 00000000:{bus.upper()}:00.0\npci_device_id = 0x20B510DE\n"
            "memory_total = 85899345920\nmemory_reserved = 566231040\nmemory_used = 0\n"
            "compute_capability = 8.0\narchitecture = 7\npersistence_mode = 1\nmig_mode = 0\n"
            "ecc_mode = 1\n" + health + "temperature = 34\npower_usage = 45000\n"
            "power_limit = 300000\nutilization_gpu = 0\nutilization_memory = 0\n"
            "pcie_link_gen = 4\npcie_link_gen_max = 4\npcie_link_width = 16\n"
            "pcie_link_width_max = 16\n")


def a100_hbm_failing():
    """wtdcode/vllm-backport#62: 4 x A100-80GB PCIe on driver 580.178.04; the engine hung
    twice; the reporter traced it to GPU2's HBM: repeated Xid 48 (DBE), Xid 63 (row marked for
    remapping, reset to activate), Xid 94 and 154 all on PCI 0000:9c:00, remapped rows 11 then
    12, and a new row failing about two minutes after a full reboot: "failing HBM on GPU2
    (hardware)", reproduced with other engines."""
    dst, root = fresh(FIXTURES[0])
    w(root, "proc/sys/kernel/osrelease", "6.8.0-79-generic\n")
    w(root, "sys/module/nvidia/version", DRIVER + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "sys/module/nvidia_uvm/initstate", "live\n")
    healthy = "ecc_uncorrected_volatile = 0\nremapped_rows = 0 0 0 0\n"
    failing = "ecc_uncorrected_volatile = 1\nremapped_rows = 0 12 1 0\n"
    nvml = (f"[nvml]\ndriver_version = {DRIVER}\nnvml_version = 13.{DRIVER}\n"
            "cuda_driver_version = 13000\n\n" +
            "\n".join(a100_80gb_pcie(i, bus, failing if i == 2 else healthy)
                      for i, bus in enumerate(BUSES)))
    devices = ("[devices]\n" + "".join(f"/dev/nvidia{i} = c 195:{i} 0666 0:0\n" for i in range(4))
               + "/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia-uvm = c 510:0 0666 0:0\n"
               "/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")
    ini(dst, TOPIC,
        "Four A100 80GB PCIe on driver 580.178.04 whose GPU 2 (0000:9C:00.0) has failing "
        "HBM: an uncorrectable ECC error since the driver loaded, 12 rows remapped for "
        "uncorrectable errors and a new remapping pending; the inference engine on it hangs",
        f"Rebuilt from {URL} (pasted by the reporter, happylo: 4x A100-80GB PCIe, driver "
        f"{DRIVER}, the Xid events all on PCI 0000:9c:00 (GPU2): Xid 48/171 uncorrectable "
        "DBE in HBM, Xid 63 'reset gpu to activate', Xid 94 and 154, always FBPA 9 "
        "subpartition 1; `nvidia-smi -q -i 2` Remapped Rows grown from 11 to 12; a new row "
        "failing about two minutes after a full host reboot; the cause the reporter "
        "established: 'failing HBM on GPU2 (hardware)', the hang reproduced with other "
        "engines); NVML (the fake library) answers GPU 2's remapped rows as 0 correctable, "
        "12 uncorrectable, pending, no failure (the pending row is the one that failed after "
        "the reboot: its Xid 63 asks for a reset), and 1 uncorrectable ECC error since the "
        "driver loaded (the least the Xid 48 after the reboot means; the report gives no "
        "count); placeholders, not in the report: the kernel release, the other three boards' "
        "buses, the UUIDs, temperatures, power draw, persistence mode, CUDA 13.0 as the "
        "driver's CUDA version (580 reports 13.0), the device nodes as the driver makes them "
        "(nvidia-uvm's dynamic major); A100 80GB PCIe values from its product page (80 GB "
        "HBM2e, 300 W, PCIe Gen4 x16, compute capability 8.0; pci.ids 10de:20b5)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL, "Xid 48 / 171: uncorrectable double-bit ECC (DBE) in HBM framebuffer / Xid 63: "
            "Row Remapper marks a new row for remapping (\"reset gpu to activate\") / "
            "Remapped Rows grew from 11 to 12",
            "GPU 2's HBM is failing: uncorrectable ECC errors keep coming, rows are remapped "
            "for them and a new row fails again after a reboot (hardware; the board must be "
            "replaced)",
            "hardware.ecc-uncorrectable", "hardware", "yes"),
        nvml, devices, args="--nvml-lib @FAKES@/libnvidia-ml.so.1")


def write():
    a100_hbm_failing()
