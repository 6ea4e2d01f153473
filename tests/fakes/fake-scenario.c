// SPDX-License-Identifier: LGPL-2.1-or-later
/* The fakes' scenario reader and call injection (see fake-scenario.h). Test code. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fake-scenario.h"
#include "shared/strv.h"

struct kv {
	char *section, *key, *value;
};

static struct kv *kvs;
static size_t n_kvs;
static bool loaded;

static void load(void)
{
	const char *path = getenv("GPUENV_FAKE_SCENARIO");
	char line[1024], section[128] = "";
	FILE *f;

	loaded = true;
	if (!path || !(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *l = strstrip(line), *eq;
		struct kv *p;

		if (*l == '#' || *l == ';' || !*l)
			continue;
		if (*l == '[') {
			char *end = strchr(l, ']');

			if (end) {
				*end = '\0';
				snprintf(section, sizeof(section), "%s", l + 1);
			}
			continue;
		}
		eq = strchr(l, '=');
		if (!eq)
			continue;
		*eq = '\0';
		p = realloc(kvs, (n_kvs + 1) * sizeof(*kvs));
		if (!p)
			break;
		kvs = p;
		kvs[n_kvs].section = strdup(section);
		kvs[n_kvs].key = strdup(strstrip(l));
		kvs[n_kvs].value = strdup(strstrip(eq + 1));
		n_kvs++;
	}
	fclose(f);
}

const char *fake_get(const char *section, const char *key)
{
	if (!loaded)
		load();
	if (!section)
		return NULL;
	for (size_t i = 0; i < n_kvs; i++)
		if (kvs[i].section && kvs[i].key && strcmp(kvs[i].section, section) == 0 &&
		    strcmp(kvs[i].key, key) == 0)
			return kvs[i].value;
	return NULL;
}

unsigned fake_count(const char *prefix)
{
	unsigned n = 0;

	if (!loaded)
		load();
	for (;; n++) {
		char want[128];
		bool found = false;

		snprintf(want, sizeof(want), "%s%u", prefix, n);
		for (size_t i = 0; i < n_kvs && !found; i++)
			found = kvs[i].section && strcmp(kvs[i].section, want) == 0;
		if (!found)
			return n;
	}
}

bool fake_uint(const char *section, const char *key, unsigned long long *ret)
{
	const char *v = fake_get(section, key);
	char *end;

	if (!v || !*v)
		return false;
	*ret = strtoull(v, &end, 0);
	return *end == '\0';
}

static const char *get2(const char *dev_section, const char *section, const char *key)
{
	const char *v = fake_get(dev_section, key);

	return v ? v : fake_get(section, key);
}

bool fake_inject(const char *section, const char *dev_section, const char *fn,
		 int (*name_to_code)(const char *name), int *ret_code)
{
	char key[160];
	const char *v;

	snprintf(key, sizeof(key), "mknod.%s", fn);
	v = get2(dev_section, section, key);
	if (v)
		(void)mknod(v, S_IFCHR | 0666, makedev(195, 255));
	snprintf(key, sizeof(key), "hang.%s", fn);
	if (get2(dev_section, section, key))
		for (;;)
			pause();
	snprintf(key, sizeof(key), "crash.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		int sig = strcmp(v, "SIGABRT") == 0  ? SIGABRT
			  : strcmp(v, "SIGBUS") == 0 ? SIGBUS
						     : SIGSEGV;

		/* The default action, even under a sanitizer that installed its own handler. */
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	snprintf(key, sizeof(key), "error.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		char *end;
		long n = strtol(v, &end, 0);

		*ret_code = *end == '\0' ? (int)n : name_to_code(v);
		return true;
	}
	return false;
}

const struct fake_code *fake_code_by_value(const struct fake_code *table, size_t n, int code)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}

const struct fake_code *fake_code_by_name(const struct fake_code *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}
