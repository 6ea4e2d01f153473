# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of Docker installed as a snap (container.no-nvidia-runtime): the snap's
confined dockerd cannot run the host's nvidia-container-runtime-hook, so `docker run --gpus`
fails although the NVIDIA Container Toolkit is installed on the host. Written by
tests/tools/mk-real-world-fixtures.py snap_docker."""
from realworld.common import fresh, ini, link, real_world, w

TOPIC = "snap_docker"
FIXTURES = ('rw-snap-docker-gpus',)


def ini_text(dst, desc, source, rw, variables, sections="", args="--no-vendor"):
    ini(dst, TOPIC, desc, source, variables, real_world(**rw),
        sections.rstrip("\n") + "\n" if sections else "", args=args)


UBUNTU2004 = ('NAME="Ubuntu"\nVERSION="20.04.4 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
              'PRETTY_NAME="Ubuntu 20.04.4 LTS"\nVERSION_ID="20.04"\n'
              'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
              'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
              'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')


def dpkg(pkgs):
    return "".join(f"Package: {name}\nStatus: install ok installed\nPriority: optional\n"
                   f"Architecture: {arch}\nVersion: {ver}\nDescription: {desc}\n\n"
                   for name, arch, ver, desc in pkgs)


def write():
    # NVIDIA/nvidia-docker#1637: Ubuntu 20.04, driver 470.103.01, NVIDIA Container Toolkit
    # 1.9.0 installed, Docker from the snap store (the maintainer's diagnosis, repeated in
    # #1642: "this was due to docker being installed as a snap").
    dst, root = fresh("rw-snap-docker-gpus")
    drv = "470.103.01"
    w(root, "etc/os-release", UBUNTU2004)
    w(root, "proc/sys/kernel/osrelease", "5.13.0-39-generic\n")
    w(root, "proc/modules",
      "nvidia_uvm 1048576 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 61440 4 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1200128 8 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 35307520 402 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  Thu Jan  6 12:10:04 UTC 2022\n"
      "GCC version:  gcc version 9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04) \n")
    # The toolkit on the host, as its 1.9.0 packages install it (the hook and the CLI).
    for b in ("nvidia-container-runtime-hook", "nvidia-container-toolkit",
              "nvidia-container-cli", "snap"):
        w(root, f"usr/bin/{b}", b"", 0o755)
    w(root, "var/lib/dpkg/status", dpkg([
        ("nvidia-container-toolkit", "amd64", "1.9.0-1", "NVIDIA container runtime hook"),
        ("libnvidia-container-tools", "amd64", "1.9.0-1",
         "NVIDIA container runtime library (command-line tools)"),
        ("libnvidia-container1", "amd64", "1.9.0-1", "NVIDIA container runtime library"),
        ("nvidia-utils-470", "amd64", f"{drv}-0ubuntu0.20.04.1", "NVIDIA driver support binaries"),
    ]))
    # Docker from the snap store: /snap/bin/docker is snapd's link to /usr/bin/snap; the
    # snap's data directory holds the daemon.json it ships (no runtimes).
    link(root, "snap/bin/docker", "/usr/bin/snap")
    link(root, "var/snap/docker/current", "1125")
    w(root, "var/snap/docker/1125/config/daemon.json",
      '{\n    "log-level":        "error",\n    "storage-driver":   "overlay2"\n}\n')
    ini_text(
        dst,
        "Ubuntu 20.04 with driver 470.103.01 and the NVIDIA Container Toolkit 1.9.0 installed "
        "on the host, but Docker installed from the snap store: the snap's confined dockerd "
        "never sees /usr/bin/nvidia-container-runtime-hook and its daemon.json names no "
        "nvidia runtime, so `docker run --gpus all` fails",
        "dpkg status stanzas with the package versions pasted (nvidia-utils-470 "
        "470.103.01-0ubuntu0.20.04.1; cli-version/lib-version 1.9.0 as the 1.9.0-1 packages); "
        "/proc/modules, /sys/module/nvidia/version and /proc/driver/nvidia/version as the "
        "470.103.01 module prints them (its build date a placeholder); Ubuntu 20.04.4's "
        "os-release; /snap/bin/docker as snapd links it (to /usr/bin/snap); "
        "/var/snap/docker/current -> <revision> as snapd makes it (the revision a "
        "placeholder) and the config/daemon.json the docker snap ships (log-level, "
        "storage-driver; no runtimes); binaries are empty stand-ins (only presence and mode "
        "are read); the device nodes as the driver makes them (nvidia-uvm's dynamic major a placeholder); the kernel release and the GPU are placeholders the report does not show",
        {"url": "https://github.com/NVIDIA/nvidia-docker/issues/1637",
         "pasted": 'docker: Error response from daemon: could not select device driver "" '
                   'with capabilities: [[gpu]].',
         "cause": "Docker installed as a snap: its confined dockerd does not use the host's "
                  "NVIDIA Container Toolkit (maintainer's diagnosis, NVIDIA/nvidia-docker#1642)",
         "root_cause": "container.no-nvidia-runtime",
         "layer": "container",
         "fails": "yes"},
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:"
                 "/usr/local/games:/snap/bin"},
        "[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
        "/dev/nvidia-modeset = c 195:254 0666 0:0\n/dev/nvidia-uvm = c 508:0 0666 0:0\n"
        "/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n")
