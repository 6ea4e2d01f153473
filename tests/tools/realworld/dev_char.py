# SPDX-License-Identifier: GPL-2.0-or-later
"""Docker hosts where systemd manages the containers' cgroups and /dev/char has no link to the
NVIDIA device nodes: runc names each device it allows to systemd by /dev/char/MAJOR:MINOR and
skips the missing ones, so `systemctl daemon-reload` takes the GPU away from running
containers ("Failed to initialize NVML: Unknown Error"; NVIDIA's notice,
https://github.com/NVIDIA/nvidia-docker/issues/1730). container.dev-char-links-missing.
Written by tests/tools/mk-real-world-fixtures.py dev_char."""
from realworld.common import dpkg, fresh, ini, link, real_world, ubuntu_os_release, w

TOPIC = "dev_char"
FIXTURES = ("rw-devchar-jammy-nvidia-docker-1671", "devchar-links-made-by-nvidia-ctk",
            "rw-devchar-containerd-nvidia-container-toolkit-251")

# The /dev/char links udev makes for the kernel's own nodes (memory devices, major 1: null,
# zero, random, urandom), as on any systemd host; the NVIDIA nodes get none.
UDEV_CHAR = (("1:3", "../null"), ("1:5", "../zero"), ("1:8", "../random"),
             ("1:9", "../urandom"))
NVIDIA_NODES = "[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n" \
    "/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidia-modeset = c 195:254 0666 0:0\n" \
    "/dev/nvidia-uvm = c 508:0 0666 0:0\n/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n" \
    "/dev/null = c 1:3 0666 0:0\n/dev/zero = c 1:5 0666 0:0\n/dev/random = c 1:8 0666 0:0\n" \
    "/dev/urandom = c 1:9 0666 0:0\n"
DRIVER = "510.68.02"


def jammy_host(name):
    """Ubuntu 22.04 (kernel 5.15.0-46-generic #49-Ubuntu) with the NVIDIA driver 510.68.02
    loaded, cgroup v2 (jammy's default: the unified hierarchy's cgroup.controllers), Docker
    without a daemon.json and the NVIDIA Container Toolkit 1.10.0 (the hook `--gpus` uses)."""
    dst, root = fresh(name)
    w(root, "etc/os-release", ubuntu_os_release("22.04.1", "Jammy Jellyfish", "jammy"))
    w(root, "proc/sys/kernel/osrelease", "5.15.0-46-generic\n")
    w(root, "proc/modules",
      "nvidia_uvm 1265664 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1142784 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia 40837120 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", DRIVER + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Tue Apr 26 01:51:59 UTC 2022\n"
      "GCC version:  gcc version 11.2.0 (Ubuntu 11.2.0-19ubuntu1) \n")
    w(root, "sys/fs/cgroup/cgroup.controllers",
      "cpuset cpu io memory hugetlb pids rdma misc\n")
    for b in ("usr/bin/dockerd", "usr/bin/nvidia-container-runtime-hook",
              "usr/bin/nvidia-container-cli", "usr/bin/nvidia-container-toolkit"):
        w(root, b, b"", 0o755)
    dpkg(root, {"nvidia-container-toolkit": "1.10.0-1", "libnvidia-container-tools": "1.10.0-1",
                "libnvidia-container1": "1.10.0-1"})
    for n, target in UDEV_CHAR:
        link(root, f"dev/char/{n}", target)
    return dst, root


SOURCE_COMMON = (
    "not in the report and chosen here: Ubuntu 22.04.1's os-release (the kernel "
    "5.15.0-46-generic #49-Ubuntu is jammy's), cgroup v2 (jammy's default; its "
    "cgroup.controllers as a jammy kernel lists them), the driver's build line and module "
    "sizes, one GPU node /dev/nvidia0 (the GPUs are not listed in the excerpt), nvidia-uvm's "
    "dynamic major 508 a placeholder, Docker without a daemon.json (none is shown; dockerd's "
    "default cgroup driver on cgroup v2 is systemd), the toolkit's deb packages at the "
    "1.10.0 that nvidia-container-cli's log names, udev's /dev/char links of the memory "
    "devices; the GPUs' PCI tree is not written (hardware unknown); binaries are empty "
    "stand-ins (only presence and mode are read)")


