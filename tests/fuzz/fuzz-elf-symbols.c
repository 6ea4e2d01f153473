// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the dynamic-symbol and GNU-version reader (src/formats/elf-symbols.c) on
 * any bytes, with the prefix the nvJitLink probe uses and with none (every symbol kept, up to
 * the cap). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-symbols.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	touch("__nvJitLink", data, size);
	touch("", data, size);
	return 0;
}
