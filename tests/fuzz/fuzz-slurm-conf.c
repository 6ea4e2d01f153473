// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: Slurm's configuration syntax (src/formats/slurm-conf.c) over the bytes,
 * every value also expanded as a host/device list, checking that each pair lies inside the
 * input, keys are non-empty, and each expanded name is NUL-terminated within its slot and
 * the count within the cap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/slurm-conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_ctx {
	const char *text;
	size_t len;
	char (*names)[SLURM_CONF_NAME_MAX];
};

static bool inside(const struct fuzz_ctx *c, const char *p, size_t n)
{
	return p >= c->text && p + n <= c->text + c->len;
}

static bool pair(void *data, uint64_t line, size_t index, const char *key, size_t key_len,
		 const char *value, size_t value_len)
{
	struct fuzz_ctx *c = data;
	size_t n = 0;

	(void)index;
	if (line == 0 || key_len == 0 || (!inside(c, key, key_len) && strcmp(key, "Include")) ||
	    !inside(c, value, value_len))
		abort();
	(void)slurm_conf_key_is(key, key_len, "NodeName");
	(void)slurm_conf_expand(value, value_len, c->names, 16, &n);
	if (n > 16)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!memchr(c->names[i], '\0', SLURM_CONF_NAME_MAX))
			abort();
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_ctx c = { (const char *)data, size, calloc(16, SLURM_CONF_NAME_MAX) };

	if (!c.names)
		return 0;
	slurm_conf_parse(c.text, size, pair, &c);
	free(c.names);
	return 0;
}
