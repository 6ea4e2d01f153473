#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# curl checksrc in spirit: the machine is read only through src/core/ (root.c, env.c, host.c, child.c)
# and vendor libraries are loaded only in src/vendor/dl.c. Fails on a raw call elsewhere in src/.
set -eu
src="${1:-$(dirname "$0")/../../src}"
pattern='(^|[^_a-z.>])(open|openat|openat2|fopen|opendir|stat|lstat|fstatat|access|readlink|readlinkat|realpath|getenv|secure_getenv|uname|dlopen)[[:space:]]*\('
bad=$(grep -rnE "$pattern" "$src" --include='*.c' --include='*.h' |
	grep -vE '^[^:]*src/core/(root|env|host|child)\.c:' |
	grep -vE '^[^:]*src/vendor/dl\.c:' |
	grep -vE ':[0-9]+:[[:space:]]*(\*|/\*|//)' || true)
if [ -n "$bad" ]; then
	echo "raw OS access outside src/core/ and src/vendor/dl.c:"
	echo "$bad"
	exit 1
fi
echo "check-banned: ok"
