#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gpuenv_framework_gpu_coverage (docs/exporter.md): on fixtures whose snapshots hold
framework builds, each (build, GPU) series says what the framework rules judge, the same
judgement whether a rule fires or not: `none` where framework.no-kernel-image,
ptx-too-new-for-driver or gpu-too-old-for-build fires on the GPU, `ptx-jit` where
framework.ptx-jit-only does, `unknown` where the coverage rules were skipped for the build's
environment, `native` where none of these; exactly one state of the set is 1; NVML's gpu and
UUID labels where NVML lists the GPU; left out with --redact; `promtool check metrics` finds
nothing to say about the family (skipped visibly without promtool).
Usage: test-exporter-coverage.py GPUENV"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import SRC, parse  # noqa: E402

GPUENV = sys.argv[1]
FAMILY = "gpuenv_framework_gpu_coverage"
STATES = ("native", "ptx-jit", "none", "unknown")
FAILING = {"framework.no-kernel-image", "framework.ptx-too-new-for-driver",
           "framework.gpu-too-old-for-build"}
# (fixture, {build: coverage}) with each state and each way to "none" at least once
FIXTURES = [
    ("h100-old-frameworks", {"torch 2.0.1+cu117": "none", "tensorflow 2.15.0": "ptx-jit"}),
    ("torch-cu130-on-r550", {"torch 2.9.0+cu130": "native"}),
    ("torch-cu130-gtx1080", {"torch 2.9.0+cu130": "none"}),  # GPU older than every target
    ("torch-src-ptx-rtx5090-r575", {"torch 2.9.0a0+git0fabc3b": "none"}),  # PTX too new
    ("h100-cudnn-wheel-no-sm90", {"torch 2.4.0+cu124": "none"}),  # a loaded library decides
    ("rw-mig-torch24-two-a100-cvd-unset", {"torch 2.4.0": "unknown"}),  # NVML lists 2 GPUs
]
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def exposition(fixture, *extra):
    report = os.path.join(SRC, "tests", "fixtures", fixture, "expected", "report.json")
    p = subprocess.run([GPUENV, "exporter", "--once", "--from", report, *extra],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"exporter --once --from {report}: exit {p.returncode}\n{p.stderr}")
    return p.stdout


def expected_state(doctor, build, bus, prefix):
    """The state the doctor's findings and skips of the coverage rules imply."""
    msgs = [(f["rule"], f.get("subject"), f.get("message", "")) for f in doctor["findings"]]
    ours = [r for r, s, m in msgs if s == bus and m.startswith(build + " in " + prefix)]
    if any(r in FAILING for r in ours):
        return "none"
    if "framework.ptx-jit-only" in ours:
        return "ptx-jit"
    if any(s["rule"] == "framework.no-kernel-image" and s.get("subject") == prefix
           for s in doctor["skipped"]):
        return "unknown"
    return "native"


def test_fixture(fixture, want):
    text = exposition(fixture)
    fams = parse(text)
    om = parse(exposition(fixture, "--openmetrics"), openmetrics=True)
    with open(os.path.join(SRC, "tests", "fixtures", fixture, "expected", "doctor.json"),
              encoding="utf-8") as f:
        doctor = json.load(f)
    devices = doctor["snapshot"].get("driver", {}).get("nvml", {}).get("devices", [])
    fam = fams.get(FAMILY, {"samples": []})
    check(fam.get("type") == "gauge" and om.get(FAMILY, {}).get("type") == "gauge",
          f"{fixture}: a gauge (a state set) in both formats")
    series = {}
    for _, labels, v in fam["samples"]:
        key = (labels["build"], labels["pci_bus_id"], labels["gpu"], labels["UUID"],
               labels["env"])
        series.setdefault(key, {})[labels["coverage"]] = v
    check(set(b for b, *_ in series) == set(want), f"{fixture}: one series set per build "
          f"({sorted(set(b for b, *_ in series))})")
    for (build, bus, gpu, uuid, env), states in sorted(series.items()):
        on = [s for s, v in states.items() if v == "1"]
        check(sorted(states) == sorted(STATES) and len(on) == 1,
              f"{fixture}: {build} on {bus}: all four states, one of them 1 ({states})")
        # the doctor names the GPU by its PCI address (hardware.gpus), NVML by its own
        hw_bus = bus[4:] if bus.startswith("0000") and len(bus) == 16 else bus
        exp = expected_state(doctor, build, hw_bus.lower(), env)
        check(on == [exp] and exp == want[build],
              f"{fixture}: {build} on {bus} is {on}, the rules say {exp}, expected "
              f"{want[build]}")
        if devices:
            def fact(d, k):  # facts are {state, source, value}
                return (d.get(k) or {}).get("value")
            nv = [i for i, d in enumerate(devices) if fact(d, "pci_bus_id") == bus]
            check(nv and gpu == str(nv[0]) and uuid == fact(devices[nv[0]], "uuid"),
                  f"{fixture}: {bus} has NVML's index {gpu} and UUID {uuid}")
        else:
            check(gpu == "" and uuid == "", f"{fixture}: no NVML: empty gpu and UUID labels")
    return text


def test_redact():
    fams = parse(exposition("h100-old-frameworks", "--redact"))
    check(FAMILY not in fams, "--redact leaves the family out (environment paths)")


def test_promtool(texts):
    promtool = shutil.which("promtool")
    if not promtool:
        print("SKIP promtool check metrics: promtool is not installed (Debian: prometheus)")
        return
    lines = "".join(line + "\n" for t in texts for line in t.split("\n")
                    if FAMILY in line and not line.startswith("#"))
    head = "".join(line + "\n" for line in texts[0].split("\n")
                   if line.startswith("#") and FAMILY in line)
    p = subprocess.run([promtool, "check", "metrics"], input=head + lines, capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(),
          f"promtool check metrics: clean ({p.returncode}: {p.stdout}{p.stderr})")


texts = []
for fixture, want in FIXTURES:
    print(f"== {fixture}")
    texts.append(test_fixture(fixture, want))
print("== redact")
test_redact()
print("== promtool")
test_promtool(texts)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
