#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The C sources follow .clang-format (kernel style, docs/design.md §6): fails on any file that
# clang-format would change, naming it. Fixture, corpus and generated files are not ours to
# format. The tree formats identically under Debian 12's clang-format 14 and 15 (the test
# dependencies install clang-format-15, whose LLVM PoCL already brings); the one construct
# they format differently, a pointer member declared with its struct ("} *p;", which 14
# writes "} * p;"), is refused below. Skips (77) where neither is installed.
set -u
top=${1:-$(dirname "$0")/../..}
cd "$top" || exit 1
fmt=
for c in clang-format-15 clang-format-14 clang-format; do
	command -v "$c" >/dev/null 2>&1 || continue
	major=$("$c" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
	case $major in 14 | 15) fmt=$c; break ;; esac
done
if [ -z "$fmt" ]; then
	echo "SKIP: clang-format 14 or 15 is not installed (Debian: clang-format-15)"
	exit 77
fi
# The C files git tracks; outside a git checkout (a release tarball) there is no list to check.
if ! files=$(git ls-files 'src/*.[ch]' 'include/*.[ch]' 'tools/*.[ch]' 'tests/unit/*.[ch]' \
	'tests/harness/*.[ch]' 'tests/fakes/*.[ch]' 'tests/fuzz/*.[ch]' 2>&1); then
	echo "SKIP: $top is not a git checkout: git ls-files says: $files"
	exit 77
fi
if [ -z "$files" ]; then
	echo "FAIL: git ls-files lists no C source under $top: nothing would be checked"
	exit 1
fi
# One clang-format run over all files (one per file costs a process each); it names every
# file it would change in its diagnostics, "FILE:LINE:COL: error: code should be …".
out=$("$fmt" --dry-run --Werror $files 2>&1 >/dev/null)
rc=$?
bad=$(printf '%s\n' "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
for f in $bad; do
	echo "not formatted: $f (clang-format -i $f)"
done
if [ $rc != 0 ] && [ -z "$bad" ]; then
	echo "FAIL: clang-format exit $rc: $out"
	exit 1
fi
if [ $rc = 0 ] && [ -n "$bad" ]; then
	echo "FAIL: clang-format exit 0 but it named unformatted files"
	exit 1
fi
# "} * p;" (14) / "} *p;" (15): whichever is written, the other version would change it.
split=$(grep -nE '^[[:space:]]*}[[:space:]]*\*[[:space:]]*[A-Za-z_]' $files)
if [ -n "$split" ]; then
	echo "FAIL: a pointer member declared with its struct formats differently under clang-format 14"
	echo "and 15; define the struct apart and declare 'struct NAME *p;':"
	printf '%s\n' "$split"
	exit 1
fi
[ $rc = 0 ] || exit 1
echo "check-format: ok ($(echo "$files" | wc -l) files, $fmt $major)"
