# SPDX-License-Identifier: GPL-2.0-or-later
"""A third round of reports no fixture had used, rebuilt the way an outside evaluator would
rebuild them (fixrw-g), from the places the first two rounds left out: Kubernetes nodes on
Docker whose GPU pods need Docker's default runtime (and the negative: nvidia as that default),
an upgraded user space under a loaded module as TensorFlow reports it, and a third-party kernel
the driver's DKMS package cannot build for, each only as far as its thread shows it. The scores
before any change are in docs/HACKING.md ("Reports an outside evaluator would pick", third
round)."""
from realworld.common import dpkg, ini, real_world, section, w
from realworld.containerd_k8s import driver_host
from realworld.driver import FAKE_ARGS, SRC_LDSO, userspace
from realworld.common import (SRC_BASE, driver_libs, fresh, ldso_cache,
                              ubuntu_os_release)
from realworld.upgrades import host
from realworld.kubelet_docker import nvidia_docker2_k8s_node

TOPIC = "outside3"
FIXTURES = ("rw-k8s115-docker1903-gpus-hook-not-default-runtime",
            "k8s-docker-nvidia-default-runtime",
            "rw-k8s18-nvidia-docker2-runtime-not-default",
            "rw-ubuntu1604-384.111-userspace-384.90-module-tf",
            "rw-amdgpu-custom-kernel-5.13.18-nvidia-dkms-470-not-built")
NV_BASE = "rtx4090-open-module"
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
UBUNTU1804 = ubuntu_os_release("18.04.3", "Bionic Beaver", "bionic", logo=False)


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


def k8s18_nvidia_docker2_not_default():
    """NVIDIA/k8s-device-plugin#23: Kubernetes 1.8 with nvidia-docker2 installed, whose
    daemon.json names the nvidia runtime but not as Docker's default: the device plugin's pod
    "could not load NVML library"; the maintainer: "Did you set the default runtime?", the
    reporter: solved."""
    name = FIXTURES[2]
    url = "https://github.com/NVIDIA/k8s-device-plugin/issues/23"
    dst, root, devices = nvidia_docker2_k8s_node(
        name, "4.4.0-109-generic", "384.111", "Tue Dec 19 23:51:45 PST 2017",
        {"nvidia-docker2": "2.0.2+docker17.12.0-1",
         "nvidia-container-runtime": "1.1.1+docker17.12.0-1",
         "libnvidia-container-tools": "1.0.0~beta.1-1", "libnvidia-container1": "1.0.0~beta.1-1"})
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


def tf_384_90_module_384_111_userspace():
    """tensorflow/tensorflow#1158 (clockzhong's comment of 2018-01-22): Ubuntu 16.04 upgraded the
    driver packages to 384.111 while the 384.90 module stays loaded: TensorFlow's cuInit fails
    and its diagnostics say 'kernel version 384.90.0 does not match DSO version 384.111.0'."""
    name = FIXTURES[3]
    url = "https://github.com/tensorflow/tensorflow/issues/1158"
    rel = "4.13.0-26-generic"
    user, loaded = "384.111", "384.90"
    dst, root = host(name, 0x1b80, "GeForce GTX 1080", loaded, rel,
                     ubuntu_os_release("16.04.3", "Xenial Xerus", "xenial", logo=False),
                     "clockAsusDesktop", "Jan 22 09:58:02",
                     "gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.5)")
    # the version file exactly as TensorFlow's diagnostics quote it
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {loaded}  Tue Sep 19 19:17:35 PDT 2017\n"
      "GCC version:  gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.5) \n")
    userspace(root, user)
    dpkg(root, {"nvidia-384": f"{user}-0ubuntu0.16.04.1"})
    sections = [section(NV_BASE, "devices"),
                f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia_384.ko = {user}, -, none\n",
                f"[nvml]\ndriver_version = {user}\nnvml_version = 9.{user}\n"
                "cuda_driver_version = 9000\n"
                "error.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n",
                "[cuda]\ndriver_version = 9000\nerror.cuInit = CUDA_ERROR_NO_DEVICE\n"]
    pasted = ("failed call to cuInit: CUDA_ERROR_NO_DEVICE / libcuda reported version is: "
              "384.111.0 / driver version file contents: \"\"\"NVRM version: NVIDIA UNIX x86_64 "
              "Kernel Module  384.90  Tue Sep 19 19:17:35 PDT 2017 / GCC version:  gcc version "
              "5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.5) / kernel reported version is: "
              "384.90.0 / kernel version 384.90.0 does not match DSO version 384.111.0 -- "
              "cannot find working devices in this configuration")
    ini(dst, TOPIC,
        "Ubuntu 16.04 whose driver packages were upgraded to 384.111 while the 384.90 module "
        "stays loaded: TensorFlow's cuInit fails with CUDA_ERROR_NO_DEVICE and its "
        "diagnostics report 'kernel version 384.90.0 does not match DSO version 384.111.0'; "
        "the reporter: it keeps happening after Ubuntu upgrades its components",
        f"Rebuilt from {url} (clockzhong's comment of 2018-01-22, pasted: TensorFlow's "
        "cuda_driver.cc/cuda_diagnostics.cc lines 'failed call to cuInit: "
        "CUDA_ERROR_NO_DEVICE', 'hostname: clockAsusDesktop', 'libcuda reported version is: "
        "384.111.0', the driver version file contents (384.90, its date, gcc 5.4.0 "
        "20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.5)), 'kernel reported version is: 384.90.0', "
        "'kernel version 384.90.0 does not match DSO version 384.111.0 -- cannot find working "
        "devices in this configuration'; 'I found this issue keep happening after my ubuntu "
        "upgrade its components'); cuInit's CUDA_ERROR_NO_DEVICE as pasted (drivers of that "
        "time answered so); placeholders, not in the report: the package nvidia-384 at "
        "384.111 and its DKMS module of 384.111 on disk, as that package installed it: "
        "updates/dkms/nvidia_384.ko, .modinfo name=nvidia (its dkms.conf renames the built "
        "nvidia.ko: BUILT_MODULE_NAME nvidia, DEST_MODULE_NAME nvidia_384; the path as "
        "https://github.com/canonical/nvidia-graphics-drivers/issues/13 shows it) (what the "
        "upgrade installs), NVML's answer (the mismatch nvidia-smi shows then), the GPU (10de:1b80, "
        "GTX 1080, and the rest of the base fixture's PCI tree), the kernel 4.13.0-26-generic, "
        "the kern.log line's time; " + SRC_LDSO + "; " + SRC_BASE, PATH,
        real_world(
            url, pasted,
            "the Ubuntu upgrade installed the 384.111 user space while the 384.90 module "
            "stays loaded: reboot (or reload the modules)",
            "driver.nvml-version-mismatch", "driver", "yes"),
        *sections, args=FAKE_ARGS)
    ldso_cache(dst)


