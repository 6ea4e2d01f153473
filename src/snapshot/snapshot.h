/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The snapshot: what the probes saw, as a tree. Inner nodes are objects (named children,
 * serialised in sorted key order) and arrays (ordered). Leaves are facts, and every fact
 * carries its state (docs/design.md §4): unprobed / absent / present / unreadable / malformed /
 * unsupported / error, the source it came from (a path or a vendor call such as
 * "nvml:nvmlSystemGetDriverVersion"), the error text when it failed, and the raw text when
 * a parser refused it. "Could not tell" is therefore never "fine".
 *
 * Why a tree and not one C struct per layer: every probe owns a subtree (hardware.gpus[],
 * driver.nvidia.*, …) and adds keys without touching a shared header, the JSON codec is one
 * piece of generic code, and a state on every leaf comes for free. The keys are the schema,
 * documented in docs/snapshot-schema.md; rules read them through the typed getters below.
 *
 * Ownership: a snapshot owns all its nodes; getters return borrowed pointers valid until
 * the snapshot is freed. A snapshot is written by the probes, then treated as immutable.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/fact-state.h"
#include "shared/macro.h"

/* 2: a framework's distribution is dist_info/dist_name/dist_version (docs/snapshot-schema.md,
 * "Schema versions"); --from still reads 1. */
#define SNAPSHOT_SCHEMA_VERSION 2

enum snap_kind {
	SNAP_OBJECT,
	SNAP_ARRAY,
	SNAP_FACT,
};

enum snap_type {
	SNAP_TYPE_NONE, /* a fact with no value (any state other than present, or a bare flag) */
	SNAP_TYPE_STRING,
	SNAP_TYPE_INT,
	SNAP_TYPE_BOOL,
};

struct snap_node;
struct gpuenv_snapshot;

/* errno → state: ENOENT/ENOTDIR absent, EACCES/EPERM unreadable, EBADMSG/EINVAL/ERANGE malformed,
 * ENOTSUP/EOPNOTSUPP/EPROTONOSUPPORT unsupported, anything else error. */
enum fact_state fact_state_from_errno(int err);
/* The state of a test that could not be made (a path that exists, or not, could not be
 * looked at): fact_state_from_errno(), but error where that says absent (ENXIO, ENODEV). */
enum fact_state fact_state_from_test_errno(int err);

int snapshot_new(struct gpuenv_snapshot **ret);
struct gpuenv_snapshot *snapshot_ref(struct gpuenv_snapshot *s);
struct gpuenv_snapshot *snapshot_unref(struct gpuenv_snapshot *s);
static inline void snapshot_unrefp(struct gpuenv_snapshot **s)
{
	snapshot_unref(*s);
}
struct snap_node *snapshot_root(struct gpuenv_snapshot *s);
const struct snap_node *snapshot_root_const(const struct gpuenv_snapshot *s);
/* The first allocation failure while writing, if any (writers need not check each call). */
int snapshot_error(const struct gpuenv_snapshot *s);

/* ---- writing (probes) -------------------------------------------------------------
 * All writers return the node (or NULL on OOM, recorded in snapshot_error()). Writing a
 * key that exists replaces a fact, and returns the existing object/array.
 */
struct snap_node *snap_object(struct snap_node *parent, const char *key);
struct snap_node *snap_array(struct snap_node *parent, const char *key);
struct snap_node *snap_append_object(struct snap_node *array);
struct snap_node *snap_append_str(struct snap_node *array, const char *value, const char *source);

struct snap_node *snap_set_str(struct snap_node *obj, const char *key, const char *value,
			       const char *source);
struct snap_node *snap_set_strf(struct snap_node *obj, const char *key, const char *source,
				const char *fmt, ...) _printf_(4, 5);
struct snap_node *snap_set_int(struct snap_node *obj, const char *key, int64_t value,
			       const char *source);
struct snap_node *snap_set_bool(struct snap_node *obj, const char *key, bool value,
				const char *source);
/* snap_set_str() when value is not NULL, else an absent fact with the text why_absent. */
struct snap_node *snap_set_str_or_absent(struct snap_node *obj, const char *key, const char *value,
					 const char *source, const char *why_absent);
/* A fact in any state, with an optional error text. */
struct snap_node *snap_set_state(struct snap_node *obj, const char *key, enum fact_state state,
				 const char *source, const char *error);
/* A failed read: state from fact_state_from_errno(err), error text from strerror. */
struct snap_node *snap_set_errno(struct snap_node *obj, const char *key, int err,
				 const char *source);
