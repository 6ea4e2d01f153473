// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: a systemd unit's Environment= (src/formats/systemd-unit-env.c) over the
 * bytes, parsed twice as a unit and its drop-in, checking the cap, that every kept name is a
 * variable name and every value NUL-terminated within its slot, and that lookups find them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/systemd-unit-env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	free(e);
	return 0;
}
