// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the CDI spec reader (src/formats/cdi-spec.c, libyaml underneath). */
#include <stdint.h>
#include <stdlib.h>

#include "formats/cdi-spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdi_spec *s = NULL;
	struct cdi_error e;

	if (cdi_spec_parse((const char *)data, size, &s, &e) == 0)
		cdi_spec_free(s);
	return 0;
}
