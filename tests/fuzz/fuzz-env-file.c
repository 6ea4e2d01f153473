// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the --env-file reader (src/core/env.c), lines and caps, then lookups of
 * every key it set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct env_file_error fe;
	struct env *e;
	FILE *f;

	if (size == 0 || env_new(false, &e) < 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f) {
		if (env_load_stream(e, f, &fe) == 0) {
			for (char *const *p = env_list(e); *p; p++) {
				char key[64];
				size_t k = strcspn(*p, "=");

				if (k < sizeof(key)) {
					memcpy(key, *p, k);
					key[k] = '\0';
					if (!env_get(e, key))
						abort(); /* a listed key must be found */
				}
			}
		}
		fclose(f);
	}
	env_free(e);
	return 0;
}
