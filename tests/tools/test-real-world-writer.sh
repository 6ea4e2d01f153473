#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The real-world fixtures are the output of their writer: rerunning
# tests/tools/mk-real-world-fixtures.py (every topic of tests/tools/realworld/) over a copy of
# tests/ must reproduce each fixture's root/ and scenario.ini byte for byte, and write no ELF
# file. A hand edit of a written tree, or a writer change not rerun, fails here.
#   test-real-world-writer.sh SOURCE_ROOT
set -eu
src=$1
for t in gcc /sbin/ldconfig; do
	if ! command -v "$t" >/dev/null 2>&1 && [ ! -x "$t" ]; then
		echo "SKIP real-world-writer: $t is not installed (the writer needs it)"
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The writer runs `ldconfig -r`, which chroots: as root, or as a user inside a user namespace
# (realworld/common.py ldso_cache), which a chrooted process or a restricted container lacks.
if [ "$(id -u)" != 0 ]; then
	mkdir -p "$tmp/probe/etc/ld.so.conf.d"
	echo 'include ld.so.conf.d/*.conf' >"$tmp/probe/etc/ld.so.conf"
	if ! unshare --map-root-user /sbin/ldconfig -r "$tmp/probe" >/dev/null 2>&1; then
		echo "SKIP real-world-writer: ldconfig -r needs root or a user namespace (unshare -r fails here)"
		exit 77
	fi
	rm -rf "$tmp/probe"
fi
mkdir -p "$tmp/tests"
cp -a "$src/tests/tools" "$src/tests/fixtures" "$tmp/tests/"
fixtures=$(python3 "$tmp/tests/tools/mk-real-world-fixtures.py" --list | sed 's/^[^:]*://')
if [ -z "$(echo $fixtures)" ]; then
	echo "FAIL: mk-real-world-fixtures.py --list names no fixture: the check proved nothing"
	exit 1
fi
python3 "$tmp/tests/tools/mk-real-world-fixtures.py" >/dev/null
# git stores no empty directory: what a writer leaves empty (a base tree's lib/ once its
# modules/ is gone) is not in a checkout either, so it is not part of the comparison
find "$tmp/tests/fixtures" -type d -empty -delete
fail=0
n=0
for f in $fixtures; do
	n=$((n + 1))
	if ! diff -r --no-dereference "$src/tests/fixtures/$f/root" "$tmp/tests/fixtures/$f/root" ||
		! cmp "$src/tests/fixtures/$f/scenario.ini" "$tmp/tests/fixtures/$f/scenario.ini"; then
		echo "FAIL: $f: the committed tree is not what its writer makes (rerun tests/tools/mk-real-world-fixtures.py)"
		fail=1
	fi
done
python3 "$src/tests/tools/check-fixture-elf.py" "$tmp" >/dev/null || {
	echo "FAIL: the writer wrote an ELF file into the fixtures"
	fail=1
}
[ $fail -eq 0 ] && echo "ok: $n real-world fixtures reproduced byte for byte"
exit $fail
