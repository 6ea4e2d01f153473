// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Container Device Interface spec reader (github.com/cncf-tags/container-device-interface
 * SPEC.md; NVIDIA container toolkit docs, "Support for Container Device Interface").
 * One reader for both encodings: a CDI spec is YAML or JSON, and JSON is YAML, so libyaml
 * (Debian libyaml-dev) loads either. The spec must be one document whose root is a mapping;
 * cdiVersion and kind are scalars, devices a sequence of mappings each with a scalar name.
 *
 * The driver version a spec was generated for is not a field of the format. `nvidia-ctk cdi
 * generate` names it in three places, taken in this order:
 *   1. the enable-cuda-compat hook's "--host-driver-version=X" argument (toolkit ≥ 1.17.5);
 *   2. the file name of a mounted driver library: containerEdits.mounts[].hostPath
 *      ".../libcuda.so.X", then libnvidia-ml.so.X, then libnvidia-ptxjitcompiler.so.X
 *      (top-level containerEdits first, then each device's);
 *   3. a create-symlinks hook "--link libcuda.so.X::…" argument.
 * The first found wins, and driver_version_source says which. Caps: input size, devices,
 * list length, nodes visited (libyaml keeps an alias as a reference to its anchor's node,
 * so a hostile file can make a small tree look huge or cyclic), depth.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "cdi-spec.h"
#include "yaml-caps.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"

struct walk {
	yaml_document_t *doc;
	unsigned visits;
	struct cdi_error *err;
	/* driver version candidates, by priority (index 0 wins) */
	char *ver[5];
	char *ver_src[5];
	struct cdi_spec *spec; /* host_paths collected here */
	size_t n_host_paths;
};

enum { VER_HOOK_COMPAT, VER_LIBCUDA, VER_LIBNVML, VER_LIBPTXJIT, VER_SYMLINK, _VER_MAX };

static int fail(struct cdi_error *err, int r, const char *fmt, ...) _printf_(3, 4);
static int fail(struct cdi_error *err, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->why, sizeof(err->why), fmt, ap);
	va_end(ap);
	return r;
}

struct cdi_spec *cdi_spec_free(struct cdi_spec *s)
{
	if (!s)
		return NULL;
	free(s->cdi_version);
	free(s->kind);
	strv_free(s->devices);
	strv_free(s->host_paths);
	free(s->driver_version);
	free(s->driver_version_source);
	free(s);
	return NULL;
}

const char *cdi_driver_lib_version(const char *basename)
{
	static const char *const libs[] = { "libcuda.so.", "libnvidia-ml.so.",
					    "libnvidia-ptxjitcompiler.so." };
	struct version v;

	for (size_t i = 0; i < ARRAY_SIZE(libs); i++) {
		const char *ver;

		if (!startswith(basename, libs[i]))
			continue;
		ver = basename + strlen(libs[i]);
		/* "libcuda.so.1" is the soname link; a driver version has at least two fields. */
		if (version_parse(ver, &v) == 0 && v.n >= 2 && !strchr(ver, '\n'))
			return ver;
	}
	return NULL;
}

static yaml_node_t *node(struct walk *w, int idx, unsigned depth)
{
	if (depth > CDI_MAX_DEPTH || ++w->visits > CDI_MAX_VISITS)
		return NULL;
	return yaml_document_get_node(w->doc, idx);
}

static bool capped(const struct walk *w, unsigned depth)
{
	return depth > CDI_MAX_DEPTH || w->visits > CDI_MAX_VISITS;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value node of key in a mapping, or NULL. */
static yaml_node_t *map_get(struct walk *w, yaml_node_t *map, const char *key, unsigned depth)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(node(w, p->key, depth + 1));

		if (k && streq(k, key))
			return node(w, p->value, depth + 1);
	}
	return NULL;
}

static size_t seq_len(const yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE
		       ? (size_t)(n->data.sequence.items.top - n->data.sequence.items.start)
		       : 0;
}

static int candidate(struct walk *w, unsigned slot, const char *ver, const char *fmt, ...)
	_printf_(4, 5);
static int candidate(struct walk *w, unsigned slot, const char *ver, const char *fmt, ...)
{
	char src[256];
	va_list ap;

	if (w->ver[slot])
		return 0;
	va_start(ap, fmt);
	vsnprintf(src, sizeof(src), fmt, ap);
	va_end(ap);
	w->ver[slot] = strdup(ver);
	w->ver_src[slot] = strdup(src);
	return w->ver[slot] && w->ver_src[slot] ? 0 : -ENOMEM;
}

static int check_list(struct walk *w, yaml_node_t *n, const char *what)
{
	if (n && n->type != YAML_SEQUENCE_NODE)
		return fail(w->err, -EBADMSG, "%s is not a list", what);
	if (seq_len(n) > CDI_MAX_ITEMS)
		return fail(w->err, -E2BIG, "%s has more than %u entries", what, CDI_MAX_ITEMS);
	return 0;
}

