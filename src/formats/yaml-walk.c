// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Schema checking over a libyaml document (yaml-walk.h). libyaml's marks are 0-based
 * (https://pyyaml.org/wiki/LibYAML); errors print them 1-based, as editors number lines.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "yaml-caps.h"
#include "yaml-walk.h"
#include "shared/macro.h"

int yaml_walk_err(struct yaml_walk *w, unsigned line, int r, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	w->err->line = line;
	if (line)
		n = snprintf(w->err->why, sizeof(w->err->why), "line %u: ", line);
	va_start(ap, fmt);
	vsnprintf(w->err->why + n, sizeof(w->err->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return r;
}

unsigned yaml_walk_line(const yaml_node_t *n)
{
	return n ? (unsigned)n->start_mark.line + 1 : 0;
}

yaml_node_t *yaml_walk_get(struct yaml_walk *w, int idx)
{
	if (++w->visits > w->max_nodes)
		return NULL;
	return yaml_document_get_node(&w->doc, idx);
}

static const char *type_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "empty";
	}
}

static int too_many_nodes(struct yaml_walk *w)
{
	return yaml_walk_err(w, 0, -E2BIG, "more than %u YAML nodes", w->max_nodes);
}

int yaml_walk_scalar(struct yaml_walk *w, const yaml_node_t *n, const char *key, const char **ret)
{
	if (!n)
		return too_many_nodes(w);
	if (n->type != YAML_SCALAR_NODE)
		return yaml_walk_err(w, yaml_walk_line(n), -EBADMSG,
				     "%s: expected a value, found %s", key, type_name(n));
	if (n->data.scalar.length > w->max_text ||
	    memchr(n->data.scalar.value, '\0', n->data.scalar.length))
		return yaml_walk_err(w, yaml_walk_line(n), -EBADMSG,
				     "%s: value longer than %u bytes or holding a NUL", key,
				     w->max_text);
	*ret = (const char *)n->data.scalar.value;
	return 0;
}

int yaml_walk_kind(struct yaml_walk *w, const yaml_node_t *n, yaml_node_type_t t, const char *key)
{
	if (!n)
		return too_many_nodes(w);
	if (n->type != t)
		return yaml_walk_err(w, yaml_walk_line(n), -EBADMSG, "%s: expected %s, found %s",
				     key, t == YAML_MAPPING_NODE ? "a mapping" : "a list",
				     type_name(n));
	if (t == YAML_MAPPING_NODE &&
	    n->data.mapping.pairs.top - n->data.mapping.pairs.start > (long)w->max_items)
		return yaml_walk_err(w, yaml_walk_line(n), -E2BIG, "%s: more than %u keys", key,
				     w->max_items);
	if (t == YAML_SEQUENCE_NODE &&
	    n->data.sequence.items.top - n->data.sequence.items.start > (long)w->max_items)
		return yaml_walk_err(w, yaml_walk_line(n), -E2BIG, "%s: more than %u entries", key,
				     w->max_items);
	return 0;
}

int yaml_walk_bool(struct yaml_walk *w, const yaml_node_t *n, const char *key, bool *ret)
{
	const char *s = NULL;
	int r = yaml_walk_scalar(w, n, key, &s);

	if (r < 0)
		return r;
	if (streq(s, "true") || streq(s, "yes") || streq(s, "on"))
		*ret = true;
	else if (streq(s, "false") || streq(s, "no") || streq(s, "off"))
		*ret = false;
	else
		return yaml_walk_err(w, yaml_walk_line(n), -EBADMSG,
				     "%s: '%s' is not true or false", key, s);
	return 0;
}

int yaml_walk_pair(struct yaml_walk *w, const yaml_node_pair_t *p, const char *section,
		   const char **key, yaml_node_t **value)
{
	yaml_node_t *k = yaml_walk_get(w, p->key);
	int r = yaml_walk_scalar(w, k, section, key);

	if (r < 0)
		return r;
	*value = yaml_walk_get(w, p->value);
	if (!*value)
		return too_many_nodes(w);
	return 0;
}

int yaml_walk_unknown_key(struct yaml_walk *w, const yaml_node_t *v, const char *section,
			  const char *key)
{
	return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG, "%s%s'%s' is not %s",
			     section ? section : "", section ? ": " : "", key, w->schema);
}

static int yaml_problem(struct yaml_walk *w, const yaml_parser_t *y)
{
	if (y->error == YAML_MEMORY_ERROR)
		return -ENOMEM;
	return yaml_walk_err(w, (unsigned)y->problem_mark.line + 1, -EBADMSG, "%s%s%s",
			     y->problem ? y->problem : "not YAML", y->context ? ", " : "",
			     y->context ? y->context : "");
}

int yaml_walk_load(struct yaml_walk *w, const char *data, size_t len, size_t max_input,
		   unsigned max_depth, yaml_node_t **ret_root)
{
	/* Nothing in the checked schemas needs an alias; refusing them defuses alias bombs.
	 * Where they are allowed, libyaml's tree refers to the anchor's node (nothing is
	 * copied) and each alias counts against max_nodes. */
	const struct yaml_caps caps = { .max_depth = max_depth,
					.max_nodes = w->max_nodes,
					.refuse_aliases = !w->allow_aliases };
	yaml_parser_t y;
	char why[200];
	unsigned line;
	int r;

	w->err->line = 0;
	w->err->why[0] = '\0';
	w->visits = 0;
	if (len > max_input)
		return yaml_walk_err(w, 0, -E2BIG, "larger than %zu bytes", max_input);
	if (memchr(data, '\0', len))
		return yaml_walk_err(w, 0, -EBADMSG, "NUL byte in the file (not a YAML text)");
	r = yaml_caps_check(data, len, &caps, why, sizeof(why), &line);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return yaml_walk_err(w, line, r, "%s", why);
	if (!yaml_parser_initialize(&y))
		return -ENOMEM;
	yaml_parser_set_input_string(&y, (const unsigned char *)data, len);
	if (!yaml_parser_load(&y, &w->doc)) {
		r = yaml_problem(w, &y);
		yaml_parser_delete(&y);
		return r;
	}
	yaml_parser_delete(&y);
	*ret_root = yaml_document_get_root_node(&w->doc);
	return 0;
}

void yaml_walk_done(struct yaml_walk *w)
{
	yaml_document_delete(&w->doc);
}
