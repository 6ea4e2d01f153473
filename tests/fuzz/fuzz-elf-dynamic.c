// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the ELF dynamic-section parser (src/formats/elf-dynamic.c) and the CUDA
 * runtime identification over the same ELF (src/formats/cudart-ident.c) on any bytes, in
 * memory and through a reader (the two must agree). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cudart-ident.h"
#include "formats/elf-dynamic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const uint8_t *p;
	size_t len;
};

static ssize_t input_read(void *userdata, uint64_t off, void *buf, size_t n)
{
	const struct input *in = userdata;

	if (off > in->len)
		return 0;
	n = n < in->len - off ? n : (size_t)(in->len - off);
	memcpy(buf, in->p + off, n);
	return (ssize_t)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_dynamic *d = NULL;
	struct cudart_ident id, id2;
	struct input in = { data, size };
	int found = cudart_ident_static(data, size, &id);

	if (found == 1)
		(void)strlen(id.version);
	if (cudart_ident_static_read(data, size, &(struct cudart_ident_reader){ input_read, &in },
				     NULL, &id2) != found ||
	    (found == 1 && memcmp(&id, &id2, sizeof(id)) != 0))
		abort();

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
