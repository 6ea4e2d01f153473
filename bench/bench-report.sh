#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv report` on a fixture and live, against a baseline measured in the same run
# (`/bin/true` started the same way: the cost of exec alone), and prints the figures.
# Usage: bench/bench-report.sh [BUILD_DIR] [RUNS]
set -eu
build=${1:-build}
runs=${2:-200}
gpuenv="$build/tools/gpuenv"
fixture="$(dirname "$0")/../tests/fixtures/two-toolkits/root"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }

time_ms() { # command… → mean wall ms per run over $runs runs
	python3 - "$runs" "$@" <<'PY'
import subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the cache
t0 = time.perf_counter()
for _ in range(runs):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{(time.perf_counter() - t0) * 1000 / runs:.3f}")
PY
}
base=$(time_ms /bin/true)
fix=$(time_ms "$gpuenv" report --sysroot "$fixture" --stable --no-vendor)
fixj=$(time_ms "$gpuenv" report --sysroot "$fixture" --stable --no-vendor --json)
live=$(time_ms "$gpuenv" report --no-vendor)
echo "runs per figure:              $runs"
echo "baseline /bin/true:           $base ms"
echo "report, fixture two-toolkits: $fix ms  ($(python3 -c "print(f'{$fix/$base:.1f}')")x baseline; target <= 10 ms)"
echo "report --json, fixture:       $fixj ms"
echo "report, live:                 $live ms  ($(python3 -c "print(f'{$live/$base:.1f}')")x baseline)"
