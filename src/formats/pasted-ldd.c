// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `ldd` output (`gpuenv explain`; glibc's ldd runs ld.so with
 * LD_TRACE_LOADED_OBJECTS, elf/rtld.c prints "\t<name> => <path> (0x<address>)" for each
 * object and "\t<name> => not found" for one it cannot find). What it shows is the dynamic
 * loader's answer for that program in that shell (its LD_LIBRARY_PATH included):
 * - libcuda.so.1, libnvidia-ml.so.1 and libcuda.so resolved: driver.userspace.{libcuda,
 *   libnvidia_ml, libcuda_so}.{soname, path, is_stub} (a "stubs" component is CUDA's
 *   link-time stub);
 * - a GPU library "not found": the symptom of runtime.library-not-found (what Python's import
 *   says as "cannot open shared object file"). libcuda.so.1 not found is not that rule's: the
 *   CUDA runtime dlopen()s it, and ldd of a program linking it directly names no framework.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

static const struct {
	const char *soname, *key;
} driver_libs[] = {
	{ "libcuda.so.1", "libcuda" },
	{ "libnvidia-ml.so.1", "libnvidia_ml" },
	{ "libcuda.so", "libcuda_so" },
};

/* The GPU runtime libraries a framework links (schema: framework loads), by name prefix. */
static bool gpu_library(const char *soname)
{
	static const char *const prefixes[] = {
		"libcudart.",  "libcublas",	  "libcudnn",
		"libnccl.",    "libnvrtc",	  "libnvJitLink",
		"libcufft",    "libcusparse",	  "libcurand.",
		"libcusolver", "libcupti.",	  "libnvToolsExt",
		"libcufile",   "libnvshmem_host", "libamdhip64.",
		"libhiprtc",   "librocblas",	  "libhipblas",
		"libMIOpen.",  "librccl.",	  "libhsa-runtime64.",
		NULL,
	};

	for (size_t i = 0; prefixes[i]; i++)
		if (strncmp(soname, prefixes[i], strlen(prefixes[i])) == 0)
			return strstr(soname, ".so") != NULL;
	return false;
}

int pasted_read_ldd(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "ldd" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *s = pasted_strip(line), *arrow = strstr(s, " => "), *path, *addr;

		if (!arrow || strchr(s, ' ') != arrow)
			continue; /* "<name> => …": the name has no blank */
		*arrow = '\0';
		path = arrow + 4;
		if (strcmp(path, "not found") == 0) {
			char msg[256];

			snprintf(msg, sizeof(msg), "%s => not found", s);
			if (gpu_library(s))
				pasted_put(&o, it.no, msg, "symptoms.runtime.library-not-found");
			continue;
		}
		addr = strstr(path, " (0x");
		if (path[0] != '/' || !addr || addr[strlen(addr) - 1] != ')')
			continue;
		*addr = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(driver_libs); i++) {
			if (strcmp(s, driver_libs[i].soname) != 0)
				continue;
			pasted_put(&o, it.no, s, "driver.userspace.%s.soname", driver_libs[i].key);
			pasted_put(&o, it.no, path, "driver.userspace.%s.path", driver_libs[i].key);
			pasted_put(&o, it.no, strstr(path, "/stubs/") ? "true" : "false",
				   "driver.userspace.%s.is_stub", driver_libs[i].key);
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
