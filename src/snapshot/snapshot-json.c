// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Snapshot ⇄ JSON with jansson. Layout (docs/snapshot-schema.md):
 *   { "schema_version": 2, "<layer>": { … }, … }
 * an object node is a JSON object, an array node a JSON array, and a fact is the object
 *   { "state": "present", "value": …, "source": "…", "error": "…", "raw": "…" }
 * with only "state" required. A fact is told from an object node by its "state" member
 * being a string (an object node's child named "state" is itself an object).
 * Keys are written sorted (JSON_SORT_KEYS) so output is byte-stable.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/utf8.h"
#include "snapshot-internal.h"

#define SNAP_JSON_MAX_DEPTH 64
/* The JSON tree and the snapshot built from it cost a multiple of the text (a jansson
 * hashtable per fact object): a cap on the text caps the memory. */
#define SNAP_JSON_MAX_BYTES SNAPSHOT_JSON_MAX_BYTES

bool snap_section_is_environment(const char *section)
{
	/* The judged process's variables, and the loader's copy of LD_LIBRARY_PATH. */
	static const char *const sections[] = { "environment", "requested", "ld_library_path" };

	for (size_t i = 0; section && i < ARRAY_SIZE(sections); i++)
		if (strcmp(section, sections[i]) == 0)
			return true;
	return false;
}

bool snap_key_is_identifying(const char *section, const char *key)
{
	static const char *const words[] = { "uuid", "serial", "hostname" };

	if (snap_section_is_environment(section))
		return true;
	/* A fact in an array has no key: its array's name decides ("device_uuids"). */
	if (!key)
		key = section;
	for (size_t i = 0; key && i < ARRAY_SIZE(words); i++)
		if (strstr(key, words[i]))
			return true;
	return false;
}

/* o[key] = text. Text that is not UTF-8 (a file name, a version file, a parser's raw input)
 * is written with each bad byte as U+FFFD, and its bytes as hex in "<key>_hex", which the
 * loader prefers: the JSON stays valid and --from gives back the same bytes. -1 on OOM. */
static int set_text(json_t *o, const char *key, const char *text)
{
	size_t len = strlen(text);
	char *fixed, *hex, hkey[32];
	int r;

	if (utf8_valid(text, len))
		return json_object_set_new(o, key, json_string(text));
	fixed = utf8_make_valid(text, len);
	hex = hex_encode(text, len);
	snprintf(hkey, sizeof(hkey), "%s_hex", key);
	r = fixed && hex ? json_object_set_new(o, key, json_string(fixed)) |
				   json_object_set_new(o, hkey, json_string(hex))
			 : -1;
	free(fixed);
	free(hex);
	return r;
}

static json_t *fact_to_json(const struct snap_node *n, bool redact, bool redact_source)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	int r = json_object_set_new(o, "state", json_string(fact_state_to_string(n->state)));

	if (redact && n->type != SNAP_TYPE_NONE) {
		r |= json_object_set_new(o, "value", json_string("<redacted>"));
		if (n->source)
			r |= set_text(o, "source", redact_source ? "<redacted>" : n->source);
		goto done;
	}
	switch (n->type) {
	case SNAP_TYPE_STRING:
		r |= set_text(o, "value", n->str);
		break;
	case SNAP_TYPE_INT:
		r |= json_object_set_new(o, "value", json_integer(n->i));
		break;
	case SNAP_TYPE_BOOL:
		r |= json_object_set_new(o, "value", json_boolean(n->b));
		break;
	case SNAP_TYPE_NONE:
		break;
	}
	if (n->source)
		r |= set_text(o, "source", redact_source ? "<redacted>" : n->source);
	if (n->error)
		r |= set_text(o, "error", n->error);
	if (n->raw)
		r |= set_text(o, "raw", n->raw);
done:
	/* A member that could not be added (OOM) must not leave a fact without its value. */
	if (r) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *node_to_json(const struct snap_node *n, unsigned flags, bool top,
			    const char *section)
{
	bool stable = flags & SNAP_JSON_STABLE;
	json_t *j;
	int r;

	if (n->kind == SNAP_FACT)
		return fact_to_json(
			n, (flags & SNAP_JSON_REDACT) && snap_key_is_identifying(section, n->key),
			(flags & SNAP_JSON_REDACT) && snap_section_is_environment(section));
	j = n->kind == SNAP_OBJECT ? json_object() : json_array();
	if (!j)
		return NULL;
	for (size_t i = 0; i < n->n_child; i++) {
		const struct snap_node *c = n->child[i];
		json_t *cj;

		/* "collection" holds time, host name and timings: not in stable output. */
		if (top && stable && strcmp(c->key, "collection") == 0)
			continue;
		cj = node_to_json(c, flags, false,
				  c->kind == SNAP_FACT ? section : (c->key ? c->key : section));
		if (!cj) {
			json_decref(j);
			return NULL;
		}
		if (n->kind == SNAP_OBJECT && utf8_valid(c->key, strlen(c->key))) {
			r = json_object_set_new(j, c->key, cj);
		} else if (n->kind == SNAP_OBJECT) {
			/* A key from the input (a variable's name): valid, lossy. */
			char *k = utf8_make_valid(c->key, strlen(c->key));

			r = k ? json_object_set_new(j, k, cj) : (json_decref(cj), -1);
			free(k);
		} else {
			r = json_array_append_new(j, cj);
		}
		if (r) {
			json_decref(j);
			return NULL;
		}
	}
	return j;
}

void *snapshot_node_to_jansson(const struct snap_node *n)
{
	return node_to_json(n, SNAP_JSON_STABLE, false, NULL);
}

int snap_json_redact_homes(json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			if (snap_json_redact_homes(v) < 0)
				return -ENOMEM;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (snap_json_redact_homes(v) < 0)
				return -ENOMEM;
	} else if (json_is_string(j)) {
		struct strbuf sb = STRBUF_INIT;
		int r = strbuf_put_home_redacted(&sb, json_string_value(j));

		if (r == 0 && !streq(strbuf_str(&sb), json_string_value(j)))
			r = json_string_set(j, strbuf_str(&sb)) < 0 ? -ENOMEM : 0;
		strbuf_done(&sb);
		return r;
	}
	return 0;
}

