// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The container runtime endpoint in kubelet's flag files, its config.yaml and crictl.yaml
 * (formats: kube-endpoint.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "formats/kube-endpoint.h"
#include "formats/yaml-walk.h"
#include "shared/macro.h"

#define FLAG "--container-runtime-endpoint"

static int put(char *buf, size_t size, const char *v, size_t n)
{
	if (n == 0)
		return 0;
	if (n >= size)
		return -E2BIG;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return 1;
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* One line of a flag file: the last value of the flag on it (1), none (0), an error. */
static int flag_line(const char *s, size_t n, char *buf, size_t size)
{
	static const size_t k = sizeof(FLAG) - 1;
	int found = 0, r;

	for (size_t i = 0; i + k <= n; i++) {
		size_t v, e;

		if (memcmp(s + i, FLAG, k) != 0 || (i > 0 && !blank(s[i - 1]) && s[i - 1] != '"' &&
						    s[i - 1] != '\'' && s[i - 1] != '='))
			continue;
		v = i + k;
		if (v < n && s[v] == '=')
			v++;
		else if (v < n && blank(s[v]))
			while (v < n && blank(s[v]))
				v++;
		else
			continue; /* another flag's name begins so */
		if (v < n && (s[v] == '\'' || s[v] == '"')) {
			const char *q = memchr(s + v + 1, s[v], n - v - 1);

			if (!q)
				return -EINVAL;
			e = (size_t)(q - s);
			v++;
		} else {
			for (e = v; e < n && !blank(s[e]) && s[e] != '"' && s[e] != '\''; e++)
				;
		}
		if ((r = put(buf, size, s + v, e - v)) < 0)
			return r;
		found |= r;
		i = e;
	}
	return found;
}

int kube_flag_endpoint(const char *text, size_t len, char *buf, size_t size)
{
	const char *end, *nul = memchr(text, '\0', len);
	int found = 0, r;

	if (nul)
		len = (size_t)(nul - text);
	for (const char *s = text; s < text + len; s = end + 1) {
		const char *p = s;

		end = memchr(s, '\n', (size_t)(text + len - s));
		if (!end)
			end = text + len;
		while (p < end && blank(*p))
			p++;
		if (p < end && *p == '#')
			continue;
		if ((r = flag_line(p, (size_t)(end - p), buf, size)) < 0)
			return r;
		found |= r;
	}
	return found;
}

/* Whether a plain scalar is YAML's null (YAML 1.1/1.2 core schema, as go-yaml resolves it):
 * the key is then as good as not set. */
static bool yaml_null(const yaml_node_t *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };

	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(nulls); i++)
		if (streq((const char *)n->data.scalar.value, nulls[i]))
			return true;
	return false;
}

/* The key's value node in the top-level mapping root (NULL: not there); -EBADMSG for a key
 * given twice or one a merge key ("<<") may set. */
static int find_key(struct yaml_walk *w, yaml_node_t *root, const char *key, yaml_node_t **ret)
{
	unsigned first = 0;
	bool merge = false;
	int r;

	*ret = NULL;
	YAML_FOREACH_PAIR(p, root)
	{
		const char *k;
		yaml_node_t *v;

		if ((r = yaml_walk_pair(w, p, "the top-level mapping", &k, &v)) < 0)
			return r;
		merge |= streq(k, "<<");
		if (!streq(k, key))
			continue;
		/* kubelet decodes strictly, and on a strict decoding error (a duplicate field)
		 * warns and decodes again leniently (kubernetes/kubernetes#83204); crictl's
		 * go-yaml v3 refuses the file ("mapping key … already defined"). Which value a
		 * lenient decoder keeps is not told here. */
		if (*ret)
			return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
					     "%s is given twice (lines %u and %u)", key, first,
					     yaml_walk_line(v));
		*ret = v;
		first = yaml_walk_line(v);
	}
	/* go-yaml applies "<<" merge keys, libyaml does not: the merged mapping may set it */
	if (!*ret && merge)
		return yaml_walk_err(w, 0, -EBADMSG, "a merge key (<<) may set %s", key);
	return 0;
}

int kube_yaml_endpoint(const char *text, size_t len, const char *key, char *buf, size_t size,
		       char *why, size_t whylen)
{
	struct yaml_error err = { 0 };
	struct yaml_walk w = { .err = &err,
			       .max_nodes = KUBE_YAML_MAX_NODES,
			       .max_items = KUBE_YAML_MAX_NODES,
			       .max_text = KUBE_YAML_MAX_TEXT,
			       .allow_aliases = true };
	const char *nul = memchr(text, '\0', len), *v;
	yaml_node_t *root, *n = NULL;
	int r;

	if (nul)
		len = (size_t)(nul - text);
	r = yaml_walk_load(&w, text, len, KUBE_YAML_MAX_INPUT, KUBE_YAML_MAX_DEPTH, &root);
	if (r < 0)
		goto out;
	if (root && root->type == YAML_MAPPING_NODE)
		r = find_key(&w, root, key, &n);
	else if (root)
		r = yaml_walk_kind(&w, root, YAML_MAPPING_NODE, "the document");
	if (r >= 0 && n && n->type == YAML_SCALAR_NODE && yaml_null(n))
		n = NULL;
	if (r >= 0 && n && (r = yaml_walk_scalar(&w, n, key, &v)) >= 0) {
		r = put(buf, size, v, n->data.scalar.length);
		if (r == -E2BIG)
			yaml_walk_err(&w, yaml_walk_line(n), r, "%s is longer than %zu bytes", key,
				      size - 1);
	}
	yaml_walk_done(&w);
out:
	if (r < 0 && r != -ENOMEM && why)
		snprintf(why, whylen, "%s", err.why[0] ? err.why : "not read");
	return r;
}
