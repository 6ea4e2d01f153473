#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `meson install --destdir` puts the shell completions where each shell looks for them:
# bash-completion's completionsdir (its pkg-config variable, else
# PREFIX/share/bash-completion/completions), PREFIX/share/zsh/site-functions/_gpuenv and
# PREFIX/share/fish/vendor_completions.d/gpuenv.fish, with the contents of shell-completion/.
# Usage: test-install.sh SRCDIR BUILDDIR
set -u
src=$1
build=$2
meson=${MESON:-meson}
fail=0
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
# The suite's own build directory is complete: install what it holds, rebuild nothing.
if ! "$meson" install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$dest.log" 2>&1; then
	echo "FAIL: meson install --destdir failed:"
	cat "$dest.log"
	rm -f "$dest.log"
	exit 1
fi
rm -f "$dest.log"
opt() { "$meson" introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"; }
prefix=$(opt prefix)
datadir=$(opt datadir)
case $datadir in /*) ;; *) datadir=$prefix/$datadir ;; esac
bashdir=$(opt bashcompletiondir)
if [ -z "$bashdir" ]; then
	bashdir=$(pkg-config --define-variable=datadir="$datadir" --variable=completionsdir bash-completion 2>/dev/null)
	[ -n "$bashdir" ] || bashdir=$datadir/bash-completion/completions
fi
case $bashdir in /*) ;; *) bashdir=$prefix/$bashdir ;; esac
check() { # INSTALLED SOURCE
	if [ ! -f "$dest$1" ]; then
		echo "FAIL: $1 not installed"
		fail=1
	elif ! cmp -s "$dest$1" "$src/shell-completion/$2"; then
		echo "FAIL: $1 differs from shell-completion/$2"
		fail=1
	else
		echo "ok: $1"
	fi
}
check "$bashdir/gpuenv" bash/gpuenv
dir() { # OPTION DEFAULT: a completion directory, absolute
	d=$(opt "$1")
	[ -n "$d" ] || d=$2
	case $d in /*) echo "$d" ;; *) echo "$prefix/$d" ;; esac
}
check "$(dir zshcompletiondir "$datadir/zsh/site-functions")/_gpuenv" zsh/_gpuenv
check "$(dir fishcompletiondir "$datadir/fish/vendor_completions.d")/gpuenv.fish" fish/gpuenv.fish
exit $fail
