/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The assignments of a file a systemd service names with EnvironmentFile=, over (text, len)
 * with no I/O. systemd.exec(5): "a newline-separated list of variable assignments", "lines
 * beginning with ; or # will be ignored", "a line ending with a backslash will be
 * concatenated with the following one", and values may be enclosed in single or double quotes.
 * The exact reading is systemd's parse_env_file_internal() (src/basic/env-file.c), which
 * load_env_file() runs for the service's environment:
 * - blanks before a key, around "=" and after an unquoted value are dropped; a line without
 *   "=" sets nothing; a key keeps blanks inside it ("export X=1" has the key "export X",
 *   no variable name: the service never gets X);
 * - unquoted, a backslash keeps the next byte (a newline after it joins the lines);
 *   in single quotes every byte is kept; in double quotes a backslash keeps only one of
 *   "\"\\`$" (else both bytes stay) and joins lines; quoted and unquoted parts run together;
 * - the text ends at a NUL byte; a key or value that is not UTF-8 makes systemd refuse the
 *   whole file (check_utf8ness_and_warn()).
 * Fuzzed by tests/fuzz/fuzz-systemd-env-file.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One assignment: key and value NUL-terminated (valid UTF-8; the value may be empty), line
 * the 1-based line its key starts on. */
typedef void (*env_file_assign_fn)(void *userdata, const char *key, const char *value,
				   uint64_t line);

/* Calls assign for each assignment in order (a later one of the same key wins, as in
 * systemd); 0, -EBADMSG when systemd would refuse the file (assign may have been called for
 * the lines before), -ENOMEM. */
int env_file_parse(const char *text, size_t len, env_file_assign_fn assign, void *userdata);
