// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The snapshot tree: allocation, reference counting, writers and readers. See snapshot.h
 * for the model and docs/snapshot-schema.md for the keys.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/parse.h"
#include "snapshot-internal.h"

#define SNAP_RAW_MAX 256

enum fact_state fact_state_from_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return FACT_PRESENT;
	case ENOENT:
	case ENOTDIR:
	case ENXIO:
	case ENODEV:
		return FACT_ABSENT;
	case EACCES:
	case EPERM:
		return FACT_UNREADABLE;
	case EBADMSG:
	case EINVAL:
	case ERANGE:
	case EFBIG:
		return FACT_MALFORMED;
	case ENOTSUP:
	case EPROTONOSUPPORT:
		return FACT_UNSUPPORTED;
	default:
		return FACT_ERROR;
	}
}

enum fact_state fact_state_from_test_errno(int err)
{
	enum fact_state state = fact_state_from_errno(err);

	return state == FACT_ABSENT ? FACT_ERROR : state;
}

void node_free(struct snap_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n_child; i++)
		node_free(n->child[i]);
	free(n->child);
	free(n->key);
	free(n->str);
	free(n->source);
	free(n->error);
	free(n->raw);
	free(n);
}

struct snap_node *node_new(struct gpuenv_snapshot *owner, enum snap_kind kind, const char *key)
{
	struct snap_node *n = calloc(1, sizeof(*n));

	if (!n)
		goto oom;
	n->kind = kind;
	n->owner = owner;
	if (key) {
		n->key = strdup(key);
		if (!n->key)
			goto oom;
	}
	return n;
oom:
	free(n);
	if (owner && !owner->err)
		owner->err = -ENOMEM;
	return NULL;
}

int snapshot_new(struct gpuenv_snapshot **ret)
{
	struct gpuenv_snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->refcount = 1;
	s->root = node_new(s, SNAP_OBJECT, NULL);
	if (!s->root) {
		free(s);
		return -ENOMEM;
	}
	*ret = s;
	return 0;
}

struct gpuenv_snapshot *snapshot_ref(struct gpuenv_snapshot *s)
{
	if (s)
		s->refcount++;
	return s;
}

struct gpuenv_snapshot *snapshot_unref(struct gpuenv_snapshot *s)
{
	if (!s || --s->refcount > 0)
		return NULL;
	node_free(s->root);
	free(s);
	return NULL;
}

struct snap_node *snapshot_root(struct gpuenv_snapshot *s)
{
	return s->root;
}

const struct snap_node *snapshot_root_const(const struct gpuenv_snapshot *s)
{
	return s->root;
}

int snapshot_error(const struct gpuenv_snapshot *s)
{
	return s->err;
}

bool add_child(struct snap_node *parent, struct snap_node *c, size_t at)
{
	if (parent->n_child == parent->alloc_child) {
		size_t na = parent->alloc_child ? parent->alloc_child * 2 : 4;
		struct snap_node **p = realloc(parent->child, na * sizeof(*p));

		if (!p) {
			if (!parent->owner->err)
				parent->owner->err = -ENOMEM;
			return false;
		}
		parent->child = p;
		parent->alloc_child = na;
	}
	memmove(parent->child + at + 1, parent->child + at,
		(parent->n_child - at) * sizeof(*parent->child));
	parent->child[at] = c;
	parent->n_child++;
	return true;
}

