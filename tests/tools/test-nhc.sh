#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nhc/gpuenv.nhc under a stand-in for NHC's die(): check_gpuenv passes on a healthy fixture,
# fails with gpuenv's reason on a broken one, and reports a gpuenv that cannot run.
set -u
gpuenv=$1
fx=$GPUENV_SOURCE_ROOT/tests/fixtures
fail=0
die() { DIED="$2"; }
# shellcheck source=/dev/null
. "$GPUENV_SOURCE_ROOT/nhc/gpuenv.nhc"
GPUENV=$gpuenv
DIED=
if check_gpuenv --from "$fx/h100-sxm-550/expected/report.json" && [ -z "$DIED" ]; then
	echo "ok: healthy fixture passes"
else
	echo "FAIL: healthy fixture: $DIED"; fail=1
fi
DIED=
if ! check_gpuenv --from "$fx/h100-link-faults/expected/report.json" &&
	[[ $DIED == "gpuenv: hardware.pcie-link-down: "* ]]; then
	echo "ok: broken fixture fails with the reason: $DIED"
else
	echo "FAIL: broken fixture: '$DIED'"; fail=1
fi
DIED=
if ! check_gpuenv --from /nonexistent-gpuenv.json && [[ $DIED == *"exit 66"* ]]; then
	echo "ok: an unreadable input fails the check: $DIED"
else
	echo "FAIL: unreadable input: '$DIED'"; fail=1
fi
exit $fail
