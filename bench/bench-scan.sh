#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv scan` on the CUDA toolkit's libraries against a baseline measured in the same
# run: `cat` of the same file to /dev/null (warm cache), i.e. the cost of reading every byte.
# Listing targets is header-only, so the ratio must stay small (target <= 5%). Then the peak
# memory of the directory's scan (issue 15 §3: <= 32 MiB for any input).
# The commands are timed in rounds, each round running every one of them twice and keeping
# the second (warm) run, and each figure is the best over the rounds: on a shared machine
# slow spells last longer than one command, and rounds give the baseline and the scan the
# same spells instead of timing one in a quiet minute and the other in a busy one.
# Each run is a new process, so the ratio also carries the cost of starting one, which
# differs tenfold between machines (a VM whose page faults and system calls trap to the
# hypervisor vs bare metal). Measured in the same rounds, and printed beside the raw ratio:
# the start-up floors (`gpuenv --version`; `cat /dev/null` through the same sh), the ratio
# of the work above them, and what the scan touched, which no machine changes: the page
# faults above start-up's and the bytes read(2).
# Usage: bench/bench-scan.sh [BUILD_DIR] [ROUNDS] [FILE] [DIR]
set -eu
build=${1:-build}
runs=${2:-21}
file=${3:-/usr/local/cuda/lib/libcublasLt.so.13}
dir=${4:-/usr/local/cuda/lib}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
if [ ! -r "$file" ] || [ ! -d "$dir" ]; then
	echo "bench-scan: $file or $dir missing (no CUDA toolkit here): skipped"
	exit 0
fi

exec python3 - "$runs" "$gpuenv" "$file" "$dir" "$(dirname "$0")/peak-rss.py" <<'PY'
import glob, os, resource, subprocess, sys, time

rounds, gpuenv, file, dir_, peak = int(sys.argv[1]), *sys.argv[2:6]
libs = sorted(glob.glob(os.path.join(dir_, "*.so*")))


def run(cmd):
    """(wall ms, cpu ms) of one run; cpu = user + system time of the child."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = (time.perf_counter() - t0) * 1000
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return w, ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000


def best_in_rounds(cmds, n):
    best = {k: [float("inf"), float("inf")] for k in cmds}
    for _ in range(n):
        for k, cmd in cmds.items():
            run(cmd)  # warms the page cache, and the CPU caches for the next one
            w, c = run(cmd)
            best[k] = [min(best[k][0], w), min(best[k][1], c)]
    return best


def touched(cmd):
    """(rchar, syscr, minflt) of one run, read before the zombie is reaped."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
    io = dict(l.split(": ") for l in open(f"/proc/{p.pid}/io").read().split("\n") if l)
    _, _, ru = os.wait4(p.pid, 0)
    return int(io["rchar"]), int(io["syscr"]), ru.ru_minflt


b = best_in_rounds({
    "cat": ["sh", "-c", f"cat '{file}' > /dev/null"],
    "cat0": ["sh", "-c", "cat /dev/null > /dev/null"],
    "true": ["/bin/true"],
    "start": [gpuenv, "--version"],
    "list": [gpuenv, "scan", file],
    "deep": [gpuenv, "scan", "--deep", file],
}, rounds)
d = best_in_rounds({
    "dir": [gpuenv, "scan", dir_],
    "dcat": ["sh", "-c", 'cat "$@" > /dev/null', "sh"] + libs,
}, max(3, rounds // 4))
rchar, syscr, minflt = touched([gpuenv, "scan", file])
minflt0 = touched([gpuenv, "--version"])[2]
out = subprocess.run([gpuenv, "scan", file], capture_output=True, text=True).stdout
sass = next((l.split(None, 1)[1] for l in out.splitlines() if l.startswith("  SASS")), "")
size = os.stat(file).st_size


def pct(a, b_):
    return f"{100 * a / b_:.1f}"


def over(k, k0, base, base0, i):
    return f"{100 * max(b[k][i] - b[k0][i], 0) / (b[base][i] - b[base0][i]):.1f}"


def row(label, k):
    return f"{label:<31}{b[k][0]:.1f}    {b[k][1]:.1f}"


print(f"file:                          {file} ({size >> 20} MiB), warm page cache, "
      f"best of {rounds} rounds")
print("                               wall ms   cpu ms (user+sys)")
print(row("baseline cat > /dev/null:", "cat"))
print(row("exec of /bin/true:", "true"))
print(row("start-up: gpuenv --version:", "start"))
print(row("start-up: sh -c cat /dev/null:", "cat0"))
print(row("gpuenv scan (list targets):", "list") +
      f"   = {pct(b['list'][0], b['cat'][0])}% / {pct(b['list'][1], b['cat'][1])}% of cat "
      "(target <= 5%)")
print(f"  work over start-up:          {over('list', 'start', 'cat', 'cat0', 0)}% / "
      f"{over('list', 'start', 'cat', 'cat0', 1)}% of cat's (scan - gpuenv --version) / "
      "(cat - cat of /dev/null)")
print(f"  touched:                     {minflt - minflt0} page faults over start-up's {minflt0}; "
      f"{rchar} bytes of {size} read(2) in {syscr} calls")
print(row("gpuenv scan --deep:", "deep") +
      f"   = {pct(b['deep'][0], b['cat'][0])}% / {pct(b['deep'][1], b['cat'][1])}% of cat")
print(f"SASS targets listed:           {sass}")
print(f"gpuenv scan {dir_}:  {d['dir'][0]:.1f}    {d['dir'][1]:.1f}   (cat of its libraries: "
      f"{d['dcat'][0]:.1f} / {d['dcat'][1]:.1f}; {pct(d['dir'][0], d['dcat'][0])}% / "
      f"{pct(d['dir'][1], d['dcat'][1])}%)")
# Peak memory (VmHWM, bench/peak-rss.py): the pages of a mapping count while they stay mapped.
for label, cmd in (("gpuenv --version", [gpuenv, "--version"]),
                   ("gpuenv scan " + dir_, [gpuenv, "scan", dir_])):
    kib = int(subprocess.run([sys.executable, peak] + cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout.split()[1])
    print(f"peak RSS of {label}: {kib / 1024:.1f} MiB" +
          (" (goal <= 32 MiB)" if "scan" in cmd else ""))
PY
