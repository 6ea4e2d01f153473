#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes (once) the test signing key and certificate of one signer name in KEYDIR and prints
# their path without suffix (PATH.key, PATH.pem): RSA 2048, sha256, subject "/O=gpuenv
# tests/CN=<name>", self-signed, as certs/Makefile's x509.genkey and `dkms`/akmods' MOK keys
# are made. The serial number is derived from the name, so a key made again on another run
# (another KEYDIR) has the same issuer and serial: what a module signature names.
#
# Usage: mk-signing-key.sh KEYDIR SIGNER_CN
set -eu
keydir=$1
signer=$2
mkdir -p "$keydir"
key="$keydir/$(echo "$signer" | tr -c 'A-Za-z0-9\n' _)"
if [ ! -f "$key.pem" ]; then
	openssl req -new -nodes -utf8 -sha256 -days 36500 -batch -x509 \
		-set_serial "$(printf '%s' "$signer" | cksum | cut -d' ' -f1)" \
		-subj "/O=gpuenv tests/CN=$signer" -newkey rsa:2048 \
		-keyout "$key.key" -out "$key.pem" 2>/dev/null
fi
echo "$key"
