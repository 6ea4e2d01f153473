/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small strict TOML reader for the two TOML files gpuenv reads:
 * /etc/nvidia-container-runtime/config.toml and /etc/containerd/config.toml.
 * Why not a library: Debian 12 main has no C TOML library (libtoml11 is C++, tomlc99 is
 * not packaged), and gpuenv reads a dozen keys. The grammar is TOML 1.0.0
 * (https://toml.io/en/v1.0.0) minus what the reader refuses with a reason; see toml-min.c.
 *
 * The document is a flat list of entries, each a full key path (table headers included,
 * inline tables flattened, array-of-tables elements as a "#N" segment) and a value.
 * Parsing takes (ptr, len), touches nothing else, and is capped (TOML_MAX_*).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOML_MAX_INPUT	   ((size_t)1 << 20) /* bytes */
#define TOML_MAX_ENTRIES   4096u	     /* keys + table headers */
#define TOML_MAX_VALUES	   16384u	     /* values, array items included */
#define TOML_MAX_DEPTH	   16u		     /* nested arrays / inline tables */
#define TOML_MAX_KEY_PARTS 32u		     /* segments of one key path */

enum toml_type {
	TOML_TABLE,	  /* a [table] header or an implicit one; no value */
	TOML_ARRAY_TABLE, /* a [[name]]: its elements are the tables name.#0, name.#1 … */
	TOML_STRING,
	TOML_INTEGER,
	TOML_FLOAT,
	TOML_BOOL,
	TOML_DATETIME,
	TOML_ARRAY,
	TOML_INLINE_TABLE, /* an inline table inside an array (its keys are not kept) */
};

struct toml_value {
	enum toml_type type;
	char *str;		  /* STRING: decoded text; FLOAT, DATETIME: the token as written */
	int64_t i;		  /* INTEGER */
	bool b;			  /* BOOL */
	struct toml_value *items; /* ARRAY */
	size_t n_items;
};

struct toml_entry {
	char **key; /* NULL-terminated segments */
	struct toml_value v;
	unsigned line;
};

struct toml_doc {
	struct toml_entry *entries;
	size_t n_entries;
};

struct toml_error {
	unsigned line; /* 1-based */
	const char *why;
};

/* 0, -EBADMSG (*ret_err says where and why), -E2BIG (a cap), -ENOMEM. */
int toml_parse(const char *data, size_t len, struct toml_doc **ret, struct toml_error *ret_err);
struct toml_doc *toml_free(struct toml_doc *d);
static inline void toml_freep(struct toml_doc **d)
{
	toml_free(*d);
}

/* The entry at exactly this key path (NULL-terminated segments), or NULL. */
const struct toml_value *toml_get(const struct toml_doc *d, const char *const *key);
/* The distinct names one level below prefix (tables and keys), in document order. */
int toml_children(const struct toml_doc *d, const char *const *prefix, char ***ret);
const char *toml_type_name(enum toml_type t);
