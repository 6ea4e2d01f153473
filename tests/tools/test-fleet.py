#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv fleet` on a directory of the fixtures' documents and hostile files: the majority
# value and the deviating machine of a changed driver, the findings of a report --json file
# (the rules run on it) and of doctor --json files counted by machine, and every malformed,
# empty, huge, deeply nested or non-regular file named and counted, never a crash
# (docs/fleet.md).
import json
import os
import subprocess
import sys
import tempfile

gpuenv = sys.argv[1]
src = os.environ["GPUENV_SOURCE_ROOT"]
fx = os.path.join(src, "tests", "fixtures")
healthy = open(os.path.join(fx, "h100-sxm-550", "expected", "doctor.json")).read()
faults_report = open(os.path.join(fx, "h100-link-faults", "expected", "report.json")).read()
failed = 0


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    failed |= not cond


def fleet(*args):
    p = subprocess.run([gpuenv, "fleet", *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    same = os.path.join(tmp, "same")
    os.mkdir(same)
    for i in range(3):
        open(os.path.join(same, f"node-{i}.json"), "w").write(healthy)
    rc, out, err = fleet("--json", same)
    doc = json.loads(out)
    expect("three identical machines: exit 0, no key differs",
           rc == 0 and doc["machines"] == 3 and all(k["uniform"] for k in doc["keys"])
           and doc["problems"] == 0, f"rc={rc} {err}")
    drv = [k for k in doc["keys"] if k["key"] == "driver.nvidia.module_version"][0]
    expect("the driver's majority is 550.54.15 on 3 of 3",
           drv["majority"] == {"value": "550.54.15", "machines": 3}, str(drv))

    d = os.path.join(tmp, "fleet")
    os.mkdir(d)
    for i in range(5):
        open(os.path.join(d, f"node-{i}.json"), "w").write(healthy)
    open(os.path.join(d, "node-5.json"), "w").write(
        healthy.replace('"value": "550.54.15"', '"value": "550.90.07"'))
    open(os.path.join(d, "node-6.json"), "w").write(faults_report)
    # the hostile ones
    open(os.path.join(d, "bad-truncated.json"), "w").write(healthy[: len(healthy) // 2])
    open(os.path.join(d, "bad-empty.json"), "w").write("")
    open(os.path.join(d, "bad-array.json"), "w").write("[1, 2, 3]")
    open(os.path.join(d, "bad-other.json"), "w").write('{"name": "not gpuenv"}')
    open(os.path.join(d, "bad-deep.json"), "w").write('{"a":' + "[" * 100000 + "]" * 100000 + "}")
    open(os.path.join(d, "bad-text.json"), "w").write("NVRM: GPU at PCI:0000:2a:00: fallen off")
    with open(os.path.join(d, "bad-huge.json"), "w") as f:
        f.truncate(17 << 20)
    os.mkfifo(os.path.join(d, "bad-fifo.json"))
    os.mkdir(os.path.join(d, "bad-dir.json"))
    open(os.path.join(d, "ignored.txt"), "w").write("not a .json name")
    rc, out, err = fleet("--json", d)
    doc = json.loads(out) if out else {}
    expect("a mixed directory: exit 1, 7 machines read", rc == 1 and doc.get("machines") == 7,
           f"rc={rc} {err[-500:]}")
    unread = {os.path.basename(u["file"]): u["why"] for u in doc.get("not_read", [])}
    expect("the 9 bad files are each named, with why",
           sorted(unread) == sorted(["bad-truncated.json", "bad-empty.json", "bad-array.json",
                                     "bad-other.json", "bad-deep.json", "bad-text.json",
                                     "bad-huge.json", "bad-fifo.json", "bad-dir.json"]),
           str(unread))
    expect("why: truncated JSON, nesting, size, not a regular file",
           "not JSON" in unread.get("bad-truncated.json", "")
           and "deeper than" in unread.get("bad-deep.json", "")
           and "16 MiB" in unread.get("bad-huge.json", "")
           and "not a regular file" in unread.get("bad-fifo.json", "")
           and "not a gpuenv snapshot" in unread.get("bad-other.json", ""), str(unread))
    drv = [k for k in doc["keys"] if k["key"] == "driver.nvidia.module_version"][0]
    dev = drv["deviations"]
    expect("driver: 550.54.15 on 6 of 7, one machine 550.90.07 named",
           drv["majority"] == {"value": "550.54.15", "machines": 6} and len(dev) == 1
           and dev[0]["value"] == "550.90.07" and dev[0]["machines"] == 1
           and dev[0]["examples"] == [os.path.join(d, "node-5.json")], str(drv))
    width = [k for k in doc["keys"] if k["key"] == "hardware.gpus.*.current_link_width"][0]
    expect("link width: the machine with a GPU off the bus and one at x8 deviates",
           not width["uniform"] and width["deviations"][0]["value"] == "0×1, 8×1"
           and width["majority"]["machines"] == 6, str(width))
    found = {f["rule"]: f for f in doc["findings"]}
    link = found.get("hardware.pcie-link-down", {})
    expect("the report --json machine's findings come from the rules run on it",
           link.get("machines") == 1 and link.get("severity") == "error"
           and link.get("examples") == [os.path.join(d, "node-6.json")], str(link))
    eol = found.get("driver.branch-eol", {})
    expect("a finding on every machine: 7 of 7", eol.get("machines") == 7, str(eol))
    expect("verdicts", doc["verdicts"] == {"healthy": 0, "warnings": 6, "errors": 1,
                                           "unevaluated": 0}, str(doc["verdicts"]))
    for name in unread:
        expect(f"stderr names {name}", name in err, err[-300:])
    rc, out, _ = fleet(d)
    expect("text: the grouped deviation line",
           "1 of 7 machines: driver 550.90.07, the rest 550.54.15" in out, out[:1500])
    rc, out, _ = fleet("--markdown", d)
    expect("markdown: the table", "| key | value | machines | examples |" in out
           and "| driver | 550.90.07 | 1 of 7 |" in out, out[:800])

    for args, want_rc, want in [((), 64, "name the snapshot files"),
                                (("--json", "--markdown", d), 64, "exclude each other"),
                                (("/nonexistent-gpuenv",), 66, "/nonexistent-gpuenv: No such file"),
                                ((os.path.join(d, "bad-empty.json"),), 66, "bad-empty.json")]:
        rc, _, err = fleet(*args)
        expect(f"fleet {' '.join(args)}: exit {want_rc}", rc == want_rc and want in err,
               f"rc={rc} {err.strip()[:300]}")
sys.exit(failed)
