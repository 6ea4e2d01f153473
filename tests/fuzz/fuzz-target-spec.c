// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the `gpuenv check --target` string parser (src/formats/target-spec.c) on
 * any bytes; an error must point inside the string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/target-spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target_spec t;
	struct target_spec_error err;

	if (target_spec_parse((const char *)data, size, &t, &err) == 0) {
		if (t.n_gpus == 0 || t.n_gpus > TARGET_SPEC_MAX_GPUS)
			abort();
		for (size_t i = 0; i < t.n_gpus; i++)
			(void)strlen(t.gpus[i].text);
		(void)strlen(t.driver);
		(void)strlen(t.host_cuda_compat);
	} else if (err.column == 0 || err.column > size + 1 ||
		   !memchr(err.why, '\0', sizeof(err.why))) {
		abort();
	}
	return 0;
}
