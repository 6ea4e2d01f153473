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
 *
 * The platforms' names are read as runtime.opencl.platforms.N.{name,vendor,version} (the probe's
 * keys): clinfo's "  Platform Name   X" (printed again above each platform's devices: read once),
 * `clinfo -l`'s "Platform #0: X", and the miners' (cgminer, bfgminer, sgminer: ocl.c's
 * clDevicesNum) "CL Platform 0 name: X", which they print for every platform, then the number of
 * its GPU devices ("Platform 0 devices: 1") or clGetDeviceIDs' error for it ("Error -1: Getting
 * Device IDs (num)": -1 is CL_DEVICE_NOT_FOUND, no GPU device): platforms.N.gpu_devices.
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
#include "shared/macro.h"

#define RULE	      "runtime.opencl-no-platforms"
#define SYMPTOM_MAX   240 /* bytes of the line kept, as the errors reader keeps them */
#define PLATFORMS_MAX 16  /* clinfo's platform names remembered, to read each once */
#define NAME_MAX_LEN  128

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

/* What the platform lines read so far leave: the miners' last platform index (the device
 * line that follows is its), clinfo's names seen. */
struct platforms {
	int last;
	size_t n_names;
	char names[PLATFORMS_MAX][NAME_MAX_LEN];
};

/* "CL Platform N vendor: X" (name, version): the index and the key, the value past ": ". */
static const char *miner_platform(const char *s, unsigned *ret_index, const char **ret_key)
{
	static const char *const keys[] = { "vendor", "name", "version" };
	const char *p = strstr(s, "CL Platform ");
	unsigned n;

	if (!p || !pasted_index(p + strlen("CL Platform "), &n, &p) || *p++ != ' ')
		return NULL;
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		size_t kl = strlen(keys[k]);

		if (strncmp(p, keys[k], kl) == 0 && p[kl] == ':') {
			*ret_index = n;
			*ret_key = keys[k];
			return p + kl + 1;
		}
	}
	return NULL;
}

/* The number of GPU devices a miner's line gives for a platform: "Platform N devices: M", or
 * "Error -1: Getting Device IDs (num)" for the last platform named (CL_DEVICE_NOT_FOUND: none;
 * another error tells nothing). -1 when the line is neither. */
static long miner_gpu_devices(const char *s, const struct platforms *pl, unsigned *ret_index)
{
	const char *p = strstr(s, "Error -1: Getting Device IDs");
	char *end;
	long v;

	if (p) {
		if (pl->last < 0)
			return -1;
		*ret_index = (unsigned)pl->last;
		return 0;
	}
	p = strstr(s, "Platform ");
	if (!p || !pasted_index(p + strlen("Platform "), ret_index, &p))
		return -1;
	if (strncmp(p, " devices: ", 10) != 0 || p[10] < '0' || p[10] > '9')
		return -1;
	v = strtol(p + 10, &end, 10);
	return *end || v > 10000 ? -1 : v;
}

/* clinfo's "Platform Name   X" or `clinfo -l`'s "Platform #N: X": the name, and its index
 * (clinfo's: the order of first appearance; a name met again is its device section's). */
static void clinfo_platform(struct pasted_out *o, unsigned no, const char *s, struct platforms *pl)
{
	const char *name = pasted_after(s, "Platform Name");
	unsigned n;

	if (name && (*name == ' ' || *name == '\t')) {
		char kept[NAME_MAX_LEN];

		name += strspn(name, " \t");
		if (!*name)
			return;
		pasted_cut_utf8(name, strlen(name), kept, sizeof(kept));
		for (size_t i = 0; i < pl->n_names; i++)
			if (strcmp(pl->names[i], kept) == 0)
				return;
		if (pl->n_names == PLATFORMS_MAX)
			return;
		memcpy(pl->names[pl->n_names], kept, sizeof(kept));
		pasted_put(o, no, kept, "runtime.opencl.platforms.%zu.name", pl->n_names++);
		return;
	}
	name = pasted_after(s, "Platform #");
	if (name && pasted_index(name, &n, &name) && name[0] == ':' && name[1] == ' ' &&
	    n < PLATFORMS_MAX)
		pasted_put(o, no, name + 2, "runtime.opencl.platforms.%u.name", n);
}

/* A platform line of a miner's or clinfo's; true when the line was one. */
static bool platform_line(struct pasted_out *o, unsigned no, const char *s, struct platforms *pl)
{
	const char *key, *value;
	unsigned n;
	long gpus;

	if ((value = miner_platform(s, &n, &key))) {
		if (n >= PLATFORMS_MAX)
			return true;
		pl->last = (int)n;
		pasted_put(o, no, value, "runtime.opencl.platforms.%u.%s", n, key);
		return true;
	}
	if ((gpus = miner_gpu_devices(s, pl, &n)) >= 0) {
		char num[24];

		if (n < PLATFORMS_MAX) {
			snprintf(num, sizeof(num), "%ld", gpus);
			pasted_put(o, no, num, "runtime.opencl.platforms.%u.gpu_devices", n);
		}
		/* a platform without a GPU device: runtime.opencl-cpu-only's symptom where the
		 * platform is a CPU one, which the rule judges from its name */
		if (gpus == 0) {
			char kept[SYMPTOM_MAX + 1];

			pasted_cut_utf8(s, strlen(s), kept, sizeof(kept));
			pasted_put(o, no, kept, "symptoms.unsure.runtime.opencl-cpu-only");
		}
		pl->last = -1; /* one device line a platform */
		return true;
	}
	if (strstr(s, "Platform #") || strstr(s, "Platform Name")) {
		clinfo_platform(o, no, s, pl);
		return true;
	}
	return false;
}

int pasted_read_clinfo(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "clinfo" };
	struct pasted_lines it;
	char *line, *none = NULL;
	unsigned none_no = 0;
	bool icds = false;
	struct platforms *pl = calloc(1, sizeof(*pl));

	if (!pl || pasted_lines_init(&it, text, len) < 0) {
		free(pl);
		return -ENOMEM;
	}
	pl->last = -1;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line);
		long n = platform_count(s);

		icds |= icd_listing(s);
		if (n < 0 && platform_line(&o, it.no, s, pl))
			continue;

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
	free(pl);
	if (none)
		put_no_platform(&o, none, none_no, icds);
	free(none);
	return pasted_out_result(&o);
}
