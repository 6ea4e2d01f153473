#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The vendor children run alongside each other and the file probes (src/probe/probe.c):
the fake NVML's nvmlInit_v2 and the fake libcuda's cuInit each take DELAY_MS (the scenario's
"delay.<function>", tests/fakes/fake-scenario.h) on the nvml-h100-healthy fixture.

1. The result is the same with and without the delays (report --json --stable).
2. Order, from gpuenv's own log (-v): both children are started before the file probes that
   follow their rows (cuda-toolkit … container-host) run, and collected after the last one.
3. Overlap, from the snapshot's timings: each child's probe_us (from its row's start to its
   result) is at least the delay, and the whole collection (collection.total_us) took less
   than the two together. Run one after the other, the collection would take at least the
   sum of the two, so this cannot pass then; it holds with any load that lets the second
   child start within DELAY_MS of the first.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import SRC, fixture_args  # noqa: E402

gpuenv = sys.argv[1]
FIXTURE = "nvml-h100-healthy"
DELAY_MS = 1500
FILE_PROBES = ("process", "cuda-toolkit", "rocm", "environment", "python", "intel", "container",
               "container-host")
failed = 0


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what}\n  {detail}")
    failed |= not cond


def run(tmp, delay, extra):
    """gpuenv report --json EXTRA on the fixture, the fakes delayed or not: (snapshot, stderr)."""
    base = os.path.join(SRC, "tests", "fixtures", FIXTURE, "scenario.ini")
    scen = os.path.join(tmp, f"scenario-{delay}.ini")
    with open(scen, "w") as f:
        # The fakes read the first value of a key: these sections come first.
        if delay:
            f.write(f"[nvml]\ndelay.nvmlInit_v2 = {delay}\n[cuda]\ndelay.cuInit = {delay}\n")
        f.write(open(base).read())
    args, env = fixture_args(FIXTURE, scen)
    # A deadline far beyond the delays: a loaded machine must not turn them into timeouts.
    p = subprocess.run([gpuenv, "report", *args, "--json", "--vendor-timeout", "30000", *extra],
                       capture_output=True, text=True, env=env, timeout=120)
    try:
        return json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return None, f"exit {p.returncode}\n{p.stderr}{p.stdout}"


def unmeasured(node):
    """node without the one measured value a --stable snapshot keeps: the time between the two
    reads of each GPU's PCIe replay counter (run-scenario.py masks it the same way)."""
    if isinstance(node, dict):
        return {k: unmeasured(v) for k, v in node.items() if k != "pcie_replay_interval_ms"}
    if isinstance(node, list):
        return [unmeasured(v) for v in node]
    return node


def first_line(lines, needle):
    return next((i for i, line in enumerate(lines) if line.endswith(needle)), None)


with tempfile.TemporaryDirectory() as tmp:
    plain, err = run(tmp, 0, ["--stable"])
    expect("report --stable runs", plain is not None, err)
    slow, err = run(tmp, DELAY_MS, ["--stable"])
    expect("report --stable runs with the delays", slow is not None, err)
    expect("the same snapshot with and without the delays", unmeasured(plain) == unmeasured(slow),
           "the delayed run differs" if plain and slow else err)
    if slow:
        expect("both sessions completed", slow["driver"]["nvml"]["session"].get("value") ==
               "completed" and slow["driver"]["cuda"]["session"].get("value") == "completed",
               slow["driver"].get("nvml", {}).get("session"))

    snap, log = run(tmp, DELAY_MS, ["-v"])
    expect("report -v runs with the delays", snap is not None, log)
    lines = log.splitlines()
    started = [first_line(lines, f"probe {p}: vendor child started") for p in ("nvml", "cuda-driver")]
    later = [first_line(lines, f"probe {p}") for p in FILE_PROBES]
    collecting = next((i for i, line in enumerate(lines) if "collecting 2 vendor child" in line), None)
    expect("the log shows both children started, the file probes and the collection",
           None not in started and None not in later and collecting is not None, log)
    if None not in started and None not in later and collecting is not None:
        expect("both children started before the file probes after their rows ran",
               max(started) < min(later), log)
        expect("collected after the last file probe", max(later) < collecting, log)
    if snap:
        us = snap["collection"]["probe_us"]
        nvml, cuda = (us.get(k, {}).get("value", 0) for k in ("nvml", "cuda-driver"))
        total = snap["collection"].get("total_us", {}).get("value", 0)
        expect(f"each child took at least the delay ({DELAY_MS} ms): nvml {nvml} us, cuda {cuda} us",
               min(nvml, cuda) >= DELAY_MS * 1000, us)
        expect(f"the children overlapped: collection {total} us < nvml + cuda {nvml + cuda} us",
               0 < total < nvml + cuda, snap["collection"])

sys.exit(1 if failed else 0)
