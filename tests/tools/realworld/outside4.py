# SPDX-License-Identifier: GPL-2.0-or-later
"""A fourth outside evaluator's round (rw48d): fresh reports from the places with the most
users, rebuilt only as far as each thread shows the machine. Here Docker Desktop for Linux,
whose context (desktop-linux) makes the docker CLI talk to an engine in a VM with no GPU and
no NVIDIA Container Toolkit while the toolkit is set up for the host's Docker Engine
(container.docker-desktop-context; the maintainer in
https://github.com/NVIDIA/nvidia-container-toolkit/issues/83: "Docker Desktop uses a VM to run
containers, and this does not have the NVIDIA Container Toolkit installed … The recommendation
is to use Docker Engine"), and the negative: the same host back on the default context. The
scores before any change are in docs/HACKING.md ("Reports an outside evaluator would pick",
fourth round). Written by tests/tools/mk-real-world-fixtures.py outside4."""
import json

from realworld.common import dpkg, ini, real_world, ubuntu_os_release, w
from realworld.containerd_k8s import driver_host

TOPIC = "outside4"
FIXTURES = ("rw-docker-desktop-context-nvidia-container-toolkit-814",
            "docker-engine-default-context-desktop-installed",
            "rw-docker-desktop-sudo-works-nvidia-container-toolkit-175")
PATH = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
UBUNTU2404 = ubuntu_os_release("24.04.1", "Noble Numbat", "noble")
UBUNTU2204 = ubuntu_os_release("22.04.3", "Jammy Jellyfish", "jammy")
DEVICES = ("[devices]\n/dev/nvidiactl = c 195:255 0666 0:0\n/dev/nvidia0 = c 195:0 0666 0:0\n"
           "/dev/nvidia-uvm = c 511:0 0666 0:0\n/dev/nvidia-uvm-tools = c 511:1 0666 0:0\n")
# What `sudo nvidia-ctk runtime configure --runtime=docker` writes (NVIDIA's install guide,
# "Configuring Docker"), the toolkit's usual daemon.json.
DAEMON_JSON = ('{\n    "runtimes": {\n        "nvidia": {\n            "args": [],\n'
               '            "path": "nvidia-container-runtime"\n        }\n    }\n}')
TOOLKIT_BINS = ("usr/bin/nvidia-ctk", "usr/bin/nvidia-container-runtime",
                "usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-container-cli",
                "usr/bin/nvidia-cdi-hook")
DOCKER_BINS = ("usr/bin/dockerd", "usr/bin/docker")
# The digest directory docker/cli names a context's metadata by: sha256 of the name
# (cli/context/store/metadatastore.go); only its meta.json is read, by its "Name".
DESKTOP_DIGEST = "fe9c6bd7a66301f49ca9b6a70b217107cd1284598bfc254700c989b916da791e"
PLACEHOLDERS = ("the driver's modules, its build line and sizes and the nvidia-uvm major "
                "(dynamic) are placeholders; binaries and Docker Desktop's /opt/docker-desktop "
                "are empty stand-ins (only presence is read); the GPU's PCI tree is not "
                "written (hardware unknown)")


def desktop_context(root, home, current):
    """~/.docker as Docker Desktop for Linux leaves it: its context desktop-linux
    (contexts/meta/<digest>/meta.json, endpoint ~/.docker/desktop/docker.sock) and
    config.json's currentContext, which Docker Desktop sets when it starts (docs.docker.com,
    "Docker Desktop for Linux", "Docker Desktop and Docker Engine"); current None: config.json
    without currentContext, as `docker context use default` leaves it."""
    meta = {"Name": "desktop-linux", "Metadata": {"Description": "Docker Desktop"},
            "Endpoints": {"docker": {"Host": f"unix://{home}/.docker/desktop/docker.sock",
                                     "SkipTLSVerify": False}}}
    w(root, f"{home.lstrip('/')}/.docker/contexts/meta/{DESKTOP_DIGEST}/meta.json",
      json.dumps(meta, separators=(",", ":")))
    cfg = {"auths": {}, "credsStore": "desktop"}
    if current:
        cfg["currentContext"] = current
    w(root, f"{home.lstrip('/')}/.docker/config.json", json.dumps(cfg, indent="\t") + "\n")
    w(root, "opt/docker-desktop/.keep", "")


