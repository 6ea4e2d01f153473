#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-banned.py on synthetic trees: each spelling of a banned use fails, naming its line;
# comments, strings, #include lines, struct members and the allowed files pass; an empty or
# missing directory fails (nothing would be checked).
set -u
checker=${1:?usage: test-check-banned.sh CHECK-BANNED.PY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/selftest.sh"
banned() { # rc dir what [pattern]
	expect "$1" "$3" "${4:-}" python3 "$checker" "$2"
}
one() { # what code [pattern]: fails when CODE is in src/probe/x.c
	rm -rf "$tmp/t" && mkdir -p "$tmp/t/probe"
	printf '#include <stdio.h>\nvoid f(void)\n{\n\t%s\n}\n' "$2" >"$tmp/t/probe/x.c"
	banned 1 "$tmp/t" "$1" "${3:-x.c:4:}"
}
one "fopen64 call" 'FILE *f = fopen64("/etc/passwd", "r");'
one "open through parentheses" 'int fd = (open)("/etc/passwd", 0);'
one "open's address" 'int (*o)(const char *, int, ...) = &open;'
one "open as a value" 'void *o = open;'
one "syscall" 'syscall(0);'
one "popen" 'popen("ls", "r");'
one "execvp" 'execvp("ls", argv);'
one "fork" 'pid_t p = fork();'
one "mmap" 'void *m = mmap(0, 4096, 1, 2, -1, 0);'
one "getenv" 'const char *h = getenv("HOME");'
one "dlopen" 'void *h = dlopen("libcuda.so.1", 2);'
one "struct stat is a tag, stat() is not" 'struct stat st; stat("/", &st);' 'stat (file)'
rm -rf "$tmp/t" && mkdir -p "$tmp/t/probe" "$tmp/t/core" "$tmp/t/vendor"
cat >"$tmp/t/probe/ok.c" <<'C'
#include <sys/stat.h>
/* open() and fork() in a comment */
// popen("x") too
struct s {
	int (*open)(void);
	int stat;
};
static const char *m = "call open(\"x\") and system(\"y\")";
int g(struct s *p, struct s q)
{
	struct stat st;
	return p->open() + q.stat + sizeof(st) + 'x';
}
C
printf 'int f(void)\n{\n\treturn fork();\n}\n' >"$tmp/t/core/child.c"
printf 'void *f(void)\n{\n\treturn dlopen("x", 1);\n}\n' >"$tmp/t/vendor/dl.c"
banned 0 "$tmp/t" "comments, strings, members, allowed files"
printf 'int f(void)\n{\n\treturn fork();\n}\n' >"$tmp/t/core/root.c"
banned 1 "$tmp/t" "fork in core/root.c (process calls are child.c's)" "core/root.c:3: fork"
rm -rf "$tmp/t" && mkdir -p "$tmp/t"
banned 1 "$tmp/t" "empty directory" "nothing would be checked"
banned 1 "$tmp/no-such" "missing directory" "nothing would be checked"
exit $fail
