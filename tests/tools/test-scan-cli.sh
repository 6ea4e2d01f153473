#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv scan`: exit codes (0 usable everywhere, 2 some binary fails, 64 usage, 66 unreadable
# PATH), --json parses and spells targets as nvcc does, --help documents the exit codes, and
# with nvcc: a real sm_80+compute_80 library judged on 8.6 (native), 9.0 with driver 535
# (ptx-jit) and 9.0 with driver 450 (ptx-too-new). Inputs built here; formats:
# docs/formats/fatbin.md; JSON: docs/scan-schema.md.
set -u
gpuenv="$1"
. "$(dirname "$0")/lib-check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a container with sm_86 SASS and compute_90 PTX (ISA 8.4), hand-built (docs/formats/fatbin.md §3-§4)
python3 - "$tmp/k.fatbin" <<'PY'
import struct, sys
def entry(kind, arch, maj, minr, payload):
    pad = payload + b'\0' * (-len(payload) % 8)
    h = struct.pack('<HHIQIIHHIIIQQQ', kind, 0x0101, 64, len(pad), 0, 0, minr, maj, arch, 0, 0, 0x11, 0, 0)
    return h + pad
body = entry(2, 86, 1, 8, b'notanelf') + entry(1, 90, 8, 4, b'')
open(sys.argv[1], 'wb').write(struct.pack('<IHHQ', 0xBA55ED50, 1, 16, len(body)) + body)
PY
printf '#!/bin/sh\n' > "$tmp/fake.so"

check 0 "" "$gpuenv" scan "$tmp/k.fatbin"
check 0 "" "$gpuenv" scan --gpu 8.6 "$tmp/k.fatbin"
check 0 "" "$gpuenv" scan --gpu 9.0 --driver 550.54.15 "$tmp/k.fatbin"
check 2 "" "$gpuenv" scan --gpu 8.0 "$tmp/k.fatbin"
check 2 "" "$gpuenv" scan --gpu 9.0 --driver 535.54.03 "$tmp/k.fatbin"
check 64 "expected a PATH" "$gpuenv" scan
check 64 "no such GPU" "$gpuenv" scan --gpu "Voodoo 5" "$tmp/k.fatbin"
check 64 "not a driver version" "$gpuenv" scan --driver x.y "$tmp/k.fatbin"
check 64 "--from is only used" "$gpuenv" scan --from x.json "$tmp/k.fatbin"
check 66 "" "$gpuenv" scan "$tmp/missing.so"
check 2 "" "$gpuenv" scan --gpu 8.0 "$tmp/missing.so" "$tmp/k.fatbin"
check 0 "" "$gpuenv" scan "$tmp/fake.so"
check 66 "" "$gpuenv" scan --sysroot "$tmp/nope" "/k.fatbin"

out=$("$gpuenv" scan --json --gpu 9.0 --driver 535.54.03 "$tmp/k.fatbin")
if printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = d["files"][0]
assert d["schema"] == "gpuenv-scan/1", d["schema"]
assert f["sass"] == ["sm_86"], f["sass"]
assert f["ptx"] == [{"target": "compute_90", "ptx_isa": "8.4"}], f["ptx"]
v = f["verdicts"][0]
assert v["verdict"] == "ptx-too-new" and v["entry"] == "compute_90", v
assert d["driver"]["max_ptx_isa"] == "8.2", d["driver"]
assert d["devices"][0]["compute_capability"] == "9.0"
'; then echo "ok: --json"; else echo "FAIL: --json: $out"; fail=1; fi
# Names that are not UTF-8 (issue 13.6: scan --json exited 70 and printed nothing): a file
# named k<0xff>.fatbin and, where cc can build one, a library whose SONAME and DT_NEEDED
# carry 0xe9. The JSON stays valid: U+FFFD for each bad byte, the path's bytes in path_hex.
bad=$(printf 'k\377.fatbin')
cp "$tmp/k.fatbin" "$tmp/$bad"
libs=""
if command -v cc >/dev/null 2>&1 &&
	printf 'int f(void) { return 1; }\n' > "$tmp/x.c" &&
	cc -shared -fPIC -o "$tmp/libx.so" "$tmp/x.c" -Wl,-soname,"$(printf 'libx\351.so.1')" \
		2>/dev/null; then
	libs="$tmp/libx.so"
else
	echo "SKIP part: cc cannot build a shared library here (no non-UTF-8 SONAME case)"
