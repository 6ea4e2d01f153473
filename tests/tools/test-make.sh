#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's `make` commands: `make run ARGS="report --json" > f` leaves valid JSON in f
# (the build's own chatter goes to stderr), and under CI the compile applies -Dwerror=true to
# a build directory that already exists (one set up earlier without CI keeps no -Werror
# otherwise, since `meson setup` runs only once).
set -u
src=$1
build=$2
if ! command -v make >/dev/null; then
	echo "SKIP: make is not installed"
	exit 77
fi
# A make above this one (`make test`) exports its level and flags: this run must look like a
# user's own `make run` at a shell, which prints no "Entering directory" lines.
unset MAKELEVEL MAKEFLAGS MFLAGS CI
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$src" || exit 1
# The suite's own build directory is complete, so the compile step has nothing to do.
if make run BUILD="$build" ARGS="report --json --no-vendor --stable" >"$out"; then
	if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out"; then
		echo "ok: make run ARGS=\"report --json\" > f gives valid JSON"
	else
		echo "FAIL: make run ARGS=\"report --json\" wrote more than JSON to stdout:"
		head -5 "$out"
		fail=1
	fi
else
	echo "FAIL: make run ARGS=\"report --json\" failed"
	fail=1
fi
# Dry run (nothing is executed): the CI compile of an existing directory sets -Dwerror=true.
if CI=true make -n build BUILD="$build" | grep -q -- "meson configure $build -Dwerror=true"; then
	echo "ok: CI=true make applies -Dwerror=true to an existing build directory"
else
	echo "FAIL: CI=true make does not apply -Dwerror=true to the existing $build"
	fail=1
fi
exit $fail
