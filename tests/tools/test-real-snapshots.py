#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv doctor --from` on snapshots taken on real machines (tests/snapshots/README.md).

h200-vm-driver580-cuda13.json: a healthy H200 in a Firecracker VM's container (driver
580.159.04, torch 2.11.0+cu130), which PyTorch, nvidia-smi and cuobjdump agreed with:
doctor must exit 0 with no error or warning, and the driver layer must be ✓ (NVML and
cuInit both answered inside the container); NVML's health readings are in it, so no health
rule may be skipped. The HIP runtime its Ubuntu image has under /usr (no AMD GPU) is named as
a distribution package and draws no AMD chain.
h200-vm-driver580-cuda13-old-probe.json: the same machine as an older gpuenv saw it (BAR1
taken from resource line 1 where the VM puts it on line 2, cuInit refused by the sandbox):
hardware.bar1-small must stay silent (NVML enumerated the GPU, so the driver placed its
BAR1), and the driver layer must be "could not tell", never ✓, while cuInit carries an error.
"""
import json
import os
import subprocess
import sys

gpuenv = sys.argv[1]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "snapshots")
fails = 0


def doctor(name):
    p = subprocess.run([gpuenv, "doctor", "--json", "--from", os.path.join(here, name)],
                       capture_output=True, text=True, timeout=60)
    return p.returncode, json.loads(p.stdout)


def check(what, ok):
    global fails
    if not ok:
        print("FAIL:", what)
        fails += 1


def layer(d, name):
    return next(x["status"] for x in d["layers"] if x["layer"] == name)


rc, d = doctor("h200-vm-driver580-cuda13.json")
bad = [(f["rule"], f["severity"]) for f in d["findings"] if f["severity"] in ("error", "warning")]
check(f"healthy H200: exit {rc}, want 0", rc == 0)
check(f"healthy H200: errors or warnings {bad}", not bad)
for name in ("hardware", "driver", "framework"):
    check(f"healthy H200: {name} layer {layer(d, name)}, want ok", layer(d, name) == "ok")
# NVML's health readings were taken on that run: the health rules judged them, none skipped
# (rules that read facts a later gpuenv added may be skipped on this older snapshot).
HEALTH = ("hardware.gpu-lost", "hardware.ecc-uncorrectable", "hardware.row-remap-failed",
          "hardware.row-remap-pending", "hardware.retired-pages-pending",
          "hardware.clocks-throttled", "hardware.temperature-slowdown", "hardware.nvlink-down",
          "hardware.pcie-replays", "hardware.mig-layout")
skipped = [x.get("rule") for x in d["skipped"] if x.get("rule") in HEALTH]
check(f"healthy H200: health rules skipped {skipped}", not skipped)
# The image's dpkg has libamdhip64-5 5.7.1-3 and libhsa-runtime64 under /usr, no HIP headers,
# no AMD GPU, module or KFD: the runtime layer names the package, never "ROCm 5.7.1-3", and
# no AMD chain is drawn for it.
rocm = [f["value"] for x in d["layers"] if x["layer"] == "runtime" for f in x["facts"]
        if f["label"] == "ROCm"]
check(f"healthy H200: ROCm fact {rocm}",
      rocm and all("distribution package libamdhip64-5" in v and not v.startswith("5.")
                   for v in rocm))
chains = [c["vendor"] for c in d.get("vendor_chains", [])]
check(f"healthy H200: vendor chains {chains}, want no amd", "amd" not in chains)
dev = d["snapshot"]["driver"]["nvml"]["devices"][0]
check("healthy H200: NVML temperature read", dev.get("temperature_slowdown_c", {}).get("state") == "present")

rc, d = doctor("h200-vm-driver580-cuda13-old-probe.json")
rules = [f["rule"] for f in d["findings"]]
check(f"old probe: hardware.bar1-small fired ({rules})", "hardware.bar1-small" not in rules)
check(f"old probe: exit {rc}, want 0", rc == 0)
check(f"old probe: driver layer {layer(d, 'driver')}, want unknown",
      layer(d, "driver") == "unknown")
print("real snapshots:", "FAIL" if fails else "ok")
sys.exit(1 if fails else 0)
