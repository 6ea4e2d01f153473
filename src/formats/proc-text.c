// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The proc(5) and /etc text parsers of proc-text.h (which names the formats): each fills a
 * struct the probe turns into facts. No I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc-text.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strv.h"

char *text_ndup(const char *text, size_t len)
{
	size_t n = text ? strnlen(text, len) : 0;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	if (n)
		memcpy(s, text, n);
	s[n] = '\0';
	return s;
}

int group_name(const char *group_text, unsigned gid, char *buf, size_t len)
{
	const char *p = group_text;

	if (!p || !buf || len == 0)
		return -EINVAL;
	while (*p) {
		const char *eol = strchrnul(p, '\n');
		const char *c1 = memchr(p, ':', (size_t)(eol - p));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(eol - c1 - 1)) : NULL;
		const char *c3 = c2 ? memchr(c2 + 1, ':', (size_t)(eol - c2 - 1)) : NULL;

		if (c3 && c1 > p && c3 - c2 - 1 > 0 && c3 - c2 - 1 < 16) {
			char num[16];
			unsigned g;

			memcpy(num, c2 + 1, (size_t)(c3 - c2 - 1));
			num[c3 - c2 - 1] = '\0';
			if (parse_uint(num, 10, &g) == 0 && g == gid) {
				if ((size_t)(c1 - p) >= len)
					return -ENAMETOOLONG;
				memcpy(buf, p, (size_t)(c1 - p));
				buf[c1 - p] = '\0';
				return 0;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return -ENOENT;
}

int proc_modules_parse(const char *text, size_t len, const char *const *names, size_t n,
		       bool *present)
{
	_cleanup_free_ char *buf = text_ndup(text, len);
	char *state, *line;

	for (size_t i = 0; i < n; i++)
		present[i] = false;
	if (!buf)
		return -ENOMEM;
	state = buf;
	while ((line = line_next(&state))) {
		line[strcspn(line, " \t")] = '\0';
		for (size_t i = 0; i < n; i++)
			if (streq(line, names[i]))
				present[i] = true;
	}
	return 0;
}

const char *nvrm_version(const char *v, char *buf, size_t buflen)
{
	static const char unix_[] = "NVIDIA UNIX ";
	static const char open_km[] = "NVIDIA UNIX Open Kernel Module for ";
	static const char km[] = " Kernel Module";
	const char *flavor, *p;
	struct version ver;
	const char *end;
	size_t n;

	if (startswith(v, open_km)) {
		flavor = "open";
		p = v + strlen(open_km);
		p += strcspn(p, " \t"); /* the architecture word */
	} else if (startswith(v, unix_) &&
		   startswith(v + strlen(unix_) + strcspn(v + strlen(unix_), " "), km)) {
		/* "NVIDIA UNIX <arch> Kernel Module" (x86_64, aarch64, ppc64le) */
		flavor = "proprietary";
		p = v + strlen(unix_) + strcspn(v + strlen(unix_), " ") + strlen(km);
	} else {
		return NULL;
	}
	p += strspn(p, " \t");
	n = strcspn(p, " \t");
	if (n == 0 || n >= buflen)
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (version_parse_prefix(buf, &ver, &end) < 0 || *end || ver.n < 2)
		return NULL;
	return flavor;
}

int nvidia_version_parse(const char *text, size_t len, struct nvidia_version *ret)
{
	_cleanup_free_ char *copy = text_ndup(text, len);
	char *state, *line, *v;

	*ret = (struct nvidia_version){ 0 };
	if (!copy)
		return -ENOMEM;
	state = copy;
	while (kv_next(&state, ':', &line, &v)) {
		if (streq(line, "NVRM version") && !ret->flavor) {
			ret->flavor = nvrm_version(v, ret->version, sizeof(ret->version));
			if (!ret->flavor)
				ret->version[0] = '\0';
		} else if (streq(line, "GCC version")) {
			free(ret->gcc_version);
			ret->gcc_version = strdup(v);
			if (!ret->gcc_version)
				return -ENOMEM;
		}
	}
	return 0;
}

void nvidia_version_done(struct nvidia_version *v)
{
	free(v->gcc_version);
	v->gcc_version = NULL;
}

const struct nvidia_gpu_info_key nvidia_gpu_info_keys[NVIDIA_GPU_INFO_N] = {
	{ "Model", "model" },	   { "IRQ", "irq" },	       { "GPU UUID", "uuid" },
	{ "Video BIOS", "vbios" }, { "Bus Type", "bus_type" }, { "Bus Location", "bus_location" },
};

int nvidia_gpu_info_parse(const char *text, size_t len, struct nvidia_gpu_info *ret)
{
	_cleanup_free_ char *buf = text_ndup(text, len);
	char *state, *line, *v;

	*ret = (struct nvidia_gpu_info){ 0 };
	if (!buf)
		return -ENOMEM;
	state = buf;
	while (kv_next(&state, ':', &line, &v)) {
		for (size_t i = 0; i < NVIDIA_GPU_INFO_N; i++) {
			if (!streq(line, nvidia_gpu_info_keys[i].line))
				continue;
			free(ret->value[i]);
			ret->value[i] = strdup(v);
			if (!ret->value[i])
				return -ENOMEM;
		}
	}
	return 0;
}

void nvidia_gpu_info_done(struct nvidia_gpu_info *g)
{
	for (size_t i = 0; i < NVIDIA_GPU_INFO_N; i++) {
		free(g->value[i]);
		g->value[i] = NULL;
	}
}

int cpuinfo_parse(const char *text, size_t len, struct cpuinfo *ret)
{
	_cleanup_free_ char *buf = text_ndup(text, len);
	char *state, *line, *v;

	*ret = (struct cpuinfo){ 0 };
	if (!buf)
		return -ENOMEM;
	state = buf;
	while (kv_next(&state, ':', &line, &v)) {
		char **slot = NULL;

		strstrip(line);
		if (strcmp(line, "processor") == 0)
			ret->logical_cpus++;
		else if (strcmp(line, "model name") == 0)
			slot = &ret->model;
		else if (strcmp(line, "vendor_id") == 0)
			slot = &ret->vendor;
		if (slot && !*slot && !(*slot = strdup(v)))
			return -ENOMEM;
	}
	return 0;
}

void cpuinfo_done(struct cpuinfo *c)
{
	free(c->model);
	c->model = NULL;
	free(c->vendor);
	c->vendor = NULL;
}

static int parse_ids(const char *v, struct proc_status_ids *ids)
{
	_cleanup_strv_free_ char **f = NULL;

	ids->seen = true;
	ids->raw = strdup(v);
	if (!ids->raw || strv_split(v, " \t", &f) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < 2; i++) {
		if (!f || strv_length(f) <= i)
			ids->why[i] = "fewer than 2 fields";
		else if (parse_uint(f[i], 10, &ids->id[i]) < 0)
			ids->why[i] = "not a decimal id";
	}
	return 0;
}

static int parse_groups(const char *v, struct proc_status *st)
{
	_cleanup_strv_free_ char **f = NULL;
	size_t n;

	st->have_groups = true;
	if (strv_split(v, " \t", &f) < 0)
		return -ENOMEM;
	n = MIN(strv_length(f), (size_t)PROC_STATUS_GROUPS_MAX);
	if (n == 0)
		return 0;
	st->groups = calloc(n, sizeof(*st->groups));
	if (!st->groups)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct proc_status_group *g = &st->groups[st->n_groups++];

		g->valid = parse_uint(f[i], 10, &g->gid) == 0;
		if (!g->valid && !(g->raw = strdup(f[i])))
			return -ENOMEM;
	}
	return 0;
}

int proc_status_parse(const char *text, size_t len, struct proc_status *ret)
{
	_cleanup_free_ char *buf = text_ndup(text, len);
	char *state, *line, *v;
	int err = 0;

	*ret = (struct proc_status){ 0 };
	if (!buf)
		return -ENOMEM;
	state = buf;
	while (err == 0 && kv_next(&state, ':', &line, &v)) {
		if (streq(line, "Uid") && !ret->uid.seen)
			err = parse_ids(v, &ret->uid);
		else if (streq(line, "Gid") && !ret->gid.seen)
			err = parse_ids(v, &ret->gid);
		else if (streq(line, "Groups") && !ret->have_groups)
			err = parse_groups(v, ret);
	}
	return err;
}

void proc_status_done(struct proc_status *st)
{
	free(st->uid.raw);
	st->uid.raw = NULL;
	free(st->gid.raw);
	st->gid.raw = NULL;
	for (size_t i = 0; i < st->n_groups; i++)
		free(st->groups[i].raw);
	free(st->groups);
	st->groups = NULL;
	st->n_groups = 0;
}