def jammy_no_links():
    """NVIDIA/nvidia-docker#1671 (a comment of kevin-bockman's, 2022-09-02): `docker run --gpus
    all … nvidia-smi` works until `systemctl daemon-reload` on the host, then "Failed to
    initialize NVML: Unknown Error" in the same running container; `uname -a`: 5.15.0-46-generic
    #49-Ubuntu; nvidia-smi: driver 510.68.02; nvidia-container-cli's log: library version
    1.10.0. klueska in the thread (2023-02-06): runc needs /dev/char symlinks to the injected
    device nodes, the NVIDIA ones have none; the fix `sudo nvidia-ctk system
    create-dev-char-symlinks --create-all` (toolkit 1.12.0), or Docker's cgroupfs driver
    (NVIDIA's notice, NVIDIA/nvidia-docker#1730)."""
    dst, _ = jammy_host(FIXTURES[0])
    ini(dst, TOPIC,
        "Ubuntu 22.04 (5.15.0-46-generic) with the NVIDIA driver 510.68.02 and Docker using "
        "the NVIDIA Container Toolkit 1.10.0's hook on cgroup v2, where dockerd's default "
        "cgroup driver is systemd; /dev/char has no link to any /dev/nvidia* node, so GPU "
        "containers lose the GPU at every systemctl daemon-reload",
        "Rebuilt from https://github.com/NVIDIA/nvidia-docker/issues/1671 (pasted: the docker "
        "run with --gpus all, nvidia-smi working in the container and 'Failed to initialize "
        "NVML: Unknown Error' after systemctl daemon-reload on the host, `uname -a` "
        "5.15.0-46-generic #49-Ubuntu, nvidia-smi's driver 510.68.02, nvidia-container-cli's "
        "log: version=1.10.0); the cause and the fix from the maintainer in the same thread "
        "and NVIDIA's notice https://github.com/NVIDIA/nvidia-docker/issues/1730; "
        + SOURCE_COMMON,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/NVIDIA/nvidia-docker/issues/1671",
            "(on host) systemctl daemon-reload; (inside same running container) nvidia-smi: "
            "Failed to initialize NVML: Unknown Error",
            "with systemd managing the container's cgroup (Docker's default on cgroup v2) "
            "runc needs /dev/char symlinks to the device nodes it injects and the NVIDIA nodes "
            "have none, so a daemon-reload drops the GPUs from the container; fixed by "
            "nvidia-ctk system create-dev-char-symlinks --create-all, or the cgroupfs driver "
            "(the maintainer in the thread; NVIDIA/nvidia-docker#1730)",
            "container.dev-char-links-missing", "container", "yes"),
        NVIDIA_NODES)


def jammy_links_made():
    """The negative: the same host after `sudo nvidia-ctk system create-dev-char-symlinks
    --create-all`, which links /dev/char/MAJOR:MINOR to every NVIDIA node (its log lines
    "Creating link /dev/char/195:254 => /dev/nvidia-modeset", … in Azure/aks-gpu#106; the fix
    of NVIDIA/nvidia-docker#1730, confirmed in NVIDIA/nvidia-docker#1748). No finding of
    container.dev-char-links-missing."""
    dst, root = jammy_host(FIXTURES[1])
    w(root, "usr/bin/nvidia-ctk", b"", 0o755)
    for n, target in (("195:0", "../nvidia0"), ("195:254", "../nvidia-modeset"),
                      ("195:255", "../nvidiactl"), ("508:0", "../nvidia-uvm"),
                      ("508:1", "../nvidia-uvm-tools")):
        link(root, f"dev/char/{n}", target)
    ini(dst, TOPIC,
        "The Ubuntu 22.04 Docker host of rw-devchar-jammy-nvidia-docker-1671 after nvidia-ctk "
        "system create-dev-char-symlinks --create-all: every /dev/nvidia* node has its "
        "/dev/char/MAJOR:MINOR link, and a daemon-reload keeps the GPUs in the containers",
        "The negative of container.dev-char-links-missing: the links nvidia-ctk makes "
        "(https://github.com/NVIDIA/nvidia-docker/issues/1730, its workaround; the link names "
        "as nvidia-ctk logs them in https://github.com/Azure/aks-gpu/pull/106); "
        + SOURCE_COMMON + "; nvidia-ctk an empty stand-in too",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        NVIDIA_NODES)


