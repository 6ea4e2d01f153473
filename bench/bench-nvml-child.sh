#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The CPU one GPU sample of `gpuenv exporter` costs with the long-lived NVML child (the
# default) against a fresh child per sample (--nvml-child per-sample, the baseline, measured
# in the same run): the exporter samples the DGX H100 fixture's 8 GPUs through the fake NVML
# (tests/fakes) every 100 ms for DURATION seconds in each mode, and the CPU of its whole
# process tree (the exporter, its reaped children, and the NVML child still running: utime +
# stime + cutime + cstime from /proc, proc(5)) over a window after the first samples is
# divided by the samples taken in it (gpuenv_collections_total{kind="sample"}).
# Usage: bench/bench-nvml-child.sh [BUILD_DIR] [DURATION (default 20)]
set -eu
build=${1:-build}
duration=${2:-20}
gpuenv="$build/tools/gpuenv"
fake="$build/tests/fakes/libnvidia-ml.so.1"
[ -x "$gpuenv" ] && [ -f "$fake" ] || {
	echo "build first: meson compile -C $build tools/gpuenv tests/fakes/libnvidia-ml.so.1" >&2
	exit 1
}
fixture="$(dirname "$0")/../tests/fixtures/nvml-h100-healthy"
python3 - "$gpuenv" "$fake" "$fixture" "$duration" <<'PY'
import os, re, signal, socket, subprocess, sys, time, urllib.request
gpuenv, fake, fixture, duration = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3], float(sys.argv[4])
tick = os.sysconf("SC_CLK_TCK")

def tree_cpu(pid):
    """Seconds of CPU of pid and every live descendant, with what they reaped; and of pid's
    own threads alone."""
    stats, kids, own = {}, {}, 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            f = open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(d)] = sum(int(x) for x in f[11:15])  # utime stime cutime cstime
        kids.setdefault(int(f[1]), []).append(int(d))
        if int(d) == pid:
            own = int(f[11]) + int(f[12])
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, 0)
        todo += kids.get(p, [])
    return total / tick, own / tick

def samples(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return int(re.search(r'^gpuenv_collections_total\{kind="sample"\} (\d+)', text, re.M).group(1))

def run(mode):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    env = dict(os.environ, GPUENV_FAKE_SCENARIO=os.path.abspath(f"{fixture}/scenario.ini"))
    p = subprocess.Popen([gpuenv, "exporter", "--sysroot", f"{fixture}/root", "--nvml-lib", fake,
                          "--listen", f"127.0.0.1:{port}", "--interval", "100ms",
                          "--vendor-timeout", "5000", "--diagnose-every", "1h",
                          "--nvml-child", mode], env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if samples(port) >= 3:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        (c0, s0), n0 = tree_cpu(p.pid), samples(port)
        time.sleep(duration)
        (c1, s1), n1 = tree_cpu(p.pid), samples(port)
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=60)
    n = max(n1 - n0, 1)
    return (c1 - c0) / n * 1000, (s1 - s0) / n * 1000, n1 - n0

base, bself, nb = run("per-sample")
kept, kself, nk = run("long-lived")
load = open("/proc/loadavg").read().split()[:3]
print(f"load average {' '.join(load)} on {os.cpu_count()} CPUs")
print(f"per-sample child (baseline): {base:.2f} ms CPU per sample ({nb} samples; "
      f"{bself:.2f} ms of it in the exporter's own threads, the rest in the NVML children)")
print(f"long-lived child:            {kept:.2f} ms CPU per sample ({nk} samples; "
      f"{kself:.2f} ms of it in the exporter's own threads, the rest in the NVML child)")
print(f"ratio: {kept / base:.3f} of the baseline ({base / kept:.1f}x less CPU per sample)")
PY
