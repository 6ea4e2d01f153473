# SPDX-License-Identifier: GPL-2.0-or-later
"""/dev/kfd in a group the process is not in, rebuilt from two more reports: a Debian buster
workstation whose rock-dkms left /dev/kfd root:render while the user counted on video, and the
rocm/rocm-terminal container, whose user is in sudo and video only while /dev/kfd keeps the
host's render gid, a group the image does not even name. Both on the rx7600-rocm-torch-override
tree (amd.py's BASE; its sources). Written by tests/tools/mk-real-world-fixtures.py
amd_groups."""
import os
import shutil

from realworld.amd import BASE, NODES, gpu_dir, read, set_gpu
from realworld.common import UBUNTU2004_OS_RELEASE, fresh, ini, move_kernel, real_world, section, w

TOPIC = "amd_groups"
FIXTURES = ("rw-debian10-rock-dkms-kfd-render-not-member",
            "rw-rocm-terminal-mi100-x4-kfd-gid-not-added")

DEBIAN10_OS_RELEASE = (
    'PRETTY_NAME="Debian GNU/Linux 10 (buster)"\nNAME="Debian GNU/Linux"\nVERSION_ID="10"\n'
    'VERSION="10 (buster)"\nVERSION_CODENAME=buster\nID=debian\n'
    'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
    'BUG_REPORT_URL="https://bugs.debian.org/"\n')

# RadeonOpenCompute/ROCm_Documentation#39: Debian buster (then testing, kernel 4.19.0-5-amd64,
# systemd/udev 241-5), ROCm from AMD's apt repository with rock-dkms: /dev/kfd came up owned by
# render (udev's group for render nodes since systemd 235), rocminfo failed as the user and
# ran as root.
DEBIAN_URL = "https://github.com/RadeonOpenCompute/ROCm_Documentation/issues/39"
DEBIAN_SOURCE = (
    "Rebuilt from " + DEBIAN_URL + " (pasted: 'using the rock-dkms package and not upstream "
    "kernel, I ended up with /dev/kfd owned by group `render` instead of group `video`. This "
    "resulted in rocminfo failing with a confusing error as normal user, but working as root', "
    "'I am running Debian testing and kernel package 4.19.0-5-amd64', 'I'm running Debian "
    "buster', 'The systemd/udev version is 241-5'; the maintainer: 'the \"render\" group is a "
    "relatively recent change in upstream systemd'); the kernel release is the report's; not "
    "in the report and placeholders: the GPU (a Radeon VII, 1002:66af, gfx906, a card of the "
    "report's time, with the base GPU's other attributes), /dev/kfd and renderD128 0660 "
    "root:render (gid 109) as the report describes them, the user's other groups (video 44 "
    "and the base's), os-release as Debian 10 writes it (the report: buster, 'soon to be "
    "released but currently testing'); the ROCm user space of the time (ROCm 2.5) is left out "
    "(what is judged is the nodes the process opens); everything else is the "
    "rx7600-rocm-torch-override fixture's (see its sources), without its venv")

