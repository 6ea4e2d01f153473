#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/gpuenv.1 stays true to --help: every command `gpuenv help` lists, every long option
# `gpuenv report|doctor|facts|scan --help` print, and every exit code `gpuenv help`
# lists appear in the man page; and groff formats it without warnings (when installed).
set -u
gpuenv=$1
man=$2
fail=0
has() { grep -qF -- "$1" "$man"; }
# Each list below is parsed from gpuenv's own output; an empty one means the parsing no longer
# matches the help text, and the checks over it would pass having checked nothing.
nonempty() { # WHAT LIST
	if [ -z "$2" ]; then echo "FAIL: no $1 parsed from gpuenv's help: the check would be empty"; fail=1; fi
}
cmds=$("$gpuenv" help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
nonempty commands "$cmds"
for cmd in $cmds; do
	if grep -qE "^\.BI? \"?$cmd( |\"|$)" "$man"; then echo "ok: command $cmd"; else echo "FAIL: command $cmd not in $man"; fail=1; fi
done
for c in report doctor explain facts scan exporter check; do
	opts=$("$gpuenv" $c --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	nonempty "$c options" "$opts"
	for opt in $opts; do
		esc=$(printf '%s' "$opt" | sed 's/-/\\-/g')
		if has "$esc"; then echo "ok: $c $opt"; else echo "FAIL: $c option $opt not in $man"; fail=1; fi
	done
done
codes=$("$gpuenv" help | sed -n '/^Exit codes:/,$s/^  \([0-9][0-9]*\) .*/\1/p')
nonempty "exit codes" "$codes"
for code in $codes; do
	if grep -qx ".B $code" "$man"; then echo "ok: exit code $code"; else echo "FAIL: exit code $code not in $man"; fail=1; fi
done
if command -v groff >/dev/null 2>&1; then
	warn=$(groff -man -ww -z "$man" 2>&1)
	if [ -n "$warn" ]; then echo "FAIL: groff warnings: $warn"; fail=1; else echo "ok: groff -man -ww"; fi
else
	echo "SKIP groff formatting: groff is not installed (scripts/install-deps.sh --test installs it)"
fi
exit $fail
