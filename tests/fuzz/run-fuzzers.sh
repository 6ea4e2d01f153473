#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer binaries with clang-15 (ASan + UBSan; the LLVM PoCL brings too, see
# scripts/install-deps.sh) and runs each for FUZZ_SECONDS
# (default 600) over its corpus, printing libFuzzer's exec count. New inputs are kept in the corpus.
set -eu
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-600}
[ -f build-fuzz/build.ninja ] ||
	CC=${FUZZ_CC:-clang-15} meson setup build-fuzz -Dfuzzers=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
meson compile -C build-fuzz
for bin in build-fuzz/tests/fuzz/fuzz-*; do
	case "$bin" in *fuzz-replay-*) continue ;; esac
	[ -f "$bin" ] && [ -x "$bin" ] || continue # meson's fuzz-<name>.p object directories
	name=${bin##*/fuzz-}
	echo "== $name for ${secs}s"
	"$bin" -max_total_time="$secs" -print_final_stats=1 "tests/fuzz/corpus/$name" 2>&1 | grep -E 'stat::number_of_executed_units|Done|ERROR' || true
done
