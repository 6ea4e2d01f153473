// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lookups in the Intel GPU tables of the knowledge base (facts-intel.h; data/ipex_xpu.tsv).
 */
#include <errno.h>
#include <string.h>

#include "facts/facts-intel.h"

int facts_ipex_release(const char *version, const struct facts_ipex **ret)
{
	/* the public version without its local part: "2.1.20+xpu" -> "2.1.20" */
	size_t n = version ? strcspn(version, "+") : 0;

	for (size_t i = 0; n && i < facts_ipex_table_len; i++) {
		const char *v = facts_ipex_table[i].ipex;

		if (strlen(v) == n && strncmp(v, version, n) == 0) {
			*ret = &facts_ipex_table[i];
			return 0;
		}
	}
	return -ENOENT;
}
