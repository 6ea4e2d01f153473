#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile inputs of the CLI (issue: --env-file, --from, --pci-ids, scan, output errors): each
# is refused with the documented exit code and a message naming the path (and the line), in
# bounded time, and nothing an input names is ever executed.
set -u
gpuenv="$1"
gpuenv_test="$2" # the test build (GPUENV_TEST_* hooks; the installed gpuenv has none)
. "$(dirname "$0")/lib-check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
empty="$tmp/empty"
mkdir "$empty"

# --env-file: a file with no newline at all stops at the line cap (it grew to 2 GB, then exit 0).
check 66 "env file /dev/zero: line 1: a line longer than 65536 bytes" \
	timeout 20 "$gpuenv" report --no-vendor --sysroot "$empty" --env-file /dev/zero
# Linear: 50,000 lines within 20 s (the old loader: 20,000 took 20 s); the 100,000-line cap.
awk 'BEGIN { for (i = 0; i < 50000; i++) printf "K%d=%d\n", (i * 7919) % 50000, i }' >"$tmp/50k.env"
check 0 "" timeout 20 "$gpuenv" report --no-vendor --sysroot "$empty" --env-file "$tmp/50k.env"
awk 'BEGIN { for (i = 0; i <= 100000; i++) printf "K%d=%d\n", i, i }' >"$tmp/100k.env"
check 66 "env file $tmp/100k.env: line 100001: more than 100000 lines" \
	timeout 20 "$gpuenv" report --no-vendor --sysroot "$empty" --env-file "$tmp/100k.env"
check 66 "env file $empty: Is a directory" "$gpuenv" report --no-vendor --env-file "$empty"
check 66 "--from $empty: Is a directory" "$gpuenv" report --from "$empty"
# --from: a text over 16 MiB is refused before it is parsed (63 MB took 1.7 GB).
printf '{"schema_version":1}' >"$tmp/big.json"
head -c 17000000 /dev/zero | tr '\0' ' ' >>"$tmp/big.json"
check 66 "--from $tmp/big.json: larger than 16 MiB" "$gpuenv" report --from "$tmp/big.json"
rm -f "$tmp/big.json"

# An nvcc planted where the env file's CUDA_HOME and PATH point is never run, live or not.
mkdir -p "$tmp/cuda/bin" "$tmp/cuda/lib64"
: >"$tmp/cuda/lib64/libcudart.so.12"
printf '#!/bin/sh\ntouch "%s"\nprintf "Cuda compilation tools, %%s 99.9, V99.9.1\\n" release\n' \
	"$tmp/nvcc-ran" >"$tmp/cuda/bin/nvcc"
chmod 755 "$tmp/cuda/bin/nvcc"
printf 'CUDA_HOME=%s\nPATH=%s:/usr/bin:/bin\n' "$tmp/cuda" "$tmp/cuda/bin" >"$tmp/planted.env"
"$gpuenv" report --json --no-vendor --env-file "$tmp/planted.env" >"$tmp/planted.json" 2>/dev/null
"$gpuenv" doctor --no-vendor --env-file "$tmp/planted.env" >/dev/null 2>&1
if [ -e "$tmp/nvcc-ran" ]; then
	echo "FAIL: gpuenv ran the nvcc that --env-file's CUDA_HOME/PATH named"
	fail=1
elif ! grep -q "$tmp/cuda" "$tmp/planted.json"; then
	echo "FAIL: the planted toolkit was not even found: the check proves nothing"
	fail=1
else
	echo "ok: the planted nvcc did not run"
fi

# --pci-ids: a directory is an error naming the path (libpci said "not found" for every GPU).
check 66 "--pci-ids $empty: Is a directory" "$gpuenv" report --no-vendor --pci-ids "$empty"
# An image's pci.ids over 16 MiB, or gzip data behind the plain name, is not parsed (164 MB
# took 38 s and 257 MB in libpci).
mkdir -p "$tmp/img/usr/share/misc"
truncate -s 17M "$tmp/img/usr/share/misc/pci.ids"
check 3 "pci.ids: larger than 16 MiB (pci.ids is 1.4 MB): not used for GPU names" \
	timeout 20 "$gpuenv" doctor --no-vendor --sysroot "$tmp/img"
printf '\037\213\010' >"$tmp/img/usr/share/misc/pci.ids"
check 3 "pci.ids: gzip data" "$gpuenv" doctor --no-vendor --sysroot "$tmp/img"

# Output that cannot be written is exit 74 with a message, never 0.
if [ -w /dev/full ]; then
	for cmd in "report --json --no-vendor --sysroot $empty" "report --no-vendor --sysroot $empty" \
		"doctor --no-vendor --sysroot $empty" "scan $empty" "--help"; do
		check 74 "gpuenv: writing the output" sh -c "\"\$0\" $cmd >/dev/full" "$gpuenv"
	done
else
	echo "SKIP part: no writable /dev/full: the write-error checks were not run"
fi

# scan: a named directory that cannot be read is exit 66 (it was 0); directories below
# --max-depth are counted, in text and JSON.
mkdir -p "$tmp/unreadable" "$tmp/deep/a/b/c"
check 66 "" env GPUENV_TEST_INJECT_ERRORS="$tmp/unreadable=EACCES" "$gpuenv_test" scan "$tmp/unreadable"
if "$gpuenv" scan --max-depth 1 "$tmp/deep" | grep -q "1 directory below --max-depth 1 not entered" &&
	"$gpuenv" scan --json --max-depth 1 "$tmp/deep" | grep -q '"too_deep_dirs": 1'; then
	echo "ok: scan counts the directories below --max-depth"
else
	echo "FAIL: scan skips directories below --max-depth without a word"
	fail=1
fi
exit $fail
