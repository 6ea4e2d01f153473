// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: a systemd unit's Environment= (src/formats/systemd-unit-env.c) over the
 * bytes, parsed twice as a unit and its drop-in, checking the cap, that every kept name is a
 * variable name and every value NUL-terminated within its slot, and that lookups find them;
 * the ExecStart= kept is NUL-terminated, and its expansion into a small buffer and a large one
 * stays in the buffer, reports ranges inside what it wrote, and agrees where both fit.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/systemd-unit-env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t written;

static void used(void *userdata, const struct unit_env_var *v, size_t at, size_t end)
{
	(void)userdata;
	if (at > end || end > written || end - at > strlen(v->value))
		abort();
}

static void expand(const struct unit_env *e, char *buf, size_t size, int *ret)
{
	written = size - 1;
	*ret = unit_env_expand(e, e->exec, buf, size, used, NULL);
	if ((*ret != 0 && *ret != -E2BIG) || strnlen(buf, size) == size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct unit_env *e = calloc(1, sizeof(*e));

	if (!e)
		return 0;
	unit_env_parse((const char *)data, size, 0, e);
	unit_env_parse((const char *)data, size, 1, e);
	if (e->n > UNIT_ENV_MAX)
		abort();
	for (size_t i = 0; i < e->n; i++) {
		const struct unit_env_var *v = &e->v[i];
		size_t n = strnlen(v->name, sizeof(v->name));

		if (n == 0 || n == sizeof(v->name) ||
		    strspn(v->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "abcdefghijklmnopqrstuvwxyz"
				    "0123456789_") != n ||
		    strnlen(v->value, sizeof(v->value)) == sizeof(v->value) || v->line == 0 ||
		    v->file > 1 || unit_env_get(e, v->name) != v)
			abort();
	}
	if (strnlen(e->exec, sizeof(e->exec)) == sizeof(e->exec) || (e->execs && !e->exec_line))
		abort();
	{
		char small[32], *big = malloc(1u << 17);
		int a, b;

		if (big) {
			expand(e, small, sizeof(small), &a);
			expand(e, big, 1u << 17, &b);
			if (a == 0 && (b != 0 || strcmp(small, big) != 0))
				abort();
			free(big);
		}
	}
	free(e);
	return 0;
}
