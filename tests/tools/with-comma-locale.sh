#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a test program with LC_NUMERIC in a locale whose decimal point is a comma (de_DE.UTF-8, built here
# with localedef into a temporary LOCPATH, so nothing is installed): the library must parse
# "2.5" the same there, as a program that calls setlocale(LC_ALL, "") would have it.
# GPUENV_TEST_COMMA_LOCALE=1 tells the program to fail unless the comma is in effect.
# Skips (77) where localedef or the de_DE source is missing (Debian: locales).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! out=$(localedef -c -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" 2>&1) ||
	[ ! -e "$tmp/de_DE.UTF-8/LC_NUMERIC" ]; then
	echo "SKIP: cannot build the de_DE.UTF-8 locale (Debian: locales): $out"
	exit 77
fi
# Only the numbers: messages stay C (strerror() would be German where glibc's catalogues are).
unset LC_ALL
LOCPATH=$tmp LANG=C.UTF-8 LC_NUMERIC=de_DE.UTF-8 GPUENV_TEST_COMMA_LOCALE=1 exec "$@"
