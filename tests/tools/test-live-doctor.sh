#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gpuenv doctor on this machine, where it is a GPU-less host with a CUDA toolkit and no NVIDIA
# driver (the project's CI machine): it must say there is no GPU (when the PCI bus shows no
# display/3D/accelerator device), that the toolkit cannot run anything without a driver, that
# the only libcuda is the toolkit's stub and is off the loader path — and that the stub IS a
# problem once its directory is put on LD_LIBRARY_PATH. Skips (77) with the reason elsewhere.
set -u
gpuenv="$1"
cuda=/usr/local/cuda
if [ ! -e "$cuda/include/cuda_runtime_api.h" ]; then
	echo "SKIP: no CUDA toolkit at $cuda"
	exit 77
fi
if [ -e /sys/module/nvidia ] || [ -e /proc/driver/nvidia ]; then
	echo "SKIP: an NVIDIA driver is loaded here; this test describes a driverless machine"
	exit 77
fi
fail=0
has() {
	# doctor wraps its text (80 columns in a pipe): a phrase may span lines
	if printf '%s' "$out" | tr '\n' ' ' | tr -s ' ' | grep -qF -- "$1"; then echo "ok: $2"; else echo "FAIL: $2 (no '$1')"; fail=1; fi
}
gpus=0
for c in /sys/bus/pci/devices/*/class; do
	case $(cat "$c" 2>/dev/null) in 0x03*) gpus=$((gpus + 1)) ;; esac
done
out=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD "$gpuenv" doctor --no-vendor --color never)
rc=$?
[ "$rc" = 2 ] && echo "ok: exit 2 (errors)" || { echo "FAIL: exit $rc, want 2"; fail=1; }
if [ "$gpus" = 0 ]; then
	has "hardware.no-gpu (error): no GPU on the PCI bus" "says there is no GPU"
else
	echo "SKIP no-gpu finding: $gpus display/3D device(s) on the PCI bus"
fi
has "NVIDIA driver: not loaded" "says there is no driver"
v=$(sed -n 's/^#define CUDART_VERSION *\([0-9]*\).*/\1/p' "$cuda/include/cuda_runtime_api.h")
has "the CUDA $((v / 1000)).$(((v % 1000) / 10)) toolkit at" "names the toolkit's CUDA version"
has "cannot run" "says the toolkit cannot run anything here"
# Debian's python3-torch is a CPU-only build: on a machine without a GPU that is a note, never
# an error (and with a GPU it would be).
if [ -f /usr/lib/python3/dist-packages/torch/version.py ] && [ "$gpus" = 0 ]; then
	has "framework.cpu-only-build (info)" "a CPU-only torch without a GPU is only a note"
	case $out in *"framework.cpu-only-build (error)"*) echo "FAIL: cpu-only torch is an error"; fail=1 ;; esac
	has "(CPU only)" "the chain names the framework build"
else
	echo "SKIP cpu-only torch note: no Debian python3-torch, or a GPU is present"
fi
for d in lib64/stubs lib/stubs; do
	if [ -f "$cuda/$d/libcuda.so" ]; then
		stubdir="$cuda/$d"
		break
	fi
done
if [ -n "${stubdir:-}" ]; then
	has "runtime.stub-libcuda (info)" "the stub is only a note"
	has "off the loader path" "the stub is off the loader path"
	out=$(LD_LIBRARY_PATH="$stubdir" "$gpuenv" doctor --no-vendor --color never)
	has "runtime.stub-libcuda (error)" "the stub on LD_LIBRARY_PATH is an error"
	has "LD_LIBRARY_PATH contains $stubdir" "names the LD_LIBRARY_PATH entry"
else
	echo "SKIP stub libcuda findings: no stub libcuda.so under $cuda/lib64/stubs or $cuda/lib/stubs"
fi
# The JSON says the same, and --from a saved snapshot agrees.
tmp=$(mktemp)
env -u LD_LIBRARY_PATH "$gpuenv" report --json --no-vendor --stable >"$tmp"
a=$(env -u LD_LIBRARY_PATH "$gpuenv" doctor --from "$tmp" --json --stable | python3 -c 'import json,sys; print(sorted(f["rule"] for f in json.load(sys.stdin)["findings"]))')
rm -f "$tmp"
case $a in *runtime.no-driver-for-toolkit*) echo "ok: --from: $a" ;; *) echo "FAIL: --from: $a"; fail=1 ;; esac
exit $fail
