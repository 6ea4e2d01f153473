#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No control character read from the machine reaches a terminal: the hostile-terminal-escapes
fixture has escape sequences in os-release, cpuinfo, the nvidia version files, an Xid line of
the kernel log, a malformed CDI spec and --env-file values; every text renderer (report,
doctor, doctor --markdown, doctor --mermaid, with and without --redact, live from the tree
and from the saved --from snapshot, and a snapshot edited to carry escapes in a key and in
values) must print no byte below 0x20 but the newline, no 0x7f and no UTF-8 C1 control
(U+0080..U+009F), on stdout or stderr.
Usage: test-escapes.py GPUENV FIXTURE_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402  (the root's generated files: tests/tools/fixture_root.py)

BAD = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
BAD_C0 = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")
gpuenv, fixture = sys.argv[1], sys.argv[2]
fail = 0
checked = 0


def run(args, what, shows_escapes=True):
    global fail, checked
    json_out = "--json" in args
    p = subprocess.run([gpuenv, *args], capture_output=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1",
                            **{k: v for k, v in os.environ.items() if k.endswith("SAN_OPTIONS")}})
    if p.returncode not in (0, 1, 2, 3):
        print(f"FAIL: {what}: exit {p.returncode}\n{p.stderr.decode(errors='replace')}")
        fail = 1
        return p.stdout
    for name, out in (("stdout", p.stdout), ("stderr", p.stderr)):
        # JSON is data, not text for a terminal: jansson writes C0 bytes as \u00XX and keeps
        # other characters (C1 included) as UTF-8, which a JSON reader needs back as they were.
        m = (BAD_C0 if json_out and name == "stdout" else BAD).search(out)
        if m:
            line = out[:m.start()].count(b"\n") + 1
            print(f"FAIL: {what}: {name} line {line} has the control byte(s) {m.group()!r}")
            fail = 1
    if shows_escapes and not json_out and b"\\x1b" not in p.stdout:
        # the fixture's escapes must be shown (escaped), or the check proved nothing
        print(f"FAIL: {what}: no escaped \\x1b in the output: the escapes were not rendered at all")
        fail = 1
    checked += 1
    return p.stdout


ini = fixture_root.read_ini(fixture)
with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, "root")
    for path, why in fixture_root.prepare(fixture, root):
        print(f"SKIP {path}: {why}")
    envfile = os.path.join(tmp, "env")
    with open(envfile, "w", encoding="utf-8") as f:
        for k, v in ini.items("env"):
            f.write(f"{k}={v}\n")
    base = ["--sysroot", root, "--no-vendor", "--stable",
            "--env-file", envfile]
    snap = os.path.join(tmp, "snap.json")
    with open(snap, "wb") as f:
        f.write(run(["report", *base, "--json"], "report --json"))
    for cmd, fmts in (("report", [[]]), ("doctor", [[], ["--markdown"], ["--mermaid"]])):
        for fmt in fmts:
            for red in ([], ["--redact"]):
                # Mermaid quotes the findings' messages only, none of which has an escape
                # here (tests/unit/test-rules-engine.c checks its escaping)
                shows = fmt != ["--mermaid"]
                run([cmd, *base, *fmt, *red], " ".join([cmd, *fmt, *red]), shows)
                run([cmd, "--from", snap, "--stable", *fmt, *red],
                    " ".join([cmd, "--from", *fmt, *red]), shows)
    # a snapshot edited by hand: escapes in a key and a value of sections every renderer shows
    with open(snap, encoding="utf-8") as f:
        d = json.load(f)
    d.setdefault("environment", {})["EVIL\x1b[2J\u009b"] = {"state": "present",
                                                            "value": "x\x1b]0;t\x07\r\t",
                                                            "source": "environment"}
    hand = os.path.join(tmp, "hand.json")
    with open(hand, "w", encoding="utf-8") as f:
        json.dump(d, f)
    out = run(["report", "--from", hand, "--stable"], "report --from an edited snapshot")
    if b"EVIL\\x1b[2J\\xc2\\x9b" not in out or b"x\\x1b]0;t\\x07\\r\\t" not in out:
        print("FAIL: report --from an edited snapshot: its key and value are not shown escaped")
        fail = 1
    run(["doctor", "--from", hand, "--stable"], "doctor --from an edited snapshot")
print(f"{'ok' if not fail else 'FAIL'}: {checked} outputs checked for control bytes")
sys.exit(fail)