/* A host file the spec needs, kept up to CDI_MAX_ITEMS. */
static int add_host_path(struct walk *w, const char *host)
{
	int r;

	if (w->n_host_paths >= CDI_MAX_ITEMS) {
		w->spec->host_paths_capped = true;
		return 0;
	}
	if ((r = strv_push(&w->spec->host_paths, host)) < 0)
		return r;
	w->n_host_paths++;
	return 0;
}

/* One containerEdits mapping: deviceNodes[] and mounts[].hostPath, hooks[].args. A device
 * node's host file is its hostPath, else its path (SPEC.md "Device nodes"); the runtime
 * stats it before the container starts (podman: "failed to stat CDI host device
 * \"/dev/dri/renderD129\"", NVIDIA/nvidia-container-toolkit#885). */
static int walk_edits(struct walk *w, yaml_node_t *edits, const char *where, unsigned depth)
{
	yaml_node_t *nodes, *mounts, *hooks;
	char what[96];
	int r;

	if (!edits)
		return 0;
	if (edits->type != YAML_MAPPING_NODE)
		return fail(w->err, -EBADMSG, "%s.containerEdits is not a mapping", where);
	nodes = map_get(w, edits, "deviceNodes", depth);
	snprintf(what, sizeof(what), "%s.containerEdits.deviceNodes", where);
	if ((r = check_list(w, nodes, what)) < 0)
		return r;
	for (size_t i = 0; i < seq_len(nodes); i++) {
		yaml_node_t *d = node(w, nodes->data.sequence.items.start[i], depth + 2);
		const char *host = scalar(map_get(w, d, "hostPath", depth + 2));

		if (!host)
			host = scalar(map_get(w, d, "path", depth + 2));
		if (capped(w, depth + 2))
			break;
		if (host && (r = add_host_path(w, host)) < 0)
			return r;
	}
	mounts = map_get(w, edits, "mounts", depth);
	snprintf(what, sizeof(what), "%s.containerEdits.mounts", where);
	if ((r = check_list(w, mounts, what)) < 0)
		return r;
	for (size_t i = 0; i < seq_len(mounts); i++) {
		yaml_node_t *m = node(w, mounts->data.sequence.items.start[i], depth + 2);
		const char *host = scalar(map_get(w, m, "hostPath", depth + 2));
		const char *base, *ver;

		if (capped(w, depth + 2))
			break;
		if (!host)
			continue;
		if ((r = add_host_path(w, host)) < 0)
			return r;
		base = path_basename(host);
		ver = cdi_driver_lib_version(base);
		if (!ver)
			continue;
		r = candidate(w,
			      startswith(base, "libcuda.")	  ? VER_LIBCUDA
			      : startswith(base, "libnvidia-ml.") ? VER_LIBNVML
								  : VER_LIBPTXJIT,
			      ver, "%s[%zu].hostPath %s", what, i, host);
		if (r < 0)
			return r;
	}
	hooks = map_get(w, edits, "hooks", depth);
	snprintf(what, sizeof(what), "%s.containerEdits.hooks", where);
	if ((r = check_list(w, hooks, what)) < 0)
		return r;
	for (size_t i = 0; i < seq_len(hooks); i++) {
		yaml_node_t *h = node(w, hooks->data.sequence.items.start[i], depth + 2);
		yaml_node_t *args = map_get(w, h, "args", depth + 2);

		if (capped(w, depth + 2))
			break;
		if ((r = check_list(w, args, "a hook's args")) < 0)
			return r;
		for (size_t j = 0; j < seq_len(args); j++) {
			const char *a =
				scalar(node(w, args->data.sequence.items.start[j], depth + 3));
			const char *prev =
				j > 0 ? scalar(node(w, args->data.sequence.items.start[j - 1],
						    depth + 3))
				      : NULL;
			struct version v;

			if (!a)
				continue;
			if (startswith(a, "--host-driver-version=") &&
			    version_parse(a + strlen("--host-driver-version="), &v) == 0) {
				r = candidate(w, VER_HOOK_COMPAT,
					      a + strlen("--host-driver-version="),
					      "%s[%zu].args %s", what, i, a);
				if (r < 0)
					return r;
			} else if (prev && streq(prev, "--link") && startswith(a, "libcuda.so.")) {
				_cleanup_free_ char *target = strndup(a, strcspn(a, ":"));
				const char *ver;

				if (!target)
					return -ENOMEM;
				ver = cdi_driver_lib_version(target);
				if (ver &&
				    (r = candidate(w, VER_SYMLINK, ver, "%s[%zu].args --link %s",
						   what, i, a)) < 0)
					return r;
			}
		}
	}
	return 0;
}

