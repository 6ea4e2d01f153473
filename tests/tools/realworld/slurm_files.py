# SPDX-License-Identifier: GPL-2.0-or-later
"""Slurm GPU nodes whose gres.conf slurmd cannot load: File= naming a device file the node
does not have (runtime.slurm-gres-file-missing: slurmd waits 20 s, then "fatal: can't stat
gres.conf file /dev/nvidia0"), because the driver made no /dev/nvidia0 at boot or is not
installed at all; and two Name=gpu lines nothing tells apart
(runtime.slurm-gres-duplicate-records: "fatal: gres.conf duplicate records for gpu"); with
the negatives, the same nodes as their threads fixed them. Written by
tests/tools/mk-real-world-fixtures.py slurm_files."""
import re
import shutil

from realworld.common import fresh, ini, move_kernel, real_world, w
from realworld.mig import a100_server, keep_gpus
from realworld.slurm_nvml import only_sections

TOPIC = "slurm_files"
FIXTURES = ("rw-slurm-gres-file-no-devnode-fgci-cuda-3",
            "rw-slurm-gres-file-devnodes-made-fgci-cuda-3",
            "rw-slurm-gres-file-no-driver-bibigrid-705",
            "rw-slurm-gres-duplicate-records-magic-castle-27",
            "rw-slurm-gres-autodetect-only-magic-castle-27")

PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
CENTOS7_OS_RELEASE = (
    'NAME="CentOS Linux"\nVERSION="7 (Core)"\nID="centos"\nID_LIKE="rhel fedora"\n'
    'VERSION_ID="7"\nPRETTY_NAME="CentOS Linux 7 (Core)"\nANSI_COLOR="0;31"\n'
    'CPE_NAME="cpe:/o:centos:centos:7"\nHOME_URL="https://www.centos.org/"\n'
    'BUG_REPORT_URL="https://bugs.centos.org/"\n\n'
    'CENTOS_MANTISBT_PROJECT="CentOS-7"\nCENTOS_MANTISBT_PROJECT_VERSION="7"\n'
    'REDHAT_SUPPORT_PRODUCT="centos"\nREDHAT_SUPPORT_PRODUCT_VERSION="7"\n\n')
DRV = "515.65.01"
# placeholders of every CentOS 7 node here (the reports show no GPU, driver or kernel)
PLACEHOLDERS = ("not in the report and placeholders: the server (the h100-sxm-550 fixture's "
                "tree with its first {n} GPU(s), re-identified as A100-SXM4-40GB, 10de:20b0 "
                "subsystem 10de:134f as pci.ids lists it), the driver " + DRV + ", CentOS "
                "7's os-release and the kernel {rel}; the base's kernel log is left out")


def centos7_node(name, gpus, rel, devnodes):
    """A CentOS 7 node with `gpus` A100s on the nvidia driver (loaded); devnodes: whether
    /dev/nvidia* exist. Returns (dst, root, the [devices] and [modules] sections)."""
    dst, root, sections = a100_server(name, [], driver=DRV, model="NVIDIA A100-SXM4-40GB",
                                      device="20b0", subsys="134f")
    sections = keep_gpus(root, sections, gpus)
    shutil.rmtree(f"{root}/var")  # the base's logs date the base, not this node
    move_kernel(root, "5.15.0-97-generic", rel)
    sections = only_sections(sections.replace("5.15.0-97-generic", rel), ("devices", "modules"))
    if not devnodes:
        sections = re.sub(r"(?m)^/dev/nvidia\S* = .*\n", "", sections)
    w(root, "etc/os-release", CENTOS7_OS_RELEASE)
    return dst, root, sections


def fgci_cuda_3():
    url = "https://github.com/fgci-org/ansible-role-cuda/issues/3"
    rel = "3.10.0-327.22.2.el7.x86_64"
    log = ("slurmd[5421]: error: Waiting for gres.conf file /dev//nvidia0 / slurmd[5421]: "
           "fatal: can't stat gres.conf file /dev//nvidia0: No such file or directory")
    source = (f"Rebuilt from {url} (pasted, on the node 'gpu', Jul 8 2016: '{log}'; 'It is "
              "needed for slurmd to start': cuda_init.sh, which makes the device files, "
              "must run first) and its predecessor "
              "https://github.com/fgci-org/ansible-role-cuda/issues/2 (after a reinstall "
              "'it can't find /dev/nvidia0. nvidia-smi seems to \"load\" it'; fixed so that "
              "'slurm now successfully starts on io's GPU node on reboots'; enabling "
              "nvidia-persistenced 'did not make /dev/nvidia* devices appear'); the gres.conf "
              "line: the File= path as slurmd printed it, /dev//nvidia0 (the node's other "
              "gres.conf lines are not shown and left out); FGCI's nodes ran CentOS 7; ")
    dst, root, sections = centos7_node(FIXTURES[0], 1, rel, False)
    w(root, "etc/slurm/gres.conf", "Name=gpu File=/dev//nvidia0\n")
    ini(dst, TOPIC,
        "An FGCI CentOS 7 GPU node rebooted after a reinstall: the nvidia module is loaded "
        "but nothing made /dev/nvidia0 (nvidia-smi would), and gres.conf names it, so slurmd "
        "waits 20 s and stops with \"fatal: can't stat gres.conf file /dev//nvidia0\"",
        source + "/dev/nvidia* are absent (the [devices] of the base without them); "
        + PLACEHOLDERS.format(n=1, rel=rel), PATH,
        real_world(url, log,
                   "the nvidia driver loads at boot without creating /dev/nvidia0 (only "
                   "nvidia-smi or nvidia-modprobe run as root make it), and slurmd stats "
                   "gres.conf's File= before anything did; making the device files before "
                   "slurmd starts (cuda_init.sh) fixed it",
                   "driver.device-nodes-missing", "driver", "yes"),
        sections)
    dst, root, sections = centos7_node(FIXTURES[1], 1, rel, True)
    w(root, "etc/slurm/gres.conf", "Name=gpu File=/dev//nvidia0\n")
    ini(dst, TOPIC,
        "The same FGCI GPU node once cuda_init.sh made the device files before slurmd: "
        "/dev/nvidia0, /dev/nvidiactl and /dev/nvidia-uvm exist and slurmd starts (the "
        "negative of rw-slurm-gres-file-no-devnode-fgci-cuda-3)",
        source + "the device files of the base's first GPU stand for what cuda_init.sh "
        "made; " + PLACEHOLDERS.format(n=1, rel=rel), PATH,
        real_world(url, "(none: 'slurm now successfully starts on io's GPU node on "
                   "reboots')",
                   "with /dev/nvidia0 made before slurmd starts, gres.conf's File= is there",
                   "none", "none", "no"),
        sections)


