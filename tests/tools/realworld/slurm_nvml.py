# SPDX-License-Identifier: GPL-2.0-or-later
"""Slurm GPU nodes whose gres.conf asks for AutoDetect=nvml on a Slurm built without NVML
(runtime.slurm-nvml-autodetect-unbuilt): the plugin directory holds gres_gpu.so and
gpu_generic.so, which every build has, but no gpu_nvml.so, which only a build that found NVML
has; and the negative, the same OpenHPC node with the package that has it. The plugin files
are [elf] shared objects (their contents are not what fails). Written by
tests/tools/mk-real-world-fixtures.py slurm_nvml."""
import os
import re
import shutil

from realworld.common import SRC_BASE, base_root, ini, move_kernel, real_world, section, so, w
from realworld.mig import a100_server, keep_gpus
from realworld.mismatch import ROCKY88_OS_RELEASE

TOPIC = "slurm_nvml"
FIXTURES = ("rw-slurm-a100-autodetect-nvml-unbuilt-deepops-1214",
            "rw-slurm-ohpc-autodetect-nvml-unbuilt-ohpc-1910",
            "rw-slurm-ohpc-nvml-plugin-present-ohpc-1910")

MSG = ("We were configured to autodetect nvml functionality, but we weren't able to find that "
       "lib when Slurm was configured.")

UBUNTU1804_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="18.04.6 LTS (Bionic Beaver)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 18.04.6 LTS"\nVERSION_ID="18.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'SUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'VERSION_CODENAME=bionic\nUBUNTU_CODENAME=bionic\n')


def plugins(root, d, names):
    for n in names:
        so(root, f"{d}/{n}", n)


def only_sections(text, keep):
    """The sections of a scenario.ini text whose names are in keep."""
    out, on = [], False
    for line in text.split("\n"):
        if line.startswith("["):
            on = line.strip("[]") in keep
        if on:
            out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


def deepops_1214():
    url = "https://github.com/NVIDIA/deepops/issues/1214"
    name = FIXTURES[0]
    drv = "515.65.01"
    dst, root, sections = a100_server(name, [], driver=drv, model="NVIDIA A100-SXM4-40GB",
                                      device="20b0", subsys="134f")
    sections = keep_gpus(root, sections, 4)
    # the base's logs date the base, not this node: none is left (nor their empty /var)
    shutil.rmtree(f"{root}/var")
    rel = "5.4.0-124-generic"
    move_kernel(root, "5.15.0-97-generic", rel)
    sections = sections.replace("5.15.0-97-generic", rel)
    w(root, "etc/os-release", UBUNTU1804_OS_RELEASE)
    # the report's gres.conf once AutoDetect=nvml was added, verbatim
    w(root, "etc/slurm/gres.conf",
      "AutoDetect=nvml\n#Name=gpu File=/dev/nvidia0 CPUs=0-63,128-191\n"
      "#Name=gpu File=/dev/nvidia1 CPUs=0-63,128-191\n"
      "#Name=gpu File=/dev/nvidia2 CPUs=64-127,192-255\n"
      "#Name=gpu File=/dev/nvidia3 CPUs=64-127,192-255\n")
    # DeepOps builds Slurm from source under /usr/local (the unit's ExecStart=
    # /usr/local/sbin/slurmd): configure's default plugin directory, /usr/local/lib/slurm
    plugins(root, "usr/local/lib/slurm", ("gpu_generic.so", "gres_gpu.so"))
    ini(dst, TOPIC,
        "A DeepOps Slurm node with four A100-SXM4-40GB (Ubuntu 18.04) whose gres.conf was "
        "changed to AutoDetect=nvml for MIG, on a Slurm DeepOps had built from source without "
        f"NVML: slurmd stops with '{MSG}'",
        f"Rebuilt from {url} (pasted: 'Using Ubuntu 18.04, with A100-40GB and configured MIG "
        "slice 1g.5gb'; cat /etc/slurm/gres.conf before (four 'Name=gpu File=/dev/nvidiaN "
        "CPUs=…' lines, /dev/nvidia0 to /dev/nvidia3) and after ('AutoDetect=nvml' and the "
        "four lines commented out, kept verbatim); systemctl status: slurmd.service "
        "'Active: failed (Result: exit-code)', 'ExecStart=/usr/local/sbin/slurmd -D -s "
        f"$SLURMD_OPTIONS'; the log's 'fatal: {MSG}'; the reporter's later slurmd log, once "
        "Slurm was rebuilt with NVML, listing the autodetected MIG devices as 'Flags:HAS_FILE,"
        "ENV_NVML'); Slurm's _get_gpu_type() (src/common/gpu.c, later src/interfaces/gpu.c) "
        "logs that message only where HAVE_NVML is unset, which is also when the gpu/nvml "
        "plugin is not built: the plugin directory (/usr/local/lib/slurm, configure's default "
        "for the /usr/local prefix) holds gres_gpu.so and gpu_generic.so, built on every "
        "Slurm, and no gpu_nvml.so (the directory's other plugins are not shown and left "
        "out); NVML is not asked (--no-vendor: the report shows no nvidia-smi, so MIG mode "
        "is not claimed); not in the report and placeholders: the server (the h100-sxm-550 "
        "fixture's tree with its first four GPUs, re-identified as A100-SXM4-40GB, 10de:20b0 "
        "subsystem 10de:134f as pci.ids lists it), the driver 515.65.01 (an R515 release of "
        "August 2022), Ubuntu 18.04.6's os-release and its HWE kernel 5.4.0-124-generic; "
        "the base's kernel log is left out",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(url, f"slurmd: fatal: {MSG} (slurmd.service failed after AutoDetect=nvml "
                   "was added to /etc/slurm/gres.conf)",
                   "the Slurm DeepOps built was configured without NVML (no nvml.h at build "
                   "time), so AutoDetect=nvml cannot work: slurmd's NVML detection is compiled "
                   "out and it stops; rebuilt with NVML, slurmd detected the GPUs",
                   "runtime.slurm-nvml-autodetect-unbuilt", "runtime", "yes"),
        only_sections(sections, ("devices", "modules")))


