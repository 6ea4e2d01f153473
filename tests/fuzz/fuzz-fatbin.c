// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the ELF / fatbin / cubin parser (src/fatbin/fatbin.c), header-only and
 * with payload heads decoded and every section searched, each once keeping the entries and
 * again handing them over through on_container (both must find the same: a mismatch
 * aborts), the stream walker fed the same bytes in uneven chunks, and an ar archive's members
 * (src/fatbin/archive.c), each parsed where it lies.
 * Format: /work/shared/facts/fatbin-format.md.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/archive.h"
#include "fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Entries handed over through on_container. */
static size_t n_handed;

static int count_entries(void *userdata, const struct fatbin_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].container != e[0].container)
			abort();
	n_handed += n;
	return 0;
}

static bool str_same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const uint8_t *input;
static size_t input_len;

static int parse_member(void *userdata, const char *name, const uint8_t *m, size_t n)
{
	struct fatbin_result *r = NULL;

	if (!name || m < input || (size_t)(m - input) > input_len ||
	    n > input_len - (size_t)(m - input))
		abort(); /* a member outside the archive */
	if (fatbin_parse(m, n, 0, &r, NULL) == 0)
		fatbin_result_free(r);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned modes[] = { 0, FATBIN_PARSE_PAYLOAD_HEADS | FATBIN_PARSE_SEARCH_ALL };
	struct fatbin_stream *st;
	struct fatbin_result *r;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct fatbin_input in = { .data = data,
					   .len = size,
					   .on_container = count_entries };
		struct fatbin_result *r2 = NULL;
		char *why = NULL, *why2 = NULL;
		int rv, rv2;

		r = NULL;
		rv = fatbin_parse(data, size, modes[i], &r, &why);
		n_handed = 0;
		rv2 = fatbin_parse_input(&in, modes[i], &r2, &why2);
		if (rv != rv2 || (rv != -ENOMEM && !str_same(why, why2)) ||
		    (rv == 0 && (n_handed + r2->n_entries != r->n_entries ||
				 n_handed != r2->n_handed || (n_handed > 0 && r2->n_entries > 0))))
			abort();
		fatbin_result_free(r);
		fatbin_result_free(r2);
		free(why);
		free(why2);
	}
	if (ar_is_archive(data, size)) {
		input = data;
		input_len = size;
		ar_for_each_member(data, size, parse_member, NULL, NULL);
	}
	if (fatbin_stream_new(&st) == 0) {
		size_t off = 0, chunk = 1;

		while (off < size) {
			size_t n = chunk < size - off ? chunk : size - off;

			if (fatbin_stream_feed(st, data + off, n) < 0)
				break;
			off += n;
			chunk = chunk * 3 + 1;
		}
		r = NULL;
		if (fatbin_stream_finish(st, &r) == 0)
			fatbin_result_free(r);
	}
	return 0;
}
