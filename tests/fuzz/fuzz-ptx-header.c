// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the PTX module-directive reader (src/fatbin/fatbin-ptx.c: .version,
 * .target, .address_size, comments). Format: NVIDIA PTX ISA manual, module directives.
 */
#include <stdint.h>

#include "fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fatbin_ptx_header h;

	fatbin_ptx_header((const char *)data, size, &h);
	return 0;
}
