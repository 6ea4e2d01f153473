/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An elf_stream_source (src/formats/elf-stream.h) over a buffer, handed out in chunks of a
 * chosen size and counting the passes: what the streamed-parser fuzz targets and unit tests
 * feed the stream parsers with.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct buffer {
	const uint8_t *p;
	size_t len, chunk;
	unsigned passes;
};

static inline int from_buffer(void *userdata, int (*chunk)(void *, const uint8_t *, size_t),
			      void *chunk_userdata, uint64_t *size)
{
	struct buffer *b = userdata;

	b->passes++;
	for (size_t off = 0; off < b->len; off += b->chunk) {
		size_t n = b->len - off < b->chunk ? b->len - off : b->chunk;
		int err = chunk(chunk_userdata, b->p + off, n);

		if (err < 0)
			return err;
	}
	*size = b->len;
	return 0;
}
