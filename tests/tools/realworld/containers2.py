# SPDX-License-Identifier: GPL-2.0-or-later
"""Podman/CDI hosts whose CDI spec (`nvidia-ctk cdi generate`) no longer matches the host's
driver files: the spec names libraries by their versioned file names, a driver upgrade
replaces them, and crun refuses to start a container whose mount source is gone
(container.cdi-spec-stale). Written by tests/tools/mk-real-world-fixtures.py containers2."""
from realworld.common import ARCH_OS_RELEASE, fresh, ini, link, real_world, w

TOPIC = "containers2"
FIXTURES = ("rw-cdi-fedora39-spec-550.54.14-driver-550.67",
            "rw-cdi-ubuntu-spec-535.161.07-driver-535.171.04",
            "rw-cdi-arch-egl-wayland-1.1.13-updated")

FEDORA39_OS_RELEASE = (
    'NAME="Fedora Linux"\nVERSION="39 (Workstation Edition)"\nID=fedora\nVERSION_ID=39\n'
    'VERSION_CODENAME=""\nPLATFORM_ID="platform:f39"\n'
    'PRETTY_NAME="Fedora Linux 39 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:39"\n'
    'DEFAULT_HOSTNAME="fedora"\nHOME_URL="https://fedoraproject.org/"\n'
    'SUPPORT_URL="https://ask.fedoraproject.org/"\n'
    'BUG_REPORT_URL="https://bugzilla.redhat.com/"\nREDHAT_BUGZILLA_PRODUCT="Fedora"\n'
    'REDHAT_BUGZILLA_PRODUCT_VERSION=39\nREDHAT_SUPPORT_PRODUCT="Fedora"\n'
    'REDHAT_SUPPORT_PRODUCT_VERSION=39\nSUPPORT_END=2024-11-12\nVARIANT="Workstation Edition"\n'
    'VARIANT_ID=workstation\n')
UBUNTU2204_OS_RELEASE = (
    'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
    'VERSION="22.04.4 LTS (Jammy Jellyfish)"\nVERSION_CODENAME=jammy\nID=ubuntu\n'
    'ID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
    'UBUNTU_CODENAME=jammy\n')

# The driver's libraries `nvidia-ctk cdi generate` mounts by versioned file name (a cut of its
# list: the compute and EGL ones these reports name).
SPEC_LIBS = ("libEGL_nvidia", "libGLESv2_nvidia", "libGLX_nvidia", "libcuda",
             "libnvidia-allocator", "libnvidia-eglcore", "libnvidia-glcore", "libnvidia-ml",
             "libnvidia-nvvm", "libnvidia-ptxjitcompiler", "libnvidia-tls")
MOUNT_OPTS = "    options:\n    - ro\n    - nosuid\n    - nodev\n    - bind\n"
DEVICES = ("[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
           "/dev/nvidia-modeset = c 195:254 0666 0:0\n/dev/nvidia-uvm = c 509:0 0666 0:0\n"
           "/dev/nvidia-uvm-tools = c 509:1 0666 0:0\n"
           # the DRM nodes the spec's devices name (cdi_spec): the GPU's, as the spec was
           # generated from them (major 226 is the kernel's DRM major)
           "/dev/dri/card1 = c 226:1 0660 0:44\n/dev/dri/renderD128 = c 226:128 0666 0:992\n")


