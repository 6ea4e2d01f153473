#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/gpuenv.1 stays true to --help: every command `gpuenv help` lists, every long option
# `gpuenv report --help` and `gpuenv facts --help` print, and every exit code `gpuenv help`
# lists appear in the man page; and groff formats it without warnings (when installed).
set -u
gpuenv=$1
man=$2
fail=0
has() { grep -qF -- "$1" "$man"; }
for cmd in $("$gpuenv" help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	if grep -qE "^\.BI? \"?$cmd( |\"|$)" "$man"; then echo "ok: command $cmd"; else echo "FAIL: command $cmd not in $man"; fail=1; fi
done
for c in report facts; do
	for opt in $("$gpuenv" $c --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		esc=$(printf '%s' "$opt" | sed 's/-/\\-/g')
		if has "$esc"; then echo "ok: $c $opt"; else echo "FAIL: $c option $opt not in $man"; fail=1; fi
	done
done
for code in $("$gpuenv" help | sed -n '/^Exit codes:/,$s/^  \([0-9][0-9]*\) .*/\1/p'); do
	if grep -qx ".B $code" "$man"; then echo "ok: exit code $code"; else echo "FAIL: exit code $code not in $man"; fail=1; fi
done
if command -v groff >/dev/null 2>&1; then
	warn=$(groff -man -ww -z "$man" 2>&1)
	if [ -n "$warn" ]; then echo "FAIL: groff warnings: $warn"; fail=1; else echo "ok: groff -man -ww"; fi
else
	echo "# groff not installed: formatting not checked"
fi
exit $fail
