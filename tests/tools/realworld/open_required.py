# SPDX-License-Identifier: GPL-2.0-or-later
"""A Blackwell GPU under the proprietary kernel module: nvidia.ko loads, refuses the GPU ("requires
use of the NVIDIA open kernel modules") and nvidia-smi finds no devices; the open kernel module
of the same branch drives it."""
import os

from realworld.common import read, real_world, ini, ubuntu_os_release, w
from realworld.open_module import BASE_REL, PATH, base_devices, base_root

TOPIC = "open_required"
FIXTURES = ("rw-rtx5090m-proprietary580-autonomy-kilted",
            "rw-rtx5090m-open580-autonomy-kilted")

URL = ("https://github.com/QuangMDoan/autonomy/blob/6d2174ea000757464992fc78293adcf2735c0f03/"
       "ros2_setup/kilted_setup.md")
DRV = "580.105.08"
BUS = "0000:01:00.0"
# The report's refusal, as its `sudo dmesg | grep -i nvrm` shows it (one printk: the second
# line carries no time stamp of its own), for the base tree's bus.
REFUSAL = ("[{t}] NVRM: The NVIDIA GPU {bus} (PCI ID: 10de:2c58)\n"
           "               NVRM: installed in this system requires use of the NVIDIA open "
           "kernel modules.\n"
           "[{t2}] NVRM: GPU {bus}: RmInitAdapter failed! (0x22:0x56:884)\n"
           "[{t3}] NVRM: GPU {bus}: rm_init_adapter failed, device minor number 0\n")
# the first three of the report's refusals, their time stamps verbatim
STAMPS = (("    5.559842", "    5.559858", "    5.560313"),
          ("    8.481576", "    8.481591", "    8.482116"),
          ("    8.545192", "    8.545210", "    8.545825"))
# the report's lsmod, its nvidia lines (size, use count, users)
LSMOD = ("nvidia_uvm 2076672 0 - Live 0x0000000000000000 (OE)\n"
         "nvidia_drm 135168 0 - Live 0x0000000000000000 (OE)\n"
         "nvidia_modeset 1638400 1 nvidia_drm, Live 0x0000000000000000 (OE)\n"
         "nvidia 104091648 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (OE)\n")
OS_RELEASE = ubuntu_os_release("24.04.3", "Noble Numbat", "noble")
MODEL = "NVIDIA GeForce RTX 5090 Laptop GPU"
CHOSEN = ("not in the report and chosen here: the bus (the base tree's 01:00.0 for the "
          "report's 02:00.0, in the log too), the kernel release and the module's DKMS path "
          f"(updates/dkms, zstd, unsigned) for the base tree's {BASE_REL}, the build line of "
          "/proc/driver/nvidia/version (the writer's placeholder for a proprietary driver), "
          "the Model of /proc/driver/nvidia/gpus/<bus>/information (NVIDIA's name for "
          "10de:2c58; the report shows the directory only), the laptop's Intel GPU left out; "
          "the rest of the tree from the rtx4090-open-module fixture (see its sources; the "
          "BARs and PCIe links are that tree's, the report shows none)")


def modules(root):
    """/proc/modules with the report's nvidia lines for the base tree's."""
    kept = [ln for ln in read(root, "proc/modules").splitlines(keepends=True)
            if not ln.startswith("nvidia")]
    w(root, "proc/modules", LSMOD + "".join(kept))


def refusals(count=3):
    return "".join(REFUSAL.format(t=a, t2=b, t3=c, bus=BUS) for a, b, c in STAMPS[:count])


