#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live check against the machine's real CUDA toolkit, where one is installed: gpuenv must
# report the version, cuDNN and NCCL that the toolkit's own headers state, and its stub
# libcuda. Skips (exit 77) with the reason when /usr/local/cuda is absent.
set -u
gpuenv="$1"
cuda=/usr/local/cuda
if [ ! -e "$cuda/include/cuda_runtime_api.h" ]; then
	echo "SKIP: no CUDA toolkit at $cuda"
	exit 77
fi
hdr() { sed -n "s/^#define $2 *\([0-9]*\).*/\1/p" "$cuda/include/$1" | head -1; }
json=$("$gpuenv" report --json --stable --no-vendor) || exit 1
fail=0
expect() {
	if printf '%s' "$json" | grep -qF -- "$1"; then echo "ok: $1"; else echo "FAIL: missing $1"; fail=1; fi
}
if [ -f "$cuda/include/cudnn_version.h" ]; then
	expect "\"value\": \"$(hdr cudnn_version.h CUDNN_MAJOR).$(hdr cudnn_version.h CUDNN_MINOR).$(hdr cudnn_version.h CUDNN_PATCHLEVEL)\""
fi
if [ -f "$cuda/include/nccl.h" ]; then
	expect "\"value\": \"$(hdr nccl.h NCCL_MAJOR).$(hdr nccl.h NCCL_MINOR).$(hdr nccl.h NCCL_PATCH)\""
fi
for stub in "$cuda"/lib/stubs/libcuda.so "$cuda"/lib64/stubs/libcuda.so; do
	[ -f "$stub" ] && expect "stubs/libcuda.so\""
done
v=$(hdr cuda_runtime_api.h CUDART_VERSION)
expect "\"value\": \"$((v / 1000)).$(((v % 1000) / 10))"
exit $fail
