/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The environment a systemd service starts with, from the text of its unit file and drop-ins,
 * over (text, len) with no I/O (parsing stops at an embedded NUL). Formats, from the man pages:
 * - systemd.syntax(7): "[Section]" headers, "Key=Value" lines, "#" and ";" comment lines, a
 *   line ending in a backslash joined to the next (the backslash becomes a blank; comment
 *   lines between are skipped);
 * - systemd.exec(5), [Service] Environment=: a blank-separated list of assignments, each may
 *   be quoted (double or single quotes, anywhere in the word) with C escapes; the same name
 *   again overrides it, an empty Environment= resets the list; an assignment whose name is no
 *   variable name is ignored, and a syntax error (an unclosed quote, an unknown escape) leaves
 *   the rest of the line out. "%%" stands for "%"; another specifier ("%h") expands at load
 *   time, so such a value is marked;
 * - EnvironmentFile=: one absolute path a line (a "-" before it: a missing file is skipped),
 *   an empty one resets the list, a relative one is ignored (config_parse_unit_env_file()).
 *   The paths are kept in order; the caller reads the files (systemd-env-file.h) and applies
 *   them after every Environment= line with unit_env_assign(): "Settings from these files
 *   override settings made with Environment=" (systemd.exec(5)).
 * - systemd.service(5), [Service] ExecStart=: the command line, kept as written (joined);
 *   an empty one resets the list, and more than one in force is refused unless Type=oneshot.
 *   unit_env_expand() replaces its variables as "Command lines" says: "${NAME}" anywhere,
 *   "$NAME" as a word of its own (split at blanks when run), "$$" a "$"; an unset one is empty.
 * A unit and its drop-ins are parsed in systemd's order into one struct unit_env: the last
 * assignment of a name wins. Fuzzed by tests/fuzz/fuzz-systemd-unit-env.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNIT_ENV_MAX	   64u	 /* variables kept */
#define UNIT_ENV_NAME_MAX  64u	 /* bytes of a name, NUL included; longer names are dropped */
#define UNIT_ENV_VALUE_MAX 2048u /* bytes of a value kept, NUL included (kubelet's flags) */
#define UNIT_LINE_MAX	   8192u /* bytes of a joined line read; a longer one is left out */
#define UNIT_ENV_FILES_MAX 8u	 /* EnvironmentFile= paths kept; further ones only counted */

struct unit_env_var {
	char name[UNIT_ENV_NAME_MAX];
	char value[UNIT_ENV_VALUE_MAX]; /* unquoted, unescaped; "%%" as "%" */
	bool truncated;			/* the value was longer: a prefix is kept */
	bool expands;			/* holds a specifier other than "%%" */
	unsigned file;			/* the caller's number of the file that set it last */
	uint64_t line;			/* 1-based: the line the assignment starts on */
};

struct unit_env_file {
	char path[UNIT_ENV_VALUE_MAX]; /* absolute, without the "-" */
	bool optional;		       /* "-": a missing file is skipped */
	bool unknown;		       /* longer than kept, or holds a specifier: not known */
	unsigned file;		       /* the caller's number of the unit file that names it */
	uint64_t line;
};

struct unit_env {
	struct unit_env_var v[UNIT_ENV_MAX];
	size_t n;
	uint64_t dropped;   /* assignments of further names past UNIT_ENV_MAX */
	uint64_t bad_lines; /* Environment= lines with a syntax error or too long */
	unsigned bad_file;  /* the last such line */
	uint64_t bad_line;
	uint64_t env_files; /* EnvironmentFile= settings in force (an empty one resets) */
	struct unit_env_file files[UNIT_ENV_FILES_MAX]; /* the first of them, in order */
	uint64_t execs;		  /* ExecStart= lines in force (an empty one resets) */
	char exec[UNIT_LINE_MAX]; /* the last of them, as written */
	unsigned exec_file;	  /* where it is */
	uint64_t exec_line;
};

/* Applies the [Service] Environment= and EnvironmentFile= lines of one file to *ret (which the
 * caller zeroes once), file being the number the caller gives it. */
void unit_env_parse(const char *text, size_t len, unsigned file, struct unit_env *ret);
/* One assignment of an EnvironmentFile= (no specifiers there): set as systemd sets it where
 * name is a variable name and value a valid one (strv_env_clean()), else left out. */
void unit_env_assign(struct unit_env *e, const char *name, const char *value, unsigned file,
		     uint64_t line);
/* The variable name, or NULL when no line sets it. */
const struct unit_env_var *unit_env_get(const struct unit_env *e, const char *name);
/* The command line cmd with e's variables replaced, into buf; used (unless NULL) is called for
 * each variable set that was replaced, with the bytes [at, end) of buf its value took.
 * 0, -E2BIG when the result does not fit in size (buf then holds a prefix). */
int unit_env_expand(const struct unit_env *e, const char *cmd, char *buf, size_t size,
		    void (*used)(void *userdata, const struct unit_env_var *v, size_t at,
				 size_t end),
		    void *userdata);
