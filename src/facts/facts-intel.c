// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lookups in the Intel GPU tables of the knowledge base (facts-intel.h; data/ipex_xpu.tsv,
 * data/intel_gpu_kernel.tsv, data/intel_compute_runtime_legacy.tsv).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts-intel.h"
#include "facts/facts.h"

int facts_ipex_release(const char *version, const struct facts_ipex **ret)
{
	/* the public version without its local part: "2.1.20+xpu" -> "2.1.20" */
	size_t n = version ? strcspn(version, "+") : 0;

	for (size_t i = 0; n && i < facts_ipex_table_len; i++) {
		const char *v = facts_ipex_table_rows()[i].ipex;

		if (strlen(v) == n && strncmp(v, version, n) == 0) {
			*ret = &facts_ipex_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}

int facts_intel_kernel_family(unsigned device, const struct facts_intel_kernel **ret)
{
	for (size_t i = 0; i < facts_intel_kernel_table_len; i++) {
		if (facts_pci_id_listed(facts_intel_kernel_table_rows()[i].pci_device_ids,
					device)) {
			*ret = &facts_intel_kernel_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}

int facts_intel_legacy_family(unsigned device, const struct facts_intel_legacy **ret)
{
	for (size_t i = 0; i < facts_intel_legacy_table_len; i++) {
		if (facts_pci_id_listed(facts_intel_legacy_table_rows()[i].pci_device_ids,
					device)) {
			*ret = &facts_intel_legacy_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}
