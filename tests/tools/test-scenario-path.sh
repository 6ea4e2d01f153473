#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The goldens must not depend on where the tree is checked out: the doctor text of
# nvml-rm-mismatch wraps around the fake library's path, so the scenario is run with the fake
# libraries reached through a short and a long path, and both must match the same golden.
set -eu
runner=$1 gpuenv=$2 scenario=$3 fakes=$4
unset GPUENV_UPDATE_EXPECTED
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in f a-very-long-checkout-path-for-testing/home/alice/work/gpuenv/main/build-test/tests/fakes; do
	mkdir -p "$tmp/$(dirname "$p")"
	ln -s "$fakes" "$tmp/$p"
	if ! "$runner" "$gpuenv" "$scenario" "$tmp/$p"; then
		echo "FAIL: $(basename "$scenario")'s goldens differ when the fake libraries are at $tmp/$p"
		exit 1
	fi
done
echo "ok: $(basename "$scenario") gives the same output for fake libraries at two path lengths"
