// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the streaming JSON reader (src/formats/json-scan.c), descending into every
 * other container and decoding every string, as `gpuenv fleet` does. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/json-scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_item(void *userdata, const struct json_scan_item *it)
{
	size_t *n = userdata;
	char buf[64];

	(*n)++;
	if (it->event == JSON_SCAN_STRING)
		(void)json_scan_unescape(it->value, it->value_len, buf, sizeof(buf), NULL);
	for (unsigned i = 0; i < it->depth; i++)
		if (it->path[i].key)
			(void)json_scan_unescape(it->path[i].key, it->path[i].key_len, buf,
						 sizeof(buf), NULL);
	return (it->event == JSON_SCAN_OBJECT || it->event == JSON_SCAN_ARRAY) && (*n & 1)
		       ? JSON_SCAN_SKIP
		       : JSON_SCAN_DESCEND;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_scan_error e;
	size_t n = 0;

	(void)json_scan((const char *)data, size, on_item, &n, &e);
	return 0;
}
