// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lookups in the AMD tables of the knowledge base (facts-amd.h; data/amdgpu_kmd.tsv,
 * data/rocm_kernel_amdgpu.tsv, data/amdgpu_kernel.tsv).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts-amd.h"
#include "facts/facts.h"

int facts_amdgpu_kmd_supports(const char *kmd, const char *user,
			      const struct facts_amdgpu_kmd **ret)
{
	unsigned ma, mi;
	char mm[24];

	if (!kmd || !user || sscanf(user, "%u.%u", &ma, &mi) != 2)
		return -ENOENT;
	snprintf(mm, sizeof(mm), "%u.%u", ma, mi);
	for (size_t i = 0; i < facts_amdgpu_kmd_table_len; i++) {
		const struct facts_amdgpu_kmd *r = &facts_amdgpu_kmd_table_rows()[i];
		size_t n = strlen(mm);

		if (strcmp(r->kmd, kmd) != 0)
			continue;
		if (ret)
			*ret = r;
		for (const char *p = r->user_space; *p;
		     p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
			if (strcspn(p, ",") == n && strncmp(p, mm, n) == 0)
				return 1;
		}
		return 0;
	}
	return -ENOENT;
}

/* "5.11.6-1-default" → 511; -1 when not major.minor. */
static long major_minor(const char *v)
{
	unsigned ma = 0, mi = 0;

	return v && sscanf(v, "%u.%u", &ma, &mi) == 2 && ma < 100000 && mi < 1000
		       ? (long)ma * 1000 + mi
		       : -1;
}

int facts_rocm_kernel_amdgpu(const char *rocm, const char *gfx, const char *kernel,
			     const struct facts_rocm_kernel_amdgpu **ret)
{
	long r = major_minor(rocm), k = major_minor(kernel);

	if (r < 0 || k < 0 || !gfx)
		return -EINVAL;
	for (size_t i = 0; i < facts_rocm_kernel_amdgpu_table_len; i++) {
		const struct facts_rocm_kernel_amdgpu *row =
			&facts_rocm_kernel_amdgpu_table_rows()[i];

		if (major_minor(row->rocm) != r || strcmp(row->gfx, gfx) != 0 ||
		    k < major_minor(row->kernel_from) || k > major_minor(row->kernel_to))
			continue;
		if (ret)
			*ret = row;
		return 1;
	}
	return 0;
}

int facts_amdgpu_kernel_family(unsigned device, const struct facts_amdgpu_kernel **ret)
{
	for (size_t i = 0; i < facts_amdgpu_kernel_table_len; i++) {
		if (facts_pci_id_listed(facts_amdgpu_kernel_table_rows()[i].pci_device_ids,
					device)) {
			*ret = &facts_amdgpu_kernel_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}
