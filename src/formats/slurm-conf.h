/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Slurm's configuration syntax (slurm.conf(5), gres.conf(5), cgroup.conf(5); the parser is
 * src/common/parse_config.c), over (text, len) with no I/O (parsing stops at an embedded NUL):
 * - "Key=Value" pairs separated by blanks, several on a line ("NodeName=gpu[01-04]
 *   Name=gpu File=/dev/nvidia[0-3]"); keys are case-insensitive; a value may be in double
 *   quotes (kept without them, blanks included).
 * - "#" starts a comment to the end of the line ("\#" is a literal '#'); a line ending in
 *   '\' continues on the next (its pairs are reported with the first line's number).
 * - "Include <file>" (a word without '=' then the file) includes a file; the reader reports
 *   it as the key "Include" and leaves it to the caller, who may read it.
 * - Host and device lists: comma-separated names, each with at most one bracketed range list
 *   ("/dev/nvidia[0-3]", "gpu[01-04,07]": numbers keep the first bound's zero padding).
 * Fuzzed by tests/fuzz/fuzz-slurm-conf.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLURM_CONF_NAME_MAX   128u /* one expanded host or device name, with its NUL */
#define SLURM_CONF_EXPAND_MAX 256u /* names one list may expand to */

/* One pair: key and value point into the text (the value without its quotes); line is the
 * 1-based line its logical line starts on, index the pair's place on that logical line (0:
 * the first, whose key names what the line is: NodeName=, Name=, AutoDetect= …). Returns
 * false to stop the parse. */
typedef bool (*slurm_conf_pair_fn)(void *data, uint64_t line, size_t index, const char *key,
				   size_t key_len, const char *value, size_t value_len);

/* Calls fn for each pair of the text in order; returns how many logical lines held a pair. */
uint64_t slurm_conf_parse(const char *text, size_t len, slurm_conf_pair_fn fn, void *data);

/* The key, compared as Slurm does (ASCII case-insensitive). */
bool slurm_conf_key_is(const char *key, size_t key_len, const char *name);

/* Expands a host or device list into out[0..*n): 0, -E2BIG when it names more than max (the
 * first max are written), -EINVAL for a malformed list (an unclosed or nested bracket, a
 * range whose end is below its start, a name longer than SLURM_CONF_NAME_MAX - 1, a second
 * bracket in one name). */
int slurm_conf_expand(const char *list, size_t len, char (*out)[SLURM_CONF_NAME_MAX], size_t max,
		      size_t *n);