def cdi_spec(libdir, version, bus, extra=()):
    """/etc/cdi/nvidia.yaml in the layout of `nvidia-ctk cdi generate` (cdiVersion 0.5.0: the
    top-level containerEdits with the control nodes, the update-ldcache hook and the driver's
    libraries mounted by versioned file name; devices "0" and "all")."""
    mounts = "".join(f"  - containerPath: {libdir}/{lib}.so.{version}\n"
                     f"    hostPath: {libdir}/{lib}.so.{version}\n" + MOUNT_OPTS
                     for lib in SPEC_LIBS)
    mounts += "".join(f"  - containerPath: {p}\n    hostPath: {p}\n" + MOUNT_OPTS
                      for p in extra)
    device = ("- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n"
              "    - path: /dev/dri/card1\n    - path: /dev/dri/renderD128\n"
              "    hooks:\n    - args:\n      - nvidia-ctk\n      - hook\n"
              "      - create-symlinks\n      - --link\n"
              f"      - ../card1::/dev/dri/by-path/pci-{bus}-card\n      - --link\n"
              f"      - ../renderD128::/dev/dri/by-path/pci-{bus}-render\n"
              "      hookName: createContainer\n      path: /usr/bin/nvidia-ctk\n")
    return ("---\ncdiVersion: 0.5.0\ncontainerEdits:\n  deviceNodes:\n"
            "  - path: /dev/nvidia-modeset\n  - path: /dev/nvidia-uvm\n"
            "  - path: /dev/nvidia-uvm-tools\n  - path: /dev/nvidiactl\n"
            "  hooks:\n  - args:\n    - nvidia-ctk\n    - hook\n    - update-ldcache\n"
            f"    - --folder\n    - {libdir}\n    hookName: createContainer\n"
            "    path: /usr/bin/nvidia-ctk\n  mounts:\n" + mounts +
            "devices:\n" + device + '  name: "0"\n' + device + "  name: all\n"
            "kind: nvidia.com/gpu\n")


def podman_host(name, osrel, kernel, drv, build, gcc):
    """A host with the NVIDIA driver `drv` loaded, podman and the NVIDIA Container Toolkit's
    binaries (empty stand-ins: only presence and mode are read). Returns (dst, root)."""
    dst, root = fresh(name)
    w(root, "etc/os-release", osrel)
    w(root, "proc/sys/kernel/osrelease", kernel + "\n")
    w(root, "proc/modules",
      "nvidia_uvm 4653056 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 118784 4 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1568768 5 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 62943232 59 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    w(root, "proc/driver/nvidia/version",
      f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {drv}  {build}\n"
      f"GCC version:  gcc version {gcc} \n")
    for b in ("podman", "crun", "nvidia-ctk", "nvidia-container-runtime",
              "nvidia-container-runtime-hook", "nvidia-container-cli"):
        w(root, f"usr/bin/{b}", b"", 0o755)
    return dst, root


def fedora39_550_67():
    # NVIDIA/nvidia-container-toolkit#450: Fedora 39 updated its NVIDIA driver to 550.67; the
    # CDI spec still names the 550.54.14 files, and crun refuses the container ("cannot stat
    # `/lib64/libEGL_nvidia.so.550.54.14`"); the maintainer: with podman and CDI the spec must
    # be generated again after a driver upgrade, which fixed it for the commenter.
    new, old = "550.67", "550.54.14"
    dst, root = podman_host("rw-cdi-fedora39-spec-550.54.14-driver-550.67", FEDORA39_OS_RELEASE,
                            "6.8.4-200.fc39.x86_64", new, "Tue Mar 12 23:54:15 UTC 2024",
                            "13.2.1 20240316 (Red Hat 13.2.1-7) (GCC)")
    link(root, "lib64", "usr/lib64")
    # the host's libraries after the update, as the report lists them
    w(root, f"usr/lib64/libEGL_nvidia.so.{new}", b"", 0o755)
    link(root, "usr/lib64/libEGL_nvidia.so.0", f"libEGL_nvidia.so.{new}")
    w(root, "etc/cdi/nvidia.yaml", cdi_spec("/lib64", old, "0000:01:00.0"))
    ini(dst, TOPIC,
        "Fedora 39 after a driver update to 550.67 (akmod-nvidia): /etc/cdi/nvidia.yaml was "
        "generated for 550.54.14 and still mounts /lib64/libEGL_nvidia.so.550.54.14 and the "
        "other 550.54.14 files, which the update removed: podman refuses to start GPU "
        "containers",
        "Rebuilt from https://github.com/NVIDIA/nvidia-container-toolkit/issues/450 (pasted: "
        "crun's \"cannot stat `/lib64/libEGL_nvidia.so.550.54.14`\", `ls /lib64/libEGL_nvidia*` "
        "listing libEGL_nvidia.so.0 and libEGL_nvidia.so.550.67, 'My driver version is clearly "
        "the 550.67'); the spec is in the layout `nvidia-ctk cdi generate` writes (cdiVersion "
        "0.5.0, the driver's libraries mounted by versioned file name, cut to eleven of them; "
        "the hostPaths under /lib64 as the error names them); placeholders, not in the "
        "report: Fedora 39's os-release (verbatim from the distribution), the kernel release "
        "and the module's build line, /proc/modules, the GPU's bus id and DRM nodes in the "
        "spec, the device nodes (nvidia-uvm's dynamic major); binaries are empty stand-ins",
        {"PATH": "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"},
        real_world(
            "https://github.com/NVIDIA/nvidia-container-toolkit/issues/450",
            "Error: crun: cannot stat `/lib64/libEGL_nvidia.so.550.54.14`: No such file or "
            "directory: OCI runtime attempted to invoke a command that was not found",
            "the CDI spec was generated for the driver before the update (550.54.14) and "
            "mounts its files, gone since the update to 550.67; with podman and CDI the spec "
            "must be generated again after a driver upgrade (the maintainer; `nvidia-ctk cdi "
            "generate` fixed it)",
            "container.cdi-spec-stale", "container", "yes"),
        DEVICES)


