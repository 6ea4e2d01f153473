# SPDX-License-Identifier: GPL-2.0-or-later
"""GPUs whose PCIe links trained narrower than the cards can run (hardware.pcie-link-degraded):
a consumer board's slots wired x4 and x8 under two x16 cards. The machine is the
rtx4090-open-module fixture's tree (see its sources) with the report's GPUs, driver, kernel,
CPU and distribution. Written by tests/tools/mk-real-world-fixtures.py pcie_lanes."""
import os
import re
import shutil

from realworld.common import (SRC_BASE, base_root, ini, link, mk2, move_kernel, real_world,
                              ubuntu_os_release, w)

TOPIC = "pcie_lanes"
FIXTURES = ("rw-2x-rtx3090-x4-x8-slots-ryzen5700x",)

URL = "https://github.com/noonghunna/club-3090/issues/142"
DRIVER = "595.58.03"
KERNEL = "7.0.0-15-generic"
PORT = "sys/devices/pci0000:00/0000:00:01.1"


def set_link(root, dev, speed, width, max_speed, max_width):
    for k, v in (("current_link_speed", speed), ("current_link_width", width),
                 ("max_link_speed", max_speed), ("max_link_width", max_width)):
        w(root, f"{dev}/{k}", f"{v}\n")


def rtx3090_x4_x8():
    """noonghunna/club-3090#142: two RTX 3090 on a Ryzen 7 5700X board, one trained at
    x4, the other at x8, both x16 cards; the maintainer puts the 15 % lower throughput
    against the same stack on x16 slots down to those lanes."""
    name = FIXTURES[0]
    # 10de:2204 GA102 [GeForce RTX 3090], its HDMI audio function 10de:1aef (pci.ids)
    dst, root = base_root(name, 0x2204, 0x147d, "NVIDIA GeForce RTX 3090", DRIVER,
                          flavor="open", audio=0x1aef)
    # GPU 0 at 0000:24:00.0 (the report's bus) behind the root port of the x4 slot; GPU 1
    # behind a second root port (its bus is not in the report's excerpt: chosen)
    port0, port1 = "sys/devices/pci0000:00/0000:00:01.2", "sys/devices/pci0000:00/0000:00:03.1"
    shutil.copytree(f"{root}/{PORT}", f"{root}/{port1}", symlinks=True)
    shutil.move(f"{root}/{PORT}", f"{root}/{port0}")
    os.unlink(f"{root}/sys/bus/pci/devices/0000:00:01.1")
    link(root, "sys/bus/pci/devices/0000:00:01.2", "../../../devices/pci0000:00/0000:00:01.2")
    link(root, "sys/bus/pci/devices/0000:00:03.1", "../../../devices/pci0000:00/0000:00:03.1")
    for fn in ("0", "1"):
        shutil.move(f"{root}/{port0}/0000:01:00.{fn}", f"{root}/{port0}/0000:24:00.{fn}")
        shutil.move(f"{root}/{port1}/0000:01:00.{fn}", f"{root}/{port1}/0000:2d:00.{fn}")
        os.unlink(f"{root}/sys/bus/pci/devices/0000:01:00.{fn}")
        link(root, f"sys/bus/pci/devices/0000:24:00.{fn}",
             f"../../../devices/pci0000:00/0000:00:01.2/0000:24:00.{fn}")
        link(root, f"sys/bus/pci/devices/0000:2d:00.{fn}",
             f"../../../devices/pci0000:00/0000:00:03.1/0000:2d:00.{fn}")
    # Gen4 ports and cards (the report's "Gen up to 4"); the GPUs' own LnkCap is x16 (the
    # report's "GPU max x16"), the slots' x4 and x8
    # Zen 3's GPP bridges are 1022:1483 (pci.ids: Starship/Matisse GPP Bridge)
    for port in (port0, port1):
        w(root, f"{port}/device", "0x1483\n")
    set_link(root, port0, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4)
    set_link(root, f"{port0}/0000:24:00.0", "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 16)
    set_link(root, f"{port0}/0000:24:00.1", "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 16)
    set_link(root, port1, "16.0 GT/s PCIe", 8, "16.0 GT/s PCIe", 8)
    set_link(root, f"{port1}/0000:2d:00.0", "16.0 GT/s PCIe", 8, "16.0 GT/s PCIe", 16)
    set_link(root, f"{port1}/0000:2d:00.1", "16.0 GT/s PCIe", 8, "16.0 GT/s PCIe", 16)
    # GA102's BARs with Resizable BAR on (a Ryzen 5000 board's default): BAR0 16 MiB
    # registers, BAR1 32 GiB (the next power of two above the 24 GiB), BAR3 32 MiB; the
    # addresses are placeholders, one window per GPU
    for dev, bar0, bar1 in ((f"{port0}/0000:24:00.0", 0xf5, 0x78),
                            (f"{port1}/0000:2d:00.0", 0xf3, 0x68)):
        lines = open(f"{root}/{dev}/resource").read().splitlines()
        lines[0] = f"0x00000000{bar0:02x}000000 0x00000000{bar0:02x}ffffff 0x0000000000040200"
        lines[1] = f"0x000000{bar1:02x}00000000 0x000000{bar1 + 7:02x}ffffffff 0x000000000014220c"
        lines[3] = (f"0x000000{bar1 - 8:02x}00000000 0x000000{bar1 - 8:02x}01ffffff "
                    "0x000000000014220c")
        w(root, f"{dev}/resource", "\n".join(lines) + "\n")
    # the report's VBIOS versions, one per card
    gpus = f"{root}/proc/driver/nvidia/gpus"
    info = open(f"{gpus}/0000:01:00.0/information").read()
    shutil.rmtree(f"{gpus}/0000:01:00.0")
    for bus, minor, uuid, vbios in (
            ("0000:24:00.0", 0, "GPU-5b1c7e20-8d3a-4f61-a2e9-0c47d18b9e35", "94.02.59.00.DD"),
            ("0000:2d:00.0", 1, "GPU-e3a90d4c-27f1-4b88-9d05-6f2c81a4b7d0", "94.02.42.00.2F")):
        text = re.sub(r"GPU UUID: \t .*", f"GPU UUID: \t {uuid}", info)
        text = re.sub(r"Video BIOS: \t .*", f"Video BIOS: \t {vbios}", text)
        text = re.sub(r"Bus Location: \t .*", f"Bus Location: \t {bus}", text)
        text = re.sub(r"Device Minor: \t .*", f"Device Minor: \t {minor}", text)
        w(root, f"proc/driver/nvidia/gpus/{bus}/information", text)
    move_kernel(root, "6.8.0-45-generic", KERNEL)
    w(root, "etc/os-release", ubuntu_os_release("26.04", "Resolute Raccoon", "resolute"))
    # /proc/cpuinfo of the report's Ryzen 7 5700X (Zen 3, family 25 model 33: 8 cores, 16
    # threads, no AVX-512)
    cpu = open(f"{root}/proc/cpuinfo").read()
    cpu = cpu.replace("AMD Ryzen 9 7950X 16-Core Processor", "AMD Ryzen 7 5700X 8-Core Processor")
    cpu = re.sub(r"model\t\t: 97", "model\t\t: 33", cpu)
    cpu = re.sub(r"siblings\t: 32", "siblings\t: 16", cpu)
    cpu = re.sub(r"cpu cores\t: 16", "cpu cores\t: 8", cpu)
    cpu = re.sub(r" (avx512\w*|la57)", "", cpu)
    # all 16 threads the report counts (the base lists its first four): Linux numbers the
    # first thread of each core first, then the second ones
    first = cpu.split("\n\n")[0]
    blocks = []
    for i in range(16):
        b = re.sub(r"^processor\t: \d+", f"processor\t: {i}", first, flags=re.M)
        b = re.sub(r"^core id\t\t: \d+", f"core id\t\t: {i % 8}", b, flags=re.M)
        apic = (i % 8) * 2 + i // 8
        b = re.sub(r"^apicid\t\t: \d+", f"apicid\t\t: {apic}", b, flags=re.M)
        b = re.sub(r"^initial apicid\t: \d+", f"initial apicid\t: {apic}", b, flags=re.M)
        blocks.append(b)
    w(root, "proc/cpuinfo", "\n\n".join(blocks) + "\n\n")
    mem = open(f"{root}/proc/meminfo").read()
    mem = re.sub(r"MemTotal: +\d+ kB", "MemTotal:         96468992 kB", mem)
    mem = re.sub(r"MemFree: +\d+ kB", "MemFree:          80740352 kB", mem)
    mem = re.sub(r"MemAvailable: +\d+ kB", "MemAvailable:     82837504 kB", mem)
    w(root, "proc/meminfo", mem)
    log = open(f"{root}/var/log/kern.log").read().replace("550.120", DRIVER)
    log = log.replace("0000:01:00.0", "0000:24:00.0").replace("0x00000100", "0x00002400")
    w(root, "var/log/kern.log", log)
    base_ini = mk2.base_ini()
    devices = base_ini[:base_ini.index("\n[modules]")].replace(
        "/dev/nvidia0 = c 195:0 0666 0:0\n",
        "/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidia1 = c 195:1 0666 0:0\n").replace(
        "/dev/dri/renderD128 = c 226:128 0660 0:992\n",
        "/dev/dri/renderD128 = c 226:128 0660 0:992\n/dev/dri/card2 = c 226:2 0660 0:44\n"
        "/dev/dri/renderD129 = c 226:129 0660 0:992\n") + "\n"
    pasted = ("PCIe: x4 lanes negotiated (GPU max x16, Gen up to 4) | bus 00000000:24:00.0 "
              "⚠ slot is narrower than GPU capability")
    ini(dst, TOPIC,
        "A Ryzen 7 5700X workstation on Ubuntu 26.04 with two GeForce RTX 3090 on the 595.58.03 "
        "driver: both cards are x16, but GPU 0 (0000:24:00.0) trained at x4 and GPU 1 at x8, "
        "the widths the board's slots are wired for; no error, inference runs about 15 % "
        "slower than the same stack on x16 slots",
        "Rebuilt from " + URL + " (pasted, the club-3090 rig report: 'Ubuntu 26.04 LTS', "
        f"'Kernel: {KERNEL}', 'bare metal', 'AMD Ryzen 7 5700X 8-Core Processor (16 threads)', "
        "'RAM: 92Gi total, 79Gi available', 'GPU 0: NVIDIA GeForce RTX 3090 | 24576 MiB | "
        "driver 595.58.03 | VBIOS 94.02.59.00.DD | persistence=Enabled', 'PCIe: x4 lanes "
        "negotiated (GPU max x16, Gen up to 4) | bus 00000000:24:00.0 ⚠ slot is narrower than "
        "GPU capability', GPU 1 'VBIOS 94.02.42.00.2F', the title's 'PCIe Gen 4 x8'; the "
        "maintainer's reading 'Gen 4 x4 to one card, x8 to the other' and the −15 % against "
        "the same compose on Gen 4 x16 (#77)); not in the report and chosen here: GPU 1's bus "
        "(0000:2d:00.0) and the root ports above the two GPUs (the chipset's bridges between "
        "the x4 slot and the CPU are left out), the current link speeds (16.0 GT/s, the "
        "report's Gen 4; the rule judges the width), the cards' subsystem id (10de:147d), "
        "UUIDs, BARs (Resizable BAR on: BAR1 32 GiB), the module's path (the .run "
        "installer's) and build line, MemTotal/MemFree "
        "within the report's rounded 92Gi/79Gi, /proc/cpuinfo's lines other than the "
        "5700X's model, family/model numbers and 16 threads of 8 cores (the base's, less "
        "AVX-512); the rest is the "
        "base's tree with the kernel and Ubuntu 26.04's os-release; " + SRC_BASE +
        " (here the open module's, the base's own: NVRM version: NVIDIA UNIX Open Kernel "
        "Module for x86_64 <version> …)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL, pasted,
            "the board's slots give the two x16 cards only 4 and 8 PCIe lanes: host-device "
            "transfers and the all-reduce between the cards run slower (about 15 % fewer "
            "tokens per second than on x16 slots, the maintainer's comparison)",
            "hardware.pcie-link-degraded", "hardware", "no"),
        devices,
        f"[modules]\n/lib/modules/{KERNEL}/kernel/drivers/video/nvidia.ko = {DRIVER}, -, none, "
        "Dual MIT/GPL\n")


def write():
    rtx3090_x4_x8()
