#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# count-results.py (the summary line of .ci/run) counts every skipped check: whole tests meson
# skipped, `SKIP <what>: <why>` lines inside tests that ran, and cmocka's skipped tests; a
# `SKIP: why` line is a whole test's reason and counts once, with the test.
set -u
count=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/testlog.json" <<'JSON'
{"name": "a", "result": "OK", "stdout": "ok: one\nSKIP nvcc-built library: no nvcc at /usr/local/cuda/bin/nvcc\nok: two\n"}
{"name": "b", "result": "SKIP", "stdout": "SKIP: no CUDA toolkit at /usr/local/cuda\n"}
{"name": "c", "result": "FAIL", "stdout": "SKIP groff formatting: groff is not installed\nFAIL: x\n"}
{"name": "d", "result": "OK", "stdout": "[ RUN      ] t1\n# skipping: needs cc\n[  SKIPPED ] t1\n[ RUN      ] t2\n[       OK ] t2\n[  SKIPPED ] 1 test(s), listed below:\n[  SKIPPED ] t1\n"}
{"name": "e", "result": "OK", "stdout": "SKIP: not root (a message, not a part)\nok: three\n"}

JSON
fail=0
want() { # EXPECTED-LINE EXPECTED-RC ARGS…
	line=$1 rc=$2
	shift 2
	got=$(python3 "$count" "$tmp/testlog.json" "$@" 2>"$tmp/err")
	grc=$?
	if [ "$got" = "$line" ] && [ "$grc" = "$rc" ]; then
		echo "ok: $line (exit $rc)"
	else
		echo "FAIL: got '$got' exit $grc, want '$line' exit $rc"
		cat "$tmp/err"
		fail=1
	fi
}
want "3 passed, 1 failed, 4 skipped" 1
want "4 passed, 1 failed, 4 skipped" 1 release-build=0
want "3 passed, 2 failed, 4 skipped" 1 release-build=1
if grep -q "nvcc-built library" "$tmp/err"; then echo "ok: skipped checks listed on stderr"; else
	echo "FAIL: the skipped checks are not listed on stderr"
	fail=1
fi
exit $fail