# ROCm/ROCm-docker#116: `docker run --device=/dev/kfd --device=/dev/dri --group-add video …
# rocm/rocm-terminal:latest` on a four-MI100 host; rocminfo: "Unable to open /dev/kfd
# read-write: Permission denied", `groups`: "rocm-user sudo video"; rocm/pytorch (root) works.
DOCKER_URL = "https://github.com/ROCm/ROCm-docker/issues/116"
DOCKER_SOURCE = (
    "Rebuilt from " + DOCKER_URL + " (pasted: 'docker run -it --rm --device=/dev/kfd "
    "--device=/dev/dri --group-add video --ipc=host --shm-size 16G rocm/rocm-terminal:latest', "
    "rocminfo's 'ROCk module is loaded', 'Unable to open /dev/kfd read-write: Permission "
    "denied', 'Failed to get user name to check for video group membership', rocm-smi's table "
    "of four GPUs (PwrCap 290.0W), `groups` 'rocm-user sudo video', rocminfo working in "
    "rocm/pytorch and rocm/dev-ubuntu-22.04 ('Marketing Name: AMD Instinct MI100')); the image "
    "is the one the repository's rocm-terminal/Dockerfile built at the time (ROCm/ROCm-docker "
    "commit 04e64d7, the last change before 2024: FROM ubuntu:20.04, ROCM_VERSION=5.3, "
    "'useradd --create-home -G sudo,video --shell /bin/bash rocm-user', USER rocm-user, "
    "PATH ending in /opt/rocm/bin), whose fix came later as 'groupadd -g 109 render' and "
    "'useradd … -G sudo,video,render' (commit 8b5df66, 'adding in render group'; the dev "
    "images had got the same in ROCm/ROCm-docker#93: 'adding render group with gid 109 to make "
    "sure rocminfo runs even with non-root-user'); /etc/group is base-passwd's group.master as "
    "ubuntu:20.04 ships it plus the rocm-user group useradd adds (gid 1000, sudo and video "
    "listing rocm-user); the process's groups are those docker gives: the user's groups in the "
    "image's /etc/group and --group-add video; /.dockerenv as Docker makes it; not in the "
    "report and placeholders: the host's render gid 109 that /dev/kfd and the render nodes "
    "carry into the container (no name in the image), the four MI100 (1002:738c, gfx908; "
    "the base GPU re-identified and three copies of it behind copies of its root port, KFD "
    "nodes 2-5 with the base GPU's other attributes), the host's kernel and amdgpu module "
    "(the base's), os-release as Ubuntu 20.04.6 writes it (the image's 20.04 point release is not shown); the image's ROCm 5.3 user space "
    "is left out (what is judged is the nodes the process opens); everything else is the "
    "rx7600-rocm-torch-override fixture's (see its sources), without its venv")

# base-passwd's group.master (Debian and Ubuntu): the groups of a fresh ubuntu:20.04 image.
GROUP_MASTER = (
    "root:x:0:\ndaemon:x:1:\nbin:x:2:\nsys:x:3:\nadm:x:4:\ntty:x:5:\ndisk:x:6:\nlp:x:7:\n"
    "mail:x:8:\nnews:x:9:\nuucp:x:10:\nman:x:12:\nproxy:x:13:\nkmem:x:15:\ndialout:x:20:\n"
    "fax:x:21:\nvoice:x:22:\ncdrom:x:24:\nfloppy:x:25:\ntape:x:26:\nsudo:x:27:{u}\n"
    "audio:x:29:\ndip:x:30:\nwww-data:x:33:\nbackup:x:34:\noperator:x:37:\nlist:x:38:\n"
    "irc:x:39:\nsrc:x:40:\ngnats:x:41:\nshadow:x:42:\nutmp:x:43:\nvideo:x:44:{u}\nsasl:x:45:\n"
    "plugdev:x:46:\nstaff:x:50:\ngames:x:60:\nusers:x:100:\nnogroup:x:65534:\n")


def drop_venv(root):
    shutil.rmtree(f"{root}/home")  # the base's venv was its only content


def debian_buster():
    dst, root = fresh(FIXTURES[0], BASE)
    set_gpu(root, "66af", "030000", "Vega 20 [Radeon VII]", 90006)
    drop_venv(root)
    move_kernel(root, "5.15.0-116-generic", "4.19.0-5-amd64")
    w(root, "etc/os-release", DEBIAN10_OS_RELEASE)
    # the base's kernel log (its var/ holds nothing else) is its own kernel's; the report
    # shows none
    shutil.rmtree(f"{root}/var")
    w(root, "proc/self/status", read(root, "proc/self/status").replace(
        "Groups:\t4 24 27 30 44 46 109 112 1000 ", "Groups:\t4 24 27 30 44 46 112 1000 "))
    ini(dst, TOPIC,
        "Debian buster with ROCm's rock-dkms: /dev/kfd and /dev/dri/renderD128 are 0660 "
        "root:render (udev 241's render group) and the user is in video but not in render, so "
        "rocminfo fails as the user and runs as root",
        DEBIAN_SOURCE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "HOME": "/home/user"},
        real_world(DEBIAN_URL,
                   "I ended up with /dev/kfd owned by group `render` instead of group `video`. "
                   "This resulted in rocminfo failing with a confusing error as normal user, "
                   "but working as root",
                   "/dev/kfd is root:render and the user is not in render (only video): ROCm "
                   "cannot open it unless run as root",
                   "driver.no-permission", "driver", "yes"),
        section(BASE, "devices"))


