/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The line prefixes log collectors put before each line of a program's output, taken off
 * pasted text (input hygiene, after pasted-input.c's cleaning) so that readers read the
 * program's own line: docker compose's "<service>-<n>  | " (or a compose file's container_name
 * in its place), kubectl logs --prefix's "[pod/<name>/<container>] ", the syslog/journalctl
 * short prefix of a program other than the kernel ("Dec 07 10:01:02 host ollama[1234]: "),
 * GitHub Actions' "2024-05-01T10:11:12.1234567Z "; and a `uname -a` line quoted in inline
 * backticks in prose. A prefix comes off only where the line before or after it carries one
 * of the same kind: never from a single ambiguous line. Only bytes inside lines are removed:
 * line N stays line N of the user's paste.
 */
#pragma once

#include <stddef.h>

/* Strips the prefixes of text[0..len) in place (NUL-terminated at the returned length). */
size_t pasted_prefixes_strip(char *text, size_t len);
