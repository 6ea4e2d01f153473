/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The variable assignments of a shell startup file (~/.bashrc, ~/.profile, /etc/profile …:
 * POSIX sh "Shell Command Language" 2.9.1 simple commands with only assignments, and "export
 * NAME=value", bash's "declare -x NAME=value"), or of pam_env's /etc/environment ("NAME=value"
 * lines, pam_env.conf(5)), over (text, len) with no I/O (parsing stops at an embedded NUL).
 * Only the names the caller asks for are kept, the last assignment of each name wins, as the
 * shell runs them top to bottom. The value is unquoted ('…' literally, "…" with \" \\ \$ \`
 * unescaped); one holding an expansion ($VAR, $(…), `…`) is kept as written and flagged, since
 * only the shell knows what it becomes. Conditionals and functions are not followed: a line
 * inside "if …; then" counts like any other. Fuzzed by tests/fuzz/fuzz-shell-profile.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHELL_ASSIGN_MAX       16u
#define SHELL_ASSIGN_NAME_MAX  64u
#define SHELL_ASSIGN_VALUE_MAX 256u

struct shell_assign {
	char name[SHELL_ASSIGN_NAME_MAX];
	char value[SHELL_ASSIGN_VALUE_MAX]; /* unquoted; truncated values are flagged */
	uint64_t line;			    /* 1-based */
	bool exported;	/* "export NAME=…", "declare -x", or /etc/environment */
	bool expands;	/* holds $ or ` outside single quotes */
	bool truncated; /* longer than SHELL_ASSIGN_VALUE_MAX - 1 */
};

struct shell_assigns {
	struct shell_assign a[SHELL_ASSIGN_MAX];
	size_t n;
};

/* Fills *ret (zeroed here) with the last assignment of each of names[] (NULL-terminated) in
 * text. all_exported: pam_env's /etc/environment, whose every line is exported. */
void shell_profile_parse(const char *text, size_t len, const char *const *names, bool all_exported,
			 struct shell_assigns *ret);
