// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: explain's gzip input (src/formats/pasted-gzip.c) on any bytes, under a
 * 1 MiB cap: what it accepts is NUL-terminated at the length it says, never past the cap; a
 * refusal says why. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-gzip.h"

#define CAP ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t n = 0;
	const char *why = NULL;
	int r;

	if (!pasted_is_gzip((const char *)data, size))
		return 0;
	r = pasted_gunzip((const char *)data, size, CAP, &out, &n, &why);
	if (r < 0) {
		if (r != -ENOMEM && !why)
			abort();
		return 0;
	}
	if (n > CAP || out[n] != '\0')
		abort();
	free(out);
	return 0;
}
