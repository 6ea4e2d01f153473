/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A streaming JSON reader (RFC 8259) over (ptr, len) that builds no tree: it calls back for
 * every value with the path that leads to it, and the callback may skip a container it has no
 * use for. `gpuenv fleet` reads thousands of snapshots of a few hundred KB each and needs a
 * few dozen facts of each: a tree per file (jansson, then the snapshot) costs ~15 times the
 * text in memory and most of the time; skipping what is not asked for costs one pass over
 * its bytes (strings are skipped with memchr).
 *
 * What is checked: the grammar of every value the callback sees, including the members and
 * elements of containers it descends into; a skipped container is checked for balanced and
 * matching brackets and terminated strings only. Keys and string values are handed over raw
 * (escapes left as written); json_scan_unescape() decodes one.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Containers nested deeper than this are refused (-E2BIG): a snapshot is ~12 levels deep. */
#define JSON_SCAN_MAX_DEPTH 64

enum json_scan_event {
	JSON_SCAN_OBJECT, /* a container opens: return JSON_SCAN_SKIP to pass over it */
	JSON_SCAN_ARRAY,
	JSON_SCAN_END, /* the container at this path closes (not sent for a skipped one) */
	JSON_SCAN_STRING,
	JSON_SCAN_NUMBER,
	JSON_SCAN_TRUE,
	JSON_SCAN_FALSE,
	JSON_SCAN_NULL,
};

enum {
	JSON_SCAN_DESCEND = 0,
	JSON_SCAN_SKIP = 1,
};

/* One step of a path: a member's key (raw, not NUL-terminated) or, for key == NULL, an array
 * element's index. */
struct json_scan_seg {
	const char *key;
	size_t key_len;
	size_t index;
};

struct json_scan_item {
	enum json_scan_event event;
	const struct json_scan_seg *path; /* path[0..depth-1] leads from the root to the value */
	unsigned depth;			  /* 0: the root value */
	const char *value;		  /* strings: between the quotes, raw; numbers: the token */
	size_t value_len;
};

/* Returns JSON_SCAN_DESCEND or JSON_SCAN_SKIP (containers only), or a negative errno to stop
 * the scan, which json_scan() then returns. */
typedef int (*json_scan_fn)(void *userdata, const struct json_scan_item *item);

struct json_scan_error {
	size_t offset;	    /* byte offset of the problem */
	const char *reason; /* static text */
};

/* 0; -EBADMSG (not JSON: err says where and why), -E2BIG (nested deeper than
 * JSON_SCAN_MAX_DEPTH), or the callback's negative return. err may be NULL. */
int json_scan(const char *text, size_t len, json_scan_fn fn, void *userdata,
	      struct json_scan_error *err);

/* Decodes a raw string (escapes, \uXXXX with surrogate pairs, into UTF-8) into out, NUL-
 * terminated. -EBADMSG for a bad escape, an unpaired surrogate, \u0000 or a raw control
 * character; -ENOSPC when out (cap bytes) is too small. */
int json_scan_unescape(const char *raw, size_t len, char *out, size_t cap, size_t *ret_len);

/* True when the segment is the member key (ASCII, no escapes). */
static inline bool json_scan_seg_is(const struct json_scan_seg *s, const char *key, size_t len)
{
	return s->key && s->key_len == len && __builtin_memcmp(s->key, key, len) == 0;
}