def ubuntu_535_171():
    # Igalia/webkit-container-sdk#23: after the host's driver was upgraded from 535.161.07 to
    # 535.171.04, `podman start` of the SDK's container fails: crun cannot stat
    # /lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07, which /etc/cdi/nvidia.yaml mounts;
    # regenerating the spec (the SDK's setup script runs nvidia-ctk cdi generate) fixed it.
    new, old = "535.171.04", "535.161.07"
    dst, root = podman_host("rw-cdi-ubuntu-spec-535.161.07-driver-535.171.04",
                            UBUNTU2204_OS_RELEASE, "6.5.0-28-generic", new,
                            "Tue Mar 19 20:46:56 UTC 2024",
                            "12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)")
    link(root, "lib", "usr/lib")
    libdir = "usr/lib/x86_64-linux-gnu"
    w(root, f"{libdir}/libEGL_nvidia.so.{new}", b"", 0o755)
    link(root, f"{libdir}/libEGL_nvidia.so.0", f"libEGL_nvidia.so.{new}")
    w(root, "etc/cdi/nvidia.yaml", cdi_spec("/lib/x86_64-linux-gnu", old, "0000:01:00.0"))
    ini(dst, TOPIC,
        "A developer's Ubuntu host after the NVIDIA driver was upgraded from 535.161.07 to "
        "535.171.04: /etc/cdi/nvidia.yaml, generated before, still bind-mounts "
        "/lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07 and the other 535.161.07 files, so "
        "`podman start` of the GPU container fails",
        "Rebuilt from https://github.com/Igalia/webkit-container-sdk/issues/23 (pasted: crun's "
        "\"error stat'ing file /lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07: No such file "
        "or directory\", 'In the host system, that file was upgraded to "
        "libEGL_nvidia.so.535.171.04 after the driver update', the spec's bind-mount entry "
        "(ro, nosuid, nodev, bind); regenerating the spec fixed it); the spec is in the layout "
        "`nvidia-ctk cdi generate` writes (cdiVersion 0.5.0, the driver's libraries mounted by "
        "versioned file name, cut to eleven of them); placeholders, not in the report: the "
        "Ubuntu 22.04 os-release (verbatim from the distribution), the kernel release and the "
        "module's build line, /proc/modules, the GPU's bus id and DRM nodes, the device nodes "
        "(nvidia-uvm's dynamic major); binaries are empty stand-ins",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            "https://github.com/Igalia/webkit-container-sdk/issues/23",
            "Error: unable to start container: crun: error stat'ing file "
            "/lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07: No such file or directory: "
            "OCI runtime attempted to invoke a command that was not found",
            "the CDI spec lists the 535.161.07 driver files as bind mounts; the driver upgrade "
            "to 535.171.04 replaced them, and the spec must be generated again",
            "container.cdi-spec-stale", "container", "yes"),
        DEVICES)


