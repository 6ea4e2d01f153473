#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel module file of a --sysroot image is read inside the image, bounded (issue
# "hardening", items 1-2): a nvidia.ko that links out of the root must not show the host
# file's signer or version; a FIFO named nvidia.ko must not block report/doctor (--no-vendor
# or not); a compressed nvidia.ko that decompresses to 2 GiB must stop fast in bounded memory
# with a recorded reason. Modules are made by mk-kmodule.sh at test time.
# Usage: test-module-file.sh GPUENV
set -eu
gpuenv=$1
here=$(dirname "$0")
for t in objcopy openssl zstd mkfifo timeout; do
	if ! command -v "$t" >/dev/null; then
		echo "SKIP: $t not installed"
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rel=5.15.0-157-generic
root=$tmp/root
mods=$root/lib/modules/$rel/updates/dkms
mkdir -p "$root/proc/sys/kernel" "$mods"
echo "$rel" >"$root/proc/sys/kernel/osrelease"
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}
report() { timeout 60 "$gpuenv" report --sysroot "$root" --json --no-vendor; }

# 1. links out of the root. The image has its own file where an absolute link points, and
# the host has another one there (a module signed by a key the image knows nothing about, and
# a FIFO): the image's must be read, the host's never opened. A relative link climbing out
# with ../ stays at the image's root.
sh "$here/mk-kmodule.sh" "$tmp/host.ko" 999.1.1 "Host signing key" none "$tmp/keys"
mkfifo "$tmp/host.fifo"
mkdir -p "$root$tmp"
sh "$here/mk-kmodule.sh" "$root$tmp/host.ko" 550.54.15 - none
cp "$root$tmp/host.ko" "$root$tmp/host.fifo"
for target in "$tmp/host.ko" "$tmp/host.fifo" "../../../../../../../../../../../..$tmp/host.ko"; do
	ln -sfn "$target" "$mods/nvidia.ko"
	out=$(report) || bad "report blocked or failed for a link to $target"
	case $out in
	*"Host signing key"* | *999.1.1*) bad "the host's module was read through $target" ;;
	esac
	case $out in
	*'"version"'*550.54.15*) ;;
	*) bad "the image's own module was not read through $target" ;;
	esac
done
rm -f "$mods/nvidia.ko"

# 2. a FIFO in the image: refused unopened for reading; report and doctor return
mkfifo "$mods/nvidia.ko"
out=$(report) || bad "report blocked or failed on a FIFO nvidia.ko"
case $out in
*"not a regular file"*) ;;
*) bad "a FIFO nvidia.ko is not reported as \"not a regular file\"" ;;
esac
timeout 60 "$gpuenv" doctor --sysroot "$root" --no-vendor >/dev/null 2>&1 ||
	[ $? -le 3 ] || bad "doctor blocked or failed on a FIFO nvidia.ko"
rm -f "$mods/nvidia.ko"

# 3. a zstd bomb: a real module's first frame, then 512 frames of 4 MiB of zeros (2 GiB)
sh "$here/mk-kmodule.sh" "$tmp/m.ko" 550.54.15 - none
zstd -q -c "$tmp/m.ko" >"$mods/nvidia.ko.zst"
head -c 4194304 /dev/zero | zstd -q -c >"$tmp/zeros.zst"
i=0
while [ $i -lt 512 ]; do
	cat "$tmp/zeros.zst"
	i=$((i + 1))
done >>"$mods/nvidia.ko.zst"
start=$(date +%s)
if command -v /usr/bin/time >/dev/null; then
	out=$(/usr/bin/time -f '%M' -o "$tmp/rss" timeout 60 "$gpuenv" report --sysroot "$root" \
		--json --no-vendor) || bad "report failed on a zstd bomb"
	rss=$(tail -n 1 "$tmp/rss")
	[ "$rss" -lt 262144 ] || bad "report took $rss KiB on a 2 GiB zstd bomb"
else
	out=$(report) || bad "report failed on a zstd bomb"
	rss="?"
fi
secs=$(($(date +%s) - start))
[ $secs -lt 30 ] || bad "report took $secs s on a 2 GiB zstd bomb"
case $out in
*"follow the ELF image"*) ;;
*) bad "the zstd bomb is not reported with its reason" ;;
esac
echo "zstd bomb (2 GiB of output): ${secs} s, max RSS ${rss} KiB"

[ $fail = 0 ] && echo "module-file: ok"
exit $fail
