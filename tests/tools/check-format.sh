#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The C sources follow .clang-format (kernel style, docs/design.md §6): fails on any file that
# clang-format would change, naming it. Fixture, corpus and generated files are not ours to
# format. Skips (77) where clang-format is not installed; the style was fixed with Debian 12's
# clang-format 14, and another major version may format differently, so it skips then too.
set -u
top=${1:-$(dirname "$0")/../..}
cd "$top" || exit 1
if ! command -v clang-format >/dev/null 2>&1; then
	echo "SKIP: clang-format is not installed (Debian: clang-format)"
	exit 77
fi
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != 14 ]; then
	echo "SKIP: clang-format $major here; the tree is formatted with clang-format 14"
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
out=$(clang-format --dry-run --Werror $files 2>&1 >/dev/null)
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
[ $rc = 0 ] || exit 1
echo "check-format: ok ($(echo "$files" | wc -l) files)"
