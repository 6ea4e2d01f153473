#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv diff A B` on the fixtures' snapshots: identical files are the same stack (exit 0);
# a changed driver version is drift with both values (exit 1); a changed hostname, GPU UUID or
# temperature is listed apart and is no difference (exit 0); the findings of a broken machine
# appear; bad input exits 64/66 with a message (docs/fleet.md).
import copy
import json
import os
import subprocess
import sys
import tempfile

gpuenv = sys.argv[1]
src = os.environ["GPUENV_SOURCE_ROOT"]
fx = os.path.join(src, "tests", "fixtures")
base = os.path.join(fx, "h100-sxm-550", "expected", "report.json")
faults = os.path.join(fx, "h100-link-faults", "expected", "report.json")
failed = 0


def run(*args, stdin=None):
    p = subprocess.run([gpuenv, "diff", *args], capture_output=True, text=True, input=stdin)
    return p.returncode, p.stdout, p.stderr


def expect(what, cond, detail=""):
    global failed
    if cond:
        print(f"ok: {what}")
    else:
        print(f"FAIL: {what} {detail}")
        failed = 1


def diff_json(a, b):
    rc, out, err = run("--json", a, b)
    return rc, (json.loads(out) if out else None), err


with tempfile.TemporaryDirectory() as tmp:
    snap = json.load(open(base))

    rc, d, _ = diff_json(base, base)
    expect("a snapshot against itself: exit 0, no differences",
           rc == 0 and d["differences"] == 0 and d["changes"] == [] and d["findings"] == [],
           f"rc={rc}")

    # identity and readings only: another host name, GPU UUID, serial, bus id and temperature
    ident = copy.deepcopy(snap)
    ident["collection"] = {"hostname": {"state": "present", "value": "node-017",
                                        "source": "/proc/sys/kernel/hostname"}}
    dev = ident["driver"]["nvml"]["devices"][0]
    dev["uuid"]["value"] = "GPU-00000000-1111-2222-3333-444444444444"
    dev["serial"]["value"] = "1650000000000"
    dev["temperature_c"]["value"] = 71
    p_ident = os.path.join(tmp, "ident.json")
    json.dump(ident, open(p_ident, "w"))
    rc, d, err = diff_json(base, p_ident)
    ikeys = {e["key"] for e in d["identity"]} if d else set()
    rkeys = {e["key"] for e in d["readings"]} if d else set()
    expect("identity keys and readings only: exit 0", rc == 0 and d["differences"] == 0,
           f"rc={rc} {err} changes={d and d['changes']}")
    expect("hostname, UUID and serial listed as identity",
           {"collection", "driver.nvml.devices.0.uuid", "driver.nvml.devices.0.serial"} <= ikeys,
           str(ikeys))
    expect("temperature listed as a reading", "driver.nvml.devices.0.temperature_c" in rkeys,
           str(rkeys))

    # drift: another kernel module version, one GPU's link trained at x8, a toolkit added
    drift = copy.deepcopy(snap)
    drift["driver"]["nvidia"]["module_version"]["value"] = "550.90.07"
    drift["hardware"]["gpus"][3]["current_link_width"]["value"] = 8
    del drift["host"]["os"]["id_like"]
    p_drift = os.path.join(tmp, "drift.json")
    json.dump(drift, open(p_drift, "w"))
    rc, d, err = diff_json(base, p_drift)
    ch = {e["key"]: e for e in d["changes"]} if d else {}
    mv = ch.get("driver.nvidia.module_version", {})
    expect("a changed driver version: exit 1, both values",
           rc == 1 and mv.get("change") == "changed" and mv.get("a") == "550.54.15"
           and mv.get("b") == "550.90.07" and mv.get("section") == "driver", f"rc={rc} {mv}")
    lw = ch.get("hardware.gpus.3.current_link_width", {})
    expect("a link trained at x8: 16 -> 8", lw.get("a") == "16" and lw.get("b") == "8", str(lw))
    rm = ch.get("host.os.id_like", {})
    expect("a removed fact: removed, b null", rm.get("change") == "removed" and rm.get("b") is None,
           str(rm))
    expect("differences = drifted facts + findings",
           d["differences"] == len(d["changes"]) + len(d["findings"]), str(d["differences"]))
    rc_t, out, _ = run(base, p_drift)
    expect("text: the layer heading and the change line",
           rc_t == 1 and "\ndriver\n" in out
           and "~ driver.nvidia.module_version: 550.54.15 → 550.90.07" in out, out[:400])
    rc_m, out, _ = run("--markdown", base, p_drift)
    expect("markdown: the drift table", rc_m == 1 and "| change | key | A | B |" in out
           and "`driver.nvidia.module_version`" in out, out[:300])

    # the findings of a machine whose GPU fell off the bus appear; the reverse makes them go away
    rc, d, _ = diff_json(base, faults)
    appeared = {f["rule"] for f in d["findings"] if f["change"] == "appeared"}
    expect("a GPU off the bus: hardware.pcie-link-down appeared",
           rc == 1 and "hardware.pcie-link-down" in appeared, str(appeared))
    expect("verdicts of both sides", d["a"]["verdict"] == "warnings" and d["b"]["verdict"] == "errors",
           str((d["a"], d["b"])))
    rc, d, _ = diff_json(faults, base)
    gone = {f["rule"] for f in d["findings"] if f["change"] == "went away"}
    expect("and the other way round it went away", "hardware.pcie-link-down" in gone, str(gone))

    # stdin for one side
    rc, out, _ = run("--json", "-", base, stdin=open(base).read())
    expect("A from stdin", rc == 0 and json.loads(out)["differences"] == 0, f"rc={rc}")

    # bad input and usage
    bad = os.path.join(tmp, "bad.json")
    open(bad, "w").write('{"schema_version": 2, "host": ')
    for args, want_rc, want_msg in [
            ((base,), 64, "takes two snapshot files"),
            ((base, base, base), 64, "takes two snapshot files"),
            (("-", "-"), 64, "only one of A and B"),
            (("--json", "--markdown", base, base), 64, "exclude each other"),
            ((base, "/nonexistent-gpuenv.json"), 66, "B /nonexistent-gpuenv.json: No such file"),
            ((bad, base), 66, f"A {bad}: not a gpuenv snapshot"),
            ((tmp, base), 66, "Is a directory")]:
        rc, _, err = run(*args)
        expect(f"diff {' '.join(args)}: exit {want_rc}", rc == want_rc and want_msg in err,
               f"rc={rc} stderr={err.strip()}")

sys.exit(failed)
