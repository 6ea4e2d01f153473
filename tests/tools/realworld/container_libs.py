# SPDX-License-Identifier: GPL-2.0-or-later
"""Containers whose image carries driver libraries of its own: the NVIDIA Container Toolkit
injects the host's, and the image's copy is what the loader takes."""
from realworld.common import fresh, ini, ldso_cache, link, real_world, so, w

TOPIC = "container_libs"
FIXTURES = ("rw-container-image-nvml-525-host-470",)

MOUNT_HEAD = (
    "1541 1176 0:139 / / rw,relatime master:577 - overlay overlay rw,lowerdir=/var/lib/docker/"
    "overlay2/l/QZ3KX6GJ2QW4B7HF7CJZ2M5Y6T:/var/lib/docker/overlay2/l/B3YH6M2KQ4J5N7P8R9S2T3V4"
    "W5,upperdir=/var/lib/docker/overlay2/0c3f2a9e/diff,workdir=/var/lib/docker/overlay2/"
    "0c3f2a9e/work\n"
    "1542 1541 0:142 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
    "1543 1541 0:143 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755,inode64\n"
    "1551 1541 0:141 / /sys ro,nosuid,nodev,noexec,relatime - sysfs sysfs ro\n")


def bind(n, path):
    """A mountinfo line of the toolkit's read-only bind mount of a host file (proc(5))."""
    return (f"{n} 1541 8:1 {path} {path} ro,nosuid,nodev,relatime master:1 - ext4 /dev/sda1 "
            "rw\n")


def image_nvml_newer_than_host():
    # NVIDIA/libnvidia-container#266: an image holding libnvidia-ml.so.525.105.17 run on a
    # host whose driver is older (470.129.06): the toolkit mounts the host's library and runs
    # ldconfig in the container, which links libnvidia-ml.so.1 to the newest file, the image's;
    # nvidia-smi: "Failed to initialize NVML: Driver/library version mismatch".
    dst, root = fresh("rw-container-image-nvml-525-host-470")
    host = "470.129.06"
    lib = "usr/lib/x86_64-linux-gnu"
    w(root, ".dockerenv", "")
    w(root, "proc/1/cgroup", "0::/\n")
    w(root, "proc/sys/kernel/osrelease", "5.4.0-121-generic\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {host}  Thu May 12 22:25:40 UTC 2022\n"
      "GCC version:  gcc version 9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04.1) \n")
    w(root, "sys/module/nvidia/version", host + "\n")
    w(root, "proc/modules",
      "nvidia_uvm 1282048 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 61440 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1200128 1 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 35319808 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "etc/os-release",
      'NAME="Ubuntu"\nVERSION="20.04.4 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
      'PRETTY_NAME="Ubuntu 20.04.4 LTS"\nVERSION_ID="20.04"\n'
      'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
      'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
      'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
      'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')
    w(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    w(root, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
      "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
      "/usr/lib/x86_64-linux-gnu\n")
    link(root, "lib", "usr/lib")
    # the host's files, mounted by the toolkit
    so(root, f"{lib}/libnvidia-ml.so.{host}", "libnvidia-ml.so.1")
    so(root, f"{lib}/libcuda.so.{host}", "libcuda.so.1")
    link(root, f"{lib}/libcuda.so.1", f"libcuda.so.{host}")
    # the image's own file, and the link ldconfig made to it (as the issue lists them)
    so(root, f"{lib}/libnvidia-ml.so.525.105.17", "libnvidia-ml.so.1")
    link(root, f"{lib}/libnvidia-ml.so.1", "libnvidia-ml.so.525.105.17")
    w(root, "proc/self/mountinfo", MOUNT_HEAD + bind(1569, f"/{lib}/libcuda.so.{host}") +
      bind(1570, f"/{lib}/libnvidia-ml.so.{host}"))
    ini(dst, TOPIC,
        "A container started with NVIDIA_VISIBLE_DEVICES=1 and "
        "NVIDIA_DRIVER_CAPABILITIES=compute,utility on a host whose driver is 470.129.06; the "
        "image already holds libnvidia-ml.so.525.105.17, and the ldconfig the toolkit runs in "
        "the container links libnvidia-ml.so.1 to it instead of the host's 470.129.06 it "
        "mounted: nvidia-smi fails with 'Driver/library version mismatch'",
        "Rebuilt from https://github.com/NVIDIA/libnvidia-container/issues/266 (pasted: the "
        "docker run line with NVIDIA_VISIBLE_DEVICES=1 and NVIDIA_DRIVER_CAPABILITIES="
        "compute,utility, the listing of /lib/x86_64-linux-gnu: libnvidia-ml.so.1 -> "
        "libnvidia-ml.so.525.105.17, libnvidia-ml.so.470.129.06 (May 12 2022) and "
        "libnvidia-ml.so.525.105.17, 'a host which driver version is lower than 525.105.17', "
        "the NVML mismatch); the host's module version is the injected library's (the "
        "toolkit mounts the host driver's own files); placeholders, not in the report: the "
        "image's Ubuntu 20.04 os-release and the host kernel 5.4.0-121-generic with its module "
        "list and build line, libcuda (the report lists libnvidia-ml only: the host's libcuda "
        "is mounted, the image holds none); mountinfo of a Docker overlay2 container with the "
        "toolkit's read-only bind mounts (proc(5)); the device nodes the toolkit creates for "
        "GPU 1 (195:1, nvidiactl, nvidia-uvm's dynamic major as 510); etc/ld.so.cache is "
        "written by glibc's "
        "`ldconfig -r` over the tree (Debian 12's 2.36), the step the toolkit runs in the "
        "container; library files are tiny gcc-built ELF stand-ins with the real SONAMEs",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "NVIDIA_VISIBLE_DEVICES": "1", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"},
        real_world(
            "https://github.com/NVIDIA/libnvidia-container/issues/266",
            "Failed to initialize NVML: Driver/library version mismatch",
            "the image carries a newer driver's libnvidia-ml (525.105.17) than the host's "
            "470.129.06; the ldconfig run at container creation links libnvidia-ml.so.1 to the "
            "image's newer file, not to the host library the toolkit mounted (the maintainer's "
            "analysis and patch: re-create the driver libraries' links after ldconfig)",
            "driver.nvml-version-mismatch", "driver", "yes"),
        "[devices]\n/dev/nvidia1 = c 195:1 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
        "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")
    ldso_cache(dst)


def write():
    image_nvml_newer_than_host()
