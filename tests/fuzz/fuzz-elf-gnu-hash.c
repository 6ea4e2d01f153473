// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the GNU hash lookup (src/formats/elf-gnu-hash.c) on any bytes, through a
 * reader over the input: the library's open, then lookups of names its symbols could carry
 * (the c10 names the seeds define, one that is absent, and the input's own last bytes as a
 * name). Every read must stay inside the input and every walk end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-gnu-hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const uint8_t *p;
	size_t len;
};

static ssize_t input_read(void *userdata, uint64_t off, void *buf, size_t n)
{
	const struct input *in = userdata;

	if (off > in->len)
		abort(); /* the reader checks every offset against the size first */
	n = n < in->len - off ? n : (size_t)(in->len - off);
	memcpy(buf, in->p + off, n);
	return (ssize_t)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"_ZN3c105ErrorC2ENS_14SourceLocationESs",
		"_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_"
		"traitsIcESaIcEEE",
		"_ZN3c104cuda9SetDeviceEi",
		"f",
		"",
	};
	struct input in = { data, size };
	struct elf_gnu_hash_input gi = { input_read, &in, size };
	struct elf_gnu_hash *h = NULL;
	char tail[32];
	size_t n = size < sizeof(tail) - 1 ? size : sizeof(tail) - 1;

	if (elf_gnu_hash_open(&gi, &h) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int r = elf_gnu_hash_defines(h, names[i]);

		if (r > 1)
			abort();
	}
	memcpy(tail, data + size - n, n);
	tail[n] = '\0';
	(void)elf_gnu_hash_defines(h, tail);
	elf_gnu_hash_free(h);
	return 0;
}
