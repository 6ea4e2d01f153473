// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: METADATA/PKG-INFO headers, RECORD rows and dist-info directory names
 * (src/formats/dist-metadata.c) over arbitrary bytes. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dist-metadata.h"
#include "shared/strv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool want_so(const char *p)
{
	return strstr(p, ".so") != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dist_metadata *m = NULL;
	char **paths = NULL;

	if (dist_metadata_parse((const char *)data, size, &m) == 0)
		dist_metadata_free(m);
	if (dist_record_paths((const char *)data, size, NULL, 1000, &paths) == 0)
		strv_free(paths);
	if (dist_record_paths((const char *)data, size, want_so, 8, &paths) == 0)
		strv_free(paths);
	if (size < 256 && !memchr(data, '\0', size)) {
		char name[256], norm[64], *n, *v;

		memcpy(name, data, size);
		name[size] = '\0';
		if (dist_dirname_split(name, &n, &v) == 0) {
			free(n);
			free(v);
		}
		dist_name_normalize(name, norm, sizeof(norm));
	}
	return 0;
}
