#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A real Prometheus (Debian's prometheus package) scrapes `gpuenv exporter` on loopback:
the exporter runs on the nvml-gpu-lost fixture (two H100 PCIe, the second fallen off the bus)
with the fake NVML; Prometheus, on a free port with a temporary storage directory, scrapes it
every second with the shipped rules (deploy/prometheus/gpuenv-alerts.yml) evaluated every
second. The test waits for a clean scrape (target up, no error: Prometheus parsed what it
negotiated, OpenMetrics first), queries its HTTP API for a DCGM series with the fixture's
value and for the GPUFallenOffBus alert the lost GPU fires. Skipped, saying so, without
prometheus. Usage: test-exporter-prometheus.py GPUENV"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import poll  # noqa: E402
from exporter_util import SRC, fixture_args, free_port, start, wait_http  # noqa: E402

GPUENV = sys.argv[1]
PROMETHEUS = shutil.which("prometheus")
if not PROMETHEUS:
    print("SKIP prometheus: not installed (Debian: prometheus)")
    sys.exit(77)


def api(port, path, **params):
    url = f"http://127.0.0.1:{port}/api/v1/{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)["data"]


def until(what, fn, timeout):
    got = poll.until(fn, timeout)
    if not got:
        sys.exit(f"FAIL: {what} within {timeout} s (last: {fn()})")
    return got


def main():
    eport, pport = free_port(), free_port()
    args, env = fixture_args("nvml-gpu-lost")
    exporter = start(GPUENV, ["--listen", f"127.0.0.1:{eport}", "--interval", "2s",
                              "--vendor-timeout", "60000", *args], env)
    with tempfile.TemporaryDirectory(prefix="gpuenv-prom-") as tmp:
        config = os.path.join(tmp, "prometheus.yml")
        with open(config, "w") as f:
            f.write(f"""global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - {os.path.join(SRC, "deploy/prometheus/gpuenv-alerts.yml")}
scrape_configs:
  - job_name: gpuenv
    static_configs:
      - targets: ["127.0.0.1:{eport}"]
""")
        log = open(os.path.join(tmp, "prometheus.log"), "w")
        prom = subprocess.Popen([PROMETHEUS, f"--config.file={config}",
                                 f"--storage.tsdb.path={os.path.join(tmp, 'data')}",
                                 f"--web.listen-address=127.0.0.1:{pport}"],
                                stdout=log, stderr=subprocess.STDOUT)
        try:
            st = wait_http(f"http://127.0.0.1:{eport}/readyz", 300)
            if st[0] != 200:
                sys.exit(f"FAIL: the exporter never became ready: {st}")
            st = wait_http(f"http://127.0.0.1:{pport}/-/ready", 120)
            if st[0] != 200:
                sys.exit(f"FAIL: prometheus never became ready: {st}")

            def clean_scrape():
                t = api(pport, "targets")["activeTargets"]
                return t and t[0]["health"] == "up" and t[0]["lastError"] == "" and t[0]

            t = until("a clean scrape of the exporter", clean_scrape, 120)
            print(f"ok    target up, scraped in {t['lastScrapeDuration']:.4f} s, no error")
            r = until("DCGM_FI_DEV_GPU_TEMP of GPU 0",
                      lambda: api(pport, "query", query='DCGM_FI_DEV_GPU_TEMP{gpu="0"}')["result"],
                      60)
            m = r[0]["metric"]
            if r[0]["value"][1] != "36" or m.get("modelName") != "NVIDIA H100 PCIe" or \
                    m.get("DCGM_FI_DRIVER_VERSION") != "550.54.15":
                sys.exit(f"FAIL: DCGM_FI_DEV_GPU_TEMP{{gpu=\"0\"}} is {r}")
            print("ok    DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} = 36 with dcgm-exporter's labels")

            def fallen():
                return [a for a in api(pport, "alerts")["alerts"]
                        if a["labels"]["alertname"] == "GPUFallenOffBus" and a["state"] == "firing"]

            a = until("the GPUFallenOffBus alert firing", fallen, 60)
            print(f"ok    GPUFallenOffBus firing: {a[0]['labels']}")
            rules = api(pport, "rules")["groups"]
            bad = [r["name"] for g in rules for r in g["rules"] if r.get("health") != "ok"
                   and r.get("lastError")]
            if bad:
                sys.exit(f"FAIL: rules with evaluation errors: {bad}")
            print(f"ok    {sum(len(g['rules']) for g in rules)} rules evaluate without error")
        finally:
            prom.send_signal(signal.SIGTERM)
            exporter.send_signal(signal.SIGTERM)
            for p in (prom, exporter):
                try:
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
            log.close()
    return 0


sys.exit(main())
