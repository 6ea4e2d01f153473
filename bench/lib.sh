# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the bench-*.sh scripts (sourced, not run): finding the largest fixture, timing a
# command, ratios, and the Python that has PyTorch for the collect_env comparison.

# The fixture whose root/ holds the most entries: sets $largest (its root, made in a temporary
# directory removed on exit) and $largest_name.
largest_fixture() {
	best=0
	for d in "$(dirname "$0")"/../tests/fixtures/*/root; do
		[ -f "$d/../scenario.ini" ] || continue
		n=$(find "$d" | wc -l)
		if [ "$n" -gt "$best" ]; then
			best=$n
			largest=$d
		fi
	done
	largest_name=$(basename "$(dirname "$largest")")
	# Timed as the scenario tests read it: a copy with its generated files made
	# (tests/tools/fixture_root.py; a file whose tool is missing is named on stderr).
	largest_tmp=$(mktemp -d)
	trap 'rm -rf "$largest_tmp"' EXIT
	python3 "$(dirname "$0")/../tests/tools/fixture_root.py" "$(dirname "$largest")" \
		"$largest_tmp/root" >&2 || [ $? = 77 ]
	largest=$largest_tmp/root
}

# RUNS command… → "WALL CPU": mean wall ms and mean CPU ms (user+sys of the child) per run,
# after one warm-up run. The CPU figure stays meaningful on a loaded machine, where wall time
# also counts waiting for a core.
time_ms() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the cache
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
for _ in range(runs):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = (time.perf_counter() - t0) * 1000 / runs
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000 / runs
print(f"{wall:.3f} {cpu:.3f}")
PY
}

ratio() { python3 -c "print(f'{$1/$2:.1f}')"; }

# The first python3 that imports torch (Debian: python3-torch), or nothing.
torch_python() {
	for py in python3 /usr/bin/python3; do
		if "$py" -c 'import torch' >/dev/null 2>&1; then
			echo "$py"
			return
		fi
	done
}

# ROUNDS GPUENV: `gpuenv doctor` (the default: live, every vendor session) against `python3 -m
# torch.utils.collect_env` (what PyTorch's bug template asks for), each run ROUNDS times,
# interleaved (one of each per round, so both see the same slow spells of a shared machine).
# Time: median wall ms and median CPU ms (user+sys of the process and all its children, from
# wait4's rusage) per run. Memory: bench/peak-rss.py, the sum of every process's peak RSS
# (children included; see there why not /usr/bin/time), once each. Goal: >= 100x faster,
# <= 1/20 of the memory.
vs_collect_env() {
	py=$(torch_python)
	if [ -z "$py" ]; then
		echo "collect_env: not compared: PyTorch is not installed here (Debian: apt install python3-torch; scripts/install-deps.sh --bench)"
		return
	fi
	python3 - "$1" "$2" "$py" "$(dirname "$0")/peak-rss.py" <<'PY'
import os, statistics, subprocess, sys, time
rounds, gpuenv, py, peak = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cmds = {"gpuenv doctor": [gpuenv, "doctor"],
        "collect_env": [py, "-m", "torch.utils.collect_env"]}


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)  # rusage of the command and its waited-for descendants
    return (time.perf_counter() - t0) * 1000, (ru.ru_utime + ru.ru_stime) * 1000


for c in cmds.values():
    run(c)  # warm the page cache
wall = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
for _ in range(rounds):
    for k, c in cmds.items():
        w, u = run(c)
        wall[k].append(w)
        cpu[k].append(u)
mem = {}
for k, c in cmds.items():
    out = subprocess.run([sys.executable, peak, *c], capture_output=True, text=True).stdout.split()
    mem[k] = [int(x) for x in out]
g, e = "gpuenv doctor", "collect_env"
med = statistics.median
for k in cmds:
    print(f"{k:14s} wall {med(wall[k]):9.1f} ms  CPU {med(cpu[k]):8.1f} ms  peak RSS "
          f"{mem[k][0] / 1024:6.1f} MiB summed over {mem[k][2]} processes (largest "
          f"{mem[k][1] / 1024:.1f} MiB); medians of {rounds} runs")
print(f"collect_env / gpuenv doctor: wall {med(wall[e]) / med(wall[g]):.0f}x, CPU "
      f"{med(cpu[e]) / med(cpu[g]):.0f}x, memory {mem[e][0] / mem[g][0]:.0f}x "
      f"(goal: >= 100x faster, >= 20x less memory)")
PY
}

# RUNS LABEL GPUENV-REPORT-COMMAND…: how much the vendor children overlap the rest of the
# collection (src/probe/probe.c starts them before the file probes and collects them after),
# from the snapshot's own timings in the same runs: the median collection time
# (collection.total_us) against the median sum of the probes' times (collection.probe_us,
# a vendor probe's from its row's start to its result), which is what the collection took when
# every probe waited for the one before. The command must print a snapshot (report --json).
overlap_ratio() {
	python3 - "$@" <<'PY'
import json, statistics, subprocess, sys
runs, label, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
vendor = ("nvml", "cuda-driver", "opencl", "amdsmi")
totals, sums, started = [], [], set()
for _ in range(runs + 1):  # the first warms the page cache
    p = subprocess.run(cmd, capture_output=True, text=True)
    c = json.loads(p.stdout).get("collection", {})
    us = {k: v.get("value", 0) for k, v in c.get("probe_us", {}).items()}
    totals.append(c.get("total_us", {}).get("value", 0))
    sums.append(sum(us.values()))
    snap = json.loads(p.stdout)
    for k, obj in (("nvml", snap.get("driver", {}).get("nvml", {})),
                   ("cuda-driver", snap.get("driver", {}).get("cuda", {})),
                   ("opencl", snap.get("runtime", {}).get("opencl", {})),
                   ("amdsmi", snap.get("driver", {}).get("amdsmi", {}))):
        if "session" in obj:
            started.add(k)
    last = us
med = statistics.median
t, s = med(totals[1:]) / 1000, med(sums[1:]) / 1000
children = ", ".join(f"{k} {last.get(k, 0) / 1000:.1f}" for k in vendor if k in started)
print(f"{label}: collection {t:.1f} ms, its probes one after another {s:.1f} ms: "
      f"{s / t if t else 0:.2f}x (medians of {runs}; vendor children ms: {children or 'none ran'})")
PY
}
