// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of ollama's server log lines about its ROCm (`gpuenv explain`; ollama's
 * discover/amd_linux.go, Go log/slog text: key=value, a value with blanks quoted):
 *   msg="amdgpu is not supported (supported types:[gfx1030 gfx1100 …])" gpu_type=gfx906
 *       gpu=0 library=/usr/local/lib/ollama/rocm
 *     the gfx targets of the rocBLAS ollama found (GetSupportedGFX(): the names of
 *     rocblas/library/TensileLibrary_lazy_<gfx>.dat) as framework.ollama.rocm_variants[0].
 *     {rocblas_targets[].gfx, dir}, and the GPU's as driver.amdgpu.kfd_nodes[].gfx, one per
 *     GPU line in order (as pasted-rocminfo.c counts GPU agents);
 *   msg="skipping rocm gfx compatibility check" HSA_OVERRIDE_GFX_VERSION=10.3.0
 *     the server's override, as environment.HSA_OVERRIDE_GFX_VERSION.
 * Journal prefixes before "time=" do not matter: the words are looked for in the line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define GFX_MAX	       32  /* bytes of a gfx name kept ("gfx90a:xnack-" and shorter) */
#define TARGETS_MAX    64  /* targets read from one list */
#define GPUS_MAX       64  /* GPU lines read */
#define SLOG_VALUE_MAX 512 /* bytes of a key=value's value kept (library=, a path) */

static const char unsupported[] = "amdgpu is not supported (supported types:[";
static const char skipping[] = "skipping rocm gfx compatibility check";

/* "gfx" and letters, digits, ':', '+', '-' only (a target ID): copied into buf. */
static bool gfx_word(const char *s, size_t n, char *buf, size_t len)
{
	if (n < 4 || n >= len || strncmp(s, "gfx", 3) != 0)
		return false;
	for (size_t i = 3; i < n; i++)
		if (!strchr("0123456789abcdefghijklmnopqrstuvwxyz:+-", s[i]))
			return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* The value of " key=" in line (quoted or up to a blank), copied into buf; false when none. */
static bool slog_value(const char *line, const char *key, char *buf, size_t len)
{
	char pat[48];
	const char *v;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	if (!(v = strstr(line, pat)))
		return false;
	v += strlen(pat);
	if (*v == '"') {
		const char *q = strchr(++v, '"');

		if (!q)
			return false;
		n = (size_t)(q - v);
	} else
		n = strcspn(v, " \t");
	if (!n || n >= len)
		return false;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return true;
}

int pasted_read_ollama_log(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "ollama-log" };
	struct pasted_lines it;
	unsigned gpus = 0;
	bool have_list = false;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char buf[SLOG_VALUE_MAX], gfx[GFX_MAX];
		const char *p = strstr(line, unsupported), *end;
		unsigned k = 0;

		if (!p) {
			if (strstr(line, skipping) &&
			    slog_value(line, "HSA_OVERRIDE_GFX_VERSION", buf, sizeof(buf)))
				pasted_put(&o, it.no, buf, "environment.HSA_OVERRIDE_GFX_VERSION");
			continue;
		}
		p += strlen(unsupported);
		if (!(end = strchr(p, ']')))
			continue;
		/* one list per paste: ollama prints the same one for each GPU it skips */
		while (!have_list && p < end && k < TARGETS_MAX) {
			size_t n;

			p += strspn(p, " ");
			n = strcspn(p, " ]");
			if (n && gfx_word(p, n, gfx, sizeof(gfx)))
				pasted_put(
					&o, it.no, gfx,
					"framework.ollama.rocm_variants.0.rocblas_targets.%u.gfx",
					k++);
			p += n;
		}
		if (k) {
			have_list = true;
			if (slog_value(end, "library", buf, sizeof(buf)))
				pasted_put(&o, it.no, buf, "framework.ollama.rocm_variants.0.dir");
		}
		if (gpus < GPUS_MAX && slog_value(end, "gpu_type", buf, sizeof(buf)) &&
		    gfx_word(buf, strlen(buf), gfx, sizeof(gfx)))
			pasted_put(&o, it.no, gfx, "driver.amdgpu.kfd_nodes.%u.gfx", gpus++);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