MI100_COPIES = (("0000:00:03.1", "0000:08:00.0", 62), ("0000:00:03.2", "0000:09:00.0", 63),
                ("0000:00:03.3", "0000:0a:00.0", 64))


def mi100_x4(root):
    """The base's GPU made an MI100 and three copies of it behind copies of its root port
    (KFD nodes 3-5: node 2 with its location, render minor, gpu_id and unique_id changed)."""
    set_gpu(root, "738c", "038000", "Arcturus GL-XL [Instinct MI100]", 90008)
    gpu = gpu_dir(root)
    for k, (port_bus, bus, group) in enumerate(MI100_COPIES, start=1):
        port = f"{root}/sys/devices/pci0000:00/{port_bus}"
        shutil.copytree(f"{root}/sys/devices/pci0000:00/0000:00:01.1", port, symlinks=True,
                        ignore=lambda d, names: [n for n in names if n.startswith("0000:")])
        shutil.copytree(gpu, f"{port}/{bus}", symlinks=True,
                        ignore=lambda d, names: ["driver", "iommu_group"])
        os.symlink("../../../../bus/pci/drivers/amdgpu", f"{port}/{bus}/driver")
        os.symlink(f"../../../../kernel/iommu_groups/{group}", f"{port}/{bus}/iommu_group")
        w(root, f"sys/kernel/iommu_groups/{group}/type",
          read(root, "sys/kernel/iommu_groups/33/type"))
        for dev in (port_bus, bus):
            target = port_bus + ("" if dev == port_bus else f"/{dev}")
            os.symlink(f"../../../devices/pci0000:00/{target}",
                       f"{root}/sys/bus/pci/devices/{dev}")
        node = f"{NODES}/{2 + k}"
        shutil.copytree(f"{root}/{NODES}/2", f"{root}/{node}")
        props = read(root, f"{node}/properties")
        for old, new in (("location_id 1280", f"location_id {int(bus[5:7], 16) << 8}"),
                         ("drm_render_minor 128", f"drm_render_minor {128 + k}"),
                         ("unique_id 6302735812738436402",
                          f"unique_id {6302735812738436402 + k}")):
            assert old in props, old
            props = props.replace(old, new)
        w(root, f"{node}/properties", props)
        w(root, f"{node}/gpu_id", str(int(read(root, f"{NODES}/2/gpu_id")) + k) + "\n")


def rocm_terminal():
    dst, root = fresh(FIXTURES[1], BASE)
    mi100_x4(root)
    drop_venv(root)
    w(root, ".dockerenv", "")
    w(root, "etc/os-release", UBUNTU2004_OS_RELEASE)
    w(root, "etc/group", GROUP_MASTER.format(u="rocm-user") + "rocm-user:x:1000:\n")
    # the container's kernel log is the host's and not the container's to read (the base's
    # var/ holds nothing else)
    shutil.rmtree(f"{root}/var")
    w(root, "proc/self/status", read(root, "proc/self/status").replace(
        "Groups:\t4 24 27 30 44 46 109 112 1000 ", "Groups:\t27 44 "))
    devices = (section(BASE, "devices")
               + "".join(f"/dev/dri/card{2 + k} = c 226:{2 + k} 0660 0:44\n"
                         f"/dev/dri/renderD{129 + k} = c 226:{129 + k} 0660 0:109\n"
                         for k in range(3)))
    ini(dst, TOPIC,
        "rocm/rocm-terminal on a four-MI100 host, started with --device=/dev/kfd "
        "--device=/dev/dri --group-add video: the image's user rocm-user is in sudo and video, "
        "while /dev/kfd and the render nodes keep the host's render gid (109), which the "
        "container's process is not given and the image does not name, so ROCm cannot open "
        "/dev/kfd",
        DOCKER_SOURCE,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/rocm/bin",
         "HOME": "/home/rocm-user"},
        real_world(DOCKER_URL,
                   "Unable to open /dev/kfd read-write: Permission denied; Failed to get user "
                   "name to check for video group membership",
                   "the container's user (rocm-user: sudo, video) is not in the group that "
                   "owns /dev/kfd and the render nodes (the host's render gid, added to no "
                   "process by --group-add video and named nowhere in the image); the image "
                   "later gained 'groupadd -g 109 render' and rocm-user in render",
                   "driver.no-permission", "driver", "yes"),
        devices)


def write():
    debian_buster()
    rocm_terminal()