static int dup_scalar(struct walk *w, yaml_node_t *root, const char *key, char **ret)
{
	yaml_node_t *n = map_get(w, root, key, 0);

	if (!n)
		return 0;
	if (!scalar(n))
		return fail(w->err, -EBADMSG, "%s is not a scalar", key);
	*ret = strdup(scalar(n));
	return *ret ? 0 : -ENOMEM;
}

static int walk_spec(struct walk *w, yaml_node_t *root, struct cdi_spec *s)
{
	yaml_node_t *devices;
	int r;

	if (root->type != YAML_MAPPING_NODE)
		return fail(w->err, -EBADMSG, "the document is not a mapping");
	if ((r = dup_scalar(w, root, "cdiVersion", &s->cdi_version)) < 0 ||
	    (r = dup_scalar(w, root, "kind", &s->kind)) < 0)
		return r;
	r = walk_edits(w, map_get(w, root, "containerEdits", 0), "spec", 1);
	if (r < 0)
		return r;
	devices = map_get(w, root, "devices", 0);
	if (devices && devices->type != YAML_SEQUENCE_NODE)
		return fail(w->err, -EBADMSG, "devices is not a list");
	if (seq_len(devices) > CDI_MAX_DEVICES)
		return fail(w->err, -E2BIG, "more than %u devices", CDI_MAX_DEVICES);
	for (size_t i = 0; i < seq_len(devices); i++) {
		yaml_node_t *d = node(w, devices->data.sequence.items.start[i], 1);
		const char *name = scalar(map_get(w, d, "name", 1));
		char where[32];

		if (capped(w, 1))
			break;
		if (!d || d->type != YAML_MAPPING_NODE)
			return fail(w->err, -EBADMSG, "devices[%zu] is not a mapping", i);
		if (!name)
			return fail(w->err, -EBADMSG, "devices[%zu] has no name", i);
		r = strv_push(&s->devices, name);
		if (r < 0)
			return r;
		snprintf(where, sizeof(where), "devices[%zu]", i);
		r = walk_edits(w, map_get(w, d, "containerEdits", 1), where, 2);
		if (r < 0)
			return r;
	}
	if (w->visits > CDI_MAX_VISITS)
		return fail(w->err, -E2BIG, "more than %u nodes to visit (aliases?)",
			    CDI_MAX_VISITS);
	for (unsigned i = 0; i < _VER_MAX; i++)
		if (w->ver[i]) {
			s->driver_version = TAKE_PTR(w->ver[i]);
			s->driver_version_source = TAKE_PTR(w->ver_src[i]);
			break;
		}
	return 0;
}

static int yaml_fail(struct cdi_error *err, const yaml_parser_t *p)
{
	if (p->error == YAML_MEMORY_ERROR)
		return -ENOMEM;
	return fail(err, -EBADMSG, "%s at line %zu column %zu%s%s",
		    p->problem ? p->problem : "not YAML", p->problem_mark.line + 1,
		    p->problem_mark.column + 1, p->context ? ", " : "",
		    p->context ? p->context : "");
}

static int prepass(const char *data, size_t len, struct cdi_error *err)
{
	static const struct yaml_caps caps = { .max_depth = CDI_MAX_DEPTH,
					       .max_nodes = CDI_MAX_VISITS };
	unsigned line;

	return yaml_caps_check(data, len, &caps, err->why, sizeof(err->why), &line);
}

int cdi_spec_parse(const char *data, size_t len, struct cdi_spec **ret, struct cdi_error *err)
{
	struct cdi_error err_local;
	struct walk w = { .err = err ? err : &err_local };
	_cleanup_(cdi_spec_freep) struct cdi_spec *s = NULL;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	size_t i;
	int r;

	w.err->why[0] = '\0';
	if (len > CDI_MAX_INPUT)
		return fail(w.err, -E2BIG, "larger than %zu bytes", CDI_MAX_INPUT);
	if (memchr(data, '\0', len))
		return fail(w.err, -EBADMSG, "NUL byte in the file");
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < len && strchr(" \t\r\n", data[i]); i++)
		;
	s->json = i < len && data[i] == '{';
	r = prepass(data, len, w.err);
	if (r < 0)
		return r;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
	if (!yaml_parser_load(&parser, &doc)) {
		r = yaml_fail(w.err, &parser);
		yaml_parser_delete(&parser);
		return r;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		r = fail(w.err, -EBADMSG, "empty document");
		goto out;
	}
	w.doc = &doc;
	w.spec = s;
	r = walk_spec(&w, root, s);
	if (r >= 0 && !s->devices && !(s->devices = calloc(1, sizeof(char *))))
		r = -ENOMEM;
	if (r >= 0 && !s->host_paths && !(s->host_paths = calloc(1, sizeof(char *))))
		r = -ENOMEM;
out:
	for (unsigned k = 0; k < _VER_MAX; k++) {
		free(w.ver[k]);
		free(w.ver_src[k]);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(s);
	return 0;
}
