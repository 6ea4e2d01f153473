/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The environment overlay: every environment read in gpuenv goes through here, so a
 * fixture (or `--env-file`) supplies the environment of the machine being judged and
 * the host's own variables never leak into a --sysroot run.
 * Base: the process environment when live, empty under --sysroot. The env file overlays
 * it with docker's --env-file rules (docs.docker.com, "docker run --env-file"; the parser
 * is ParseKeyValueFile in github.com/docker/cli, opts/file.go): KEY=VALUE per line, white
 * space before it trimmed, '#' comment lines and blank lines ignored, the value taken
 * verbatim (no quote processing), a later line of the same KEY wins, and a bare KEY copies
 * that variable from the caller's environment (the process running gpuenv, also under
 * --sysroot: the file asked for it by name), skipped if unset. A key with white space in
 * it, or no key before '=', is an error.
 * Caps: a line of at most 64 KiB (docker reads lines with Go's bufio.Scanner, whose
 * MaxScanTokenSize is 64 KiB: docker refuses a longer line too), 100,000 lines and 16 MiB
 * in all (execve(2) takes at most 1/4 of the stack limit, 2 MiB by default, for a
 * process's arguments and environment together; the caps leave room for comments).
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#define ENV_FILE_MAX_LINE  65536u /* bytes of one line, its '\n' not counted */
#define ENV_FILE_MAX_LINES 100000u
#define ENV_FILE_MAX_BYTES ((size_t)16 << 20)

struct env;

/* Why an env file was refused: line 0 when the error is not about a line (I/O). */
struct env_file_error {
	unsigned line;
	const char *reason; /* static text ("a line longer than 65536 bytes"), or NULL */
};

int env_new(bool live, struct env **ret);
struct env *env_free(struct env *e);
/*
 * Overlays KEY=VALUE lines from a host file (a FIFO too). -EBADMSG on a bad line, -EFBIG
 * past a cap (both with *ret_err), -EISDIR for a directory, -errno when it cannot be read.
 * Linear: the lines are read once, sorted once and merged. Nothing is set on failure.
 */
int env_load_file(struct env *e, const char *host_path, struct env_file_error *ret_err);
/* The same from an open stream (the fuzz target's entry point). */
int env_load_stream(struct env *e, FILE *f, struct env_file_error *ret_err);
int env_set(struct env *e, const char *key, const char *value);
/* Borrowed value, or NULL when unset. */
const char *env_get(const struct env *e, const char *key);
/* All "KEY=VALUE" entries, sorted by key. Borrowed. */
char *const *env_list(const struct env *e);
