#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Capture → fixture: `gpuenv capture --sysroot` of each fixture root (made by fixture_root.py),
# unpacked with GNU tar, must give under `report --sysroot <unpacked>/root` exactly what the
# captured collection gave (`report --from <unpacked>/snapshot.json`; JSON, --stable), i.e. the
# bundle holds every file, byte range, directory listing and symlink the probes read,
# resolved as gpuenv resolves them. Device nodes are not in git; both reports run without
# them. The fixtures run $(nproc) at a time, in SHARDS parts (meson runs each part as a test
# of its own, each with its own time limit); part 0 also puts one fixture through
# capture-fixture.sh, which makes a fixture of a capture.
# Usage: test-capture.sh GPUENV FIXTURES_DIR [PART SHARDS]
set -u
here=$(cd "$(dirname "$0")" && pwd)

# one fixture: prints "ok: …" or "FAIL: …"
one() {
	dir=$1
	name=$(basename "$dir")
	root=$dir/root
	if grep -q '^\[\(elf\|modules\)\]' "$dir/scenario.ini"; then
		# the root as the scenario test sees it: its generated files made, a file whose
		# tool is missing named by a SKIP line
		root=$tmp/$name.root
		"$here/fixture_root.py" "$dir" "$root"
		rc=$?
		if [ $rc != 0 ] && [ $rc != 77 ]; then
			echo "FAIL: $name: fixture_root.py exit $rc"
			return
		fi
	fi
	out=$tmp/$name.unpacked
	mkdir "$out"
	if ! "$gpuenv" capture --sysroot "$root" --no-vendor -o "$tmp/$name.tar.zst" \
		>/dev/null 2>"$tmp/$name.err"; then
		echo "FAIL: $name: gpuenv capture failed: $(cat "$tmp/$name.err")"
	elif ! tar --zstd -xf "$tmp/$name.tar.zst" -C "$out" 2>"$tmp/$name.err"; then
		echo "FAIL: $name: tar -x of the bundle: $(cat "$tmp/$name.err")"
	elif ! "$gpuenv" report --from "$out/snapshot.json" --stable --json \
		>"$tmp/$name.orig.json" 2>"$tmp/$name.err" ||
		! "$gpuenv" report --sysroot "$out/root" --no-vendor --stable --json \
			>"$tmp/$name.cap.json" 2>>"$tmp/$name.err"; then
		echo "FAIL: $name: report on the bundle failed: $(cat "$tmp/$name.err")"
	elif cmp -s "$tmp/$name.orig.json" "$tmp/$name.cap.json"; then
		echo "ok: $name: the bundle replays to the same report ($(find "$out/root" | wc -l) entries, $(wc -c <"$tmp/$name.tar.zst") bytes)"
	else
		echo "FAIL: $name: the bundle's report differs:"
		diff -u "$tmp/$name.orig.json" "$tmp/$name.cap.json" | head -40
	fi
	rm -rf "$out"
}

# --one GPUENV TMP FIXTURE_DIR: one fixture (xargs runs these in parallel)
if [ "${1:-}" = --one ]; then
	gpuenv=$2 tmp=$3
	one "$4"
	exit 0
fi
gpuenv=$1
fixtures=$2
part=${3:-0}
shards=${4:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

i=0
for ini in "$fixtures"/*/scenario.ini; do
	[ -d "$(dirname "$ini")/root" ] || continue
	[ $((i % shards)) = "$part" ] && dirname "$ini"
	i=$((i + 1))
done | xargs -P "$(nproc)" -n 1 sh "$here/test-capture.sh" --one "$gpuenv" "$tmp" |
	tee "$tmp/results"
fail=0
grep -q '^FAIL' "$tmp/results" && fail=1
grep -q '^ok: ' "$tmp/results" || { echo "FAIL: no fixture captured"; fail=1; }

# capture-fixture.sh: a fixture made from a capture replays the same
name=h100-link-faults
if [ "$part" != 0 ]; then
	:
elif ! "$here/capture-fixture.sh" --sysroot "$fixtures/$name/root" --report "$tmp/cf.json" \
	"$gpuenv" "$name" "$tmp/cf" >/dev/null 2>"$tmp/err"; then
	echo "FAIL: capture-fixture.sh $name: $(cat "$tmp/err")"
	fail=1
elif "$gpuenv" report --sysroot "$tmp/cf/$name/root" --no-vendor --stable --json |
	cmp -s - "$tmp/cf.json"; then
	echo "ok: capture-fixture.sh: the fixture made of $name replays to the same report"
else
	echo "FAIL: capture-fixture.sh: the fixture made of $name reports otherwise"
	fail=1
fi
echo "$(grep -c '^ok: ' "$tmp/results") fixtures replayed"
exit $fail
