// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: a systemd EnvironmentFile= (src/formats/systemd-env-file.c) over the
 * bytes: every assignment's key and value are NUL-terminated UTF-8 no longer than the text,
 * the key never empty, lines counted from 1 and never going back; then the same assignments
 * applied over a unit's environment (unit_env_assign()), whose cap must hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/systemd-env-file.h"
#include "formats/systemd-unit-env.h"
#include "shared/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct check {
	size_t size;
	uint64_t last_line;
	struct unit_env *e;
};

static void assign(void *userdata, const char *key, const char *value, uint64_t line)
{
	struct check *c = userdata;
	const size_t k = strlen(key), v = strlen(value);

	if (k == 0 || k > c->size || v > c->size || !utf8_valid(key, k) || !utf8_valid(value, v) ||
	    line == 0 || line < c->last_line)
		abort();
	c->last_line = line;
	unit_env_assign(c->e, key, value, 1, line);
	if (c->e->n > UNIT_ENV_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check c = { .size = size, .e = calloc(1, sizeof(*c.e)) };

	if (!c.e)
		return 0;
	(void)env_file_parse((const char *)data, size, assign, &c);
	for (size_t i = 0; i < c.e->n; i++)
		if (unit_env_get(c.e, c.e->v[i].name) != &c.e->v[i] ||
		    strnlen(c.e->v[i].value, sizeof(c.e->v[i].value)) == sizeof(c.e->v[i].value))
			abort();
	free(c.e);
	return 0;
}
