// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The `gpuenv check` policy reader (docs/policy.md). The file is one YAML document (YAML 1.1
 * as libyaml reads it, https://yaml.org/spec/1.1/) whose root is a mapping of known keys;
 * every value is checked against the schema of docs/policy.md and an error names the line of
 * the offending node (libyaml's start_mark, 0-based, printed 1-based). Unknown keys are
 * errors, not ignored: a misspelt `driver.brances` would otherwise pass every machine.
 * Caps as for CDI specs (cdi-spec.c): input size, node count and depth checked on the event
 * stream before the tree is built, so an alias bomb or a deep nest costs nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "policy.h"
#include "yaml-walk.h"
#include "shared/macro.h"
#include "shared/parse.h"

const char *policy_profile_name(enum policy_profile p)
{
	return p == POLICY_PROFILE_BUILD ? "build" : "runtime";
}

int policy_constraint_parse(const char *s, struct policy_constraint *ret, char *why, size_t whylen)
{
	static const struct {
		const char *text;
		enum policy_op op;
	} ops[] = { { ">=", POLICY_OP_GE }, { "<=", POLICY_OP_LE }, { "==", POLICY_OP_EQ },
		    { "!=", POLICY_OP_NE }, { ">", POLICY_OP_GT },  { "<", POLICY_OP_LT } };
	const char *p = s;

	ret->n = 0;
	for (;;) {
		struct policy_cmp c = { .op = POLICY_OP_EQ };
		const char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
			if (startswith(p, ops[i].text)) {
				c.op = ops[i].op;
				p += strlen(ops[i].text);
				break;
			}
		while (*p == ' ' || *p == '\t')
			p++;
		if (version_parse_prefix(p, &c.v, &end) < 0) {
			snprintf(why, whylen, "'%s' is not a version constraint (\">=12.1, <13\")",
				 s);
			return -EINVAL;
		}
		p = end;
		if (startswith(p, ".*")) {
			if (c.op != POLICY_OP_EQ && c.op != POLICY_OP_NE) {
				snprintf(why, whylen, "'%s': a .* prefix needs == or !=", s);
				return -EINVAL;
			}
			c.prefix = true;
			p += 2;
		}
		if (ret->n >= POLICY_MAX_CMP) {
			snprintf(why, whylen, "'%s': more than %u comparisons", s, POLICY_MAX_CMP);
			return -EINVAL;
		}
		ret->cmp[ret->n++] = c;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		if (*p != ',') {
			snprintf(why, whylen, "'%s' is not a version constraint (\">=12.1, <13\")",
				 s);
			return -EINVAL;
		}
		p++;
	}
}

int policy_constraint_matches(const struct policy_constraint *c, const char *version)
{
	struct version v;
	const char *end;

	if (!version || version_parse_prefix(version, &v, &end) < 0)
		return -EINVAL;
	for (size_t i = 0; i < c->n; i++) {
		const struct policy_cmp *k = &c->cmp[i];
		int d;

		if (k->prefix) {
			struct version t = v;

			t.n = MIN(v.n, k->v.n);
			for (unsigned j = t.n; j < k->v.n; j++)
				t.part[j] = 0;
			t.n = k->v.n;
			d = version_cmp(&t, &k->v);
		} else {
			d = version_cmp(&v, &k->v);
		}
		switch (k->op) {
		case POLICY_OP_EQ:
			if (d != 0)
				return false;
			break;
		case POLICY_OP_NE:
			if (d == 0)
				return false;
			break;
		case POLICY_OP_LT:
			if (d >= 0)
				return false;
			break;
		case POLICY_OP_LE:
			if (d > 0)
				return false;
			break;
		case POLICY_OP_GT:
			if (d <= 0)
				return false;
			break;
		case POLICY_OP_GE:
			if (d < 0)
				return false;
			break;
		}
	}
	return true;
}

bool policy_date_valid(const char *s)
{
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned y, m, d;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (unsigned i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = (unsigned)atoi(s);
	m = (unsigned)atoi(s + 5);
	d = (unsigned)atoi(s + 8);
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	/* the Gregorian leap year: every 4th, not every 100th, every 400th */
	return !(m == 2 && d == 29 && (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0)));
}

static int constraint_node(struct yaml_walk *w, const yaml_node_t *n, const char *key,
			   struct policy_constraint *ret)
{
	char why[160];
	const char *s = NULL;
	int r = yaml_walk_scalar(w, n, key, &s);

	if (r < 0)
		return r;
	if (policy_constraint_parse(s, ret, why, sizeof(why)) < 0)
		return yaml_walk_err(w, yaml_walk_line(n), -EBADMSG, "%s: %s", key, why);
	ret->line = yaml_walk_line(n);
	ret->text = strdup(s);
	return ret->text ? 0 : -ENOMEM;
}

/* "8.0", "sm_90", "compute_90", "sm_90a" → 9.0 (the suffix is kept only in the name). */
static int parse_cc(const char *s, unsigned *major, unsigned *minor)
{
	struct version v;
	unsigned arch;
	const char *end;

	if (startswith(s, "sm_") || startswith(s, "compute_")) {
		const char *digits = strchr(s, '_') + 1;
		char buf[8];
		size_t n = strspn(digits, "0123456789");

		if (n < 2 || n > 3 || (digits[n] && !(strchr("af", digits[n]) && !digits[n + 1])))
			return -EINVAL;
		memcpy(buf, digits, n);
		buf[n] = '\0';
		if (parse_uint(buf, 10, &arch) < 0)
			return -EINVAL;
		*major = arch / 10;
		*minor = arch % 10;
		return 0;
	}
	if (version_parse_prefix(s, &v, &end) < 0 || *end || v.n != 2 || v.part[0] == 0 ||
	    v.part[0] > 99 || v.part[1] > 9)
		return -EINVAL;
	*major = v.part[0];
	*minor = v.part[1];
	return 0;
}

static int parse_gpus(struct yaml_walk *w, yaml_node_t *map, struct gpuenv_policy *p)
{
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "gpus");

	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key, *s;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "gpus", &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "count")) {
			r = yaml_walk_scalar(w, v, "gpus.count", &s);
			if (r < 0)
				return r;
			if (parse_uint(s, 10, &p->gpu_count) < 0 || p->gpu_count > 4096)
				return yaml_walk_err(
					w, yaml_walk_line(v), -EBADMSG,
					"gpus.count: '%s' is not a number of GPUs (0-4096)", s);
			p->has_gpu_count = true;
			p->line_gpu_count = yaml_walk_line(v);
		} else if (streq(key, "min_compute_capability")) {
			r = yaml_walk_scalar(w, v, "gpus.min_compute_capability", &s);
			if (r < 0)
				return r;
			if (parse_cc(s, &p->gpu_cc_major, &p->gpu_cc_minor) < 0)
				return yaml_walk_err(
					w, yaml_walk_line(v), -EBADMSG,
					"gpus.min_compute_capability: '%s' is not a compute "
					"capability (\"8.0\", \"sm_90\")",
					s);
			p->has_gpu_cc = true;
			p->line_gpu_cc = yaml_walk_line(v);
		} else if (streq(key, "model")) {
			r = yaml_walk_scalar(w, v, "gpus.model", &s);
			if (r < 0)
				return r;
			free(p->gpu_model);
			p->gpu_model = strdup(s);
			if (!p->gpu_model)
				return -ENOMEM;
			p->line_gpu_model = yaml_walk_line(v);
		} else {
			return yaml_walk_unknown_key(w, v, "gpus", key);
		}
	}
	return 0;
}

