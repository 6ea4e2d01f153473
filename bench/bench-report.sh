#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv report` on the largest fixture (most files under root/) and live, against a
# baseline measured in the same run (`/bin/true` started the same way: the cost of exec
# alone), and prints the figures, their ratio to the baseline, and the fixture figure minus
# the baseline against the 10 ms target.
# Usage: bench/bench-report.sh [BUILD_DIR] [RUNS]
set -eu
build=${1:-build}
runs=${2:-200}
gpuenv="$build/tools/gpuenv"
fixtures="$(dirname "$0")/../tests/fixtures"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }

# The largest fixture: the one whose root/ holds the most entries.
best=0
for d in "$fixtures"/*/root; do
	n=$(find "$d" | wc -l)
	if [ "$n" -gt "$best" ]; then
		best=$n
		fixture=$d
	fi
done
name=$(basename "$(dirname "$fixture")")

# command… → "WALL CPU": mean wall ms and mean CPU ms (user+sys of the child) per run. The CPU
# figure stays meaningful on a loaded machine, where wall time also counts waiting for a core.
time_ms() {
	python3 - "$runs" "$@" <<'PY'
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
set -- $(time_ms /bin/true); base=$1 basec=$2
set -- $(time_ms "$gpuenv" report --sysroot "$fixture" --stable --no-vendor); fix=$1 fixc=$2
set -- $(time_ms "$gpuenv" report --sysroot "$fixture" --stable --no-vendor --json); fixj=$1 fixjc=$2
set -- $(time_ms "$gpuenv" report --no-vendor); live=$1 livec=$2
net=$(python3 -c "print(f'{$fix-$base:.3f}')")
netc=$(python3 -c "print(f'{$fixc-$basec:.3f}')")
verdict=$(python3 -c "print('wall ' + ('within' if $fix - $base <= 10 else 'OVER') + ', CPU ' + ('within' if $fixc - $basec <= 10 else 'OVER'))")
echo "runs per figure: $runs; figures are wall ms (CPU ms = user+sys) per run"
echo "baseline /bin/true:          $base ms (CPU $basec ms)"
echo "report, fixture $name ($best entries): $fix ms (CPU $fixc ms), $(ratio "$fix" "$base")x baseline wall; over the baseline: $net ms wall, $netc ms CPU ($verdict the 10 ms target)"
echo "report --json, same fixture: $fixj ms (CPU $fixjc ms), $(ratio "$fixj" "$base")x baseline"
echo "report, live (--no-vendor):  $live ms (CPU $livec ms), $(ratio "$live" "$base")x baseline"
