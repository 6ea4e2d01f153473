# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the CLI test scripts (sourced): check EXPECTED_RC STDERR_SUBSTRING CMD… runs CMD,
# compares its exit code and that its stderr contains the substring; sets fail=1 on mismatch.
fail=0
check() {
	want_rc=$1 want_msg=$2
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL: $*: exit $rc, want $want_rc ($err)"
		fail=1
	elif [ -n "$want_msg" ] && ! printf "%s" "$err" | grep -qF -- "$want_msg"; then
		echo "FAIL: $*: stderr '$err' lacks '$want_msg'"
		fail=1
	else
		echo "ok: $* exits $rc"
	fi
}
