#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv doctor` on the largest fixture (most files under root/) and live, against a
# baseline measured in the same run (`/bin/true` started the same way: the cost of exec
# alone); target <= 15 ms on a fixture. Where PyTorch is installed (Debian: python3-torch),
# also times `python3 -m torch.utils.collect_env`, the report PyTorch asks for in bug reports,
# and prints the ratio (goal >= 100x).
# Usage: bench/bench-doctor.sh [BUILD_DIR] [RUNS]
set -eu
build=${1:-build}
runs=${2:-200}
gpuenv="$build/tools/gpuenv"
fixtures="$(dirname "$0")/../tests/fixtures"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }

largest=$(for d in "$fixtures"/*/root; do
	[ -f "$d/../scenario.ini" ] || continue
	printf '%s %s\n' "$(find "$d" | wc -l)" "$d"
done | sort -n | tail -1 | cut -d' ' -f2)
name=$(basename "$(dirname "$largest")")

time_ms() { # RUNS command… → mean wall ms per run
	python3 - "$@" <<'PY'
import subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the cache
t0 = time.perf_counter()
for _ in range(runs):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{(time.perf_counter() - t0) * 1000 / runs:.3f}")
PY
}
ratio() { python3 -c "print(f'{$1/$2:.1f}')"; }
base=$(time_ms "$runs" /bin/true)
fix=$(time_ms "$runs" "$gpuenv" doctor --sysroot "$largest" --stable --no-vendor)
fixj=$(time_ms "$runs" "$gpuenv" doctor --sysroot "$largest" --stable --no-vendor --json)
live=$(time_ms "$runs" "$gpuenv" doctor --no-vendor)
echo "runs per figure:              $runs"
echo "baseline /bin/true:           $base ms"
echo "doctor, fixture $name: $fix ms  ($(ratio "$fix" "$base")x baseline; target <= 15 ms)"
echo "doctor --json, same fixture:  $fixj ms"
echo "doctor, live:                 $live ms  ($(ratio "$live" "$base")x baseline)"
torchpy=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import torch' >/dev/null 2>&1; then
		torchpy=$py
		break
	fi
done
if [ -n "$torchpy" ]; then
	ce=$(time_ms 3 "$torchpy" -m torch.utils.collect_env)
	echo "$torchpy -m torch.utils.collect_env: $ce ms (3 runs)"
	echo "collect_env / gpuenv doctor (live): $(ratio "$ce" "$live")x  (goal >= 100x)"
else
	echo "collect_env: not timed: PyTorch is not installed here (Debian: apt install python3-torch)"
fi
