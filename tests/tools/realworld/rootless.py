# SPDX-License-Identifier: GPL-2.0-or-later
"""Container engines without real root (rootless Docker, Docker in an unprivileged LXC
container) whose GPU containers go through the NVIDIA Container Toolkit's hook with
no-cgroups unset: nvidia-container-cli cannot allow the GPU in the container's device cgroup
(devices.allow on cgroup v1, a BPF device program on v2) and every container given the GPU
fails to start (container.rootless-no-cgroups; the maintainer in
https://github.com/NVIDIA/libnvidia-container/issues/154: "the only way to make this work will
be to set no-cgroups: true"). The negative is the rootless Docker host of
NVIDIA/nvidia-container-toolkit#85 after that setting. Written by
tests/tools/mk-real-world-fixtures.py rootless."""
from realworld.common import fresh, ini, real_world, w

TOPIC = "rootless"
FIXTURES = ("rw-rootless-cgv1-moby-38729", "rw-rootless-cgv1-nvidia-docker-1155",
            "rw-rootless-cgv2-nvidia-docker-1615", "rw-rootless-cgv2-nvidia-container-toolkit-85",
            "rootless-docker-no-cgroups-set", "rw-rootless-lxc-libnvidia-container-154")

PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
CGV1 = ("the cgroup v1 devices hierarchy (/sys/fs/cgroup/devices, which the error's "
        "devices.allow path names; no cgroup.controllers at the root)")
CGV2_CONTROLLERS = "cpuset cpu io memory hugetlb pids rdma misc\n"
PLACEHOLDERS = ("the NVIDIA driver's control node and one GPU node at its fixed major 195 "
                "(the reports run GPU containers; their nodes are not listed); the driver's "
                "modules and version (gpuenv takes a driver without a version file as not "
                "loaded), the GPU and nvidia-uvm (a dynamic major) are not shown and left out; "
                "binaries are empty stand-ins (only presence and mode are read)")
# the driver's fixed character major 195: nvidia0 is minor 0, nvidiactl 255
DEVICES = "[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"



def toolkit_bins(root, names):
    for b in names:
        w(root, f"usr/bin/{b}", b"", 0o755)


def rootless_socket(root, uid):
    """rootless Docker's daemon socket, $XDG_RUNTIME_DIR/docker.sock (an empty stand-in: the
    tree holds no socket; only its presence is read)."""
    w(root, f"run/user/{uid}/docker.sock", b"", 0o660)


def cli_config(root, lines):
    """/etc/nvidia-container-runtime/config.toml with only the [nvidia-container-cli] keys the
    report shows (the rest of the file as not set)."""
    w(root, "etc/nvidia-container-runtime/config.toml",
      "[nvidia-container-cli]\n" + "".join(f"{line}\n" for line in lines))


def moby_38729():
    # moby/moby#38729 (Akihiro Suda): `docker -H unix:///run/user/1001/docker.sock run -it --rm
    # --runtime=nvidia nvidia/cuda` fails in prestart hook 1, whose exec command is
    # /usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig
    # --device=all …, with "nvidia-container-cli: mount error: open failed:
    # /sys/fs/cgroup/devices/user.slice/devices.allow: permission denied"; the report: the
    # runtime "doesn't work with rootless mode, because cgroup is not supported in rootless mode".
    dst, root = fresh(FIXTURES[0])
    rootless_socket(root, 1001)
    toolkit_bins(root, ("nvidia-container-cli", "nvidia-container-runtime",
                        "nvidia-container-runtime-hook"))
    cli_config(root, ("load-kmods = true", 'ldconfig = "@/sbin/ldconfig"'))
    w(root, "sys/fs/cgroup/devices/devices.allow", "")
    ini(dst, TOPIC,
        "Rootless Docker (its daemon socket /run/user/1001/docker.sock) on a cgroup v1 host "
        "with the NVIDIA Container Runtime, no-cgroups unset: nvidia-container-cli cannot "
        "write the container's devices.allow and every container given the GPU fails",
        "Rebuilt from https://github.com/moby/moby/issues/38729 (pasted: the docker -H "
        "unix:///run/user/1001/docker.sock run --runtime=nvidia line, prestart hook 1's exec "
        "command /usr/bin/nvidia-container-cli --load-kmods configure "
        "--ldconfig=@/sbin/ldconfig --device=all … and its 'mount error: open failed: "
        "/sys/fs/cgroup/devices/user.slice/devices.allow: permission denied'); "
        "/etc/nvidia-container-runtime/config.toml holds only what the exec command shows of "
        "it (load-kmods, ldconfig; no --no-cgroups), the runtime and hook under /usr/bin "
        "(--runtime=nvidia and the hook that runs the CLI); " + CGV1 + "; not in the report "
        "and chosen here: the socket as an empty stand-in; the distribution, kernel, dockerd "
        "and toolkit versions are not shown and left out; " + PLACEHOLDERS,
        PATH,
        real_world(
            "https://github.com/moby/moby/issues/38729",
            "nvidia-container-cli: mount error: open failed: "
            "/sys/fs/cgroup/devices/user.slice/devices.allow: permission denied",
            "rootless Docker cannot set up device cgroups, which nvidia-container-cli does "
            "unless told not to (the reporter, a Docker rootless maintainer: \"cgroup is not "
            "supported in rootless mode\"); no-cgroups = true in the toolkit's config.toml "
            "is the way (NVIDIA/libnvidia-container#154, the maintainer)",
            "container.rootless-no-cgroups", "container", "yes"), DEVICES)


