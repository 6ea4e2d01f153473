// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Environment overlay; see env.h for the rules. The only file in src/ that reads the
 * process environment (environ).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "shared/macro.h"
#include "shared/strv.h"

#define ENV_FILE_MAX_LINES 100000u

extern char **environ;

struct env {
	char **vars; /* "KEY=VALUE", sorted */
};

int env_new(bool live, struct env **ret)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->vars = calloc(1, sizeof(char *));
	if (!e->vars) {
		free(e);
		return -ENOMEM;
	}
	if (live) {
		for (char **p = environ; p && *p; p++) {
			if (!strchr(*p, '=') || strv_push(&e->vars, *p) < 0)
				continue;
		}
		strv_sort(e->vars);
	}
	*ret = e;
	return 0;
}

struct env *env_free(struct env *e)
{
	if (!e)
		return NULL;
	strv_free(e->vars);
	free(e);
	return NULL;
}

static char **env_find(const struct env *e, const char *key)
{
	size_t klen = strlen(key);

	for (char **p = e->vars; *p; p++)
		if (strncmp(*p, key, klen) == 0 && (*p)[klen] == '=')
			return p;
	return NULL;
}

int env_set(struct env *e, const char *key, const char *value)
{
	char *entry, **slot;

	if (!*key || strchr(key, '='))
		return -EINVAL;
	if (asprintf(&entry, "%s=%s", key, value) < 0)
		return -ENOMEM;
	slot = env_find(e, key);
	if (slot) {
		free(*slot);
		*slot = entry;
		return 0;
	}
	if (strv_consume(&e->vars, entry) < 0)
		return -ENOMEM;
	strv_sort(e->vars);
	return 0;
}

const char *env_get(const struct env *e, const char *key)
{
	char **p = env_find(e, key);

	return p ? strchr(*p, '=') + 1 : NULL;
}

char *const *env_list(const struct env *e)
{
	return e->vars;
}

int env_load_file(struct env *e, const char *host_path, unsigned *ret_line)
{
	FILE *f = fopen(host_path, "re");
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int err = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) >= 0) {
		char *p = line, *eq;

		if (++lineno > ENV_FILE_MAX_LINES) {
			err = -EFBIG;
			break;
		}
		p[strcspn(p, "\r\n")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		eq = strchr(p, '=');
		if (eq == p || strpbrk(p, " \t") == p) {
			err = -EBADMSG;
			break;
		}
		if (!eq) {
			/* Bare KEY: docker copies it from the calling environment. */
			const char *v = getenv(p);

			if (v && (err = env_set(e, p, v)) < 0)
				break;
			continue;
		}
		*eq = '\0';
		if (strpbrk(p, " \t")) {
			err = -EBADMSG;
			break;
		}
		err = env_set(e, p, eq + 1);
		if (err < 0)
			break;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	if (err < 0 && ret_line)
		*ret_line = lineno;
	return err;
}