static int parse_driver(struct yaml_walk *w, yaml_node_t *map, struct gpuenv_policy *p)
{
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "driver");

	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "driver", &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "version")) {
			r = constraint_node(w, v, "driver.version", &p->driver_version);
		} else if (streq(key, "branches")) {
			size_t n;

			r = yaml_walk_kind(w, v, YAML_SEQUENCE_NODE, "driver.branches");
			if (r < 0)
				return r;
			n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
			free(p->driver_branches);
			p->driver_branches = calloc(n ? n : 1, sizeof(unsigned));
			if (!p->driver_branches)
				return -ENOMEM;
			p->n_driver_branches = 0;
			p->line_driver_branches = yaml_walk_line(v);
			for (size_t i = 0; i < n; i++) {
				yaml_node_t *item =
					yaml_walk_get(w, v->data.sequence.items.start[i]);
				const char *s;
				unsigned b;

				r = yaml_walk_scalar(w, item, "driver.branches", &s);
				if (r < 0)
					return r;
				if (parse_uint(s, 10, &b) < 0 || b < 100 || b > 9999)
					return yaml_walk_err(
						w, yaml_walk_line(item), -EBADMSG,
						"driver.branches: '%s' is not a driver branch "
						"(\"550\")",
						s);
				p->driver_branches[p->n_driver_branches++] = b;
			}
		} else {
			return yaml_walk_unknown_key(w, v, "driver", key);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_cuda(struct yaml_walk *w, yaml_node_t *map, struct gpuenv_policy *p)
{
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "cuda");

	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "cuda", &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "toolkit"))
			r = constraint_node(w, v, "cuda.toolkit", &p->cuda_toolkit);
		else if (streq(key, "runtime"))
			r = constraint_node(w, v, "cuda.runtime", &p->cuda_runtime);
		else if (streq(key, "consistent")) {
			r = yaml_walk_bool(w, v, "cuda.consistent", &p->cuda_consistent);
			p->line_cuda_consistent = yaml_walk_line(v);
		} else
			return yaml_walk_unknown_key(w, v, "cuda", key);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_frameworks(struct yaml_walk *w, yaml_node_t *map, struct gpuenv_policy *p)
{
	size_t n;
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "frameworks");

	if (r < 0)
		return r;
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	p->frameworks = calloc(n ? n : 1, sizeof(*p->frameworks));
	if (!p->frameworks)
		return -ENOMEM;
	YAML_FOREACH_PAIR(pair, map)
	{
		struct policy_framework *f = &p->frameworks[p->n_frameworks];
		const char *key;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "frameworks", &key, &v);
		if (r < 0)
			return r;
		if (!*key || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(key))
			return yaml_walk_err(
				w, yaml_walk_line(v), -EBADMSG,
				"frameworks: '%s' is not a package name (torch, jax, …)", key);
		f->name = strdup(key);
		if (!f->name)
			return -ENOMEM;
		p->n_frameworks++;
		r = constraint_node(w, v, "frameworks", &f->version);
		if (r < 0)
			return r;
	}
	return 0;
}

