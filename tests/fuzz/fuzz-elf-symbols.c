// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the dynamic-symbol and GNU-version reader (src/formats/elf-symbols.c) on
 * any bytes, with the prefix the nvJitLink probe uses and with none (every symbol kept, up to
 * the cap), and as the sibling probe reads a library (its needed symbols only); and the streamed read (src/formats/elf-symbols-stream.c), handed the bytes in
 * chunks of a size the input picks, against it: both must return the same and say the same,
 * or it aborts (a byte the parser reads that the stages did not keep). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-symbols-stream.h"
#include "elf-stream-source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void touch(const char *prefix, const uint8_t *data, size_t size)
{
	struct elf_symbols *s = NULL;

	if (elf_symbols_parse(data, size, prefix, &s) != 0)
		return;
	if (s->n > ELF_SYMBOLS_MAX_KEPT)
		abort();
	/* Touch every string so ASan sees a bad one. */
	for (size_t i = 0; i < s->n; i++) {
		const struct elf_symbol *e = &s->sym[i];

		if (strncmp(e->name, prefix, strlen(prefix)) != 0 || (e->defined && e->file))
			abort();
		if (e->version)
			(void)strlen(e->version);
		if (e->file)
			(void)strlen(e->file);
		if (!elf_symbols_defines(s, e->name, e->version) && e->defined)
			abort();
	}
	elf_symbols_free(s);
}

/* elf_symbols_parse_needed(): only undefined symbols, each needed from a named file. */
static void needed(const uint8_t *data, size_t size)
{
	struct elf_symbols *s = NULL;

	if (elf_symbols_parse_needed(data, size, &s) != 0)
		return;
	if (s->n > ELF_SYMBOLS_MAX_NEEDED)
		abort();
	/* a hostile file may name an empty string: touched (ASan), never assumed otherwise */
	for (size_t i = 0; i < s->n; i++)
		if (s->sym[i].defined || !s->sym[i].file || !s->sym[i].version ||
		    strlen(s->sym[i].name) > size || strlen(s->sym[i].file) > size ||
		    strlen(s->sym[i].version) > size)
			abort();
	elf_symbols_free(s);
}

static void streamed(const char *prefix, const uint8_t *data, size_t size)
{
	struct buffer b = { .p = data, .len = size, .chunk = 1 + (size ? data[size - 1] * 7u : 0) };
	struct elf_symbols *whole = NULL, *stream = NULL;
	int a = elf_symbols_parse(data, size, prefix, &whole);
	int s = elf_symbols_parse_stream(from_buffer, &b, size ? size : 1, prefix, &stream);

	if (a != s || (a == 0 && !elf_symbols_same(whole, stream)))
		abort();
	elf_symbols_free(whole);
	elf_symbols_free(stream);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	streamed("__nvJitLink", data, size);
	touch("__nvJitLink", data, size);
	touch("", data, size);
	needed(data, size);
	return 0;
}