int snapshot_to_json(const struct gpuenv_snapshot *s, unsigned flags, char **ret)
{
	json_t *j = node_to_json(s->root, flags, true, NULL);
	char *text;

	if (!j)
		return -ENOMEM;
	if ((flags & SNAP_JSON_REDACT) && snap_json_redact_homes(j) < 0) {
		json_decref(j);
		return -ENOMEM;
	}
	json_object_set_new(j, "schema_version", json_integer(SNAPSHOT_SCHEMA_VERSION));
	text = json_dumps(j, JSON_SORT_KEYS |
				     ((flags & SNAP_JSON_COMPACT) ? JSON_COMPACT : JSON_INDENT(2)));
	json_decref(j);
	if (!text)
		return -ENOMEM;
	*ret = text;
	return 0;
}

/* ---- loading ---- */

struct load {
	struct gpuenv_snapshot *s;
	char err[256];
};

static int load_fail(struct load *l, const char *where, const char *what)
{
	if (!l->err[0])
		snprintf(l->err, sizeof(l->err), "%s: %s", where[0] ? where : "(top)", what);
	return -EBADMSG;
}

static bool is_fact(json_t *o)
{
	return json_is_object(o) && json_is_string(json_object_get(o, "state"));
}

/* "<member>_hex": the member's bytes where they are not UTF-8 (set_text()); they replace
 * the U+FFFD form, which must be there too. */
static int load_hex(struct load *l, struct snap_node *f, json_t *o, const char *where)
{
	static const char *const members[] = { "value", "source", "error", "raw" };

	for (size_t i = 0; i < ARRAY_SIZE(members); i++) {
		char **dst = i == 0 ? &f->str : i == 1 ? &f->source : i == 2 ? &f->error : &f->raw;
		char key[32], *bytes;
		json_t *h;
		int r;

		snprintf(key, sizeof(key), "%s_hex", members[i]);
		h = json_object_get(o, key);
		if (!h)
			continue;
		if (!json_is_string(h) || !*dst || (i == 0 && f->type != SNAP_TYPE_STRING))
			return load_fail(l, where, "a _hex member without its string member");
		r = hex_decode_text(json_string_value(h), &bytes);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			return load_fail(l, where, "a _hex member that is not hex of text");
		free(*dst);
		*dst = bytes;
	}
	return 0;
}