/* An absolute path whose components are names or fnmatch(3) patterns: no "." or ".."
 * component (a pattern stays inside the tree judged), no empty one. */
static bool binary_pattern_valid(const char *s)
{
	if (s[0] != '/' || !s[1])
		return false;
	for (const char *c = s + 1; *c;) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c == '/' && !*++c)
			return false;
	}
	return true;
}

static int parse_binaries(struct yaml_walk *w, yaml_node_t *v, struct gpuenv_policy *p)
{
	int r = yaml_walk_kind(w, v, YAML_SEQUENCE_NODE, "architectures.binaries");
	size_t n;

	if (r < 0)
		return r;
	if (p->arch_binaries)
		return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
				     "architectures.binaries given twice");
	n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (n > POLICY_MAX_BINS)
		return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
				     "architectures.binaries: more than %u entries",
				     POLICY_MAX_BINS);
	p->line_arch_binaries = yaml_walk_line(v);
	p->arch_binaries = calloc(n ? n : 1, sizeof(*p->arch_binaries));
	if (!p->arch_binaries)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct policy_binary *b = &p->arch_binaries[p->n_arch_binaries];
		yaml_node_t *item = yaml_walk_get(w, v->data.sequence.items.start[i]);
		const char *s;

		r = yaml_walk_scalar(w, item, "architectures.binaries", &s);
		if (r < 0)
			return r;
		if (!binary_pattern_valid(s))
			return yaml_walk_err(w, yaml_walk_line(item), -EBADMSG,
					     "architectures.binaries: '%s' is not an absolute path "
					     "without . or .. components (\"/opt/app/bin/train\", "
					     "\"/usr/lib/*/libkernels.so\")",
					     s);
		b->line = yaml_walk_line(item);
		b->pattern = strdup(s);
		if (!b->pattern)
			return -ENOMEM;
		p->n_arch_binaries++;
	}
	return 0;
}

