#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv labels`: every label of every fixture's snapshot obeys Kubernetes' syntax (a
# qualified name: optional DNS-subdomain prefix, a name of at most 63 characters; a value of at
# most 63, alphanumeric at both ends, [-_.A-Za-z0-9] between: k8s.io/apimachinery
# validation.IsQualifiedName / IsValidLabelValue); GPU Feature Discovery's names and value
# formats on an H100 machine; a hostile GPU name is sanitised, not passed through; --nfd
# writes the file atomically with NFD's expiry header (docs/labels.md).
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

gpuenv = sys.argv[1]
src = os.environ["GPUENV_SOURCE_ROOT"]
fx = os.path.join(src, "tests", "fixtures")
failed = 0
NAME = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$")
VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
DNS1123_SUB = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    failed |= not cond


def label_ok(name, value):
    prefix, _, base = name.rpartition("/")
    if prefix and (len(prefix) > 253 or not DNS1123_SUB.match(prefix)):
        return False
    return bool(NAME.match(base)) and len(value) <= 63 and bool(VALUE.match(value))


def labels(*args):
    p = subprocess.run([gpuenv, "labels", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


checked = 0
for name in sorted(os.listdir(fx)):
    rep = os.path.join(fx, name, "expected", "report.json")
    if not os.path.exists(rep):
        continue
    rc, out, err = labels("--json", "--from", rep)
    if rc != 0:
        expect(f"{name}: labels exit 0", False, f"rc={rc} {err}")
        continue
    doc = json.loads(out)["labels"]
    bad = {k: v for k, v in doc.items() if not label_ok(k, v)}
    expect(f"{name}: {len(doc)} labels obey Kubernetes' syntax", not bad and doc, str(bad))
    if name == "h100-sxm-550":
        rc, text, _ = labels("--from", rep)
        expect(f"{name}: the text form is the same labels",
               dict(line.split("=", 1) for line in text.splitlines()) == doc)
    checked += 1
expect("labels checked on the fixtures", checked > 50, str(checked))

rep = os.path.join(fx, "h100-sxm-550", "expected", "report.json")
_, out, _ = labels("--json", "--from", rep)
got = json.loads(out)["labels"]
want = {"nvidia.com/gpu.count": "8", "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
        "nvidia.com/gpu.memory": "81559", "nvidia.com/gpu.compute.major": "9",
        "nvidia.com/gpu.compute.minor": "0", "nvidia.com/gpu.family": "hopper",
        "nvidia.com/cuda.driver.major": "550", "nvidia.com/cuda.driver.minor": "54",
        "nvidia.com/cuda.driver.rev": "15", "nvidia.com/cuda.runtime.major": "12",
        "nvidia.com/cuda.runtime.minor": "4",
        "feature.node.kubernetes.io/gpuenv.health": "warning",
        "feature.node.kubernetes.io/gpuenv.root-cause": "driver.branch-eol",
        "feature.node.kubernetes.io/gpuenv.driver-max-cuda": "12.4"}
expect("H100: GFD's names and formats, gpuenv's health and root cause",
       all(got.get(k) == v for k, v in want.items()),
       str({k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}))
_, out, _ = labels("--json", "--from",
                   os.path.join(fx, "torch-cu130-gtx1080", "expected", "report.json"))
got = json.loads(out)["labels"]
expect("GTX 1080 under a cu130 torch: pascal, error, no framework coverage",
       got.get("nvidia.com/gpu.family") == "pascal"
       and got.get("feature.node.kubernetes.io/gpuenv.health") == "error"
       and got.get("feature.node.kubernetes.io/gpuenv.framework-coverage") == "none", str(got))
_, out, _ = labels("--json", "--from", os.path.join(fx, "no-gpu", "expected", "report.json"))
got = json.loads(out)["labels"]
expect("no GPU: no nvidia.com label is invented",
       not any(k.startswith("nvidia.com/") for k in got), str(got))

with tempfile.TemporaryDirectory() as tmp:
    snap = json.load(open(rep))
    hostile = copy.deepcopy(snap)
    hostile["driver"]["nvml"]["devices"][0]["name"]["value"] = (
        "  -NVIDIA \u001b[31mH100/80GB (\"hostile\") " + "x" * 80 + "-")
    p = os.path.join(tmp, "hostile.json")
    json.dump(hostile, open(p, "w"))
    _, out, _ = labels("--json", "--from", p)
    got = json.loads(out)["labels"]
    prod = got.get("nvidia.com/gpu.product", "")
    expect("a hostile GPU name is sanitised to the syntax, 63 characters at most",
           label_ok("nvidia.com/gpu.product", prod) and prod.startswith("NVIDIA-31mH10080GB-hostile"),
           repr(prod))

    nfd = os.path.join(tmp, "features.d")
    os.mkdir(nfd)
    target = os.path.join(nfd, "gpuenv")
    open(target, "w").write("old=1\n")
    rc, _, err = labels("--from", rep, "--nfd", target, "--expiry", "300")
    body = open(target).read()
    lines = body.splitlines()
    expect("--nfd: exit 0, the expiry header then the labels",
           rc == 0 and re.match(r"^# \+expiry-time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", lines[0])
           and "nvidia.com/gpu.family=hopper" in lines and "old=1" not in lines, body[:300])
    expect("--nfd: no temporary file left beside it", os.listdir(nfd) == ["gpuenv"],
           str(os.listdir(nfd)))
    expect("--nfd: readable by nfd-worker (0644)", oct(os.stat(target).st_mode & 0o777) == "0o644")
    for args, want_rc, want in [
            (("--from", rep, "--nfd", os.path.join(tmp, "missing", "gpuenv")), 74, "No such file"),
            (("--from", rep, "--nfd", target, "--json"), 64, "not --json"),
            (("--from", rep, "--expiry", "0"), 64, "--expiry takes seconds"),
            (("--from", "/nonexistent-gpuenv.json"), 66, "No such file"),
            (("extra",), 64, "unexpected argument")]:
        rc, _, err = labels(*args)
        expect(f"labels {' '.join(args)}: exit {want_rc}", rc == want_rc and want in err,
               f"rc={rc} {err.strip()}")
sys.exit(failed)
