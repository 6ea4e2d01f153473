// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of what PyTorch's device queries print (`gpuenv explain`; torch/cuda/__init__.py):
 * - torch.cuda.get_arch_list(): the repr of a list of the architectures the build carries,
 *   "['sm_50', 'sm_60', …, 'sm_90', 'compute_90']" (CUDA: sm_XY SASS, compute_XY PTX) or
 *   "['gfx900', 'gfx906', …]" (ROCm), alone or after "print(torch.__version__,
 *   torch.version.cuda, …)"'s "2.1.0+cu121 12.1 " (the command explain asks for): torch's
 *   arch_targets[].{target, kind (sass, ptx, amdgcn), gfx}, and then its version,
 *   local_version and cuda (None for a CPU or ROCm build, as collect_env writes it);
 * - torch.cuda.get_device_capability(N) in an interactive session or a print: "(8, 6)" on the
 *   line after the call, or after it on the same line: driver.cuda.devices[N].compute_capability;
 * - torch.cuda.get_device_name(N): "'NVIDIA GeForce RTX 3090'": driver.cuda.devices[N].name.
 * A list on a line naming TensorFlow's cuda_compute_capabilities is the tf-build-info reader's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define TORCH	  "framework.python_envs.0.packages.torch"
#define ARCHS_MAX 64

static bool digits_after(const char *s, const char *prefix, size_t max)
{
	size_t l = strlen(prefix), n;

	if (strncmp(s, prefix, l) != 0)
		return false;
	n = strspn(s + l, "0123456789");
	return n >= 1 && n <= max && s[l + n] == '\0';
}

/* "gfx90a", "gfx942:sramecc+:xnack-": the processor into buf. */
static bool gfx_target(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, ":");

	if (n < 4 || n >= len || strncmp(s, "gfx", 3) != 0 ||
	    strspn(s + 3, "0123456789abcdef") != n - 3)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

static const char *kind_of(const char *t, char *gfx, size_t len)
{
	if (digits_after(t, "sm_", 4))
		return "sass";
	if (digits_after(t, "compute_", 4))
		return "ptx";
	if (gfx_target(t, gfx, len))
		return "amdgcn";
	return NULL;
}

/* "2.1.0+cu121 12.1 " or "2.1.0 None " before the list: torch's version and CUDA. */
static void version_prefix(struct pasted_out *o, unsigned no, char *line, char *list)
{
	char *save = NULL, *t[3];
	size_t n = 0;

	*list = '\0';
	for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (n < 3)
			t[n++] = w;
		else
			return;
	if (n != 2 || !isdigit((unsigned char)t[0][0]) || strspn(t[0], "0123456789.") < 3 ||
	    (strcmp(t[1], "None") != 0 && strspn(t[1], "0123456789.") != strlen(t[1])))
		return;
	const char *plus = strchr(t[0], '+');
	if (plus && strspn(t[0], "0123456789.") != (size_t)(plus - t[0]))
		return;
	if (!plus && strspn(t[0], "0123456789.") != strlen(t[0]))
		return; /* "2.1.0a0" is a source build: left to collect_env */
	pasted_put(o, no, t[0], TORCH ".version");
	if (plus)
		pasted_put(o, no, plus + 1, TORCH ".local_version");
	pasted_put(o, no, t[1], TORCH ".cuda");
}

/* Is line an architecture list (after an optional version prefix)? With o, its facts. */
static bool read_arch_list(struct pasted_out *o, unsigned no, char *line)
{
	char items[ARCHS_MAX][PASTED_ITEM_MAX];
	char *b = strchr(line, '[');
	const char *end;
	char gfx[PASTED_ITEM_MAX];
	int n;

	if (!b || strstr(line, "cuda_compute_capabilities"))
		return false;
	n = pasted_py_list(b, items, ARCHS_MAX, &end);
	if (n <= 0 || *pasted_strip((char *)end))
		return false;
	for (int i = 0; i < n; i++)
		if (!kind_of(items[i], gfx, sizeof(gfx)))
			return false;
	if (!o)
		return true;
	for (int i = 0; i < n; i++) {
		const char *kind = kind_of(items[i], gfx, sizeof(gfx));

		pasted_put(o, no, items[i], TORCH ".arch_targets.%d.target", i);
		pasted_put(o, no, kind, TORCH ".arch_targets.%d.kind", i);
		if (strcmp(kind, "amdgcn") == 0)
			pasted_put(o, no, gfx, TORCH ".arch_targets.%d.gfx", i);
	}
	if (b > line)
		version_prefix(o, no, line, b);
	return true;
}