def amdgpu_custom_kernel_dkms_fails():
    """M-Bab/linux-kernel-amdgpu-binaries#101: an NVIDIA machine booted into the project's
    5.13.18-21.09.16.amdgpu.ubuntu kernel: nvidia-smi cannot talk to the driver, `dkms install
    -m nvidia -v 470.86` fails ('kernel package linux-headers-… is not supported', 'Bad return
    status for module build'); the maintainer: the install scripts support specific kernels
    only, and this kernel is not meant for NVIDIA GPUs."""
    name = FIXTURES[4]
    url = "https://github.com/M-Bab/linux-kernel-amdgpu-binaries/issues/101"
    drv, rel = "470.86", "5.13.18-21.09.16.amdgpu.ubuntu"
    dst, root = fresh(name, "nvidia-gpu-no-driver")
    w(root, "etc/os-release", ubuntu_os_release("20.04.3", "Focal Fossa", "focal"))
    w(root, "proc/sys/kernel/osrelease", rel + "\n")
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n")
    driver_libs(root, drv)
    dpkg(root, {"nvidia-driver-470": f"{drv}-0ubuntu0.20.04.1",
                "nvidia-dkms-470": f"{drv}-0ubuntu0.20.04.1"})
    pasted = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. / "
              "sudo dkms install -m nvidia -v 470.86 / KERNEL_UNAME=5.13.18-21.09.16.amdgpu.ubuntu "
              "… modules.....(bad exit status: 2) / ERROR (dkms apport): kernel package "
              "linux-headers-5.13.18-21.09.16.amdgpu.ubuntu is not supported / Error! Bad return "
              "status for module build on kernel: 5.13.18-21.09.16.amdgpu.ubuntu (x86_64)")
    ini(dst, TOPIC,
        "An NVIDIA machine booted into a third-party kernel built for AMD GPUs "
        "(5.13.18-21.09.16.amdgpu.ubuntu): nvidia-dkms-470 cannot build the 470.86 module for "
        "it, so the running kernel has no nvidia.ko and nvidia-smi cannot talk to the "
        "driver; the maintainer: the driver's install scripts support specific kernels, and "
        "this kernel is not meant for NVIDIA GPUs",
        f"Rebuilt from {url} (pasted: nvidia-smi's 'couldn't communicate with the NVIDIA "
        "driver' after 'i upgrade the kernel 5.13.18', `sudo dkms install -m nvidia -v "
        "470.86` with KERNEL_UNAME=5.13.18-21.09.16.amdgpu.ubuntu and SYSSRC=/lib/modules/"
        "5.13.18-21.09.16.amdgpu.ubuntu/build, 'ERROR (dkms apport): kernel package "
        "linux-headers-5.13.18-21.09.16.amdgpu.ubuntu is not supported', 'Error! Bad return "
        "status for module build on kernel: 5.13.18-21.09.16.amdgpu.ubuntu (x86_64)'; M-Bab: "
        "'Most of the install scripts check for the specific kernel version and only support "
        "a small set of specific kernels … Why would you ever want to install this kernel if "
        "you have an NVIDIA GPU?'); placeholders, not in the report: the packages "
        "nvidia-driver-470 and nvidia-dkms-470 (DKMS has the nvidia 470.86 source, as the "
        "dkms command shows) and their versions, Ubuntu 20.04.3's os-release (the report "
        "names no release), the GPU and the rest of the nvidia-gpu-no-driver fixture's PCI "
        "tree and /proc/modules (see its sources); no module of an earlier kernel is written "
        "(the report shows none); " + SRC_LDSO, PATH,
        real_world(
            url, pasted,
            "no nvidia.ko for the running third-party kernel: DKMS cannot build 470.86 for "
            "it; boot a kernel the driver supports (the distribution's)",
            "driver.module-missing-for-kernel", "driver", "yes"),
        f"[nvml]\ndriver_version = {drv}\n",
        args="--nvml-lib @FAKES@/libnvidia-ml.so.1 --cuda-lib @FAKES@/libcuda.so.1")
    ldso_cache(dst)


def write():
    k8s_docker1903_hook_only()
    k8s_docker_nvidia_default()
    k8s18_nvidia_docker2_not_default()
    tf_384_90_module_384_111_userspace()
    amdgpu_custom_kernel_dkms_fails()
