// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `ldconfig -p` (`gpuenv explain`; glibc elf/cache.c print_cache():
 * "1234 libs found in cache `/etc/ld.so.cache'", then "\t<soname> (<flags>) => <path>" per
 * entry, in the cache's order, which is the order ld.so takes them in). For this ABI's entries
 * (libc6,x86-64; "libc6" alone is i386) of the GPU libraries: the first entry of each soname is
 * what ld.so loads from the cache (found_via "ld.so.cache"): driver.userspace.libcuda
 * (libcuda.so.1), .libnvidia_ml, .libcuda_so (libcuda.so), and runtime.libraries.<family>[].
 * A path with a "stubs" component is CUDA's link-time stub.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/strmap.h"

#define SONAMES_MAX 256

static const char *const families[] = {
	"libcudart",   "libcublasLt",  "libcublas",  "libcudnn",    "libnccl",
	"libnvrtc",    "libnvJitLink", "libcufft",   "libcusparse", "libcurand",
	"libcusolver", "libamdhip64",  "librocblas", "libOpenCL",   NULL,
};

/* "libcudnn.so.9" → "libcudnn"; NULL for another library ("libcudnn_ops.so.9"). */
static const char *family(const char *soname)
{
	for (size_t i = 0; families[i]; i++) {
		size_t l = strlen(families[i]);

		if (strncmp(soname, families[i], l) == 0 && strncmp(soname + l, ".so", 3) == 0)
			return families[i];
	}
	return NULL;
}

static void entry(struct pasted_out *o, unsigned no, const char *prefix, const char *soname,
		  const char *path)
{
	pasted_put(o, no, soname, "%s.soname", prefix);
	pasted_put(o, no, path, "%s.path", prefix);
	pasted_put(o, no, "ld.so.cache", "%s.found_via", prefix);
	pasted_put(o, no, strstr(path, "/stubs/") ? "true" : "false", "%s.is_stub", prefix);
}

int pasted_read_ldconfig(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "ldconfig" };
	struct strmap seen = STRMAP_INIT, count = STRMAP_INIT;
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *s = pasted_strip(line), *flags, *arrow, *path;
		const char *fam, *p;
		char prefix[96];
		size_t i, n;

		if ((p = strstr(s, " libs found in cache `")) && s[0] >= '0' && s[0] <= '9') {
			char num[24];

			*(char *)p = '\0';
			if (pasted_number_unit(s, NULL, num, sizeof(num)))
				pasted_put(&o, it.no, num, "runtime.loader.ld_so_cache.entries");
			continue;
		}
		if (!(flags = strstr(s, " (")) || !(arrow = strstr(flags, ") => ")))
			continue;
		*flags = '\0';
		flags += 2;
		*arrow = '\0';
		path = pasted_strip(arrow + 5);
		/* this ABI only: "libc6,x86-64" and its hwcaps variants */
		if (strncmp(flags, "libc6,x86-64", 12) != 0 || path[0] != '/')
			continue;
		if (strmap_get(&seen, s, &i))
			continue; /* a later entry of the same soname: ld.so takes the first */
		if (strcmp(s, "libcuda.so.1") == 0)
			snprintf(prefix, sizeof(prefix), "driver.userspace.libcuda");
		else if (strcmp(s, "libnvidia-ml.so.1") == 0)
			snprintf(prefix, sizeof(prefix), "driver.userspace.libnvidia_ml");
		else if (strcmp(s, "libcuda.so") == 0)
			snprintf(prefix, sizeof(prefix), "driver.userspace.libcuda_so");
		else if ((fam = family(s)) && seen.n < SONAMES_MAX) {
			if (!strmap_get(&count, fam, &n))
				n = 0;
			if (strmap_put(&count, fam, n + 1) < 0) {
				o.err = -ENOMEM;
				break;
			}
			snprintf(prefix, sizeof(prefix), "runtime.libraries.%s.%zu", fam, n);
		} else {
			continue;
		}
		if (strmap_put(&seen, s, 0) < 0) {
			o.err = -ENOMEM;
			break;
		}
		entry(&o, it.no, prefix, s, path);
	}
	pasted_lines_done(&it);
	strmap_done(&seen);
	strmap_done(&count);
	return pasted_out_result(&o);
}