def ubuntu2404_host(name, home, current):
    dst, root = driver_host(
        name, UBUNTU2404, "6.8.0-49-generic", "550.120", "Fri Sep 20 20:37:58 UTC 2024",
        "13.2.0 (Ubuntu 13.2.0-23ubuntu4)", (1790976, 9781248, 2),
        DOCKER_BINS + TOOLKIT_BINS)
    dpkg(root, {"nvidia-container-toolkit": "1.17.2-1",
                "nvidia-container-toolkit-base": "1.17.2-1",
                "libnvidia-container-tools": "1.17.2-1", "libnvidia-container1": "1.17.2-1",
                "docker-ce": "5:27.3.1-1~ubuntu.24.04~noble"})
    w(root, "etc/docker/daemon.json", DAEMON_JSON + "\n")
    desktop_context(root, home, current)
    return dst, root


def toolkit_814():
    """NVIDIA/nvidia-container-toolkit#814: Ubuntu 24.04.1, Docker 27.3.1, the toolkit's
    runtime 1.17.2; a container that ran before fails with "could not select device driver
    "" with capabilities: [[gpu]]"; the reporter found the cause: installing Docker Desktop
    made its context current (`docker context ls`: desktop-linux *, endpoint
    unix:///home/user/.docker/desktop/docker.sock)."""
    name = FIXTURES[0]
    url = "https://github.com/NVIDIA/nvidia-container-toolkit/issues/814"
    home = "/home/user"
    dst, root = ubuntu2404_host(name, home, "desktop-linux")
    pasted = ("docker: Error response from daemon: could not select device driver \"\" with "
              "capabilities: [[gpu]]. / Docker version 27.3.1, build ce12230 / NVIDIA "
              "Container Runtime version 1.17.2 / desktop-linux * Docker Desktop "
              "unix:///home/user/.docker/desktop/docker.sock")
    ini(dst, TOPIC,
        "Ubuntu 24.04.1 with Docker Engine configured for the NVIDIA Container Toolkit and "
        "Docker Desktop installed afterwards: the docker CLI's current context is Docker "
        "Desktop's (desktop-linux), whose engine runs in a VM without the GPU or the toolkit, "
        "so `docker run --gpus all` fails with \"could not select device driver\"",
        f"Rebuilt from {url} (pasted: the error, 'Docker version 27.3.1, build ce12230', "
        "'NVIDIA Container Runtime version 1.17.2', runc 1.1.14, and `docker context ls` with "
        "default (unix:///var/run/docker.sock) and desktop-linux * (Docker Desktop, "
        "unix:///home/user/.docker/desktop/docker.sock); the reporter: 'After install "
        "docker desktop, it creates a new context'); /etc/docker/daemon.json was 'checked' "
        "but not pasted: here what `nvidia-ctk runtime configure --runtime=docker` writes; the reporter's user name is the fixtures' placeholder `user`; "
        "~/.docker/config.json's currentContext and the context's meta.json as docker/cli "
        "and Docker Desktop write them (its credsStore and the docker-ce package version "
        "chosen here); placeholders, not in the report: the NVIDIA driver 550.120 and the "
        "kernel 6.8.0-49-generic; " + PLACEHOLDERS,
        dict(PATH, HOME=home),
        real_world(
            url, pasted,
            "Docker Desktop's context (desktop-linux) is the docker CLI's current one: its "
            "engine runs in a VM with no GPU and no NVIDIA Container Toolkit, while the "
            "toolkit configures the host's Docker Engine (the reporter; the maintainer in "
            "NVIDIA/nvidia-container-toolkit#83: use Docker Engine)",
            "container.docker-desktop-context", "container", "yes"),
        DEVICES)


def default_context_negative():
    """The negative: the host of #814 after `docker context use default` (config.json
    without currentContext): Docker Desktop and its context are still there, the CLI talks to
    the host's Docker Engine, whose daemon.json names the nvidia runtime."""
    name = FIXTURES[1]
    dst, root = ubuntu2404_host(name, "/home/user", None)
    ini(dst, TOPIC,
        "Docker Desktop installed beside Docker Engine, the docker CLI back on the default "
        "context (the host's Docker Engine, configured for the NVIDIA Container Toolkit): GPU "
        "containers work",
        "The host of rw-docker-desktop-context-nvidia-container-toolkit-814 "
        "(https://github.com/NVIDIA/nvidia-container-toolkit/issues/814) after `docker "
        "context use default`, which leaves config.json without currentContext (docker/cli "
        "cli/command/context/use.go); the negative of container.docker-desktop-context; the "
        "same placeholders: the NVIDIA driver 550.120 and the kernel; " + PLACEHOLDERS,
        dict(PATH, HOME="/home/user"), "", DEVICES)


