#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The deploy/ files stay true to gpuenv exporter: every option the systemd unit's ExecStart
and the Kubernetes DaemonSet pass is one `gpuenv exporter --help` lists, the unit keeps its
hardening (DynamicUser, ProtectSystem=strict, no capabilities, the NVIDIA device nodes only)
and the PrometheusRule carries exactly the groups of deploy/prometheus/gpuenv-alerts.yml.
`systemd-analyze verify` checks the unit where systemd is installed.
Usage: test-deploy.py GPUENV SOURCE_ROOT"""
import os
import re
import shutil
import subprocess
import sys

gpuenv, src = sys.argv[1], sys.argv[2]
try:
    import yaml
except ImportError:
    print("SKIP python3-yaml: not installed (scripts/install-deps.sh --test)")
    sys.exit(77)
help_text = subprocess.run([gpuenv, "exporter", "--help"], capture_output=True, text=True,
                           check=True).stdout
known = set(re.findall(r"--[a-z][a-z-]*", help_text))
bad = 0


def check(cond, what):
    global bad
    print(("ok    " if cond else "FAIL  ") + what)
    bad += not cond


unit = open(os.path.join(src, "deploy/systemd/gpuenv-exporter.service")).read()
exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1).split()
check(exec_start[1] == "exporter", "the unit runs gpuenv exporter")
for opt in exec_start[2:]:
    if opt.startswith("--"):
        check(opt.split("=")[0] in known, f"unit option {opt} is in --help")
for line in ("DynamicUser=yes", "ProtectSystem=strict", "CapabilityBoundingSet=",
             "NoNewPrivileges=yes", "DevicePolicy=closed", "DeviceAllow=char-nvidia-frontend rw",
             "ProtectHome=read-only", "PrivateTmp=yes",
             # the rest of the hardening set, and the NVIDIA nodes NVML and MIG need (UVM,
             # the MIG capability nodes) with nothing else (DevicePolicy=closed)
             "AmbientCapabilities=", "ProtectKernelTunables=yes", "ProtectKernelModules=yes",
             "ProtectControlGroups=yes", "RestrictSUIDSGID=yes", "LockPersonality=yes",
             "SystemCallArchitectures=native", "SystemCallFilter=@system-service",
             "DeviceAllow=char-nvidia-uvm rw", "DeviceAllow=char-nvidia-caps r"):
    check(re.search(r"^" + re.escape(line) + r"$", unit, re.M) is not None, f"unit has {line}")
with open(os.path.join(src, "deploy/kubernetes/gpuenv-exporter.yaml")) as f:
    docs = list(yaml.safe_load_all(f))
kinds = [d["kind"] for d in docs]
check(kinds == ["DaemonSet", "Service", "ServiceMonitor", "PrometheusRule"],
      f"manifests: {kinds}")
args = docs[0]["spec"]["template"]["spec"]["containers"][0]["args"]
check(args[0] == "exporter", "the DaemonSet runs gpuenv exporter")
for opt in args[1:]:
    check(opt.split("=")[0] in known, f"DaemonSet option {opt} is in --help")
env = docs[0]["spec"]["template"]["spec"]["containers"][0].get("env", [])
check({"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}} in env,
      "the DaemonSet sets NODE_NAME to the node (the DCGM series' Hostname label)")
check(docs[1]["metadata"]["name"] == "gpuenv", "the Service is named gpuenv (job=\"gpuenv\")")
with open(os.path.join(src, "deploy/prometheus/gpuenv-alerts.yml")) as f:
    groups = yaml.safe_load(f)["groups"]
check(docs[3]["spec"]["groups"] == groups, "PrometheusRule groups == gpuenv-alerts.yml groups")
if shutil.which("systemd-analyze"):
    p = subprocess.run(["systemd-analyze", "verify",
                        os.path.join(src, "deploy/systemd/gpuenv-exporter.service")],
                       capture_output=True, text=True)
    check(p.returncode == 0 or "gpuenv" in p.stderr and "not executable" in p.stderr,
          f"systemd-analyze verify ({p.stderr.strip()[:200]})")
else:
    print("SKIP systemd-analyze verify: systemd is not installed")
sys.exit(1 if bad else 0)