static int parse_architectures(struct yaml_walk *w, yaml_node_t *map, struct gpuenv_policy *p)
{
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "architectures");

	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "architectures", &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "allow_ptx")) {
			r = yaml_walk_bool(w, v, "architectures.allow_ptx", &p->arch_allow_ptx);
			if (r < 0)
				return r;
		} else if (streq(key, "targets")) {
			size_t n;

			r = yaml_walk_kind(w, v, YAML_SEQUENCE_NODE, "architectures.targets");
			if (r < 0)
				return r;
			n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
			p->arch_targets = calloc(n ? n : 1, sizeof(*p->arch_targets));
			if (!p->arch_targets)
				return -ENOMEM;
			for (size_t i = 0; i < n; i++) {
				struct policy_target *t = &p->arch_targets[p->n_arch_targets];
				yaml_node_t *item =
					yaml_walk_get(w, v->data.sequence.items.start[i]);
				const char *s;

				r = yaml_walk_scalar(w, item, "architectures.targets", &s);
				if (r < 0)
					return r;
				if (parse_cc(s, &t->major, &t->minor) < 0)
					return yaml_walk_err(
						w, yaml_walk_line(item), -EBADMSG,
						"architectures.targets: '%s' is not a GPU "
						"architecture (\"sm_90\", \"8.6\")",
						s);
				t->line = yaml_walk_line(item);
				t->name = strdup(s);
				if (!t->name)
					return -ENOMEM;
				p->n_arch_targets++;
			}
		} else if (streq(key, "binaries")) {
			r = parse_binaries(w, v, p);
			if (r < 0)
				return r;
		} else {
			return yaml_walk_unknown_key(w, v, "architectures", key);
		}
	}
	return 0;
}

static int parse_waiver(struct yaml_walk *w, yaml_node_t *map, struct policy_waiver *wv)
{
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "waivers[]");

	if (r < 0)
		return r;
	wv->line = yaml_walk_line(map);
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key, *s;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "waivers[]", &key, &v);
		if (r < 0)
			return r;
		if (!streq(key, "rule") && !streq(key, "reason") && !streq(key, "expires"))
			return yaml_walk_unknown_key(w, v, "waivers[]", key);
		r = yaml_walk_scalar(w, v, key, &s);
		if (r < 0)
			return r;
		if (streq(key, "expires")) {
			if (!policy_date_valid(s))
				return yaml_walk_err(
					w, yaml_walk_line(v), -EBADMSG,
					"waivers[].expires: '%s' is not a date (YYYY-MM-DD)", s);
			memcpy(wv->expires, s, 11);
			continue;
		}
		if (!*s)
			return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
					     "waivers[].%s is empty", key);
		if (streq(key, "rule")) {
			free(wv->rule);
			wv->rule = strdup(s);
			if (!wv->rule)
				return -ENOMEM;
		} else {
			free(wv->reason);
			wv->reason = strdup(s);
			if (!wv->reason)
				return -ENOMEM;
		}
	}
	if (!wv->rule || !wv->reason || !wv->expires[0])
		return yaml_walk_err(w, wv->line, -EBADMSG,
				     "waivers[]: a waiver needs rule, reason and expires (a waiver "
				     "without an expiry date never ends)");
	return 0;
}