def nvidia_docker_1155():
    # NVIDIA/nvidia-docker#1155: Docker set up in rootless mode, the NVIDIA Container Toolkit
    # from the quick start; `docker run --gpus all nvidia/cuda:10.0-base nvidia-smi` fails in
    # prestart hook 0 with "nvidia-container-cli: mount error: open failed:
    # /sys/fs/cgroup/devices/user.slice/devices.allow: permission denied"; the fix in the
    # thread, disabling the toolkit's cgroups (no-cgroups), as MoetaYuko cites it in
    # NVIDIA/nvidia-docker#1615 ("disabling its use fixed the issue as mentioned in
    # #1155#issuecomment-884499204").
    dst, root = fresh(FIXTURES[1])
    rootless_socket(root, 1000)
    toolkit_bins(root, ("nvidia-container-cli", "nvidia-container-toolkit"))
    w(root, "sys/fs/cgroup/devices/devices.allow", "")
    ini(dst, TOPIC,
        "Docker in rootless mode on a cgroup v1 host with the NVIDIA Container Toolkit and no "
        "config.toml setting: `docker run --gpus all` fails writing devices.allow",
        "Rebuilt from https://github.com/NVIDIA/nvidia-docker/issues/1155 (pasted: the "
        "`docker run --gpus all nvidia/cuda:10.0-base nvidia-smi` error, prestart hook 0's "
        "'nvidia-container-cli: mount error: open failed: "
        "/sys/fs/cgroup/devices/user.slice/devices.allow: permission denied'; Docker set up "
        "in rootless mode, the toolkit from the quick start); the hook and CLI under /usr/bin "
        "(the toolkit's packages); " + CGV1 + "; not in the report and chosen here: rootless "
        "Docker's socket for uid 1000 (an empty stand-in), no config.toml (none is shown); the "
        "distribution, kernel and versions are not shown and left out; " + PLACEHOLDERS,
        PATH,
        real_world(
            "https://github.com/NVIDIA/nvidia-docker/issues/1155",
            "nvidia-container-cli: mount error: open failed: "
            "/sys/fs/cgroup/devices/user.slice/devices.allow: permission denied",
            "rootless Docker has no permission to the devices cgroup; disabling the "
            "toolkit's cgroup use (no-cgroups = true in "
            "/etc/nvidia-container-runtime/config.toml) fixed it (#1155's "
            "issuecomment-884499204, as NVIDIA/nvidia-docker#1615 cites it)",
            "container.rootless-no-cgroups", "container", "yes"), DEVICES)


def debian11_os_release():
    return ('PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\nNAME="Debian GNU/Linux"\n'
            'VERSION_ID="11"\nVERSION="11 (bullseye)"\nVERSION_CODENAME=bullseye\nID=debian\n'
            'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
            'BUG_REPORT_URL="https://bugs.debian.org/"\n')


