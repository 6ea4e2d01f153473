# SPDX-License-Identifier: GPL-2.0-or-later
"""A GPU container in CDI mode: the NVIDIA Container Toolkit's CDI edits set
NVIDIA_VISIBLE_DEVICES=void in the container (so that the legacy hook injects nothing over
the CDI devices) while the GPU's device nodes and the driver's libraries are there. Nothing
is wrong: container.visible-devices-void must not call it a container without GPUs.
Written by tests/tools/mk-real-world-fixtures.py cdi_void."""
from realworld.common import SRC_BASE, base_root, driver_libs, ini, real_world, w

TOPIC = "cdi_void"
FIXTURES = ("rw-l40s-k8s-cdi-mode-visible-devices-void",)
DRIVER = "570.195.03"
URL = "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1429"


def l40s_cdi_pod():
    name = "rw-l40s-k8s-cdi-mode-visible-devices-void"
    # 10de:26b9 AD102GL [L40S] (pci.ids), no audio function on the data-center board
    dst, root = base_root(name, 0x26b9, 0x1851, "NVIDIA L40S", DRIVER)
    # the driver's libraries as the CDI spec mounts them (versioned files, the .so.1 links
    # its update-ldcache hook makes); no unversioned development link
    driver_libs(root, DRIVER, dev_links=())
    w(root, "proc/1/cgroup", "0::/\n")
    # the pod's root as containerd's overlayfs snapshotter mounts it (proc(5) mountinfo):
    # with cgroup v2 and no /.dockerenv, the only sign of a container
    snap = "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots"
    w(root, "proc/self/mountinfo",
      f"1203 1120 0:190 / / rw,relatime master:469 - overlay overlay rw,lowerdir={snap}/1021/"
      f"fs:{snap}/1020/fs,upperdir={snap}/1033/fs,workdir={snap}/1033/work\n"
      "1204 1203 0:193 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
      "1205 1203 0:194 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755,inode64\n"
      "1210 1203 0:189 / /sys ro,nosuid,nodev,noexec,relatime - sysfs sysfs ro\n")
    ini(dst, TOPIC,
        "A Kubernetes pod that requested one L40S (nvidia.com/l40s: '1') on a node whose "
        "containerd 1.7.22 runs the NVIDIA Container Toolkit 1.18.0 in CDI mode: the toolkit's "
        "CDI edits put NVIDIA_VISIBLE_DEVICES=void into the container's environment (twice, "
        "the report's question) and give it the GPU's device nodes and the driver's libraries "
        "themselves; the GPU is there",
        "Rebuilt from " + URL + " (pasted: 'nvidia-container-toolkit: 1.18.0', 'containerd: "
        "1.7.22', the pod's request `nvidia.com/l40s: '1'`, the container's config.json under "
        "/data/containerd-state/io.containerd.runtime.v2.task/k8s.io/ with "
        "NVIDIA_VISIBLE_DEVICES=void in its env, and the toolkit's internal/modifier/cdi.go of "
        "v1.18.0 that adds it for CDI devices); why the variable is there: the toolkit's CDI "
        "specs set NVIDIA_VISIBLE_DEVICES=void so that the NVIDIA Container Runtime Hook does "
        "not inject devices as well (NVIDIA/nvidia-container-toolkit#395, its maintainer); "
        "placeholders, not in the report: the driver 570.195.03 (an R570 release: the report "
        "names none), the GPU's subsystem id and bus position, /dev/nvidia0 as the GPU's node, "
        "cgroup v2's /proc/1/cgroup, the pod's /proc/self/mountinfo (an overlay root of "
        "containerd's overlayfs snapshotter under its default /var/lib/containerd), the node's kernel, module tree and Ubuntu 24.04 "
        "os-release from the base fixture, libcuda and libnvidia-ml as the spec mounts them "
        "(tiny gcc-built ELF stand-ins with the real SONAMEs); " + SRC_BASE,
        {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                 "/usr/sbin:/usr/bin:/sbin:/bin",
         "NVIDIA_VISIBLE_DEVICES": "void", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
         "KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"},
        real_world(
            URL,
            "NVIDIA_VISIBLE_DEVICES=void (twice in the env of the GPU container's config.json; "
            "the pod requests nvidia.com/l40s: '1')",
            "nothing is wrong with the pod's GPU: in CDI mode the toolkit sets "
            "NVIDIA_VISIBLE_DEVICES=void on purpose, so that the legacy hook does not inject "
            "devices over the CDI ones (NVIDIA/nvidia-container-toolkit#395); the GPU's nodes "
            "and libraries come from the CDI edits",
            "none", "none", "no"),
        "[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
        "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")


def write():
    l40s_cdi_pod()