/* "(8, 6)" at the start of s. */
static bool capability(const char *s, char *buf, size_t len)
{
	unsigned ma, mi;
	int n = 0;

	if (sscanf(s, "(%2u, %2u)%n", &ma, &mi, &n) != 2 || n == 0 || *pasted_strip((char *)s + n))
		return false;
	snprintf(buf, len, "%u.%u", ma, mi);
	return true;
}

/* The device the call on this line asks about: get_device_capability() / (N) / ("cuda:N"). */
static int call_device(const char *s, const char *call, const char **ret_after)
{
	const char *p = strstr(s, call), *q;
	unsigned d = 0;

	if (!p)
		return -1;
	p += strlen(call);
	if (strncmp(p, "\"cuda:", 6) == 0 || strncmp(p, "'cuda:", 6) == 0)
		p += 6;
	if (isdigit((unsigned char)*p) && pasted_index(p, &d, &q))
		p = q;
	if (*p == '\'' || *p == '"')
		p++;
	if (*p != ')')
		return -1;
	*ret_after = p + 1;
	return (int)d;
}

/* The answer of an interactive ">>> torch.__version__" / ">>> torch.version.cuda": the quoted
 * string (or None) on the next line. */
static void version_answer(struct pasted_out *o, unsigned no, const char *asked, char *s)
{
	size_t l = strlen(s);
	char *plus;

	if (strcmp(asked, "cuda") == 0 && strcmp(s, "None") == 0) {
		pasted_put(o, no, "None", TORCH ".cuda");
		return;
	}
	if (l < 3 || (s[0] != '\'' && s[0] != '"') || s[l - 1] != s[0])
		return;
	s[l - 1] = '\0';
	s++;
	if (!isdigit((unsigned char)s[0]) ||
	    strspn(s, "0123456789.+abcdefghijklmnopqrstuvwxyz") != strlen(s))
		return;
	pasted_put(o, no, s, TORCH ".%s", asked);
	if (strcmp(asked, "version") == 0 && (plus = strchr(s, '+')))
		pasted_put(o, no, plus + 1, TORCH ".local_version");
}

int pasted_read_torch_arch(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "torch-arch" };
	struct pasted_lines it;
	int cap_dev = -1, name_dev = -1;
	const char *asked = NULL;
	char *line, *last_list = NULL;
	unsigned last_no = 0;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *s = pasted_strip(line), cc[16];
		const char *after = NULL;
		int d;

		if (asked) {
			version_answer(&o, it.no, asked, s);
			asked = NULL;
			continue;
		}
		if (cap_dev >= 0 && capability(s, cc, sizeof(cc))) {
			pasted_put(&o, it.no, cc, "driver.cuda.devices.%d.compute_capability",
				   cap_dev);
		} else if (name_dev >= 0 && (s[0] == '\'' || s[0] == '"') && strlen(s) > 2 &&
			   s[strlen(s) - 1] == s[0]) {
			s[strlen(s) - 1] = '\0';
			pasted_put(&o, it.no, s + 1, "driver.cuda.devices.%d.name", name_dev);
		} else if (read_arch_list(NULL, it.no, s)) {
			/* the last list pasted is the build judged: two lists are two environments
			 * (kept: the walk's line buffer holds only the current line) */
			free(last_list);
			last_list = strdup(s);
			last_no = it.no;
			if (!last_list)
				o.err = -ENOMEM;
		} else {
			cap_dev = name_dev = -1;
			/* the prompt, unless the input layer took ">>>" for Markdown quote markers */
			const char *q = pasted_after(s, ">>> ") ?: s;

			if (strcmp(q, "torch.__version__") == 0)
				asked = "version";
			else if (strcmp(q, "torch.version.cuda") == 0)
				asked = "cuda";
			if ((d = call_device(s, "get_device_capability(", &after)) >= 0) {
				while (*after == ' ')
					after++;
				if (capability(after, cc, sizeof(cc)))
					pasted_put(&o, it.no, cc,
						   "driver.cuda.devices.%d.compute_capability", d);
				else
					cap_dev = d;
			} else if ((d = call_device(s, "get_device_name(", &after)) >= 0) {
				name_dev = d;
			}
			continue;
		}
		cap_dev = name_dev = -1;
	}
	if (last_list && o.err >= 0)
		read_arch_list(&o, last_no, last_list);
	free(last_list);
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
