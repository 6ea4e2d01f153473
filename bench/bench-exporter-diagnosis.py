#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The summed resident memory of `gpuenv exporter` while its diagnosis runs (issue 16: RSS
< 8 MB; docs/exporter.md, "Not met: a diagnosis").

Runs the exporter live on the fake NVML and libcuda (the DGX H100 fixture's 8 GPUs, a
sample a second, --diagnose-every DIAGNOSE_EVERY, default 4s) without scrapes, and reads
the summed VmRSS of every process of its tree every 10 ms for DURATION seconds (default 30). A
reading is "during a diagnosis" while a process named gpuenv or gpuenv-cuda runs below the
collecting process (the diagnosis child, its keeper, its libcuda session); the others are
between diagnoses. Per run it prints both sets' median and maximum and how many readings
were over 8,192 KiB, the process tree at the diagnosis' maximum (VmRSS, anonymous and file
pages), the most processes at once, the last diagnosis' duration, the diagnoses' lengths as the
readings saw them (from the first reading with a diagnosis' process to the first without
one: the median of every diagnosis that began and ended within the readings; the exporter
serves only the last one's, and the readings make no request, which would change what the
serving process keeps resident), and a digest of the
served gpuenv_finding and gpuenv_root_cause series, so that builds whose diagnoses must
agree can be compared. With several BUILDs the runs alternate (ROUNDS times each), so that
the builds meet the same machine load; the 1-minute load average is printed with each run.

Usage: [DURATION=30] [ROUNDS=2] [DIAGNOSE_EVERY=4s]
       bench/bench-exporter-diagnosis.py FAKES_DIR BUILD_DIR [BUILD_DIR...]
FAKES_DIR: a build's tests/fakes built without sanitizers (a release build's: `ninja -C
build-release tests/fakes/libnvidia-ml.so.1 tests/fakes/libcuda.so.1`); BUILD_DIR: a build
with tools/gpuenv and its programs beside it (a release build: a sanitizer's shadow memory
would swamp the figures).
"""
import hashlib
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "tests", "fixtures", "nvml-h100-healthy")
TARGET_KIB = 8192
DIAG_NAMES = {"gpuenv", "gpuenv-cuda"}


def children_map():
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    return kids


def tree(root):
    kids, todo, found = children_map(), [root], []
    while todo:
        p = todo.pop()
        found.append(p)
        todo += kids.get(p, [])
    return found


def status(pid):
    """(name, VmRSS, RssAnon, RssFile) in KiB; zeros once the process is gone."""
    v = {"Name": "?", "VmRSS": 0, "RssAnon": 0, "RssFile": 0}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, rest = line.partition(":")
                if k in v:
                    v[k] = rest.strip() if k == "Name" else int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return v["Name"], v["VmRSS"], v["RssAnon"], v["RssFile"]


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read().decode()
    except OSError:
        return ""


def served(metrics):
    """The diagnosis' series (sorted, hashed) and its last duration."""
    rows = sorted(l for l in metrics.splitlines()
                  if l.startswith(("gpuenv_finding{", "gpuenv_root_cause{")))
    dur = next((l.split()[-1] for l in metrics.splitlines()
                if l.startswith('gpuenv_collection_duration_seconds{kind="diagnosis"}')), "?")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:12], len(rows), dur


def run(fakes, build, seconds, every):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, GPUENV_FAKE_SCENARIO=os.path.join(FIXTURE, "scenario.ini"))
    proc = subprocess.Popen(
        [os.path.join(build, "tools", "gpuenv"), "exporter", "--sysroot",
         os.path.join(FIXTURE, "root"), "--nvml-lib", os.path.join(fakes, "libnvidia-ml.so.1"),
         "--cuda-lib", os.path.join(fakes, "libcuda.so.1"), "--listen", f"127.0.0.1:{port}",
         "--interval", "1s", "--diagnose-every", every],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if fetch(url + "/readyz"):
                break
            time.sleep(0.1)
        plain, diag, most, peak, spans, began = [], [], 0, (0, []), [], None
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            now = time.monotonic()
            pids = tree(proc.pid)
            rows = [status(p) for p in pids]
            total = sum(r[1] for r in rows)
            most = max(most, len(rows))
            if any(r[0] in DIAG_NAMES for r in rows[1:]):
                diag.append(total)
                if total > peak[0]:
                    peak = (total, rows)
                if began is None and plain:  # not one that began before the readings
                    began = now
            else:
                plain.append(total)
                if began is not None:
                    spans.append(now - began)
                began = None
            time.sleep(0.01)
        digest = served(fetch(url + "/metrics"))
    finally:
        proc.terminate()
        proc.wait(10)
    return plain, diag, most, peak, spans, digest


def describe(values):
    if not values:
        return "none"
    return (f"median {statistics.median(values):.0f} / max {max(values)} KiB "
            f"({sum(v > TARGET_KIB for v in values)} of {len(values)} over {TARGET_KIB})")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    fakes, builds = sys.argv[1], sys.argv[2:]
    seconds = float(os.environ.get("DURATION", "30"))
    rounds = int(os.environ.get("ROUNDS", "2"))
    every = os.environ.get("DIAGNOSE_EVERY", "4s")
    for r in range(rounds):
        for build in builds:
            plain, diag, most, peak, spans, (digest, n, dur) = run(fakes, build, seconds, every)
            load = open("/proc/loadavg").read().split()[0]
            lengths = (f"{statistics.median(spans):.2f} s (min {min(spans):.2f}, max "
                       f"{max(spans):.2f}, {len(spans)} seen)" if spans else "none seen")
            print(f"{build} run {r + 1} (load {load}): during diagnoses {describe(diag)}; "
                  f"between {describe(plain)}; processes at most {most}; last diagnosis {dur} s; "
                  f"diagnoses' lengths as seen, median {lengths}; "
                  f"findings served {n}, digest {digest}")
            print("  at the diagnosis' max: " + ", ".join(
                f"{name} {rss} (anon {anon}, file {file})" for name, rss, anon, file in peak[1]),
                flush=True)


if __name__ == "__main__":
    main()
