# SPDX-License-Identifier: GPL-2.0-or-later
"""A third round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (fixrw-g), from the places the first two rounds left out: a Kubernetes node on
Docker whose GPU pods need Docker's default runtime, and driver upgrades on shared servers (a
Slurm node's unattended upgrade, a Debian server whose upgrade stopped half-way so that a
reboot brought the old module back), each only as far as its thread shows it. The scores
before any change are in docs/HACKING.md ("Reports an outside evaluator would pick", third
round)."""
from realworld.common import dpkg, ini, real_world, section, w
from realworld.containerd_k8s import driver_host
from realworld.driver import (DEBIAN12, FAKE_ARGS, SRC_FAKES, SRC_LDSO, fakes, kern_log,
                              userspace)
from realworld.common import SRC_BASE, ldso_cache, ubuntu_os_release
from realworld.upgrades import host

TOPIC = "outside3"
FIXTURES = ("rw-k8s115-docker1903-gpus-hook-not-default-runtime",
            "k8s-docker-nvidia-default-runtime",
            "rw-debian-525-userspace-520-module-upgrade-half-done",
            "rw-slurm-ubuntu2004-unattended-upgrade-460.73-under-460.56",
            "rw-k8s18-nvidia-docker2-runtime-not-default",
            "rw-ubuntu2204-run-570.124.04-userspace-p2p-570.124.06-module")
NV_BASE = "rtx4090-open-module"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
UBUNTU1804 = ubuntu_os_release("18.04.3", "Bionic Beaver", "bionic", logo=False)
UBUNTU2004 = ubuntu_os_release("20.04.2", "Focal Fossa", "focal")


def k8s_docker1903_hook_only():
    """NVIDIA/k8s-device-plugin#139: Kubernetes 1.15 on Docker 19.03 with the NVIDIA container
    toolkit's prestart hook only: `docker run --gpus all` works, but kubelet starts pods
    (the device plugin's included) with Docker's default runtime, runc, and the plugin
    cannot load NVML; the maintainer: install nvidia-docker2 and set the runtime to nvidia."""
    name = FIXTURES[0]
    url = "https://github.com/NVIDIA/k8s-device-plugin/issues/139"
    drv = "418.87.01"
    dst, root = driver_host(
        name, UBUNTU1804, "4.15.0-64-generic", drv, "Thu Aug 29 00:00:00 UTC 2019",
        "7.4.0 (Ubuntu 7.4.0-1ubuntu1~18.04.1)", (864256, 19472384, 2),
        ("usr/bin/dockerd", "usr/bin/docker", "usr/bin/nvidia-container-toolkit",
         "usr/bin/nvidia-container-cli"))
    # The device plugin never registered: kubelet's checkpoint lists no resource.
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{}},"Checksum":1286926585}')
    devices = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
               "/dev/nvidia-uvm = c 241:0 0666 0:0\n/dev/nvidia-uvm-tools = c 241:1 0666 0:0\n")
    pasted = ("2019/09/30 12:34:07 Failed to initialize NVML: could not load NVML library. / "
              "If this is a GPU node, did you set the docker default runtime to `nvidia`? / "
              "Docker version 19.03.2, build 6a30dfc / kubeadm version: GitVersion:\"v1.15.0\" / "
              "$ sudo docker run --gpus all --rm nvidia/k8s-device-plugin:1.0.0-beta "
              "nvidia-device-plugin / Loading NVML / Fetching devices.")
    ini(dst, TOPIC,
        "A Kubernetes 1.15 node on Docker 19.03 with the NVIDIA container toolkit's hook "
        "(nvidia-container-toolkit) and no nvidia runtime: `docker run --gpus all` hands a "
        "container the GPU, but kubelet runs pods through Docker's default runtime (runc), "
        "so the NVIDIA device plugin's pod cannot load NVML and the node offers no "
        "nvidia.com/gpu; the maintainer: install nvidia-docker2 and set the nvidia runtime "
        "as Docker's default",
        f"Rebuilt from {url} (pasted: the device plugin's log 'Failed to initialize NVML: "
        "could not load NVML library. If this is a GPU node, did you set the docker default "
        "runtime to `nvidia`?', 'Docker version 19.03.2, build 6a30dfc', kubeadm/kubectl "
        "v1.15.0, the plugin run by hand under `docker run --gpus all` loading NVML and "
        "fetching devices; RenaudWasTaken: 'For kubernetes, you should install the "
        "nvidia-docker2 package and then set the runtime to nvidia'; the same state in "
        "https://github.com/NVIDIA/k8s-device-plugin/issues/168: 'nvidia-container-toolkit "
        "doesn't provide an \"nvidia\" runtime, so I can't make it the default'); "
        "placeholders, not in the report: the driver 418.87.01 and its build line, Ubuntu "
        "18.04.3 and its kernel, the device nodes (nvidia-uvm's dynamic major), no "
        "/etc/docker/daemon.json (Docker 19.03's `--gpus` needs none, and the maintainer's "
        "fix is to add the runtime), kubelet's device manager checkpoint with no resource "
        "registered (kubernetes pkg/kubelet/cm/devicemanager/checkpoint; from the plugin's "
        "failure, its checksum a placeholder); the GPU's PCI tree is not written (hardware "
        "unknown); binaries are empty stand-ins (only presence and mode are read)",
        PATH,
        real_world(
            url, pasted,
            "kubelet (through Docker) starts pods with Docker's default runtime, runc; the "
            "toolkit's hook only serves `docker run --gpus`: the device plugin's pod gets no "
            "NVIDIA libraries; install the nvidia runtime and make it Docker's "
            "default-runtime",
            "container.no-nvidia-runtime", "container", "yes"),
        devices)


