#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turns a run into a fixture: `gpuenv capture` on this machine (or on the root given with
# --sysroot) keeps every path the probes read, each link met as a link and each directory's
# names (docs/fleet.md, "Capture"); its bundle is unpacked into tests/fixtures/<name>/root/
# so `--sysroot` replays the same reads. Device nodes cannot live in git: they become
# [devices] lines of scenario.ini (see docs/HACKING.md). When a GPU was named from pci.ids,
# the bundle holds the lines of pci.ids that named it as usr/share/misc/pci.ids. A file
# over 1 MiB is kept as the
# ranges read, at its real size (a sparse file): review the copy before committing, it may
# contain host names, serial numbers and UUIDs (`gpuenv capture --redact` replaces them).
# --report FILE also keeps the JSON report (--stable) of the captured run
# (tests/tools/test-capture.sh compares it with the report of the copy).
# Usage: tests/tools/capture-fixture.sh [--sysroot DIR] [--report FILE] GPUENV NAME [DEST_DIR]
set -eu
sysroot=/
report=
while :; do
	case ${1:-} in
	--sysroot) sysroot=$2 ;;
	--report) report=$2 ;;
	*) break ;;
	esac
	shift 2
done
gpuenv=$1
name=$2
dest=${3:-$(dirname "$0")/../fixtures}/$name
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$sysroot" = / ]; then
	"$gpuenv" capture -o "$tmp/bundle.tar.zst" >/dev/null
else
	"$gpuenv" capture --sysroot "$sysroot" --no-vendor -o "$tmp/bundle.tar.zst" >/dev/null
fi
# device nodes go to scenario.ini, not into the tree: 'crw-rw-rw- 0/0 195,0 DATE TIME PATH'
tar --zstd -tvf "$tmp/bundle.tar.zst" --numeric-owner |
	awk '/^[cb]/ { printf "%s %s %s %s %s\n", substr($1, 1, 1), $1, $3, $2, $NF }' \
		>"$tmp/devices"
mkdir -p "$dest/root" "$tmp/unpacked"
sed 's/.* //' "$tmp/devices" >"$tmp/exclude"
tar --zstd -xf "$tmp/bundle.tar.zst" -C "$tmp/unpacked" --exclude-from="$tmp/exclude" \
	--no-same-owner
cp -a "$tmp/unpacked/root/." "$dest/root/"
"$gpuenv" report --from "$tmp/unpacked/snapshot.json" --stable --json >"$tmp/report.json"
python3 - "$dest" "$tmp/devices" <<'PY'
import os, sys

dest, devices_file = sys.argv[1:3]
devices = {}
for line in open(devices_file):
    kind, modes, numbers, owner, path = line.split()[:5]
    perm = 0
    for i, c in enumerate(modes[1:10]):  # rwxrwxrwx → octal (set-id bits are not kept)
        perm |= (c != "-") << (8 - i)
    uid_gid = owner.split("/") if "/" in owner else owner.split(":")
    devices["/" + path.split("/", 1)[1]] = "%s %s %04o %s" % (kind, numbers.replace(",", ":"),
                                                            perm, ":".join(uid_gid))

ini = os.path.join(dest, "scenario.ini")
if devices and os.path.exists(ini) and "[devices]" not in open(ini).read():
    with open(ini, "a") as f:
        f.write("\n[devices]\n" + "".join("%s = %s\n" % kv for kv in sorted(devices.items())))
elif devices and not os.path.exists(ini):
    open(os.path.join(dest, ".devices"), "w").write(
        "".join("%s = %s\n" % kv for kv in sorted(devices.items())))
print("captured into %s" % dest)
PY
if [ ! -f "$dest/scenario.ini" ]; then
	{
		printf '[scenario]\ndescription = captured from %s\nsource = tests/tools/capture-fixture.sh on %s\nargs = --no-vendor\n\n[env]\n' \
			"$(cat "$sysroot/proc/sys/kernel/osrelease" 2>/dev/null || uname -r)" "$(date -u +%Y-%m-%d)"
		# Only the variables gpuenv reads (the bundle's environment file, live runs only).
		# Under --sysroot the environment is empty (as gpuenv assumes without --env-file).
		[ ! -f "$tmp/unpacked/environment" ] || cat "$tmp/unpacked/environment"
		if [ -f "$dest/.devices" ]; then
			printf '\n[devices]\n'
			cat "$dest/.devices"
		fi
	} >"$dest/scenario.ini"
	rm -f "$dest/.devices"
fi
[ -z "$report" ] || cp "$tmp/report.json" "$report"
