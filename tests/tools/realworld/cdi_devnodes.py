# SPDX-License-Identifier: GPL-2.0-or-later
"""Podman/CDI hosts whose CDI spec names a device node the host no longer has: podman stats
every deviceNodes[] host path before the container starts ("failed to stat CDI host device"),
so a spec generated when the GPU's DRM node had another number stops every container given
the GPU (container.cdi-spec-stale). Written by tests/tools/mk-real-world-fixtures.py
cdi_devnodes."""
from realworld.common import fresh, ini, real_world, w

TOPIC = "cdi_devnodes"
FIXTURES = ("rw-cdi-renderd129-nvidia-container-toolkit-885",)

LIBDIR = "/usr/lib/x86_64-linux-gnu"
# the driver files `nvidia-ctk cdi generate` selected in the report (a cut of its list)
LIBS = ("libnvidia-ml.so.560.35.03", "libnvidia-allocator.so.560.35.03",
        "libnvidia-egl-gbm.so.1.1.1")
MOUNT_OPTS = "    options:\n    - ro\n    - nosuid\n    - nodev\n    - bind\n"


def stale_spec(render):
    """/etc/cdi/nvidia.yaml in the layout of `nvidia-ctk cdi generate` (cdiVersion 0.5.0: the
    control nodes and the driver's libraries at the top level, each GPU's nodes in its
    device), naming the DRM render node `render`."""
    mounts = "".join(f"  - containerPath: {LIBDIR}/{lib}\n    hostPath: {LIBDIR}/{lib}\n"
                     + MOUNT_OPTS for lib in LIBS)
    device = ("- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n"
              f"    - path: {render}\n")
    return ("---\ncdiVersion: 0.5.0\ncontainerEdits:\n  deviceNodes:\n"
            "  - path: /dev/nvidia-modeset\n  - path: /dev/nvidia-uvm-tools\n"
            "  - path: /dev/nvidia-uvm\n  - path: /dev/nvidiactl\n"
            "  mounts:\n" + mounts +
            "devices:\n" + device + '  name: "0"\n' + device + "  name: all\n"
            "kind: nvidia.com/gpu\n")


def renderd129_gone():
    # NVIDIA/nvidia-container-toolkit#885: `podman run --rm --device nvidia.com/gpu=all ubuntu
    # nvidia-smi` as a rootless user fails with 'failed to stat CDI host device
    # "/dev/dri/renderD129": no such file or directory'; `sudo nvidia-ctk cdi generate` then
    # selects /dev/dri/card0 and /dev/dri/renderD128 (driver 560.35.03), and with the spec
    # generated again the container started (the reporter).
    drv = "560.35.03"
    dst, root = fresh(FIXTURES[0])
    w(root, "proc/modules",
      "nvidia_uvm 4923392 0 - Live 0x0000000000000000 (POE)\n"
      "nvidia_drm 122880 2 - Live 0x0000000000000000 (POE)\n"
      "nvidia_modeset 1355776 1 nvidia_drm, Live 0x0000000000000000 (POE)\n"
      "nvidia 60317696 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n")
    w(root, "sys/module/nvidia/version", drv + "\n")
    w(root, "sys/module/nvidia/initstate", "live\n")
    for lib in LIBS:
        w(root, f"{LIBDIR.lstrip('/')}/{lib}", b"", 0o755)
    for b in ("podman", "nvidia-ctk"):
        w(root, f"usr/bin/{b}", b"", 0o755)
    w(root, "etc/cdi/nvidia.yaml", stale_spec("/dev/dri/renderD129"))
    ini(dst, TOPIC,
        "A rootless podman user on a host with driver 560.35.03 whose /etc/cdi/nvidia.yaml "
        "names /dev/dri/renderD129, while the GPU's DRM nodes are now card0 and renderD128: "
        "podman refuses every container given nvidia.com/gpu",
        "Rebuilt from https://github.com/NVIDIA/nvidia-container-toolkit/issues/885 (pasted: "
        "the podman run line and its 'failed to stat CDI host device \"/dev/dri/renderD129\"', "
        "the output of `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml` selecting "
        "/dev/nvidia0, /dev/dri/card0, /dev/dri/renderD128, /dev/nvidia-modeset, "
        "/dev/nvidia-uvm-tools, /dev/nvidia-uvm, /dev/nvidiactl and the libraries "
        f"{LIBDIR}/libnvidia-ml.so.560.35.03, libnvidia-allocator.so.560.35.03, "
        "libnvidia-egl-gbm.so.1.1.1, 'Using driver version 560.35.03'); the stale spec in the "
        "layout `nvidia-ctk cdi generate` writes (cdiVersion 0.5.0), naming the render node "
        "the error names and the same libraries (cut to those three); placeholders, not in "
        "the report: /proc/modules' sizes, nvidia-uvm's dynamic major (the DRM major 226 is "
        "the kernel's); the distribution and kernel are not shown and left out; binaries are "
        "empty stand-ins",
        {"PATH": "/usr/local/bin:/usr/bin:/bin"},
        real_world(
            "https://github.com/NVIDIA/nvidia-container-toolkit/issues/885",
            "Error: setting up CDI devices: failed to inject devices: failed to stat CDI host "
            "device \"/dev/dri/renderD129\": no such file or directory",
            "the CDI spec named /dev/dri/renderD129, which the host no longer has (its GPU's "
            "render node is renderD128, as nvidia-ctk cdi generate then selected); "
            "generating the spec again made the container start (the reporter)",
            "container.cdi-spec-stale", "container", "yes"),
        "[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
        "/dev/nvidia-modeset = c 195:254 0666 0:0\n/dev/nvidia-uvm = c 508:0 0666 0:0\n"
        "/dev/nvidia-uvm-tools = c 508:1 0666 0:0\n/dev/dri/card0 = c 226:0 0660 0:44\n"
        "/dev/dri/renderD128 = c 226:128 0666 0:992\n")


def write():
    renderd129_gone()