def k8s_docker_nvidia_default():
    """The negative: the same node after the maintainer's fix, Docker's daemon.json as the
    k8s-device-plugin README of the time gives it (the nvidia runtime and "default-runtime":
    "nvidia", as NVIDIA/k8s-device-plugin#60 and #182 pasted it), and the plugin registered
    nvidia.com/gpu. No finding of container.no-nvidia-runtime."""
    name = FIXTURES[1]
    drv = "418.87.01"
    dst, root = driver_host(
        name, UBUNTU1804, "4.15.0-64-generic", drv, "Thu Aug 29 00:00:00 UTC 2019",
        "7.4.0 (Ubuntu 7.4.0-1ubuntu1~18.04.1)", (864256, 19472384, 2),
        ("usr/bin/dockerd", "usr/bin/docker", "usr/bin/nvidia-container-toolkit",
         "usr/bin/nvidia-container-cli", "usr/bin/nvidia-container-runtime",
         "usr/bin/nvidia-container-runtime-hook"))
    w(root, "etc/docker/daemon.json",
      '{\n    "default-runtime": "nvidia",\n    "runtimes": {\n        "nvidia": {\n'
      '            "path": "/usr/bin/nvidia-container-runtime",\n'
      '            "runtimeArgs": []\n        }\n    }\n}\n')
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":'
      '["GPU-00000000-0000-0000-0000-000000000000"]}},"Checksum":2733540519}')
    devices = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
               "/dev/nvidia-uvm = c 241:0 0666 0:0\n/dev/nvidia-uvm-tools = c 241:1 0666 0:0\n")
    ini(dst, TOPIC,
        "A Kubernetes node on Docker whose daemon.json has the nvidia runtime as Docker's "
        "default-runtime, and whose kubelet has nvidia.com/gpu registered: pods get the GPU",
        "The daemon.json the k8s-device-plugin README asked for, as "
        "https://github.com/NVIDIA/k8s-device-plugin/issues/60 and "
        "https://github.com/NVIDIA/k8s-device-plugin/issues/182 pasted it; the node of "
        "rw-k8s115-docker1903-gpus-hook-not-default-runtime after the fix "
        "https://github.com/NVIDIA/k8s-device-plugin/issues/139 names (nvidia-docker2's "
        "nvidia-container-runtime installed, the runtime made the default): the negative of "
        "container.no-nvidia-runtime's Kubernetes-on-Docker check; chosen here: kubelet's "
        "device manager checkpoint with nvidia.com/gpu registered (the UUID and checksum "
        "placeholders), the driver and OS of that fixture; binaries are empty stand-ins",
        PATH, "", devices)


