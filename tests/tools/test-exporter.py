#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv exporter` end to end on fixtures with the fake NVML (tests/fakes): the
exposition is valid Prometheus text and OpenMetrics, the DCGM fields carry the fixture's
values under dcgm-exporter's labels, label values are escaped, --output is atomic, a lost
GPU and a hung NVML become errors and a stale flag, and the HTTP server answers /metrics,
/healthz, /readyz, refuses bad requests with 4xx without echoing them, keeps serving while
NVML hangs and under slow-loris connections, re-diagnoses on SIGHUP and stops on SIGTERM.
Usage: test-exporter.py GPUENV"""
import collections
import gzip
import http.client
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import (collection_children, fixture_args, free_port,  # noqa: E402
                           parse, serving_process, start, threads, value, wait_http)

GPUENV = sys.argv[1]
SLOW = ["--vendor-timeout", "60000"]  # the sanitizer build under load: never the deadline
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def once(fixture, *extra, scenario=None, ok=(0,)):
    args, env = fixture_args(fixture, scenario)
    p = subprocess.run([GPUENV, "exporter", "--once", *extra, *args], env=env,
                       capture_output=True, text=True, timeout=300)
    if p.returncode not in ok:
        sys.exit(f"exporter --once on {fixture}: exit {p.returncode}\n{p.stderr}")
    return p


def test_once_text():
    p = once("nvml-h100-healthy", *SLOW)
    fams = parse(p.stdout)
    check(len(fams["DCGM_FI_DEV_GPU_TEMP"]["samples"]) == 8, "8 GPUs of the DGX H100 fixture")
    first = fams["DCGM_FI_DEV_GPU_TEMP"]["samples"][0]
    check(list(first[1]) == ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname",
                             "DCGM_FI_DRIVER_VERSION"], "dcgm-exporter's labels in its order")
    check(value(fams, "DCGM_FI_DEV_GPU_TEMP", gpu="0") == "33", "GPU 0 temperature 33 C")
    check(value(fams, "DCGM_FI_DEV_POWER_USAGE", gpu="0") == "71.254000",
          "power 71254 mW as W with six decimals (%f)")
    # 85520809984 B total, 577765376 reserved, 0 used: 81559 - 551 - 0 MiB free
    check(value(fams, "DCGM_FI_DEV_FB_FREE", gpu="0") == "81008", "FB_FREE = total-reserved-used")
    check(value(fams, "DCGM_FI_DEV_FB_RESERVED", gpu="0") == "551", "FB_RESERVED MiB")
    check(fams["DCGM_FI_DEV_GPU_TEMP"]["type"] == "gauge", "GPU_TEMP is a gauge")
    check(fams["DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS"]["type"] == "counter",
          "remapped rows is a counter")
    check(value(fams, "DCGM_FI_DEV_GPU_TEMP", gpu="3", device="nvidia3",
                DCGM_FI_DRIVER_VERSION="550.54.15") == "33", "device and driver labels")
    check(value(fams, "gpuenv_exporter_field_supported", gpu="0",
                field="DCGM_FI_DEV_GPU_TEMP") == "1", "GPU_TEMP supported")
    check(value(fams, "gpuenv_exporter_field_supported", gpu="0",
                field="DCGM_FI_PROF_PIPE_TENSOR_ACTIVE") == "0",
          "a DCGM profiling field NVML cannot answer is 0, not fatal")
    check("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE" not in fams, "and is left out")
    check(value(fams, "gpuenv_driver_info", version="550.54.15", branch="550",
                max_cuda="12.4") == "1", "driver info series")
    check(value(fams, "gpuenv_gpu_pcie_link_width", gpu="0") == "16", "PCIe width x16")
    check(value(fams, "gpuenv_gpu_nvlink_link_up", gpu="0", link="17") == "1", "NVLink 17 up")
    check(value(fams, "gpuenv_layer_status", layer="driver", status="ok") in ("0", "1"),
          "layer status state set")
    check(value(fams, "DCGM_FI_DEV_SM_CLOCK", gpu="0") == "345", "SM clock MHz, as DCGM")
    check(value(fams, "gpuenv_gpu_sm_clock_max_hertz", gpu="0") == "1980000000",
          "gpuenv's own clock in Hz")
    check(value(fams, "gpuenv_gpu_temperature_slowdown_threshold_celsius", gpu="0") == "89",
          "slowdown threshold")
    check(value(fams, "gpuenv_gpu_clocks_event_reason", gpu="0", reason="gpu_idle") == "1"
          and value(fams, "gpuenv_gpu_clocks_event_reason", gpu="0",
                    reason="hw_thermal_slowdown") == "0", "clocks event reasons state set")
    check(value(fams, "gpuenv_sample_stale") == "0", "fresh sample")
    check(value(fams, "gpuenv_nvml_up") == "1", "nvmlInit succeeded")
    check(value(fams, "gpuenv_nvml_gpus") == "8", "gpuenv_nvml_gpus: NVML's 8 GPUs")
    # the old name for one release (docs/exporter.md, Deprecated series)
    check(value(fams, "gpuenv_gpu_count") == "8"
          and fams["gpuenv_gpu_count"]["help"].startswith("Deprecated: gpuenv_nvml_gpus"),
          "gpuenv_gpu_count: the same value, its help says it is deprecated")


def test_once_openmetrics():
    p = once("nvml-h100-healthy", "--openmetrics", *SLOW)
    fams = parse(p.stdout, openmetrics=True)
    check(p.stdout.endswith("# EOF\n"), "OpenMetrics ends with # EOF")
    check(fams["gpuenv_collection_errors"]["type"] == "counter"
          and value(fams, "gpuenv_collection_errors", kind="sample") == "0",
          "OpenMetrics counter family without _total, samples with it")
    check(fams["DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" if "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
               in fams else "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS"]["type"] == "unknown",
          "a DCGM counter without _total keeps its name as type unknown")
    check(fams["gpuenv_driver"]["type"] == "info", "driver info is an OpenMetrics info")


def test_output_atomic():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "gpuenv.prom")
        with open(out, "w") as f:
            f.write("old\n")
        once("nvml-h100-healthy", "--output", out, *SLOW)
        with open(out) as f:
            parse(f.read())
        check(stat.S_IMODE(os.stat(out).st_mode) == 0o644, "--output file mode 0644")
        check(os.listdir(d) == ["gpuenv.prom"], "no temporary file left beside it")
        p = once("nvml-h100-healthy", "--output", os.path.join(d, "no", "such"), *SLOW,
                 ok=(74,))
        check("--output" in p.stderr and p.stdout == "", "unwritable --output: exit 74, named")
    args, env = fixture_args("nvml-h100-healthy")
    for bad in (["--output", "x"], ["--interval", "0s"], ["--interval", "5y"],
                ["--diagnose-every", "-1m"], ["--listen", "nonsense"]):
        p = subprocess.run([GPUENV, "exporter", *bad], capture_output=True, text=True, env=env,
                           timeout=60)
        check(p.returncode == 64, f"usage error for {' '.join(bad)}")


def fact_value(node, key):
    n = node.get(key) if isinstance(node, dict) else None
    return n.get("value") if isinstance(n, dict) else None


def test_diagnosis_series():
    """The diagnosis' series hold what `report --json` and `doctor --json` say on the same
    fixture: Xid events per GPU and code (with NVIDIA's action), the verdict state set, the
    toolkit and framework info series; and the exporter's own timings of this run."""
    for fixture in ("xid-79-fallen-off-bus", "python-venv-torch24-cu124"):
        text = once(fixture, *SLOW).stdout
        fams = parse(text)
        args, env = fixture_args(fixture)
        snap = json.loads(subprocess.run([GPUENV, "report", "--json", *SLOW, *args], env=env,
                                         capture_output=True, text=True, timeout=300).stdout)
        doc = json.loads(subprocess.run([GPUENV, "doctor", "--json", *SLOW, *args], env=env,
                                        capture_output=True, text=True, timeout=300).stdout)
        events = snap["driver"].get("xid_events")  # a fact, not a list, where none was read
        xids = {(fact_value(e, "bus_id"), str(fact_value(e, "code"))): str(fact_value(e, "count"))
                for e in (events if isinstance(events, list) else [])}
        served = {(l["pci_bus_id"], l["xid"]): v
                  for _, l, v in fams.get("gpuenv_xid_events", {}).get("samples", [])}
        check(served == xids, f"{fixture}: gpuenv_xid_events per GPU and code are the report's "
              f"({served} vs {xids})")
        acts = {l["xid"]: l["action"] for _, l, _ in
                fams.get("gpuenv_xid_events", {}).get("samples", [])}
        check(fixture != "xid-79-fallen-off-bus" or acts.get("79") == "RESTART_BM",
              f"{fixture}: Xid 79's action is NVIDIA's RESTART_BM ({acts})")
        verdict = {l["verdict"]: v for _, l, v in fams["gpuenv_verdict"]["samples"]}
        check(sorted(verdict.values()) == ["0", "0", "0", "1"]
              and verdict.get(doc["verdict"]) == "1",
              f"{fixture}: gpuenv_verdict is doctor's {doc['verdict']} ({verdict})")
        tks = {(fact_value(t, "version"), fact_value(t, "path"))
               for t in snap["runtime"].get("cuda_toolkits", [])}
        served_tk = {(l["version"], l["path"])
                     for _, l, _ in fams.get("gpuenv_cuda_toolkit_info", {}).get("samples", [])}
        check(served_tk == tks, f"{fixture}: gpuenv_cuda_toolkit_info is the report's "
              f"toolkits ({served_tk} vs {tks})")
        torch = {(fact_value(e, "prefix"), fact_value(e["packages"]["torch"], "version"),
                  fact_value(e["packages"]["torch"], "cuda"))
                 for e in snap["framework"].get("python_envs", [])
                 if "torch" in (e.get("packages") or {})}
        served_fw = {(l["env"], l["version"], l["cuda"]) for _, l, _ in
                     fams.get("gpuenv_framework_info", {}).get("samples", [])
                     if l["framework"] == "torch"}
        check(served_fw == torch, f"{fixture}: gpuenv_framework_info holds the report's torch "
              f"({served_fw} vs {torch})")
        for kind in ("sample", "diagnosis"):
            age = float(value(fams, "gpuenv_snapshot_age_seconds", kind=kind) or -1)
            took = float(value(fams, "gpuenv_collection_duration_seconds", kind=kind) or 0)
            check(0 <= age < 300 and 0 < took < 300,
                  f"{fixture}: {kind} age {age} s and duration {took} s of this run")


def test_escaping():
    src = fixture_args("nvml-h100-healthy")[1]["GPUENV_FAKE_SCENARIO"]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    evil = 'Evil "GPU" \\ H100'
    text = text.replace("name = NVIDIA H100 80GB HBM3", "name = " + evil, 1)
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(text)
    try:
        p = once("nvml-h100-healthy", *SLOW, scenario=f.name)
    finally:
        os.unlink(f.name)
    check('modelName="Evil \\"GPU\\" \\\\ H100"' in p.stdout, "label value escaped in the text")
    check(value(parse(p.stdout), "DCGM_FI_DEV_GPU_TEMP", gpu="0", modelName=evil) == "33",
          "and parses back to the name")


def test_lost_and_hang():
    fams = parse(once("nvml-gpu-lost", *SLOW).stdout)
    check(value(fams, "gpuenv_gpu_lost", gpu="1") == "1", "GPU 1 lost (NVML_ERROR_GPU_IS_LOST)")
    check(value(fams, "gpuenv_gpu_lost", gpu="0") == "0", "GPU 0 not lost")
    check(value(fams, "DCGM_FI_DEV_GPU_TEMP", gpu="0") == "36"
          and value(fams, "DCGM_FI_DEV_GPU_TEMP", gpu="1") is None,
          "the lost GPU's fields are skipped, the other GPU's kept")
    check(value(fams, "gpuenv_collection_errors_total", kind="gpu_lost") == "1",
          "a lost GPU counts a collection error")
    t0 = time.monotonic()
    fams = parse(once("nvml-hang", "--vendor-timeout", "1500").stdout)
    check(value(fams, "gpuenv_sample_stale") == "1", "a hung NVML makes the sample stale")
    check(value(fams, "gpuenv_collection_errors_total", kind="nvml_session") == "1",
          "and counts an nvml_session error")
    check("DCGM_FI_DEV_GPU_TEMP" not in fams, "no GPU series from a sample that never came")
    check(time.monotonic() - t0 < 120, "--once ends under a hung NVML")


def scenario_from(fixture, edit):
    """A temporary copy of fixture's scenario.ini passed through edit (its path; unlink it)."""
    with open(fixture_args(fixture)[1]["GPUENV_FAKE_SCENARIO"], encoding="utf-8") as f:
        text = edit(f.read())
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(text)
    return f.name


def test_tasks():
    """MIG instances under dcgm-exporter's labels, processes with pid, name and memory, and
    at most 16 processes per GPU and type (the rest only counted)."""
    fams = parse(once("nvml-h100-health-faults", *SLOW).stdout)
    rows = [(l.get("name"), v) for _, l, v in fams["gpuenv_gpu_process_memory_bytes"]["samples"]
            if l["gpu"] == "0" and l["type"] == "compute" and l["pid"] == "48211"]
    check(rows == [("python3", "75161927680")], f"GPU 0's python3 and its memory in bytes {rows}")
    check(value(fams, "gpuenv_gpu_processes", gpu="0", type="compute") == "1"
          and value(fams, "gpuenv_gpu_processes", gpu="1", type="compute") == "0",
          "processes counted per GPU, 0 where none runs")
    many = ", ".join(f"{1000 + k} {(k + 1) * 1048576}" for k in range(20))
    path = scenario_from("nvml-h100-health-faults", lambda t: t.replace(
        "compute_processes = 48211 75161927680", "compute_processes = " + many, 1))
    try:
        fams = parse(once("nvml-h100-health-faults", *SLOW, scenario=path).stdout)
        red = parse(once("nvml-h100-health-faults", "--redact", *SLOW, scenario=path).stdout)
    finally:
        os.unlink(path)
    shown = [l["pid"] for _, l, _ in fams["gpuenv_gpu_process_memory_bytes"]["samples"]
             if l["gpu"] == "0"]
    check(len(shown) == 16 and "1019" in shown and "1004" in shown and "1003" not in shown,
          f"16 of 20 processes shown, the largest ({len(shown)})")
    check(value(fams, "gpuenv_gpu_processes", gpu="0", type="compute") == "20",
          "all 20 counted")
    check(value(fams, "gpuenv_gpu_process_memory_bytes", gpu="0", pid="1019") == str(20 << 20),
          "a process's memory in bytes")
    check({l["name"] for _, l, _ in red["gpuenv_gpu_process_memory_bytes"]["samples"]}
          == {"<redacted>"}, "--redact: no process names")
    # each MIG device's own memory (nvmlDeviceGetMemoryInfo_v2 on its handle): instance 1
    # with its profile, instance 2 without a name (profile "unknown") and with reserved memory
    path = scenario_from("rw-mig-two-mig-uuids", lambda t: t.replace(
        "[nvml.device.0.mig.0]\n", "[nvml.device.0.mig.0]\nname = NVIDIA A100-SXM4-80GB MIG 3g.40gb\n"
        "memory_total = 42144366592\nmemory_used = 1073741824\n", 1).replace(
        "[nvml.device.0.mig.1]\n", "[nvml.device.0.mig.1]\nmemory_total = 42144366592\n"
        "memory_used = 2147483648\nmemory_reserved = 268435456\n", 1)
        # a second compute instance in GPU instance 1: the instance's memory once
        + "\n[nvml.device.0.mig.2]\nuuid = MIG-00000000-0000-4000-8000-000000000002\n"
        "gpu_instance_id = 1\ncompute_instance_id = 1\nmemory_total = 42144366592\n"
        "memory_used = 1073741824\n")
    try:
        fams = parse(once("rw-mig-two-mig-uuids", *SLOW, scenario=path).stdout)
    finally:
        os.unlink(path)
    check(value(fams, "gpuenv_gpu_mig_instance_info", gpu="0", GPU_I_ID="1",
                GPU_I_PROFILE="3g.40gb", CI_ID="0",
                mig_uuid="MIG-89c850dc-38e3-57df-85c7-690c186b68e9") == "1",
          "a MIG instance under GPU_I_ID and GPU_I_PROFILE")
    check(len([1 for _, l, _ in fams["gpuenv_gpu_mig_instance_info"]["samples"]
               if l["gpu"] == "0"]) == 3, "the three MIG devices of GPU 0")
    check(value(fams, "DCGM_FI_DEV_FB_USED", gpu="0", GPU_I_PROFILE="3g.40gb", GPU_I_ID="1")
          == "1024", "a MIG instance's memory used under dcgm-exporter's MIG labels")
    check(value(fams, "DCGM_FI_DEV_FB_FREE", gpu="0", GPU_I_ID="1") == "39168",
          "a MIG instance's memory free (MiB)")
    check(value(fams, "DCGM_FI_DEV_FB_USED", gpu="0", GPU_I_PROFILE="unknown", GPU_I_ID="2")
          == "2048" and value(fams, "DCGM_FI_DEV_FB_RESERVED", gpu="0", GPU_I_ID="2") == "256",
          "the second instance: no name, its reserved memory")
    mig_rows = [l for _, l, _ in fams["DCGM_FI_DEV_FB_USED"]["samples"] if "GPU_I_ID" in l]
    check(len(mig_rows) == 2 and all(l["UUID"] == mig_rows[0]["UUID"] and "Hostname" in l
                                     and l["DCGM_FI_DRIVER_VERSION"] for l in mig_rows),
          f"one series per GPU instance (not per compute instance), with the GPU's labels "
          f"({mig_rows})")


def raw(port, data, timeout=10):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            out += chunk
    return out.decode(errors="replace")


def resident_kib(pid, name):
    """KiB resident of the mappings of pid whose file's name contains name (smaps, proc(5)),
    or None when pid has no such mapping."""
    total, mapped, counting = 0, False, False
    try:
        with open(f"/proc/{pid}/smaps", encoding="utf-8", errors="replace") as f:
            for line in f:
                head = line.split()
                if head and "-" in head[0] and ":" not in head[0]:
                    counting = len(head) >= 6 and name in os.path.basename(head[5])
                    mapped |= counting
                elif counting and line.startswith("Rss:"):
                    total += int(head[1])
    except OSError:
        return None
    return total if mapped else None


def rss_file_kib(pid):
    """The RssFile of pid (KiB, /proc/PID/status, proc(5))."""
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("RssFile:"))


