#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --trace-paths → fixture: captures a run over each fixture root (made by fixture_root.py) with
# capture-fixture.sh --sysroot and checks that `report --sysroot <capture>` prints exactly
# what `report --sysroot <original>` printed (JSON, --stable), i.e. the capture holds every
# file, directory listing and symlink the probes read, resolved as gpuenv resolves them.
# Device nodes are not in git; both reports run without them. Under --sysroot without
# --env-file the judged environment is empty, so the traced run's own report (--report) is
# the original's: each fixture costs one traced run and one replay.
set -u
gpuenv=$1
fixtures=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for ini in "$fixtures"/*/scenario.ini; do
	dir=$(dirname "$ini")
	name=$(basename "$dir")
	[ -d "$dir/root" ] || continue
	root=$dir/root
	if grep -q '^\[\(elf\|modules\)\]' "$ini"; then
		# the root as the scenario test sees it: its generated files made (fixture_root.py),
		# a file whose tool is missing named by a SKIP line
		root=$tmp/$name.root
		"$here/fixture_root.py" "$dir" "$root"
		rc=$?
		if [ $rc != 0 ] && [ $rc != 77 ]; then
			echo "FAIL: $name: fixture_root.py exit $rc"
			fail=1
			continue
		fi
	fi
	if ! "$here/capture-fixture.sh" --sysroot "$root" --report "$tmp/$name.orig.json" \
		"$gpuenv" "$name" "$tmp/cap" >/dev/null 2>"$tmp/err"; then
		echo "FAIL: $name: capture (a traced report of the fixture) failed: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	if ! "$gpuenv" report --sysroot "$tmp/cap/$name/root" --no-vendor --stable --json \
		>"$tmp/$name.cap.json" 2>"$tmp/err"; then
		echo "FAIL: $name: report on the capture failed: $(cat "$tmp/err")"
		fail=1
	elif cmp -s "$tmp/$name.orig.json" "$tmp/$name.cap.json"; then
		echo "ok: $name: capture replays to the same report ($(find "$tmp/cap/$name/root" | wc -l) entries)"
		n=$((n + 1))
	else
		echo "FAIL: $name: the capture's report differs:"
		diff -u "$tmp/$name.orig.json" "$tmp/$name.cap.json" | head -40
		fail=1
	fi
done
[ $n -gt 0 ] || { echo "FAIL: no fixture captured"; fail=1; }
exit $fail
