#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv doctor` on the largest fixture (most files under root/) and live, against a
# baseline measured in the same run (`/bin/true` started the same way: the cost of exec
# alone); target <= 15 ms on a fixture. Live: `doctor --no-vendor`, and the default `doctor`
# (every vendor session this machine allows) against `python3 -m torch.utils.collect_env`, the
# report PyTorch asks for in bug reports, where PyTorch is installed (Debian: python3-torch):
# time and peak memory, children included (see vs_collect_env in lib.sh); goal >= 100x faster
# and <= 1/20 of the memory. The vendor children's overlap with the file probes: live, and on the
# DGX H100 fixture with the test build's fake NVML and libcuda slowed down to an H200's
# nvmlInit (60 ms) and cuInit (240 ms) where BUILD_DIR has them (overlap_ratio in lib.sh).
# Usage: bench/bench-doctor.sh [BUILD_DIR] [RUNS] [ROUNDS against collect_env, default 10]
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
runs=${2:-200}
rounds=${3:-10}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
largest_fixture

set -- $(time_ms "$runs" /bin/true); base=$1
set -- $(time_ms "$runs" "$gpuenv" doctor --sysroot "$largest" --stable --no-vendor); fix=$1 fixc=$2
set -- $(time_ms "$runs" "$gpuenv" doctor --sysroot "$largest" --stable --no-vendor --json); fixj=$1
set -- $(time_ms "$runs" "$gpuenv" doctor --no-vendor); live=$1 livec=$2
set -- $(time_ms "$runs" "$gpuenv" doctor); vend=$1 vendc=$2
echo "runs per figure:              $runs"
echo "baseline /bin/true:           $base ms"
echo "doctor, fixture $largest_name: $fix ms (CPU $fixc ms; $(ratio "$fix" "$base")x baseline; target <= 15 ms)"
echo "doctor --json, same fixture:  $fixj ms"
echo "doctor, live (--no-vendor):   $live ms (CPU $livec ms; $(ratio "$live" "$base")x baseline)"
echo "doctor, live (default):       $vend ms (CPU $vendc ms, children included)"
overlap_ratio "$rounds" "live report" "$gpuenv" report --json
fakes="$build/tests/fakes"
if [ -e "$fakes/libnvidia-ml.so.1" ] && [ -e "$fakes/libcuda.so.1" ]; then
	fixture="$(dirname "$0")/../tests/fixtures/nvml-h100-healthy"
	scenario=$largest_tmp/scenario.ini # removed with the fixture copy
	printf '[nvml]\ndelay.nvmlInit_v2 = 60\n[cuda]\ndelay.cuInit = 240\n' >"$scenario"
	cat "$fixture/scenario.ini" >>"$scenario"
	GPUENV_FAKE_SCENARIO=$scenario overlap_ratio "$rounds" "fixture, H200-slow fakes" \
		"$gpuenv" report --json --sysroot "$fixture/root" \
		--nvml-lib "$fakes/libnvidia-ml.so.1" --cuda-lib "$fakes/libcuda.so.1"
else
	echo "fixture, H200-slow fakes: not measured: $build has no tests/fakes (a build with tests)"
fi
vs_collect_env "$rounds" "$gpuenv"
