# SPDX-License-Identifier: GPL-2.0-or-later
"""Intel Gen8-Gen11 GPUs (Broadwell to Ice Lake) with a compute runtime from the release that
left them to the -legacy1 packages (24.35.30872.22, Intel's LEGACY_PLATFORMS.md): i915 drives
the GPU, the render node is there, and the regular OpenCL ICD lists no device for it. The
machine is intel.py's Intel base tree with an integrated GPU's ids."""
import os

from realworld.common import dpkg, ini, ldso_cache, read, real_world, w
from realworld.intel import GPU, SRC_INTEL_BASE, devices, intel_base, opencl_icd, unread_kernel_and_os

TOPIC = "intel_legacy"
FIXTURES = ("rw-intel-cml-neo26-no-legacy1-birdnet-3923", "intel-cml-neo26-with-legacy1")

URL_3923 = "https://github.com/tphakala/birdnet-go/issues/3923"
URL_4066 = "https://github.com/tphakala/birdnet-go/pull/4066"
SRC_3923 = (
    f"Rebuilt from {URL_3923} (pasted: a Lenovo M90q with 'Intel Comet Lake (GT2, Gen 9.5 "
    "iGPU)' in a Proxmox VM, the birdnet-go Docker image falling back to the CPU for OpenVINO, "
    "the reporter's finding that the image's NEO v26.22 'dropped legacy support for pre-Gen12 "
    "hardware in the main package' while immich works with intel-opencl-icd v24.31.30508.7) "
    f"and the fix, {URL_4066} (merged: 'gpu device requested but not available' on Gen8/Gen9/"
    "Gen11 iGPUs 'despite correct config, working device passthrough, and correct container "
    "permissions'; 'the amd64 image only installs the current Intel compute-runtime track "
    "(NEO_VERSION=26.22.38646.4)'; it adds the -legacy1 packages alongside); the package's "
    "dpkg version 26.22.38646.4-0 is the file name of that release's intel-opencl-icd .deb "
    "(intel-opencl-icd_26.22.38646.4-0_amd64.deb); not in the report and chosen here: the "
    "device id 8086:9bc5 (one of the kernel's INTEL_CML_GT2_IDS, a CometLake-S GT2 as in a "
    "desktop M90q) with subsystem 17aa:3131, the PCI address, an integrated GPU's BARs (16 MiB "
    "MMIO, a 256 MiB aperture, 64 bytes of I/O ports), the container files (/.dockerenv, "
    "/proc/1/cgroup) of the container-cuda12.4-on-r535 fixture, the OpenCL ICD file as "
    "intel-opencl-icd installs it; left out (unread here): the VM's kernel release, the "
    "image's os-release and the PCIe link the VM's virtual port reports; ")


# An integrated GPU's BARs in pci-sysfs resource format: 16 MiB MMIO (BAR0), the 256 MiB
# aperture (BAR2), 64 bytes of I/O ports (BAR4), in place of the base tree's DG2 board.
IGPU_RESOURCE = ("0x00000000f6000000 0x00000000f6ffffff 0x0000000000140204\n" +
                 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" +
                 "0x00000000e0000000 0x00000000efffffff 0x000000000014220c\n" +
                 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" +
                 "0x000000000000f000 0x000000000000f03f 0x0000000000040101\n" +
                 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 8)


def cml_base(name):
    dst, root = intel_base(name, 0x9bc5, 0x3131)
    w(root, f"{GPU}/subsystem_vendor", "0x17aa\n")
    w(root, f"{GPU}/resource", IGPU_RESOURCE)
    # the PCIe link the VM's virtual port reports is not in the report: left unread
    for p in ("current_link_speed", "current_link_width", "max_link_speed", "max_link_width"):
        os.unlink(f"{root}/{GPU}/{p}")
    unread_kernel_and_os(root)
    # a Docker container: its marker file and PID 1's cgroup lines
    w(root, ".dockerenv", "")
    w(root, "proc/1/cgroup", read("tests/fixtures/container-cuda12.4-on-r535/root",
                                  "proc/1/cgroup"))
    opencl_icd(root)
    return dst, root


def cml_no_legacy1():
    """tphakala/birdnet-go#3923: a Comet Lake iGPU in a container whose image has only the
    regular NEO 26.22 intel-opencl-icd."""
    dst, root = cml_base("rw-intel-cml-neo26-no-legacy1-birdnet-3923")
    dpkg(root, {"intel-opencl-icd": "26.22.38646.4-0"})
    ini(dst, TOPIC,
        "A Comet Lake UHD Graphics 630 (Gen9.5, 8086:9bc5) passed into a Docker container "
        "whose image installs only the regular compute runtime of release 26.22.38646.4: i915 "
        "drives the iGPU and the render node is there, but the regular packages dropped Gen8-"
        "Gen11 GPUs at 24.35.30872.22, so the OpenCL ICD lists no device and OpenVINO falls "
        "back to the CPU",
        SRC_3923 + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL_3923,
            "gpu device requested but not available",
            "the image installs only the regular intel-opencl-icd 26.22.38646.4, which no "
            "longer drives Gen8/Gen9/Gen11 GPUs (Intel moved them to the -legacy1 packages at "
            "24.35.30872.22): OpenVINO finds no GPU on the Comet Lake iGPU until the -legacy1 "
            "packages are installed alongside",
            "runtime.intel-compute-runtime-drops-gpu", "runtime", "yes"),
        devices())
    ldso_cache(dst)


def cml_with_legacy1():
    dst, root = cml_base("intel-cml-neo26-with-legacy1")
    dpkg(root, {"intel-opencl-icd": "26.22.38646.4-0",
                "intel-opencl-icd-legacy1": "24.35.30872.36-0"})
    ini(dst, TOPIC,
        "The rw-intel-cml-neo26-no-legacy1-birdnet-3923 container after the fix of "
        "tphakala/birdnet-go#4066: intel-opencl-icd-legacy1 24.35.30872.36 installed beside the "
        "regular 26.22.38646.4, so the Comet Lake iGPU has a compute runtime that drives it: no "
        "finding about the compute runtime",
        SRC_3923 + "intel-opencl-icd-legacy1 24.35.30872.36-0 as that fix installs it (the "
        "file name of the 24.35.30872.36 release's .deb); " + SRC_INTEL_BASE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        devices())
    ldso_cache(dst)


def write():
    cml_no_legacy1()
    cml_with_legacy1()
