/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The snapshot tree's node layout, shared by snapshot.c and snapshot-json.c only. */
#pragma once

#include "snapshot.h"

struct snap_node {
	enum snap_kind kind;
	char *key;
	struct gpuenv_snapshot *owner;
	/* objects (sorted by key) and arrays */
	struct snap_node **child;
	size_t n_child, alloc_child;
	/* facts */
	enum fact_state state;
	enum snap_type type;
	char *str;
	int64_t i;
	bool b;
	char *source, *error, *raw;
};

/* The public struct gpuenv_snapshot (include/gpuenv/gpuenv.h), defined here. */
struct gpuenv_snapshot {
	unsigned refcount;
	int err;
	struct snap_node *root;
};

struct snap_node *node_new(struct gpuenv_snapshot *owner, enum snap_kind kind, const char *key);
void node_free(struct snap_node *n);
bool add_child(struct snap_node *parent, struct snap_node *c, size_t at);
