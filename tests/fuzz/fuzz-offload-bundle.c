// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: clang offload bundles and CCOB headers (src/fatbin/fatbin-bundle.c),
 * the bundle entry id splitter, and the stream scanners (fatbin-stream-bundle.c and
 * fatbin-stream-ccob.c, with the CUDA one beside them), differential: fed in chunks of
 * several sizes, the stream must find the same bundles, entries and warning whatever the
 * chunk size (a magic, a count, an entry or a compressed block split between two chunks).
 * Format: LLVM clang/docs/ClangOffloadBundler.rst.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data fed in chunks of `chunk` bytes; NULL on OOM. */
static struct fatbin_result *stream(const uint8_t *data, size_t size, size_t chunk)
{
	struct fatbin_stream *st;
	struct fatbin_result *r = NULL;

	if (fatbin_stream_new(&st) < 0)
		return NULL;
	for (size_t at = 0; at < size; at += chunk)
		if (fatbin_stream_feed(st, data + at, chunk < size - at ? chunk : size - at) < 0) {
			fatbin_stream_free(st);
			return NULL;
		}
	return fatbin_stream_finish(st, &r) < 0 ? NULL : r;
}

static bool same(const struct fatbin_result *a, const struct fatbin_result *b)
{
	if (a->n_bundles != b->n_bundles || a->n_bundle_entries != b->n_bundle_entries ||
	    a->n_containers != b->n_containers || a->n_entries != b->n_entries ||
	    !a->warning != !b->warning || (a->warning && strcmp(a->warning, b->warning) != 0))
		return false;
	for (size_t i = 0; i < a->n_bundle_entries; i++)
		if (strcmp(a->bundle_entries[i].id, b->bundle_entries[i].id) != 0 ||
		    a->bundle_entries[i].offset != b->bundle_entries[i].offset ||
		    a->bundle_entries[i].size != b->bundle_entries[i].size)
			return false;
	return true;
}

static void stream_differential(const uint8_t *data, size_t size)
{
	static const size_t chunks[] = { 1, 7, 24, 4096 };
	struct fatbin_result *whole = stream(data, size, size ? size : 1);

	for (size_t c = 0; whole && c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct fatbin_result *r = stream(data, size, chunks[c]);

		if (r && !same(whole, r))
			abort();
		fatbin_result_free(r);
	}
	fatbin_result_free(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fatbin_result *r = calloc(1, sizeof(*r));
	struct fatbin_bundle_entry e;
	size_t used = 0;
	char *id;

	if (!r)
		return 0;
	fatbin_bundle_parse(r, data, size, &used);
	fatbin_result_free(r);
	id = malloc(size + 1);
	if (id) {
		memcpy(id, data, size);
		id[size] = '\0';
		memset(&e, 0, sizeof(e));
		fatbin_bundle_id_parse(id, strlen(id), &e);
		free(id);
	}
	stream_differential(data, size);
	return 0;
}