def toolkit_175():
    """NVIDIA/nvidia-container-toolkit#175: Ubuntu 22.04 (HWE kernel 6.2.0-37-generic, the
    535 driver 535.129.03 from Ubuntu's packages), toolkit 1.14.3, Docker Desktop running
    (nvidia-smi -q lists /opt/docker-desktop/Docker Desktop as a graphics process, --user-data-dir
    /home/user/.config/Docker Desktop): `docker run --gpus` fails without sudo and works
    with it; the maintainer: the toolkit supports docker-ce, not Docker Desktop on Linux."""
    name = FIXTURES[2]
    url = "https://github.com/NVIDIA/nvidia-container-toolkit/issues/175"
    home = "/home/user"
    dst, root = driver_host(
        name, UBUNTU2204, "6.2.0-37-generic", "535.129.03", "Wed Oct 25 19:20:04 UTC 2023",
        "12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)", (1630208, 56266752, 36),
        DOCKER_BINS + TOOLKIT_BINS[:4])
    dpkg(root, {"nvidia-container-toolkit": "1.14.3-1",
                "nvidia-container-toolkit-base": "1.14.3-1",
                "libnvidia-container-tools": "1.14.3-1", "libnvidia-container1": "1.14.3-1",
                "nvidia-compute-utils-535": "535.129.03-0ubuntu0.22.04.1",
                "linux-modules-nvidia-535-6.2.0-37-generic": "6.2.0-37.38~22.04.1"})
    w(root, "etc/docker/daemon.json", DAEMON_JSON + "\n")
    desktop_context(root, home, "desktop-linux")
    pasted = ("docker: Error response from daemon: could not select device driver \"\" with "
              "capabilities: [[gpu]]. / nvidia-smi -q: Name : /opt/docker-desktop/Docker "
              "Desktop --type=gpu-process … --user-data-dir=/home/user/.config/Docker "
              "Desktop / cli-version: 1.14.3 / ii nvidia-compute-utils-535 "
              "535.129.03-0ubuntu0.22.04.1")
    ini(dst, TOPIC,
        "Ubuntu 22.04 with Docker Engine and the NVIDIA Container Toolkit 1.14.3, and Docker "
        "Desktop running: as the user, docker talks to Docker Desktop's VM (no GPU, no "
        "toolkit) and `docker run --gpus` fails; under sudo (root's default context) it works",
        f"Rebuilt from {url} (pasted: `nvidia-smi -q`'s processes with /opt/docker-desktop/"
        "Docker Desktop and the user's home (its name the fixtures' placeholder `user`), `nvidia-container-cli -V` 1.14.3, "
        "`dpkg -l '*nvidia*'` with nvidia-compute-utils-535 535.129.03-0ubuntu0.22.04.1 and "
        "linux-modules-nvidia-535-6.2.0-37-generic, docker version's 'Client: Docker Engine - "
        "Community'; elezar: 'the toolkit currently only supports docker-ce and not Docker "
        "Desktop on Linux'); chosen here: ~/.docker as Docker Desktop leaves it when it starts "
        "(currentContext desktop-linux, docs.docker.com 'Docker Desktop for Linux'), the "
        "daemon.json `nvidia-ctk runtime configure` writes; placeholders: the point release "
        "22.04.3, the driver's build date; " + PLACEHOLDERS,
        dict(PATH, HOME=home),
        real_world(
            url, pasted,
            "Docker Desktop for Linux runs containers in a VM the toolkit does not reach; as "
            "the user the CLI uses Docker Desktop's context, under sudo root's default one "
            "(the maintainer: only docker-ce is supported, not Docker Desktop on Linux)",
            "container.docker-desktop-context", "container", "yes"),
        DEVICES)


def write():
    toolkit_814()
    default_context_negative()
    toolkit_175()
