// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the ELF / fatbin / cubin parser (src/fatbin/fatbin.c), header-only and
 * with payload heads decoded and every section searched, and the stream walker fed the same
 * bytes in uneven chunks. Format: /work/shared/facts/fatbin-format.md.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned modes[] = { 0, FATBIN_PARSE_PAYLOAD_HEADS | FATBIN_PARSE_SEARCH_ALL };
	struct fatbin_stream *st;
	struct fatbin_result *r;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char *why = NULL;

		r = NULL;
		if (fatbin_parse(data, size, modes[i], &r, &why) == 0)
			fatbin_result_free(r);
		free(why);
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
