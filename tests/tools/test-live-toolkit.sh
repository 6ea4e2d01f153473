#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live check against the machine's real CUDA toolkit, where one is installed: gpuenv must
# report, for the toolkit /usr/local/cuda resolves to, the version its own files state (the
# dist-info record of a pip-assembled toolkit, else version.json), each component's version as
# its header's macros state it (cuDNN, NCCL, cuBLAS, cuFFT, cuSPARSE, TensorRT), the library
# files of each component, its stub libcuda, and the /usr/local/cuda link as read. Each check
# prints ok / FAIL, or `SKIP <check>: <reason>` where the component is not installed.
# Skips (exit 77) with the reason when /usr/local/cuda is absent or python3 is missing.
set -u
gpuenv="$1"
cuda=/usr/local/cuda
if [ ! -e "$cuda/include/cuda_runtime_api.h" ]; then
	echo "SKIP: no CUDA toolkit at $cuda"
	exit 77
fi
if ! command -v python3 >/dev/null; then
	echo "SKIP: python3 is needed to read the JSON"
	exit 77
fi
real=$(readlink -f "$cuda")
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$gpuenv" report --json --stable --no-vendor >"$json" || exit 1
fail=0
# get KEY: the fact's value in the toolkit entry whose resolved_path is $real ("" when not present).
get() {
	python3 - "$json" "$real" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for tk in d["runtime"]["cuda_toolkits"]:
    if tk["resolved_path"].get("value") == sys.argv[2]:
        n = tk
        for k in sys.argv[3].split("."):
            n = n[int(k)] if isinstance(n, list) else n.get(k, {})
        if isinstance(n, list):
            print(" ".join(x.get("value", "") for x in n))
        else:
            v = n.get("value", "")
            print(str(v).lower() if isinstance(v, bool) else v)
        break
EOF
}
expect() { # KEY WANT
	got=$(get "$1")
	if [ "$got" = "$2" ]; then echo "ok: $1 = $2"; else echo "FAIL: $1 = '$got', want '$2'"; fail=1; fi
}
contains() { # KEY WORD
	got=$(get "$1")
	case " $got " in
	*" $2 "*) echo "ok: $1 has $2" ;;
	*) echo "FAIL: $1 = '$got' lacks $2"; fail=1 ;;
	esac
}
hdr() { sed -n "s/^#define $2 *\([0-9]*\).*/\1/p" "$cuda/include/$1" | head -1; }
hdr3() { echo "$(hdr "$1" "$2").$(hdr "$1" "$3").$(hdr "$1" "$4")"; }

expect resolved_path "$real"
expect is_default true
# Every hop of the link, as the loader follows it: /usr/local/cuda -> /etc/alternatives/cuda
# -> /usr/local/cuda-13.0 where update-alternatives manages it (NVIDIA's .deb packages; seen on
# an Ubuntu 24.04 GPU machine), one hop where the link points at the toolkit itself.
chain= hop=$cuda hops=0
while [ -L "$hop" ] && [ "$hops" -lt 40 ]; do
	target=$(readlink "$hop")
	chain="${chain:+$chain }$hop -> $target"
	case $target in
	/*) hop=$target ;;
	*) hop=$(dirname "$hop")/$target ;;
	esac
	hops=$((hops + 1))
done
expect alternatives_chain "$chain"
rt=$(ls -d "$real"/dist-info/nvidia_cuda_runtime-*.dist-info 2>/dev/null | head -1)
if [ -f "$real/version.json" ]; then
	expect version_source version.json
	expect version "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cuda"]["version"])' "$real/version.json")"
elif [ -n "$rt" ]; then
	v=${rt##*/nvidia_cuda_runtime-}
	expect version_source dist-info
	expect kind pip-assembled
	expect version "${v%.dist-info}"
else
	echo "SKIP toolkit version: no version.json or dist-info record in $real"
fi
v=$(hdr cuda_runtime_api.h CUDART_VERSION)
expect release "$((v / 1000)).$(((v % 1000) / 10))"

# component HEADER MAJOR MINOR PATCH LIB
component() {
	c=$1
	if [ -f "$cuda/include/$2" ]; then
		want=$(hdr3 "$2" "$3" "$4" "$5")
		expect "components.$c.version" "$want"
		[ "$c" = cudnn ] && expect cudnn_version "$want"
		[ "$c" = nccl ] && expect nccl_version "$want"
	else
		echo "SKIP $c version: no $cuda/include/$2"
	fi
	lib=$(ls "$real"/lib64/"$6"* "$real"/lib/"$6"* 2>/dev/null | grep -E "/$6(\.[0-9]+)*\$" | sort | tail -1)
	if [ -n "$lib" ]; then
		contains "components.$c.libraries" "${lib##*/}"
	else
		echo "SKIP $c libraries: no $6* in $real/lib64 or $real/lib"
	fi
}
component cudnn cudnn_version.h CUDNN_MAJOR CUDNN_MINOR CUDNN_PATCHLEVEL libcudnn.so
component nccl nccl.h NCCL_MAJOR NCCL_MINOR NCCL_PATCH libnccl.so
component cublas cublas_api.h CUBLAS_VER_MAJOR CUBLAS_VER_MINOR CUBLAS_VER_PATCH libcublas.so
component cufft cufft.h CUFFT_VER_MAJOR CUFFT_VER_MINOR CUFFT_VER_PATCH libcufft.so
component cusparse cusparse.h CUSPARSE_VER_MAJOR CUSPARSE_VER_MINOR CUSPARSE_VER_PATCH libcusparse.so
component tensorrt NvInferVersion.h NV_TENSORRT_MAJOR NV_TENSORRT_MINOR NV_TENSORRT_PATCH libnvinfer.so

stub=""
for s in "$cuda"/lib64/stubs/libcuda.so "$cuda"/lib/stubs/libcuda.so; do
	[ -f "$s" ] && stub=$(readlink -f "$s") && break
done
if [ -n "$stub" ]; then
	expect stub_libcuda "$stub"
else
	echo "SKIP stub libcuda: no stub libcuda.so under $cuda/lib64/stubs or lib/stubs"
fi
exit $fail
