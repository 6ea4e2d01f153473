// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lookup in NVIDIA's CUDA forward-compatibility package table (facts-compat.h;
 * data/cuda_compat.tsv).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts-compat.h"

/* "12.8" or "12.8.1" → "12.8" in mm; false when not major.minor[...] */
static bool major_minor(const char *v, char *mm, size_t len)
{
	unsigned ma, mi;
	int n = 0;

	if (!v || sscanf(v, "%u.%u%n", &ma, &mi, &n) != 2 || (v[n] && v[n] != '.'))
		return false;
	snprintf(mm, len, "%u.%u", ma, mi);
	return true;
}

int facts_cuda_compat_support(const char *package, const char *driver,
			      const struct facts_cuda_compat **ret)
{
	char mm[24], branch[16];
	unsigned b;
	int n = 0;
	bool known = false;

	if (ret)
		*ret = NULL;
	if (!major_minor(package, mm, sizeof(mm)) || !driver ||
	    sscanf(driver, "%u%n", &b, &n) != 1 || (driver[n] && driver[n] != '.'))
		return -EINVAL;
	snprintf(branch, sizeof(branch), "%u", b);
	for (size_t i = 0; i < facts_cuda_compat_table_len; i++) {
		const struct facts_cuda_compat *r = &facts_cuda_compat_table_rows()[i];

		if (strcmp(r->package, mm) != 0)
			continue;
		known = true;
		if (strcmp(r->driver_branch, branch) != 0)
			continue;
		if (ret)
			*ret = r;
		if (strcmp(r->support, "compatible") == 0)
			return FACTS_COMPAT_COMPATIBLE;
		return strcmp(r->support, "not_needed") == 0 ? FACTS_COMPAT_NOT_NEEDED
							     : FACTS_COMPAT_NOT_COMPATIBLE;
	}
	return known ? FACTS_COMPAT_UNLISTED : -ENOENT;
}

size_t facts_cuda_compat_branches(const char *package, char *buf, size_t len)
{
	char mm[24];
	size_t n = 0, used = 0;

	if (len)
		buf[0] = '\0';
	if (!major_minor(package, mm, sizeof(mm)))
		return 0;
	for (size_t i = 0; i < facts_cuda_compat_table_len; i++) {
		const struct facts_cuda_compat *r = &facts_cuda_compat_table_rows()[i];
		int w;

		if (strcmp(r->package, mm) != 0 || strcmp(r->support, "compatible") != 0)
			continue;
		if (used < len) {
			w = snprintf(buf + used, len - used, "%sR%s", n ? ", " : "",
				     r->driver_branch);
			used += w > 0 ? (size_t)w : 0;
		}
		n++;
	}
	return n;
}

const char *facts_cuda_compat_package_of(const char *driver)
{
	char branch[16];
	unsigned b;
	int n = 0;

	if (!driver || sscanf(driver, "%u%n", &b, &n) != 1 || (driver[n] && driver[n] != '.'))
		return NULL;
	snprintf(branch, sizeof(branch), "%u", b);
	for (size_t i = 0; i < facts_cuda_compat_table_len; i++) {
		const struct facts_cuda_compat *r = &facts_cuda_compat_table_rows()[i];

		if (strcmp(r->driver_branch, branch) == 0 && strcmp(r->support, "not_needed") == 0)
			return r->package;
	}
	return NULL;
}
