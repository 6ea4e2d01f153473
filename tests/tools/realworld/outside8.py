# SPDX-License-Identifier: GPL-2.0-or-later
"""An eighth outside evaluator's round (rw50c): fresh 2026 reports from NVIDIA on Linux
(the container toolkit's CDI specs under podman), rebuilt only as far as each thread shows the
machine. The scores before any change are in docs/HACKING.md ("Reports an outside evaluator
would pick", eighth round). Written by tests/tools/mk-real-world-fixtures.py outside8."""
from realworld.common import dpkg, fresh, ini, real_world, ubuntu_os_release, w

TOPIC = "outside8"
FIXTURES = ("rw-cdi070-podman493-ubuntu2404-ctk1191-1860",
            "cdi070-podman570-ubuntu2604-ctk1191")

URL_1860 = "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1860"
DRV = "580.95.05"
LIBDIR = "/usr/lib/x86_64-linux-gnu"
LIBS = (f"libcuda.so.{DRV}", f"libnvidia-ml.so.{DRV}")
MOUNT_OPTS = "    options:\n    - ro\n    - nosuid\n    - nodev\n    - rbind\n    - rprivate\n"
SRC_COMMON = (
    "the spec in the layout of `nvidia-ctk cdi generate` 1.19.1 (cdiVersion 0.7.0, the lowest "
    "its fields need: additionalGids on each DRM node that is not world read/writable, "
    "internal/edits/device.go getAdditionalGIDs()), in /etc/cdi/nvidia.yaml and "
    "/var/run/cdi/nvidia.yaml as the report's two parse errors name; placeholders, not in "
    f"the report: the GPU and driver ({DRV}, the spec's libcuda and libnvidia-ml of the same "
    "version, /proc/modules' sizes), the DRM nodes card1 and renderD128 0660 with the groups "
    "video (44) and render (992), the spec cut to the GPU 0 and all devices; binaries are "
    "empty stand-ins; dpkg's status holds only the packages judged")


def spec():
    """/etc/cdi/nvidia.yaml as nvidia-ctk 1.19.1 writes it: cdiVersion 0.7.0 because the DRM
    nodes, 0660 root:video / root:render, carry their group as additionalGids."""
    mounts = "".join(f"  - containerPath: {LIBDIR}/{lib}\n    hostPath: {LIBDIR}/{lib}\n"
                     + MOUNT_OPTS for lib in LIBS)
    device = ("- containerEdits:\n    additionalGids:\n    - 44\n    - 992\n"
              "    deviceNodes:\n    - path: /dev/nvidia0\n    - path: /dev/dri/card1\n"
              "    - path: /dev/dri/renderD128\n")
    return ("---\ncdiVersion: 0.7.0\ncontainerEdits:\n  deviceNodes:\n"
            "  - path: /dev/nvidia-modeset\n  - path: /dev/nvidia-uvm-tools\n"
            "  - path: /dev/nvidia-uvm\n  - path: /dev/nvidiactl\n"
            "  hooks:\n  - args:\n    - nvidia-cdi-hook\n    - update-ldcache\n"
            f"    - --folder\n    - {LIBDIR}\n    hookName: createContainer\n"
            "    path: /usr/bin/nvidia-cdi-hook\n"
            "  mounts:\n" + mounts +
            "devices:\n" + device + '  name: "0"\n' + device + "  name: all\n"
            "kind: nvidia.com/gpu\n")


