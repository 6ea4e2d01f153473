// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: explain's input hygiene (src/formats/pasted-input.c) on any bytes; what it
 * accepts must be NUL-free UTF-8 of the length it says, with no ESC or CR left. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-input.h"
#include "shared/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t n = 0;
	const char *why = NULL;

	if (pasted_input_clean((const char *)data, size, &out, &n, &why) < 0)
		return 0;
	if (strlen(out) != n || !utf8_valid(out, n) || memchr(out, '\x1b', n) ||
	    memchr(out, '\r', n))
		abort();
	free(out);
	return 0;
}