/* Binary search in a sorted object: index of key, or where it would go (*found = false). */
static size_t obj_find(const struct snap_node *obj, const char *key, bool *found)
{
	size_t lo = 0, hi = obj->n_child;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(obj->child[mid]->key, key);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Get-or-create a child of kind `kind` under an object; a child of another kind is replaced. */
static struct snap_node *obj_put(struct snap_node *obj, const char *key, enum snap_kind kind)
{
	struct snap_node *c;
	bool found;
	size_t at;

	if (!obj || obj->kind != SNAP_OBJECT || !key)
		return NULL;
	at = obj_find(obj, key, &found);
	if (found) {
		c = obj->child[at];
		if (c->kind == kind && kind != SNAP_FACT)
			return c;
		node_free(c);
		c = node_new(obj->owner, kind, key);
		obj->child[at] = c;
		if (!c) {
			memmove(obj->child + at, obj->child + at + 1,
				(obj->n_child - at - 1) * sizeof(*obj->child));
			obj->n_child--;
		}
		return c;
	}
	c = node_new(obj->owner, kind, key);
	if (!c)
		return NULL;
	if (!add_child(obj, c, at)) {
		node_free(c);
		return NULL;
	}
	return c;
}

struct snap_node *snap_object(struct snap_node *parent, const char *key)
{
	return obj_put(parent, key, SNAP_OBJECT);
}

struct snap_node *snap_array(struct snap_node *parent, const char *key)
{
	return obj_put(parent, key, SNAP_ARRAY);
}

static struct snap_node *arr_append(struct snap_node *arr, enum snap_kind kind)
{
	struct snap_node *c;

	if (!arr || arr->kind != SNAP_ARRAY)
		return NULL;
	c = node_new(arr->owner, kind, NULL);
	if (!c)
		return NULL;
	if (!add_child(arr, c, arr->n_child)) {
		node_free(c);
		return NULL;
	}
	return c;
}

struct snap_node *snap_append_object(struct snap_node *array)
{
	return arr_append(array, SNAP_OBJECT);
}

static bool dup_into(struct snap_node *n, char **dst, const char *src)
{
	free(*dst);
	*dst = NULL;
	if (!src)
		return true;
	*dst = strdup(src);
	if (!*dst && !n->owner->err)
		n->owner->err = -ENOMEM;
	return *dst != NULL;
}

static struct snap_node *fact_init(struct snap_node *f, enum fact_state state, const char *source)
{
	if (!f)
		return NULL;
	f->state = state;
	dup_into(f, &f->source, source);
	return f;
}

struct snap_node *snap_append_str(struct snap_node *array, const char *value, const char *source)
{
	struct snap_node *f = fact_init(arr_append(array, SNAP_FACT), FACT_PRESENT, source);

	if (f && value) {
		f->type = SNAP_TYPE_STRING;
		dup_into(f, &f->str, value);
	}
	return f;
}

struct snap_node *snap_set_str(struct snap_node *obj, const char *key, const char *value,
			       const char *source)
{
	struct snap_node *f = fact_init(obj_put(obj, key, SNAP_FACT), FACT_PRESENT, source);

	if (f && value) {
		f->type = SNAP_TYPE_STRING;
		dup_into(f, &f->str, value);
	}
	return f;
}

struct snap_node *snap_set_str_or_absent(struct snap_node *obj, const char *key, const char *value,
					 const char *source, const char *why_absent)
{
	if (!value)
		return snap_set_state(obj, key, FACT_ABSENT, source, why_absent);
	return snap_set_str(obj, key, value, source);
}

struct snap_node *snap_set_strf(struct snap_node *obj, const char *key, const char *source,
				const char *fmt, ...)
{
	struct snap_node *f;
	char *v;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&v, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (obj && !obj->owner->err)
			obj->owner->err = -ENOMEM;
		return NULL;
	}
	f = snap_set_str(obj, key, v, source);
	free(v);
	return f;
}

struct snap_node *snap_set_int(struct snap_node *obj, const char *key, int64_t value,
			       const char *source)
{
	struct snap_node *f = fact_init(obj_put(obj, key, SNAP_FACT), FACT_PRESENT, source);

	if (f) {
		f->type = SNAP_TYPE_INT;
		f->i = value;
	}
	return f;
}

struct snap_node *snap_set_bool(struct snap_node *obj, const char *key, bool value,
				const char *source)
{
	struct snap_node *f = fact_init(obj_put(obj, key, SNAP_FACT), FACT_PRESENT, source);

	if (f) {
		f->type = SNAP_TYPE_BOOL;
		f->b = value;
	}
	return f;
}

struct snap_node *snap_set_state(struct snap_node *obj, const char *key, enum fact_state state,
				 const char *source, const char *error)
{
	struct snap_node *f = fact_init(obj_put(obj, key, SNAP_FACT), state, source);

	if (f)
		dup_into(f, &f->error, error);
	return f;
}

struct snap_node *snap_set_errno(struct snap_node *obj, const char *key, int err,
				 const char *source)
{
	if (err < 0)
		err = -err;
	return snap_set_state(obj, key, fact_state_from_errno(err), source, strerror(err));
}

struct snap_node *snap_set_malformed(struct snap_node *obj, const char *key, const char *raw,
				     const char *source, const char *why)
{
	struct snap_node *f = snap_set_state(obj, key, FACT_MALFORMED, source, why);

	if (f)
		snap_fact_set_raw(f, raw);
	return f;
}

void snap_fact_set_error(struct snap_node *fact, const char *error)
{
	if (fact && fact->kind == SNAP_FACT)
		dup_into(fact, &fact->error, error);
}

void snap_fact_set_raw(struct snap_node *fact, const char *raw)
{
	char buf[SNAP_RAW_MAX + 1];

	if (!fact || fact->kind != SNAP_FACT)
		return;
	if (raw && strlen(raw) > SNAP_RAW_MAX) {
		memcpy(buf, raw, SNAP_RAW_MAX);
		buf[SNAP_RAW_MAX] = '\0';
		raw = buf;
	}
	dup_into(fact, &fact->raw, raw);
}

