#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/install-deps.sh keeps the README's promise for a user without root: it names every
# missing package (the build list, and with --test the test list too), says how to install
# them (apt-get as root, or sudo), exits 1, and never runs apt-get; with nothing missing it
# exits 0 quietly. dpkg-query, id and apt-get are stand-ins on PATH, so the test does not
# depend on what this machine has installed or on who runs it.
set -u
script="$1/scripts/install-deps.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
cat >"$tmp/bin/id" <<'X'
#!/bin/sh
echo 1000
X
# Every package is installed except those named in $MISSING.
cat >"$tmp/bin/dpkg-query" <<'X'
#!/bin/sh
for p; do :; done
case " $MISSING " in
*" $p "*) echo "dpkg-query: no packages found matching $p" >&2; exit 1 ;;
esac
printf 'install ok installed'
X
cat >"$tmp/bin/apt-get" <<'X'
#!/bin/sh
echo "apt-get must not run as a user" >&2
exit 99
X
chmod +x "$tmp/bin/"*
fail=0
run() { # expected-rc MISSING args…
	want=$1 missing=$2
	shift 2
	MISSING=$missing PATH="$tmp/bin:$PATH" sh "$script" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc != "$want" ]; then
		echo "FAIL: install-deps.sh $* with '$missing' missing exited $rc, not $want:"
		cat "$tmp/out"
		fail=1
	fi
}
run 0 ""
[ -s "$tmp/out" ] && { echo "FAIL: nothing missing, yet it printed:"; cat "$tmp/out"; fail=1; }
run 1 "make-believe-not-a-build-dep libelf-dev libzip-dev"
grep -q "missing Debian packages: libelf-dev libzip-dev$" "$tmp/out" ||
	{ echo "FAIL: build packages not named:"; cat "$tmp/out"; fail=1; }
grep -q "sudo apt-get install libelf-dev libzip-dev$" "$tmp/out" ||
	{ echo "FAIL: no sudo command given:"; cat "$tmp/out"; fail=1; }
run 0 "python3-jsonschema" # a test package only: the plain build does not need it
run 1 "python3-jsonschema meson" --test
grep -q "missing Debian packages: meson python3-jsonschema$" "$tmp/out" ||
	{ echo "FAIL: --test packages not named:"; cat "$tmp/out"; fail=1; }
# What the comma-locale runs and the completion check need is a test package too.
run 0 "locales zsh fish"
run 1 "locales zsh fish" --test
grep -q "missing Debian packages: locales zsh fish$" "$tmp/out" ||
	{ echo "FAIL: locales, zsh and fish not named by --test:"; cat "$tmp/out"; fail=1; }
grep -q "apt-get must not run" "$tmp/out" && { echo "FAIL: apt-get ran as a user"; fail=1; }
[ $fail = 0 ] && echo "install-deps: ok (names missing packages as a user, never runs apt-get)"
exit $fail
