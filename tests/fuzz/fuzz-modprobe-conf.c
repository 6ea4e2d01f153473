// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the modprobe.d and kernel command-line blacklist parsers
 * (src/formats/modprobe-conf.c) over the same bytes, checking the cap and that every kept
 * entry is a NUL-terminated NVIDIA module name and line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/modprobe-conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct modprobe_blocks *bl = calloc(1, sizeof(*bl));

	if (!bl)
		return 0;
	modprobe_conf_parse((const char *)data, size, bl);
	kernel_cmdline_blacklist_parse((const char *)data, size, bl);
	if (bl->n > MODPROBE_BLOCKS_MAX)
		abort();
	for (size_t i = 0; i < bl->n; i++) {
		if (strncmp(bl->b[i].module, "nvidia", 6) != 0 ||
		    strlen(bl->b[i].text) >= MODPROBE_TEXT_MAX)
			abort();
		(void)modprobe_block_kind_name(bl->b[i].kind);
	}
	free(bl);
	return 0;
}