static int parse_waivers(struct yaml_walk *w, yaml_node_t *seq, struct gpuenv_policy *p)
{
	size_t n;
	int r = yaml_walk_kind(w, seq, YAML_SEQUENCE_NODE, "waivers");

	if (r < 0)
		return r;
	n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	p->waivers = calloc(n ? n : 1, sizeof(*p->waivers));
	if (!p->waivers)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		/* counted first, so policy_free() frees what a failing waiver holds */
		p->n_waivers++;
		r = parse_waiver(w, yaml_walk_get(w, seq->data.sequence.items.start[i]),
				 &p->waivers[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_root(struct yaml_walk *w, yaml_node_t *root, struct gpuenv_policy *p)
{
	int r;

	if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)
		return 0; /* "---" alone, or only comments */
	r = yaml_walk_kind(w, root, YAML_MAPPING_NODE, "the policy");
	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, root)
	{
		const char *key, *s;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, NULL, &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "version")) {
			r = yaml_walk_scalar(w, v, "version", &s);
			if (r >= 0 && !streq(s, "1"))
				r = yaml_walk_err(
					w, yaml_walk_line(v), -EBADMSG,
					"version: this gpuenv reads policy version 1, not '%s'", s);
		} else if (streq(key, "profile")) {
			r = yaml_walk_scalar(w, v, "profile", &s);
			if (r >= 0 && streq(s, "runtime"))
				p->profile = POLICY_PROFILE_RUNTIME;
			else if (r >= 0 && streq(s, "build"))
				p->profile = POLICY_PROFILE_BUILD;
			else if (r >= 0)
				r = yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						  "profile: '%s' is not runtime or build", s);
			p->line_profile = yaml_walk_line(v);
		} else if (streq(key, "fail_on")) {
			r = yaml_walk_scalar(w, v, "fail_on", &s);
			if (r >= 0 && streq(s, "error"))
				p->fail_on = 2;
			else if (r >= 0 && streq(s, "warning"))
				p->fail_on = 1;
			else if (r >= 0 && streq(s, "info"))
				p->fail_on = 0;
			else if (r >= 0)
				r = yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						  "fail_on: '%s' is not error, warning or info", s);
			p->line_fail_on = yaml_walk_line(v);
		} else if (streq(key, "gpus")) {
			r = parse_gpus(w, v, p);
		} else if (streq(key, "driver")) {
			r = parse_driver(w, v, p);
		} else if (streq(key, "cuda")) {
			r = parse_cuda(w, v, p);
		} else if (streq(key, "frameworks")) {
			if (p->frameworks)
				return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						     "frameworks given twice");
			r = parse_frameworks(w, v, p);
		} else if (streq(key, "architectures")) {
			if (p->arch_targets)
				return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						     "architectures given twice");
			r = parse_architectures(w, v, p);
		} else if (streq(key, "waivers")) {
			if (p->waivers)
				return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						     "waivers given twice");
			r = parse_waivers(w, v, p);
		} else {
			return yaml_walk_unknown_key(w, v, NULL, key);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

struct gpuenv_policy *policy_free(struct gpuenv_policy *p)
{
	if (!p)
		return NULL;
	free(p->gpu_model);
	free(p->driver_version.text);
	free(p->driver_branches);
	free(p->cuda_toolkit.text);
	free(p->cuda_runtime.text);
	for (size_t i = 0; i < p->n_frameworks; i++) {
		free(p->frameworks[i].name);
		free(p->frameworks[i].version.text);
	}
	free(p->frameworks);
	for (size_t i = 0; i < p->n_arch_targets; i++)
		free(p->arch_targets[i].name);
	free(p->arch_targets);
	for (size_t i = 0; i < p->n_arch_binaries; i++)
		free(p->arch_binaries[i].pattern);
	free(p->arch_binaries);
	if (p->binaries_free) {
		p->binaries_free(p->binaries_read);
		p->binaries_free(p->image_libraries);
	}
	for (size_t i = 0; i < p->n_waivers; i++) {
		free(p->waivers[i].rule);
		free(p->waivers[i].reason);
	}
	free(p->waivers);
	free(p);
	return NULL;
}

int policy_parse(const char *data, size_t len, struct gpuenv_policy **ret, struct policy_error *err)
{
	struct yaml_error ye = { 0 };
	struct yaml_walk w = { .err = &ye,
			       .max_nodes = POLICY_MAX_NODES,
			       .max_items = POLICY_MAX_ITEMS,
			       .max_text = POLICY_MAX_TEXT,
			       .schema = "a policy key (docs/policy.md)" };
	_cleanup_(policy_freep) struct gpuenv_policy *p = calloc(1, sizeof(*p));
	yaml_node_t *root;
	int r;

	if (!p)
		return -ENOMEM;
	p->fail_on = 2;
	r = yaml_walk_load(&w, data, len, POLICY_MAX_INPUT, POLICY_MAX_DEPTH, &root);
	if (r >= 0) {
		r = root ? parse_root(&w, root, p) : 0;
		yaml_walk_done(&w);
	}
	if (err) {
		err->line = ye.line;
		snprintf(err->why, sizeof(err->why), "%s", ye.why);
	}
	if (r < 0)
		return r;
	*ret = TAKE_PTR(p);
	return 0;
}