def ohpc_node(name, with_nvml):
    drv = "535.129.03"
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", drv)
    rel = "4.18.0-477.13.1.el8_8.x86_64"
    w(root, "etc/os-release", ROCKY88_OS_RELEASE)
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  Wed Oct 11 22:30:00 UTC 2023\n"
      "GCC version:  gcc version 8.5.0 20210514 (Red Hat 8.5.0-18) (GCC) \n")
    shutil.rmtree(f"{root}/var")  # the base's kernel and apt logs: another machine's
    # OpenHPC's slurm.conf and gres.conf live in /etc/slurm; the report says the cluster
    # depends on "NVML detection of their GPU Gres", which gres.conf writes AutoDetect=nvml
    w(root, "etc/slurm/gres.conf", "AutoDetect=nvml\n")
    names = ["acct_gather_energy_gpu.so", "gpu_generic.so", "gres_gpu.so"]
    if with_nvml:
        names.insert(2, "gpu_nvml.so")
    plugins(root, "usr/lib64/slurm", names)
    return dst, root, rel, drv


def ohpc_1910():
    url = "https://github.com/openhpc/ohpc/issues/1910"
    common = ("the report's `rpm -ql <package> | grep gpu` of the {which} "
              "(/usr/lib64/slurm/{files}, made as [elf] shared objects; the package's other "
              "files are not shown and left out); the gres.conf line: the report's clusters "
              "'depend on NVML detection of their GPU Gres', which gres.conf(5) writes "
              "AutoDetect=nvml (the file itself is not shown); OpenHPC 2.x's Rocky Linux 8 "
              "(8.8's os-release and kernel 4.18.0-477.13.1.el8_8 are placeholders), the GPU "
              "(the base's RTX 4090) and the driver 535.129.03 and its build line are "
              "placeholders the report does not show; " + SRC_BASE)
    dst, root, rel, drv = ohpc_node(FIXTURES[1], False)
    ini(dst, TOPIC,
        "A Rocky Linux 8 OpenHPC GPU node whose gres.conf has AutoDetect=nvml, with OpenHPC's "
        "slurm-ohpc 22.05.10 package, built without NVML: its plugin directory lists "
        "gpu_generic.so and gres_gpu.so but no gpu_nvml.so, so slurmd detects no GPU",
        f"Rebuilt from {url} (title: 'Latest slurm-ohpc-22.05.10-2.1.ohpc.2.6.2.x86_64 lacks "
        "GPU NVML library'; the maintainer: 'we never distributed gpu_nvml.so because that "
        "requires NVML being present in the build system'; the reporter: the working package "
        "was their own build, whose 'compile environment allows for enabling nvml-support'); "
        + common.format(which="failing system's slurm-ohpc-22.05.10-2.1.ohpc.2.6.2",
                        files="acct_gather_energy_gpu.so, gpu_generic.so, gres_gpu.so"),
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(url, "rpm -ql slurm-ohpc-22.05.10-2.1.ohpc.2.6.2.x86_64 | grep gpu: "
                   "/usr/lib64/slurm/acct_gather_energy_gpu.so, gpu_generic.so, gres_gpu.so "
                   "(no gpu_nvml.so); 'this makes clusters fail that depend on NVML detection "
                   "of their GPU Gres'",
                   "OpenHPC's slurm-ohpc is built without NVML (no CUDA packages in its build "
                   "system), so it has no gpu_nvml.so and NVML autodetection cannot work; a "
                   "Slurm built with NVML (the reporter's own package) has it",
                   "runtime.slurm-nvml-autodetect-unbuilt", "runtime", "yes"),
        section("rtx4090-open-module", "devices"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko.xz = {drv}, -, xz\n")
    dst, root, rel, drv = ohpc_node(FIXTURES[2], True)
    ini(dst, TOPIC,
        "The same OpenHPC GPU node with the reporter's own slurm-ohpc 22.05.2 build, made "
        "with NVML: its plugin directory has gpu_nvml.so, so AutoDetect=nvml works (the "
        "negative of rw-slurm-ohpc-autodetect-nvml-unbuilt-ohpc-1910)",
        f"Rebuilt from {url} (the 'Working system' of the report; the reporter: 'We rolled "
        "our own package because of the lacking pmix support and our compile environment "
        "allows for enabling nvml-support as well'); "
        + common.format(which="working system's slurm-ohpc-22.05.2-14.103.ohpc.2.6",
                        files="acct_gather_energy_gpu.so, gpu_generic.so, gpu_nvml.so, "
                              "gres_gpu.so"),
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(url, "(none: the working system's package lists /usr/lib64/slurm/"
                   "gpu_nvml.so)",
                   "a Slurm built with NVML has gpu_nvml.so, and AutoDetect=nvml detects the "
                   "GPUs", "none", "none", "no"),
        section("rtx4090-open-module", "devices"),
        f"[modules]\n/lib/modules/{rel}/extra/nvidia.ko.xz = {drv}, -, xz\n")


def write():
    deepops_1214()
    ohpc_1910()
