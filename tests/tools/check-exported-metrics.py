#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every series the shipped alert rules (deploy/prometheus/gpuenv-alerts.yml) and Grafana
dashboard (deploy/grafana/gpuenv-dashboard.json) query is one `gpuenv exporter` really
exports: the metric names in their PromQL must each be a family of an exposition the
exporter printed (--once) on fixtures that between them make every series appear (a healthy
DGX H100, a lost GPU, Xids in the kernel log, a driver/library mismatch, every NVML value
set; the AMD and Intel fixtures with the fake AMD SMI and Level Zero libraries and
test-exporter-vendor.py's readings) or served (the series of the long-lived NVML child, which
--once does not run), or a recording rule of the same file. `up` is the one Prometheus adds
itself. Each label a selector names (`name{label=...}`) must be one that family carries in
those expositions, or a target label Prometheus adds (job, instance): a matcher on a label
the series never has selects nothing, and the alert never fires.
Usage: check-exported-metrics.py GPUENV"""
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import (SRC, fixture_args, free_port, parse, start,  # noqa: E402
                           wait_http)

GPUENV = sys.argv[1]
KEYWORDS = {"and", "or", "unless", "by", "without", "on", "ignoring", "group_left",
            "group_right", "offset", "bool", "inf", "nan"}

# Every NVML value the fake answers, on top of the healthy H100 (fake-nvml.c lists them).
EXTRA = """retired_pages_pending = 1
nvlink_inactive = 3
"""


def exported():
    """{family: the label names its samples carry} over every exposition."""
    names = {}
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as full:
        with open(os.path.join(SRC, "tests/fixtures/nvml-h100-healthy/scenario.ini")) as f:
            full.write(f.read().replace("[nvml.device.0]\n", "[nvml.device.0]\n" + EXTRA, 1))
    # MIG devices with their own memory: the GPU instances' FB series (GPU_I_ID)
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as mig:
        with open(os.path.join(SRC, "tests/fixtures/rw-mig-two-mig-uuids/scenario.ini")) as f:
            mig.write(f.read().replace("[nvml.device.0.mig.0]\n", "[nvml.device.0.mig.0]\n"
                                       "memory_total = 42144366592\nmemory_used = 1073741824\n",
                                       1))
    try:
        for fixture, scenario in (("nvml-h100-healthy", None), ("nvml-h100-healthy", full.name),
                                  ("nvml-gpu-lost", None), ("xid-79-fallen-off-bus", None),
                                  ("nvml-rm-mismatch", None), ("rw-mig-two-mig-uuids", mig.name)):
            args, env = fixture_args(fixture, scenario)
            p = subprocess.run([GPUENV, "exporter", "--once", "--vendor-timeout", "60000",
                                *args], env=env, capture_output=True, text=True, timeout=300)
            if p.returncode:
                sys.exit(f"{fixture}: exit {p.returncode}: {p.stderr}")
            add_families(names, parse(p.stdout))
    finally:
        os.unlink(full.name)
        os.unlink(mig.name)
    for fam, labels in vendor_exported().items():
        names.setdefault(fam, set()).update(labels)
    args, env = fixture_args("nvml-h100-healthy")
    port = free_port()
    p = start(GPUENV, ["--listen", f"127.0.0.1:{port}", "--interval", "1h",
                       "--diagnose-every", "1h", "--vendor-timeout", "60000", *args], env)
    try:
        st = wait_http(f"http://127.0.0.1:{port}/readyz", 300)
        st = wait_http(f"http://127.0.0.1:{port}/metrics", 60) if st[0] == 200 else st
        if st[0] != 200:
            sys.exit(f"the served exporter did not answer /metrics: {st[0]}")
        add_families(names, parse(st[2]))
    finally:
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=120)
    return names


def add_families(names, fams):
    for fam, f in fams.items():
        for _, labels, _ in f["samples"]:
            names.setdefault(fam, set()).update(labels)


def vendor_exported():
    """The families of the AMD and Intel fixtures, with test-exporter-vendor.py's readings (the
    same scenarios and runner, so the two tests cannot disagree on them)."""
    spec = importlib.util.spec_from_file_location(
        "exporter_vendor", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "test-exporter-vendor.py"))
    v = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v)
    names = {}
    for fixture, lib, tail in (
            ("amd-rx7900xtx-rocm62-healthy", ["--amdsmi-lib", "libamd_smi.so"], v.AMD_DEVICE),
            ("rw-intel-rkl-level-zero-session-fixed", ["--ze-lib", "libze_loader.so.1"],
             v.ARC_DEVICE)):
        text = v.run(fixture, [lib[0], os.path.join(v.FAKES, lib[1])], tail)
        add_families(names, parse(text))
    return names


def metric_names(expr):
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)          # strings
    expr = re.sub(r"\{[^}]*\}", "", expr)                    # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)                   # ranges
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    expr = re.sub(r"\blabel_values\(([^,()]+),[^)]*\)", r"\1", expr)  # Grafana variables
    expr = re.sub(r"\$\w+", "", expr)                        # Grafana's $__interval …
    names = set()
    for m in re.finditer(r"(?<![\w:.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?", expr):
        name, call = m.group(1), m.group(2)
        if call or name in KEYWORDS or re.fullmatch(r"\d+[smhdwy]", name):
            continue
        names.add(name)
    return names


TARGET_LABELS = {"job", "instance"}  # added by Prometheus to every scraped series


def selector_labels(expr):
    """[(metric, label)] for each label matcher of a metric selector in expr."""
    out = []
    sel = r'(?<![\w:.])([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{((?:[^}"]|"(?:[^"\\]|\\.)*")*)\}'
    for m in re.finditer(sel, expr):
        for lm in re.finditer(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)\s*"', m.group(2)):
            out.append((m.group(1), lm.group(1)))
    return out


def main():
    try:
        import yaml  # python3-yaml: Debian's PyYAML
    except ImportError:
        print("SKIP python3-yaml: not installed (scripts/install-deps.sh --test)")
        return 77
    have = exported()
    queries, records = [], set()
    with open(os.path.join(SRC, "deploy/prometheus/gpuenv-alerts.yml")) as f:
        for group in yaml.safe_load(f)["groups"]:
            for rule in group["rules"]:
                name = rule.get("alert") or rule["record"]
                records.update([rule["record"]] if "record" in rule else [])
                queries.append((f"alert rule {name}", rule["expr"]))
    dash = os.path.join(SRC, "deploy/grafana/gpuenv-dashboard.json")
    with open(dash) as f:
        d = json.load(f)
    for panel in d["panels"]:
        for t in panel.get("targets", []):
            queries.append((f"panel {panel['title']!r}", t["expr"]))
    for v in d.get("templating", {}).get("list", []):
        if v.get("type") != "query":  # a data source list, a constant: no PromQL
            continue
        q = v.get("query")
        queries.append((f"variable {v['name']}", q["query"] if isinstance(q, dict) else q))
    bad = 0
    for where, expr in queries:
        for name in sorted(metric_names(expr)):
            if name not in have and name not in records and name != "up":
                print(f"FAIL {where}: {name} is not exported (expr: {expr})")
                bad += 1
        for name, label in selector_labels(expr):
            if name in have and label not in have[name] | TARGET_LABELS:
                print(f"FAIL {where}: {name} has no label {label} (expr: {expr})")
                bad += 1
    print(f"{len(queries)} queries checked against {len(have)} exported families: {bad} unknown")
    # the check itself must be able to fail
    if metric_names("rate(DCGM_FI_NOPE[5m]) > on(gpu) x_y") != {"DCGM_FI_NOPE", "x_y"}:
        print("FAIL the PromQL name extraction is broken")
        bad += 1
    if selector_labels('a{x="}", y=~"p|q"} + b {z!="1"} / c') != [("a", "x"), ("a", "y"),
                                                                ("b", "z")]:
        print("FAIL the PromQL label matcher extraction is broken")
        bad += 1
    return 1 if bad else 0


sys.exit(main())
