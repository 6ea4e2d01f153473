# SPDX-License-Identifier: GPL-2.0-or-later
"""An eight-MI300X server whose user cannot open the GPU device nodes, rebuilt from
ROCm/rocm-examples#187 on the healthy mi300x-amdgpu tree (its sources), its user taken out of
render: /dev/kfd and the render nodes are 0660 root:render, the user is not in render, so a
ROCm program finds no device unless it runs under sudo."""
from realworld.common import fresh, ini, real_world, section, w

TOPIC = "mi300x"
FIXTURES = ("rw-mi300x-x8-rocblas-not-in-render", "rw-mi300x-x8-rocblas-sudo")

BASE = "mi300x-amdgpu"
URL = "https://github.com/ROCm/rocm-examples/issues/187"
CPU = "Intel(R) Xeon(R) Platinum 8470"
SOURCE = (
    "Rebuilt from " + URL + " (pasted: `./rocblas_gemm` printing 'An error encountered: \"no "
    "ROCm-capable device is detected\" at main.cpp:146'; rocm-smi's concise table, GPU 0 on KFD "
    "node 2, GPU 1 on node 3 and so on, DID 0x74a1, NPS1/SPX partitions, PwrCap 750.0W, and the "
    "reporter's 'I can saw 8 cards of MI300x using rocm-smi'; the template's "
    "'CPU: " + CPU + "', 'Operating System: Ubuntu', 'ROCm Version: ROCm 6.3.0'; the reporter: "
    "'seems i need to run it with sudo'; the maintainer's answer: the user does not have "
    "read/write access to /dev/kfd and /dev/dri/renderD*); not in the report and kept from the "
    "constructed tree: the PCI topology, BARs and KFD node properties of eight MI300X (1002:74a1, "
    "gfx942, KFD nodes 2-9 after two CPU nodes, as the report's numbering implies), Ubuntu 22.04.4 and its "
    "5.15.0-116-generic kernel (the report names Ubuntu only), amdgpu-dkms 6.7.0 (the report "
    "shows no driver version), /dev/kfd and /dev/dri/renderD128-135 0660 root:render as ROCm's "
    "udev rule makes them, the user uid 1000 in video but not render; /proc/cpuinfo made the "
    "report's CPU, trimmed to the lines gpuenv reads (processor, vendor_id, model name) for the "
    "first four processors; the ROCm 6.3.0 user space and the rocm-examples build are left out "
    "(what is judged is the device nodes the process opens)")


def cpuinfo(root):
    w(root, "proc/cpuinfo", "".join(
        f"processor\t: {i}\nvendor_id\t: GenuineIntel\nmodel name\t: {CPU}\n\n"
        for i in range(4)))


def not_in_render(root):
    """The report's user: in video, not in render (the maintainer's answer), so the process's
    groups lack 109 and /etc/group's render line names no member."""
    w(root, "etc/group", open(f"{root}/etc/group").read().replace("\nrender:x:109:rocm\n",
                                                                  "\nrender:x:109:\n"))
    status = open(f"{root}/proc/self/status").read()
    w(root, "proc/self/status", status.replace("Groups:\t4 24 27 30 44 46 109 112 1000 ",
                                               "Groups:\t4 24 27 30 44 46 112 1000 "))


def rocblas_not_in_render():
    dst, root = fresh(FIXTURES[0], BASE)
    cpuinfo(root)
    not_in_render(root)
    ini(dst, TOPIC,
        "An eight-MI300X server (1002:74a1, gfx942) on Ubuntu with amdgpu bound and KFD listing "
        "every GPU: /dev/kfd and /dev/dri/renderD128-135 are 0660 root:render and the user is "
        "not in render, so rocBLAS's gemm example finds 'no ROCm-capable device' while rocm-smi "
        "(sysfs) lists all eight",
        SOURCE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL,
            "./rocblas_gemm: An error encountered: \"no ROCm-capable device is detected\" at "
            "main.cpp:146 (rocm-smi lists 8 x 0x74a1)",
            "the user has no read/write access to /dev/kfd and /dev/dri/renderD*: ROCm opens "
            "no GPU and the program finds no device; it runs under sudo",
            "driver.no-permission", "driver", "yes"),
        section(BASE, "devices"))


def sudo():
    dst, root = fresh(FIXTURES[1], BASE)
    cpuinfo(root)
    not_in_render(root)
    # The reporter's workaround: the same program under sudo, whose process runs as root
    # (uid 0, sudo's default target user), which the nodes' mode does not restrict.
    status = open(f"{root}/proc/self/status").read()
    w(root, "proc/self/status", status.replace("Uid:\t1000\t1000\t1000\t1000",
                                               "Uid:\t0\t0\t0\t0").replace(
        "Gid:\t1000\t1000\t1000\t1000", "Gid:\t0\t0\t0\t0").replace(
        "Groups:\t4 24 27 30 44 46 112 1000 ", "Groups:\t0 "))
    ini(dst, TOPIC,
        "The rw-mi300x-x8-rocblas-not-in-render server with the reporter's workaround: the "
        "program run under sudo, as root, which opens /dev/kfd and the render nodes",
        SOURCE + "; the process's credentials those sudo gives (uid, gid 0, groups: root)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        section(BASE, "devices"))


def write():
    rocblas_not_in_render()
    sudo()
