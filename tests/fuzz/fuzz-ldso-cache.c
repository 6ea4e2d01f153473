// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the ld.so.cache parser (src/formats/ldso-cache.c) and its lookup. */
#include <stdint.h>
#include <string.h>

#include "formats/ldso-cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[LDSO_CACHE_REASON_MAX];
	struct ldso_cache *c = NULL;

	if (ldso_cache_parse(data, size, &c, why, sizeof(why)) != 0)
		return 0;
	for (size_t i = 0; i < c->n_entries; i++) {
		char fl[64];

		(void)strlen(c->entries[i].key);
		(void)strlen(c->entries[i].value);
		if (c->entries[i].hwcaps_subdir)
			(void)strlen(c->entries[i].hwcaps_subdir);
		(void)ldso_cache_flags_name(c->entries[i].flags, fl, sizeof(fl));
	}
	(void)ldso_cache_lookup(c, "libcuda.so.1", 0x0303);
	(void)ldso_cache_lookup(c, "libcudnn.so.9", 0x0003);
	ldso_cache_free(c);
	return 0;
}
