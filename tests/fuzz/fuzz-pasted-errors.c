// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the "errors" reader of pasted text (src/formats/pasted-errors.c), after the
 * input hygiene explain runs first, as explain runs them. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/pasted-errors.h"
#include "formats/pasted-input.h"
#include "formats/pasted.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pasted_facts f = { 0 };
	char *text = NULL;
	size_t n = 0;

	if (pasted_input_clean((const char *)data, size, &text, &n, NULL) < 0)
		return 0;
	if (pasted_read_errors(text, n, &f) >= 0)
		for (size_t i = 0; i < f.n; i++)
			if (!f.v[i].path[0] || f.v[i].line == 0)
				abort();
	pasted_facts_done(&f);
	free(text);
	return 0;
}
