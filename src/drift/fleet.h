/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `gpuenv fleet` (docs/fleet.md): many machines' snapshots streamed (formats/json-scan.h), and
 * per fact that matters only a fingerprint of each value seen: the value, how many machines
 * have it and the names of a few. Memory grows with the distinct values, not the machines.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "drift/drift.h"
#include "shared/strmap.h"

#define FLEET_EXAMPLES 3

/* A fact that matters across a fleet: its dotted path ("*" for any array index) and what the
 * output calls it. */
struct fleet_key {
	const char *path;
	const char *label;
};
extern const struct fleet_key fleet_keys[];
extern const size_t fleet_keys_len;

/* One value of a key (or one finding), as many machines have it. */
struct fleet_value {
	char *value;
	size_t machines;
	char *examples[FLEET_EXAMPLES];
};

struct fleet_tally {
	struct strmap index; /* value → position in values */
	struct fleet_value *values;
	size_t n_values, alloc_values;
};

struct fleet_unread {
	char *name, *why;
};

struct file_scan; /* fleet.c: the state of one document's scan, kept between documents */

struct gpuenv_fleet {
	struct fleet_tally *keys;		/* fleet_keys_len of them */
	struct fleet_tally findings;		/* value: rule id */
	enum gpuenv_severity *finding_severity; /* per findings.values[] */
	size_t alloc_severity;
	size_t machines;
	size_t verdicts[GPUENV_VERDICT_UNEVALUATED + 1];
	struct fleet_unread *unread;
	size_t n_unread, alloc_unread;
	struct file_scan *scan;
	int err;
};

int fleet_new(struct gpuenv_fleet **ret);
struct gpuenv_fleet *fleet_free(struct gpuenv_fleet *f);
/* One machine's `gpuenv report --json` or `gpuenv doctor --json` text. -EBADMSG (recorded as
 * not read, with why) for text that is neither, -ENOMEM. */
int fleet_add(struct gpuenv_fleet *f, const char *name, const char *text, size_t len);
int fleet_add_unread(struct gpuenv_fleet *f, const char *name, const char *why);
/* Keys with more than one value, plus findings of error severity, plus files not read. */
size_t fleet_problem_count(const struct gpuenv_fleet *f);
/* The value most machines have (ties: the smaller string). NULL when no machine. */
const struct fleet_value *fleet_majority(const struct fleet_tally *t);

int out_fleet_text(const struct gpuenv_fleet *f, unsigned flags, struct strbuf *sb);
int out_fleet_markdown(const struct gpuenv_fleet *f, unsigned flags, struct strbuf *sb);
int out_fleet_json(const struct gpuenv_fleet *f, unsigned flags, struct strbuf *sb);
