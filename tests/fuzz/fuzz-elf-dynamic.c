// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the ELF dynamic-section parser (src/formats/elf-dynamic.c) and the CUDA
 * runtime identification over the same ELF (src/formats/cudart-ident.c) on any bytes. */
#include <stdint.h>
#include <string.h>

#include "formats/cudart-ident.h"
#include "formats/elf-dynamic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_dynamic *d = NULL;
	struct cudart_ident id;

	if (cudart_ident_static(data, size, &id) == 1)
		(void)strlen(id.version);

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
		if (cudart_ident_linked(d->soname, d->needed, d->n_needed, &id) == 1)
			(void)strlen(id.version);
		elf_dynamic_free(d);
	}
	return 0;
}
