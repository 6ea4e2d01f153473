// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the one-pass dispatch of pasted text to its readers
 * (src/formats/pasted-dispatch.c), after the input hygiene explain runs first. Every reader
 * must read the same facts, at the same lines, from what it is handed (its lines, its blocks)
 * as from the whole text: a difference aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-dispatch.h"
#include "formats/pasted-input.h"
#include "formats/pasted.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_facts(const struct pasted_facts *a, const struct pasted_facts *b)
{
	if (a->n != b->n || a->dropped != b->dropped)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].path, b->v[i].path) != 0 ||
		    strcmp(a->v[i].value, b->v[i].value) != 0 || a->v[i].line != b->v[i].line ||
		    a->v[i].failed != b->v[i].failed || a->v[i].absent != b->v[i].absent)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pasted_dispatch d;
	static bool ready;
	struct pasted_facts each[PASTED_DISPATCH_READERS_MAX] = { 0 };
	char *text = NULL;
	size_t n = 0;

	if (!ready) {
		if (pasted_dispatch_init(&d, pasted_readers) < 0)
			abort();
		ready = true;
	}
	if (pasted_input_clean((const char *)data, size, &text, &n, NULL) < 0)
		return 0;
	if (pasted_dispatch_read(&d, text, n, 0, each) == 0) {
		for (size_t i = 0; i < d.n_readers; i++) {
			struct pasted_facts whole = { 0 };

			if (pasted_readers[i].read(text, n, &whole) >= 0 &&
			    !same_facts(&whole, &each[i]))
				abort();
			pasted_facts_done(&whole);
		}
	}
	for (size_t i = 0; i < d.n_readers; i++)
		pasted_facts_done(&each[i]);
	free(text);
	return 0;
}
