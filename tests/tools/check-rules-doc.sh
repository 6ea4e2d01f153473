#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/rules.md is the rule table rendered by `gpuenv doctor --list-rules --markdown`; fails
# with the diff when someone changed src/rules/rules.c or a rules-table-*.inc without regenerating it:
#   build/tools/gpuenv doctor --list-rules --markdown > docs/rules.md
set -u
gpuenv="$1" doc="$2"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$gpuenv" doctor --list-rules --markdown >"$tmp" || exit 1
if diff -u "$doc" "$tmp"; then
	echo "rules-doc: $doc is current"
	exit 0
fi
echo "FAIL: $doc is stale; regenerate it with: gpuenv doctor --list-rules --markdown > docs/rules.md"
exit 1
