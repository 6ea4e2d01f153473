// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted package listings (`gpuenv explain`), for the packages that decide the GPU
 * stack only:
 * - `pip list` ("torch   2.1.0+cu121", an editable install adds its location column) and
 *   `pip freeze` ("torch==2.1.0+cu121"), as pip's list/freeze commands print them, also
 *   inside collect_env's "[pip3] torch==2.1.0" lines;
 * - `conda list` ("pytorch  2.1.0  py3.10_cuda12.1_cudnn8.9.2_0  pytorch": name, version,
 *   build, channel; conda's list command), also collect_env's "[conda] …" lines.
 * pip's names are compared as PEP 503 normalises them ("nvidia_cudnn_cu12" is
 * "nvidia-cudnn-cu12"). Facts go to the first Python environment of the snapshot
 * (framework.python_envs.0): a paste is taken to show one. pip: packages.<framework>.dist_name
 * / dist_version (torch, tensorflow, jax, cupy, numba, warp), jaxlib and the jax plugins,
 * every nvidia-* wheel in nvidia_wheels[]; conda: conda_packages[] for the names the python
 * probe keeps (gpu-names.h conda_gpu_package()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formats/gpu-names.h"
#include "formats/pasted-scan.h"
#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"
#include "shared/strmap.h"

#define ENV	     "framework.python_envs.0"
#define PKG	     ENV ".packages."
#define NAME_MAX_LEN 96
#define SLOTS_MAX    1024

/* a row is two to four fields (pip list, conda list): a line split no further than that, as most
 * lines given here, a kernel log's naming nvidia, have more (docs/explain.md) */
#define FIELDS_MAX 4

struct listing {
	bool conda_header; /* "# Name  Version  Build  Channel" seen */
	/* the element of each array a name was given, so that a name pasted twice keeps one */
	struct strmap wheels, conda, cupy, plugins;
};

/* PEP 503: lower case, runs of "-", "_", "." as one "-". False when it does not fit. */
static bool normalise(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s; s++) {
		char c = *s;

		if (c == '_' || c == '.' || c == '-') {
			if (n && buf[n - 1] == '-')
				continue;
			c = '-';
		} else if (c >= 'A' && c <= 'Z') {
			c = (char)(c - 'A' + 'a');
		}
		if (n + 1 >= len)
			return false;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return n > 0;
}

/* A distribution version: starts with a digit, then PEP 440 / conda characters. */
static bool is_version(const char *v)
{
	if (*v < '0' || *v > '9')
		return false;
	return strspn(v, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+_!-*") ==
	       strlen(v);
}

/* The element for key; -ERANGE past SLOTS_MAX names (skipped: the facts are capped anyway,
 * this keeps the maps bounded too), -ENOMEM. */
static int slot(struct strmap *m, const char *key, size_t *ret)
{
	if (strmap_get(m, key, ret))
		return 0;
	if (m->n >= SLOTS_MAX)
		return -ERANGE;
	*ret = m->n;
	return strmap_put(m, key, m->n);
}

static bool slotted(struct pasted_out *o, struct strmap *m, const char *key, size_t *ret)
{
	int r = slot(m, key, ret);

	if (r == -ENOMEM && !o->err)
		o->err = r;
	return r == 0;
}

static bool in(const char *name, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* "jax-cuda12-plugin" → platform "cuda", major "12", kind "plugin" (or "pjrt"). */
static bool jax_plugin(const char *name, char *platform, size_t plen, char *major, size_t mlen,
		       const char **kind)
{
	const char *p = name + 4, *d;
	size_t l;

	if (strncmp(name, "jax-", 4) != 0)
		return false;
	if (strncmp(p, "cuda", 4) == 0)
		l = 4;
	else if (strncmp(p, "rocm", 4) == 0)
		l = 4;
	else
		return false;
	d = p + l;
	size_t dl = strspn(d, "0123456789");
	if (!dl || dl >= mlen || l >= plen)
		return false;
	if (strcmp(d + dl, "-plugin") == 0)
		*kind = "plugin";
	else if (strcmp(d + dl, "-pjrt") == 0)
		*kind = "pjrt";
	else
		return false;
	memcpy(platform, p, l);
	platform[l] = '\0';
	memcpy(major, d, dl);
	major[dl] = '\0';
	return true;
}

static void pip_package(struct pasted_out *o, struct listing *L, unsigned no, const char *raw,
			const char *version)
{
	static const char *const tensorflow[] = { "tensorflow",	      "tensorflow-gpu",
						  "tensorflow-cpu",   "tf-nightly",
						  "tf-nightly-gpu",   "tensorflow-rocm",
						  "tensorflow-macos", NULL };
	char name[NAME_MAX_LEN], platform[8], major[8];
	const char *kind, *fw = NULL;
	size_t i;

	if (!normalise(raw, name, sizeof(name)) || !is_version(version))
		return;
	if (strcmp(name, "torch") == 0)
		fw = "torch";
	else if (in(name, tensorflow))
		fw = "tensorflow";
	else if (strcmp(name, "jax") == 0)
		fw = "jax";
	else if (strcmp(name, "numba") == 0)
		fw = "numba";
	else if (strcmp(name, "warp-lang") == 0)
		fw = "warp";
	if (fw) {
		pasted_put(o, no, raw, PKG "%s.dist_name", fw);
		pasted_put(o, no, version, PKG "%s.dist_version", fw);
		return;
	}
	if (strcmp(name, "jaxlib") == 0) {
		const char *plus = strchr(version, '+');

		pasted_put(o, no, version, PKG "jax.jaxlib_dist_version");
		if (plus) /* old CUDA jaxlib wheels: "0.4.1+cuda11.cudnn86" */
			pasted_put(o, no, plus + 1, PKG "jax.jaxlib_local_version");
		return;
	}
	if (jax_plugin(name, platform, sizeof(platform), major, sizeof(major), &kind)) {
		char key[24];

		snprintf(key, sizeof(key), "%s%s", platform, major);
		if (!slotted(o, &L->plugins, key, &i))
			return;
		pasted_put(o, no, platform, PKG "jax.plugins.%zu.platform", i);
		pasted_put(o, no, major, PKG "jax.plugins.%zu.major", i);
		pasted_put(o, no, raw, PKG "jax.plugins.%zu.%s", i, kind);
		pasted_put(o, no, version, PKG "jax.plugins.%zu.%s_version", i, kind);
		return;
	}
	if (strcmp(name, "cupy") == 0 || strncmp(name, "cupy-", 5) == 0) {
		if (!slotted(o, &L->cupy, name, &i))
			return;
		if (i == 0) {
			pasted_put(o, no, raw, PKG "cupy.dist_name");
			pasted_put(o, no, version, PKG "cupy.dist_version");
		}
		pasted_put(o, no, raw, PKG "cupy.dists.%zu.dist_name", i);
		pasted_put(o, no, version, PKG "cupy.dists.%zu.dist_version", i);
		return;
	}
	if (strncmp(name, "nvidia-", 7) == 0) {
		if (!slotted(o, &L->wheels, name, &i))
			return;
		pasted_put(o, no, raw, ENV ".nvidia_wheels.%zu.name", i);
		pasted_put(o, no, version, ENV ".nvidia_wheels.%zu.version", i);
	}
}

static void conda_package(struct pasted_out *o, struct listing *L, unsigned no, char **f, int n)
{
	size_t i;

	if (!conda_gpu_package(f[0]) || !is_version(f[1]))
		return;
	if (!slotted(o, &L->conda, f[0], &i))
		return;
	pasted_put(o, no, f[0], ENV ".conda_packages.%zu.name", i);
	pasted_put(o, no, f[1], ENV ".conda_packages.%zu.version", i);
	pasted_put(o, no, f[2], ENV ".conda_packages.%zu.build", i);
	if (n > 3)
		pasted_put(o, no, f[3], ENV ".conda_packages.%zu.channel", i);
}

/* Splits at blanks into at most max fields; the count (max + 1 when there are more). */
static int fields(char *s, char **f, int max)
{
	int n = 0;

	/* as strtok_r(s, " \t") would split it, without its set-up per call (every line of a
	 * pip or conda listing comes here) */
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (!*s)
			return n;
		*s++ = '\0';
	}
}

/* A conda build string ("py3.10_cuda12.1_cudnn8.9.2_0", "h2bc3f7f_2", "pypi_0") or a channel
 * word: what tells a conda line from prose without the "# Name" header. */
static bool conda_like(char **f, int n)
{
	static const char *const channels[] = { "pytorch", "nvidia",   "conda-forge", "defaults",
						"pypi",	   "anaconda", "main",	      NULL };

	return strchr(f[2], '_') || (n > 3 && in(f[3], channels));
}

static void line(struct pasted_out *o, struct listing *L, unsigned no, char *s)
{
	char *f[FIELDS_MAX + 1], *eq;
	bool conda = false, pip = false;
	int n;

	/* s is stripped already (pasted_read_packages): again only after a prefix taken off. The
	 * prefixes' first bytes tested before a call: most lines have none (a pip list's row). */
	if (s[0] == '[') {
		if (s[1] == 'c' && strncmp(s, "[conda] ", 8) == 0) {
			conda = true;
			s = pasted_strip(s + 8);
		} else if (s[1] == 'p' &&
			   (strncmp(s, "[pip] ", 6) == 0 || strncmp(s, "[pip3] ", 7) == 0)) {
			pip = true;
			s = pasted_strip(strchr(s, ' ') + 1);
		} else {
			/* dmesg's "[    5.123456] nvidia …", most lines given here: no name
			 * pip_package() or conda_gpu_package() knows starts with "[" */
			return;
		}
	} else if (s[0] == '#' && strncmp(s, "# Name", 6) == 0) {
		L->conda_header = true;
		return;
	}
	/* pip freeze: "name==version" (and "name @ url", which names no version); a line with a
	 * blank (most: a pip list's or conda's row) is not searched for "==" */
	if (!conda && !strchr(s, ' ') && (eq = strstr(s, "=="))) {
		*eq = '\0';
		pip_package(o, L, no, s, eq + 2);
		return;
	}
	n = fields(s, f, FIELDS_MAX);
	if (n == 2 && !conda) {
		pip_package(o, L, no, f[0], f[1]);
	} else if ((n == 3 || n == 4) && !pip) {
		/* pip list of an editable install: "torch 2.1.0a0+git /home/user/pytorch" */
		if (!conda && n == 3 && (f[2][0] == '/' || strchr(f[2], '\\')))
			pip_package(o, L, no, f[0], f[1]);
		else if (conda || L->conda_header || conda_like(f, n))
			conda_package(o, L, no, f, n);
	}
}

int pasted_read_packages(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "packages" };
	struct listing L = { 0 };
	struct pasted_lines it;
	char *s;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((s = pasted_lines_next(&it)) && o.err >= 0)
		line(&o, &L, it.no, pasted_strip(s));
	pasted_lines_done(&it);
	strmap_done(&L.wheels);
	strmap_done(&L.conda);
	strmap_done(&L.cupy);
	strmap_done(&L.plugins);
	return pasted_out_result(&o);
}

size_t pasted_packages_signs(struct pasted_needle *needles, size_t max)
{
	/* A line gives a fact only with a name pip_package() or conda_gpu_package() knows, every
	 * one of which holds one of these in some case (pip's names are compared lower-cased):
	 * "jax" (3 bytes) as the name it is or the start of jaxlib and the plugins'. And the
	 * header after which conda's rows are read as such. */
	static const char *const words[] = {
		"torch", "tensorflow", "nightly", "jax ",   "jax\t", "jax=",   "jaxl",
		"jax-",	 "jax_",       "jax.",	  "numba",  "warp",  "cupy",   "nvidia",
		"cuda",	 "cudnn",      "nccl",	  "cublas", "rocm",  "# Name",
	};
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(words) && n < max; i++)
		needles[n++] = (struct pasted_needle){ words[i], true };
	return n;
}
