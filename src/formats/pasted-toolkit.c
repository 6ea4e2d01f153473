// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of the CUDA toolkit's version as people paste it (`gpuenv explain`):
 * - `nvcc --version`: "Cuda compilation tools, release 12.1, V12.1.105" (every nvcc since
 *   CUDA 5 prints this line; the probe reads the same string from the nvcc binary);
 * - /usr/local/cuda/version.txt (CUDA ≤ 11.0): "CUDA Version 11.0.228";
 * - /usr/local/cuda/version.json (CUDA ≥ 11.1): pretty-printed JSON objects
 *   `"cuda" : { "name" : "CUDA SDK", "version" : "12.4.1" }`, then one per component
 *   (`"cuda_cudart"`, `"libcublas"` …), read line by line: a paste is often cut.
 * Facts go to runtime.cuda_toolkits.0 (the toolkit the paste shows; which of several it is, the
 * text does not say).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define TK "runtime.cuda_toolkits.0."

/* version.json's component keys and the snapshot's names for them (schema
 * runtime.cuda_toolkits[].components). */
static const struct {
	const char *json, *component;
} json_components[] = {
	{ "cuda_cudart", "cudart" },   { "libcublas", "cublas" },	{ "libcufft", "cufft" },
	{ "libcusparse", "cusparse" }, { "libnvjitlink", "nvjitlink" }, { "cuda_nvrtc", "nvrtc" },
};

/* "12.4.1" → "12.4": the release, major.minor of a version read. */
static void put_release(struct pasted_out *o, unsigned no, const char *v)
{
	char rel[32], *dot;

	if (!pasted_version_token(v, rel, sizeof(rel)) || !(dot = strchr(rel, '.')))
		return;
	if ((dot = strchr(dot + 1, '.')))
		*dot = '\0';
	pasted_put(o, no, rel, TK "release");
}

/* nvcc's version is also the toolkit's `version` when no version file was pasted before it,
 * as the toolkit probe takes it when no file gives one (version_source "nvcc version
 * string"); a version.txt or version.json pasted after it wins, as the later fact does. */
static void nvcc_line(struct pasted_out *o, unsigned no, const char *p, bool file_version)
{
	char rel[32], full[32];
	const char *v = strstr(p, ", V");

	if (!pasted_version_token(p, rel, sizeof(rel)))
		return;
	pasted_put(o, no, rel, TK "release");
	if (!v || !pasted_version_token(v + 3, full, sizeof(full)))
		return;
	pasted_put(o, no, full, TK "nvcc_version");
	if (!file_version) {
		pasted_put(o, no, full, TK "version");
		pasted_put(o, no, "nvcc version string", TK "version_source");
	}
}

/* `"key" : {` → key into buf. */
static bool json_object_open(const char *s, char *buf, size_t len)
{
	const char *q;
	size_t n;

	if (*s != '"' || !(q = strchr(s + 1, '"')))
		return false;
	n = (size_t)(q - s - 1);
	q++;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != ':')
		return false;
	q++;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != '{' || n >= len)
		return false;
	memcpy(buf, s + 1, n);
	buf[n] = '\0';
	return true;
}

/* `"version" : "12.4.127",` → the string. */
static bool json_version(char *s, char **ret)
{
	char *q;

	if (strncmp(s, "\"version\"", 9) != 0)
		return false;
	s += 9;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != ':')
		return false;
	s++;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '"' || !(q = strchr(s + 1, '"')))
		return false;
	*q = '\0';
	*ret = s + 1;
	return true;
}

int pasted_read_toolkit(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "toolkit" };
	struct pasted_lines it;
	char object[48] = "", *line, *v;
	bool file_version = false; /* version.txt or version.json gave the version */
	const char *p;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char *s = pasted_strip(line);

		if ((p = strstr(s, "Cuda compilation tools, release "))) {
			nvcc_line(&o, it.no, p + 32, file_version);
		} else if ((p = pasted_after(s, "CUDA Version ")) && *p >= '0' && *p <= '9') {
			char ver[32];

			if (pasted_version_token(p, ver, sizeof(ver))) {
				pasted_put(&o, it.no, ver, TK "version");
				pasted_put(&o, it.no, "version.txt", TK "version_source");
				put_release(&o, it.no, ver);
				file_version = true;
			}
		} else if (json_object_open(s, object, sizeof(object))) {
			continue;
		} else if (s[0] == '}') {
			object[0] = '\0';
		} else if (object[0] && json_version(s, &v) && *v) {
			if (strcmp(object, "cuda") == 0) {
				pasted_put(&o, it.no, v, TK "version");
				pasted_put(&o, it.no, "version.json", TK "version_source");
				put_release(&o, it.no, v);
				file_version = true;
			}
			for (size_t i = 0; i < ARRAY_SIZE(json_components); i++)
				if (strcmp(object, json_components[i].json) == 0)
					pasted_put(&o, it.no, v, TK "components.%s.version",
						   json_components[i].component);
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