def debian_upgrade_half_done():
    """illinois-scicomp/machine-shop-maintenance#70: a Debian server after an upgrade: nvidia-smi
    525.85.12 (dpkg), the loaded module 520.56.06; rebooting did not help (the module on disk
    was still 520.56.06); fixed by repairing the apt sources and `apt install --fix-broken`."""
    name = FIXTURES[2]
    url = "https://github.com/illinois-scicomp/machine-shop-maintenance/issues/70"
    rel = "6.1.0-5-amd64"
    user, loaded = "525.85.12", "520.56.06"
    dst, root = host(name, 0x2204, "NVIDIA GeForce RTX 3090", loaded, rel, DEBIAN12, "bock",
                     "Feb 24 09:12:40", "gcc version 12.2.0 (Debian 12.2.0-14)")
    # the version file exactly as pasted (no "Release Build" part)
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {loaded}  Thu Oct  6 21:38:55 UTC 2022\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14) \n")
    userspace(root, user)
    dpkg(root, {"nvidia-smi": f"{user}-1"})
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {loaded}, -, none\n",
                *fakes(user, 12000)]
    pasted = ("kgk2@bock:~$ nvidia-smi / Failed to initialize NVML: Driver/library version "
              "mismatch / Tried rebooting the system, but still doesn't work. / NVRM version: "
              "NVIDIA UNIX x86_64 Kernel Module  520.56.06  Thu Oct  6 21:38:55 UTC 2022 / GCC "
              "version:  gcc version 12.2.0 (Debian 12.2.0-14) / ii  nvidia-smi     "
              "525.85.12-1  amd64        NVIDIA System Management Interface")
    ini(dst, TOPIC,
        "A Debian server (gcc 12.2.0-14: bookworm) after an upgrade that stopped half-way: "
        "the NVIDIA user space is 525.85.12 (dpkg's nvidia-smi) while the kernel module is "
        "still 520.56.06, in memory and on disk, so NVML refuses with 'Driver/library version "
        "mismatch' and rebooting loads the same 520.56.06 again; repairing the apt sources and "
        "`apt install --fix-broken` installed the matching module",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'Failed to initialize NVML: Driver/library "
        "version mismatch', 'Tried rebooting the system, but still doesn't work', "
        "/proc/driver/nvidia/version with 520.56.06, its date and gcc 12.2.0 (Debian "
        "12.2.0-14), `dpkg -l nvidia-smi` with 525.85.12-1, the host name bock; the fix: "
        "'Copied over the apt repositories … Ran `sudo apt update` & `sudo apt install "
        "--fix-broken`. `nvidia-smi` is working as expected'); the module on disk is "
        "520.56.06 because the reboot loaded 520.56.06 again; placeholders, not in the "
        "report: the module's place (updates/dkms, where Debian's nvidia-kernel-dkms puts "
        "it), the kernel 6.1.0-5-amd64, Debian 12's os-release, the GPU (10de:2204, RTX 3090, "
        "and the rest of the base fixture's PCI tree), the kern.log line's time; "
        + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            url, pasted,
            "the upgrade installed the 525.85.12 user space but not its kernel module (broken "
            "dependencies): 520.56.06 is loaded and is also the module on disk, so a reboot "
            "does not help; `apt install --fix-broken` installs the 525 module",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def slurm_unattended_upgrade():
    """lyulyul/shine-cluster#30: a Slurm GPU node (eureka) where unattended-upgrade moved the
    460 driver's user space from 460.56 to 460.73.01 under the loaded 460.56 module: new jobs
    get 'Driver/library version mismatch', running ones go on; the admins pinned the driver."""
    name = FIXTURES[3]
    url = "https://github.com/lyulyul/shine-cluster/issues/30"
    rel = "5.4.0-72-generic"
    user, loaded = "460.73.01", "460.56"
    dst, root = host(name, 0x2204, "NVIDIA GeForce RTX 3090", loaded, rel, UBUNTU2004, "eureka",
                     "Apr 21 10:02:11", "gcc version 9.3.0 (Ubuntu 9.3.0-17ubuntu1~20.04)")
    userspace(root, user)
    dpkg(root, {"libnvidia-common-460": f"{user}-0ubuntu0.20.04.1",
                "libnvidia-compute-460": f"{user}-0ubuntu0.20.04.1",
                "nvidia-dkms-460": f"{user}-0ubuntu0.20.04.1"})
    w(root, "var/log/apt/history.log",
      "\nStart-Date: 2021-04-24  06:50:54\nCommandline: /usr/bin/unattended-upgrade\n"
      "Upgrade: libnvidia-common-460:amd64 (460.56-0ubuntu0.20.04.1, "
      "460.73.01-0ubuntu0.20.04.1)\nEnd-Date: 2021-04-24  06:50:54\n")
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = {user}, -, none\n",
                *fakes(user, 11020)]
    pasted = ("$ nvidia-smi / Failed to initialize NVML: Driver/library version mismatch / "
              "Start-Date: 2021-04-24  06:50:54 / Commandline: /usr/bin/unattended-upgrade / "
              "Upgrade: libnvidia-common-460:amd64 (460.56-0ubuntu0.20.04.1, "
              "460.73.01-0ubuntu0.20.04.1)")
    ini(dst, TOPIC,
        "A Slurm GPU node (eureka, Ubuntu 20.04) where unattended-upgrade upgraded the 460 "
        "driver packages from 460.56 to 460.73.01 while the 460.56 module stays loaded: "
        "running jobs keep their GPUs, new ones get 'Failed to initialize NVML: "
        "Driver/library version mismatch'; the admins decided to pin the driver packages",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'Failed to initialize NVML: Driver/library "
        "version mismatch', squeue with jobs running on eureka, /var/log/apt/history.log's "
        "unattended-upgrade entry 'Upgrade: libnvidia-common-460:amd64 "
        "(460.56-0ubuntu0.20.04.1, 460.73.01-0ubuntu0.20.04.1)', kept as pasted; the admins: "
        "'pin 460 to prevent future unexpected upgrade', and in "
        "https://github.com/lyulyul/shine-cluster/issues/50 the same unattended upgrade "
        "again); placeholders, not in the report: the rest of the upgraded packages "
        "(libnvidia-compute-460, whose NVML the mismatch needs, and nvidia-dkms-460 at "
        "460.73.01, whose module DKMS builds on disk), the GPU (10de:2204, RTX 3090, and the "
        "rest of the base fixture's PCI tree), the kernel 5.4.0-72-generic, the module's "
        "place, the version file's build line, the kern.log line's time; "
        + SRC_LDSO + "; " + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            url, pasted,
            "unattended-upgrade installed the 460.73.01 user space under the loaded 460.56 "
            "module: reboot (or reload the modules) when no job runs, and pin the driver "
            "packages",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def k8s18_nvidia_docker2_not_default():
    """NVIDIA/k8s-device-plugin#23: Kubernetes 1.8 with nvidia-docker2 installed, whose
    daemon.json names the nvidia runtime but not as Docker's default: the device plugin's pod
    "could not load NVML library"; the maintainer: "Did you set the default runtime?", the
    reporter: solved."""
    name = FIXTURES[4]
    url = "https://github.com/NVIDIA/k8s-device-plugin/issues/23"
    drv = "384.111"
    dst, root = driver_host(
        name, ubuntu_os_release("16.04.3", "Xenial Xerus", "xenial", logo=False),
        "4.4.0-109-generic", drv, "Tue Dec 19 23:51:45 PST 2017",
        "5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.5)", (659456, 13807616, 2),
        ("usr/bin/dockerd", "usr/bin/docker", "usr/bin/nvidia-container-runtime",
         "usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-container-cli",
         "usr/bin/nvidia-docker"))
    # the daemon.json the nvidia-docker2 package installs: the runtime, no default-runtime
    w(root, "etc/docker/daemon.json",
      '{\n    "runtimes": {\n        "nvidia": {\n'
      '            "path": "/usr/bin/nvidia-container-runtime",\n'
      '            "runtimeArgs": []\n        }\n    }\n}\n')
    dpkg(root, {"nvidia-docker2": "2.0.2+docker17.12.0-1", "nvidia-container-runtime":
                "1.1.1+docker17.12.0-1", "libnvidia-container-tools": "1.0.0~beta.1-1",
                "libnvidia-container1": "1.0.0~beta.1-1"})
    w(root, "var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
      '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{}},"Checksum":1286926585}')
    devices = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
               "/dev/nvidia-uvm = c 243:0 0666 0:0\n/dev/nvidia-uvm-tools = c 243:1 0666 0:0\n")
    pasted = ("I install nvidia-docker2, and deploment device plugin in kubernetes 1.8 / "
              "loading NVML / Failed to start nvml with error:  could not load NVML library")
    ini(dst, TOPIC,
        "A Kubernetes 1.8 node with nvidia-docker2 installed: its daemon.json names the nvidia "
        "runtime, but Docker's default runtime is still runc, so kubelet starts the NVIDIA "
        "device plugin's pod without the NVIDIA libraries and the plugin cannot load NVML; "
        "setting nvidia as Docker's default runtime solved it",
        f"Rebuilt from {url} (pasted: 'I install nvidia-docker2, and deploment device plugin "
        "in kubernetes 1.8', the plugin's 'loading NVML / Failed to start nvml with error:  "
        "could not load NVML library'; flx42: 'Did you set the default runtime?', the "
        "reporter: 'I solved the problem, the k8s-device-plugin release 1.8 document not show "
        "\"First you will need to check and/or enable the nvidia runtime as your default "
        "runtime on your node\"'); /etc/docker/daemon.json as the nvidia-docker2 package "
        "installs it (the nvidia runtime, no default-runtime); placeholders, not in the "
        "report: the package versions (nvidia-docker2 2.0.2 of that month), the driver "
        "384.111 and its build line, Ubuntu 16.04.3 and its kernel, the device nodes "
        "(nvidia-uvm's dynamic major), kubelet's device manager checkpoint with no resource "
        "registered (from the plugin's failure; its checksum a placeholder); the GPU's PCI "
        "tree is not written (hardware unknown); binaries are empty stand-ins",
        PATH,
        real_world(
            url, pasted,
            "nvidia-docker2 registers the nvidia runtime but does not make it Docker's "
            "default; kubelet starts the device plugin's pod with runc: set "
            "\"default-runtime\": \"nvidia\"",
            "container.no-nvidia-runtime", "container", "yes"),
        devices)


