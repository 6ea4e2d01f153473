# SPDX-License-Identifier: GPL-2.0-or-later
"""K3s nodes: K3s runs the containerd built into it, which reads the config.toml K3s writes
under /var/lib/rancher/k3s/agent/etc/containerd at every start, not /etc/containerd/config.toml;
K3s adds the nvidia runtime it finds there without making it the default, so the NVIDIA device
plugin's pod, which names no RuntimeClass, runs under runc without NVML (docs.k3s.io "NVIDIA
Container Runtime Support"; the maintainer in
https://github.com/NVIDIA/k8s-device-plugin/issues/406). container.no-nvidia-runtime. Written
by tests/tools/mk-real-world-fixtures.py k3s."""
from realworld.common import fresh, ini, real_world, w

TOPIC = "k3s"
FIXTURES = ("rw-k3s-runtime-not-default-k8s-device-plugin-406",)

K3S_CONFIG = "var/lib/rancher/k3s/agent/etc/containerd/config.toml"


def device_plugin_406():
    # NVIDIA/k8s-device-plugin#406: the device plugin v0.14.0's pod in CrashLoopBackOff on K3s;
    # the reporter (zachfi) had pointed at /etc/containerd/config.toml; the maintainer: K3s's
    # config is /var/lib/rancher/k3s/agent/etc/containerd/config.toml, and "If it is (but is
    # not the default runtime), specifying the nvidia runtime class name for the device plugin
    # pod too may address this"; the reporter's `grep nvidia` of that file shows the nvidia
    # runtime and its BinaryName, no default_runtime_name naming it, and the file begins
    # "version = 2" and the opt plugin's path.
    dst, root = fresh(FIXTURES[0])
    w(root, K3S_CONFIG,
      "version = 2\n"
      "[plugins.\"io.containerd.internal.v1.opt\"]\n"
      "  path = \"/var/lib/rancher/k3s/agent/containerd\"\n"
      "\n"
      "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.\"nvidia\"]\n"
      "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.\"nvidia\".options]\n"
      "  BinaryName = \"/usr/bin/nvidia-container-runtime\"\n")
    w(root, "usr/bin/nvidia-container-runtime", b"", 0o755)
    # kubelet's device manager checkpoint (K3s's kubelet keeps /var/lib/kubelet): the crash-
    # looping plugin has registered no resource
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{}},"Checksum":1286926585}')
    ini(dst, TOPIC,
        "A K3s node whose own containerd has the nvidia runtime K3s found, not as its default "
        "runtime: the NVIDIA device plugin v0.14.0's pod runs under runc and crash-loops, no "
        "nvidia.com/gpu is registered",
        "Rebuilt from https://github.com/NVIDIA/k8s-device-plugin/issues/406 (pasted: the "
        "device plugin v0.14.0 pod in CrashLoopBackOff on containerd, the reporter's `grep "
        "nvidia /var/lib/rancher/k3s/agent/etc/containerd/config.toml` (the nvidia runtime's "
        "two tables and BinaryName = \"/usr/bin/nvidia-container-runtime\", kept as pasted) "
        "and the file's first lines, version = 2 and the io.containerd.internal.v1.opt plugin "
        "table, whose path the excerpt cuts after \"/var/lib/rancher/k3s/agent/co\"; the "
        "maintainer's reading of it: the nvidia runtime defined but not the default); not in "
        "the report and chosen here: the opt path completed as K3s writes it "
        "(/var/lib/rancher/k3s/agent/containerd), the rest of K3s's generated file left out "
        "(the excerpt ends there; K3s writes a runc runtime too, not shown), "
        "/usr/bin/nvidia-container-runtime as the BinaryName names it, kubelet's device "
        "manager checkpoint with no resource registered (written from the crash-looping "
        "plugin, which registers none; kubernetes pkg/kubelet/cm/devicemanager/checkpoint, its "
        "checksum a placeholder), the driver's control node and one GPU node at its fixed "
        "major 195; the k3s binary, /etc/containerd/config.toml (mentioned, not shown), the "
        "GPU, the driver's modules and version and the distribution are not shown and left "
        "out; binaries are empty stand-ins (only presence and mode are read)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/NVIDIA/k8s-device-plugin/issues/406",
            "nvidia-device-plugin-daemonset … CrashLoopBackOff (device plugin v0.14.0, "
            "container runtime containerd, K3s)",
            "K3s's containerd reads /var/lib/rancher/k3s/agent/etc/containerd/config.toml, "
            "where the nvidia runtime K3s found is defined but is not the default runtime "
            "(runc), so the device plugin's pod, naming no runtime class, gets no NVML; the "
            "maintainer: give the device plugin's pod the nvidia runtime class",
            "container.no-nvidia-runtime", "container", "yes"),
        "[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n")


def write():
    device_plugin_406()
