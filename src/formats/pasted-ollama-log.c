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
 *     the server's override, as environment.HSA_OVERRIDE_GFX_VERSION;
 *   msg="inference compute" id=GPU-… library=cuda variant=v12 compute=8.6 driver=12.4
 *       name="NVIDIA GeForce RTX 3060" total="11.7 GiB" available="11.5 GiB"
 *     (discover/types.go, one line per GPU ollama keeps; library=cpu where it keeps none) a
 *     CUDA GPU's compute capability and name as driver.cuda.devices[].{compute_capability,
 *     name}, in order, and driver= (cuDriverGetVersion's, as major.minor) as
 *     driver.cuda.driver_version; total= is a rounded size, not read;
 *   msg="Listening on 127.0.0.1:11434 (version 0.5.11)" (server/routes.go) and `ollama -v`'s
 *     "ollama version is 0.5.11": the server's version, as framework.ollama.version.
 * Journal prefixes before "time=" do not matter: the words are looked for in the line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define GFX_MAX	       32  /* bytes of a gfx name kept ("gfx90a:xnack-" and shorter) */
#define TARGETS_MAX    64  /* targets read from one list */
#define GPUS_MAX       64  /* GPU lines read */
#define SLOG_VALUE_MAX 512 /* bytes of a key=value's value kept (library=, a path) */

static const char unsupported[] = "amdgpu is not supported (supported types:[";
static const char skipping[] = "skipping rocm gfx compatibility check";
static const char inference[] = "msg=\"inference compute\"";
static const char listening[] = "msg=\"Listening on ", cli_version[] = "ollama version is ";

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

/* A version as ollama prints it ("0.5.11", "0.12.3-rc1"): a digit, then digits, dots,
 * letters and '-' (git describe's suffix); its length, 0 when none. */
static size_t version_len(const char *s)
{
	size_t n;

	if (*s < '0' || *s > '9')
		return 0;
	n = strspn(s, "0123456789.abcdefghijklmnopqrstuvwxyz-");
	return n < 64 ? n : 0;
}

/* "major.minor" (compute=, driver=): digits, one dot, digits. */
static bool dotted_pair(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (!a || a > 4 || s[a] != '.')
		return false;
	b = strspn(s + a + 1, "0123456789");
	return b && b <= 4 && !s[a + 1 + b];
}

/* One "inference compute" line of a CUDA GPU: its compute capability and name, the
 * driver's CUDA version once. */
static void inference_line(struct pasted_out *o, const char *line, unsigned no, unsigned *gpus,
			   bool *have_driver)
{
	char lib[16], buf[SLOG_VALUE_MAX];

	if (!slog_value(line, "library", lib, sizeof(lib)) || strcasecmp(lib, "cuda") != 0 ||
	    *gpus >= GPUS_MAX)
		return;
	if (!slog_value(line, "compute", buf, sizeof(buf)) || !dotted_pair(buf))
		return;
	pasted_put(o, no, buf, "driver.cuda.devices.%u.compute_capability", *gpus);
	if (slog_value(line, "name", buf, sizeof(buf)))
		pasted_put(o, no, buf, "driver.cuda.devices.%u.name", *gpus);
	(*gpus)++;
	if (!*have_driver && slog_value(line, "driver", buf, sizeof(buf)) && dotted_pair(buf)) {
		pasted_put(o, no, buf, "driver.cuda.driver_version");
		*have_driver = true;
	}
}

/* The server's version: "Listening on ADDR (version V)" or "ollama version is V". */
static void version_line(struct pasted_out *o, const char *line, unsigned no, bool *have)
{
	const char *v = NULL, *p;
	char buf[64];
	size_t n;

	if ((p = strstr(line, listening)) && (p = strstr(p, " (version ")))
		v = p + strlen(" (version ");
	else if ((p = strstr(line, cli_version)))
		v = p + strlen(cli_version);
	if (!v || !(n = version_len(v)) || *have)
		return;
	memcpy(buf, v, n);
	buf[n] = '\0';
	pasted_put(o, no, buf, "framework.ollama.version");
	*have = true;
}

int pasted_read_ollama_log(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "ollama-log" };
	struct pasted_lines it;
	unsigned gpus = 0, cuda_gpus = 0;
	bool have_list = false, have_driver = false, have_version = false;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char buf[SLOG_VALUE_MAX], gfx[GFX_MAX];
		const char *p = strstr(line, unsupported), *end;
		unsigned k = 0;

		if (!p) {
			if (strstr(line, inference))
				inference_line(&o, line, it.no, &cuda_gpus, &have_driver);
			else
				version_line(&o, line, it.no, &have_version);
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
