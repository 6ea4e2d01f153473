#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The committed SASS image of `doctor --launch` (src/vendor/launch-module/probe-kernel.fatbin)
# is what its generator makes: rerun gen-probe-kernel.sh with the nvcc it records and compare
# byte for byte. Without nvcc, or with another nvcc release (whose code differs), skipped
# visibly (77): building and the other tests need no CUDA toolkit.
set -eu
dir="$1/src/vendor/launch-module"
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
	echo "SKIP probe-kernel regeneration: nvcc not found (PATH, /usr/local/cuda/bin)"
	exit 77
fi
have=$("$nvcc" --version | tail -n 1)
want=$(cat "$dir/probe-kernel.nvcc-version")
if [ "$have" != "$want" ]; then
	echo "SKIP probe-kernel regeneration: $nvcc is '$have', the image was made by '$want'"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dir/gen-probe-kernel.sh" "$tmp" "$nvcc"
cmp "$tmp/probe-kernel.fatbin" "$dir/probe-kernel.fatbin"
cmp "$tmp/probe-kernel.nvcc-version" "$dir/probe-kernel.nvcc-version"
echo "ok: probe-kernel.fatbin is what gen-probe-kernel.sh makes with $have"