def nvidia_docker_1615():
    # NVIDIA/nvidia-docker#1615 (= nvidia-container-toolkit#189): on Debian 11, cgroup v2, the
    # toolkit works "out-of-box … when docker runs as root user", but rootless Docker needs
    # no-cgroups in /etc/nvidia-container-runtime/config.toml; without it `docker run --rm
    # --gpus all nvidia/cuda:11.0-base nvidia-smi` fails (the reporter).
    dst, root = fresh(FIXTURES[2])
    w(root, "etc/os-release", debian11_os_release())
    rootless_socket(root, 1000)
    toolkit_bins(root, ("nvidia-container-cli", "nvidia-container-toolkit"))
    w(root, "usr/bin/dockerd", b"", 0o755)
    w(root, "sys/fs/cgroup/cgroup.controllers", CGV2_CONTROLLERS)
    ini(dst, TOPIC,
        "Debian 11 (cgroup v2) with Docker as root and rootless, the NVIDIA Container Toolkit "
        "without no-cgroups: the rootful daemon's GPU containers start, the rootless one's "
        "fail",
        "Rebuilt from https://github.com/NVIDIA/nvidia-docker/issues/1615 (pasted: Debian 11 "
        "with cgroup v2, `docker run --rm --gpus all nvidia/cuda:11.0-base nvidia-smi` working "
        "as root and failing under rootless Docker unless no-cgroups is set in "
        "/etc/nvidia-container-runtime/config.toml); Debian 11's os-release; cgroup v2's root "
        "cgroup.controllers; dockerd, the hook and the CLI under /usr/bin; not in the report and "
        "chosen here: rootless Docker's socket for uid 1000 (an empty stand-in), no "
        "config.toml (the setting is what is missing), the controllers a Debian 11 kernel "
        "lists; the kernel and versions are not shown and left out; " + PLACEHOLDERS,
        PATH,
        real_world(
            "https://github.com/NVIDIA/nvidia-docker/issues/1615",
            "docker run --rm --gpus all nvidia/cuda:11.0-base nvidia-smi fails under rootless "
            "Docker (as in NVIDIA/nvidia-docker#1155) and works when Docker runs as root",
            "rootless Docker cannot set up the device cgroup nvidia-container-cli asks for; "
            "setting no-cgroups in /etc/nvidia-container-runtime/config.toml made it work (the "
            "reporter); libnvidia-container supports cgroup v2 since 1.8.0 (the maintainer), "
            "which does not lift this",
            "container.rootless-no-cgroups", "container", "yes"), DEVICES)


def toolkit_85_host(name, no_cgroups):
    """NVIDIA/nvidia-container-toolkit#85's host: Docker as root and rootless
    (dockerd-rootless-setuptool.sh install), reached with
    DOCKER_HOST=unix://$XDG_RUNTIME_DIR/docker.sock, cgroup v2 (the BPF device filters of
    the error), the toolkit's hook in legacy mode; no_cgroups: the config.toml line, or None
    for none."""
    dst, root = fresh(name)
    rootless_socket(root, 1000)
    toolkit_bins(root, ("nvidia-container-cli", "nvidia-container-runtime",
                        "nvidia-container-runtime-hook", "nvidia-ctk", "dockerd",
                        "dockerd-rootless.sh", "dockerd-rootless-setuptool.sh"))
    if no_cgroups is not None:
        cli_config(root, (f"no-cgroups = {no_cgroups}",))
    w(root, "sys/fs/cgroup/cgroup.controllers", CGV2_CONTROLLERS)
    return dst, root


TK85_SOURCE = (
    "NVIDIA/nvidia-container-toolkit#85 (= NVIDIA/nvidia-docker#1771; pasted: `docker run "
    "--rm --gpus all nvidia/cuda:12.0.0-base-ubuntu20.04 nvidia-smi` working with rootful "
    "Docker, rootless Docker installed with dockerd-rootless-setuptool.sh and reached with "
    "DOCKER_HOST=unix://$XDG_RUNTIME_DIR/docker.sock, its error \"Auto-detected mode as "
    "'legacy'\" and \"nvidia-container-cli: mount error: failed to add device rules: unable "
    "to find any existing device filters attached to the cgroup: "
    "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted\", and the setting "
    "in /etc/nvidia-container-runtime/config.toml that has to be switched for the one or the "
    "other); the env's DOCKER_HOST as the user's shell has it, $XDG_RUNTIME_DIR as "
    "/run/user/1000; dockerd, dockerd-rootless.sh, dockerd-rootless-setuptool.sh, "
    "nvidia-ctk, the runtime, hook and CLI under /usr/bin; cgroup v2 (the BPF device filters "
    "are v2's); not in the report and chosen here: uid 1000, the socket as an empty "
    "stand-in, the controllers a current kernel lists; the distribution, kernel and versions "
    "are not shown and left out; " + PLACEHOLDERS)
TK85_ENV = dict(PATH, DOCKER_HOST="unix:///run/user/1000/docker.sock")


def toolkit_85():
    dst, _ = toolkit_85_host(FIXTURES[3], None)
    ini(dst, TOPIC,
        "Docker both rootful and rootless (DOCKER_HOST=unix:///run/user/1000/docker.sock) on "
        "cgroup v2 with the NVIDIA Container Toolkit's hook and no no-cgroups: the rootless "
        "daemon's GPU containers fail in the BPF device filter query",
        "Rebuilt from https://github.com/" + TK85_SOURCE.replace(
            "NVIDIA/nvidia-container-toolkit#85", "NVIDIA/nvidia-container-toolkit/issues/85", 1)
        + "; no config.toml (the report's rootful setting, none written)",
        TK85_ENV,
        real_world(
            "https://github.com/NVIDIA/nvidia-container-toolkit/issues/85",
            "nvidia-container-cli: mount error: failed to add device rules: unable to find "
            "any existing device filters attached to the cgroup: "
            "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.",
            "rootless Docker cannot query or attach the cgroup's BPF device programs that "
            "nvidia-container-cli edits; no-cgroups = true in "
            "/etc/nvidia-container-runtime/config.toml makes the rootless containers start "
            "(and the rootful ones then need it false: the reporter)",
            "container.rootless-no-cgroups", "container", "yes"), DEVICES)


