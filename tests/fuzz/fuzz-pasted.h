/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libFuzzer body every pasted-text reader's target shares (fuzz-pasted-<name>.c): the input
 * NUL-terminated as the explain input layer hands it over, the reader run on it, and what it
 * appended checked: within the cap, paths non-empty, lines within the input.
 */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_pasted(pasted_reader_fn read, const uint8_t *data, size_t size)
{
	struct pasted_facts f = { 0 };
	unsigned lines = 1;
	char *text = malloc(size + 1);

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	int r = read(text, size, &f);
	if (r > 0 && f.n == 0)
		abort(); /* it said it appended facts */
	if (f.n > PASTED_FACTS_MAX)
		abort();
	for (size_t i = 0; i < f.n; i++) {
		if (!f.v[i].path[0] || !f.v[i].value || f.v[i].line == 0 || f.v[i].line > lines)
			abort();
		if (pasted_facts_get(&f, f.v[i].path) != &f.v[i])
			abort();
	}
	pasted_facts_done(&f);
	free(text);
}

#define FUZZ_PASTED_TARGET(fn)                                                                     \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
	{                                                                                          \
		fuzz_pasted(fn, data, size);                                                       \
		return 0;                                                                          \
	}
