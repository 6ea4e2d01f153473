#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dependencies point one way (docs/design.md §2): fails when a file includes a header of a layer
# it may not use, e.g. rules/ reaching into core/. The public header gpuenv/gpuenv.h is
# allowed everywhere; tools/ may use only it and shared/.
set -eu
top="${1:-$(dirname "$0")/../..}"
allowed() {
	case $1 in
	shared) echo "shared" ;;
	core | formats) echo "shared $1" ;;
	vendor) echo "shared core vendor" ;;
	fatbin | facts | snapshot) echo "shared $1" ;;
	probe) echo "shared core vendor formats fatbin facts snapshot probe" ;;
	rules) echo "shared facts snapshot rules" ;;
	output) echo "shared facts snapshot rules output" ;;
	scan) echo "shared core vendor formats fatbin facts snapshot scan" ;;
	tools) echo "shared" ;;
	*) echo "shared core vendor formats fatbin facts snapshot probe rules output scan" ;;
	esac
}
fail=0
for f in $(cd "$top" && find src tools -name '*.[ch]'); do
	case $f in
	src/*/*) layer=$(echo "$f" | cut -d/ -f2) ;;
	tools/*) layer=tools ;;
	*) layer=top ;;
	esac
	ok=$(allowed "$layer")
	for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$top/$f" | sort -u); do
		[ "$inc" = gpuenv ] && continue
		case " $ok " in
		*" $inc "*) ;;
		*) echo "$f: layer $layer may not include $inc/"; fail=1 ;;
		esac
	done
done
[ $fail = 0 ] && echo "check-layers: ok"
exit $fail
