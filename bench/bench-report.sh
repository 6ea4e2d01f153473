#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv report` on the largest fixture (most files under root/) and live, against a
# baseline measured in the same run (`/bin/true` started the same way: the cost of exec
# alone), and prints the figures, their ratio to the baseline, and the fixture figure minus
# the baseline against the 10 ms target (foundation) and the 15 ms one (full stack). The
# comparison with `python3 -m torch.utils.collect_env` is bench-doctor.sh's.
# Usage: bench/bench-report.sh [BUILD_DIR] [RUNS]
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
runs=${2:-200}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
largest_fixture

set -- $(time_ms "$runs" /bin/true); base=$1 basec=$2
set -- $(time_ms "$runs" "$gpuenv" report --sysroot "$largest" --stable --no-vendor); fix=$1 fixc=$2
set -- $(time_ms "$runs" "$gpuenv" report --sysroot "$largest" --stable --no-vendor --json); fixj=$1 fixjc=$2
set -- $(time_ms "$runs" "$gpuenv" report --no-vendor); live=$1 livec=$2
net=$(python3 -c "print(f'{$fix-$base:.3f}')")
netc=$(python3 -c "print(f'{$fixc-$basec:.3f}')")
verdict=$(python3 -c "print('wall ' + ('within' if $fix - $base <= 10 else 'OVER') + ', CPU ' + ('within' if $fixc - $basec <= 10 else 'OVER'))")
echo "runs per figure: $runs; figures are wall ms (CPU ms = user+sys) per run"
echo "baseline /bin/true:          $base ms (CPU $basec ms)"
echo "report, fixture $largest_name ($best entries): $fix ms (CPU $fixc ms), $(ratio "$fix" "$base")x baseline wall; over the baseline: $net ms wall, $netc ms CPU ($verdict the 10 ms target)"
echo "report --json, same fixture: $fixj ms (CPU $fixjc ms), $(ratio "$fixj" "$base")x baseline"
echo "report, live (--no-vendor):  $live ms (CPU $livec ms), $(ratio "$live" "$base")x baseline"