static int load_fact(struct load *l, struct snap_node *f, json_t *o, const char *where)
{
	const char *k;
	json_t *v;
	int st = fact_state_from_string(json_string_value(json_object_get(o, "state")));

	if (st < 0)
		return load_fail(l, where, "unknown fact state");
	f->state = (enum fact_state)st;
	json_object_foreach(o, k, v) {
		if (strcmp(k, "state") == 0 || strcmp(k, "value_hex") == 0 ||
		    strcmp(k, "source_hex") == 0 || strcmp(k, "error_hex") == 0 ||
		    strcmp(k, "raw_hex") == 0)
			continue;
		if (strcmp(k, "value") == 0) {
			if (json_is_string(v)) {
				f->type = SNAP_TYPE_STRING;
				f->str = strdup(json_string_value(v));
				if (!f->str)
					return -ENOMEM;
			} else if (json_is_integer(v)) {
				f->type = SNAP_TYPE_INT;
				f->i = json_integer_value(v);
			} else if (json_is_boolean(v)) {
				f->type = SNAP_TYPE_BOOL;
				f->b = json_is_true(v);
			} else if (!json_is_null(v)) {
				return load_fail(l, where,
						 "fact value must be a string, integer or boolean");
			}
			continue;
		}
		{
			char **dst = strcmp(k, "source") == 0  ? &f->source
				     : strcmp(k, "error") == 0 ? &f->error
				     : strcmp(k, "raw") == 0   ? &f->raw
							       : NULL;
			if (!dst)
				return load_fail(l, where, "unknown member in a fact");
			if (!json_is_string(v))
				return load_fail(l, where, "fact member must be a string");
			*dst = strdup(json_string_value(v));
			if (!*dst)
				return -ENOMEM;
		}
	}
	return load_hex(l, f, o, where);
}

static int load_node(struct load *l, struct snap_node *n, json_t *j, const char *where,
		     unsigned depth);

static int load_child(struct load *l, struct snap_node *parent, const char *key, json_t *v,
		      const char *where, unsigned depth)
{
	struct snap_node *c;
	enum snap_kind kind;

	if (is_fact(v))
		kind = SNAP_FACT;
	else if (json_is_object(v))
		kind = SNAP_OBJECT;
	else if (json_is_array(v))
		kind = SNAP_ARRAY;
	else
		return load_fail(l, where, "a leaf must be a fact object");
	c = node_new(l->s, kind, key);
	if (!c)
		return -ENOMEM;
	/* Appended in jansson's order; an object's children are sorted once, at its end. */
	if (!add_child(parent, c, parent->n_child)) {
		node_free(c);
		return -ENOMEM;
	}
	return kind == SNAP_FACT ? load_fact(l, c, v, where) : load_node(l, c, v, where, depth + 1);
}

static int child_key_cmp(const void *a, const void *b)
{
	return strcmp((*(struct snap_node *const *)a)->key, (*(struct snap_node *const *)b)->key);
}

/*
 * Each member is converted, then dropped from the jansson tree, so the snapshot grows into the
 * memory the JSON tree gives back (peak: the JSON tree, not the JSON tree plus the snapshot).
 * An object's children are sorted once (O(n log n)): inserting each in place cost a memmove
 * of the array per key, O(n^2) for keys that jansson yields in reverse order.
 */
static int load_node(struct load *l, struct snap_node *n, json_t *j, const char *where,
		     unsigned depth)
{
	char path[512];
	int r;

	if (depth > SNAP_JSON_MAX_DEPTH)
		return load_fail(l, where, "nested too deeply");
	if (json_is_object(j)) {
		const char *k;
		json_t *v;
		void *tmp;

		json_object_foreach_safe(j, tmp, k, v) {
			if (depth == 0 && strcmp(k, "schema_version") == 0)
				continue;
			snprintf(path, sizeof(path), "%s%s%s", where, where[0] ? "." : "", k);
			r = load_child(l, n, k, v, path, depth);
			if (r < 0)
				return r;
			json_object_del(j, k);
		}
		if (n->n_child > 1)
			qsort(n->child, n->n_child, sizeof(*n->child), child_key_cmp);
		/* jansson refuses duplicate keys (JSON_REJECT_DUPLICATES); a sorted object
		 * must still never hold two. */
		for (size_t i = 1; i < n->n_child; i++)
			if (strcmp(n->child[i - 1]->key, n->child[i]->key) == 0)
				return load_fail(l, where, "duplicate key");
		return 0;
	}
	{
		size_t i;
		json_t *v;

		json_array_foreach(j, i, v) {
			snprintf(path, sizeof(path), "%s.%zu", where, i);
			r = load_child(l, n, NULL, v, path, depth);
			if (r < 0)
				return r;
			json_array_set_new(j, i, json_null());
		}
	}
	return 0;
}

