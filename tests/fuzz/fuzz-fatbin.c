// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the ELF / fatbin / cubin parser (src/fatbin/fatbin.c), header-only and
 * with payload heads decoded and every section searched, each over the buffer and again with
 * its container walks read through fatbin_input.read() and the entries handed over through
 * on_container (all must find the same: a mismatch aborts), the stream walker fed the same
 * bytes in uneven chunks, and an ar archive's members (src/formats/archive.c), each parsed
 * where it lies.
 * Format: docs/formats/fatbin.md.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "formats/archive.h"
#include "fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct reader {
	const uint8_t *p;
	size_t len;
	size_t n_handed; /* entries seen by count_entries() */
};

static ssize_t read_mem(void *userdata, uint64_t off, void *buf, size_t n)
{
	const struct reader *m = userdata;

	if (off > m->len || n > m->len - off)
		abort(); /* the parser asked for bytes outside its input */
	memcpy(buf, m->p + off, n);
	return (ssize_t)n;
}

static int count_entries(void *userdata, const struct fatbin_entry *e, size_t n)
{
	struct reader *m = userdata;

	for (size_t i = 0; i < n; i++)
		if (e[i].container != e[0].container)
			abort();
	m->n_handed += n;
	return 0;
}

static bool str_same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same(const struct fatbin_result *a, const struct fatbin_result *b)
{
	if (a->type != b->type || a->n_containers != b->n_containers ||
	    a->n_entries != b->n_entries || a->n_wrappers != b->n_wrappers ||
	    a->n_found_elsewhere != b->n_found_elsewhere ||
	    a->n_bundle_entries != b->n_bundle_entries || !str_same(a->warning, b->warning) ||
	    !str_same(a->elsewhere_sections, b->elsewhere_sections))
		return false;
	for (size_t i = 0; i < a->n_entries; i++) {
		struct fatbin_entry x = a->entries[i], y = b->entries[i];

		if (!str_same(x.ident, y.ident) || !str_same(x.options, y.options))
			return false;
		x.ident = y.ident = x.options = y.options = NULL;
		if (memcmp(&x, &y, sizeof(x)) != 0)
			return false;
	}
	return true;
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
	struct reader m = { data, size };
	struct fatbin_stream *st;
	struct fatbin_result *r;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct fatbin_input in = {
			.data = data, .len = size, .read = read_mem, .userdata = &m
		};
		struct fatbin_result *r2 = NULL;
		char *why = NULL, *why2 = NULL;
		int rv, rv2;

		r = NULL;
		rv = fatbin_parse(data, size, modes[i], &r, &why);
		rv2 = fatbin_parse_input(&in, modes[i], &r2, &why2);
		if (rv != rv2 || (rv == 0 && !same(r, r2)) ||
		    (rv != -ENOMEM && !str_same(why, why2)))
			abort();
		fatbin_result_free(r2);
		free(why2);
		why2 = NULL;
		r2 = NULL;
		in.on_container = count_entries;
		m.n_handed = 0;
		rv2 = fatbin_parse_input(&in, modes[i], &r2, &why2);
		if (rv != rv2 || (rv == 0 && (m.n_handed + r2->n_entries != r->n_entries ||
					      m.n_handed != r2->n_handed ||
					      (m.n_handed > 0 && r2->n_entries > 0))))
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
