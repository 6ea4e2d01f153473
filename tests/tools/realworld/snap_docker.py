# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of Docker installed as a snap (container.no-nvidia-runtime): the snap's
confined dockerd cannot run the host's nvidia-container-runtime-hook, so `docker run --gpus`
fails although the NVIDIA Container Toolkit is installed on the host. Written by
tests/tools/mk-real-world-fixtures.py snap_docker."""
from realworld.common import fresh, ini, link, real_world, ubuntu_os_release, w

TOPIC = "snap_docker"
FIXTURES = ('rw-snap-docker-gpus', 'rw-snap-docker-classic-nvml', 'rw-snap-docker-noble-runtime-nvidia')


def ini_text(dst, desc, source, rw, variables, sections="", args="--no-vendor"):
    ini(dst, TOPIC, desc, source, variables, real_world(**rw),
        sections.rstrip("\n") + "\n" if sections else "", args=args)


UBUNTU2004 = ('NAME="Ubuntu"\nVERSION="20.04.4 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
              'PRETTY_NAME="Ubuntu 20.04.4 LTS"\nVERSION_ID="20.04"\n'
              'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
              'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
              'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')

UBUNTU2204 = ubuntu_os_release("22.04.2", "Jammy Jellyfish", "jammy", logo=False)
UBUNTU2404 = ubuntu_os_release("24.04.1", "Noble Numbat", "noble")


def dpkg(pkgs):
    return "".join(f"Package: {name}\nStatus: install ok installed\nPriority: optional\n"
                   f"Architecture: {arch}\nVersion: {ver}\nDescription: {desc}\n\n"
                   for name, arch, ver, desc in pkgs)


DEVICES = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
           "/dev/nvidia-modeset = c 195:254 0666 0:0\n/dev/nvidia-uvm = c 508:0 0666 0:0\n"
           "/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n")


def snap_host(name, osrel, kernel, drv, build, gcc, revision):
    """A host with the NVIDIA driver `drv` loaded and Docker from the snap store: /snap/bin/docker
    is snapd's link to /usr/bin/snap; the snap's data directory holds the daemon.json it ships
    (no runtimes). Returns (dst, root)."""
    dst, root = fresh(name)
    w(root, "etc/os-release", osrel)
    w(root, "proc/sys/kernel/osrelease", kernel + "\n")
    w(root, "proc/modules",
      "nvidia_uvm 1048576 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 61440 4 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1200128 8 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 35307520 402 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  {build}\n"
      f"GCC version:  gcc version {gcc} \n")
    link(root, "snap/bin/docker", "/usr/bin/snap")
    link(root, "var/snap/docker/current", revision)
    w(root, f"var/snap/docker/{revision}/config/daemon.json",
      '{\n    "log-level":        "error",\n    "storage-driver":   "overlay2"\n}\n')
    return dst, root


def write():
    # NVIDIA/nvidia-docker#1637: Ubuntu 20.04, driver 470.103.01, NVIDIA Container Toolkit
    # 1.9.0 installed, Docker from the snap store (the maintainer's diagnosis, repeated in
    # #1642: "this was due to docker being installed as a snap").
    drv = "470.103.01"
    dst, root = snap_host("rw-snap-docker-gpus", UBUNTU2004, "5.13.0-39-generic", drv,
                          "Thu Jan  6 12:10:04 UTC 2022", "9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04)",
                          "1125")
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
        DEVICES)

    # canonical/docker-snap#148: Ubuntu 22.04.2 server with the NVIDIA driver working on the
    # host, Docker from `snap install docker`, no NVIDIA Container Toolkit on the host: the
    # snap's NVIDIA support was for Ubuntu Core only (the maintainer), so `--gpus all` fails.
    drv = "535.54.03"
    dst, root = snap_host("rw-snap-docker-classic-nvml", UBUNTU2204, "5.15.0-76-generic", drv,
                          "Tue Jun  6 22:20:39 UTC 2023",
                          "11.3.0 (Ubuntu 11.3.0-1ubuntu1~22.04.1)", "2893")
    for b in ("snap", "nvidia-smi"):
        w(root, f"usr/bin/{b}", b"", 0o755)
    w(root, "var/lib/dpkg/status", dpkg([
        ("nvidia-utils-535", "amd64", f"{drv}-0ubuntu1", "NVIDIA driver support binaries"),
        ("libnvidia-compute-535", "amd64", f"{drv}-0ubuntu1", "NVIDIA libcompute package"),
    ]))
    ini_text(
        dst,
        "Ubuntu 22.04.2 server whose NVIDIA driver works on the host (nvidia-smi), Docker "
        "installed with `snap install docker` and no NVIDIA Container Toolkit on the host: "
        "`docker run --gpus all nvidia/cuda:11.7.1-runtime-ubuntu22.04` fails in the snap's "
        "hook, which cannot load the host's libnvidia-ml.so.1; the snap's NVIDIA support was "
        "for Ubuntu Core only, not classic Ubuntu",
        "the install commands, the image and the error as pasted; the maintainer's answer "
        "(NVIDIA support in the snap developed for Ubuntu Core only, not Classic); dpkg status "
        "stanzas of the Ubuntu driver packages (nvidia-utils-535, libnvidia-compute-535), "
        "/proc/modules, /sys/module/nvidia/version and /proc/driver/nvidia/version as the "
        "module prints them; Ubuntu 22.04's os-release; /snap/bin/docker as snapd links it (to "
        "/usr/bin/snap); /var/snap/docker/current -> <revision> as snapd makes it and the "
        "config/daemon.json the docker snap ships (no runtimes); binaries are empty stand-ins "
        "(only presence and mode are read); the device nodes as the driver makes them "
        "(nvidia-uvm's dynamic major a placeholder); placeholders, not in the report: the "
        "driver 535.54.03 (its build date too), the kernel 5.15.0-76-generic, the snap "
        "revision, the GPU (none shown)",
        {"url": "https://github.com/canonical/docker-snap/issues/148",
         "pasted": "docker: Error response from daemon: failed to create shim task: OCI runtime "
                   "create failed: runc create failed: unable to start container process: "
                   "error during container init: error running hook #0: error running hook: "
                   "exit status 1, stdout: , stderr: Auto-detected mode as 'legacy' "
                   "nvidia-container-cli: initialization error: load library failed: "
                   "libnvidia-ml.so.1: cannot open shared object file: no such file or "
                   "directory: unknown.",
         "cause": "Docker installed as a snap on classic Ubuntu: the snap's NVIDIA support "
                  "was developed for Ubuntu Core only, so its runtime hook cannot use the "
                  "host's driver (the maintainer's answer)",
         "root_cause": "container.no-nvidia-runtime",
         "layer": "container",
         "fails": "yes"},
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:"
                 "/usr/local/games:/snap/bin"},
        DEVICES)

    # canonical/docker-snap#180: Ubuntu 24.04.1 desktop, `sudo snap install docker` (24.0.5),
    # `docker run --runtime=nvidia` fails: the daemon has no runtime of that name. The
    # maintainer: the current stable revision (2932) should work; updating the system and
    # the snap solved it.
    drv = "550.107.02"
    dst, root = snap_host("rw-snap-docker-noble-runtime-nvidia", UBUNTU2404, "6.8.0-45-generic",
                          drv, "Wed Jul 24 23:53:34 UTC 2024",
                          "13.2.0 (Ubuntu 13.2.0-23ubuntu4)", "2915")
    for b in ("snap", "nvidia-smi"):
        w(root, f"usr/bin/{b}", b"", 0o755)
    w(root, "var/lib/dpkg/status", dpkg([
        ("nvidia-utils-550", "amd64", f"{drv}-0ubuntu0.24.04.1", "NVIDIA driver support binaries"),
        ("libnvidia-compute-550", "amd64", f"{drv}-0ubuntu0.24.04.1", "NVIDIA libcompute package"),
    ]))
    ini_text(
        dst,
        "Ubuntu 24.04.1 desktop (kernel 6.8.0-45-generic) whose NVIDIA driver works on the host, "
        "Docker 24.0.5 from `sudo snap install docker`: `docker run --runtime=nvidia "
        "tensorflow/tensorflow:latest-gpu` fails with 'unknown or invalid runtime name: "
        "nvidia': the snap's dockerd, as installed, names no nvidia runtime in its "
        "daemon.json; updating the system and refreshing the snap (whose stable revision "
        "configures the nvidia runtime) fixed it",
        "the install command and its output (docker 24.0.5 from Canonical), the docker run "
        "command and error, Ubuntu 24.04.1 and `uname -a` (6.8.0-45-generic) as pasted; the "
        "maintainer's answer (the stable revision changed on Sep 3rd, the current stable "
        "revision 2932 should work) and the user's fix (a full update of apt, snap and images); "
        "dpkg status stanzas of the Ubuntu driver packages; /proc/modules, "
        "/sys/module/nvidia/version and /proc/driver/nvidia/version as the module prints them; "
        "Ubuntu 24.04's os-release; /snap/bin/docker as snapd links it (to /usr/bin/snap); "
        "/var/snap/docker/current -> <revision> and the config/daemon.json the docker snap "
        "ships (no runtimes); binaries are empty stand-ins (only presence and mode are read); "
        "the device nodes as the driver makes them (nvidia-uvm's dynamic major a placeholder); "
        "placeholders, not in the report: the driver 550.107.02 (noble's in September 2024; "
        "the pasted nvidia-smi is cut off) and its build date, the snap revision 2915 (one "
        "before the stable 2932), the GPU (none shown)",
        {"url": "https://github.com/canonical/docker-snap/issues/180",
         "pasted": "docker: Error response from daemon: unknown or invalid runtime name: "
                   "nvidia. See 'docker run --help'.",
         "cause": "Docker from the snap store: the snap's dockerd has no nvidia runtime "
                  "configured (its daemon.json names none); the snap revision that configures "
                  "it (stable 2932), installed by updating, fixed it",
         "root_cause": "container.no-nvidia-runtime",
         "layer": "container",
         "fails": "yes"},
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:"
                 "/usr/local/games:/snap/bin"},
        DEVICES)
