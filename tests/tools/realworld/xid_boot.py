# SPDX-License-Identifier: GPL-2.0-or-later
"""A GPU that fell off the bus, judged from the kernel log alone (NVML's answer not read):
pop-os/pop#3363's Pop!_OS 22.04 desktop, whose kern.log has pciehp's "Link Down" and Xid 79
in the running boot (hardware.gpu-lost), and its negative twin, the same machine whose Xid 79
is of the boot before (a later "Linux version" line): history, the GPU not judged lost."""
from realworld.common import SRC_BASE, ini, real_world, section, w
from realworld.upgrades import host, pop_os_release

TOPIC = "xid_boot"
FIXTURES = ("rw-popos2204-gpu-fell-off-bus-pciehp-link-down",
            "xid-79-earlier-boot-gpu-back")
BASE = "rtx4090-open-module"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
URL = "https://github.com/pop-os/pop/issues/3363"
REL = "6.9.3-76060903-generic"
DRIVER = "560.35.03"
# uname -a as pasted in the report (its build date cut short there: the banner's is a
# placeholder), as the kernel's first message of each boot (init/version.c linux_banner).
BANNER = (f"Linux version {REL} (jenkins@warp.pop-os.org) (x86_64-linux-gnu-gcc-12 (Ubuntu "
          "12.3.0-1ubuntu1~22.04) 12.3.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #202405300957~"
          "1726766035~22.04~4092a0e SMP PREEMPT_DYNAMIC Thu Sep 19 17:41:08 UTC 2024")
LOADED = (f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Release Build  "
          "(dvs-builder@U16-I3-B03-4-3)  Thu Aug 14 00:00:00 UTC 2025")
# The kernel's lines of the fall, verbatim from the report's syslog (kern.log keeps the
# kernel's facility only: the gdm-x-session lines around them are syslog's).
FALL = ("pcieport 0000:00:01.1: pciehp: Slot(0): Link Down",
        "pcieport 0000:00:01.1: pciehp: Slot(0): Card not present",
        "NVRM: GPU at PCI:0000:01:00: GPU-f8600eb8-f1df-acfb-fad9-d24be732714f",
        "NVRM: Xid (PCI:0000:01:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off "
        "the bus.",
        "NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.")
FALL_TIMES = ("34.193735", "34.193743", "34.193750", "34.193759", "34.193770")


def boot(date, lines):
    """One boot's kernel lines as rsyslog writes them to kern.log: (uptime, message) pairs."""
    return "".join(f"{date} xxx kernel: [{up:>12}] {msg}\n" for up, msg in lines)


def machine(name):
    """The report's desktop: Pop!_OS 22.04 on its 6.9.3 kernel, the GPU at 0000:01:00.0
    behind root port 0000:00:01.1 (the base tree's place, the report's too)."""
    dst, root = host(name, 0x2684, "NVIDIA GeForce RTX 4090", DRIVER, REL,
                     pop_os_release("22.04 LTS", "jammy", "Jammy"), "xxx", "Sep 23 18:36:36",
                     "gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)")
    return dst, root


PLACEHOLDERS = ("placeholders, not in the report: the GPU (10de:2684, RTX 4090, and the rest "
                "of the base fixture's PCI tree; the report names no model), the driver "
                f"{DRIVER} (the report names none), the "
                "kernel banner's compiler and build date, the module's load line and the "
                "times of the lines that are not the report's")


def fell_off():
    """pop-os/pop#3363 (DekosAnjo's log): 34 s into the boot pciehp sees the link of the GPU's
    slot go down, the card not present, and the driver logs Xid 79; the desktop hangs."""
    name = FIXTURES[0]
    dst, root = machine(name)
    log = boot("Sep 23 18:36:29", [("0.000000", BANNER)]) + \
        boot("Sep 23 18:36:34", [("4.978519", LOADED)]) + \
        boot("Sep 23 18:37:03", list(zip(FALL_TIMES, FALL)))
    w(root, "var/log/kern.log", log)
    pasted = " / ".join(FALL)
    ini(dst, TOPIC,
        "A Pop!_OS 22.04 desktop on kernel 6.9.3-76060903-generic whose NVIDIA GPU fell off "
        "the bus 34 s into the boot: pciehp reports the slot's link down and the card not "
        "present, then the driver logs Xid 79; the desktop stops (gdm's X server: 'Push "
        "buffer DMA allocation failed'); nvidia-smi's answer is not in the report",
        f"Rebuilt from {URL} (pasted by DekosAnjo: uname -a with {REL} and its Pop!_OS 22.04 "
        "build, the syslog lines of the fall with their uptimes, pciehp's Link Down and Card "
        "not present on 0000:00:01.1, the GPU's UUID and bus 0000:01:00, the Xid 79 line; "
        "the thread, open, puts the fall on the GPU's power and its PCIe slot: a PSU short "
        "of its rating (Vetpetmon), pciehp taking a power swing for a surprise removal, "
        "fixed by unbinding pciehp from the GPU's port (lennonokun)); the boot's first line "
        "(the kernel banner, made from the uname -a) is there so the log shows where the "
        "running boot starts; " + PLACEHOLDERS + "; " + SRC_BASE, PATH,
        real_world(
            URL, pasted,
            "the GPU left the PCIe bus (pciehp: Link Down, Card not present; the driver's "
            "Xid 79) in the running boot: nothing can use it until the machine is "
            "power-cycled; the thread puts the cause on power delivery and the slot",
            "hardware.gpu-lost", "hardware", "yes"),
        section(BASE, "devices"))


def earlier_boot():
    """The negative twin: the same fall, then a reboot; the running boot loaded the driver and
    logged no Xid. An Xid 79 of an earlier boot says nothing of the GPU now."""
    name = FIXTURES[1]
    dst, root = machine(name)
    log = boot("Sep 23 18:36:29", [("0.000000", BANNER)]) + \
        boot("Sep 23 18:36:34", [("4.978519", LOADED)]) + \
        boot("Sep 23 18:37:03", list(zip(FALL_TIMES, FALL))) + \
        boot("Sep 23 18:41:12", [("0.000000", BANNER)]) + \
        boot("Sep 23 18:41:17", [("4.981377", LOADED)])
    w(root, "var/log/kern.log", log)
    ini(dst, TOPIC,
        "The machine of pop-os/pop#3363 after a power cycle: its kern.log has the fall of the "
        "boot before (pciehp's Link Down, Xid 79), then a new boot whose driver loaded and "
        "logged no Xid; the GPU is back (bound to nvidia, in /proc/driver/nvidia/gpus). The "
        "Xid 79 is history: not a GPU lost now",
        f"Constructed: the negative twin of rw-popos2204-gpu-fell-off-bus-pciehp-link-down "
        f"(its kernel lines of the fall from {URL}), with a second boot after them (the "
        "kernel banner and the module's load line again, at placeholder times); "
        + PLACEHOLDERS + "; " + SRC_BASE, PATH, "",
        section(BASE, "devices"))


def write():
    fell_off()
    earlier_boot()