def test_serve():
    port = free_port()
    args, env = fixture_args("nvml-h100-healthy")
    p = start(GPUENV, ["--listen", f"127.0.0.1:{port}", "--interval", "2s", *SLOW, *args], env)
    base = f"http://127.0.0.1:{port}"
    try:
        st = wait_http(base + "/readyz", 300)
        check(st[0] == 200, f"/readyz 200 after the first sample and diagnosis ({st})")
        st = wait_http(base + "/metrics", 10)
        check(st[0] == 200 and st[1].get("Content-Type", "").startswith(
            "text/plain; version=0.0.4"), "/metrics in the text format 0.0.4")
        fams = parse(st[2])
        check(value(fams, "DCGM_FI_DEV_GPU_TEMP", gpu="7") == "32", "GPU 7 served")
        st = wait_http(base + "/metrics", 10,
                       headers={"Accept": "application/openmetrics-text; version=1.0.0"})
        check(st[1].get("Content-Type", "").startswith("application/openmetrics-text"),
              "OpenMetrics on Accept")
        parse(st[2], openmetrics=True)
        check(wait_http(base + "/healthz", 10)[0] == 200, "/healthz 200")
        # gzip, as Prometheus asks on every scrape, and several scrapes on one connection
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        got = []
        for enc in ("gzip", "deflate, gzip;q=0.5", "gzip;q=0", "identity"):
            c.request("GET", "/metrics", headers={"Accept-Encoding": enc})
            r = c.getresponse()
            body = r.read()
            got.append((enc, r.status, r.getheader("Content-Encoding"), r.getheader("Vary"),
                        r.getheader("Connection"), body))
        c.close()
        check(all(g[4] is None or g[4].lower() == "keep-alive" for g in got),
              f"four scrapes on one kept-alive connection ({[g[4] for g in got]})")
        check([g[2] for g in got] == ["gzip", "gzip", None, None] and
              all(g[1] == 200 and g[3] == "Accept-Encoding" for g in got),
              "gzip when Accept-Encoding accepts it, not with q=0; Vary on each "
              f"({[g[1:4] for g in got]})")
        unzipped = [parse(gzip.decompress(g[5]).decode() if g[2] else g[5].decode())
                    for g in got]
        check(all(value(f, "DCGM_FI_DEV_GPU_TEMP", gpu="7") == "32" for f in unzipped) and
              len(got[0][5]) * 4 < len(got[2][5]),
              f"the gzip'ed exposition reads as the plain one ({len(got[0][5])} against "
              f"{len(got[2][5])} bytes)")
        st = wait_http(base + "/secret-path-xyz", 10, want=404)
        check(st[0] == 404 and "secret-path-xyz" not in st[2], "404, request not echoed")
        r = raw(port, b"DELETE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        check(r.startswith("HTTP/1.1 405"), "other methods 405")
        r = raw(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                b"Connection: close\r\n\r\nabc")
        check(r.startswith("HTTP/1.1 413"), "a request body 413")
        r = raw(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40000 +
                b"\r\nConnection: close\r\n\r\n")
        check(r.startswith("HTTP/1.1 431") or r.startswith("HTTP/1.1 413"),
              "an oversized request head 431")
        check("aaaa" not in r, "and not echoed")
        r = raw(port, b"\x16\x03\x01garbage\r\n\r\n")
        check(r.startswith("HTTP/1.1 400") or r == "", "garbage 400 or closed")
        # slow-loris: 300 connections that never finish their request head
        loris = []
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            loris.append(s)
        t0 = time.monotonic()
        st = wait_http(base + "/metrics", 10)
        check(st[0] == 200 and time.monotonic() - t0 < 5, "a scrape is served beside 300 "
              f"slow-loris connections ({time.monotonic() - t0:.2f} s)")
        for s in loris:
            s.close()
        # Start-up's pages leave the resident set once it serves (tools/exporter-pages.c):
        # GnuTLS, initialised by libmicrohttpd's constructor and never called again without
        # TLS, kept 1,128 KiB resident before (bench/bench-exporter.sh, release build).
        gnutls = resident_kib(serving_process(p.pid), "libgnutls")
        check(gnutls is not None and gnutls < 256,
              f"the serving process keeps less than 256 KiB of GnuTLS resident ({gnutls})")
        # and, after each publication, what the scrapes and the publications faulted in
        # (zlib's deflate, libmicrohttpd's and libc's code), under a scrape load too (a
        # request every 50 ms, so one between any two publications: before, such a server
        # never gave them back, and its file pages sat beside each diagnosis;
        # docs/exporter.md, Load): its file pages fall well below what it held just after
        # serving, read every 10 ms while the scrapes go on
        for _ in range(20):
            wait_http(base + "/metrics", 10)
        served_kib = rss_file_kib(serving_process(p.pid))
        scraping = threading.Event()
        scraping.set()

        def scrape_every_50ms():
            while scraping.is_set():
                wait_http(base + "/metrics", 10)
                time.sleep(0.05)

        scraper = threading.Thread(target=scrape_every_50ms)
        scraper.start()
        try:
            low_kib, deadline = served_kib, time.monotonic() + 60
            while low_kib * 2 >= served_kib and time.monotonic() < deadline:
                time.sleep(0.01)
                low_kib = min(low_kib, rss_file_kib(serving_process(p.pid)))
        finally:
            scraping.clear()
            scraper.join()
        check(low_kib * 2 < served_kib, "a serving process under scrapes gives back the file "
              f"pages its scrapes and publications faulted in ({served_kib} -> {low_kib} KiB)")
        before = int(value(parse(wait_http(base + "/metrics", 10)[2]),
                           "gpuenv_collections_total", kind="diagnosis"))
        p.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 300
        after = before
        while after <= before and time.monotonic() < deadline:
            time.sleep(0.5)
            after = int(value(parse(wait_http(base + "/metrics", 10)[2]),
                              "gpuenv_collections_total", kind="diagnosis"))
        check(after > before, f"SIGHUP reruns the diagnosis ({before} -> {after})")
        # The diagnosis served (the samples' NVML sweep, its other vendor sessions one at a
        # time: docs/exporter.md, Collection) finds what `gpuenv doctor` finds there.
        fams = parse(wait_http(base + "/metrics", 10)[2])
        served = sorted((l["rule"], l["layer"], l["severity"], v)
                        for _, l, v in fams["gpuenv_finding"]["samples"])
        cause = [(l["rule"], l["layer"]) for _, l, _ in fams["gpuenv_root_cause"]["samples"]]
        doc = json.loads(subprocess.run([GPUENV, "doctor", "--json", *SLOW, *args], env=env,
                                        capture_output=True, text=True, timeout=300).stdout)
        counts = collections.Counter((f["rule"], f["layer"], f["severity"])
                                     for f in doc["findings"])
        want = sorted((*k, str(n)) for k, n in counts.items())
        want_cause = [(doc["root_cause"]["id"], doc["root_cause"]["layer"])] \
            if doc.get("root_cause") else []
        check(served == want and cause == want_cause and served,
              f"the served diagnosis is doctor's: {served} {cause} (doctor: {want} {want_cause})")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = None
        err = p.stderr.read()
    check(rc == 0, f"SIGTERM ends it with 0 ({rc}; {err.strip()[-300:]})")


def listen_inode(port):
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            if int(cols[1].split(":")[1], 16) == port and cols[3] == "0A":
                return cols[9]
    return None


def socket_holders(inode):
    pids = set()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            for fd in os.listdir(f"/proc/{d}/fd"):
                if os.readlink(f"/proc/{d}/fd/{fd}") == f"socket:[{inode}]":
                    pids.add(int(d))
        except OSError:
            continue
    return pids


def test_serve_hang():
    port = free_port()
    args, env = fixture_args("nvml-hang")
    args = [a for a in args if not a.startswith("--vendor-timeout") and a != "500"]
    p = start(GPUENV, ["--listen", f"127.0.0.1:{port}", "--interval", "1s",
                       "--vendor-timeout", "1500", *args], env)
    base = f"http://127.0.0.1:{port}"
    try:
        st = wait_http(base + "/metrics", 300)
        check(st[0] == 200, "/metrics served with NVML hung")
        worst = 0.0
        for _ in range(20):
            t0 = time.monotonic()
            st = wait_http(base + "/metrics", 10)
            worst = max(worst, time.monotonic() - t0)
            time.sleep(0.1)
        check(worst < 1.0, f"scrapes never wait on the hung NVML (slowest {worst:.3f} s)")
        fams = parse(st[2])
        check(value(fams, "gpuenv_sample_stale") == "1", "stale flag set")
        check(int(value(fams, "gpuenv_collection_errors_total", kind="nvml_session")) >= 1,
              "collection errors counted")
        check(wait_http(base + "/readyz", 2, want=503)[0] == 503, "/readyz 503 without a sample")
        # A child is caught holding the socket only between fork() and closing what it
        # inherited (core/child.c), a window that a loaded 2-core machine (the CI runs two
        # ASan tests at once) can stretch past 0.1 s before the new child first runs: a
        # holder counts when seen in 5 samples in a row, 0.1 s apart (0.4 s or more), which
        # a child hung in NVML for 1.5 s with the socket would be.
        server = serving_process(p.pid)
        check(server is not None and threads(p.pid) == 1,
              f"the HTTP server runs in the serving process ({server}); the collecting "
              f"process, which forks the NVML children, has one thread ({threads(p.pid)})")
        inode, seen, holders, run = listen_inode(port), set(), set(), {}
        for _ in range(30):
            seen |= collection_children(p.pid)
            now = socket_holders(inode)
            run = {pid: run.get(pid, 0) + 1 for pid in now}
            holders |= {pid for pid, k in run.items() if k >= 5}
            time.sleep(0.1)
        holders |= {server} & set(run)
        check(bool(seen) and holders == {server},
              f"the NVML children ({len(seen)} seen) never hold the listening socket, the "
              f"serving process only (holders {sorted(holders)}, serving process {server})")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()


def test_default_listen_and_period():
    """Without --listen it listens on 127.0.0.1:9400 only (issue 16: loopback unless told
    otherwise), and reruns the diagnosis every --diagnose-every without a SIGHUP."""
    args, env = fixture_args("nvml-h100-healthy")
    p = start(GPUENV, ["--interval", "1s", "--diagnose-every", "2s", *SLOW, *args], env)
    base = "http://127.0.0.1:9400"
    try:
        st = wait_http(base + "/healthz", 120)
        if p.poll() is not None:
            # another program holds port 9400 on this machine: nothing to learn here
            print(f"SKIP default listen: the exporter ended ({p.stderr.read().strip()[-200:]})")
            return
        check(st[0] == 200, f"no --listen: 127.0.0.1:9400 answers ({st[0]})")
        server = serving_process(p.pid)
        ours = set()
        for fd in os.listdir(f"/proc/{server}/fd"):
            try:
                link = os.readlink(f"/proc/{server}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                ours.add(link[8:-1])
        bound = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as f:
                for line in f.readlines()[1:]:
                    cols = line.split()
                    if cols[3] == "0A" and cols[9] in ours:
                        bound.add(cols[1])
        check(bound == {"0100007F:24B8"},
              f"the only listening socket is 127.0.0.1:9400 ({sorted(bound)})")
        diagnoses, deadline = 0, time.monotonic() + 240
        while diagnoses < 3 and time.monotonic() < deadline and p.poll() is None:
            st = wait_http(base + "/metrics", 10)
            if st[0] == 200:
                diagnoses = int(float(value(parse(st[2]), "gpuenv_collections_total",
                                            kind="diagnosis") or 0))
            time.sleep(1)
        check(diagnoses >= 3, f"--diagnose-every 2s: {diagnoses} diagnoses without a SIGHUP")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()


def with_scenario(path):
    """The pids of the processes whose environment names the scenario file path."""
    found = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/environ", "rb") as f:
                    if f"GPUENV_FAKE_SCENARIO={path}".encode() in f.read().split(b"\0"):
                        found.add(int(d))
            except OSError:
                continue
    return found


def test_diagnosis_hostile_cuda():
    """The diagnosis' libcuda session runs in gpuenv-cuda, exec'd (tools/exporter-cuda-main.c),
    and is still contained: a libcuda that forks children which leave its process group and
    wait for ever, then hangs in cuDeviceGetCount, is killed at the deadline with everything
    it forked, the diagnosis is served, and it finds what `gpuenv doctor` (whose session is
    forked) finds on the same library."""
    scenario = scenario_from("nvml-h100-healthy", lambda t: t.replace(
        "[cuda]\n", "[cuda]\nfork.cuInit = 2\nhang.cuDeviceGetCount = 1\n", 1))
    args, env = fixture_args("nvml-h100-healthy", scenario)
    port = free_port()
    p = start(GPUENV, ["--listen", f"127.0.0.1:{port}", "--interval", "1s",
                       "--vendor-timeout", "3000", *args], env)
    base = f"http://127.0.0.1:{port}"
    exes, fams = set(), {}

    def diagnoses():
        st = wait_http(base + "/metrics", 10)
        got = parse(st[2]) if st[0] == 200 else {}
        return got, int(value(got, "gpuenv_collections_total", kind="diagnosis") or 0)

    try:
        # The first diagnosis, then one more on SIGHUP, its processes watched as it runs
        # (the libcuda session takes the 3 s deadline).
        deadline = time.monotonic() + 300
        fams, first = diagnoses()
        while first == 0 and time.monotonic() < deadline:
            time.sleep(0.2)
            fams, first = diagnoses()
        p.send_signal(signal.SIGHUP)
        n = first
        while n <= first and time.monotonic() < deadline:
            for _ in range(20):
                for k in collection_children(p.pid):
                    try:
                        exes.add(os.path.basename(os.readlink(f"/proc/{k}/exe")))
                    except OSError:
                        pass
                time.sleep(0.02)
            fams, n = diagnoses()
        check(value(fams, "gpuenv_collection_errors_total", kind="diagnosis") == "0"
              and "gpuenv_finding" in fams,
              "a diagnosis whose libcuda forks and hangs is served")
        check("gpuenv-cuda" in exes,
              f"its libcuda session ran in gpuenv-cuda (programs seen below the collecting "
              f"process: {sorted(exes)})")
        served = sorted((l["rule"], l["layer"], l["severity"], v)
                        for _, l, v in fams.get("gpuenv_finding", {"samples": []})["samples"])
        doc = json.loads(subprocess.run(
            [GPUENV, "doctor", "--json", "--vendor-timeout", "3000", *args], env=env,
            capture_output=True, text=True, timeout=300).stdout)
        counts = collections.Counter((f["rule"], f["layer"], f["severity"])
                                     for f in doc["findings"])
        want = sorted((*k, str(n)) for k, n in counts.items())
        check(served == want and served,
              f"the served diagnosis is doctor's: {served} (doctor: {want})")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
        for _ in range(50):
            left = with_scenario(scenario)
            if not left:
                break
            time.sleep(0.1)
        os.unlink(scenario)
    check(not left, f"nothing the library forked outlives the exporter ({sorted(left)})")


def served_findings(fams):
    return sorted((l["rule"], l["layer"], l["severity"], v)
                  for _, l, v in fams.get("gpuenv_finding", {"samples": []})["samples"])


def doctor_findings(args, env, *extra):
    doc = json.loads(subprocess.run([GPUENV, "doctor", "--json", *extra, *args], env=env,
                                    capture_output=True, text=True, timeout=300).stdout)
    counts = collections.Counter((f["rule"], f["layer"], f["severity"]) for f in doc["findings"])
    return sorted((*k, str(n)) for k, n in counts.items())


def test_diagnosis_takes_sample_sweep():
    """A diagnosis judges the sweep of the sample taken just before it, from the samples'
    long-lived NVML child, instead of an NVML session of its own (docs/exporter.md,
    Collection): a GPU lost in the long-lived child's first sweep only (the fake's
    KIND.FUNCTION#N: GPU 1's handle is the process's 2nd nvmlDeviceGetHandleByIndex_v2 call)
    is in the first diagnosis, which is what `gpuenv doctor` (a fresh session, so a first
    sweep) finds, and no longer in the one SIGHUP runs, whose sweep was a later one and finds
    what doctor finds without the loss. A session of the diagnosis' own would lose GPU 1
    every time. With NVML hung, the first diagnosis has the failed sweep's states: what
    doctor's session, hung the same way, finds."""
    lost = scenario_from("nvml-gpu-lost", lambda t: t.replace(
        "error.nvmlDeviceGetHandleByIndex_v2 =", "error.nvmlDeviceGetHandleByIndex_v2#2 =", 1))
    healthy = scenario_from("nvml-gpu-lost", lambda t: t.replace(
        "error.nvmlDeviceGetHandleByIndex_v2 = NVML_ERROR_GPU_IS_LOST\n", "", 1))
    try:
        args, env = fixture_args("nvml-gpu-lost", lost)
        want_lost = doctor_findings(args, env, *SLOW)
        want_healthy = doctor_findings(args, fixture_args("nvml-gpu-lost", healthy)[1], *SLOW)
        check(want_lost != want_healthy,
              f"the loss is a finding of doctor's ({want_lost} against {want_healthy})")
        port = free_port()
        p = start(GPUENV, ["--listen", f"127.0.0.1:{port}", "--interval", "1s", *SLOW, *args],
                  env)
        base = f"http://127.0.0.1:{port}"
        try:
            first, fams, deadline = 0, {}, time.monotonic() + 300
            while first == 0 and time.monotonic() < deadline and p.poll() is None:
                st = wait_http(base + "/metrics", 10)
                fams = parse(st[2]) if st[0] == 200 else {}
                first = int(value(fams, "gpuenv_collections_total", kind="diagnosis") or 0)
                time.sleep(0.2)
            check(served_findings(fams) == want_lost,
                  f"the first diagnosis, on the first sweep, has the lost GPU as doctor does: "
                  f"{served_findings(fams)} (doctor: {want_lost})")
            p.send_signal(signal.SIGHUP)
            n = first
            while n <= first and time.monotonic() < deadline and p.poll() is None:
                time.sleep(0.2)
                st = wait_http(base + "/metrics", 10)
                fams = parse(st[2]) if st[0] == 200 else {}
                n = int(value(fams, "gpuenv_collections_total", kind="diagnosis") or 0)
            check(n > first and served_findings(fams) == want_healthy,
                  f"the diagnosis on SIGHUP judges a later sweep of the same child: "
                  f"{served_findings(fams)} (doctor without the loss: {want_healthy})")
        finally:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                p.kill()
    finally:
        os.unlink(lost)
        os.unlink(healthy)
    # A sample whose NVML child hangs: the diagnosis that follows it has the states a session
    # hung in the same call has (timed out in it, the rest not reached).
    args, env = fixture_args("nvml-hang")
    args = [a for a in args if not a.startswith("--vendor-timeout") and a != "500"]
    want = doctor_findings(args, env, "--vendor-timeout", "1500")
    port = free_port()
    p = start(GPUENV, ["--listen", f"127.0.0.1:{port}", "--interval", "1s",
                       "--vendor-timeout", "1500", *args], env)
    base = f"http://127.0.0.1:{port}"
    try:
        first, fams, deadline = 0, {}, time.monotonic() + 300
        while first == 0 and time.monotonic() < deadline and p.poll() is None:
            st = wait_http(base + "/metrics", 10)
            fams = parse(st[2]) if st[0] == 200 else {}
            first = int(value(fams, "gpuenv_collections_total", kind="diagnosis") or 0)
            time.sleep(0.2)
        check(first >= 1 and value(fams, "gpuenv_sample_stale") == "1"
              and served_findings(fams) == want,
              f"after a hung sample the diagnosis is doctor's with NVML hung: "
              f"{served_findings(fams)} (doctor: {want})")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()


for t in (test_once_text, test_once_openmetrics, test_output_atomic, test_diagnosis_series,
          test_escaping,
          test_lost_and_hang, test_tasks, test_serve, test_serve_hang,
          test_default_listen_and_period, test_diagnosis_hostile_cuda,
          test_diagnosis_takes_sample_sweep):
    print(f"== {t.__name__}")
    t()
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