int snapshot_node_load(struct gpuenv_snapshot *s, struct snap_node *obj, const char *text,
		       size_t len, char **ret_error)
{
	struct load l = { .s = s };
	json_error_t je;
	json_t *j;
	int r;

	*ret_error = NULL;
	if (!obj || obj->kind != SNAP_OBJECT || obj->n_child)
		return -EEXIST;
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!json_is_object(j)) {
		json_decref(j);
		*ret_error = strdup(j ? "not a JSON object" : je.text);
		return *ret_error ? -EBADMSG : -ENOMEM;
	}
	r = load_node(&l, obj, j, "", 1);
	json_decref(j);
	if (r == -EBADMSG && !(*ret_error = strdup(l.err)))
		return -ENOMEM;
	return r;
}

/* obj[from] renamed obj[to], unless obj is not an object, has no from, or already has to. */
static void rename_member(json_t *obj, const char *from, const char *to)
{
	json_t *v = json_object_get(obj, from);

	if (!v || json_object_get(obj, to))
		return;
	json_object_set(obj, to, v);
	json_object_del(obj, from);
}

/*
 * Schema 1 -> 2 (docs/snapshot-schema.md, "Schema versions"): a framework's own distribution
 * is dist_info/dist_name/dist_version in every packages.* entry. A snapshot of schema 1 names
 * TensorFlow's METADATA Version `version` and CuPy's dists[] members `name`/`version`; they are
 * renamed so that the rules read them. The keys schema 1 did not have (jax's and cupy's
 * dist_*, torch's dist_name) stay missing, which the rules treat as not probed.
 */
_Static_assert(SNAPSHOT_SCHEMA_VERSION == 2, "a new schema version needs its upgrade here");
static void upgrade_from_1(json_t *j)
{
	json_t *envs = json_object_get(json_object_get(j, "framework"), "python_envs"), *env;
	size_t i;

	json_array_foreach(envs, i, env) {
		json_t *pk = json_object_get(env, "packages"), *d;
		size_t k;

		rename_member(json_object_get(pk, "tensorflow"), "version", "dist_version");
		json_array_foreach(json_object_get(json_object_get(pk, "cupy"), "dists"), k, d) {
			rename_member(d, "name", "dist_name");
			rename_member(d, "version", "dist_version");
		}
	}
}

int snapshot_from_json(const char *text, size_t len, struct gpuenv_snapshot **ret, char **ret_error)
{
	struct load l = { 0 };
	json_error_t jerr;
	json_t *j, *ver;
	int r;

	if (len > SNAP_JSON_MAX_BYTES)
		return -EFBIG;
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!j) {
		if (ret_error && asprintf(ret_error, "line %d column %d: %s", jerr.line,
					  jerr.column, jerr.text) < 0)
			*ret_error = NULL;
		return -EBADMSG;
	}
	if (!json_is_object(j)) {
		r = load_fail(&l, "", "a snapshot is a JSON object");
		goto out;
	}
	ver = json_object_get(j, "schema_version");
	if (!json_is_integer(ver) || json_integer_value(ver) < 1 ||
	    json_integer_value(ver) > SNAPSHOT_SCHEMA_VERSION) {
		r = load_fail(&l, "schema_version",
			      "missing, or not a version this gpuenv reads (1 or 2)");
		r = -EPROTONOSUPPORT;
		goto out;
	}
	if (json_integer_value(ver) == 1)
		upgrade_from_1(j);
	r = snapshot_new(&l.s);
	if (r < 0)
		goto out;
	r = load_node(&l, l.s->root, j, "", 0);
out:
	json_decref(j);
	if (r < 0) {
		snapshot_unref(l.s);
		if (ret_error && l.err[0])
			*ret_error = strdup(l.err);
		return r;
	}
	*ret = l.s;
	return 0;
}
