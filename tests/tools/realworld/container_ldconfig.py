# SPDX-License-Identifier: GPL-2.0-or-later
"""Docker hosts whose NVIDIA Container Toolkit config names a host ldconfig the host does not
have: nvidia-container-cli runs `ldconfig = "@<host path>"` on every GPU container's root, and
the Ubuntu packages' "@/sbin/ldconfig.real" exists on Ubuntu only
(container.toolkit-ldconfig-missing). Written by tests/tools/mk-real-world-fixtures.py
container_ldconfig."""
from realworld.common import fresh, ini, link, real_world, ubuntu_os_release, w

TOPIC = "container_ldconfig"
FIXTURES = ("rw-ldconfig-real-debian9-nvidia-docker-614", "toolkit-ldconfig-real-on-ubuntu")

# Debian 9's /etc/os-release as base-files 9.9+deb9u* installs it.
DEBIAN9_OS_RELEASE = (
    'PRETTY_NAME="Debian GNU/Linux 9 (stretch)"\nNAME="Debian GNU/Linux"\nVERSION_ID="9"\n'
    'VERSION="9 (stretch)"\nVERSION_CODENAME=stretch\nID=debian\n'
    'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
    'BUG_REPORT_URL="https://bugs.debian.org/"\n')

# The toolkit binaries of the nvidia-docker2 era (nvidia-container-runtime 1.x): empty
# stand-ins, only presence and mode are read.
TOOLKIT_BINS = ("usr/bin/dockerd", "usr/bin/nvidia-container-runtime",
                "usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-container-cli")


def debian9_ldconfig_real():
    # NVIDIA/nvidia-docker#614: a Debian host (kernel 4.9.0-5-amd64) whose GPU containers
    # stopped starting after an apt upgrade: the hook ran `nvidia-container-cli --load-kmods
    # configure --ldconfig=@/sbin/ldconfig.real …` and failed with "ldcache error: open failed:
    # /sbin/ldconfig.real: no such file or directory". Debian's libc-bin has /sbin/ldconfig
    # only; "@/sbin/ldconfig.real" is the Ubuntu packages' setting (on Debian the file should
    # say "@/sbin/ldconfig", the maintainers in nvidia-container-toolkit#59 and
    # nvidia-docker#1424).
    dst, root = fresh(FIXTURES[0])
    w(root, "etc/os-release", DEBIAN9_OS_RELEASE)
    w(root, "proc/sys/kernel/osrelease", "4.9.0-5-amd64\n")
    w(root, "sbin/ldconfig", b"", 0o755)
    for b in TOOLKIT_BINS:
        w(root, b, b"", 0o755)
    # the two settings the hook's command line shows (--load-kmods, --ldconfig=…)
    w(root, "etc/nvidia-container-runtime/config.toml",
      '[nvidia-container-cli]\nload-kmods = true\nldconfig = "@/sbin/ldconfig.real"\n')
    ini(dst, TOPIC,
        "A Debian 9 Docker host (kernel 4.9.0-5-amd64) with the NVIDIA Container Toolkit "
        "whose /etc/nvidia-container-runtime/config.toml says ldconfig = "
        "\"@/sbin/ldconfig.real\", the Ubuntu packages' setting: Debian has /sbin/ldconfig "
        "only, and every GPU container fails to start with 'ldcache error: open failed: "
        "/sbin/ldconfig.real: no such file or directory'",
        "Rebuilt from https://github.com/NVIDIA/nvidia-docker/issues/614 (pasted: `sudo docker "
        "run --rm nvidia/cuda:8.0-devel nvidia-smi` failing in prestart hook 1 with the exec "
        "line `/usr/bin/nvidia-container-cli --load-kmods configure "
        "--ldconfig=@/sbin/ldconfig.real …` and 'ldcache error: open failed: "
        "/sbin/ldconfig.real: no such file or directory', `uname -a`: 4.9.0-5-amd64 #1 SMP "
        "Debian, 'System runs debian'); config.toml holds the two settings that exec line "
        "shows, under [nvidia-container-cli]; Debian 9's os-release (verbatim from "
        "base-files; the kernel 4.9.0-5 is stretch's) and /sbin/ldconfig (Debian's libc-bin "
        "ships it, not ldconfig.real); the GPU, the driver and its version are not in the "
        "report and are left out; binaries are empty stand-ins",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/NVIDIA/nvidia-docker/issues/614",
            "nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such "
            "file or directory",
            "config.toml names the host's ldconfig as /sbin/ldconfig.real, which the Debian "
            "host does not have (the error itself; Debian's ldconfig is /sbin/ldconfig, and on "
            "Debian the setting should be \"@/sbin/ldconfig\", the maintainers in "
            "nvidia-container-toolkit#59 and nvidia-docker#1424)",
            "container.toolkit-ldconfig-missing", "container", "yes"))


def ubuntu_ldconfig_real():
    """The negative: an Ubuntu 22.04 Docker host with the same "@/sbin/ldconfig.real", which
    Ubuntu's libc-bin ships (/sbin/ldconfig is its wrapper script, /sbin/ldconfig.real the
    program). No finding of container.toolkit-ldconfig-missing."""
    dst, root = fresh(FIXTURES[1])
    w(root, "etc/os-release", ubuntu_os_release("22.04.4", "Jammy Jellyfish", "jammy"))
    w(root, "proc/sys/kernel/osrelease", "5.15.0-105-generic\n")
    w(root, "usr/sbin/ldconfig", b"", 0o755)
    w(root, "usr/sbin/ldconfig.real", b"", 0o755)
    # usrmerge: /sbin is usr/sbin on Ubuntu 22.04
    link(root, "sbin", "usr/sbin")
    for b in TOOLKIT_BINS[:1] + ("usr/bin/nvidia-ctk", "usr/bin/nvidia-container-runtime",
                                 "usr/bin/nvidia-container-runtime-hook",
                                 "usr/bin/nvidia-container-cli"):
        w(root, b, b"", 0o755)
    w(root, "etc/nvidia-container-runtime/config.toml",
      '[nvidia-container-cli]\nload-kmods = true\nldconfig = "@/sbin/ldconfig.real"\n')
    ini(dst, TOPIC,
        "An Ubuntu 22.04 Docker host whose NVIDIA Container Toolkit config says ldconfig = "
        "\"@/sbin/ldconfig.real\", the file Ubuntu's libc-bin installs next to its "
        "/sbin/ldconfig wrapper: nvidia-container-cli finds it",
        "The negative of container.toolkit-ldconfig-missing: config.toml's "
        "[nvidia-container-cli] ldconfig as the toolkit writes it on Ubuntu "
        "(https://github.com/NVIDIA/nvidia-container-toolkit/blob/main/internal/config/"
        "config.go: \"@/sbin/ldconfig.real\" where the distribution is Ubuntu), Ubuntu "
        "libc-bin's /sbin/ldconfig and /sbin/ldconfig.real (https://packages.ubuntu.com/jammy/"
        "amd64/libc-bin/filelist), /sbin a link to usr/sbin (usrmerge); the GPU and the "
        "driver are left out; binaries are empty stand-ins",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "")


def write():
    debian9_ldconfig_real()
    ubuntu_ldconfig_real()