/* ---- reading ---- */

enum snap_kind snap_kind(const struct snap_node *n)
{
	return n ? n->kind : SNAP_FACT;
}

const struct snap_node *snap_child(const struct snap_node *n, const char *key)
{
	bool found;
	size_t at;

	if (!n || n->kind != SNAP_OBJECT)
		return NULL;
	at = obj_find(n, key, &found);
	return found ? n->child[at] : NULL;
}

/* The child of object n whose key is the len bytes at key (a path's component, not
 * NUL-terminated there): obj_find's search, in the order strcmp gives the keys. */
static const struct snap_node *child_n(const struct snap_node *n, const char *key, size_t len)
{
	size_t lo = 0, hi;

	if (n->kind != SNAP_OBJECT)
		return NULL;
	hi = n->n_child;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *k = n->child[mid]->key;
		/* the first bytes first: most keys of a search differ there, without a call */
		int c = len ? (unsigned char)k[0] - (unsigned char)key[0] : 0;

		if (c == 0)
			c = strncmp(k, key, len);

		if (c == 0 && k[len] == '\0')
			return n->child[mid];
		if (c < 0)
			lo = mid + 1;
		else /* c == 0: the key is longer, after the component */
			hi = mid;
	}
	return NULL;
}

const struct snap_node *snap_get(const struct snap_node *n, const char *path)
{
	char comp[128];

	while (n && path && *path) {
		size_t len = (size_t)(strchrnul(path, '.') - path);

		if (len >= sizeof(comp))
			return NULL;
		if (n->kind == SNAP_ARRAY) {
			unsigned idx;

			memcpy(comp, path, len);
			comp[len] = '\0';
			if (parse_uint(comp, 10, &idx) < 0 || idx >= n->n_child)
				return NULL;
			n = n->child[idx];
		} else {
			n = child_n(n, path, len);
		}
		path += len;
		if (*path == '.')
			path++;
	}
	return n;
}

size_t snap_count(const struct snap_node *n)
{
	return n && n->kind != SNAP_FACT ? n->n_child : 0;
}

const struct snap_node *snap_at(const struct snap_node *n, size_t i)
{
	return n && n->kind != SNAP_FACT && i < n->n_child ? n->child[i] : NULL;
}

const char *snap_key(const struct snap_node *n)
{
	return n ? n->key : NULL;
}

enum fact_state snap_state(const struct snap_node *n)
{
	if (!n)
		return FACT_UNPROBED;
	return n->kind == SNAP_FACT ? n->state : FACT_PRESENT;
}

bool snap_present(const struct snap_node *n)
{
	return snap_state(n) == FACT_PRESENT;
}

enum snap_type snap_type(const struct snap_node *n)
{
	return n && n->kind == SNAP_FACT ? n->type : SNAP_TYPE_NONE;
}

const char *snap_str(const struct snap_node *n)
{
	return snap_present(n) && n->kind == SNAP_FACT && n->type == SNAP_TYPE_STRING ? n->str
										      : NULL;
}

bool snap_int(const struct snap_node *n, int64_t *ret)
{
	if (!snap_present(n) || n->kind != SNAP_FACT || n->type != SNAP_TYPE_INT)
		return false;
	*ret = n->i;
	return true;
}

bool snap_bool(const struct snap_node *n, bool *ret)
{
	if (!snap_present(n) || n->kind != SNAP_FACT || n->type != SNAP_TYPE_BOOL)
		return false;
	*ret = n->b;
	return true;
}

const char *snap_source(const struct snap_node *n)
{
	return n && n->kind == SNAP_FACT ? n->source : NULL;
}

const char *snap_error(const struct snap_node *n)
{
	return n && n->kind == SNAP_FACT ? n->error : NULL;
}

const char *snap_raw(const struct snap_node *n)
{
	return n && n->kind == SNAP_FACT ? n->raw : NULL;
}

const char *snap_get_str(const struct snap_node *n, const char *path)
{
	return snap_str(snap_get(n, path));
}

bool snap_get_int(const struct snap_node *n, const char *path, int64_t *ret)
{
	return snap_int(snap_get(n, path), ret);
}

bool snap_get_bool_default(const struct snap_node *n, const char *path, bool def)
{
	bool b;

	return snap_bool(snap_get(n, path), &b) ? b : def;
}

enum fact_state snap_get_state(const struct snap_node *n, const char *path)
{
	return snap_state(snap_get(n, path));
}