fi
out=$("$gpuenv" scan --json "$tmp/$bad" $libs)
rc=$?
if [ "$rc" -eq 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.loads(sys.stdin.buffer.read().decode("utf-8"))  # strict UTF-8
f = d["files"][0]
assert f["path"].endswith("k\ufffd.fatbin"), f["path"]
assert bytes.fromhex(f["path_hex"]).endswith(b"k\xff.fatbin"), f["path_hex"]
assert f["sass"] == ["sm_86"], f
if len(d["files"]) > 1:
    assert d["files"][1]["dynamic"]["soname"] == "libx\ufffd.so.1", d["files"][1]
    assert "path_hex" not in d["files"][1]
'; then echo "ok: --json with names that are not UTF-8"; else
	echo "FAIL: --json with names that are not UTF-8 (exit $rc): $out"; fail=1; fi
help=$("$gpuenv" scan --help)
for w in "Exit codes" "66" "no-kernel-image" "--this-machine"; do
	printf '%s' "$help" | grep -qF -- "$w" || { echo "FAIL: --help lacks $w"; fail=1; }
done

nvcc=/usr/local/cuda/bin/nvcc
if [ -x "$nvcc" ]; then
	printf '__global__ void k(int *x) { x[threadIdx.x] += 1; }\n' > "$tmp/k.cu"
	if "$nvcc" -shared -Xcompiler -fPIC -gencode arch=compute_80,code=[sm_80,compute_80] \
		"$tmp/k.cu" -o "$tmp/libk.so" >/dev/null 2>&1; then
		check 0 "" "$gpuenv" scan --gpu 8.6 "$tmp/libk.so"
		check 0 "" "$gpuenv" scan --gpu 9.0 --driver 580.65.06 "$tmp/libk.so"
		check 2 "" "$gpuenv" scan --gpu 9.0 --driver 575.51.03 "$tmp/libk.so"
		out=$("$gpuenv" scan --gpu 9.0 --driver 580.65.06 "$tmp/libk.so")
		printf '%s' "$out" | grep -q "ptx-jit" || { echo "FAIL: libk.so on 9.0: $out"; fail=1; }
		# nvcc links cudart statically: a CUDA 13 build needs R580 (minor-version floor),
		# whatever its code; the driver's branch must know the GPU at all
		for c in "8.0 550.54.15 2 driver-too-old" "8.0 580.65.06 0 CUDA runtime 13" \
			"12.0 470.82.01 2 driver-gpu-unsupported"; do
			set -- $c
			out=$("$gpuenv" scan --gpu "$1" --driver "$2" "$tmp/libk.so")
			rc=$?
			shift 2
			want=$1
			shift
			[ "$rc" = "$want" ] && printf '%s' "$out" | grep -qF -- "$*" ||
				{ echo "FAIL: libk.so ($c): exit $rc: $out"; fail=1; }
		done
		# header-only by default: the summary says where more code may hide
		"$gpuenv" scan "$tmp/libk.so" | grep -q -- "--deep searches every section" ||
			{ echo "FAIL: the summary does not point at --deep"; fail=1; }
		"$gpuenv" scan --deep "$tmp/libk.so" | grep -q -- "--deep searches" &&
			{ echo "FAIL: --deep still says to use --deep"; fail=1; }
		# a kernel-less library, compressed: no GPU code to judge
		printf '__device__ int twice(int x) { return 2 * x; }\n' > "$tmp/stub.cu"
		for m in size speed; do # all five: test-fatbin-nvcc
			"$nvcc" -shared -Xcompiler -fPIC -Xfatbin=-compress-all --compress-mode=$m \
				-gencode arch=compute_80,code=sm_80 "$tmp/stub.cu" -o "$tmp/stub.so" \
				>/dev/null 2>&1 || { echo "FAIL: nvcc stub $m"; fail=1; continue; }
			out=$("$gpuenv" scan --json --gpu 8.0 "$tmp/stub.so")
			printf '%s' "$out" | python3 -c 'import json,sys
f = json.load(sys.stdin)["files"][0]
sys.exit(0 if not f.get("verdicts") and f["link_images_without_kernels"] >= 1 else 1)' ||
				{ echo "FAIL: stub built with --compress-mode=$m judged: $out"; fail=1; }
		done
	else
		echo "FAIL: nvcc could not build the test library"
		fail=1
	fi
else
	echo "SKIP nvcc-built library: no nvcc at $nvcc"
fi
exit $fail
