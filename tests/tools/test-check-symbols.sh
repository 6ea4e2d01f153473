#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-symbols.py on tiny libraries built here: a data symbol exported but not listed fails
# as a function does; a declared and listed data symbol passes; nothing to compare fails.
set -u
checker=${1:?usage: test-check-symbols.sh CHECK-SYMBOLS.PY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
printf '#define GPUENV_API __attribute__((visibility("default")))\nGPUENV_API int gpuenv_f(void);\n' >"$tmp/h.h"
printf 'LIBGPUENV_0 {\nglobal:\n\tgpuenv_f;\nlocal:\n\t*;\n};\n' >"$tmp/ok.sym"
lib() { # name C-source version-script
	printf '%s\n' "$2" | $cc -x c - -shared -fPIC -o "$tmp/$1.so" -Wl,--version-script,"$3"
}
. "$(dirname "$0")/selftest.sh"
syms() { # rc what header sym lib [pattern]
	expect "$1" "$2" "${6:-}" python3 "$checker" "$3" "$4" "$5"
}
lib good 'int gpuenv_f(void) { return 1; }' "$tmp/ok.sym"
syms 0 "one function, declared, listed, exported" "$tmp/h.h" "$tmp/ok.sym" "$tmp/good.so"
printf 'LIBGPUENV_0 {\nglobal:\n\tgpuenv_f;\n\tgpuenv_table;\nlocal:\n\t*;\n};\n' >"$tmp/data.sym"
lib data 'int gpuenv_f(void) { return 1; } const int gpuenv_table[2] = { 1, 2 };' "$tmp/data.sym"
syms 1 "an exported data symbol the header does not declare" "$tmp/h.h" "$tmp/data.sym" "$tmp/data.so" \
	"in .sym but not declared: gpuenv_table"
syms 1 "an exported data symbol .sym does not list" "$tmp/h.h" "$tmp/ok.sym" "$tmp/data.so" \
	"exported but not listed: gpuenv_table (R)"
cp "$tmp/h.h" "$tmp/hd.h" && printf 'GPUENV_API extern const int gpuenv_table[2];\n' >>"$tmp/hd.h"
syms 0 "a data symbol declared, listed and exported" "$tmp/hd.h" "$tmp/data.sym" "$tmp/data.so" "1 of them data"
printf '/* nothing */\n' >"$tmp/empty.h"
syms 1 "an empty header" "$tmp/empty.h" "$tmp/ok.sym" "$tmp/good.so" "nothing to compare"
exit $fail