def containerd_systemd_cgroup_v1():
    """NVIDIA/nvidia-container-toolkit#251 (moved from NVIDIA/nvidia-docker#1650): Kubernetes
    on containerd, "Failed to initialize NVML: Unknown Error" in a running GPU pod after
    `systemctl daemon-reload`; kernel 5.10.23, systemd 239; bpftrace shows systemd itself
    rewriting the device rules of the pod's cri-containerd-<id> scope to "c 195:* m" (the
    scope is systemd's: containerd's runc runtime with SystemdCgroup = true), cgroup v1
    (devices.list; "Currently I'm not able to use cgroup V2"); nvidia-container-cli's log
    selects the driver 460.91.03's libraries. The cause, systemd reapplying device rules that
    lack the NVIDIA nodes for want of /dev/char links, and its fixes: NVIDIA's notice
    NVIDIA/nvidia-container-toolkit#48 (= nvidia-docker#1730)."""
    name = FIXTURES[2]
    dst, root = fresh(name)
    drv = "460.91.03"
    w(root, "proc/sys/kernel/osrelease", "5.10.23\n")
    w(root, "proc/modules",
      "nvidia_uvm 1011712 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia 34136064 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    # cgroup v1: the devices controller's hierarchy, no cgroup.controllers at the root
    w(root, "sys/fs/cgroup/devices/devices.list", "a *:* rwm\n")
    for b in ("usr/bin/containerd", "usr/bin/nvidia-container-runtime",
              "usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-container-cli"):
        w(root, b, b"", 0o755)
    w(root, "etc/containerd/config.toml",
      'version = 2\n[plugins]\n  [plugins."io.containerd.grpc.v1.cri"]\n'
      '    [plugins."io.containerd.grpc.v1.cri".containerd]\n'
      '      default_runtime_name = "nvidia"\n'
      '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes]\n'
      '        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]\n'
      '          runtime_type = "io.containerd.runc.v2"\n'
      '          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]\n'
      '            BinaryName = "/usr/bin/nvidia-container-runtime"\n'
      '            SystemdCgroup = true\n')
    for n, target in UDEV_CHAR:
        link(root, f"dev/char/{n}", target)
    # kubelet's device manager checkpoint with nvidia.com/gpu registered: the pod got its GPU
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":'
      '["GPU-00000000-0000-0000-0000-000000000000"]}},"Checksum":0}')
    ini(dst, TOPIC,
        "A Kubernetes node on containerd (kernel 5.10.23, systemd 239, cgroup v1) whose nvidia "
        "runtime runs runc with SystemdCgroup = true, with the NVIDIA driver 460.91.03 and no "
        "/dev/char link to the /dev/nvidia* nodes: a systemctl daemon-reload rewrites the GPU "
        "pods' device rules without the GPUs",
        "Rebuilt from https://github.com/NVIDIA/nvidia-container-toolkit/issues/251 (pasted: "
        "'Failed to initialize NVML: Unknown Error' after systemctl daemon-reload, kernel "
        "5.10.23 and systemd 239, the bpftrace lines of systemd and runc writing device rules "
        "for the cri-containerd-<id> scopes (c 195:0 rw, c 195:254 rw, c 195:255 rw; after the "
        "reload systemd's c 195:* m only), the container's cgroup v1 devices.list, "
        "nvidia-container-cli's log selecting the 460.91.03 libraries); the cause and fixes "
        "from NVIDIA's notice https://github.com/NVIDIA/nvidia-container-toolkit/issues/48; "
        "not in the report and derived or chosen here: containerd's config.toml (a runc "
        "runtime named nvidia running /usr/bin/nvidia-container-runtime, SystemdCgroup = "
        "true: the scopes systemd manages for containerd's pods are what that setting makes; "
        "the runtime's name and default_runtime_name chosen), the nodes the bpftrace lines "
        "name (195:0, 195:254, 195:255) and nvidia-uvm's (its dynamic major 508 a "
        "placeholder), the host's root devices.list of cgroup v1, udev's /dev/char links of "
        "the memory devices, kubelet's checkpoint with nvidia.com/gpu registered (its device "
        "id and checksum placeholders), the module sizes; no os-release (the distribution is "
        "not named); the GPUs' PCI tree is not written (hardware unknown); binaries are empty "
        "stand-ins (only presence and mode are read)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/NVIDIA/nvidia-container-toolkit/issues/251",
            "Failed to initialize NVML: Unknown Error (in the running pod, after systemctl "
            "daemon-reload)",
            "systemd manages the pods' cgroups (containerd's SystemdCgroup) and reapplies "
            "device rules that leave out the NVIDIA nodes, which have no /dev/char links; "
            "fixed by nvidia-ctk system create-dev-char-symlinks --create-all (NVIDIA's "
            "notice, NVIDIA/nvidia-container-toolkit#48)",
            "container.dev-char-links-missing", "container", "yes"),
        NVIDIA_NODES)


def write():
    jammy_no_links()
    jammy_links_made()
    containerd_systemd_cgroup_v1()
