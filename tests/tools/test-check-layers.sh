#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-layers.py on a tiny synthetic tree of two layers, built by ninja as the real tree is:
# layer b calls a function of layer a and includes its header as <a/a.h> (b.c) and "../a/a.h"
# (b2.c).
# The checker must fail both the symbol and the include edge when the table forbids them,
# pass when it allows them, and fail (never pass) on empty or missing input.
set -u
checker=${1:?usage: test-check-layers.sh CHECK-LAYERS.PY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src-tree
bld=$src/build
mkdir -p "$src/src/a" "$src/src/b" "$bld"
cat >"$src/src/a/a.h" <<'EOF'
int a_answer(void);
EOF
cat >"$src/src/a/a.c" <<'EOF'
#include "a.h"
int a_answer(void)
{
	return 42;
}
EOF
cat >"$src/src/b/b.c" <<'EOF'
#include <a/a.h>
int b_twice(void)
{
	return 2 * a_answer();
}
EOF
cat >"$src/src/b/b2.c" <<'EOF'
#include "../a/a.h"
int b_thrice(void)
{
	return 3 * a_answer();
}
EOF
cat >"$bld/build.ninja" <<EOF
rule cc
  command = ${CC:-cc} -I../src -MD -MF \$out.d -c \$in -o \$out
  depfile = \$out.d
  deps = gcc
rule ar
  command = rm -f \$out && ar rcs \$out \$in
build src/a/a.p/a.c.o: cc ../src/a/a.c
build src/b/b.p/b.c.o: cc ../src/b/b.c
build src/b/b.p/b2.c.o: cc ../src/b/b2.c
build src/a/liba.a: ar src/a/a.p/a.c.o
build src/b/libb.a: ar src/b/b.p/b.c.o src/b/b.p/b2.c.o
EOF
printf 'a_answer;\n' >"$tmp/public.sym"
table() { # uses-of-b
	printf '# layer\tdir\tobjects\tuses\na\tsrc/a\tsrc/a/liba.a\t-\nb\tsrc/b\tsrc/b/libb.a\t%s\n' "$1" >"$tmp/t.tsv"
}
. "$(dirname "$0")/selftest.sh"
layers() { # rc mode build table what [grep-pattern]
	if [ "$2" = symbols ]; then
		expect "$1" "$2, $5" "${6:-}" python3 "$checker" symbols "$src" "$3" "$4" "$tmp/public.sym"
	else
		expect "$1" "$2, $5" "${6:-}" python3 "$checker" includes "$src" "$3" "$4"
	fi
}
# Before the build: no libraries, no dependency log.
table a
layers 1 symbols "$bld" "$tmp/t.tsv" "nothing built" "does not exist"
layers 1 includes "$bld" "$tmp/t.tsv" "nothing built" "names no object"
if ! ninja -C "$bld" >"$tmp/ninja.log" 2>&1; then
	echo "FAIL: the synthetic tree does not build:"
	cat "$tmp/ninja.log"
	exit 1
fi
table -
layers 1 symbols "$bld" "$tmp/t.tsv" "b may not use a" "b uses a_answer, defined in a"
layers 1 includes "$bld" "$tmp/t.tsv" "b may not use a, <a/a.h>" "src/b/b.c: layer b includes src/a/a.h of layer a"
layers 1 includes "$bld" "$tmp/t.tsv" "b may not use a, ../a/a.h" "src/b/b2.c: layer b includes src/a/a.h of layer a"
table public
layers 0 symbols "$bld" "$tmp/t.tsv" "b may use the exported a_answer"
table nosuch
layers 1 includes "$bld" "$tmp/t.tsv" "uses names no row" "which no row names"
table a
layers 0 symbols "$bld" "$tmp/t.tsv" "b may use a"
layers 0 includes "$bld" "$tmp/t.tsv" "b may use a"
layers 1 symbols "$tmp/no-such-build" "$tmp/t.tsv" "missing build directory"
layers 1 includes "$tmp/no-such-build" "$tmp/t.tsv" "missing build directory"
printf '# only comments\n' >"$tmp/empty.tsv"
layers 1 symbols "$bld" "$tmp/empty.tsv" "empty table" "no layer rows"
layers 1 includes "$bld" "$tmp/empty.tsv" "empty table" "no layer rows"
layers 1 includes "$bld" "$tmp/no-such.tsv" "missing table" "cannot read"
# A new directory under src/ without its row.
mkdir "$src/src/c" && echo 'int c;' >"$src/src/c/c.c"
layers 1 symbols "$bld" "$tmp/t.tsv" "src/c without a row" "src/c/ holds C sources but no row"
rm -r "$src/src/c"
# A row whose directory is gone.
mv "$src/src/a" "$tmp/a-moved"
layers 1 includes "$bld" "$tmp/t.tsv" "missing layer directory" "does not exist or holds no .c"
mv "$tmp/a-moved" "$src/src/a"
exit $fail
