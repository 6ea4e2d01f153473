// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the streamed dynamic-section read (src/formats/elf-dynamic-stream.c)
 * against the whole-file parse (src/formats/elf-dynamic.c) on any bytes, handed out in
 * chunks of a size the input picks: both must return the same and say the same, or it
 * aborts (a byte the parser reads that the stages did not keep). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/elf-dynamic-stream.h"
#include "elf-stream-source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buffer b = { .p = data, .len = size, .chunk = 1 + (size ? data[size - 1] * 7u : 0) };
	struct elf_dynamic *whole = NULL, *streamed = NULL;
	int a = elf_dynamic_parse(data, size, &whole);
	int s = elf_dynamic_parse_stream(from_buffer, &b, size ? size : 1, &streamed);

	if (a != s || (a == 0 && !elf_dynamic_same(whole, streamed)))
		abort();
	elf_dynamic_free(whole);
	elf_dynamic_free(streamed);
	return 0;
}