def arch_egl_wayland():
    # NVIDIA/nvidia-container-toolkit#692 (also containers/podman#23935): Arch Linux, RTX 4090,
    # podman 5.2.2; after `pacman -Syu` every `podman run --gpus all` fails: crun cannot stat
    # /usr/lib/libnvidia-egl-wayland.so.1.1.13, which the CDI spec mounts, while the update
    # installed libnvidia-egl-wayland.so.1.1.16; `nvidia-ctk cdi generate` fixed it (the
    # reporter's confirmation of the answer).
    drv = "560.35.03"
    dst, root = podman_host("rw-cdi-arch-egl-wayland-1.1.13-updated", ARCH_OS_RELEASE,
                            "6.10.9-arch1-2", drv, "Fri Aug 16 21:42:42 UTC 2024",
                            "14.2.1 20240805 (GCC)")
    # the driver's own files are those the spec names: only the EGL Wayland library changed
    for lib in SPEC_LIBS:
        w(root, f"usr/lib/{lib}.so.{drv}", b"", 0o755)
    w(root, "usr/lib/libnvidia-egl-wayland.so.1.1.16", b"", 0o755)
    link(root, "usr/lib/libnvidia-egl-wayland.so.1", "libnvidia-egl-wayland.so.1.1.16")
    w(root, "etc/cdi/nvidia.yaml",
      cdi_spec("/usr/lib", drv, "0000:01:00.0", ("/usr/lib/libnvidia-egl-wayland.so.1.1.13",)))
    ini(dst, TOPIC,
        "Arch Linux with an RTX 4090 and podman 5.2.2 after `pacman -Syu`: the update replaced "
        "libnvidia-egl-wayland.so.1.1.13 by 1.1.16, and /etc/cdi/nvidia.yaml still mounts the "
        "1.1.13 file, so crun refuses every container started with --gpus all; the driver's "
        "own files the spec names are still there",
        "Rebuilt from https://github.com/NVIDIA/nvidia-container-toolkit/issues/692 (pasted: "
        "the `podman run -it -d --pod my-own-pod --gpus all my-own-image:latest` line, crun's "
        "\"cannot stat `/usr/lib/libnvidia-egl-wayland.so.1.1.13`\", '1.1.16 version, which "
        "_does_ exist in /usr/lib'; the answer `sudo nvidia-ctk cdi generate "
        "--output=/etc/cdi/nvidia.yaml` and the reporter's 'yes, that fixes it'); the spec is in "
        "the layout `nvidia-ctk cdi generate` writes (cdiVersion 0.5.0, libraries mounted by "
        "versioned file name, cut to eleven of the driver's and the EGL Wayland one); "
        "placeholders, not in the report: the driver version (560.35.03, Arch's nvidia package "
        "in September 2024) and its files present on the host as the spec names them (the "
        "report names no other missing file), Arch's os-release (verbatim), the kernel release "
        "and the module's build line, /proc/modules, the GPU's bus id and DRM nodes, the "
        "device nodes (nvidia-uvm's dynamic major); binaries and libraries are empty stand-ins "
        "(only their presence is read)",
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/bin"},
        real_world(
            "https://github.com/NVIDIA/nvidia-container-toolkit/issues/692",
            "Error: crun: cannot stat `/usr/lib/libnvidia-egl-wayland.so.1.1.13`: No such file "
            "or directory: OCI runtime attempted to invoke a command that was not found",
            "the CDI spec mounts libnvidia-egl-wayland.so.1.1.13, which a package update "
            "replaced by 1.1.16; the spec must be generated again after such updates "
            "(`nvidia-ctk cdi generate` fixed it)",
            "container.cdi-spec-stale", "container", "yes"),
        DEVICES)


def write():
    fedora39_550_67()
    ubuntu_535_171()
    arch_egl_wayland()
