// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LTO-IR against nvJitLink (ltoir.h). An nvJitLink links LTO-IR up to the version its own
 * release's compilers write and refuses a newer one (observed with nvJitLink 13.0: 1.66 is
 * refused, "ERROR 4 in nvvmAddNVVMContainerToProgram, may need newer version of nvJitLink
 * library"; data/ltoir.tsv). For a release the table has, that is the answer. For one it
 * lacks, a row of a later release bounds it from above (no release writes an older LTO-IR
 * than the one before it) and a row of an earlier release of the same major from below
 * (NVIDIA links LTO-IR only within one major release: MathDx "LTO requirements"); such
 * answers are unconfirmed, and so is any answer that rests on a row the table marks
 * unconfirmed. Anything else is "could not tell".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts-table.h"
#include "facts/ltoir.h"
#include "shared/parse.h"

const char *ltoir_verdict_name(enum ltoir_verdict v)
{
	switch (v) {
	case LTOIR_NO_NVJITLINK:
		return "none-found";
	case LTOIR_NVJITLINK_NEW_ENOUGH:
		return "new-enough";
	case LTOIR_NVJITLINK_TOO_OLD:
		return "too-old";
	default:
		return "unknown";
	}
}

static bool row_unconfirmed(const struct facts_ltoir *r)
{
	return strcmp(r->confidence, "confirmed") != 0;
}

static int ver_cmp(unsigned a_ma, unsigned a_mi, unsigned b_ma, unsigned b_mi)
{
	if (a_ma != b_ma)
		return a_ma < b_ma ? -1 : 1;
	return a_mi < b_mi ? -1 : a_mi > b_mi;
}

int ltoir_judge(const char *target, int lto_major, int lto_minor, const char *nvjitlink,
		struct ltoir_result *ret)
{
	return ltoir_judge_on(facts_ltoir_table_rows(), facts_ltoir_table_len, target, lto_major,
			      lto_minor, nvjitlink, ret);
}

int ltoir_judge_on(const struct facts_ltoir *rows, size_t n_rows, const char *target, int lto_major,
		   int lto_minor, const char *nvjitlink, struct ltoir_result *ret)
{
	const struct facts_ltoir *exact = NULL, *above = NULL, *below = NULL;
	struct ltoir_result res = { .verdict = LTOIR_CANNOT_TELL };
	struct version v = { 0 };
	char nv[48];
	unsigned ma, mi_lo, mi_hi; /* the nvJitLink's release lies in ma.mi_lo .. ma.mi_hi */

	if (!target || !ret)
		return -EINVAL;
	if (nvjitlink && version_parse(nvjitlink, &v) < 0)
		return -EINVAL;
	if (lto_major < 0 || lto_minor < 0) {
		snprintf(res.reason, sizeof(res.reason),
			 "%s: its LTO-IR version is not in its header: could not tell which "
			 "nvJitLink links it",
			 target);
		*ret = res;
		return 0;
	}
	if (!nvjitlink) {
		res.verdict = LTOIR_NO_NVJITLINK;
		snprintf(res.reason, sizeof(res.reason),
			 "%s (LTO-IR %d.%d): no libnvJitLink found to link it at run time (it "
			 "runs only as SASS a device link made of it, or through an nvJitLink the "
			 "program brings)",
			 target, lto_major, lto_minor);
		*ret = res;
		return 0;
	}
	ma = v.part[0];
	mi_lo = v.n > 1 ? v.part[1] : 0;
	mi_hi = v.n > 1 ? v.part[1] : 99;
	if (v.n > 1)
		snprintf(nv, sizeof(nv), "nvJitLink %u.%u", ma, mi_lo);
	else
		snprintf(nv, sizeof(nv), "nvJitLink %u.x", ma);
	for (size_t i = 0; i < n_rows; i++) {
		const struct facts_ltoir *r = &rows[i];

		if (v.n > 1 && r->cuda_major == ma && r->cuda_minor == mi_lo)
			exact = r;
		else if (ver_cmp(r->cuda_major, r->cuda_minor, ma, mi_hi) > 0) {
			if (!above)
				above = r; /* the earliest later release */
		} else if (ver_cmp(r->cuda_major, r->cuda_minor, ma, mi_lo) < 0)
			below = r; /* the latest earlier release */
	}
	if (exact) {
		bool ok = ver_cmp((unsigned)lto_major, (unsigned)lto_minor, exact->ltoir_major,
				  exact->ltoir_minor) <= 0;

		res.verdict = ok ? LTOIR_NVJITLINK_NEW_ENOUGH : LTOIR_NVJITLINK_TOO_OLD;
		res.unconfirmed = row_unconfirmed(exact);
		snprintf(res.reason, sizeof(res.reason),
			 "%s (LTO-IR %d.%d): %s %s (it links LTO-IR up to %s, what CUDA %s "
			 "writes)%s",
			 target, lto_major, lto_minor, nv,
			 ok ? "is new enough to link it" : "too old to link it",
			 exact->ltoir_version, exact->cuda_version,
			 ok ? "" : ": \"may need newer version of nvJitLink library\"");
	} else if (above && ver_cmp((unsigned)lto_major, (unsigned)lto_minor, above->ltoir_major,
				    above->ltoir_minor) > 0) {
		res.verdict = LTOIR_NVJITLINK_TOO_OLD;
		res.unconfirmed = true; /* the order of two rows, whatever their confidence */
		snprintf(res.reason, sizeof(res.reason),
			 "%s (LTO-IR %d.%d): %s too old to link it (even CUDA %s writes only "
			 "LTO-IR %s, and an nvJitLink links none newer than its own release "
			 "writes)",
			 target, lto_major, lto_minor, nv, above->cuda_version,
			 above->ltoir_version);
	} else if (below && below->cuda_major == ma &&
		   ver_cmp((unsigned)lto_major, (unsigned)lto_minor, below->ltoir_major,
			   below->ltoir_minor) <= 0) {
		res.verdict = LTOIR_NVJITLINK_NEW_ENOUGH;
		res.unconfirmed = true; /* likewise */
		snprintf(res.reason, sizeof(res.reason),
			 "%s (LTO-IR %d.%d): %s is new enough to link it (CUDA %s already "
			 "writes LTO-IR %s)",
			 target, lto_major, lto_minor, nv, below->cuda_version,
			 below->ltoir_version);
	} else {
		snprintf(res.reason, sizeof(res.reason),
			 "%s (LTO-IR %d.%d): could not tell whether %s links it (the LTO-IR "
			 "version of CUDA %s is not in the knowledge base)",
			 target, lto_major, lto_minor, nv, nv + strlen("nvJitLink "));
	}
	*ret = res;
	return 0;
}
