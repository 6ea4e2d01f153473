/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Can the nvJitLink a program would load link this LTO-IR? LTO-IR (lto_XX, `nvcc -dlto`,
 * NVRTC -dlto) never loads as it is: a device link turns it into SASS, at build time
 * (nvlink -dlto) or at run time through nvJitLink, which "must be of the same or newer
 * version" than the LTO-IR (NVIDIA nvJitLink documentation, Compatibility). The LTO-IR's
 * version is its NVVM IR container's (docs/formats/fatbin.md §4), tied to CUDA releases by
 * src/facts/data/ltoir.tsv. A pure function; whether the program calls nvJitLink at all
 * cannot be seen, so every answer is a condition ("if it links it at run time").
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum ltoir_verdict {
	LTOIR_CANNOT_TELL = 0, /* version of the LTO-IR or of the nvJitLink's release unknown */
	LTOIR_NO_NVJITLINK,    /* no libnvJitLink found beside it */
	LTOIR_NVJITLINK_NEW_ENOUGH,
	LTOIR_NVJITLINK_TOO_OLD, /* "may need newer version of nvJitLink library" */
};

struct ltoir_result {
	enum ltoir_verdict verdict;
	/* rests on the order of two table rows, not on the nvJitLink's own release's row, or on
	 * a row data/ltoir.tsv marks unconfirmed */
	bool unconfirmed;
	char reason[320];
};

/* "unknown" (could not tell), "none-found" (no nvJitLink), "new-enough", "too-old": the
 * `verdict` of check --json's coverage[].lto[] (docs/schema/check.json). */
const char *ltoir_verdict_name(enum ltoir_verdict v);

/*
 * target: "lto_90"; lto_major/lto_minor: the entry's LTO-IR version, -1 when it has none;
 * nvjitlink: the version of the libnvJitLink found ("12.4.127", "13.0", or "12" when only the
 * file name's major is known), NULL when none was found. 0, or -EINVAL (no target or result,
 * an nvjitlink that is not a version).
 */
int ltoir_judge(const char *target, int lto_major, int lto_minor, const char *nvjitlink,
		struct ltoir_result *ret);

/* ltoir_judge() on the rows given instead of data/ltoir.tsv's (sorted by CUDA release, as
 * gen-facts.py checks): for the tests of rows the table does not have yet. */
struct facts_ltoir;
int ltoir_judge_on(const struct facts_ltoir *rows, size_t n_rows, const char *target, int lto_major,
		   int lto_minor, const char *nvjitlink, struct ltoir_result *ret);
