#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates probe-kernel.fatbin, the SASS-only image of `gpuenv doctor --launch`, from
# probe-kernel.cu with NVIDIA's nvcc, and records that nvcc's version beside it (the fatbin
# is committed: building gpuenv needs no CUDA toolkit). The exact command:
#   nvcc -fatbin -o probe-kernel.fatbin probe-kernel.cu \
#     -gencode arch=compute_75,code=sm_75 ... -gencode arch=compute_120,code=sm_120
# code=sm_XX only, no compute_XX: SASS and no PTX, so that a GPU none of these runs gets
# CUDA_ERROR_NO_BINARY_FOR_GPU instead of a silent JIT (the PTX image is probe-kernel.ptx).
# Usage: gen-probe-kernel.sh [OUTDIR [NVCC]]  (default: this directory, nvcc on PATH, else
# /usr/local/cuda/bin/nvcc). tests/tools/test-probe-kernel.sh reruns it and compares.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
nvcc=${2:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
archs="75 80 86 89 90 100 120"
set --
for a in $archs; do
	set -- "$@" -gencode "arch=compute_$a,code=sm_$a"
done
# From the source's directory with a relative name: nothing of the build machine's paths
# can end up in the image.
cd "$here"
"$nvcc" -fatbin -o "$out/probe-kernel.fatbin" probe-kernel.cu "$@"
"$nvcc" --version | tail -n 1 >"$out/probe-kernel.nvcc-version"
