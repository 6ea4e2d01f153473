// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of clinfo's platform count as pasted (`gpuenv explain`). clinfo (Oblomov/clinfo,
 * src/clinfo.c) prints "Number of platforms" and the count clGetPlatformIDs() gave, padded
 * to a column ("Number of platforms                               0"); AMD's APP SDK clinfo
 * writes "Number of platforms:\t\t\t\t 1". With no ICD the loader could use, clinfo says 0; older
 * or other clinfos print clGetPlatformIDs' error instead: CL_PLATFORM_NOT_FOUND_KHR, -1001
 * ("main:670: number of platforms : error -1001", Oblomov/clinfo#11). Both read as
 * the symptom of runtime.opencl-no-platforms, whose text it is, where the text lists ICD files
 * (`ls /etc/OpenCL/vendors`), else a symptom explain asks about; the count printed is
 * also runtime.opencl.platform_count (the probe's fact), an error's is not (no count printed).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define RULE	    "runtime.opencl-no-platforms"
#define SYMPTOM_MAX 240 /* bytes of the line kept, as the errors reader keeps them */

/* The count after "Number of platforms" (blanks, an optional ':'), the rest of the line
 * blank; -1 when the line is not clinfo's count. */
static long platform_count(const char *s)
{
	const char *p = pasted_after(s, "Number of platforms");
	char *end;
	long v;

	if (!p)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == ':')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	v = strtol(p, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	return *end || v > 10000 ? -1 : v;
}

/* A line of `ls /etc/OpenCL/vendors` (names ending in ".icd", blank-separated) or of `ls -l`
 * there ("-rw-r--r-- 1 root root 22 Jul 14 13:18 nvidia.icd"): ICD files are registered. */
static bool icd_listing(const char *s)
{
	bool all = true, any = false, last = false;

	while (*s) {
		size_t n = strcspn(s, " \t");

		if (n) {
			last = n > 4 && memcmp(s + n - 4, ".icd", 4) == 0;
			any |= last;
			all &= last;
		}
		s += n;
		s += strspn(s, " \t");
	}
	return any && (all || last);
}

/* clGetPlatformIDs' "no ICD" error as printed: its name, or -1001 on a line about the
 * platforms (a bare -1001 elsewhere is any number). */
static bool platform_not_found(const char *s)
{
	return strstr(s, "CL_PLATFORM_NOT_FOUND_KHR") ||
	       (strstr(s, "-1001") &&
		(strcasestr(s, "platforms") || strstr(s, "clGetPlatformIDs")));
}

/* No platform is the symptom of runtime.opencl-no-platforms where the text shows ICD files
 * registered (its premise); without them it is as much no OpenCL driver installed at all
 * (Oblomov/clinfo#11), and explain asks. */
static void put_no_platform(struct pasted_out *o, const char *s, unsigned no, bool icds)
{
	char kept[SYMPTOM_MAX + 1];

	pasted_cut_utf8(s, strlen(s), kept, sizeof(kept));
	pasted_put(o, no, kept, icds ? "symptoms.%s" : "symptoms.unsure.%s", RULE);
}

int pasted_read_clinfo(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "clinfo" };
	struct pasted_lines it;
	char *line, *none = NULL;
	unsigned none_no = 0;
	bool icds = false;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line);
		long n = platform_count(s);

		icds |= icd_listing(s);

		if (n >= 0) {
			char num[24];

			snprintf(num, sizeof(num), "%ld", n);
			pasted_put(&o, it.no, num, "runtime.opencl.platform_count");
		}
		if (n > 0 || (n < 0 && !platform_not_found(s)) || none)
			continue;
		none = strdup(s);
		none_no = it.no;
		if (!none)
			o.err = o.err ?: -ENOMEM;
	}
	pasted_lines_done(&it);
	if (none)
		put_no_platform(&o, none, none_no, icds);
	free(none);
	return pasted_out_result(&o);
}
