# SPDX-License-Identifier: GPL-2.0-or-later
"""Intel device selection (runtime.visible-devices-none): ONEAPI_DEVICE_SELECTOR as the DPC++
runtime of sycl-ls, PyTorch XPU and IPEX reads it. The machine is the
rw-intel-max1550-no-render-group tree (see intel.py) with its Data Center GPU Max 1550
repeated at six PCI addresses (intel_ras.eight_gpus) and the user in render and video."""
from realworld.common import (dpkg, ini, ldso_cache, move_kernel, real_world, ubuntu_os_release,
                              w)
from realworld.intel import SRC_INTEL_BASE, devices, intel_base, level_zero, oneapi, opencl_icd
from realworld.intel_ras import eight_gpus

TOPIC = "intel_select"
FIXTURES = ("rw-intel-max1550-x6-oneapi-selector-too-many-colons",
            "rw-intel-max1550-x6-oneapi-selector-level-zero-gpu")

KERNEL = "5.15.0-73-generic"
# Six GPUs, six buses on the step intel_ras.py uses (the report shows no PCI address).
BUSES = ("18", "1c", "20", "24", "28", "2c")
# sycl-ls printed "1.3 [1.3.26032]": the Level Zero GPU driver of compute-runtime 23.13.26032.
NEO = "23.13.26032.26"
SOURCE = (
    "Rebuilt from https://github.com/uxlfoundation/oneDPL/issues/979 (pasted: `echo "
    "$ONEAPI_DEVICE_SELECTOR` printing level_zero:gpu and `sycl-ls` then listing six "
    "'[ext_oneapi_level_zero:gpu:N] Intel(R) Level-Zero, Intel(R) Data Center GPU Max 1550 1.3 "
    "[1.3.26032]', N = 0..5; after `export ONEAPI_DEVICE_SELECTOR=level_zero:gpu:2` `sycl-ls` "
    "printing 'Warning: ONEAPI_DEVICE_SELECTOR environment variable is set to "
    "level_zero:gpu:2.', \"terminate called after throwing an instance of "
    "'sycl::_V1::exception'\", 'what():  Error parsing selector string \"level_zero:gpu:2\"  "
    "Too many colons (:)' and 'Aborted (core dumped)'; the grammar, backend:devices with "
    "devices gpu, a number or *, is intel/llvm sycl/doc/EnvironmentVariables.md's, and "
    "intel/llvm#12048 says sycl-ls's ':gpu:1' is ':1' or ':gpu' for the selector, never both); "
    "not in the report and chosen here: the PCI addresses and root ports, Ubuntu 22.04 with "
    "its 5.15.0-73-generic kernel and i915's GuC lines as in rw-intel-max1550-no-render-group, "
    "the compute runtime release " + NEO + " that the driver version 1.3.26032 belongs to "
    "and the level-zero 1.9.9 loader of that time from Intel's repository, oneAPI 2023.1.0's "
    "compiler (the DPC++ runtime whose sycl-ls the report ran), the host name, the user in "
    "render and video (sycl-ls lists the GPUs with level_zero:gpu); " + SRC_INTEL_BASE)
GUC_LOG = ["[drm] GT0: GuC firmware i915/pvc_guc_70.bin version 70.20.0",
           "[drm] GT0: GUC: submission enabled",
           "[drm] GT1: GuC firmware i915/pvc_guc_70.bin version 70.20.0",
           "[drm] GT1: GUC: submission enabled"]


def max1550_x6(name):
    dst, root = intel_base(name, 0x0bd5, 0x0000, cls=0x038000, kernel=KERNEL)
    move_kernel(root, "6.8.0-45-generic", KERNEL)
    w(root, "etc/os-release", ubuntu_os_release("22.04.2", "Jammy Jellyfish", "jammy"))
    eight_gpus(root, BUSES)
    w(root, "var/log/kern.log", "".join(
        f"Jun  7 09:12:{k:02d} pvc-node kernel: [    4.{100000 + k * 1100 + i * 110:06d}] "
        f"i915 0000:{bus}:00.0: {msg}\n"
        for k, bus in enumerate(BUSES) for i, msg in enumerate(GUC_LOG)))
    gpu = "1.3." + ".".join(NEO.split(".")[2:])
    level_zero(root, loader="1.9.9", gpu_driver=gpu)
    opencl_icd(root)
    dpkg(root, {"intel-opencl-icd": f"{NEO}-627~22.04", "intel-level-zero-gpu": f"{gpu}-627~22.04",
                "level-zero": "1.9.9-627~22.04"})
    oneapi(root, {"compiler": ["2023.1.0"]})
    return dst, root


def env(selector):
    return {"PATH": "/opt/intel/oneapi/compiler/2023.1.0/linux/bin:/usr/local/sbin:"
            "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "ONEAPI_DEVICE_SELECTOR": selector, "HOME": "/home/user"}


def too_many_colons():
    """uxlfoundation/oneDPL#979: level_zero:gpu:2, a device type and an index in one term."""
    dst, root = max1550_x6(FIXTURES[0])
    ini(dst, TOPIC,
        "Six Data Center GPU Max 1550 (Ponte Vecchio, 8086:0bd5) on i915 with Level Zero and "
        "oneAPI 2023.1: ONEAPI_DEVICE_SELECTOR=level_zero:gpu:2, meant to pick the GPU sycl-ls "
        "lists as [ext_oneapi_level_zero:gpu:2], is outside the selector's grammar: the DPC++ "
        "runtime throws 'Error parsing selector string \"level_zero:gpu:2\"  Too many colons "
        "(:)', sycl-ls aborts and no SYCL program gets a GPU",
        SOURCE, env("level_zero:gpu:2"),
        real_world(
            "https://github.com/uxlfoundation/oneDPL/issues/979",
            "terminate called after throwing an instance of 'sycl::_V1::exception' what():  "
            "Error parsing selector string \"level_zero:gpu:2\"  Too many colons (:)",
            "ONEAPI_DEVICE_SELECTOR takes backend:devices where a device is gpu, a number or "
            "*; level_zero:gpu:2 copies sycl-ls's [ext_oneapi_level_zero:gpu:2] label, which "
            "the DPC++ runtime refuses, so every SYCL program aborts before it sees a GPU "
            "(level_zero:2 selects the third GPU)",
            "runtime.visible-devices-none", "runtime", "yes"),
        devices(n=len(BUSES)))
    ldso_cache(dst)


def level_zero_gpu():
    """The same machine with the value the report started from: sycl-ls lists all six."""
    dst, root = max1550_x6(FIXTURES[1])
    ini(dst, TOPIC,
        "The rw-intel-max1550-x6-oneapi-selector-too-many-colons machine with "
        "ONEAPI_DEVICE_SELECTOR=level_zero:gpu, the value the report began with: sycl-ls lists "
        "the six GPUs as [ext_oneapi_level_zero:gpu:0] to [ext_oneapi_level_zero:gpu:5]; no "
        "device selection finding",
        SOURCE, env("level_zero:gpu"), "", devices(n=len(BUSES)))
    ldso_cache(dst)


def write():
    too_many_colons()
    level_zero_gpu()
