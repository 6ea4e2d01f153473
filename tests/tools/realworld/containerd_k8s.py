# SPDX-License-Identifier: GPL-2.0-or-later
"""Kubernetes on containerd with the nvidia runtime configured but not the default one
(container.no-nvidia-runtime): pods that name no RuntimeClass for it, the NVIDIA device
plugin's own pod included, run under runc, the plugin cannot load NVML and the node offers
no nvidia.com/gpu. Written by tests/tools/mk-real-world-fixtures.py containerd_k8s."""
from realworld.common import dpkg, fresh, ini, real_world, ubuntu_os_release, w

TOPIC = "containerd_k8s"
FIXTURES = ("rw-k8s-containerd2-t4x4-nvidia-not-default", "k8s-containerd-nvidia-default-runtime")

# The CRI runtime part of /etc/containerd/config.toml as NVIDIA/k8s-device-plugin#1246 pasted
# it (between its two "........" elisions).
PASTED_CRI = '''    [plugins."io.containerd.cri.v1.runtime".containerd]
      default_runtime_name = "runc"

      [plugins."io.containerd.cri.v1.runtime".containerd.runtimes]

        [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia]
          base_runtime_spec = "/etc/containerd/cri-base.json"
          runtime_engine = ""
          runtime_root = ""
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia.options]
            BinaryName = "/usr/bin/nvidia-container-runtime"
            binaryName = "/usr/local/bin/runc"
            systemdCgroup = true

        [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc]
          base_runtime_spec = "/etc/containerd/cri-base.json"
          runtime_engine = ""
          runtime_root = ""
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options]
            binaryName = "/usr/local/bin/runc"
            systemdCgroup = true
'''


def driver_host(name, osrel, kernel, drv, built, gcc, sizes, bins):
    """A host with the NVIDIA driver `drv` loaded (nvidia and nvidia_uvm of those sizes, as
    /proc/modules, /sys/module and /proc/driver/nvidia/version show them) and the binaries
    given as empty stand-ins (only presence and mode are read). Returns (dst, root)."""
    dst, root = fresh(name)
    w(root, "etc/os-release", osrel)
    w(root, "proc/sys/kernel/osrelease", kernel + "\n")
    w(root, "proc/modules",
      f"nvidia_uvm {sizes[0]} 0 - Live 0x0000000000000000 (POE)\n"
      f"nvidia {sizes[1]} {sizes[2]} nvidia_uvm, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  {built}\n"
      f"GCC version:  gcc version {gcc} \n")
    for b in bins:
        w(root, b, b"", 0o755)
    return dst, root


def t4x4_nvidia_not_default():
    """NVIDIA/k8s-device-plugin#1246: one Dell server with four Tesla T4 (lspci: 3b:00.0,
    96:00.0, af:00.0, d8:00.0), an all-in-one Kubernetes node on containerd 2 (config version
    3: the io.containerd.cri.v1.runtime plugin); "Default runtime is runc, but I have "nvidia"
    runtime configured"; after installing the device plugin the node's Capacity and labels
    show no nvidia.com/gpu. #314 established that default_runtime_name = "nvidia" is required
    for the device plugin ("or else you get 'failed to load NVML' errors"), while `ctr run
    --gpus 0` works without it; the README shows a RuntimeClass for a non-default runtime
    (NVIDIA/k8s-device-plugin#1304)."""
    name = FIXTURES[0]
    drv = "570.124.06"
    # containerd and runc where the report's runtime options point (/usr/local/bin/runc), the
    # toolkit where its nvidia runtime's BinaryName points.
    dst, root = driver_host(
        name, ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy"), "5.15.0-139-generic",
        drv, "Fri Feb 21 20:24:39 UTC 2025", "12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)",
        (1794048, 60137472, 16),
        ("usr/local/bin/containerd", "usr/local/bin/runc", "usr/bin/nvidia-container-runtime",
         "usr/bin/nvidia-ctk", "usr/bin/nvidia-container-runtime-hook",
         "usr/bin/nvidia-container-cli", "usr/bin/nvidia-container-toolkit"))
    dpkg(root, {"nvidia-container-toolkit": "1.17.5-1", "nvidia-container-toolkit-base": "1.17.5-1",
                "libnvidia-container-tools": "1.17.5-1", "libnvidia-container1": "1.17.5-1"})
    w(root, "etc/containerd/config.toml",
      'version = 3\nroot = "/var/lib/containerd"\nstate = "/run/containerd"\n\n'
      '[plugins]\n  [plugins."io.containerd.cri.v1.runtime"]\n' + PASTED_CRI)
    # kubelet's device manager checkpoint with no resource registered: the node's Capacity in
    # the report lists no nvidia.com/gpu (nor any other extended resource).
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{}},"Checksum":1286926585}')
    devices = "[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n" + "".join(
        f"/dev/nvidia{i} = c 195:{i} 0666 0:0\n" for i in range(4)) + (
        "/dev/nvidia-uvm = c 508:0 0666 0:0\n/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n")
    ini(dst, TOPIC,
        "A Dell server with four Tesla T4 as an all-in-one Kubernetes node on containerd 2 "
        "(config version 3) whose CRI config has the nvidia runtime "
        "(/usr/bin/nvidia-container-runtime) but default_runtime_name = \"runc\": the NVIDIA "
        "device plugin's pod runs under runc and the node's capacity shows no nvidia.com/gpu",
        "Rebuilt from https://github.com/NVIDIA/k8s-device-plugin/issues/1246 (pasted: "
        "`kubectl describe node` with no nvidia.com/gpu in Capacity, lspci with four TU104GL "
        "[Tesla T4], 'Default runtime is runc, but I have \"nvidia\" runtime configured' and "
        "the CRI part of /etc/containerd/config.toml, kept as pasted); the requirement from "
        "https://github.com/NVIDIA/k8s-device-plugin/issues/314 and the RuntimeClass "
        "alternative from https://github.com/NVIDIA/k8s-device-plugin/pull/1304; not in the "
        "report and chosen here: the config's first lines (version = 3, which the "
        "io.containerd.cri.v1.runtime plugin name implies; root and state as containerd's "
        "defaults; the rest of the file is elided in the report), the driver 570.124.06 "
        "(its build line too), the kernel, Ubuntu 22.04.5, the toolkit 1.17.5 packages, "
        "containerd under /usr/local/bin beside the report's /usr/local/bin/runc, kubelet's "
        "device manager checkpoint with no resource registered (kubernetes "
        "pkg/kubelet/cm/devicemanager/checkpoint; written from the report's Capacity, its "
        "checksum a placeholder), the device nodes as the driver makes them (nvidia-uvm's "
        "dynamic major a placeholder); the GPUs' PCI tree is not written (hardware unknown); "
        "binaries are empty stand-ins (only presence and mode are read)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/NVIDIA/k8s-device-plugin/issues/1246",
            "Default runtime is runc, but I have \"nvidia\" runtime configured. (no "
            "nvidia.com/gpu in the node's Capacity)",
            "containerd's default runtime is runc, so the device plugin's pod gets no NVIDIA "
            "runtime and cannot load NVML; default_runtime_name = \"nvidia\" is required "
            "(NVIDIA/k8s-device-plugin#314) or a RuntimeClass (NVIDIA/k8s-device-plugin#1304)",
            "container.no-nvidia-runtime", "container", "yes"),
        devices)


