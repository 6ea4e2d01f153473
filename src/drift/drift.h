/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Drift (docs/fleet.md): what differs between two snapshots (`gpuenv diff`, diff.c) and across
 * a fleet of them (`gpuenv fleet`, fleet.c). The public structs gpuenv_diff and gpuenv_fleet
 * are defined here under their public names; src/libgpuenv-drift.c checks arguments.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "gpuenv/gpuenv.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

/* Why a difference is or is not drift. */
enum diff_class {
	DIFF_DRIFT = 0, /* the machines' stacks differ */
	DIFF_IDENTITY,	/* a key that names the machine: hostname, UUIDs, serials, bus ids */
	DIFF_READING,	/* a measurement that moves on its own: temperature, power, load */
	_DIFF_CLASS_MAX,
};

enum diff_change {
	DIFF_ADDED = 0,
	DIFF_REMOVED,
	DIFF_CHANGED,
};

struct diff_entry {
	char *path; /* "driver.nvidia.module_version" */
	enum diff_change change;
	enum diff_class class;
	char *a, *b; /* rendered values; NULL on the side where the key is missing */
};

struct diff_finding {
	const char *rule_id; /* static, the rule table's */
	enum gpuenv_severity severity;
	enum gpuenv_layer layer;
	char *subject; /* or NULL */
	char *message;
	bool appeared; /* true: only in B; false: only in A (went away) */
};

struct diff_side {
	char *name;
	enum gpuenv_verdict verdict;
	const char *root_cause; /* rule id or NULL */
};

struct gpuenv_diff {
	struct diff_side side[2];
	struct diff_entry *entries;
	size_t n_entries, alloc_entries;
	size_t n_class[_DIFF_CLASS_MAX];
	struct diff_finding *findings;
	size_t n_findings, alloc_findings;
	int err;
};

/* Compares a with b (and the rules' findings on each). */
int drift_diff(const char *name_a, struct gpuenv_snapshot *a, const char *name_b,
	       struct gpuenv_snapshot *b, struct gpuenv_diff **ret);
struct gpuenv_diff *drift_diff_free(struct gpuenv_diff *d);
/* Differences that count: drift entries and findings that appeared or went away. */
size_t drift_diff_count(const struct gpuenv_diff *d);
const char *diff_class_name(enum diff_class c);
const char *diff_change_name(enum diff_change c);
/* The class of a fact by its dotted path (diff.c; fleet's keys never include one). */
enum diff_class diff_classify(const char *path);

int out_diff_text(const struct gpuenv_diff *d, unsigned flags, struct strbuf *sb);
int out_diff_markdown(const struct gpuenv_diff *d, unsigned flags, struct strbuf *sb);
int out_diff_json(const struct gpuenv_diff *d, unsigned flags, struct strbuf *sb);