/* A value a parser refused: state malformed, the raw text kept (first 256 bytes). */
struct snap_node *snap_set_malformed(struct snap_node *obj, const char *key, const char *raw,
				     const char *source, const char *why);
/* Attach or replace details on an existing fact. */
void snap_fact_set_error(struct snap_node *fact, const char *error);
void snap_fact_set_raw(struct snap_node *fact, const char *raw);

/* ---- reading (rules, renderers) -------------------------------------------------- */
enum snap_kind snap_kind(const struct snap_node *n);
/* Child by key (objects) — NULL when missing or n is not an object. */
const struct snap_node *snap_child(const struct snap_node *n, const char *key);
/* Dotted path from n: "driver.nvidia.version", array elements by index: "hardware.gpus.0.name". */
const struct snap_node *snap_get(const struct snap_node *n, const char *path);
size_t snap_count(const struct snap_node *n); /* children of an object or array */
const struct snap_node *snap_at(const struct snap_node *n,
				size_t i);	 /* i-th child (objects: sorted) */
const char *snap_key(const struct snap_node *n); /* key within its parent object, or NULL */

/* Fact accessors: a missing node reads as FACT_UNPROBED with no value. */
enum fact_state snap_state(const struct snap_node *n);
bool snap_present(const struct snap_node *n);
enum snap_type snap_type(const struct snap_node *n);
const char *snap_str(const struct snap_node *n);	/* present string, else NULL */
bool snap_int(const struct snap_node *n, int64_t *ret); /* present int */
bool snap_bool(const struct snap_node *n, bool *ret);	/* present bool */
const char *snap_source(const struct snap_node *n);
const char *snap_error(const struct snap_node *n);
const char *snap_raw(const struct snap_node *n);

/* Shorthands: snap_get + accessor. */
const char *snap_get_str(const struct snap_node *n, const char *path);
bool snap_get_int(const struct snap_node *n, const char *path, int64_t *ret);
bool snap_get_bool_default(const struct snap_node *n, const char *path, bool def);
enum fact_state snap_get_state(const struct snap_node *n, const char *path);

/* ---- JSON (snapshot-json.c) ------------------------------------------------------ */
enum {
	SNAP_JSON_STABLE = 1u << 0, /* omit "collection" (time, hostname, probe timings) */
	SNAP_JSON_COMPACT = 1u << 1,
	SNAP_JSON_REDACT = 1u << 2, /* identifying values replaced by "<redacted>" */
};
/* Is the fact at key `key` (inside a subtree named `section`) identifying? Used by every
 * renderer for --redact: UUIDs, serial numbers, host names, and environment values. */
bool snap_key_is_identifying(const char *section, const char *key);
/* Is a subtree of this name a copy of the judged process's environment? Its facts' sources
 * (a directory named by LD_LIBRARY_PATH …) are redacted too. */
bool snap_section_is_environment(const char *section);
int snapshot_to_json(const struct gpuenv_snapshot *s, unsigned flags, char **ret);
/* --redact for any JSON document: every string's home-directory user names replaced
 * (strbuf_put_home_redacted()). Object keys are kept. */
struct json_t;
int snap_json_redact_homes(struct json_t *j);
/* The largest snapshot text read: 16 MiB, many times what an 8-GPU machine's report writes. */
#define SNAPSHOT_JSON_MAX_BYTES ((size_t)16 << 20)
/* -EBADMSG for invalid JSON or a tree that breaks the schema rules; *ret_error explains.
 * -EFBIG for a text over SNAPSHOT_JSON_MAX_BYTES. Time O(n log n), memory O(len). */
int snapshot_from_json(const char *text, size_t len, struct gpuenv_snapshot **ret,
		       char **ret_error);
/* The snapshot of image with target's hardware, driver and host (but the image's os and
 * process) put in: the image as it would run on the target (snapshot-host.c). */
int snapshot_with_host(const struct gpuenv_snapshot *image, const struct gpuenv_snapshot *target,
		       struct gpuenv_snapshot **ret, char **ret_error);
/* The jansson value of a subtree (for embedding snapshots in other JSON documents). */
void *snapshot_node_to_jansson(const struct snap_node *n);
/* The members of the JSON object text (a subtree as snapshot_node_to_jansson() wrote it) into
 * obj, an object with no members yet: a replay of a subtree a capture kept (core/kept.c).
 * -EBADMSG with *ret_error (malloc'd) when it is not one, -EEXIST, -ENOMEM. */
int snapshot_node_load(struct gpuenv_snapshot *s, struct snap_node *obj, const char *text,
		       size_t len, char **ret_error);