def nvidia_default_runtime():
    """The negative: the containerd config `nvidia-ctk runtime configure --runtime=containerd
    --set-as-default` writes where none existed, as NVIDIA/nvidia-docker#1788 pasted it and the
    maintainer confirmed ("yes, this looks correct"): nvidia is the default runtime, and the
    device plugin registered nvidia.com/gpu. No finding of container.no-nvidia-runtime."""
    name = FIXTURES[1]
    drv = "525.105.17"
    dst, root = driver_host(
        name, ubuntu_os_release("22.04.3", "Jammy Jellyfish", "jammy"), "5.15.0-79-generic",
        drv, "Sat Mar 18 01:37:16 UTC 2023", "11.3.0 (Ubuntu 11.3.0-1ubuntu1~22.04)",
        (1441792, 56201216, 2),
        ("usr/bin/containerd", "usr/bin/nvidia-container-runtime", "usr/bin/nvidia-ctk",
         "usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-container-cli",
         "usr/bin/nvidia-container-toolkit"))
    dpkg(root, {"nvidia-container-toolkit": "1.14.2-1", "nvidia-container-toolkit-base": "1.14.2-1",
                "libnvidia-container-tools": "1.14.2-1", "libnvidia-container1": "1.14.2-1",
                "containerd.io": "1.6.22-1"})
    w(root, "etc/containerd/config.toml",
      'version = 2\n[plugins]\n  [plugins."io.containerd.grpc.v1.cri"]\n'
      '    [plugins."io.containerd.grpc.v1.cri".containerd]\n'
      '      default_runtime_name = "nvidia"\n\n'
      '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes]\n'
      '        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]\n'
      '          privileged_without_host_devices = false\n'
      '          runtime_engine = ""\n          runtime_root = ""\n'
      '          runtime_type = "io.containerd.runc.v2"\n\n'
      '          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]\n'
      '            BinaryName = "/usr/bin/nvidia-container-runtime"\n'
      '            SystemdCgroup = true\n')
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":'
      '["GPU-00000000-0000-0000-0000-000000000000"]}},"Checksum":2733540519}')
    devices = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
               "/dev/nvidia-uvm = c 508:0 0666 0:0\n/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n")
    ini(dst, TOPIC,
        "A Kubernetes node on containerd 1.6 whose CRI config has the nvidia runtime as its "
        "default (default_runtime_name = \"nvidia\"), as `nvidia-ctk runtime configure "
        "--runtime=containerd --set-as-default` writes it, and whose kubelet has "
        "nvidia.com/gpu registered: containerd hands pods the GPU",
        "The containerd config from https://github.com/NVIDIA/nvidia-docker/issues/1788 "
        "(written by nvidia-ctk 1.14.2 with --set-as-default, SystemdCgroup added; the "
        "maintainer: 'yes, this looks correct'), the versions pasted there (Ubuntu 22.04.3, "
        "kernel 5.15.0-79-generic, containerd 1.6.22, driver 525.105.17, nvidia-container-cli "
        "1.14.2); that report's own problem (a vGPU test) is not this fixture's: it is the "
        "negative of container.no-nvidia-runtime's containerd default-runtime check; chosen "
        "here: the driver's build line, one GPU's device nodes (nvidia-uvm's dynamic major a "
        "placeholder), kubelet's device manager checkpoint with nvidia.com/gpu registered "
        "(kubernetes pkg/kubelet/cm/devicemanager/checkpoint; the UUID and checksum "
        "placeholders); binaries are empty stand-ins (only presence and mode are read)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        "", devices)


def write():
    t4x4_nvidia_not_default()
    nvidia_default_runtime()
