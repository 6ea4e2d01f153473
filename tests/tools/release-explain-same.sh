#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The release build's `explain` (text and --json) against the test build's, on the readers'
# gzip samples and on a few explain-corpus pastes: the same output, messages and exit status,
# or it fails and prints what differed. The suite runs the test build only; a defect that -O2
# alone shows (the ISA-L inflate state left unset by isal_inflate_init: only the release build
# read the gzip samples short) passes it unseen. The release binary runs with glibc's
# MALLOC_PERTURB_ (mallopt(3) M_PERTURB: what malloc returns is filled with a non-zero byte), so
# memory it reads before writing shows whatever the heap held before. A few seconds; .ci/run
# runs it after both builds.
# Usage: tests/tools/release-explain-same.sh RELEASE_GPUENV TEST_GPUENV
set -u
[ $# = 2 ] || { echo "usage: $0 RELEASE_GPUENV TEST_GPUENV" >&2; exit 2; }
release=$1
test_build=$2
for b in "$release" "$test_build"; do
	[ -x "$b" ] || { echo "$0: $b: not built" >&2; exit 2; }
done
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every gzip sample explain reads in the tree, and pastes of three readers' kinds (an AMD
# kernel log, a modinfo/version mismatch, a Windows collect_env).
set -- "$src"/tests/fuzz/corpus/pasted-gzip/*.gz \
	"$src"/tests/explain-corpus/amdgpu-fw-mi100-rocm-1357.txt \
	"$src"/tests/explain-corpus/api-mismatch-modinfo-zen.txt \
	"$src"/tests/explain-corpus/win-cpu-collect-env-pytorch-137846.txt
[ -f "$1" ] || { echo "$0: no gzip sample under tests/fuzz/corpus/pasted-gzip" >&2; exit 2; }
rc=0
n=0
for input in "$@"; do
	for json in "" --json; do
		MALLOC_PERTURB_=165 "$release" explain $json "$input" > "$tmp/release.out" \
			2> "$tmp/release.err"
		echo "exit status $?" >> "$tmp/release.err"
		"$test_build" explain $json "$input" > "$tmp/test.out" 2> "$tmp/test.err"
		echo "exit status $?" >> "$tmp/test.err"
		n=$((n + 1))
		for s in out err; do
			if ! cmp -s "$tmp/release.$s" "$tmp/test.$s"; then
				echo "FAIL: explain${json:+ $json} ${input#"$src"/}: the builds' std$s differ" \
					"(--- release, +++ test build):"
				diff -u "$tmp/release.$s" "$tmp/test.$s" | head -40
				rc=1
			fi
		done
	done
done
[ $rc = 0 ] && echo "release and test builds' explain the same on $n runs"
exit $rc
