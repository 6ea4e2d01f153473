#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes a stand-in kernel module for the tests (never committed: made at build/test time):
# a tiny ELF relocatable object (gcc -c) with a .modinfo section of "key=value\0" strings
# (include/linux/moduleparam.h __MODULE_INFO, as `modinfo` prints them), optionally signed
# the way scripts/sign-file.c signs it (a DER CMS SignedData, detached, no certificates, no
# signed attributes, then struct module_signature {0, 0, PKEY_ID_PKCS7, 0, 0, pad[3],
# be32 sig_len} and "~Module signature appended~\n", include/linux/module_signature.h),
# optionally compressed as scripts/Makefile.modinst compresses (xz --check=crc32
# --lzma2=dict=1MiB, zstd, gzip -n) after signing.
#
# Usage: mk-kmodule.sh OUT VERSION [SIGNER_CN|-] [none|xz|zstd|gzip] [KEYDIR] [RELEASE] [LICENSE]
#        [NAME] [FLAGS]
#   SIGNER_CN "-": unsigned. KEYDIR keeps the signing key between calls (mk-signing-key.sh:
#   the certificate's serial number is derived from SIGNER_CN, so `modinfo`'s sig_key is the
#   same on every run). RELEASE: the kernel release in vermagic (default 6.8.0-45-generic).
#   LICENSE: "NVIDIA" (the proprietary module, default) or "Dual MIT/GPL" (the open one).
#   NAME: the module's name= (default nvidia; the file's name may differ: DKMS renames files).
#   FLAGS: vermagic's words after the release (default "SMP mod_unload modversions"; the
#   kernel's include/linux/vermagic.h, each word followed by a space as it writes them).
set -eu
out=$1
version=$2
signer=${3:--}
comp=${4:-none}
keydir=${5:-}
release=${6:-6.8.0-45-generic}
license=${7:-NVIDIA}
name=${8:-nvidia}
flags=${9:-SMP mod_unload modversions}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The keys nvidia.ko's .modinfo holds, in modpost's order (vermagic last, as `modinfo` lists it).
printf 'version=%s\0license=%s\0alias=char-major-195-*\0supported=external\0alias=pci:v000010DEd*sv*sd*bc03sc02i00*\0alias=pci:v000010DEd*sv*sd*bc03sc00i00*\0depends=\0retpoline=Y\0srcversion=3A5B8C7D9E0F112233445566\0name=%s\0vermagic=%s %s \0' \
	"$version" "$license" "$name" "$release" "$flags" >"$tmp/modinfo"
echo 'int nv_stand_in;' >"$tmp/m.c"
gcc -c "$tmp/m.c" -o "$tmp/m.o"
objcopy --add-section .modinfo="$tmp/modinfo" --set-section-flags .modinfo=alloc,readonly,contents \
	"$tmp/m.o" "$tmp/m.ko"

if [ "$signer" != - ]; then
	[ -n "$keydir" ] || keydir=$tmp
	key=$(sh "$(dirname "$0")/mk-signing-key.sh" "$keydir" "$signer")
	openssl cms -sign -in "$tmp/m.ko" -signer "$key.pem" -inkey "$key.key" -binary \
		-noattr -nocerts -nosmimecap -md sha256 -outform DER -out "$tmp/sig"
	len=$(wc -c <"$tmp/sig")
	cat "$tmp/sig" >>"$tmp/m.ko"
	# struct module_signature: algo, hash, id_type = 2 (PKCS#7), signer_len, key_id_len,
	# __pad[3], __be32 sig_len
	printf '\000\000\002\000\000\000\000\000' >>"$tmp/m.ko"
	printf "\\$(printf %03o $((len >> 24 & 255)))\\$(printf %03o $((len >> 16 & 255)))\\$(printf %03o $((len >> 8 & 255)))\\$(printf %03o $((len & 255)))" >>"$tmp/m.ko"
	printf '~Module signature appended~\n' >>"$tmp/m.ko"
fi

case $comp in
none) cp "$tmp/m.ko" "$out" ;;
xz) xz --check=crc32 --lzma2=dict=1MiB -c "$tmp/m.ko" >"$out" ;;
zstd) zstd -q -c "$tmp/m.ko" >"$out" ;;
gzip) gzip -n -c "$tmp/m.ko" >"$out" ;;
*)
	echo "mk-kmodule.sh: unknown compression $comp" >&2
	exit 2
	;;
esac