def rtx5090m_proprietary():
    """The report: ubuntu-drivers' non-open nvidia-driver-580 (and nvidia-dkms-580) on a Dell
    laptop's RTX 5090 Laptop GPU; the proprietary module loads and refuses the GPU."""
    name = FIXTURES[0]
    dst, root = base_root(name, 0x2c58, 0x0000, MODEL, DRV)
    w(root, "etc/os-release", OS_RELEASE)
    modules(root)
    w(root, "var/log/kern.log",
      f"[    5.499014] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRV}  Wed Oct 29 "
      "23:15:11 UTC 2025\n" + refusals())
    ini(dst, TOPIC,
        "An Ubuntu 24.04.3 Dell laptop with an RTX 5090 Laptop GPU (10de:2c58, GB203M, "
        f"Blackwell) on Ubuntu's nvidia-driver-{DRV.split('.')[0]} (the proprietary kernel "
        f"module, DKMS): nvidia.ko {DRV} loads, refuses the GPU ('requires use of the "
        "NVIDIA open kernel modules', RmInitAdapter failed) and nvidia-smi finds no devices",
        f"Rebuilt from {URL} (pasted: 'mokutil --sb-state: SecureBoot disabled', 'lsmod | "
        "grep nvidia' (its nvidia lines kept in /proc/modules), 'nvidia-smi: No devices "
        "were found', 'lspci -nn': the GPU 02:00.0 [10de:2c58] (rev a1) beside an Intel "
        "Arrow Lake-U GPU, 'sudo dmesg | grep -i nvrm': the proprietary module's loading "
        f"line of {DRV} and its refusals, the first three kept verbatim in "
        "/var/log/kern.log; the fix that made nvidia-smi list the GPU: sudo apt purge "
        f"nvidia-driver-580 nvidia-dkms-580, sudo apt install nvidia-driver-580-open); "
        + CHOSEN,
        PATH,
        real_world(
            URL,
            "$ nvidia-smi No devices were found / NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: "
            "10de:2c58) NVRM: installed in this system requires use of the NVIDIA open "
            "kernel modules. NVRM: GPU 0000:02:00.0: RmInitAdapter failed! (0x22:0x56:884)",
            "the Blackwell GPU is initialised by the open kernel module only; Ubuntu's "
            "non-open nvidia-driver-580 loads the proprietary one, which refuses it; fixed "
            "by installing nvidia-driver-580-open",
            "driver.proprietary-module-refuses-gpu", "driver", "yes"),
        base_devices(),
        f"[modules]\n/lib/modules/{BASE_REL}/updates/dkms/nvidia.ko.zst = {DRV}, -, zstd, "
        "NVIDIA\n")


def rtx5090m_open():
    """The negative: the same laptop after the fix, nvidia-driver-580-open's module loaded;
    the proprietary module's refusals of the boot before are still in the log."""
    name = FIXTURES[1]
    dst, root = base_root(name, 0x2c58, 0x0000, MODEL, DRV, flavor="open")
    w(root, "etc/os-release", OS_RELEASE)
    modules(root)
    w(root, "var/log/kern.log",
      f"[    5.499014] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRV}  Wed Oct 29 "
      "23:15:11 UTC 2025\n" + refusals(1) +
      f"[    0.000000] Linux version {BASE_REL}\n"
      f"[    5.412007] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  {DRV}  "
      "Release Build  (dvs-builder@U22-I3-AF03-09-1)  Wed Oct 29 23:02:12 UTC 2025\n")
    ini(dst, TOPIC,
        f"The laptop of {URL} after the fix it gives: nvidia-driver-580-open installed, the "
        f"open kernel module of {DRV} loaded and driving the RTX 5090 Laptop GPU; the "
        "proprietary module's refusal of the boot before is still in the log and is history",
        f"The negative of {FIXTURES[0]}: its loading line and first refusal, then a boot "
        "start (the kernel's 'Linux version' line, cut after the release) and the open "
        "module's loading line (its build host and date placeholders), "
        "/proc/driver/nvidia/version the base tree's open-module "
        f"line with {DRV}; " + CHOSEN,
        PATH, "", base_devices(),
        f"[modules]\n/lib/modules/{BASE_REL}/updates/dkms/nvidia.ko.zst = {DRV}, -, zstd, "
        "Dual MIT/GPL\n")


def write():
    rtx5090m_proprietary()
    rtx5090m_open()
    assert os.path.isdir(f"tests/fixtures/{FIXTURES[0]}")
