# SPDX-License-Identifier: GPL-2.0-or-later
"""Kubernetes nodes on Docker whose NVIDIA runtime is configured but is not Docker's default:
kubelet starts the NVIDIA device plugin's pod with runc, without the driver's libraries
(container.no-nvidia-runtime's kubelet/Docker check). Written by
tests/tools/mk-real-world-fixtures.py kubelet_docker."""
from realworld.common import dpkg, ini, real_world, ubuntu_os_release, w
from realworld.containerd_k8s import driver_host

TOPIC = "kubelet_docker"
FIXTURES = ("rw-k8s18-gtx1070-runtime-not-default-k8s-device-plugin-13",)


def nvidia_docker2_k8s_node(name, kernel, drv, built, pkgs):
    """An Ubuntu 16.04.3 Kubernetes node on Docker with the NVIDIA driver `drv` loaded and
    nvidia-docker2 installed (the packages pkgs, as dpkg records them): daemon.json as the
    package installs it (the nvidia runtime, not the default), kubelet's device manager
    checkpoint with no resource registered. Returns (dst, root, the [devices] section)."""
    dst, root = driver_host(
        name, ubuntu_os_release("16.04.3", "Xenial Xerus", "xenial", logo=False), kernel, drv,
        built, "5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.5)", (659456, 13807616, 2),
        ("usr/bin/dockerd", "usr/bin/docker", "usr/bin/nvidia-container-runtime",
         "usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-container-cli",
         "usr/bin/nvidia-docker"))
    # the daemon.json the nvidia-docker2 package installs: the runtime, no default-runtime
    w(root, "etc/docker/daemon.json",
      '{\n    "runtimes": {\n        "nvidia": {\n'
      '            "path": "/usr/bin/nvidia-container-runtime",\n'
      '            "runtimeArgs": []\n        }\n    }\n}\n')
    dpkg(root, pkgs)
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{}},"Checksum":1286926585}')
    devices = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
               "/dev/nvidia-uvm = c 243:0 0666 0:0\n/dev/nvidia-uvm-tools = c 243:1 0666 0:0\n")
    return dst, root, devices


def gtx1070_runtime_not_default():
    """NVIDIA/k8s-device-plugin#13: a Kubernetes 1.8 node with a GeForce GTX 1070, kubelet
    started with --feature-gates=DevicePlugins=true; the device plugin's daemonset pod is in
    CrashLoopBackOff while `docker run --runtime=nvidia … nvidia/k8s-device-plugin:1.8`
    registers the plugin ("Loading NVML / Starting to serve … / Registered device plugin with
    Kubelet"); flx42: the nvidia runtime is not Docker's default runtime, add
    "default-runtime": "nvidia" to /etc/docker/daemon.json; the reporter: "yeah, it works!"."""
    name = FIXTURES[0]
    url = "https://github.com/NVIDIA/k8s-device-plugin/issues/13"
    dst, root, devices = nvidia_docker2_k8s_node(
        name, "4.4.0-103-generic", "384.90", "Tue Sep 19 19:17:35 PDT 2017",
        {"nvidia-docker2": "2.0.1+docker17.09.0-1",
         "nvidia-container-runtime": "1.1.0+docker17.09.0-1",
         "libnvidia-container-tools": "1.0.0~alpha.3-1", "libnvidia-container1": "1.0.0~alpha.3-1"})
    ini(dst, TOPIC,
        "A Kubernetes 1.8 node with a GTX 1070 and nvidia-docker2: `docker run "
        "--runtime=nvidia` starts the device plugin fine, but Docker's default runtime is "
        "still runc, so kubelet starts the plugin's daemonset pod without the NVIDIA "
        "libraries and it crash-loops; \"default-runtime\": \"nvidia\" in daemon.json fixed it",
        f"Rebuilt from {url} (pasted: 'nvidia-device-plugin-daemonset-csjxw 0/1 "
        "CrashLoopBackOff 12', the plugin started by hand with `docker run --runtime=nvidia -it "
        "-v /var/lib/kubelet/device-plugins:/var/lib/kubelet/device-plugins "
        "nvidia/k8s-device-plugin:1.8` registering ('Loading NVML', 'Registered device plugin "
        "with Kubelet'), kubelet with --feature-gates=DevicePlugins=true, 'my Nividia is "
        "GeForce GTX 1070'; flx42: 'I think it's because you didn't set the nvidia runtime as "
        "the default runtime … add \"default-runtime\": \"nvidia\", to "
        "/etc/docker/daemon.json', the reporter: 'yeah, it works!'); /etc/docker/daemon.json "
        "as the nvidia-docker2 package installs it (the nvidia runtime, no default-runtime); "
        "placeholders, not in the report: the distribution (Ubuntu 16.04.3) and its kernel, "
        "the driver (384.90, that autumn's release, with its build line) and the package "
        "versions of that month, the device nodes (nvidia-uvm's dynamic major), kubelet's "
        "device manager checkpoint with no resource registered (from the pod's crash loop; "
        "its checksum a placeholder); the GPU's PCI tree is not written (hardware unknown); "
        "binaries are empty stand-ins",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            url, "nvidia-device-plugin-daemonset-csjxw   0/1       CrashLoopBackOff   12",
            "the nvidia runtime is registered with Docker but is not its default runtime; "
            "kubelet starts the device plugin's pod with runc (the maintainer); adding "
            "\"default-runtime\": \"nvidia\" to /etc/docker/daemon.json made it work (the "
            "reporter)",
            "container.no-nvidia-runtime", "container", "yes"),
        devices)


def write():
    gtx1070_runtime_not_default()