def tinygrad_p2p_userspace_older():
    """tinygrad/open-gpu-kernel-modules#47: the 570.124.04 .run installed with
    --no-kernel-modules, then the P2P open modules of 570.124.06 built and installed; after
    the reboot nvidia-smi: 'Failed to initialize NVML: Driver/library version mismatch',
    'NVML library version: 570.124'; the answer: 570.124.04 != 570.124.06, uninstall the
    driver (nvidia-uninstall) and install the 570.124.06 user space."""
    name = FIXTURES[5]
    url = "https://github.com/tinygrad/open-gpu-kernel-modules/issues/47"
    rel = "5.15.0-157-generic"
    user, loaded = "570.124.04", "570.124.06"
    dst, root = host(name, 0x2684, "NVIDIA GeForce RTX 4090", loaded, rel,
                     ubuntu_os_release("22.04.5", "Jammy Jellyfish", "jammy"), "tinybox",
                     "Oct 15 09:12:40", "gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)")
    # the open modules built from the tree print the open module's version line
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {loaded}  Release Build  "
      "(user@tinybox)  Wed Oct 15 09:00:00 UTC 2025\n"
      "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04) \n")
    kern_log(root, "tinybox", "Oct 15 09:12:40", loaded)
    userspace(root, user)
    # the .run installer leaves its uninstaller (the answer's `nvidia-uninstall`)
    w(root, "usr/bin/nvidia-uninstall", b"", 0o755)
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/kernel/drivers/video/nvidia.ko = {loaded}, -, "
                "none, Dual MIT/GPL\n",
                *fakes(user, 12080)]
    pasted = ("uname -r 5.15.0-157-generic / Description:    Ubuntu 22.04.5 LTS / bash "
              "./NVIDIA-Linux-x86_64-570.124.04.run --no-kernel-modules / cd "
              "/data/open-gpu-kernel-modules-570.124.06-p2p/ / ./install.sh / reboot / "
              "nvidia-smi / Failed to initialize NVML: Driver/library version mismatch / NVML "
              "library version: 570.124")
    ini(dst, TOPIC,
        "Ubuntu 22.04.5 with the NVIDIA 570.124.04 .run installed without its kernel modules "
        "and tinygrad's P2P open kernel modules of 570.124.06 built and installed instead: "
        "after the reboot the 570.124.06 module is loaded under the 570.124.04 user space and "
        "NVML refuses ('Driver/library version mismatch', 'NVML library version: 570.124'); "
        "the answer: 570.124.04 != 570.124.06, uninstall that driver and install the "
        "570.124.06 user space",
        f"Rebuilt from {url} (pasted: 'uname -r 5.15.0-157-generic', 'Ubuntu 22.04.5 LTS', "
        "the build commands 'bash ./NVIDIA-Linux-x86_64-570.124.04.run --no-kernel-modules', "
        "'cd /data/open-gpu-kernel-modules-570.124.06-p2p/', './install.sh', 'reboot', and "
        "nvidia-smi's 'Failed to initialize NVML: Driver/library version mismatch' / 'NVML "
        "library version: 570.124'; Wang-Xiaolong: '570.124.04 != 570.124.06, you can try "
        "uninstall nvidia driver(using command nvidia-uninstall) then install 570.124.06 … to "
        "get NVML updated to the version of 570.124.06 to get matched with the branch'); the "
        "module in kernel/drivers/video, where the open modules' `make modules_install` puts "
        "it; placeholders, not in the report: the GPU (10de:2684, RTX 4090, the card the P2P "
        "modules were made for, and the rest of the base fixture's PCI tree), the version "
        "file's build line, the kern.log line's time and host name; " + SRC_LDSO + "; "
        + SRC_FAKES + "; " + SRC_BASE, PATH,
        real_world(
            url, pasted,
            "the .run's 570.124.04 user space under the P2P build's 570.124.06 open module: "
            "install the 570.124.06 user space (nvidia-uninstall, then the 570.124.06 .run "
            "with --no-kernel-modules); a reboot changes nothing",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def write():
    k8s_docker1903_hook_only()
    k8s_docker_nvidia_default()
    debian_upgrade_half_done()
    slurm_unattended_upgrade()
    k8s18_nvidia_docker2_not_default()
    tinygrad_p2p_userspace_older()