def bibigrid_705():
    url = "https://github.com/BiBiServ/bibigrid/issues/705"
    log = ("slurmd: error: Waiting for gres.conf file /dev/nvidia0 / slurmd: fatal: can't "
           "stat gres.conf file /dev/nvidia0: No such file or directory / slurmd.service: "
           "Failed with result 'exit-code'")
    dst, root = fresh(FIXTURES[2], "nvidia-gpu-no-driver")
    w(root, "etc/slurm/gres.conf", "Name=gpu File=/dev/nvidia0\n")
    ini(dst, TOPIC,
        "A BiBiGrid Slurm worker with an NVIDIA GPU and no NVIDIA driver installed, whose "
        "gres.conf (GRES newly enabled by BiBiGrid) names /dev/nvidia0: slurmd waits 20 s "
        "for it and stops, and the worker never joins",
        f"Rebuilt from {url} (pasted, on bibigrid-worker, Feb 2 2026: '{log}'; the "
        "maintainer: 'GRES has been activated but not fully implemented'; fixed by "
        "https://github.com/BiBiServ/bibigrid/pull/710, which 'adds the proper driver "
        "implementation necessary to allow for nvidia graphic cards to run' and assumes the "
        "device files are numbered 0-N); the gres.conf line: the File= path slurmd printed "
        "(its other keys are not shown); not in the report and placeholders: the GPU and the "
        "rest of the tree, the nvidia-gpu-no-driver fixture's (an RTX 4090 no driver is "
        "bound to, no nvidia module loaded or on disk, Ubuntu 22.04; see its sources)",
        PATH,
        real_world(url, log,
                   "no NVIDIA driver was installed on the GPU worker, so there is no "
                   "/dev/nvidia0 for gres.conf's File=; installing the driver (#710) fixed it",
                   "driver.module-missing-for-kernel", "driver", "yes"))


def magic_castle_27():
    url = "https://github.com/ComputeCanada/puppet-magic_castle/issues/27"
    rel = "3.10.0-1062.12.1.el7.x86_64"
    source = (f"Rebuilt from {url} (title: 'slurmd crashes when there is more than one gpu'; "
              "pasted, on node2 with two GPUs, Feb 20 2020: 'slurmd[57977]: fatal: gres.conf "
              "duplicate records for gpu' and the generated gres.conf, AutoDetect=nvml and "
              "one Name=gpu line per GPU, kept verbatim with its comment header; the "
              "maintainer: '`AutoDetect=nvml` is sufficient. The solution is to remove the "
              "part of the template that generates `Name=gpu`'); Slurm's plugin directory is "
              "not shown and left out; Magic Castle's nodes ran CentOS 7; ")
    header = ("###########################################################\n"
              "# Slurm's Generic Resource (GRES) configuration file\n"
              "# Use NVML to gather GPU configuration information\n"
              "# Information about all other GRES gathered from slurm.conf\n"
              "###########################################################\n"
              "AutoDetect=nvml\n")
    dst, root, sections = centos7_node(FIXTURES[3], 2, rel, True)
    w(root, "etc/slurm/gres.conf", header + "Name=gpu\nName=gpu\n")
    ini(dst, TOPIC,
        "A Magic Castle CentOS 7 compute node with two GPUs whose gres.conf, from the "
        "puppet template, has AutoDetect=nvml and a Name=gpu line per GPU: two records "
        "with neither File= nor Type=, so slurmd stops with \"fatal: gres.conf duplicate "
        "records for gpu\"",
        source + PLACEHOLDERS.format(n=2, rel=rel), PATH,
        real_world(url, "slurmd[57977]: fatal: gres.conf duplicate records for gpu",
                   "the puppet template wrote one Name=gpu line per GPU beside "
                   "AutoDetect=nvml; two records without File= or Type= are duplicates to "
                   "slurmd, which stops; AutoDetect=nvml alone is sufficient",
                   "runtime.slurm-gres-duplicate-records", "runtime", "yes"),
        sections)
    dst, root, sections = centos7_node(FIXTURES[4], 2, rel, True)
    w(root, "etc/slurm/gres.conf", header)
    ini(dst, TOPIC,
        "The same Magic Castle node with the maintainer's fix: gres.conf has AutoDetect=nvml "
        "and no Name=gpu line (the negative of "
        "rw-slurm-gres-duplicate-records-magic-castle-27)",
        source + "the fixed file is the same header and AutoDetect=nvml alone; "
        + PLACEHOLDERS.format(n=2, rel=rel), PATH,
        real_world(url, "(none: the template without the Name=gpu lines)",
                   "AutoDetect=nvml alone makes no duplicate record", "none", "none", "no"),
        sections)


def write():
    fgci_cuda_3()
    bibigrid_705()
    magic_castle_27()
