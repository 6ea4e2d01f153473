#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a policy evaluation adds to doctor (issue 15 §4: <= 1 ms): `gpuenv doctor` and
# `gpuenv check --policy P` (every clause kind of docs/policy.md, waivers included) over the
# same input, the largest fixture, measured in the same run. The two commands alternate run by
# run, so that a busy spell of a shared machine falls on both; the figure is the difference of
# the medians, and of the minima, of the wall time and of the CPU time (user + system, from
# wait4(2): less skewed by other processes than the wall time). check also renders its own text: the difference is an upper
# bound of the policy's cost. Then the instructions each executes (callgrind's count, which a
# loaded machine cannot skew), where valgrind is installed.
# Usage: bench/bench-policy.sh [BUILD_DIR] [RUNS]
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
runs=${2:-100}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
largest_fixture
policy=$largest_tmp/policy.yml
cat > "$policy" <<'EOF'
version: 1
profile: runtime
fail_on: error
gpus:
  count: 1
  min_compute_capability: "8.0"
  model: "*H100*"
driver:
  version: ">=535.104, <600"
  branches: [535, 550]
cuda:
  toolkit: ">=12.1, <13"
  runtime: ">=12.1"
  consistent: true
frameworks:
  torch: ">=2.2"
architectures:
  targets: [sm_80, sm_90, "10.0"]
  allow_ptx: false
waivers:
  - rule: runtime.library-shadowed
    reason: "LD_LIBRARY_PATH set by the module system"
    expires: 2030-01-31
  - rule: driver.branch-eol
    reason: old
    expires: 2025-01-01
EOF
set -- "$gpuenv" --sysroot "$largest" --stable --no-vendor
python3 - "$runs" "$largest_name" "$policy" "$@" <<'PY'
import os, statistics, subprocess, sys, time

runs, name, policy, gpuenv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
common = sys.argv[5:]
cmds = {
    "doctor": [gpuenv, "doctor"] + common,
    "check, no policy": [gpuenv, "check", "--today", "2026-12-05"] + common,
    "check --policy": [gpuenv, "check", "--today", "2026-12-05", "--policy", policy] + common,
}
t = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
for cmd in cmds.values():
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm
for _ in range(runs):
    for k, cmd in cmds.items():
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        t[k].append((time.perf_counter() - t0) * 1000)
        cpu[k].append((ru.ru_utime + ru.ru_stime) * 1000)
clauses = subprocess.run(cmds["check --policy"] + ["--json"], stdout=subprocess.PIPE,
                         text=True).stdout
import json
n_clauses = len(json.loads(clauses)["clauses"])
print(f"fixture {name}, {runs} alternating runs of each; policy: {n_clauses} clauses")
for k in cmds:
    print(f"{k:<18} wall median {statistics.median(t[k]):7.2f} ms  min {min(t[k]):7.2f} ms;  "
          f"cpu median {statistics.median(cpu[k]):7.2f} ms  min {min(cpu[k]):7.2f} ms")
for k in ("check, no policy", "check --policy"):
    for what, v in (("wall", t), ("cpu", cpu)):
        d_med = statistics.median(v[k]) - statistics.median(v["doctor"])
        d_min = min(v[k]) - min(v["doctor"])
        print(f"{k} - doctor, {what}: median {d_med:+.2f} ms, min {d_min:+.2f} ms "
              "(goal <= 1 ms)")
PY
if command -v valgrind >/dev/null; then
	# Instructions executed, counted by callgrind: "N" for COMMAND...
	instr() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
			sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
	}
	doc_i=$(instr "$gpuenv" doctor --sysroot "$largest" --stable --no-vendor)
	chk_i=$(instr "$gpuenv" check --today 2026-12-05 --policy "$policy" --sysroot "$largest" \
		--stable --no-vendor)
	echo "instructions (callgrind): doctor $doc_i, check --policy $chk_i," \
		"difference $((chk_i - doc_i)) ($(python3 -c "print(f'{100 * ($chk_i - $doc_i) / $doc_i:.1f}')")% of doctor's)"
fi
