// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the ELF dynamic-section parser (src/formats/elf-dynamic.c) on any bytes. */
#include <stdint.h>
#include <string.h>

#include "formats/elf-dynamic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_dynamic *d = NULL;

	if (elf_dynamic_parse(data, size, &d) == 0) {
		/* Touch every string so ASan sees a bad one. */
		for (size_t i = 0; i < d->n_needed; i++)
			(void)strlen(d->needed[i]);
		if (d->soname)
			(void)strlen(d->soname);
		if (d->runpath)
			(void)strlen(d->runpath);
		if (d->rpath)
			(void)strlen(d->rpath);
		(void)elf_machine_name(d->machine);
		elf_dynamic_free(d);
	}
	return 0;
}