def host(name, podman, os_release):
    dst, root = fresh(name)
    w(root, "etc/os-release", os_release)
    w(root, "proc/modules",
      "nvidia_uvm 2076672 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 135168 2 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1724416 1 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 14376960 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", DRV + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    for lib in LIBS:
        w(root, f"{LIBDIR.lstrip('/')}/{lib}", b"", 0o755)
    for b in ("podman", "nvidia-ctk", "nvidia-cdi-hook"):
        w(root, f"usr/bin/{b}", b"", 0o755)
    dpkg(root, {"nvidia-container-toolkit": "1.19.1-1",
                "nvidia-container-toolkit-base": "1.19.1-1", "podman": podman})
    w(root, "etc/cdi/nvidia.yaml", spec())
    w(root, "var/run/cdi/nvidia.yaml", spec())
    return dst


DEVICES = ("[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
           "/dev/nvidia-modeset = c 195:254 0666 0:0\n/dev/nvidia-uvm = c 508:0 0666 0:0\n"
           "/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n/dev/dri/card1 = c 226:1 0660 0:44\n"
           "/dev/dri/renderD128 = c 226:128 0660 0:992\n")


def podman_493():
    # NVIDIA/nvidia-container-toolkit#1860: podman 4.9.3 on Ubuntu 24.04.4, toolkit 1.19.1:
    # podman cannot parse the spec ("unknown field \"additionalGids\""); 1.18.2's spec works.
    # NVIDIA listed it as a known issue of 1.19.1 (NVIDIA/cloud-native-docs#419: specs are
    # now cdiVersion 0.7.0, which the engine must support); #1940, the same podman on a DGX
    # Spark: "upgrade your podman", and podman 5.7.0 on Ubuntu 26.04 works.
    dst = host(FIXTURES[0], "4.9.3+ds1-1ubuntu0.2",
               ubuntu_os_release("24.04.4", "Noble Numbat", "noble"))
    ini(dst, TOPIC,
        "Ubuntu 24.04's podman 4.9.3 with NVIDIA Container Toolkit 1.19.1, whose generated "
        "CDI spec is cdiVersion 0.7.0 (additionalGids): podman's CDI library cannot parse it, "
        "so every --device nvidia.com/gpu=… is an unresolvable CDI device",
        f"Rebuilt from {URL_1860} (pasted: 'Version 1.19.1 produces a /etc/cdi/nvidia.yaml "
        "that is incompatible with podman version 4.9.3', 'Version 1.18.2 produces a "
        "compatible nvidia.yaml', Ubuntu 24.04.4, `podman --debug run --rm -ti "
        "--device=nvidia.com/gpu=gpu0 ubuntu nvidia-smi -L` printing 'failed to parse CDI "
        "Spec \"/etc/cdi/nvidia.yaml\": failed to unmarshal CDI Spec: error unmarshaling "
        "JSON: while decoding JSON: json: unknown field \"additionalGids\"' and the same for "
        "/var/run/cdi/nvidia.yaml, `rg additionalGids` finding the field in nvidia.yaml; "
        "NVIDIA's answer, the 1.19.1 release notes' known issue (NVIDIA/cloud-native-docs#419): "
        "specs are generated as cdiVersion 0.7.0 and need an engine that supports it); podman's "
        "package version is the one Ubuntu 24.04 ships (4.9.3+ds1-1ubuntu0.2, as "
        "NVIDIA/nvidia-container-toolkit#1940 pastes it); " + SRC_COMMON,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        real_world(
            URL_1860,
            "failed to load CDI Spec failed to parse CDI Spec \"/etc/cdi/nvidia.yaml\": "
            "failed to unmarshal CDI Spec: error unmarshaling JSON: while decoding JSON: json: "
            "unknown field \"additionalGids\"",
            "toolkit 1.19.1 generates cdiVersion 0.7.0 specs (additionalGids), which podman "
            "4.9.3's CDI library cannot load; 1.18.2's spec loads (the reporter), and a podman "
            "that supports CDI 0.7.0 is needed (NVIDIA's known issue, #1940's maintainer)",
            "container.cdi-spec-newer-than-engine", "container", "yes"),
        DEVICES)


def podman_570():
    # The negative: the #1940 answer's host, podman 5.7.0 on Ubuntu 26.04 with toolkit 1.19.1.
    dst = host(FIXTURES[1], "5.7.0+ds2-1",
               ubuntu_os_release("26.04", "Resolute Raccoon", "resolute"))
    ini(dst, TOPIC,
        "podman 5.7.0 with NVIDIA Container Toolkit 1.19.1's cdiVersion 0.7.0 spec: podman "
        "5.1 and later load it (the negative of container.cdi-spec-newer-than-engine)",
        "The rw-cdi070-podman493-ubuntu2404-ctk1191-1860 host with the podman NVIDIA's tester "
        "confirmed in https://github.com/NVIDIA/nvidia-container-toolkit/issues/1940 ('I "
        "tested v1.19.1-1 with podman 5.7.0 on ubuntu 26.04 and confirmed it works'); "
        "placeholders, not in the report: the package's Debian revision (+ds2-1) and "
        "os-release's codename; " + SRC_COMMON,
        {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, "",
        DEVICES)


def write():
    podman_493()
    podman_570()
