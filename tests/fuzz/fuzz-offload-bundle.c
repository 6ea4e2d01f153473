// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: clang offload bundles and CCOB headers (src/fatbin/fatbin-bundle.c),
 * and the bundle entry id splitter. Format: LLVM clang/docs/ClangOffloadBundler.rst.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fatbin_result *r = calloc(1, sizeof(*r));
	struct fatbin_bundle_entry e;
	size_t used = 0;
	char *id;

	if (!r)
		return 0;
	fatbin_bundle_parse(r, data, size, &used);
	fatbin_result_free(r);
	id = malloc(size + 1);
	if (id) {
		memcpy(id, data, size);
		id[size] = '\0';
		memset(&e, 0, sizeof(e));
		fatbin_bundle_id_parse(id, strlen(id), &e);
		free(id);
	}
	return 0;
}
