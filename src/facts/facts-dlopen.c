// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The libraries a framework release opens by name (framework_dlopen.tsv, whose header names
 * the sources: TensorFlow's dso_loader.cc, numba's cudadrv/driver.py, Warp's cuda_util.cpp,
 * CuPy's run-time NVRTC loading): the rows of one framework distribution at one version.
 */
#include <string.h>

#include "facts/facts-table.h"
#include "facts/facts.h"
#include "shared/parse.h"

size_t facts_dlopen_rows(const char *framework, const char *version,
			 const struct facts_dlopen **ret, size_t max)
{
	struct version v;
	const char *end;
	size_t n = 0;

	if (!framework || !version || version_parse_prefix(version, &v, &end) < 0)
		return 0;
	for (size_t i = 0; i < facts_dlopen_table_len && n < max; i++) {
		const struct facts_dlopen *d = &facts_dlopen_table_rows()[i];
		struct version first, below;

		if (strcmp(d->framework, framework) != 0 || version_parse(d->first, &first) < 0)
			continue;
		if (version_cmp(&v, &first) < 0)
			continue;
		if (d->below &&
		    (version_parse(d->below, &below) < 0 || version_cmp(&v, &below) >= 0))
			continue;
		ret[n++] = d;
	}
	return n;
}
