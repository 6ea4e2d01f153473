/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Schema checking over a libyaml document, shared by the YAML readers whose files a person
 * writes (the `gpuenv check` policy, the exporter's web configuration): load with the
 * event-stream caps of yaml-caps.h first, then walk the tree with a node budget, and say
 * what is wrong with the 1-based line of the offending node ("line 7: driver.branches: 'abc'
 * is not a driver branch"). Unknown keys are errors in these files, never ignored: a
 * misspelt key would otherwise silently drop what it meant to require. kube-endpoint.c looks
 * up one key of kubelet's and crictl's files with it (other keys are theirs, not checked).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "shared/macro.h"

struct yaml_error {
	unsigned line; /* 1-based; 0 when the error has no place (too large, not YAML) */
	char why[256];
};

struct yaml_walk {
	yaml_document_t doc;
	struct yaml_error *err;
	unsigned visits;
	unsigned max_nodes; /* nodes visited at most */
	unsigned max_items; /* entries of one list or mapping */
	unsigned max_text;  /* bytes of one scalar */
	const char *schema; /* "a policy key (docs/policy.md)": what an unknown key is not */
	bool allow_aliases; /* a format whose programs read aliases: each counts as a node */
};

/* Sets err (line, then the message) and returns r. */
int yaml_walk_err(struct yaml_walk *w, unsigned line, int r, const char *fmt, ...) _printf_(4, 5);

/*
 * Loads one YAML document of at most max_input bytes into w->doc: no NUL byte, the event
 * caps (depth, node count, one document, no alias unless allowed) checked before the tree is
 * built.
 * 0 with *ret_root the root node (NULL: an empty document); -E2BIG, -EBADMSG with w->err
 * set; -ENOMEM. On success the caller ends with yaml_walk_done().
 */
int yaml_walk_load(struct yaml_walk *w, const char *data, size_t len, size_t max_input,
		   unsigned max_depth, yaml_node_t **ret_root);
void yaml_walk_done(struct yaml_walk *w);

unsigned yaml_walk_line(const yaml_node_t *n);
/* The node at idx, or NULL once more than max_nodes were visited. */
yaml_node_t *yaml_walk_get(struct yaml_walk *w, int idx);
/* The scalar's text, or an error naming key and what the node was instead. */
int yaml_walk_scalar(struct yaml_walk *w, const yaml_node_t *n, const char *key, const char **ret);
/* A mapping or a list of at most max_items entries, or an error naming key. */
int yaml_walk_kind(struct yaml_walk *w, const yaml_node_t *n, yaml_node_type_t t, const char *key);
/* true/yes/on or false/no/off. */
int yaml_walk_bool(struct yaml_walk *w, const yaml_node_t *n, const char *key, bool *ret);
/* A mapping pair's key text and value node; section names the mapping in errors. */
int yaml_walk_pair(struct yaml_walk *w, const yaml_node_pair_t *p, const char *section,
		   const char **key, yaml_node_t **value);
/* The error for a key the schema does not have. */
int yaml_walk_unknown_key(struct yaml_walk *w, const yaml_node_t *v, const char *section,
			  const char *key);

/* for each pair of a mapping */
#define YAML_FOREACH_PAIR(p, map)                                                                  \
	for (yaml_node_pair_t *p = (map)->data.mapping.pairs.start;                                \
	     p < (map)->data.mapping.pairs.top; p++)
