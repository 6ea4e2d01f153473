# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the checkers' self-tests (test-check-*.sh): expect WANT WHAT PATTERN CMD… runs
# CMD and fails the self-test (fail=1) unless it exits WANT and, when PATTERN is not empty,
# its output matches PATTERN; prints "ok: WHAT" or "FAIL: WHAT" with the output.
fail=0
expect() {
	want=$1 what=$2 pat=$3
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || { [ -n "$pat" ] && ! printf '%s\n' "$out" | grep -q -- "$pat"; }; then
		echo "FAIL: $what: exit $rc (want $want${pat:+, output matching '$pat'}): $out"
		fail=1
	else
		echo "ok: $what: exit $rc"
	fi
}
