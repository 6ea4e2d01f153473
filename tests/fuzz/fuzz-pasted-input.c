// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: explain's input hygiene (src/formats/pasted-input.c) on any bytes; what it
 * accepts must be NUL-free UTF-8 of the length it says, with no ESC or CR left, and cleaning
 * in the input's own buffer (pasted_input_clean_take) must give the same answer and text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-input.h"
#include "shared/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL, *taken = NULL, *copy = malloc(size ? size : 1);
	size_t n = 0, tn = 0;
	const char *why = NULL, *twhy = NULL;
	int r, tr;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	r = pasted_input_clean((const char *)data, size, &out, &n, &why);
	tr = pasted_input_clean_take(copy, size, &taken, &tn, &twhy);
	if (r != tr || (r < 0 && why != twhy) ||
	    (r >= 0 && (tn != n || memcmp(out, taken, n + 1) != 0)))
		abort();
	free(taken);
	if (r < 0)
		return 0;
	if (strlen(out) != n || !utf8_valid(out, n) || memchr(out, '\x1b', n) ||
	    memchr(out, '\r', n))
		abort();
	free(out);
	return 0;
}
