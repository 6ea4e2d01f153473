#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv facts`: the query kinds against values read from src/facts/data/*.tsv (CUDA
# release notes Tables 2/3, driver lifecycle pages, cuda-gpus/pci.ids, NVSentinel Xid map, cuDNN
# support matrices, PyTorch build scripts, ROCm compatibility matrices, TensorFlow tested configs),
# text and --json, and the exit codes (2 not found, 64 usage).
set -u
gpuenv="$1"
. "$(dirname "$0")/lib-check.sh"
want() { # description expected-substring cmd...
	what=$1 sub=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "FAIL: $*: exit $rc ($out)"
		fail=1
	elif ! printf "%s" "$out" | grep -qF -- "$sub"; then
		echo "FAIL: $* ($what): output lacks '$sub'"
		printf "%s\n" "$out" | sed 's/^/    /'
		fail=1
	else
		echo "ok: $* has $what"
	fi
}
# cuda_driver_min.tsv: 12.4.0 needs 550.54.14 (Linux); 12.x minor compat floor 525.60.13
# cuda_arch_support.tsv: 12.4 targets 5.0..9.0, PTX ISA 8.4
want "min driver" "550.54.14" "$gpuenv" facts cuda 12.4
want "minor-compat floor" "525.60.13" "$gpuenv" facts cuda 12.4
want "max cc" "9.0" "$gpuenv" facts cuda 12.4
want "PTX ISA" "ptx_isa_version" "$gpuenv" facts cuda 12.4
want "source" "[RN13.2.2" "$gpuenv" facts cuda 12.4
want "json min driver" '"value": "550.54.14"' "$gpuenv" facts --json cuda 12.4
want "json ptx" '"value": "8.4"' "$gpuenv" facts cuda 12.4 --json
# driver_branches.tsv: 535 reports CUDA 12.2, LTSB, EOL June 2026, oldest Maxwell 5.0
want "branch" "LTSB" "$gpuenv" facts driver 535.104.05
want "cuda reported" "12.2" "$gpuenv" facts driver 535.104.05
want "eol" "June 2026" "$gpuenv" facts driver 535.104.05
want "oldest arch" "Maxwell" "$gpuenv" facts driver 535.104.05
want "highest toolkit" "12.2.2" "$gpuenv" facts driver 535.104.05
want "minor compat" "12.x" "$gpuenv" facts driver 535.104.05
want "json eol" '"value": "June 2026"' "$gpuenv" facts --json driver 535.104.05
# gpu_compute_capability.tsv: GeForce RTX 4090, Ada Lovelace, 8.9, 10de:2684
want "product" "GeForce RTX 4090" "$gpuenv" facts gpu "RTX 4090"
want "cc" "8.9" "$gpuenv" facts gpu "RTX 4090"
want "arch" "Ada Lovelace" "$gpuenv" facts gpu 10de:2684
want "json pci" '"value": "10de:2684"' "$gpuenv" facts --json gpu 10de:2684
want "json cc" '"value": "8.9"' "$gpuenv" facts --json gpu "RTX 4090"
# xid.tsv: 79 = GPU has fallen off the bus, FATAL
want "xid description" "GPU has fallen off the bus" "$gpuenv" facts xid 79
want "xid severity" "FATAL" "$gpuenv" facts xid 79
want "json xid" '"value": "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS"' "$gpuenv" facts --json xid 79
# cudnn_cuda.tsv: 9.17.0 has a cuda12 (12.0..12.9) and a cuda13 (13.0, 13.1) package
want "cudnn cuda12" "12.9,12.8,12.6" "$gpuenv" facts cudnn 9.17.0
want "cudnn cuda13 driver" "580.65.06" "$gpuenv" facts cudnn 9.17.0
want "cudnn source" "[SM9170]" "$gpuenv" facts cudnn 9.17.0
want "json cudnn" '"cuda_versions": "13.1,13.0"' "$gpuenv" facts --json cudnn 9.17.0
check 2 "no cuDNN release 9.19.0" "$gpuenv" facts cudnn 9.19.0
# pytorch_wheels.tsv: 2.4 cu124 = TORCH_CUDA_ARCH_LIST 5.0..9.0, no PTX, 550.54.14; PyPI 2.4 = cu121
want "torch arch list" "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90" "$gpuenv" facts torch 2.4.0+cu124
want "torch min driver" "550.54.14" "$gpuenv" facts torch 2.4.0+cu124
want "torch source" "[pytorch/builder manywheel/build_cuda.sh (branch release/2.4)" "$gpuenv" facts torch 2.4.0+cu124
want "torch PyPI default" "PyTorch 2.4 cu121 (PyPI default)" "$gpuenv" facts torch 2.4.0
want "json torch ptx" '"value": "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120"' "$gpuenv" facts --json torch 2.9.0+cu130
want "torch unverified driver" "not verified (13.x family floor 580.65.06)" "$gpuenv" facts torch 2.12.0+cu132
want "torch unconfirmed" "(unconfirmed)" "$gpuenv" facts torch 2.12.0+cu132
want "json torch unconfirmed" '"unconfirmed": true' "$gpuenv" facts --json torch 2.12.0+cu132
check 2 "no PyTorch wheel 2.4.0+cpu" "$gpuenv" facts torch 2.4.0+cpu
# rocm.tsv: 6.2.0-6.2.4 lists gfx1100,gfx1030,gfx942,gfx90a,gfx908 (HIST60); 6.4.1-6.4.2 only as '?'
want "rocm gfx" "gfx1100,gfx1030,gfx942,gfx90a,gfx908" "$gpuenv" facts rocm 6.2
want "rocm products" "gfx90a: Instinct MI250X, MI250, MI210" "$gpuenv" facts rocm 6.2.4
want "rocm source" "[HIST60]" "$gpuenv" facts rocm 6.2
want "json rocm" '"value": "gfx1100,gfx1030,gfx942,gfx90a,gfx908"' "$gpuenv" facts --json rocm 6.2
want "rocm unconfirmed" "(unconfirmed)" "$gpuenv" facts rocm 6.4.2
check 2 "no ROCm release 7.2" "$gpuenv" facts rocm 7.2
# tensorflow_tested_configs.tsv: 2.15.0 = Python 3.9-3.11, cuDNN 8.9, CUDA 12.2
want "tf cuda" "12.2" "$gpuenv" facts tensorflow 2.15
want "tf cudnn" "8.9" "$gpuenv" facts tensorflow 2.15
want "tf source" "[tensorflow/docs site/en/install/source.md" "$gpuenv" facts tensorflow 2.15.1
want "json tf" '"value": "3.9-3.11"' "$gpuenv" facts --json tensorflow 2.15
check 2 "no TensorFlow release 3.0" "$gpuenv" facts tensorflow 3.0
# cuda_driver_min.tsv marks 13.4.1 unconfirmed
want "unconfirmed mark" "(unconfirmed)" "$gpuenv" facts cuda 13.4.1
want "help" "Usage: gpuenv facts" "$gpuenv" facts --help
check 2 "gpuenv facts: no CUDA release 99.1 in the knowledge base" "$gpuenv" facts cuda 99.1
check 2 "no GPU" "$gpuenv" facts gpu "Voodoo 5"
check 2 "no Xid" "$gpuenv" facts xid 99999
check 2 "" "$gpuenv" facts driver 1.2.3
# a branch the table lacks: the CUDA of the nearest lower branch, as a lower bound
want "branch beyond the table" "13.4 or newer (R615's: a lower bound)" "$gpuenv" facts driver 999.1
check 64 "unknown kind" "$gpuenv" facts frob 1
check 64 "expected KIND KEY" "$gpuenv" facts cuda
check 64 "" "$gpuenv" facts --bogus cuda 12.4
exit $fail
