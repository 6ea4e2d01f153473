#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The C sources follow .clang-format (kernel style, design.md §6): fails on any file that
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
bad=0
for f in $(git ls-files 'src/*.[ch]' 'include/*.[ch]' 'tools/*.[ch]' 'tests/unit/*.[ch]' \
	'tests/harness/*.[ch]' 'tests/fakes/*.[ch]' 'tests/fuzz/*.[ch]' 2>/dev/null); do
	if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
		echo "not formatted: $f (clang-format -i $f)"
		bad=1
	fi
done
[ $bad = 0 ] && echo "check-format: ok"
exit $bad
