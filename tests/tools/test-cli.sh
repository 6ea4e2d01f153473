#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CLI behaviour: a live report runs; bad inputs give the documented exit code (66 for an
# unreadable input, 64 for usage) and a message naming the path and the reason.
set -u
gpuenv="$1"
. "$(dirname "$0")/lib-check.sh"
check 0 "" "$gpuenv" report
check 0 "" "$gpuenv" report --json
check 66 "/nonexistent-gpuenv: No such file or directory" "$gpuenv" report --sysroot /nonexistent-gpuenv
check 66 "--sysroot /etc/hostname: Not a directory" "$gpuenv" report --sysroot /etc/hostname
check 66 "--from /nonexistent.json: No such file or directory" "$gpuenv" report --from /nonexistent.json
tmp=$(mktemp)
echo '{"schema_version": 99}' >"$tmp"
check 66 "not a gpuenv snapshot" "$gpuenv" report --from "$tmp"
echo 'BAD LINE=1' >"$tmp"
check 66 "--env-file $tmp" "$gpuenv" report --env-file "$tmp"
rm -f "$tmp"
check 66 "--pci-ids /nonexistent.ids: No such file or directory" "$gpuenv" report --pci-ids /nonexistent.ids
check 64 "unknown command" "$gpuenv" frobnicate
check 64 "unexpected argument" "$gpuenv" report extra
# --redact hides environment values (and UUIDs, serials, host names) in both renderers.
for fmt in "" --json; do
	if GPUENV_SECRET_PROBE=1 CUDA_VISIBLE_DEVICES=secret-uuid-1234 "$gpuenv" report --redact $fmt | grep -q secret-uuid-1234; then
		echo "FAIL: report --redact $fmt shows an environment value"
		fail=1
	else
		echo "ok: report --redact $fmt"
	fi
done
exit $fail
