# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of CUDA forward compatibility in containers
(runtime.cuda-compat-unsupported): an image's cuda-compat libcuda, newer than the host's
kernel driver, is what the container's loader picks on a GeForce GPU, where forward
compatibility is not supported (CUDA error 804). Written by
tests/tools/mk-real-world-fixtures.py compat."""
import shutil

from realworld.common import FIX, fresh, ini, link, real_world, w

TOPIC = "compat"
FIXTURES = ('rw-compat-804-gtx1050ti', 'rw-compat-804-toolkit14-gtx1650',
            'rw-compat-804-rtx3090-r525-sim2real', 'rw-compat-804-rtx3090-r580-cu13-image')


def ini_text(dst, desc, source, rw, variables, sections="", args="--no-vendor"):
    ini(dst, TOPIC, desc, source, variables, real_world(**rw),
        sections.rstrip("\n") + "\n" if sections else "", args=args)


GPU = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"


def container(name, gpu, host, host_date, compat, cuda, distro):
    """A container of an image with cuda-compat-<cuda> (libcuda `compat`) on a GeForce `gpu`
    (PCI device id) whose host driver `host` is older; returns (dst, root, sections)."""
    dst, root = fresh(name)
    cu = f"cuda-{cuda.rsplit('.', 1)[0]}"
    # The host's sysfs as a container sees it (Docker mounts it read-only), from the
    # torch-cu130-gtx1080 fixture's PCI tree, the GPU re-identified.
    src = f"{FIX}/torch-cu130-gtx1080/root/sys"
    for sub in ("bus", "devices", "kernel"):
        shutil.copytree(f"{src}/{sub}", f"{root}/sys/{sub}", symlinks=True)
    w(root, f"{GPU}/device", f"0x{gpu:04x}\n")
    w(root, f"{GPU}/subsystem_device", "0x8613\n")
    w(root, f"{GPU}/subsystem_vendor", "0x1043\n")
    w(root, "sys/module/nvidia/version", host + "\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {host}  {host_date}\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14) \n")
    w(root, "proc/sys/kernel/osrelease", "6.1.0-13-amd64\n")
    w(root, "proc/1/cgroup", "0::/\n")
    w(root, ".dockerenv", "")
    w(root, "etc/os-release", distro)
    w(root, f"usr/local/{cu}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   }\n}\n' % cuda)
    link(root, "usr/local/cuda", f"/usr/local/{cu}")
    # cuda-compat-12-1 under the toolkit, and what the NVIDIA Container Toolkit injects: the
    # host's driver libraries, plus the image's compat libcuda mounted beside them where it is
    # newer than the host driver (libnvidia-container's compat-library mounts); ldconfig's
    # libcuda.so.1 then names the newest.
    lib = "usr/lib/x86_64-linux-gnu"
    link(root, f"usr/local/{cu}/compat/libcuda.so.1", f"libcuda.so.{compat}")
    link(root, f"usr/local/{cu}/compat/libcuda.so", "libcuda.so.1")
    link(root, f"usr/local/{cu}/compat/libnvidia-ptxjitcompiler.so.1",
         f"libnvidia-ptxjitcompiler.so.{compat}")
    link(root, f"{lib}/libcuda.so.1", f"libcuda.so.{compat}")
    link(root, f"{lib}/libcuda.so", "libcuda.so.1")
    link(root, f"{lib}/libnvidia-ml.so.1", f"libnvidia-ml.so.{host}")
    elf = "".join(f"/{p} = so soname={s}\n" for p, s in (
        (f"{lib}/libcuda.so.{host}", "libcuda.so.1"),
        (f"{lib}/libcuda.so.{compat}", "libcuda.so.1"),
        (f"{lib}/libnvidia-ml.so.{host}", "libnvidia-ml.so.1"),
        (f"usr/local/{cu}/compat/libcuda.so.{compat}", "libcuda.so.1"),
        (f"usr/local/{cu}/compat/libnvidia-ptxjitcompiler.so.{compat}",
         "libnvidia-ptxjitcompiler.so.1")))
    sections = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
                "/dev/nvidia-uvm = c 508:0 0666 0:0\n/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n\n"
                "[elf]\n" + elf)
    return dst, root, sections


SRC = ("the host's PCI sysfs from the torch-cu130-gtx1080 fixture (see its sources) with the GPU "
       "re-identified (its subsystem ids placeholders); cuda-compat as NVIDIA's package installs "
       "it (libcuda.so.<driver of that CUDA release> under /usr/local/cuda-<release>/compat); "
       "the host's libraries and the compat libcuda in the multiarch directory as the NVIDIA "
       "Container Toolkit mounts them (libnvidia-container mounts the compat libraries of an "
       "image whose CUDA is newer than the driver); /.dockerenv and cgroup v2 /proc/1/cgroup; "
       "the device nodes the toolkit creates (nvidia-uvm's dynamic major a placeholder); the "
       "host kernel and the module's build date are placeholders; the libraries are tiny "
       "gcc-built ELF files with the real SONAMEs")
ENV = {"PATH": "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
               "/usr/sbin:/usr/bin:/sbin:/bin",
       "LD_LIBRARY_PATH": "/usr/local/nvidia/lib:/usr/local/nvidia/lib64",
       "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"}
UBUNTU = ('NAME="Ubuntu"\nVERSION="{v} ({c})"\nID=ubuntu\nID_LIKE=debian\n'
          'PRETTY_NAME="Ubuntu {v}"\nVERSION_ID="{id}"\nHOME_URL="https://www.ubuntu.com/"\n'
          'SUPPORT_URL="https://help.ubuntu.com/"\n'
          'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
          'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
          'VERSION_CODENAME={cn}\nUBUNTU_CODENAME={cn}\n')


def write():
    # 1. oobabooga/textgen#4407: the project's CUDA 12.1 image on a GeForce GTX 1050 Ti with
    #    driver 525.125.06 (CUDA 12.0): Error 804; fixed by updating the host driver to
    #    535.113.01 (CUDA 12.2), which needs no forward compatibility.
    dst, root, sections = container(
        "rw-compat-804-gtx1050ti", 0x1c82, "525.125.06", "Sat Jul 15 00:11:18 UTC 2023",
        "530.30.02", "12.1.1",
        UBUNTU.format(v="22.04.3 LTS", c="Jammy Jellyfish", id="22.04", cn="jammy"))
    ini_text(
        dst,
        "Inside the text-generation-webui Docker image (CUDA 12.1) on a host with a GeForce GTX "
        "1050 Ti and driver 525.125.06 (CUDA 12.0): the image's cuda-compat libcuda 530.30.02 "
        "is the one the loader picks, and forward compatibility is not supported on GeForce "
        "GPUs, so CUDA fails with error 804",
        "the GPU (10de:1c82) and the host driver version as pasted; " + SRC +
        "; the image's distribution (Ubuntu 22.04) is a placeholder",
        {"url": "https://github.com/oobabooga/textgen/issues/4407",
         "pasted": "Error 804: forward compatibility was attempted on non supported HW",
         "cause": "the CUDA 12.1 image needs a driver newer than 525.125.06; the "
                  "forward-compatibility libcuda it falls back on does not run on a GeForce "
                  "GPU; updating the host driver to 535.113.01 fixed it",
         "root_cause": "runtime.cuda-compat-unsupported",
         "layer": "runtime",
         "fails": "yes"},
        dict(ENV, CUDA_VERSION="12.1.1"), sections)

    # 2. NVIDIA/nvidia-docker#1515 (also NVIDIA/nvidia-container-toolkit#291): an image on
    #    nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04 with PyTorch on a GeForce GTX 1650 host
    #    with driver 460.80 (CUDA 11.2): with libnvidia-container 1.3.0 torch sees the GPU;
    #    1.4.0 mounts the image's CUDA 11.3 compat libcuda (465.19.01) and cudaGetDeviceCount
    #    fails with error 804.
    dst, root, sections = container(
        "rw-compat-804-toolkit14-gtx1650", 0x1f82, "460.80", "Fri May  7 07:06:15 UTC 2021",
        "465.19.01", "11.3.1",
        UBUNTU.format(v="20.04.2 LTS", c="Focal Fossa", id="20.04", cn="focal"))
    ini_text(
        dst,
        "A container of gemfield/homepod:2.0-pro (PyTorch on nvidia/cuda:11.3.1-cudnn8-devel-"
        "ubuntu20.04) on a GeForce GTX 1650 host with driver 460.80 (CUDA 11.2) after the NVIDIA "
        "Container Toolkit went from 1.3.0 to 1.4.0: the toolkit now mounts the image's CUDA "
        "11.3 compat libcuda (465.19.01), the loader picks it, and on a GeForce GPU CUDA fails "
        "with error 804",
        "the host driver (460.80), the image's base and the toolkit versions as pasted, the "
        "GPU (GTX 1650, 10de:1f82) as the same machine's report DeepVAC/TorchPod#43 gives it; "
        + SRC + "; the compat libcuda of CUDA 11.3.1 (465.19.01) is the cuda-compat-11-3 "
        "package's",
        {"url": "https://github.com/NVIDIA/nvidia-docker/issues/1515",
         "pasted": "Error 804: forward compatibility was attempted on non supported HW",
         "cause": "libnvidia-container 1.4.0 mounts the image's newer cuda-compat libcuda into "
                  "the container, and forward compatibility does not work on the GeForce GPU; "
                  "1.3.0, which did not, worked",
         "root_cause": "runtime.cuda-compat-unsupported",
         "layer": "runtime",
         "fails": "yes"},
        dict(ENV, CUDA_VERSION="11.3.1"), sections)

    # 3. AIR-DISCOVER/ICRA2024-Sim2Real-AXS#5: the challenge's baseline image (CUDA 12.1) on an
    #    RTX 3090 host with driver 525 (CUDA 12.0): PyTorch's cudaGetDeviceCount fails with
    #    error 804; fixed by updating the host driver.
    dst, root, sections = container(
        "rw-compat-804-rtx3090-r525-sim2real", 0x2204, "525.147.05",
        "Wed Oct 25 20:27:35 UTC 2023", "530.30.02", "12.1.0",
        UBUNTU.format(v="20.04.6 LTS", c="Focal Fossa", id="20.04", cn="focal"))
    ini_text(
        dst,
        "A container of the ICRA 2024 Sim2Real AXS challenge's baseline image (CUDA 12.1) on a "
        "host with an RTX 3090 and an R525 driver (CUDA 12.0): the image's CUDA 12.1 "
        "cuda-compat libcuda (530.30.02) is the one the loader picks, and forward "
        "compatibility is not supported on GeForce GPUs, so PyTorch's cudaGetDeviceCount() "
        "fails with error 804; updating the host driver fixed it",
        "the GPU (RTX 3090: 10de:2204 GA102 in pci.ids), the driver branch (525) and the CUDA "
        "version (12.1, 'both in my PC and in the docker environment') as the report gives "
        "them; " + SRC + "; placeholders, not in the report: the exact 525 release (525.147.05, "
        "one of late 2023; its build date too), the image's distribution (Ubuntu 20.04) and its "
        "CUDA 12.1.0 (compat libcuda 530.30.02, cuda-compat-12-1's); PyTorch in the image is "
        "not rebuilt (what fails is the libcuda it loads)",
        {"url": "https://github.com/AIR-DISCOVER/ICRA2024-Sim2Real-AXS/issues/5",
         "pasted": "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some "
                   "cuda functions before calling NumCudaDevices() that might have already set "
                   "an error? Error 804: forward compatibility was attempted on non supported HW",
         "cause": "the CUDA 12.1 image needs a driver newer than the host's R525 (CUDA 12.0); "
                  "the forward-compatibility libcuda it falls back on does not run on a "
                  "GeForce RTX 3090; 'fixed by updating the driver'",
         "root_cause": "runtime.cuda-compat-unsupported",
         "layer": "runtime",
         "fails": "yes"},
        dict(ENV, CUDA_VERSION="12.1.0"), sections)

    # 4. noonghunna/club-3090#222: an ik_llama.cpp CUDA 13 image on an RTX 3090 whose host
    #    driver 580.159.03 gives CUDA 13.0: the image's newer CUDA 13 runtime goes through
    #    forward compatibility, which GeForce GPUs do not support; ggml falls back to the CPU.
    dst, root, sections = container(
        "rw-compat-804-rtx3090-r580-cu13-image", 0x2204, "580.159.03",
        "Tue Apr 21 00:00:00 UTC 2026", "590.48.01", "13.1.1",
        UBUNTU.format(v="24.04.3 LTS", c="Noble Numbat", id="24.04", cn="noble"))
    ini_text(
        dst,
        "A container of the ik-llama-cpp:cu13-server image (a CUDA 13 toolkit newer than 13.0) "
        "on a host whose RTX 3090 runs driver 580.159.03 (CUDA 13.0): the image's cuda-compat "
        "libcuda is the one the loader picks, forward compatibility is not supported on "
        "GeForce GPUs, so ggml's CUDA initialisation fails ('forward compatibility was "
        "attempted on non supported HW') and it runs on the CPU; a CUDA 12 image (which the "
        "580 driver runs natively) or a newer host driver fixes it",
        "the GPU (RTX 3090: 10de:2204 GA102 in pci.ids; the container is pinned to it, the "
        "host's GTX 1080 is not in it) and the host driver 580.159.03 as the report gives "
        "them; " + SRC + "; placeholders, not in the report: the image's exact CUDA release "
        "(13.1.1, whose cuda-compat-13-1 libcuda is 590.48.01: cuda_driver_min.tsv) and its "
        "distribution (Ubuntu 24.04), the module's build date",
        {"url": "https://github.com/noonghunna/club-3090/issues/222",
         "pasted": "ggml_cuda_init: failed to initialize CUDA: forward compatibility was "
                   "attempted on non supported HW / CPU: using device CPU",
         "cause": "the cu13 image ships a CUDA 13.x newer than the 580 driver's 13.0, so CUDA "
                  "takes the forward-compatibility path, which consumer GeForce GPUs do not "
                  "support; run a CUDA 12 image or update the host driver",
         "root_cause": "runtime.cuda-compat-unsupported",
         "layer": "runtime",
         "fails": "yes"},
        dict(ENV, CUDA_VERSION="13.1.1"), sections)
