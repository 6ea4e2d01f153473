#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turns a live run into a fixture: runs `gpuenv report --trace-paths` on this machine and
# copies every path it read successfully into tests/fixtures/<name>/root/, keeping symlinks
# as symlinks (and copying what they point to), so `--sysroot` replays the same reads
# (util-linux tests/ts/lscpu/mk-input.sh, but exact). Review the copy before committing:
# it may contain host names, serial numbers and UUIDs.
# Usage: tests/tools/capture-fixture.sh GPUENV NAME [DEST_DIR]
set -eu
gpuenv=$1
name=$2
dest=${3:-$(dirname "$0")/../fixtures}/$name
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT
"$gpuenv" report --trace-paths "$trace" >/dev/null
mkdir -p "$dest/root"
copy() { # path inside / → same path under root/, links kept
	p=$1
	list=${2:-}
	[ -e "$p" ] || [ -L "$p" ] || return 0
	parent=$(dirname "$p")
	# POSIX sh has no local variables: recurse in subshells.
	[ "$parent" != / ] && (copy "$parent")
	if [ "$p" = /proc/self ] || [ "$p" = /proc/thread-self ]; then
		# gpuenv's own /proc entry: a plain directory in the fixture, not a link to our pid.
		mkdir -p "$dest/root$p"
	elif [ -L "$p" ]; then
		[ -L "$dest/root$p" ] || cp -P "$p" "$dest/root$p" 2>/dev/null || true
		target=$(readlink -f "$p") && [ -n "$target" ] && [ "$target" != "$p" ] && (copy "$target")
	elif [ -d "$p" ]; then
		mkdir -p "$dest/root$p"
		# A directory that was listed: keep its subdirectories and links (names are data,
		# e.g. /sys/devices/system/node/node0); files come when they were read themselves.
		if [ -n "$list" ]; then
			for e in "$p"/*; do
				if [ -L "$e" ]; then
					[ -L "$dest/root$e" ] || cp -P "$e" "$dest/root$e" 2>/dev/null || true
				elif [ -d "$e" ]; then
					mkdir -p "$dest/root$e"
				fi
			done
		fi
	elif [ -f "$p" ] && [ ! -e "$dest/root$p" ]; then
		# procfs/sysfs files report size 0: read them, do not cp --sparse.
		cat "$p" >"$dest/root$p" 2>/dev/null || rm -f "$dest/root$p"
	fi
}
awk -F '\t' '$1 == "ok" { print $2 }' "$trace" | sort -u | while read -r path; do
	copy "$path" list
done
if [ ! -f "$dest/scenario.ini" ]; then
	printf '[scenario]\ndescription = captured from %s\nsource = tests/tools/capture-fixture.sh on %s\nargs = --no-vendor\n\n[env]\n' \
		"$(uname -r)" "$(date -u +%Y-%m-%d)" >"$dest/scenario.ini"
	# Only the variables gpuenv reads for the GPU stack (probe-environment.c), never the rest.
	env | grep -E '^(PATH|LD_LIBRARY_PATH|LD_PRELOAD|CUDA_[A-Z_]*|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|HSA_OVERRIDE_GFX_VERSION|NVIDIA_[A-Z_]*|CONDA_PREFIX|VIRTUAL_ENV|XLA_FLAGS)=' >>"$dest/scenario.ini" || true
fi
echo "captured $(awk -F '\t' '$1 == "ok"' "$trace" | sort -u | wc -l) paths into $dest"