def toolkit_85_fixed():
    dst, _ = toolkit_85_host(FIXTURES[4], "true")
    ini(dst, TOPIC,
        "The rootless Docker host of NVIDIA/nvidia-container-toolkit#85 after the fix: "
        "no-cgroups = true in /etc/nvidia-container-runtime/config.toml, rootless GPU "
        "containers start (container.rootless-no-cgroups' negative)",
        "The host of https://github.com/" + TK85_SOURCE.replace(
            "NVIDIA/nvidia-container-toolkit#85", "NVIDIA/nvidia-container-toolkit/issues/85", 1)
        + " with the report's rootless setting, no-cgroups = true, in config.toml",
        TK85_ENV, "", DEVICES)


def lxc_154():
    # NVIDIA/libnvidia-container#154: Docker in an LXC container (Debian 10) on Proxmox, kernel
    # 5.15.7-1-pve, cgroup2 with lxc.cgroup2.devices.allow for majors 195, 235, 511; `docker run
    # … --gpus all` fails with "nvidia-container-cli: mount error: failed to add device rules:
    # unable to find any existing device filters attached to the cgroup:
    # bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted". The maintainer:
    # "running rootless containers will never give libnvidia-container permission to modify
    # cgroups, and the only way to make this work will be to set no-cgroups: true".
    dst, root = fresh(FIXTURES[5])
    w(root, "etc/os-release",
      'PRETTY_NAME="Debian GNU/Linux 10 (buster)"\nNAME="Debian GNU/Linux"\nVERSION_ID="10"\n'
      'VERSION="10 (buster)"\nVERSION_CODENAME=buster\nID=debian\n'
      'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
      'BUG_REPORT_URL="https://bugs.debian.org/"\n')
    w(root, "proc/sys/kernel/osrelease", "5.15.7-1-pve\n")
    w(root, "proc/self/uid_map", "         0     100000      65536\n")
    toolkit_bins(root, ("nvidia-container-cli", "nvidia-container-toolkit", "dockerd"))
    w(root, "sys/fs/cgroup/cgroup.controllers", CGV2_CONTROLLERS)
    ini(dst, TOPIC,
        "Docker inside an unprivileged LXC container (Debian 10 on Proxmox, kernel "
        "5.15.7-1-pve, cgroup v2) with the NVIDIA Container Toolkit: nvidia-container-cli "
        "cannot query the cgroup's BPF device filters and every --gpus container fails",
        "Rebuilt from https://github.com/NVIDIA/libnvidia-container/issues/154 (pasted: the "
        "docker run … --gpus all line and its 'nvidia-container-cli: mount error: failed to "
        "add device rules: unable to find any existing device filters attached to the cgroup: "
        "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted', kernel "
        "5.15.7-1-pve, an LXC container with Debian 10 and lxc.cgroup2.devices.allow lines "
        "for majors 195, 235, 511); Debian 10's os-release, the kernel release as pasted, "
        "cgroup v2's root cgroup.controllers, dockerd, the hook and the CLI under /usr/bin; "
        "not in the report and chosen here: /proc/self/uid_map as Proxmox maps an "
        "unprivileged container's root (to 100000, 65536 ids: the maintainer calls the setup "
        "rootless), no config.toml (none is shown), the controllers a 5.15 kernel lists; the "
        "toolkit's versions (a later commenter's 1.8.1-1 is another machine) are left out; "
        "of the nodes the LXC config allows, those of major 195 (the driver's); " + PLACEHOLDERS,
        PATH,
        real_world(
            "https://github.com/NVIDIA/libnvidia-container/issues/154",
            "nvidia-container-cli: mount error: failed to add device rules: unable to find "
            "any existing device filters attached to the cgroup: "
            "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.",
            "Docker in the (unprivileged) LXC container runs without real root, so "
            "libnvidia-container can never modify the cgroup; the maintainer: the only way is "
            "no-cgroups = true",
            "container.rootless-no-cgroups", "container", "yes"), DEVICES)


def write():
    moby_38729()
    nvidia_docker_1155()
    nvidia_docker_1615()
    toolkit_85()
    toolkit_85_fixed()
    lxc_154()
